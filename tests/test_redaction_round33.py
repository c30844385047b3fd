"""Redaction round 33 (issue 10): blind round 31's misses by kind, in wordings of our own (none copied from a set).

A value the sentence calls old, previous, replaced or revoked is still that secret ("the old one (X) no longer works",
"旧的（X）已作废", "changed from X to Y"); labels and values paired in order ("the PIN and PUK are A and B respectively",
"AccessKey、SecretKey分别为A、B": each value takes its own label's verdict); a code spoken digit by digit in a dialogue turn
that answers a request for it ("B: it's 4 0 9 1 7 3"); an organisation's address printed in its advertisement, flyer,
poster or billboard is published, and stays.
"""

from __future__ import annotations

import pytest
from linear_cost import assert_not_superlinear
from redaction_round import round_tests

from hindsight.safety.redact import redact

# (text, the values that go, the facts that stay)
GONE = [
    # a value called old, previous, replaced or revoked is still a secret
    ("Changed the router admin password to Vq7-lemon-Tide; the old one (harbor_gull42) no longer works.",
     ["Vq7-lemon-Tide", "harbor_gull42"], ["router admin"]),
    ("The kiosk password is now Orchid!2291 - the previous one (tealpot_88) was retired last week.",
     ["Orchid!2291", "tealpot_88"], ["retired last week"]),
    ("Rotated the SFTP password from quartz_Moon17 to Delta#5580pine after the vendor left.",
     ["quartz_Moon17", "Delta#5580pine"], ["the vendor left"]),
    ("New vault PIN is 5092; the old PIN (7316) is revoked as of today.", ["5092", "7316"], ["as of today"]),
    ("The payroll login moved to Fern&Kite07 and the old password, bluejay_2019, was revoked on Friday.",
     ["Fern&Kite07", "bluejay_2019"], ["on Friday"]),
    ("Reset the lab tablet passcode to Rq4-ember-88; its previous passcode (sprout_lab3) is expired.",
     ["Rq4-ember-88", "sprout_lab3"], ["lab tablet"]),
    ("收银系统管理员密码改成了Qx8-tiger-Lake，旧的（panda_1987）已作废。", ["Qx8-tiger-Lake", "panda_1987"], ["收银系统"]),
    ("仓库WiFi密码改成了Ld#4471cloud，原来的密码（sunny2020）已经停用。", ["Ld#4471cloud", "sunny2020"], ["已经停用"]),
    ("VPN密码从moon_river88改为Kp7!harbor，明天生效。", ["moon_river88", "Kp7!harbor"], ["明天生效"]),
    ("后台密码已重置为Hz5-plum-Rain，之前那个（bamboo_77）不能再用了。", ["Hz5-plum-Rain", "bamboo_77"], ["不能再用了"]),
    ("保险柜密码换成了 2957，旧密码 6813 已失效。", ["2957", "6813"], ["已失效"]),
    ("邮箱密码重置成了 Tn5-river-Q，原密码 lotus#2016 作废。", ["Tn5-river-Q", "lotus#2016"], ["作废"]),
    # labels and values paired in order ("respectively", 分别)
    ("For the media bucket the access key and secret key are QN4kd9F2mXq7Lp3R and v8Kq2mZ7xR4pL9nT3wF6yH1jD5sG0cBe "
     "respectively; uploads start Monday.", ["QN4kd9F2mXq7Lp3R", "v8Kq2mZ7xR4pL9nT3wF6yH1jD5sG0cBe"], ["uploads start Monday"]),
    ("The admin and guest Wi-Fi passwords are Crane#4471 and wren_guest22 respectively.",
     ["Crane#4471", "wren_guest22"], ["admin and guest"]),
    ("The PIN and the PUK for the depot's new SIM are 4827 and 73018462, respectively.", ["4827", "73018462"], ["new SIM"]),
    ("The staging host's user name and password are deployer and Hm7#pine-Road respectively.", ["Hm7#pine-Road"],
     ["deployer"]),
    ("Access key and secret key, respectively: LKX2P9QF7T3M8V1R and c7Yd2Qm9Lp4Xz8Rt1Vw6Nb3Hk5Sj0Gfa. Rotate in June.",
     ["LKX2P9QF7T3M8V1R", "c7Yd2Qm9Lp4Xz8Rt1Vw6Nb3Hk5Sj0Gfa"], ["Rotate in June"]),
    ("对象存储的AccessKey和SecretKey分别为QS8K2M7P4X9T1L6R和Zr4mQ9x2Lp7Vt3Kw8Ny1Hd6Bs5Jf0Gc，月底前换掉。",
     ["QS8K2M7P4X9T1L6R", "Zr4mQ9x2Lp7Vt3Kw8Ny1Hd6Bs5Jf0Gc"], ["月底前换掉"]),
    ("测试服务器的用户名和密码分别是deploy和Hm7#pine-Road，只给运维。", ["Hm7#pine-Road"], ["deploy", "只给运维"]),
    ("新SIM卡的PIN码、PUK码分别为3816、58204719，卡在抽屉里。", ["3816", "58204719"], ["卡在抽屉里"]),
    ("管理员和访客的WiFi密码分别是Lx9!harbor和guest_tea88。", ["Lx9!harbor", "guest_tea88"], ["管理员和访客"]),
    ("API Key、Secret Key 分别是 Rt5Wq8Zm2Lp9Xv4N 和 Yh3Kd7Qm1Nw6Pz9Bv2Xc5Lj8Tf0Rg4a，下周上线。",
     ["Rt5Wq8Zm2Lp9Xv4N", "Yh3Kd7Qm1Nw6Pz9Bv2Xc5Lj8Tf0Rg4a"], ["下周上线"]),
    ("机房门锁和保险柜的密码分别是 602913 和 7741。", ["602913", "7741"], ["机房门锁"]),
    # a code spoken digit by digit in the turn that answers a request for it
    ("courier: the locker is asking for a code\nshop: it's 4 0 9 1 7 3, hurry\ncourier: open, thanks",
     ["4 0 9 1 7 3"], ["courier: open, thanks"]),
    ("nurse: portal wants the verification code again\nIT: 8 2 6 0 5 1\nnurse: got in", ["8 2 6 0 5 1"], ["nurse: got in"]),
    ("Tom: what's the one-time code?\nAmy: 7-3-9-0-1-4, it expires in a minute", ["7-3-9-0-1-4"], ["expires in a minute"]),
    ("- Can you read me the PIN they texted?\n- Sure: 5 8 1 3. Don't save it.", ["5 8 1 3"], ["Don't save it"]),
    ("司机：系统要验证码\n调度：3 9 1 7 0 2，快输\n司机：进去了", ["3 9 1 7 0 2"], ["司机：进去了"]),
    ("顾客：取件码多少？\n店员：是 6 0 4 8 1 2，别告诉别人", ["6 0 4 8 1 2"], ["别告诉别人"]),
    ("A：登录要动态码，你看一下\nB：就是 2 7 5 0 9 3\nA：好了", ["2 7 5 0 9 3"], ["A：好了"]),
]

