"""Redaction round 35 (issue 10): blind round 33's misses by kind, in wordings of our own (none copied from a set).

A password that mixes Chinese characters with letters and digits, told after a change verb (EN or ZH, with or without
了 after it); the ID half of a key pair on the line next to its secret half ("key = value" lines); a national ID after
its cue with the holder's name glued to it or set off before it; a home address given with what it is for between its
label and the value, and a Chinese address written in English unit first (Room / Building / estate); a Wi-Fi password
told as "the Wi-Fi (at X) is VALUE"; a VIN in a vehicle's sale listing is published (a look-alike).
"""

from __future__ import annotations

import pytest
from linear_cost import assert_not_superlinear
from redaction_round import round_tests

from hindsight.safety.redact import redact

# (text, the values that go, the facts that stay)
GONE = [
    # a password mixing Han characters and ASCII, after a change verb, with or without 了 / 啦 after it
    ("书房电脑的开机密码我改成猫咪2024xy了，别告诉别人。", ["猫咪2024xy"], ["书房电脑", "别告诉别人"]),
    ("家里路由器密码刚换成小橘子88ab，周末记得更新。", ["小橘子88ab"], ["周末记得更新"]),
    ("网银登录密码已经改为海棠Hz1990，旧的不用了。", ["海棠Hz1990"], ["旧的不用了"]),
    ("备份盘的密码设成青松2022abc啦，下次开会说。", ["青松2022abc"], ["下次开会说"]),
    ("财务共享盘口令重置为年会2025go了。", ["年会2025go"], ["财务共享盘"]),
    ("The shared drive password was changed to 书法2023go this morning.", ["书法2023go"], ["shared drive", "this morning"]),
    ("I set the NAS password to 晨跑Run2024 last night.", ["晨跑Run2024"], ["NAS", "last night"]),
    ("Heads up: the studio Wi-Fi password is now 海风77abc.", ["海风77abc"], ["studio Wi-Fi"]),
    # the ID half of a key pair on the line next to its secret half
    ("[sms gateway]\napp_key = 55019283\napp_secret = 7d1f9a3c5e8b2046d1f9a3c5e8b20461\ntimeout = 30",
     ["55019283", "7d1f9a3c5e8b2046d1f9a3c5e8b20461"], ["timeout = 30"]),
    ("APP_ID=30418857\nAPP_SECRET=b2e9d4f7a1c8063e9b2d5f8a1c4e7063\nREGION=cn-south",
     ["30418857", "b2e9d4f7a1c8063e9b2d5f8a1c4e7063"], ["REGION=cn-south"]),
    ("client_id: 60293814\nclient_secret: Qm8v2Lr5Tz9Xc4Nb7Hk1Wp3Ys6Ud0Fa\nscope: read", ["60293814",
     "Qm8v2Lr5Tz9Xc4Nb7Hk1Wp3Ys6Ud0Fa"], ["scope: read"]),
    ("【短信接口】\nAppKey：60193847\nAppSecret：e4a1c9f7b2d5e8063c1a7f9b3d5e2406\n签名：晨星科技",
     ["60193847", "e4a1c9f7b2d5e8063c1a7f9b3d5e2406"], ["签名：晨星科技"]),
    ("app_secret = 9e2d7b4f1a6c8305e9d2b7f4a1c6e308\napp_key = 71820394\n门店数：12家",
     ["71820394", "9e2d7b4f1a6c8305e9d2b7f4a1c6e308"], ["门店数：12家"]),
    # a national ID after its cue, the holder's name glued to it or set off before it (check character wrong)
    ("入住登记身份证号:刘洋320106198409201231，房间302。", ["320106198409201231"], ["刘洋", "房间302"]),
    ("报名表要填身份证：李秀兰 330102198712051231，下周一交。", ["330102198712051231"], ["李秀兰", "下周一交"]),
    ("身份证号码为阿依古丽·吐尔逊650102199511204421，明天买票用。", ["650102199511204421"], ["阿依古丽·吐尔逊", "明天买票用"]),
    ("ID card number: Zhang Wei, 440305199208153311, for the hotel check-in.", ["440305199208153311"],
     ["Zhang Wei", "hotel check-in"]),
    ("National ID for the train ticket: Wang Fang 110105199003074571.", ["110105199003074571"], ["Wang Fang", "train ticket"]),
    # a home address with what it is for between its label and the value; a Chinese address written unit first
    ("Home address for the embassy form: Flat 1203, Tower 2, Riverside Court, Pudong New Area, Shanghai 200120.",
     ["Flat 1203, Tower 2, Riverside Court", "200120"], ["embassy form", "Shanghai"]),
    ("Her residential address for the bank: Apt 9B, Building 4, Green Lake Residence, Xihu District, Hangzhou 310012.",
     ["Apt 9B, Building 4, Green Lake Residence", "310012"], ["for the bank", "Hangzhou"]),
    ("We moved to Room 1101, Building 6, Sunshine Garden, Nanshan District, Shenzhen 518052 last month.",
     ["Room 1101, Building 6, Sunshine Garden", "518052"], ["last month", "Shenzhen"]),
    ("His home address for the school: 27 Willow Bend Close, Reading RG4 7TD.", ["27 Willow Bend"], ["for the school"]),
    ("家庭住址（办护照用）：海淀区学院路甲5号院2号楼301", ["学院路甲5号院2号楼301"], ["办护照用"]),
    # a Wi-Fi password told as "the Wi-Fi (at X) is VALUE", beside another credential or alone
    ("Guest Wi-Fi at the Harbour Inn is Gull$Nest42; the router login is admin / Kp9!rT2w.", ["Gull$Nest42", "Kp9!rT2w"],
     ["Harbour Inn"]),
    ("The wifi in the back office is Latte*7731, printer is on the left.", ["Latte*7731"], ["back office"]),
    ("店里的WiFi是Mocha#5520，后台账号 admin / Qw8!zx90。", ["Mocha#5520", "Qw8!zx90"], ["后台账号"]),
    ("客房无线网：Sea!Breeze2024，前台电话在桌上。", ["Sea!Breeze2024"], ["前台电话在桌上"]),
]

