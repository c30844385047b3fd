"""Redaction round 36 (issue 10): blind round 34's misses by kind, in wordings of our own (none copied from a set).

A secret that answers a request for it in a dialogue turn - a password, a passport / licence / ID number, a card
number and then its CVV in the turn after, a one-time code a phone "received" read out in Chinese numerals - where the
value has no label of its own (the label is in the question, a turn before); a key or password announced as sent
privately ("AppKey私发你了：VALUE", "Sent you the API key privately: VALUE"); a vehicle's model year and make read as
a house number and a street ("the 2018 Triumph Street Twin": a look-alike). Look-alikes beside them: a request for a
code answered without one, an order or tracking number answering "which order?", a public support mailbox beside a
private one, model names with years.
"""

from __future__ import annotations

import pytest
from linear_cost import assert_not_superlinear
from redaction_round import round_tests

from hindsight.safety.redact import redact

# (text, the values that go, the facts that stay)
GONE = [
    # a password answering "what is the password?" in the next turn (or the one after)
    ("王姐：仓库那台电脑开机密码是啥？\n小周：hz8823kk，用完锁屏。\n王姐：收到，今天盘点。", ["hz8823kk"],
     ["用完锁屏", "今天盘点"]),
    ("Dev: what's the staging db password again?\nOps: Tr4vel_mug9, don't paste it in Slack\nDev: thanks",
     ["Tr4vel_mug9"], ["don't paste it in Slack"]),
    ("老板：保险柜口令多少\n会计：就是 qx2019A，别外传", ["qx2019A"], ["别外传"]),
    ("店长：后台管理员密码多少？\n店员：我查一下\n店员：Shop2024go，记得改。", ["Shop2024go"], ["记得改", "我查一下"]),
    ("Ana: can you tell me the router admin password?\nBen: it's 7hillsCafe. lowercase c\nAna: got it",
     ["7hillsCafe"], ["lowercase c"]),
    ("[10:02] 王姐：保险柜密码？\n[10:03] 小周：kq7741mm\n[10:03] 王姐：好", ["kq7741mm"], ["王姐：好"]),
    ("- What's the PIN for the alarm panel?\n- 7391, then press the tick\n- thanks", ["7391"], ["press the tick"]),
    # a passport / driving licence number answering a request for it
    ("Clerk: I need your passport number for the booking\nGuest: E48217730, Chinese passport\nClerk: done, room 1204",
     ["E48217730"], ["Chinese passport", "room 1204"]),
    ("Agent: passport no. please?\nTraveller: 548201937\nAgent: thanks, seat 14C", ["548201937"], ["seat 14C"]),
    ("前台：请报一下护照号\n客人：G38274651，中国护照\n前台：好的，房卡给您", ["G38274651"], ["中国护照", "房卡给您"]),
    ("Officer: what's your driver's licence number?\nRider: WOODS804127JD9XY, full licence\nOfficer: fine",
     ["WOODS804127JD9XY"], ["full licence"]),
    # a card number, then its CVV in the turn after the question that asks for it
    ("Cashier: card number?\nMe: 5412 7534 0091 2286\nCashier: and the security code on the back?\nMe: 318\n"
     "Cashier: charged $240.", ["5412 7534 0091 2286", "318"], ["charged $240"]),
    ("客服：请报一下卡号\n客户：6222 0212 3456 7890\n客服：背面三位安全码呢？\n客户：904\n客服：好的，已支付1200元。",
     ["6222 0212 3456 7890", "904"], ["已支付1200元"]),
    ("Agent: what's the CVV?\nCaller: 7730\nAgent: great, the refund is on its way", ["7730"], ["refund is on its way"]),
    ("客服：CVV2呢？\n顾客：是 215\n客服：扣款成功", ["215"], ["扣款成功"]),
    # a code a phone received, asked for by "a code" (码) alone, read out in Chinese numerals
    ("顾客：我手机收到一个码，要念给你吗？\n客服：对，念一下\n顾客：三八九二零七\n客服：好的，已绑定。", ["三八九二零七"],
     ["已绑定"]),
    ("用户：短信来了个码\n客服：请告诉我\n用户：七七一四零五\n客服：开通成功", ["七七一四零五"], ["开通成功"]),
    ("师傅：你手机上收到的码多少？\n我：幺三五七九二，刚到的", ["幺三五七九二"], ["刚到的"]),
    ("客户：刚收到一个码\n店员：报一下\n客户：582039\n店员：好了，会员已激活", ["582039"], ["会员已激活"]),
    # a key or password announced as sent privately, then its value
    ("@小陈 高德地图的Key私发你了：3f9a2c7e-81d4-4b6a-9e0c-5d7f1a2b3c4d，别提交到git。",
     ["3f9a2c7e-81d4-4b6a-9e0c-5d7f1a2b3c4d"], ["别提交到git"]),
    ("Sent you the Mailjet API key privately: 7c1e9a4b-2d3f-4e5a-8b6c-9d0e1f2a3b4c - keep it out of the repo.",
     ["7c1e9a4b-2d3f-4e5a-8b6c-9d0e1f2a3b4c"], ["keep it out of the repo"]),
    ("支付宝的AppSecret我单独发你了：Kq8Zt3Xw9Lm2Vb7Np4Rs6Hy1，注意保密。", ["Kq8Zt3Xw9Lm2Vb7Np4Rs6Hy1"], ["注意保密"]),
    ("The staging token, DM'd you: 9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e (expires Friday).",
     ["9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e"], ["expires Friday"]),
    ("数据库密码私发你了：Lake2291pw，用完删掉。", ["Lake2291pw"], ["用完删掉"]),
    # a home whose house number looks like a year and whose street is named like a make stays an address
    ("My home address is 2018 Ford Street, Dearborn, MI 48124.", ["2018 Ford Street", "48124"], ["Dearborn"]),
    ("Ship the parcel to 1998 Honda Way, Torrance, CA 90501 please.", ["1998 Honda Way", "90501"], ["Torrance"]),
]