# (text, the values that stay)
KEEP = [
    # an organisation's address in its advertisement, flyer, poster, billboard or sign is published
    ('Bakery flyer: "Fresh bread daily at 42 Harbour Road, open 7am-7pm."', ["42 Harbour Road"]),
    ("Radio ad for the tyre shop: 'Come see us at 8 Mill Lane, Monday to Saturday.'", ["8 Mill Lane"]),
    ("The billboard on the ring road says: Rosewood Dental, 3 Chapel Street, walk-ins welcome.", ["3 Chapel Street"]),
    ('Poster in the cafe window: "Lucky Dragon takeaway, 77 Queen Street, call 020 7946 0321."',
     ["77 Queen Street", "020 7946 0321"]),
    ("Classified ad in the Gazette: Ace Plumbing, 15 Station Road, free quotes.", ["15 Station Road"]),
    ("The gym's advert in the paper reads \"Join us at 210 Kings Avenue\" in big letters.", ["210 Kings Avenue"]),
    ("报纸上的广告：“老王锁业，24小时上门，地址：建设路88号。”", ["建设路88号"]),
    ("传单上写着：快乐宠物店，人民路56号，欢迎光临。", ["人民路56号"]),
    ("公交站的广告牌：新华书店，解放路33号，全年无休。", ["解放路33号"]),
    ("店门口的海报：欢迎到长江路12号品尝新品。", ["长江路12号"]),
    ("健身房发的宣传单印着新址：和平大街200号。", ["和平大街200号"]),
    # look-alikes of the other kinds: an old value that is no secret, pairs that are not credentials, digits no code
    ("Upgraded the router firmware to 4.2.1; the old one (3.9.7) is deprecated.", ["3.9.7"]),
    ("The old ticket (INC-4471) was closed and a new one opened.", ["INC-4471"]),
    ("旧版本（2.3.1）已废弃，请升级。", ["2.3.1"]),
    ("The database host and port are db-main.internal and 5432 respectively.", ["db-main.internal", "5432"]),
    ("订单号和运单号分别是 20240611001 和 SF1234567890。", ["20240611001", "SF1234567890"]),
    ("The region and bucket are eu-west-1 and media-assets respectively.", ["eu-west-1", "media-assets"]),
    ("coach: how many reps?\nme: 5 4 3 2 1, then rest", ["5 4 3 2 1"]),
    ("A: which lanes are open today?\nB: 1 3 5 7 9, the rest are closed", ["1 3 5 7 9"]),
    ("A: what's the zip code there?\nB: 9 4 1 0 7", ["9 4 1 0 7"]),
    ("顾客：邮编是多少？\n店员：5 1 8 0 0 0", ["5 1 8 0 0 0"]),
]

