"""Redaction round 16: the kinds behind blind round 17's misses, in wordings of their own (EN and ZH, none copied from
a set).

- a value fenced by brackets (【】, [], （）) read as a quoted one; a code right after its cue with a single digit;
- a one-time code handed over in a grouped form ("typed 5520-1187");
- a JDBC / ADO.NET parameter list after the host is no URL user info (its "@" sits in the password);
- a card's expiry split over two keys (exp_month / expYear); a CVV named by where it sits (背面后三位, "numbers on the back");
- an IBAN whose mod-97 check fails, in a bank or payment sentence (a registered country's length, check digits 02-98);
- a document list after a purpose ("passports for the ... trip — Name number, ..."); an NHS number in brackets;
- a numbered seed phrase ("(1) word (2) word ..."); a credentials file written as lines (login, then password);
- a password after "还是上次那个"; a record key is never a tagged value (``s3.secretKey: "..."``).

The look-alikes: an operations role mailbox (noc@, oncall@), an organisation's address after 总部：, a placeholder
IBAN, a booking's confirmation code, a chat line's time in brackets, a version or footnote in brackets, a JDBC URL
with no password.
"""

from __future__ import annotations

import pytest
from redaction_helpers import assert_linear_cost, assert_value_gone_or_kept, value_cases

from hindsight.safety.redact import redact

PII = [
    ("保险柜临时密码【880142】这周有效，用完我就改。", "880142"),
    ("The Discord login code was (J4QXW), already typed it in.", "J4QXW"),
    ("Bank wanted the one-time code from the SMS; I typed 5520-1187 into the app.", "5520-1187"),
    ("短信验证码发过来了，我输入了 3308 5521 就登上了", "3308 5521"),
    ("ledger DB: jdbc:sqlserver://sql-prod.internal:1433;database=Ledger;user=app_ro;password=Tr3e@Frog!9;encrypt=true",
     "Tr3e@Frog!9"),
    ('checkout payload {"pan": "5425233430109903", "expMonth": 7, "expYear": 2031, "cvc": "884"}', '"expMonth": 7'),
    ("card_no=4916338506082832&expiry_month=03&expiry_year=29 leaked into the debug log", "expiry_year=29"),
    ("信用卡 4916 3385 0608 2832，有效期 11/28，卡背面最后三位是 662。", "662"),
    ("Card 5425 2334 3010 9903, the three numbers on the back are 407.", "407"),
    ("Reimburse the conference fee to PL61 1090 1014 0000 0712 1981 2875 when you can.", "PL61 1090 1014 0000 0712 1981 2875"),
    ("房租转到房东的账户 ES91 2100 0418 4502 0005 1333，每月五号前。", "ES91 2100 0418 4502 0005 1333"),
    ("Visa forms need the passports of the Lisbon delegation — Noor 533920117, Idris K48829106.", "K48829106"),
    ("GP registration asks for his NHS number (943 476 5919) and date of birth.", "943 476 5919"),
    ("Mum's hardware wallet backup, in order: (1) orbit (2) velvet (3) canyon (4) mirror (5) pilot (6) ember (7) rescue "
     "(8) tundra (9) gossip (10) ladder (11) fossil (12) hazard. Card is in the drawer.", "(5) pilot"),
    ("VPN credentials live in the auth-user-pass file:\nj.moreau\nPlum8#Orchard\nRotate them in March.", "Plum8#Orchard"),
    ("路由器登录信息放在便签上：\nadmin2\nXq7#lake99\n别拍照。", "Xq7#lake99"),
    ("他说保险箱的开箱密码还是上次那个 480215，没换。", "480215"),
]

