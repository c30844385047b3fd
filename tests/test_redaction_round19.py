"""Redaction round 19: the kinds behind blind round 20's redaction misses and the secret kinds the brief names, in
wordings of their own (EN and ZH, none copied from a set).

- a wallet recovery phrase numbered with only a space ("1 walnut 2 ..."), one word a line, or in ZH words;
- a network's or a lock's new value with no password word ("the Wi-Fi changed - it's now ...", "路由器后台改成了 ...",
  "保险箱我改成了 ...");
- a credential in a URL's query string or fragment (``sig=``, ``X-Amz-Signature=``, ``#access_token=``, a reset link's
  ``code=``), the rest of the URL kept;
- a UUID after an app / API key label (``AppKey 4e6c...``, glued to Chinese);
- a US routing number (ABA checksum) and a "checking #" account;
- other countries' addresses: Japan (romaji block-lot-house, kanji 丁目 / dashes, 〒), Korea (로 / 길), Singapore
  (Blk ... #05-67, 座#05-67), India (Flat 302, X Residency), Colombia (Calle 93 #11-26);
- a PuTTY private key file through its Private-MAC line.

The look-alikes: a courier's waybill that passes mod 97 by chance (no IBAN country); an organisation's address or line
named as its own ("the library's listed address is", "The animal hospital's after-hours number is", "医院挂号电话");
a ZH building address after a published cue inside the span ("官网写的工程楼B座417"); a URL parameter in words; a new
network name (an SSID, not a password).
"""

from __future__ import annotations

import pytest
from redaction_helpers import assert_linear_cost, assert_value_gone_or_kept, value_cases

from hindsight.safety.redact import redact

PII = [
    ("Aunt Bea left her wallet words with me before surgery: 1 anchor 2 velvet 3 pistol 4 meadow 5 glove 6 harbor "
     "7 lizard 8 crane 9 tunnel 10 frost 11 mango 12 siren. Keep them safe.", "anchor 2 velvet"),
    ("Seed phrase for the test wallet:\n1. orbit\n2. lemon\n3. cradle\n4. vivid\n5. sponsor\n6. humble\n7. canyon\n"
     "8. debris\n9. oyster\n10. marble\n11. rookie\n12. glimpse", "orbit"),
    ("助记词先记在这：猫 鱼 山 雨 花 月 风 云 石 竹 松 雪，回家再抄到纸上。", "猫 鱼 山 雨"),
    ("Lobby Wi-Fi was changed again - it's now Cedar#Lounge88 until the end of the month.", "Cedar#Lounge88"),
    ("The staff wifi got reset; it's now OakDesk2025x for everyone on floor 2.", "OakDesk2025x"),
    ("门店的WiFi又改了，现在是 Mendian@2025，收银台贴一张。", "Mendian@2025"),
    ("家里路由器后台改成了 Wang_router88，别忘了。", "Wang_router88"),
    ("保险柜我改成了 550912# 了。", "550912#"),
    ("财务电脑开机用的是 Cw#2025win，月底要换。", "Cw#2025win"),
    ("Report link: https://dash.example.org/r/77?format=pdf&sig=Qx7Lm2Kp9Rz4Tn8Vb3Wc", "Qx7Lm2Kp9Rz4Tn8Vb3Wc"),
    ("Login redirect https://app.example.net/cb#access_token=Lk82Qz7Xc3Vb8Nm2As6D&state=abc", "Lk82Qz7Xc3Vb8Nm2As6D"),
    ("Reset link for Sam: https://portal.example.com/reset?code=Rk3Zt8Lm2Qp7Vx9Nc4Wb", "Rk3Zt8Lm2Qp7Vx9Nc4Wb"),
    ("https://bkt.s3.amazonaws.com/x.csv?X-Amz-Expires=900&X-Amz-Signature=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a6978",
     "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a6978"),
    ("物流接口：客户编码 556621，AppKey 7c1d9e2f-3a4b-4c5d-8e6f-9a0b1c2d3e4f，下单时用。", "7c1d9e2f-3a4b-4c5d-8e6f-9a0b1c2d3e4f"),
    ("Reimburse Ana by ACH - routing 011000138, account 7720194456.", "011000138"),
    ("Her savings #000771234590 at Lakeview Bank gets the bonus.", "000771234590"),
    ("Send the flowers to Mrs. Mori at 4-2-8 Shibakoen, Minato-ku, Tokyo 105-0011.", "4-2-8 Shibakoen"),
    ("Send the flowers to Mrs. Mori at 4-2-8 Shibakoen, Minato-ku, Tokyo 105-0011.", "105-0011"),
    ("铃木家的地址：〒542-0081 大阪府大阪市中央区南船场3-4-12", "南船场3-4-12"),
    ("把样品寄到日本横滨市西区南幸1-5-1给山田。", "南幸1-5-1"),
    ("Cousin Min-ji lives at 올림픽로 300, 101동 1204호 in Songpa.", "올림픽로 300"),
    ("Drop the box at Blk 214 Bedok North Ave 1, #07-112 for Mr. Tan.", "#07-112"),
    ("Courier to Flat 14, Lotus Residency, Baner, Pune for Priya.", "Flat 14, Lotus Residency"),
    ("Mi tía vive en Carrera 15 #85-32, Bogotá.", "Carrera 15 #85-32"),
    ("Grandpa's bitcoin paper backup, taped in the album: 1 ribbon 2 walnut 3 cactus 4 meadow 5 oyster 6 debris 7 lizard "
     "8 glove 9 prism 10 tunnel 11 frost 12 crane", "ribbon 2 walnut"),
    ("钱包助记词：1.春 2.夏 3.秋 4.冬 5.东 6.南 7.西 8.北 9.金 10.木 11.水 12.火", "1.春 2.夏"),
    ("The guest Wi-Fi got changed late last night - it's now Harbor&View77 for the weekend.", "Harbor&View77"),
    ("jump host key:\nPuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ops\nPublic-Lines: 2\n"
     "AAAAC3NzaC1lZDI1NTE5AAAAIHx8Kq\nPrivate-Lines: 1\nAAAAIBc9xK2mQ7vL0pR4tY8wZ3nB6dF1gH5jS2aE7uI9oP3q\n"
     "Private-MAC: 5f2a9c8e1b7d3f6a0e4c2b8d9f1a3e5c7b0d2f4a", "AAAAIBc9xK2mQ7vL0pR4tY8wZ3nB6dF1gH5jS2aE7uI9oP3q"),
]

