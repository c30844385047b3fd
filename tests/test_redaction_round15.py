"""Redaction round 15: kinds as a value's shape and its kind's cue anywhere earlier in the clause (EN and ZH, new
wordings, none copied from a set).

- a phone of any grouping (dots, spaces, dashes, bare) after a contact word: callback, ring, caller, 回电, 打给;
- a password-shaped token in the sentence of a password word, however many words stand between;
- a street line after a label naming where a person lives or receives mail (residence, shipping to, 老家, 收货地址),
  in spellings the address finder has no pattern for ("18-3 Kagurazaka", "...村三组15号");
- a DSN's password without a scheme (``user:pass@tcp(host)``), both halves of a pair named as a pair (密钥对,
  "key pair"), a one-time code with a letter prefix, an account at a credit union.

The look-alikes name themselves between the cue and the value (a ticket, an order, a hotline, a policy, an example,
工单, 客服), or are an organisation's, or are not a street line.
"""

from __future__ import annotations

import pytest
from redaction_helpers import assert_linear_cost, assert_value_gone_or_kept, value_cases

from hindsight.safety.redact import redact

PII = [
    ("Please get Dr. Okafor's assistant to ring me back this evening at 0161.496.0732, not the office.", "0161.496.0732"),
    ("The tenant asked for a call back tomorrow morning, her number 4155550187 works after nine.", "4155550187"),
    ("快递员说到了会打给我，我留的是 02087654321，白天都在家", "02087654321"),
    ("老客户张先生来电，让明天下午回电 0571 8812 3406", "0571 8812 3406"),
    ("I reset the router password last night; the one I finally picked is Harbor!Lights7 so write it down.", "Harbor!Lights7"),
    ("财务系统的密码上周过期了，IT 给的临时那个是 Tmp#2026Cw，登录后要改。", "Tmp#2026Cw"),
    ("他说邮箱密码跟上次一样，还是那个 Lan9#Shan 没改", "Lan9#Shan"),
    ("She said the vault passphrase hasn't changed in years - it's still Copper7Kettle.", "Copper7Kettle"),
    ("Shipping to: 18-3 Kagurazaka, Shinjuku-ku, Tokyo for the book swap.", "18-3 Kagurazaka"),
    ("Her residence is 7 Rosewood Close, Kilkenny according to the visa form.", "7 Rosewood Close"),
    ("奶奶家住 江西省赣州市于都县罗坳镇步前村三组15号，寄药就寄这。", "步前村三组15号"),
    ("收货地址：甘肃省天水市秦州区玉泉镇七里墩村5组41号，收件人写我爸", "七里墩村5组41号"),
    ('reporting job: sql.Open("mysql", "report:Fiber9Net@tcp(db-2:3306)/bi")', "Fiber9Net"),
    ("cache at default:Sunset42x@10.20.0.7:6379 until the move", "Sunset42x"),
    ("The vendor pasted their key pair (VND_77A1C2E9F0B3 / 9fK2mQ7xL4pR8sT1vW3yZ6bN) into the shared channel.", "VND_77A1C2E9F0B3"),
    ("这对凭证（ak_live_8Hd72KqP01 / 4b8e1f0c9a7d2e6b3c5f8a1d）已经作废", "ak_live_8Hd72KqP01"),
    ("客户把腾讯云那一对 key（KID_7Hc2Lq9xRt4V / 8b3e1f0c9a7d2e6b3c5f8a1d4e7b）贴到评论区了", "8b3e1f0c9a7d2e6b3c5f8a1d4e7b"),
    ("He read the verification code back to the agent: G-204817.", "G-204817"),
    ("他把登录验证码 G-730215 直接发到群里了", "G-730215"),
    ("Payroll now lands in the Harbor Federal Credit Union share account 5520918834.", "5520918834"),
]

KEEP = [
    ("Call the ticket desk about order 5512340098 tomorrow.", "5512340098"),
    ("请联系客服，工单号 2024051200，会有人回电", "2024051200"),
    ("Call our toll-free hotline at 800.555.0199 for a replacement.", "800.555.0199"),
    ("Ping the contact in the NOC if 192.168.100.200 goes down again.", "192.168.100.200"),
    ("Password policy: at least 12 characters, e.g. Tr0ub4dor&3 is too weak.", "Tr0ub4dor&3"),
    ("The password manager we settled on is KeePassXC2 for the whole team.", "KeePassXC2"),
    ("密码重置的工单 INC20240511Ab 已经关闭", "INC20240511Ab"),
    ("def check(password: str) -> bool:  # password gets sha256-salted before compare", "sha256-salted"),
    ("Listing says home address withheld; the flat is 3 Bedrooms, 2 Baths.", "3 Bedrooms"),
    ("Home: 3 Bedrooms, 2 Baths, asking 450k.", "3 Bedrooms"),
    ("住在3号楼的同事明天请假", "3号楼"),
    ("the DSN format is user:pass@tcp(host:3306)/dbname", "user:pass"),
    ("dsn = user:${DB_PASS}@tcp(db:3306)/app", "${DB_PASS}"),
    ("Meet at 10:30@HQ lobby.", "10:30@HQ"),
    ("Order A-552031 shipped; the login code email came after.", "A-552031"),
    ("Ticket ID: Xk9Lm2Qp7Rz4Tw8 was closed by the on-call engineer.", "Xk9Lm2Qp7Rz4Tw8"),
    ("Beta testers got build no. 20240511Rc2Xy last night.", "20240511Rc2Xy"),
    ("弱口令的例子，例如 Qz7#kLm29x 这种，规则都拦不住", "Qz7#kLm29x"),
    ("客户反馈的问题见工单号 TK8Hd72KqP01Zz，已转二线", "TK8Hd72KqP01Zz"),
    ("口令格式的样例：Wq3#mZ8kLp，仅作说明", "Wq3#mZ8kLp"),
]


CASES = value_cases(PII, KEEP)


@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
@pytest.mark.parametrize(("text", "value", "secret"), CASES)
def test_secret_gone_and_look_alike_kept(text: str, value: str, secret: bool, tagger: bool) -> None:
    """A PII case's value is gone from the output; a look-alike's value is still there."""
    assert_value_gone_or_kept(text, value, secret, tagger)


def test_the_town_before_a_rural_address_stays() -> None:
    out = redact("老家地址 湖北省黄冈市麻城市福田河镇风簸山村二组7号，过年回去").text
    assert "风簸山村二组7号" not in out and "湖北省黄冈市麻城市" in out, out


@pytest.mark.parametrize("unit", [
    "callback on 0161.496.0732, ", "password changed; it is Harbor!Lights7 ", "Shipping to: 18-3 Kagurazaka, Tokyo. ",
    "收货地址：七里墩村5组41号，", "u:Fiber9Net@tcp(db:3306)/bi ", "密钥对（VND_77A1C2E9F0B3 / 9fK2mQ7xL4pR8sT1vW3yZ6bN）",
])
def test_round15_readers_are_linear(unit: str) -> None:
    assert_linear_cost(unit)
