"""Redaction round 37 (issue 10): blind round 35's misses and over-redactions by kind, in wordings of our own (none
copied from a set).

Misses: a code answering a request for it in a dialogue turn that opens with a label before the value ("您柜子的码是
4471", "the gate code's 2691"); a delivery / pickup PIN or code told with its order or parcel number ("The delivery PIN
for order 77310 is 5821", "订单 20241116 的取餐码为 3184"); a key, token or secret changed to a new value with the ASCII
noun glued to Chinese ("测试环境的token改成 X", "secret换成了X"). Look-alikes that stay: a VIN in an auction lot line,
a public venue's street address (a shop, a museum, a station, an auction hall), an order or room number answering a
request for a code, a token "changed to" a way of authenticating or a setting.
"""

from __future__ import annotations

import pytest
from linear_cost import assert_not_superlinear
from redaction_round import round_tests

from hindsight.safety.redact import redact

# (text, the values that go, the facts that stay)
GONE = [
    # a code answering a request for it, the answer opening with a label before the value
    ("顾客：储物柜的取件码多少？\n店员：您柜子的码是 4471，扫码开柜。", ["4471"], ["扫码开柜"]),
    ("Tom: what's the gate code again?\nAnna: the gate code's 2691, don't share it.", ["2691"], ["don't share it"]),
    ("Guest: what's the locker code?\nStaff: Locker 12's code is 5581. Keep the key tag.", ["5581"], ["Keep the key tag"]),
    ("客人：我的取衣码是多少？\n前台：您的取衣码是 3316，凭码到洗衣房取。", ["3316"], ["凭码到洗衣房取"]),
    ("买家：提货码发我一下？\n卖家：你那单的码为 8823，明天下午来拿。", ["8823"], ["明天下午来拿"]),
    ("Mia: can you send me the door code?\nRaj: sure - the front door code is 8305, it changes Monday.", ["8305"],
     ["it changes Monday"]),
    # a delivery / pickup PIN or code told with its order or parcel number
    ("The delivery PIN for order 77310 is 5821; give it to the courier only.", ["5821"], ["order 77310"]),
    ("Collection PIN for parcel #A88213 is 3390 - the locker asks for it.", ["3390"], ["parcel #A88213"]),
    ("Your click-and-collect PIN for order #90017 is 6248.", ["6248"], ["order #90017"]),
    ("订单#66812的收货码是 7723，骑手到门口会问。", ["7723"], ["订单#66812"]),
    ("订单 20241116 的取餐码为 3184，到店出示。", ["3184"], ["订单 20241116"]),
    ("外卖单号 8812 的签收码是 4406，放门口就行。", ["4406"], ["外卖单号 8812"]),
    # a key, token or secret changed to a new value, the ASCII noun glued to Chinese
    ("把测试环境的token改成 x9Kq2LmN8vRt4Wz7，明天生效。", ["x9Kq2LmN8vRt4Wz7"], ["明天生效"]),
    ("飞书机器人的token改成q7Wm3Zx8Lk2Vp9Rt了，旧的作废。", ["q7Wm3Zx8Lk2Vp9Rt"], ["旧的作废"]),
    ("小程序的secret换成了A8f3Kq9ZmX2pL7vR，记得同步。", ["A8f3Kq9ZmX2pL7vR"], ["记得同步"]),
    ("支付回调的key更新为 Zr4Nx8Qp2Lm6Tv9W。", ["Zr4Nx8Qp2Lm6Tv9W"], ["支付回调"]),
    ("网关token已改为Tk8mQ2zX9rLp4VwN，要重启服务。", ["Tk8mQ2zX9rLp4VwN"], ["要重启服务"]),
    ("The webhook token was rotated to b7F2kQ9xLm4Rz8Wd.", ["b7F2kQ9xLm4Rz8Wd"], ["webhook token"]),
    # a password noun glued to Chinese (pii36b's note: the pw / pass reading's lookbehind sees no boundary there)
    ("服务器的pw改成 Hx7pLm29qz，今晚生效。", ["Hx7pLm29qz"], ["今晚生效"]),
    ("打印机的pass是Qw8rTy2024，贴在机箱背面。", ["Qw8rTy2024"], ["贴在机箱背面"]),
    # controls: a person's car's VIN, a home address, a customer's address
    ("My car's VIN is 1HGCM82633A004352, insurance renews Friday.", ["1HGCM82633A004352"], ["insurance renews Friday"]),
    ("王阿姨家地址：上海市嘉定区曹安公路4988弄12号502室，周六上午在家。", ["4988弄12号502室"], ["周六上午在家"]),
    ("李先生的收货地址：成都市锦江区春熙路88号5栋1单元302。", ["春熙路88号"], ["李先生"]),
    ("The customer's address is 18 Beach Road, Sanya - deliver after 6pm.", ["18 Beach Road"], ["deliver after 6pm"]),
]