KEEP = [
    ("Spare parts went out with SF Express, waybill SF1408823951627, due Monday.", "SF1408823951627"),
    ("The county library's listed address is 455 N Rexford Dr, Beverly Hills, CA 90210.", "455 N Rexford Dr"),
    ("The animal hospital's after-hours number is 503-555-0142 if the dog gets worse.", "503-555-0142"),
    ("The school office phone is 020 7946 0018 for absences.", "020 7946 0018"),
    ("医院挂号电话 010-6515 8888，早上七点放号。", "010-6515 8888"),
    ("课题组办公地点是学院官网写的综合楼C座612。", "综合楼C座612"),
    ("See https://example.com/search?key=annual-report&page=2 for the filing.", "key=annual-report"),
    ("The guest wifi changed, it's now ACME-Guest-5G on the new router.", "ACME-Guest-5G"),
    ("Export: https://files.example.com/a.zip?expires=1718000000&format=zip", "expires=1718000000"),
    ("后台改成了 V2.3.11_build 版本，重启过。", "V2.3.11_build"),
    ("Test key copied from the Stripe docs: sk_test_51Zq8Lm2Rt7Vx9Nc4Wb3Kp6", "sk_test_51Zq8Lm2Rt7Vx9Nc4Wb3Kp6"),
    ("The town museum is open late on Fridays and its street address is 12 Castle Hill, York YO1 7HX.", "12 Castle Hill"),
    ("Match report: the game in Tokyo ended 2-1-0 after extra time.", "2-1-0"),
]

CASES = value_cases(PII, KEEP)


@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
@pytest.mark.parametrize(("text", "value", "secret"), CASES)
def test_secret_gone_and_look_alike_kept(text: str, value: str, secret: bool, tagger: bool) -> None:
    """A PII case's value is gone from the output; a look-alike's value is still there."""
    assert_value_gone_or_kept(text, value, secret, tagger)


def test_a_url_keeps_everything_but_its_credential() -> None:
    out = redact("Report link: https://dash.example.org/r/77?format=pdf&sig=Qx7Lm2Kp9Rz4Tn8Vb3Wc", tagger=False).text
    assert out == "Report link: https://dash.example.org/r/77?format=pdf&sig=[REDACTED:api_key]", out


def test_a_password_parameter_stays_a_password() -> None:
    out = redact("jdbc:postgresql://db:5432/hr?user=hr_app&password=Hr#2025xq", tagger=False).text
    assert out.endswith("password=[REDACTED:password]"), out


def test_a_japanese_address_keeps_its_ward_and_city() -> None:
    out = redact("Send the flowers to Mrs. Mori at 4-2-8 Shibakoen, Minato-ku, Tokyo 105-0011.", tagger=False).text
    assert out == "Send the flowers to Mrs. Mori at [REDACTED:address], Minato-ku, Tokyo [REDACTED:address].", out


def test_a_zh_seed_phrase_leaves_the_words_after_it() -> None:
    out = redact("冷钱包助记词：的 一 是 在 不 了 有 和 人 这 中 大，一共12个字，别存手机。", tagger=False).text
    assert out == "冷钱包助记词：[REDACTED:private_key]，一共12个字，别存手机。", out


def test_a_routing_number_needs_its_checksum() -> None:
    text = "Routing 123456789 trucks through the north gate."
    assert redact(text, tagger=False).text == text


@pytest.mark.parametrize("unit", ["https://a.io/x?sig=Ab12Cd34Ef56Gh78&", "1 walnut ", "routing 011000138 ",
                                  "1-2-3 Abc, Tokyo ", "wifi changed, it's now Ab#12 ", "后台改成了 Ab_12 ", "Flat 1, A "])
def test_round19_readers_are_linear(unit: str) -> None:
    assert_linear_cost(unit)