# (text, the values that stay)
KEEP = [
    # prose about a password change (a variable, a length, a rule), no value
    ("密码改成从环境变量DB_PASS读取了。", ["DB_PASS", "环境变量"]),
    ("密码长度改成12位以上了。", ["12位以上"]),
    ("密码规则改为字母加数字8位以上，下周生效。", ["8位以上"]),
    ("The password was changed to 密码管理器 entries for everyone.", ["密码管理器"]),
    # key = value lines with no secret half, or a neighbour that is no pair partner
    ("app_key = 20193847\nregion = cn-north-1\ntimeout = 30", ["20193847"]),
    ("merchant_secret = 4e9a1c7f2b8d3e6a0f5c9b1d7e2a8c4f\nstore_id = 10293847\nmax_retries = 30000000",
     ["10293847", "30000000"]),
    # an ID's cue with no number of its own, a sample declared wrong
    ("身份证复印件交给了王老师，审核编号 20240518001。", ["20240518001"]),
    ("身份证号示例：张三110101199003071231（样例，校验位不对）。", ["110101199003071231"]),
    # an office, a park, a meeting room written unit first; a business's address
    ("The training is in Room 301, Building 5, Zhangjiang Hi-Tech Park, Pudong.", ["Room 301, Building 5"]),
    ("Our office: Room 1808, Tower A, Kerry Centre, Jing'an District, Shanghai.", ["Room 1808, Tower A"]),
    ("Company address for the invoice: Room 2001, Building 3, Kexing Science Park, Nanshan District, Shenzhen.",
     ["Room 2001, Building 3"]),
    # a Wi-Fi network's name
    ("Guest Wi-Fi at the inn is HarbourInn-Guest, the password is on the fridge.", ["HarbourInn-Guest"]),
    ("The Wi-Fi is Pawsome_5G and it is slow on Sundays.", ["Pawsome_5G"]),
    ("The wifi at the office is down again, IT says 2 hours.", ["2 hours"]),
    # a VIN in a vehicle's sale listing
    ("2017 Civic EX, VIN 2HGFC2F59HH512345, one owner, clean title, asking $14,500.", ["2HGFC2F59HH512345"]),
    ("VIN 5YJ3E1EA7KF317000 - clean CARFAX, $29,900 OBO, test drives Saturdays.", ["5YJ3E1EA7KF317000"]),
    ("二手车转让：车架号 LFV2A21K7G3043210，一手车，售价8.6万。", ["LFV2A21K7G3043210"]),
    ("VIN WVWZZZ1JZ3W386752, salvage title, sold as-is.", ["WVWZZZ1JZ3W386752"]),
]

# A VIN told as one's own car's, for an insurer or a form, stays a secret.
OWN_VIN = [
    ("VIN for my insurance renewal: 3FA6P0H72HR123456, 2017 Fusion.", "3FA6P0H72HR123456"),
    ("我的车车架号 LSGPC52U6AF102938，保险续保要用。", "LSGPC52U6AF102938"),
]


test_secret_gone_fact_kept, test_lookalike_kept = round_tests(GONE, KEEP)


@pytest.mark.parametrize(("text", "value"), OWN_VIN)
def test_ones_own_vin_goes(text: str, value: str) -> None:
    assert value not in redact(text).text


def _mixed(text: str) -> object:
    from hindsight.safety.redact_mixed import find_mixed_passwords  # round 35's modules (absent on main)

    return find_mixed_passwords(text)


def _lines(text: str) -> object:
    from hindsight.safety.redact_lines import find_line_partners

    return find_line_partners(text, [(m, m + 32) for m in range(0, len(text), 211)])


def _named(text: str) -> object:
    from hindsight.safety.redact_named import find_named_ids

    return find_named_ids(text)


def _estate(text: str) -> object:
    from hindsight.safety.redact_estate import find_estate_addresses

    return find_estate_addresses(text)


@pytest.mark.parametrize(("run", "unit", "n"), [
    (_mixed, "家里路由器密码刚换成小橘子88ab，the NAS password to 晨跑Run2024 ", 100),
    (_mixed, "密码改成密码改成密码改成", 200),
    (_lines, "app_key = 55019283\napp_secret = 7d1f9a3c5e8b2046d1f9a3c5e8b20461\n", 100),
    (_named, "身份证号:刘洋320106198409201231，ID card number: Zhang Wei, 440305199208153311 ", 80),
    (_named, "身份证身份证身份证", 200),
    (_estate, "Home address for the form: Flat 1203, Tower 2, Riverside Court, Shanghai 200120. ", 60),
    (_estate, "Room 1, Building 2, ", 200),
], ids=["mixed", "mixed-adversarial", "lines", "named", "named-adversarial", "estate", "estate-adversarial"])
def test_linear_cost(run: object, unit: str, n: int) -> None:
    """Ten times the text costs about ten times as much (the readings alone)."""
    assert_not_superlinear(run, unit * n, unit * 10 * n, slack=0.05)  # type: ignore[arg-type]