KEEP = [
    ("Page the NOC at noc@metrofiber.io if the uplink flaps again.", "noc@metrofiber.io"),
    ("Escalations go to oncall@brightpath.dev during the freeze.", "oncall@brightpath.dev"),
    ("周会改在公司总部：上海市浦东新区世纪大道100号，记得带工牌。", "世纪大道100号"),
    ("DE00 0000 0000 0000 0000 00 is the placeholder shown in the IBAN field.", "DE00 0000 0000 0000 0000 00"),
    ("The IBAN field takes 22 characters for Germany; the refund form rejects spaces.", "22 characters"),
    ("Flight confirmation code is QX7KPL; seat 14C.", "QX7KPL"),
    ("群里说别私下给密码\n【10:23】助手：收到", "【10:23】"),
    ("Use [v2.4.1] of the SDK and see [12] for the migration notes.", "[v2.4.1]"),
    ("Order 【A7731】 shipped yesterday, tracking to follow.", "【A7731】"),
    ("Build [R2D2X] passed, release tagged v3.1.0.", "[R2D2X]"),
    ("reporting: jdbc:sqlserver://sql-ro.internal:1433;databaseName=Ops;integratedSecurity=true", "databaseName=Ops"),
    ("Login steps:\nopen the portal\nclick Sign in", "click Sign in"),
    ('Helm values: s3.region: "eu-west-1", s3.bucket: "logs-2024"', 's3.bucket: "logs-2024"'),
]

CASES = value_cases(PII, KEEP)


@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
@pytest.mark.parametrize(("text", "value", "secret"), CASES)
def test_secret_gone_and_look_alike_kept(text: str, value: str, secret: bool, tagger: bool) -> None:
    """A PII case's value is gone from the output; a look-alike's value is still there."""
    assert_value_gone_or_kept(text, value, secret, tagger)


def test_a_record_key_is_never_the_tagged_value() -> None:
    """The tagger scores the value under a key, never the key: both halves go, both key names stay."""
    text = 'Helm values hold s3.accessKey: "AKIAQ7ZK2LM9WX4RV8TB" and s3.secretKey: "k9Fs2Tq7Pm4Xz1Vb6Lw3Nr0Yc8Hd5Gj2Ks7Qe"'
    out = redact(text).text
    assert "s3.accessKey" in out and "s3.secretKey" in out and "k9Fs2Tq7" not in out and "AKIAQ7ZK" not in out, out


def test_the_jdbc_parameters_stay_around_the_password() -> None:
    out = redact("jdbc:sqlserver://hr-db.corp:1433;databaseName=People;user=svc_hr;password=Hr@Pay-2031;encrypt=true").text
    assert out == "jdbc:sqlserver://hr-db.corp:1433;databaseName=People;user=svc_hr;password=[REDACTED:password];encrypt=true"


def test_an_iban_shape_needs_its_country_length_and_real_check_digits() -> None:
    from hindsight.safety.validators import iban_shape

    assert iban_shape("PL61 1090 1014 0000 0712 1981 2875")  # mod 97 fails, the shape holds
    assert not iban_shape("PL61 1090 1014 0000 0712 1981")  # Poland's IBAN is 28 long
    assert not iban_shape("DE00 0000 0000 0000 0000 00") and not iban_shape("DE99 1234 5678 9012 3456 78")
    assert not iban_shape("SF1428837765012")  # a courier's waybill: no such country


def test_a_failing_iban_without_money_or_a_bank_stays() -> None:
    """Outside a bank or payment sentence only a mod-97-valid IBAN is an account."""
    text = "Part label PL61 1090 1014 0000 0712 1981 2875 on the crate."
    assert redact(text, tagger=False).text == text


@pytest.mark.parametrize("unit", [
    "密码【880142】，", "code was (J4QXW), ", "one-time code; typed 5520-1187 ", "jdbc:x://h:1;a=b;password=p@ss;c=d ",
    "creds:\nuser1\nPass#word9\n", "(1) orbit (2) velvet ", "refund to PL61 1090 1014 0000 0712 1981 2875 ",
])
def test_round16_readers_are_linear(unit: str) -> None:
    assert_linear_cost(unit)


def test_a_record_key_is_no_tagger_candidate() -> None:
    from hindsight.safety.redact_tagger import candidates

    values = [c.value for c in candidates('s3.secretKey: "h7Gs2Ty9Pk4Xm1Vt6Lq3Zr0Wc8Hn5Bd2Jf7Ks", "db.pass2": "Xq7#lake99"')]
    assert "s3.secretKey" not in values and "db.pass2" not in values and "Xq7#lake99" in values, values
