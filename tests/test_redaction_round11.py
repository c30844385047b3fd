"""Round 11 redaction: the kinds of the round-10 failure table (docs/benchmarks.md, "Redaction, round 11").

Own cases in wordings of their own, EN and ZH - none is copied from a blind or training set. A PII case passes when
every secret is gone and every keep survives; a look-alike must come out byte for byte.
"""

from __future__ import annotations

import pytest

from hindsight.safety.redact import redact
from hindsight.safety.redact_tagger import TaggerModel, find_tagged

PII: list[tuple[str, list[str], list[str]]] = [
    # One-time and recovery codes: a long dash-grouped recovery key; a four-character mixed code after its cue.
    ("The BitLocker recovery key for the work laptop is 4K7Q-2MXR-9PLT-6WZN-3HJD-8BVC-5RFY; IT has a copy.",
     ["4K7Q-2MXR-9PLT-6WZN-3HJD-8BVC-5RFY"], ["BitLocker", "IT has a copy"]),
    ("银行APP发的校验码是 7H2M，五分钟内有效。", ["7H2M"], ["银行APP", "五分钟内有效"]),
    # A card's expiry after "expiring", and a card / MM-YY / code list.
    ("Guest paid with 5425079604349886, code 912, expiring 04/2028 - refund to the same card.",
     ["5425079604349886", "04/2028"], ["Guest paid", "refund to the same card"]),
    ("Mastercard - 5425 0796 0434 9886 / 11-29 / 604 (team card for the offsite)", ["5425 0796 0434 9886", "11-29", "604"],
     ["Mastercard", "team card for the offsite"]),
    # Addresses: a road with a direction and a sub-number, a flat written floor + letter, a Spanish floor and door.
    ("寄到武汉江岸区长江大道东188号之三1203房，收件人写我。", ["长江大道东188号之三1203房"], ["武汉", "收件人写我"]),
    ("新家在成都高新区星河湾畔三期 8 栋 16C，下周搬。", ["8 栋 16C"], ["成都", "下周搬"]),
    ("Please forward mail to Avenida de América 37, 2º B, 28002 Madrid until June.", ["Avenida de América 37", "2º B", "28002"],
     ["forward mail", "Madrid", "until June"]),
    # A personal cue after 前台 still wins: a landline at someone's home.
    ("前台小王家里座机 010-6532 8841，有事找她。", ["010-6532 8841"], ["前台小王"]),
    # An office cue without an organisation's seat keeps a person's address redacted.
    ("My office for the week: John Park, 14 Elm Street, Leeds", ["14 Elm Street"], ["John Park", "Leeds"]),
    ("我住在会议中心旁边的阳光花园3栋402。", ["阳光花园3栋402"], ["我住在"]),
]

LOOKALIKES: list[str] = [
    # An organisation's published address or line, named by a cue in either language.
    "Send defective units to our warehouse: Repairs Dept., 75 Commerce Drive, Dayton, OH 45402.",
    "HQ for the lease: Orchard Labs, 9 Quay Street, Dublin.",
    "总部前台地址：深圳市南山区科技南路18号，到了报公司名。",
    "酒店前台电话 0755-8666 1234，入住前可以先问。",
    "税务办事大厅位于南京市鼓楼区中山北路105号，周末不办公。",
    # A meeting or a class moved to a building and room is a workplace, not a home.
    "培训改到3号楼502，带上笔记本。",
    "会议改在C座1208，记得提前十分钟。",
    # Dates and short codes that only look like the new shapes.
    "The sprint ends 05-28 / demo 06-02, per the board.",
    "Error code AB12 again on the printer; the vendor says it is a toner sensor.",
]


