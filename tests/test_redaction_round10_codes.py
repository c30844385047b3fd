"""Round 10 redaction, the r9-only changes: one-time codes after new cues, bulleted code lists, document lists,
Canadian postcodes; placeholder codes and tracking numbers kept.

These changes fixed round-9 cases only and have no held-out evidence (docs/benchmarks.md, "Redaction, round 10"):
they live in their own commit with these tests. Own cases in new wordings, EN and ZH - none copied from a set.
"""

from __future__ import annotations

import pytest

from hindsight.safety.redact import redact

PII: list[tuple[str, list[str], list[str]]] = [
    # One-time codes: a cue, a few words, then the code (EN and ZH), a door code, code lists with bullets or no colon.
    ("Microsoft two-factor prompt showed: 482 917, typed it in on the laptop.", ["482 917"], ["typed it in"]),
    ("朋友帮我做身份验证，发来的码是 K4P9QZ，十分钟有效。", ["K4P9QZ"], ["十分钟有效"]),
    ("单元门禁是 4417#，快递放门口就行。", ["4417"], ["快递放门口"]),
    ("Dropbox backup codes (printed copy in the safe):\n- 8841-2210\n- 7731-0094\n- 5520-6618",
     ["8841-2210", "7731-0094", "5520-6618"], ["printed copy in the safe"]),
    ("Bitwarden recovery codes 7fa21-c0d9e 91b3c-44ae0 then the old ones are void.", ["7fa21-c0d9e", "91b3c-44ae0"],
     ["old ones are void"]),
    # A document cue, a colon, then a list of names and numbers.
    ("Family passports: Ana #712093845, Ben #712093846, renew before 2031.", ["712093845", "712093846"], ["renew before 2031"]),
    ("护照：儿子 E55667788，女儿 E55667789，放在保险柜。", ["E55667788", "E55667789"], ["放在保险柜"]),
    # A Canadian postcode after the province, the town kept.
    ("Mail the cheque to 88 Maple Crescent, Ottawa ON K2P 1L4 by Friday.", ["88 Maple Crescent", "K2P 1L4"], ["Ottawa ON", "by Friday"]),
]

LOOKALIKES: list[str] = [
    # Placeholder codes and a tracking number.
    'The staging OTP check accepts the fake code "111111" only.',
    "测试环境的假验证码 \"000000\" 永远通过。",
    "FedEx tracking number 7734 9921 0046 3381 — out for delivery.",
]


@pytest.mark.parametrize(("text", "secrets", "keep"), PII)
def test_round10_code_removed_fact_kept(text: str, secrets: list[str], keep: list[str]) -> None:
    out = redact(text).text
    assert not [s for s in secrets if s in out], out
    assert not [k for k in keep if k not in out], out


@pytest.mark.parametrize("text", LOOKALIKES)
def test_round10_placeholder_untouched(text: str) -> None:
    assert redact(text).text == text
