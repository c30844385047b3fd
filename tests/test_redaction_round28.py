"""Redaction round 28 (issue 10): a value ends where the value ends, the next credential of a list, a shipment's numbers
beside a code, an address's postcode after two place names, a public address pointed back to after a semicolon, a
unit's shared mailbox - EN and ZH, in wordings of our own (none copied from a released set).

Each PII case names the secret that must go and the fact after it that must stay: a value written in Latin letters and
digits used to take the Chinese sentence glued to it, a closing bracket, or the English clause after a spaced value.
"""

from __future__ import annotations

import pytest
from linear_cost import assert_not_superlinear

from hindsight.safety.redact import redact
from hindsight.safety.redact_extent import bound, bound_all
from hindsight.safety.redact_listed import find_listed_passwords

# (text, the secret that goes, the fact that stays)
GONE_AND_KEPT = [
    ("仓库那台笔记本的登录密码是Qa2025store#老王说下周再改。", "Qa2025store#", "老王说下周再改"),
    ("对接接口appid=WX20250117密钥=Hk3nP8sV2qL9tR5yB7cM下周三和物流公司一起测试", "Hk3nP8sV2qL9tR5yB7cM", "下周三和物流公司一起测试"),
    ("门店收银的pwd=Shouyin#88)之后再统一改", "Shouyin#88", "之后再统一改"),
    ("云存储的token: Zp4Qw8Rt2Yx6Lm9Nb3Vc7K之前那个已经作废", "Zp4Qw8Rt2Yx6Lm9Nb3Vc7K", "之前那个已经作废"),
    ("Office PC login: dorje / Glacier#2023, and the payroll workbook opens with himal7788.", "himal7788", "payroll workbook"),
    ("The NAS password is Ridge!4471 and the camera app uses yakbutter55.", "yakbutter55", "camera app"),
    ("前台电脑密码我改成 Lulu&Mao520 了，收银系统的是 shouyin_909，你们记一下。", "shouyin_909", "收银系统"),
    ("收银机登录 admin / Shop#2024，库存表格用 kucun6655 打开。", "kucun6655", "库存表格"),
    ("Ship it to 14 Mill Lane, Didsbury, Manchester M20 6RT tomorrow morning.", "M20 6RT", "Didsbury, Manchester"),
    ("Her parcel goes to 4 Beech Grove, Headingley, Leeds LS6 2AB, not the office.", "LS6 2AB", "Headingley, Leeds"),
]

# (text, the value that stays)
KEEP = [
    ("验证码是583204，箱号MSKU4417723后天提柜。", "MSKU4417723"),
    ("Login code 583204; container no. TGHU7734412 is on the vessel, B/L COSU6228871450.", "TGHU7734412"),
    ("短信验证码 271946，提单号 COSU6228871450 周五放行。", "COSU6228871450"),
    ("The agency's shop front is at 48 Jokhang Road, Lhasa; it's on the public listing.", "48 Jokhang Road"),
    ("The clinic's reception is at 9 Harbour Street, Cobh; both are on their website.", "9 Harbour Street"),
    ("Email the ward at cardio-ward@example.org as usual; my own address is li.wei88@gmail.com.", "cardio-ward@example.org"),
    ("化验结果发 pathology-lab@hospital.example.cn，别发我私人邮箱。", "pathology-lab@hospital.example.cn"),
    ("The NAS password is Ridge!4471 and the ticket is INC-20231.", "INC-20231"),
    ("Wi-Fi password Ridge!4471, the router model is RT-AX88U.", "RT-AX88U"),
    ("门禁密码 Men#2024x，会议室是 B-1203。", "B-1203"),
]

# A person's contact stays redacted, and so does a value the bound would otherwise shorten.
STILL_GONE = [
    ("Email the ward at cardio-ward@example.org as usual; my own address is li.wei88@gmail.com.", "li.wei88@gmail.com"),
    ("My home is 27 Lapwing Avenue, Chorlton; it's where the keys go.", "27 Lapwing Avenue"),
    ("Shared mailbox login: renal-unit@example.org / Kidney#2024", "Kidney#2024"),
    ("(pw Tide&Rock2024) 明天换", "Tide&Rock2024"),
    ("The passphrase is 'blue whale 42', used for nightly dumps.", "blue whale 42"),
]


@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
@pytest.mark.parametrize(("text", "secret", "fact"), GONE_AND_KEPT)
def test_secret_gone_and_the_fact_after_it_kept(text: str, secret: str, fact: str, tagger: bool) -> None:
    out = redact(text, tagger=tagger).text
    assert secret not in out and fact in out, out


@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
@pytest.mark.parametrize(("text", "value"), KEEP)
def test_look_alike_kept(text: str, value: str, tagger: bool) -> None:
    assert value in redact(text, tagger=tagger).text


@pytest.mark.parametrize(("text", "value"), STILL_GONE)
def test_still_redacted(text: str, value: str) -> None:
    assert value not in redact(text).text


@pytest.mark.parametrize(("text", "span", "expected"), [
    ("密码是Ab12cd34!下周改", ("password", 3, 14), "Ab12cd34!"),
    ("(pw Ab12cd34) ok", ("password", 4, 13), "Ab12cd34"),
    ("pass: blue whale 42, and Bob knows", ("password", 6, 34), "blue whale 42"),
    ("passphrase 'blue whale 42, and more'", ("password", 12, 35), "blue whale 42, and more"),  # quoted: never cut
    ("上海市静安区 XX 路 1 号", ("address", 0, 15), "上海市静安区 XX 路 1 号"),
    ("京A12345 停在楼下", ("other_id", 0, 7), "京A12345"),
    ("key=Zp4Qw8Rt2Yx6", ("api_key", 3, 16), "Zp4Qw8Rt2Yx6"),
    ("job-407里的AK是HPQZ7XKA3M2RBN5TWLEQ", ("api_key", 0, 33), "HPQZ7XKA3M2RBN5TWLEQ"),  # a long-token pattern run backwards
])
def test_bound_ends_a_value_where_it_ends(text: str, span: tuple[str, int, int], expected: str) -> None:
    _, start, end = bound(text, span)
    assert text[start:end] == expected


@pytest.mark.parametrize("unit", ["密码是Ab12cd34!下周改（还有别的） ", "(pw Ab12cd34, and then some more) "])
def test_bound_is_linear(unit: str) -> None:
    """The bound reads one value and a bounded look-back: ten times the findings cost about ten times as much."""
    def run(text: str) -> object:
        step = len(unit)
        return bound_all(text, [("password", i + 3, i + step - 1) for i in range(0, len(text), step)])
    assert_not_superlinear(run, unit * 100, unit * 1000, slack=0.05)


def test_listed_reader_is_linear_over_many_found_values() -> None:
    text = "pw Ab12cd34!, and the app uses ef56gh78 " * 400
    spans = [("password", i, i + 9) for i in range(3, len(text), 40)]
    assert_not_superlinear(lambda t: find_listed_passwords(t, spans[: len(t) // 40]), text[: 4000], text, slack=0.05)
