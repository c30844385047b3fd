"""Redaction round 13: the kinds blind r13 / r14's PII writers found (EN and ZH, new wordings, none copied from a set).

- spoken forms read as written ones (``redact_spelled``): digits read one by one with spaces, fillers between a cue
  and its value, a Chinese house number / year-month in numerals, a spoken year after a month;
- values a found value vouches for (``redact_echo``): a spoken restatement of a found number, a sibling account in
  its sentence, its record's expiry / postcode / key-ID, the floor and door after an address;
- card expiry next to a UnionPay number the Luhn test calls an account; a password changed and then given;
- an organisation named right before its address, a template mailbox at a reserved domain, a value named a digest.
"""

from __future__ import annotations

import pytest
from redaction_helpers import assert_linear_cost

from hindsight.safety.redact import redact

PII = [
    # spoken forms
    ("transcript: the bank texted a code, it's 4 1 9 0 7 2, I'm typing it in now", "4 1 9 0 7 2"),
    ("（语音）验证码我念给你……嗯，三九四七零二，对，三九四七零二。", "三九四七零二"),
    ("voicemail: the Netflix password is, um, Bluefin2290, capital B", "Bluefin2290"),
    ("（语音）寄到我家：杭州西湖区，文三路二十六号四单元七楼一号，谢谢。", "文三路二十六号四单元七楼一号"),
    ("Cousin's checking account at Harbor Credit Union is 6 6 1 0 2 9 4 7 3 8, for the gift.", "6 6 1 0 2 9 4 7 3 8"),
    # restated / sibling / record / detail
    ("note to self: my cell is oh seven nine one two, three three four, eight eight one, that's 07912 334881", "oh seven nine one two, three three four, eight eight one"),
    ("（语音）李叔的手机，一五八，三三零六，二九七一，就是 15833062971，记一下。", "一五八，三三零六，二九七一"),
    ("Payroll: main account 4417602233 (Ally), the rest to savings 4417602291.", "4417602291"),
    ("INSERT INTO saved_cards (user_id, card_no, expiry) VALUES (77, '4539578763621486', '11/28');", "11/28"),
    ("INSERT INTO 支付卡 (用户, 卡号, 有效期) VALUES ('U3310', '6259650871234560', '2028/03');", "2028/03"),
    ("Mailing label\nStreet: 14 Wren Gardens\nCity: Bristol\nPostcode: BS7 9QT\nNote: side gate", "BS7 9QT"),
    ("obs:\n  ak: QWTR8KZ2LM4XP7NB3VYC\n  sk: uP4nQ8sW2xZ6cV0bN3mK7jH1gF5dS9aL\n  bucket: backups", "QWTR8KZ2LM4XP7NB3VYC"),
    ("For the lease form, my address is 12 Rue Victor Hugo, Nantes (4th floor, door B).", "4th floor, door B"),
    # card expiry, changed password, a document named for a trip
    ("外婆的银联卡 622848 0011 2233 4456 绑在淘宝上了，有效期 08/27。", "08/27"),
    ("Grandad's Visa 4539 5787 6362 1486, expiry June twenty-nine, code 552.", "June twenty-nine"),
    ("（语音）卡号是 4539 5787 6362 1486，有效期二零二七年三月。", "二零二七年三月"),
    ("楼下车库的门禁密码又换了，现在是 770214*，别告诉外人。", "770214*"),
    ("The shed padlock PIN got changed, it's now 8841, same as the old gym locker.", "8841"),
    ("Passport for the Lisbon conference is 548812037 (UK); scan is in Drive.", "548812037"),
]

KEEP = [
    ("The embassy's consular desk is at 12 Harbour Walk, Dublin D02 X285, open mornings only.", "12 Harbour Walk"),
    ("Expo venue: Riverside Hall North, 220 Quay St, Glasgow. Badges are collected at door 3.", "220 Quay St"),
    ("Invoice header: Pine Ridge Supplies Ltd, Unit 9 Tannery Lane, York YO1 7PW | VAT GB123456789", "Unit 9 Tannery Lane"),
    ("公司前台在上海市徐汇区漕溪北路 18 号 9 楼，访客请先登记。", "漕溪北路 18 号"),
    ("Returns go to: Customer Returns Dept., Distribution Center 4, 1800 Harbor Blvd, Oakland, CA 94607", "1800 Harbor Blvd"),
    ("Docs: run git config --global user.email \"your.name@example.com\" before the first commit.", "your.name@example.com"),
    ("[build] layer cache key py311-deps-4e9a1c07b3d2f865 (hash of requirements.txt) reused", "py311-deps-4e9a1c07b3d2f865"),
    ("数据集放在 IPFS，CID 是 QmT5NvUtoM5nWFfrQdVrFtvGfKFmG7AHE8P34isapyhCxX，大家直接取。", "QmT5NvUtoM5nWFfrQdVrFtvGfKFmG7AHE8P34isapyhCxX"),
    ("Parcel left the depot, tracking 1Z 9A2 W41 02 7713 5508, arriving Monday.", "02 7713 5508"),
    ("Sprint notes: we moved 3 8 1 tickets to done and the build went green.", "3 8 1"),
    ("快递改寄到家：南京市鼓楼区中山路 5 号（走小区北门）。", "走小区北门"),
    ("Meeting moved to March twenty-eight; the deck is in the shared drive.", "March twenty-eight"),
    ("Table 14 booked for 7pm, order ref 55612 - 55619 for the two parties.", "55619"),
]


CASES = [(text, value, True) for text, value in PII] + [(text, value, False) for text, value in KEEP]


@pytest.mark.parametrize(("text", "value", "secret"), CASES)
@pytest.mark.parametrize("tagger", [False, True])
def test_secrets_go_and_look_alikes_stay(text: str, value: str, secret: bool, tagger: bool) -> None:
    """Rules alone and with the shipped tagger: a secret is gone, a look-alike's value is still there."""
    out = redact(text, tagger=tagger).text
    assert (value not in out) if secret else (value in out), out


def test_a_restated_number_keeps_its_kind_and_the_fact() -> None:
    out = redact("his mobile's oh seven nine one two, three three four, eight eight one, i.e. 07912 334881 - call about the boiler")
    assert out.text.count("[REDACTED:phone]") == 2 and "call about the boiler" in out.text


@pytest.mark.parametrize("unit", [
    "acct 4417602233 and 4417602291, ", "一三九，零一七二，八八四六 13901728846 ", "card 4539578763621486 exp: 11/28\n",
    "4 1 9 0 7 2 code ", "address is 9 Via Roma, Turin (3rd floor), ", "password is, uh, Ab12cd34, ",
])
def test_echoes_and_spoken_forms_are_linear(unit: str) -> None:
    assert_linear_cost(unit)