# (text, the values that stay)
KEEP = [
    # a request for a secret answered without one
    ("客服：请提供验证码\n客户：还没收到，能重发吗？\n客服：好的，已重发", ["还没收到"]),
    ("Sam: what's the wifi password?\nJo: 2 secs, checking\nSam: ok", ["2 secs"]),
    ("老板：保险柜密码多少？\n店员：2019年换过一次，我也不记得了", ["2019年"]),
    ("A: 密码多少位？\nB: 12位，字母加数字", ["12位"]),
    ("Agent: passport number please\nGuest: I'll bring it tomorrow, flight CA1832\nAgent: fine", ["CA1832"]),
    ("前台：护照号多少？\n客人：护照还在办，房号 8032\n前台：好的", ["8032"]),
    ("Tech: which PIN pad is broken?\nMe: 3, the left one", ["3, the left one"]),
    ("客服：CVV呢？\n顾客：不用CVV，刷脸付的，共3件", ["共3件"]),
    # an order, tracking or ticket number answering "which one?"
    ("Rep: which order is it?\nCustomer: A55102937, the blue kettle\nRep: refund issued", ["A55102937"]),
    ("客服：哪个订单？\n顾客：DD20240518003，那个电水壶\n客服：已退款", ["DD20240518003"]),
    ("Rep: tracking number?\nMe: SF1402938475\nRep: it is in Ningbo", ["SF1402938475"]),
    ("客服：工单号多少？\n用户：TK-58213，昨天提的", ["TK-58213"]),
    ("Coach: how many reps?\nMe: 552\nCoach: nice", ["552"]),
    # a code received and talked about, no value; a QR code, a barcode
    ("顾客：我手机收到一个码，是不是诈骗？\n客服：别告诉任何人", ["是不是诈骗"]),
    ("店员：扫一下二维码\n顾客：扫了，8号桌", ["8号桌"]),
    # a key announced as sent with nothing after it but where to find it
    ("AppKey私发你了，注意查收，明天上线。", ["明天上线"]),
    ("The API key is sent privately: see the vault entry billing-prod.", ["billing-prod"]),
    # a public support mailbox beside the private one asked for
    ("官网上写的是support@lakeside-dental.example，不过周医生说直接发到他私人邮箱zhou.dr1983@qq.com。",
     ["support@lakeside-dental.example"]),
    # a vehicle's model year and make, not an address
    ("He rode the 2022 Triumph Street Twin home from the dealer.", ["2022 Triumph Street Twin"]),
    ("Traded in my 2019 Harley-Davidson Road King for a newer bike.", ["2019 Harley-Davidson Road King"]),
    ("Bought a used 2023 Toyota Tacoma Trail with 12,000 miles on it.", ["2023 Toyota Tacoma Trail"]),
    ("Customer test-rode the 2017 Harley Street Glide, then the 2020 Indian Scout.", ["2017 Harley Street Glide"]),
]

# The private mailbox asked for goes (the public one stays, above).
PRIVATE_MAIL = [
    ("官网上写的是support@lakeside-dental.example，不过周医生说直接发到他私人邮箱zhou.dr1983@qq.com。", "zhou.dr1983@qq.com"),
    ("Our site lists hello@kitecafe.example, but Marta asked me to write to her own inbox marta.k88@gmail.com instead.",
     "marta.k88@gmail.com"),
]


test_secret_gone_fact_kept, test_lookalike_kept = round_tests(GONE, KEEP)


@pytest.mark.parametrize(("text", "value"), PRIVATE_MAIL)
def test_private_mailbox_goes(text: str, value: str) -> None:
    assert value not in redact(text).text


def _answers(text: str) -> object:
    from hindsight.safety.redact_answers import find_answered_values  # round 36's modules (absent on main)

    return find_answered_values(text)


def _sent(text: str) -> object:
    from hindsight.safety.redact_answers import find_sent_values

    return find_sent_values(text)


def _vehicle(text: str) -> object:
    from hindsight.safety.redact_address import find_addresses

    return find_addresses(text)


@pytest.mark.parametrize(("run", "unit", "n"), [
    (_answers, "A: what's the password?\nB: Tr4vel_mug9, ok\nC: 卡号？\nD: 6222 0212 3456 7890\n", 100),
    (_answers, "密码多少？\n", 300),
    (_sent, "高德地图的Key私发你了：3f9a2c7e-81d4-4b6a-9e0c-5d7f1a2b3c4d，Sent you the API key privately: x ", 80),
    (_sent, "私发你了私发你了key key ", 200),
    (_vehicle, "He rode the 2022 Triumph Street Twin home. ", 100),
], ids=["answers", "answers-adversarial", "sent", "sent-adversarial", "vehicle"])
def test_linear_cost(run: object, unit: str, n: int) -> None:
    """Ten times the text costs about ten times as much (the readings alone)."""
    assert_not_superlinear(run, unit * n, unit * 10 * n, slack=0.05)  # type: ignore[arg-type]