# The round-11 window finders, each with its own cases (EN and ZH).
WINDOW_PII: list[tuple[str, list[str], list[str]]] = [
    # A card number named by the security code or expiry right after it.
    ("Deposit for the cabin went on 4716 2648 4756 4697, CVC 208 - cancel before Friday.", ["4716 2648 4756 4697", "208"],
     ["Deposit for the cabin", "cancel before Friday"]),
    ("机票用的是 5425-0796-0434-9887 / 有效期 09/27，下次记得换卡。", ["5425-0796-0434-9887", "09/27"], ["机票", "下次记得换卡"]),
    # A six-digit code, plain or grouped, a few words after its cue.
    ("She read me the sign-in code from her phone, 604 219, and the portal let me in.", ["604 219"], ["portal let me in"]),
    ("登录要短信验证码，今天收到的 58 20 71 十分钟内有效。", ["58 20 71"], ["十分钟内有效"]),
    # Both halves of a pair under one label.
    ("腾讯云 AK/SK 记一下：AKIDx7Lq2Mv9Tn4Wz8Pc1Kd3 和 Rb5Ns0Hj6Gf2Dx8Cv4Zq9Wm1Ty7，月底轮换。",
     ["AKIDx7Lq2Mv9Tn4Wz8Pc1Kd3", "Rb5Ns0Hj6Gf2Dx8Cv4Zq9Wm1Ty7"], ["腾讯云", "月底轮换"]),
    ("Scaleway key/secret for the backup job: SCWQ8M2K7X9L4P1R6T3V / 5d1e8a2b-7c4f-4e9a-b3d6-0f2a8c5e7b91.",
     ["SCWQ8M2K7X9L4P1R6T3V", "5d1e8a2b-7c4f-4e9a-b3d6-0f2a8c5e7b91"], ["Scaleway", "backup job"]),
]

WINDOW_LOOKALIKES: list[str] = [
    "Order 4716 2648 4756 4697 shipped; expect it Friday.",
    "The verification code ticket 604219 was closed as a duplicate.",
    "验证码有效期是 5 分钟，订单号 582071 已经付款。",
    "The AK/SK format is two strings joined by a slash; see the console docs.",
]


@pytest.mark.parametrize(("text", "secrets", "keep"), PII + WINDOW_PII)
def test_pii_removed_fact_kept(text: str, secrets: list[str], keep: list[str]) -> None:
    out = redact(text, tagger=False).text  # the rules alone; the tagger may only add
    for secret in secrets:
        assert secret not in out, out
    for word in keep:
        assert word in out, out


@pytest.mark.parametrize("text", LOOKALIKES + WINDOW_LOOKALIKES)
def test_lookalike_untouched(text: str) -> None:
    assert redact(text).text == text  # with the tagger, as stored


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Wi-Fi at the harbour flat is 'GullNest-7B', password is Kelpie!8842 - for the guests.", "GullNest-7B"),
        ("Office SSID: Orbit-Lab-24G, the key is on the whiteboard.", "Orbit-Lab-24G"),
        ("爸妈家的 WiFi 叫 Tenda_9C41，密码写在冰箱上。", "Tenda_9C41"),
        ("客厅无线网：名称 MERCURY_6E2A，密码见路由器背面。", "MERCURY_6E2A"),
    ],
)
def test_network_name_is_never_tagged(text: str, name: str) -> None:
    certain = TaggerModel({}, 0.0)  # scores 0.5 >= 0.0: tags every candidate
    tagged = [text[s:e] for _, s, e in find_tagged(text, model=certain)]
    assert name not in tagged and name in redact(text).text


def test_password_after_network_name_is_still_tagged() -> None:
    text = "Wi-Fi at the harbour flat is 'GullNest-7B', password is Kelpie!8842 - for the guests."
    certain = TaggerModel({}, 0.0)
    assert "Kelpie!8842" in [text[s:e] for _, s, e in find_tagged(text, model=certain)]


@pytest.mark.parametrize(
    ("text", "city", "street"),
    [
        ("我爸妈住杭州文一西路 88 号 3 单元 602，寄东西寄这儿。", "杭州", "文一西路 88 号 3 单元 602"),
        ("姑姑住重庆解放碑民权路 23 号 5 楼，周末去吃饭。", "重庆", "民权路 23 号"),
    ],
)
def test_city_without_shi_stays_outside_the_address(text: str, city: str, street: str) -> None:
    out = redact(text, tagger=False).text
    assert city in out and street not in out, out


def test_road_named_after_a_city_is_still_a_road() -> None:
    out = redact("我住南京西路 1266 号 5 楼 501。", tagger=False).text
    assert "南京" not in out, out
