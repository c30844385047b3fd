"""Redaction round 47 (issue 10): blind r41's misses, each read as a rule family (EN + ZH), in our own wordings.

- A URL's user info ends at the last "@" of its authority, and the authority ends where the URL does ("/", "?",
  "#", a space, a Han character, a full-width mark): the host stays, however many "@" the prose after it has.
- A 00-prefixed international number is a phone with no cue, its last group up to six digits ("0044 7911 123456").
- A card word (卡 / card) a few characters before a 13 - 19 digit run names a card when its code or expiry follows,
  even when the number is no card's usual shape and fails Luhn.
- An identity document named, then its number under a number noun in the same sentence ("passport info for the
  trip: number X", "护照信息……号码X").
- A stand-in value ("******", "your-secret-key") is never a secret (already kept by the redactor on main).
Examples are our own (none copied from a set); each GONE row but the English card one (main's card-word reader
already takes it: kept as the Chinese one's twin) failed on main d7bace1d.
"""

from __future__ import annotations

import pytest
from redaction_round import round_tests

from hindsight.safety.redact import redact

GONE = [
    ("路由器后台地址是http://root:Qw%40918@router.home.lan，注意%40代表@字符。", ["Qw%40918"], ["router.home.lan"]),
    ("摄像头地址rtsp://viewer:Lm7%23x2@cam-3.yard.lan，密码里的@要写成%40。", ["Lm7%23x2"], ["cam-3.yard.lan"]),
    ("Call my brother on 0044 7700 900461 if I'm late.", ["0044 7700 900461"], ["my brother"]),
    ("紧急联系人（表哥）：0044 7911 654321。", ["0044 7911 654321"], ["表哥"]),
    ("加油用的是这张卡：6217003320018845127，安全码是 417，月底报销。", ["6217003320018845127"], ["月底报销"]),
    ("Paid with the company card 4000123412341234567, CVV 882, refund pending.", ["4000123412341234567"], ["refund pending"]),
    ("passport info for the Chengdu trip: number 612904837, name as printed.", ["612904837"], ["Chengdu trip"]),
    ("Driver's licence details for the rental - number K4829173P, class B.", ["K4829173P"], ["rental"]),
    ("护照信息（去拉萨用）：号码E73820461，姓名按护照写。", ["E73820461"], ["拉萨"]),
]
KEEP = [
    ("The docs say https://user:pass@host is only an example.", ["https://user:"]),
    ("Card 1234 is the loyalty card; order 2024061812345678901 shipped.", ["2024061812345678901"]),
    ("The passport office number is closed today.", ["passport office number"]),
    ("把密码写成password: \"******\"即可，真实值在密钥库里。", ["password: \"******\""]),
    ("例子：AK=your-access-key-id SK=your-secret-key，换成自己的。", ["your-access-key-id", "your-secret-key"]),
    ("Phone 0044 is the UK's international prefix.", ["0044"]),
]

test_secret_gone_fact_kept, test_lookalike_kept = round_tests(GONE, KEEP)


def test_a_password_with_an_at_sign_still_goes_whole() -> None:
    """The last "@" of the authority still ends the user info ("p@ss@host")."""
    out = redact("mysql://app:Pa@ss9x@db.internal:3306/main").text
    assert "Pa@ss9x" not in out and "ss9x" not in out and "db.internal" in out, out


def test_a_card_word_without_its_code_is_no_card() -> None:
    """The card word alone does not name a long run a card: its code or expiry must follow."""
    out = redact("会员卡号 6217003320018845127 可以积分。", tagger=False)
    assert all(f.kind != "card" for f in out.findings), out.text


@pytest.mark.parametrize("text", ["The passport renewal number 2 queue opens at 9.", "护照办理窗口号码是3号。"])
def test_a_document_with_a_counter_number_keeps_it(text: str) -> None:
    assert redact(text, tagger=False).text == text


def test_a_hash_inside_a_url_password_stays_in_it() -> None:
    """A "#" may stand in a URL's password: the user info still runs to the "@" before the host."""
    out = redact("备份库 postgres://backup:Rk7#mW2q@10.1.2.3:5432/bak，只在内网。").text
    assert "Rk7" not in out and "mW2q" not in out and "10.1.2.3" in out, out
