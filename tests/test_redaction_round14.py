"""Redaction round 14: the kinds blind r15's PII writers found, and r14's ID under a log key (EN and ZH, new wordings,
none copied from a set).

- a password glued to its Chinese label (密码abc123, 口令Qz88xk21), judged like one after a bare space;
- a card number named by the expiry after it in other words (到期, 过期时间, good through);
- a grouped one-time code of exactly a found code's shape in its sentence (a third backup code);
- an identity document's number under a log line's key (id_no, idNumber, 证件号), each ``key=value`` of a log line
  read as a record item;
- a phone offered in one clause with an organisation's role mailbox, or after a box office / ticket office;
- an address after an organisation's warehouse, depot or distribution hub, or after a bare address label in a clause
  that names an organisation ("门店电话 ...，地址：...", "我们店的地址："), or after a hotel / restaurant; a person named in
  the clause still wins;
- a value named an order, invoice, serial, VAT / tax number right before it is a public identifier, whatever the
  tagger makes of it.
"""

from __future__ import annotations

import pytest
from redaction_helpers import assert_linear_cost

from hindsight.safety.redact import redact

PII = [
    ("民宿的无线网 名字 LakeView-2F，密码lake2024view，退房前记得关空调", "lake2024view"),
    ("公司VPN口令Qz88xk21，下周统一更换", "Qz88xk21"),
    ("Old debit 5412 7534 9920 1187, good through 04/29 - cancelled last week.", "04/29"),
    ("旧的招行卡 6214 8301 2233 9871，到期 03/27，已经注销了", "03/27"),
    ("Recovery codes for the Proton account: 7302-1185, 6621-0497 (used), and 9914-3360.", "9914-3360"),
    ("备用验证码：4471-2093、8830-1157；第三个 5526-0418 已经用掉了", "5526-0418"),
    ("checkin log: guest=lin room=1208 id_no=330106199005173413 ts=22:14", "330106199005173413"),
    ("dump: name=Wang Lei idNumber=110105198703021235 status=OK", "110105198703021235"),
    ("我家地址是上海市静安区南京西路 1266 号 42 楼，快递放门口", "南京西路 1266 号"),
    ("张姐，电话 021-6288 3400，地址是上海市静安区南京西路 1266 号恒隆广场 42 楼", "南京西路 1266 号"),
    ("Email support@acme.io or call Dana's cell 617-555-0144.", "617-555-0144"),
]

KEEP = [
    ("Questions about the marathon: enquiries@citymarathon.org or the information desk, 0161 496 0733.", "0161 496 0733"),
    ("报名咨询 service@huaxia-run.cn 或 010-6552 8800", "010-6552 8800"),
    ("Ask the box office on 020 7946 0512 about wheelchair seats.", "020 7946 0512"),
    ("Drop the samples at Northgate Labs' depot, 77 Mill Road, Cambridge.", "77 Mill Road"),
    ("RMA parcels: ship to the distribution hub at 5 Ferry Lane, Tilbury.", "5 Ferry Lane"),
    ("门店电话 0571-8765 4321，地址：杭州市西湖区文三路 90 号", "文三路 90 号"),
    ("退货寄到品牌仓库：浙江省嘉兴市南湖区亚太路 778 号，写明订单号", "亚太路 778 号"),
    ("Front desk 020 7946 0000, address: 12 King Street, London", "12 King Street"),
    ("level=info order_id=20240511000123 trace=4f9a2c user=ana", "20240511000123"),
    ("验证码 447120 已发送；订单 7731-0093 明天发货", "7731-0093"),
    ("密码学2024课程的作业截止周五", "密码学2024课程"),
    ("the sdk bumped to version=4.2.1 build=20240511 commit=9fce2a1", "commit=9fce2a1"),
    ("The shop's VAT number is GB 294 5567 18, on every receipt.", "294 5567 18"),
    ("开票信息：税号 91310115MA1K4B2X7Q，抬头写公司全称", "91310115MA1K4B2X7Q"),
    ("Team offsite hotel: Harbourview Hotel, 21 Quay Street, Galway.", "21 Quay Street"),
    ("我们店的地址：成都市锦江区春熙路 18 号，欢迎来玩", "春熙路 18 号"),
]

@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
@pytest.mark.parametrize(("text", "value"), PII)
def test_the_secret_is_gone(text: str, value: str, tagger: bool) -> None:
    out = redact(text, tagger=tagger).text
    assert value not in out, out


@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
@pytest.mark.parametrize(("text", "value"), KEEP)
def test_the_look_alike_stays(text: str, value: str, tagger: bool) -> None:
    out = redact(text, tagger=tagger).text
    assert value in out, out


def test_a_log_line_keeps_its_other_items() -> None:
    out = redact("订票日志 passenger_id_no=330106199005173413 seat=22A status=TICKETED").text
    assert "330106199005173413" not in out and "seat=22A status=TICKETED" in out, out


@pytest.mark.parametrize("unit", [
    "密码ab12cd34，", "codes 7302-1185, 6621-0497, 9914-3360 ", "k1=v1 id_no=330106199005173413 ", "help@x.org or 0161 496 0733, ",
    "the depot, 77 Mill Road, ", "门店电话 0571-8765 4321，地址：文三路 90 号\n",
])
def test_round14_readers_are_linear(unit: str) -> None:
    assert_linear_cost(unit)