# A person's address stays redacted though an ad is named near it (the ad is not where the address was published).
PERSONAL = [
    ("Posting a flyer for my garage sale; my home is 12 Elm Street.", "12 Elm Street"),
    ("Saw the bakery's ad, then drove to my sister's place at 9 Oak Lane.", "9 Oak Lane"),
    ("The ad agency's accountant lives at 14 Birch Road, ask before visiting.", "14 Birch Road"),
    ("看到广告后我去了我家，地址是建设路18号。", "建设路18号"),
]


test_secret_gone_fact_kept, test_lookalike_kept = round_tests(GONE, KEEP)


@pytest.mark.parametrize(("text", "value"), PERSONAL)
def test_a_persons_address_near_an_ad_goes(text: str, value: str) -> None:
    assert value not in redact(text).text


def _public_address(text: str) -> object:
    from hindsight.safety.redact_address import find_addresses

    return find_addresses(text)


def _replaced(text: str) -> object:
    from hindsight.safety.redact_replaced import find_replaced_values  # round 33's modules (absent on main)

    return find_replaced_values(text)


def _respective(text: str) -> object:
    from hindsight.safety.redact_respective import find_respective_values

    return find_respective_values(text)


def _turns(text: str) -> object:
    from hindsight.safety.redact_turns import find_turn_codes

    return find_turn_codes(text)


@pytest.mark.parametrize(("run", "unit", "n"), [
    (_replaced, "the password is new; the old one (felix_cat99) is revoked, rotated from quartz_Moon17 to Delta#5580pine; "
                "旧的（panda_1987）作废。", 60),
    (_replaced, "old (", 400),
    (_respective, "AccessKey和SecretKey分别是QS8K2M7P4X9T1L6R和Zr4mQ9x2Lp7Vt3Kw8Ny1Hd6Bs5Jf0Gc，the PIN and PUK are 4827 and 7301 "
                  "respectively. ", 60),
    (_respective, "pin and pin, respectively: 4827 and ", 200),
    (_turns, "A: what's the code?\nB: it's 4 0 9 1 7 3, hurry\n", 100),
    (_public_address, 'Bakery flyer: "Fresh bread daily at 42 Harbour Road, open 7am-7pm." ad: ad: ', 60),
], ids=["replaced", "replaced-adversarial", "respective", "respective-adversarial", "turns", "advert"])
def test_linear_cost(run: object, unit: str, n: int) -> None:
    """Ten times the text costs about ten times as much (the readings alone)."""
    assert_not_superlinear(run, unit * n, unit * 10 * n, slack=0.05)  # type: ignore[arg-type]


def test_an_ad_hoc_meeting_is_no_advertisement() -> None:
    """"ad hoc" introduces no ad's text; "Ad:" does."""
    import re

    from hindsight.safety.redact_advert import advertised

    nobody = re.compile(r"(?!x)x")
    for text, public in (("Ad hoc meeting: 14 Birch Road, 6pm.", False), ("Ad: Birch Bakery, 14 Birch Road, 6am-6pm.", True)):
        start = text.index("14 Birch Road")
        assert advertised(text, start, start + len("14 Birch Road"), nobody, address=True) is public, text
