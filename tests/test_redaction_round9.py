"""Round 9 redaction: values named by their context (a card list, an account at a named bank, a code named after
it, a record's field), look-alikes kept by context (code paths, object and request IDs, published addresses).

Own cases written for this repository from the causes found in round 9's error analysis (docs/benchmarks.md,
"Redaction, round 9"), in wordings of their own - none is copied from a blind or training set. Each PII case passes
when every secret is gone and every keep survives; each look-alike must come out byte for byte.
"""

from __future__ import annotations

import pytest

from hindsight.safety.redact import redact
from hindsight.safety.redact_context import find_card_combo, find_context_secrets
from hindsight.safety.redact_tagger import candidates

PII: list[tuple[str, list[str], list[str]]] = [
    # A card written as a list: number / expiry / security code.
    ("Team card for SaaS renewals: 4539 1488 0343 6467 / 08/29 / 731, Lena owns it.", ["4539 1488 0343 6467", "08/29", "731"],
     ["SaaS renewals", "Lena owns it"]),
    ("备用信用卡 5425 2334 3010 9903，11/28，207，只给差旅用。", ["5425 2334 3010 9903", "11/28", "207"], ["只给差旅用"]),
    # An account at a named bank, the bank named after "at"/"with".
    ("Rent comes out of the checking account with First Federal: 4471920358, on the 1st.", ["4471920358"], ["First Federal", "on the 1st"]),
    ("Her emergency fund sits in a savings acct at Marcus is 80931264571, don't touch it.", ["80931264571"], ["emergency fund"]),
    # A code named after it, in brackets; a code sent to a person.
    ("593017（网银登录验证码），五分钟内有效。", ["593017"], ["网银登录验证码"]),
    ("Forwarded you 417726 (Microsoft verification code) so you can finish the setup.", ["417726"], ["finish the setup"]),
    ("The bank texted me T-839201 while I was at the counter.", ["T-839201"], ["at the counter"]),
    ("铁路的取票核验码 R8M2KQ，到站后自己取。", ["R8M2KQ"], ["到站后自己取"]),
    # A record's field names the value: an SSN, the second line of an address.
    ('kyc = {"name": "D. Okoye", "ssn": "512448301", "state": "GA"}', ["512448301"], ['"state": "GA"']),
    ('order 7713 ship_to: {"address_1": "77 Birch Hollow Rd", "address_2": "Apt 9C", "city": "Ames"}', ["77 Birch Hollow Rd", "Apt 9C"],
     ['"city": "Ames"']),
    # A street address: the state stays with the town; a unit written "Unit 4/18 ...".
    ("Send the spare keys to 2290 Quarry Ridge Dr, Unit 5, Fort Collins, CO 80525 before Monday.", ["2290 Quarry Ridge Dr, Unit 5", "80525"],
     ["Fort Collins, CO", "before Monday"]),
    ("Bond paperwork goes to Unit 4/18 Wattle Street, Fitzroy VIC 3065.", ["Unit 4/18 Wattle Street", "3065"], ["Fitzroy VIC"]),
    # "Published" said with a negation is not a published address.
    ("这个地址官网查不到：朝阳区望京西路12号3栋502，只给快递用。", ["望京西路12号3栋502"], ["只给快递用"]),
    # A passport named with what it is for.
    ("Passport for the Lisbon conference: K55318842, expires 2030.", ["K55318842"], ["Lisbon conference"]),
    # A login written user/password@host:port/service; a quoted mysql -p; an appid carrying the key.
    ("报表库连接串 rpt_reader/Rpt#2025x@10.20.3.14:1521/RPTDB，只读。", ["Rpt#2025x"], ["rpt_reader", "只读"]),
    ("Nightly dump: mysqldump -u backup -p\"Bk9!vQ2z\" sales > sales.sql", ["Bk9!vQ2z"], ["sales.sql"]),
    ("Weather widget calls /data/2.5/forecast?appid=9b2e7f4c1a8d03e6b5c7f2a9d1e4b8c0&units=metric every hour.",
     ["9b2e7f4c1a8d03e6b5c7f2a9d1e4b8c0"], ["&units=metric"]),
]

LOOKALIKES: list[str] = [
    # Code paths and calls where a key's value would be.
    'variable "db" { password = var.db_admin_password }',
    "在 utils 里写 const secret = process.config.readSecret('jwt'); 再传给签名函数。",
    "auth.js: let apiKey = window.appConfig.apiKey;",
    # A payment processor's object IDs and a support request ID.
    "Refund issued against ch_3PzQ8vKd2LmT9xWc4RbN7yHa; customer cus_Qm4Xr8Tz2LvN9k stays active.",
    "Support asked for the x-amz-request-id from the failed call: 7Hq2Vn9Lx4Rt8Mz1Kc6Wp3Yb",
    "网关报错时把请求 ID：Zx8Kq2Lm7Vt4Rn9Wc3Pb 发给值班同学。",
    # A query string: the parameter after a value is not part of it.
    "Callback looked like status=DECLINED_3DS&order=SO-55120&retry=0 in the gateway log.",
    # Published addresses and lines; a mailing list.
    "Press office address from their website: 1 Harbour Plaza, Level 12, Sydney NSW 2000.",
    "客服中心地址（官网可查）：上海市浦东新区世纪大道100号环球金融中心18层。",
    "Questions go to the users mailing list user@lists.example-project.org before filing a bug.",
    "项目的开发者邮件组 dev@arrow.apache.org 欢迎提问。",
    "The county's non-emergency number is (503) 823-3333 for noise complaints.",
    "总机 010-6655 8800 转 2 是人事部。",
]


@pytest.mark.parametrize(("text", "secrets", "keep"), PII)
def test_round9_secret_removed_fact_kept(text: str, secrets: list[str], keep: list[str]) -> None:
    out = redact(text).text
    assert not [s for s in secrets if s in out], out
    assert not [k for k in keep if k not in out], out


@pytest.mark.parametrize("text", LOOKALIKES)
def test_round9_lookalike_untouched(text: str) -> None:
    assert redact(text).text == text


def test_card_combo_needs_a_card_right_before() -> None:
    text = "Meeting 12/27 / 309 attendees"
    assert find_card_combo(text, []) == []
    assert find_card_combo(text, [(0, 7)]) == []  # "Meeting" does not end right before the date


def test_code_sent_to_a_person_is_not_an_amount() -> None:
    for text in ("My brother sent me 25000 dollars for the deposit.", "she texted me 90210, her new zip"):
        assert not [s for s in find_context_secrets(text) if s[0] == "otp"], text


def test_query_parameter_ends_a_candidate() -> None:
    values = [c.value for c in candidates("result=FAIL_3DS&order=PO88213&x=1")]
    assert not [v for v in values if "&order" in v]