# (text, the values that stay)
KEEP = [
    # a request for a code answered by a label and no code, or by another number
    ("顾客：取件码是多少？\n店员：取件码是四位数字，短信里有。", ["四位数字"]),
    ("顾客：取件码是多少？\n店员：您的订单号是 55821，取件码短信发您了。", ["55821"]),
    ("Customer: what's my pickup code?\nClerk: your order number is 55821, the code comes by SMS.", ["55821"]),
    ("Guest: what's the room code?\nDesk: the room number's 4120, the code is on the card.", ["4120"]),
    ("顾客：取件码是多少？\n店员：您的取件码是 4 位，短信里有。", ["4 位"]),
    ("Rep: what's the error code?\nUser: the error code is 5031, then it reboots.", ["5031"]),
    ("A：邮编多少？\nB：邮政编码是 100080，寄挂号信用。", ["100080"]),
    # an order, a weight, a count, a PIN said of nothing
    ("The delivery PIN for order #55821 was sent by SMS.", ["#55821"]),
    ("Order #55821 is 4096 grams, rider must bring it to the door.", ["4096 grams"]),
    ("订单#66812的件数是 12，骑手到门口会问。", ["12"]),
    ("The PIN for order #55821 is printed on the receipt.", ["#55821"]),
    ("取号码是 A023，前面还有 5 桌。", ["A023"]),
    ("The courier's PIN pad for order 8812 is broken.", ["8812"]),
    # a token or key "changed to" a way of working, a setting, a name
    ("把token改成从环境变量读取，别写死。", ["从环境变量读取"]),
    ("key改成 config.yaml 里的 api_key 字段。", ["config.yaml"]),
    ("token改成 Bearer 认证方式。", ["Bearer"]),
    ("把key改成英文名，比如 user_name。", ["user_name"]),
    ("token的过期时间改成 3600 秒。", ["3600"]),
    ("secret改成 SECRET_KEY_V2 这个环境变量名。", ["SECRET_KEY_V2"]),
    ("排序的key改成 created_at_desc 就行。", ["created_at_desc"]),
    # the new nouns' neighbours: a hint code, a queue number, a payment QR code, a header's pins, durations, formats
    ("提示码 4012 表示纸张卡住。", ["4012"]),
    ("排队取号码是 1088，前面还有 20 人。", ["1088"]),
    ("收款码是 1688 那个二维码。", ["1688"]),
    ("PIN 1 is GND, PIN 2 is VCC on this header.", ["PIN 1", "PIN 2"]),
    ("token改成 24 小时过期，refresh token改成 30 天。", ["24 小时", "30 天"]),
    ("把key改成 sha256 哈希后的值再存。", ["sha256"]),
    ("token换成了 JWT-v2 格式", ["JWT-v2"]),
    ("登机牌boarding pass是CA1832航班", ["CA1832"]),
    # a VIN in an auction lot line
    ("Lot 88 - 2016 Honda Accord, VIN 1HGCR2F3XGA123456, reserve not met.", ["1HGCR2F3XGA123456"]),
    ("拍品 032 号：2019款凯美瑞，车架号 LVGBE40K8KG123456，起拍价 8 万。", ["LVGBE40K8KG123456"]),
    ("Bidding opens at 10:00 for the 2018 Civic, VIN 19XFC2F59JE012345.", ["19XFC2F59JE012345"]),
    ("第 12 号拍品 VIN：LSGPC52U6AF102938，竞拍保证金 5000 元。", ["LSGPC52U6AF102938"]),
    ("Lot 7 / VIN 2T1BURHE0JC043821 / hammer 2025-03-02", ["2T1BURHE0JC043821"]),
    # a public venue's street address
    ("自然博物馆地址：北京市东城区天桥南大街126号，周一闭馆。", ["天桥南大街126号"]),
    ("高铁站地址：杭州市上城区天城路1号，进站请提前半小时。", ["天城路1号"]),
    ("这家眼镜店地址是成都市锦江区春熙路88号，可以直接去配。", ["春熙路88号"]),
    ("陶艺体验馆的地址在广州市天河区体育西路191号，周末人多。", ["体育西路191号"]),
    ("拍卖行地址：上海市静安区南京西路1266号，预展周五开始。", ["南京西路1266号"]),
    ("The auction centre's address is 4988 Cao'an Road, Jiading, Shanghai; viewing on Saturdays.", ["4988 Cao'an Road"]),
    ("The aquarium's address: 1 Marine Parade, Brighton, open till 6.", ["1 Marine Parade"]),
    ("The farmers' market is at 12 Harbour Street, Leith, every Sunday.", ["12 Harbour Street"]),
]


test_secret_gone_fact_kept, test_lookalike_kept = round_tests(GONE, KEEP)


def _whole(text: str) -> object:
    return redact(text, tagger=False)


@pytest.mark.parametrize(("unit", "n"), [
    ("A：取件码多少？\nB：您柜子的码是 4471，扫码开柜。\n", 60),
    ("网关token已改为Tk8mQ2zX9rLp4VwN，", 80),
    ("token改成token改成token改成 ", 80),
    ("Lot 7 / VIN 2T1BURHE0JC043821 / 拍卖行地址：南京西路1266号，", 60),
], ids=["answer-label", "changed-key", "changed-key-adversarial", "auction-venue"])
def test_linear_cost(unit: str, n: int) -> None:
    """Ten times the text costs about ten times as much (the whole redaction, rules only)."""
    assert_not_superlinear(_whole, unit * n, unit * 10 * n, slack=0.05)  # type: ignore[arg-type]
