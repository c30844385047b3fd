"""The two checks every redaction round's own examples go through (rounds 33 - 38): a secret gone with its fact kept,
and a look-alike kept, each under the rules alone and with the tagger."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from hindsight.safety.redact import redact

TAGGER = pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])


def round_tests(gone: Sequence[Any], keep: Sequence[Any]) -> tuple[Callable[..., None], Callable[..., None]]:
    """``test_secret_gone_fact_kept`` over `gone` (text, secrets, facts) and ``test_lookalike_kept`` over `keep`
    (text, values), for a round's module to bind under those names."""

    @pytest.mark.parametrize(("text", "secrets", "facts"), gone)
    @TAGGER
    def test_secret_gone_fact_kept(text: str, secrets: list[str], facts: list[str], tagger: bool) -> None:
        out = redact(text, tagger=tagger).text
        assert all(s not in out for s in secrets) and all(f in out for f in facts), out

    @pytest.mark.parametrize(("text", "values"), keep)
    @TAGGER
    def test_lookalike_kept(text: str, values: list[str], tagger: bool) -> None:
        out = redact(text, tagger=tagger).text
        assert all(v in out for v in values), out

    return test_secret_gone_fact_kept, test_lookalike_kept
