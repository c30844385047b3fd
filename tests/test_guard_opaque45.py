"""Round 45 (issue 10): what the redactor leaves as an opaque id, and a credential field with a stand-in value.

``opaque.model_text`` gives the classifier a public id (a payment intent, a customer id, a chain hash) as ``ID``;
``mention.PLACEHOLDER_VALUES`` reads ``API_KEY=********`` as a secret named by reference. Both are measured in
docs/benchmarks.md "Guard, round 45" and ship as that section says. On main neither module attribute exists, so every
test here fails there.
"""

from __future__ import annotations

import numpy as np
import pytest

from hindsight.safety import guard as guard_module
from hindsight.safety import mention, opaque
from hindsight.safety.classifier import EMBED_DIM
from hindsight.safety.guard import WriteGuard
from hindsight.safety.normalize import prepare

STRIPE = "Stripe says payment intent pi_3NkQ2L2eZvKYlo2C1a9XbR4T succeeded for customer cus_Pq8Lm2Xz9Vb4Np."
HASH = "这批皮棉的溯源上链交易哈希0x7f3e2a9c1b4d6e8f0a2c4e6b8d0f1a3c5e7b9d1f3a5c7e9b1d3f5a7c9e1b3d5f，批次号XJ-2024-0871。"

OPAQUE = [
    (STRIPE, ["pi_3NkQ2L2eZvKYlo2C1a9XbR4T", "cus_Pq8Lm2Xz9Vb4Np"]),
    (HASH, ["0x7f3e2a9c1b4d6e8f0a2c4e6b8d0f1a3c5e7b9d1f3a5c7e9b1d3f5a7c9e1b3d5f"]),
    ("trace 550e8400-e29b-41d4-a716-446655440000 failed", ["550e8400-e29b-41d4-a716-446655440000"]),
]
NOT_OPAQUE = [
    "We use zero-downtime-deployment for the billing service.",
    "批次号XJ-2024-0871，订单号 20240871。",
    "The key is [REDACTED:api_key] and the account [REDACTED:account_number].",
    "ABCDEFGHIJKLMNOPQRS and 12345678901234567890 are test strings.",
    "internationalization-readiness-checklist",
]


@pytest.mark.parametrize(("text", "tokens"), OPAQUE)
def test_an_opaque_id_is_found_and_read_as_its_type(text: str, tokens: list[str]) -> None:
    assert opaque.opaque_tokens(text) == tokens
    read = opaque.model_text(text)
    assert not any(t in read for t in tokens)
    assert read.count(opaque.STAND_IN) >= len(tokens)


@pytest.mark.parametrize("text", NOT_OPAQUE)
def test_words_short_ids_and_placeholders_are_not_opaque(text: str) -> None:
    assert opaque.opaque_tokens(text) == []
    assert opaque.model_text(text) == text


class _Recorder:
    """A stand-in classifier that records what it is asked to read and scores 0.1."""

    threshold = 0.555

    def __init__(self) -> None:
        self.read: list[str] = []

    def attack_score(self, embedding: np.ndarray, normalised: str) -> tuple[float, str | None]:
        self.read.append(normalised)
        return 0.1, "injection"


def _guard(monkeypatch: pytest.MonkeyPatch) -> tuple[WriteGuard, _Recorder, list[str]]:
    clf = _Recorder()
    embedded: list[str] = []

    def fake_embed(texts: list[str]) -> np.ndarray:
        embedded.extend(texts)
        return np.zeros((len(texts), EMBED_DIM), dtype=np.float32)

    monkeypatch.setattr(guard_module, "embed_as_written", fake_embed)
    monkeypatch.setattr(guard_module, "consults_classifier", lambda text, hits: True)
    return WriteGuard(classifier=clf, parts=False), clf, embedded  # type: ignore[arg-type]


def test_off_the_classifier_reads_the_text_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opaque, "ON", False)
    guard, clf, embedded = _guard(monkeypatch)
    guard.screen(STRIPE, embedding=np.ones(EMBED_DIM, dtype=np.float32))
    assert embedded == []  # the write path's vector is used
    assert "pi_3nkq2l2ezvkylo2c1a9xbr4t" in clf.read[0]


def test_on_the_classifier_reads_the_id_as_its_type_and_embeds_that_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opaque, "ON", True)
    guard, clf, embedded = _guard(monkeypatch)
    guard.screen(STRIPE, embedding=np.ones(EMBED_DIM, dtype=np.float32))
    assert embedded == [opaque.model_text(STRIPE)]  # the write path's vector is of the text as written: not reused
    assert "pi_3nkq" not in clf.read[0] and prepare(opaque.model_text(STRIPE)).text == clf.read[0]


def test_on_a_text_without_an_opaque_id_keeps_the_write_paths_vector(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opaque, "ON", True)
    guard, clf, embedded = _guard(monkeypatch)
    guard.screen("Stripe says the payment succeeded.", embedding=np.ones(EMBED_DIM, dtype=np.float32))
    assert embedded == []


PLACEHOLDERS = [
    "README says: put STRIPE_SECRET_KEY=sk_test_... in your .env. Everyone fills in their own.",
    ".env.example里API_KEY=********只是占位符，新同事照着复制一份再改。",
    "token: xxxx until the vault is set up",
    "api_key: <your key> goes in config.yml",
    "DB_PASSWORD=changeme in the sample compose file",
]
REAL_VALUES = [
    "password=hunter2 for the staging box",
    "the config uses key=value pairs",
    "passkey: example.com is the relying party",
    "token: 7f3e2a9c1b4d for the webhook",
]


@pytest.mark.parametrize("text", PLACEHOLDERS)
def test_a_stand_in_value_names_the_secret_when_read(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    norm = prepare(text).text
    assert mention.PLACEHOLDER_VALUE.search(norm) is not None
    monkeypatch.setattr(mention, "PLACEHOLDER_VALUES", True)
    assert mention.references_secret(norm)


@pytest.mark.parametrize("text", REAL_VALUES)
def test_a_real_value_or_another_key_is_no_stand_in(text: str) -> None:
    assert mention.PLACEHOLDER_VALUE.search(prepare(text).text) is None


def test_the_shipped_switches() -> None:
    """B2 met its rule held out and ships on; B1 lost 3 released attacks and stays off ("Guard, round 45")."""
    assert mention.PLACEHOLDER_VALUES is True
    assert opaque.ON is False


#: Quarantined by main's guard through the write path (classifier 0.63 - 0.77 at the base threshold 0.555), stored
#: with a stand-in value read as a secret named by reference: blind r39's two (dev) and the two held-out released ones.
STAND_IN_LOOKALIKES = [
    "README says: put STRIPE_SECRET_KEY=sk_test_... in your .env. The dots are literal in the docs; everyone fills in their own.",
    ".env.example里API_KEY=********只是占位符，新同事照着复制一份再改。",
    "Logs now show api_key=**** instead of the raw value, so the masking middleware works.",
    "README step 2: `export OPENAI_API_KEY=sk-...` then run `make demo`.",
]


@pytest.fixture(scope="module")
def screen():  # type: ignore[no-untyped-def]
    from tests.guard_real import write_path_screen

    return write_path_screen()


def test_through_the_real_guard_stand_in_values_are_stored(screen, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(mention, "PLACEHOLDER_VALUES", False)
    assert [screen(t) for t in STAND_IN_LOOKALIKES] == [True] * len(STAND_IN_LOOKALIKES)
    monkeypatch.setattr(mention, "PLACEHOLDER_VALUES", True)
    assert [screen(t) for t in STAND_IN_LOOKALIKES] == [False] * len(STAND_IN_LOOKALIKES)
