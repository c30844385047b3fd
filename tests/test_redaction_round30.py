"""Redaction round 30 (issue 10): secrets a sentence hands over in a list, aloud or beside a lock, and stand-ins a
sentence names as such - EN and ZH, in wordings of our own (none copied from a released set).

Documents listed by their holders after one plural label ("passport numbers: mine is ..., and Mei's is ...",
"护照号：我的是...，小王的是..."); a code read out or texted and set off by commas ("read the code out to me on the
call, 482 913, ..."); a lock named, then its code ("lockbox by the garage, code 8352", "钥匙盒，密码 3307"); a card-shaped
number with its PIN right after it (a fuel card's number fails Luhn). A fixture's value made of filler words joined by
"for" ("dummy-token-for-ci") or called a stand-in right after it ("只是占位", "(placeholder)") is kept.
"""

from __future__ import annotations

import pytest
from linear_cost import assert_not_superlinear

from hindsight.safety.redact import redact
from hindsight.safety.redact_cues import find_national_ids, find_otp
from hindsight.safety.redact_vet import declared_public
from hindsight.safety.redact_window import find_cards_by_what_follows
from hindsight.safety.validators import placeholder_words

# (text, the value that goes, a fact that stays)
GONE = [
    ("Embassy wants passport numbers: mine is K48271936 and Mei's is KJ3302918. Due Monday.", "K48271936", "Due Monday"),
    ("Embassy wants passport numbers: mine is K48271936 and Mei's is KJ3302918. Due Monday.", "KJ3302918", "Embassy"),
    ("Consulate needs passport numbers: mine is K48271936 and Ana Costa's is KJ3302918.", "KJ3302918", "Consulate"),
    ("签证要护照号：我的是E73920184，小王的是EH2207731，周五前交。", "EH2207731", "周五前交"),
    ("Dad read the code out to me over the phone, 482 913, for the bank app.", "482 913", "for the bank app"),
    ("Gran read me the clinic's login code on a bad line, 5-0-3-8-1-6. The refill is due Friday.", "5-0-3-8-1-6",
     "refill is due Friday"),
    ("Key safe at the side gate, code 8352. Bins go out Tuesday.", "8352", "Bins go out Tuesday"),
    ("Carer's notes: keypad lock on the shed, combination 60417, mower inside.", "60417", "mower inside"),
    ("奶奶家门口的钥匙盒，密码 3307，护工周三来。", "3307", "护工周三来"),
    ("Gym fob card for locker 12: 6021 4478 9034 1125, PIN 7730. Renews in May.", "6021 4478 9034 1125", "Renews in May"),
    ("加油卡：9012 3344 5566 7781，密码 8812，每月限额三千。", "8812", "每月限额三千"),
]

# (text, the value that stays)
KEEP = [
    ('conftest sets api_token = "dummy-token-for-ci" so the mock accepts any call.', "dummy-token-for-ci"),
    ('测试夹具里写的 secret = "fake-secret-for-unit" 不会上线。', "fake-secret-for-unit"),
    ('集成测试里 secret = "Zq8Lm2Rt7Vb4" 只是占位，上线前会换成环境变量。', "Zq8Lm2Rt7Vb4"),
    ("The fixture sets api_token = 'Kp93Xw7Qm2Lz' (placeholder) so the mock server accepts it.", "Kp93Xw7Qm2Lz"),
    ("We read the error code out to the vendor, 404, and they fixed the route.", "404"),
    ("The keypad on the vending machine shows code 2024 when it runs out of cups.", "2024 when"),
]

# Values the round-30 readings must not shield (still redacted).
STILL = [
    ("Wi-Fi password is Zq8Lm2Rt7Vb4, just ask at the desk.", "Zq8Lm2Rt7Vb4"),
    ("生产库密码 Hq7!vR2#mK9p，测试用的账号另外申请。", "Hq7!vR2#mK9p"),
]


@pytest.mark.parametrize(("text", "secret", "fact"), GONE)
@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
def test_secret_gone_fact_kept(text: str, secret: str, fact: str, tagger: bool) -> None:
    out = redact(text, tagger=tagger).text
    assert secret not in out and fact in out, out


@pytest.mark.parametrize(("text", "value"), KEEP)
@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
def test_lookalike_kept(text: str, value: str, tagger: bool) -> None:
    assert value in redact(text, tagger=tagger).text


@pytest.mark.parametrize(("text", "value"), STILL)
def test_still_redacted(text: str, value: str) -> None:
    assert value not in redact(text).text


def test_filler_joiners() -> None:
    assert placeholder_words("dummy-token-for-test") and placeholder_words("fake_key_for_ci")
    assert not placeholder_words("river-for-moon-42") and not placeholder_words("for-the-real")


def _stand_in(text: str) -> object:
    return [declared_public(text, i + 12, i, "api_key") for i in range(0, len(text), 45)]


@pytest.mark.parametrize(("run", "unit", "n"), [
    (find_otp, "Dad read the code out to me over the phone, 482 913, then key safe by the gate, code 8352; ", 20),
    (find_national_ids, "passport numbers: mine is K48271936 and Mei's is KJ3302918 and Bo's is K11223344. ", 20),
    (find_cards_by_what_follows, "card 6021 4478 9034 1125, PIN 7730; 加油卡 9012 3344 5566 7781，密码 8812。", 100),
    (_stand_in, 'secret = "Zq8Lm2Rt7Vb4" 只是占位，token "Hj72Kw9Qp4Zt" (placeholder). ', 100),
], ids=["codes", "documents", "cards", "stand-in"])
def test_linear_cost(run: object, unit: str, n: int) -> None:
    """Ten times the text costs about ten times as much (the readings alone)."""
    assert_not_superlinear(run, unit * n, unit * 10 * n, slack=0.05)  # type: ignore[arg-type]
