"""Redaction round 34 (issue 10): blind round 32's misses by kind, in wordings of our own (none copied from a set).

An access key's ID half under a label glued to its prefix ("appKey", "apiKey", "client_key", "consumer key") before
its secret half is that pair's ID, whatever public number stands before it; a wallet key is read in its own sentence
(a contract address or a hash word in the next one is another value's); a lock's code named "lock code" or keyed with
the keypad's "#" is a code; an account number in a chat turn that names its bank after it; a second account named
by its currency or type after a first; a business listing (a shop's address with its opening hours) is published.
"""

from __future__ import annotations

import pytest
from linear_cost import assert_not_superlinear
from redaction_round import round_tests

from hindsight.safety.redact import redact

# (text, the values that go, the facts that stay)
GONE = [
    # the ID half of an app / API / client / consumer key pair, its label glued to its prefix, before the secret half
    ("Payment gateway: merchant no. 80231145 (printed on every invoice), appKey 9b3f0c6a2e71d845, "
     "appSecret 4f8a1c9e7b2d6035a1e8c4f7b9d2063e.", ["9b3f0c6a2e71d845", "4f8a1c9e7b2d6035a1e8c4f7b9d2063e"], ["80231145"]),
    ("SMS vendor creds: apiKey 7c1e5a9d3b8f2046 and apiSecret c93e1a7f5b2d8046e1a9c7f3b5d20468.",
     ["7c1e5a9d3b8f2046", "c93e1a7f5b2d8046e1a9c7f3b5d20468"], ["SMS vendor"]),
    ("Bot account: consumer key Xq7pL2mR9vT4kW8n, consumer secret 7hGf3kLm9QpR2sT5vW8xY1zA4bC6dE0fGh2jK.",
     ["Xq7pL2mR9vT4kW8n", "7hGf3kLm9QpR2sT5vW8xY1zA4bC6dE0fGh2jK"], ["Bot account"]),
    ("短信平台对接：企业编号QY55012（公开的），app_key 3e8b1d6f9a2c7054，app_secret b7d2e9f4a1c6083e5b9d2f7a4c1e6083。",
     ["3e8b1d6f9a2c7054", "b7d2e9f4a1c6083e5b9d2f7a4c1e6083"], ["QY55012"]),
    ("地图服务后端配置：apiKey 4c7e2a9f1d6b8035，apiSecret e2b9d4f7a1c8063e9b2d5f8a1c4e7063，只在服务端用。",
     ["4c7e2a9f1d6b8035", "e2b9d4f7a1c8063e9b2d5f8a1c4e7063"], ["只在服务端用"]),
    ("物流开放平台：客户代码 WL-20931（对外可见），clientKey 8d2f6b1a9e4c7053，clientSecret 1c7e4a9f2b6d8053e4a1c9f7b2d5e806。",
     ["8d2f6b1a9e4c7053", "1c7e4a9f2b6d8053e4a1c9f7b2d5e806"], ["WL-20931"]),
    # a wallet key in its own sentence; a public address or a hash word in the next sentence is another value's
    ("Hot wallet private key for the raffle: 0x3c9e5f1a7b2d4068e1c9a7f3b5d2e4068c1a9e7f3b5d2406e8c1a7f9b3d5e204. "
     "The token's contract address 0x71C7656EC7ab88b098defB751B7401B5f6d8976F is on the website.",
     ["3c9e5f1a7b2d4068e1c9a7f3b5d2e4068c1a9e7f3b5d2406e8c1a7f9b3d5e204"], ["0x71C7656EC7ab88b098defB751B7401B5f6d8976F"]),
    ("MetaMask export for the test shop: 9f2b7d4e1a6c3058b9e2d7f4a1c6e3058d9b2f7a4e1c6d3085b2e9f7a4d1c6e3. "
     "Its last transaction hash is in the ticket.", ["9f2b7d4e1a6c3058b9e2d7f4a1c6e3058d9b2f7a4e1c6d3085b2e9f7a4d1c6e3"],
     ["transaction hash"]),
    # a lock's code: "lock code", or keyed with the keypad's "#"
    ("Sent the dog walker the smart-lock code 6284 for next week.", ["6284"], ["dog walker"]),
    ("Gave the plumber the lock code 2285# so he can get in on Tuesday.", ["2285"], ["on Tuesday"]),
    ("Front door keypad: 7720#, then turn the handle hard.", ["7720"], ["turn the handle"]),
    ("Guests key in 3917# at the side gate after 10pm.", ["3917"], ["after 10pm"]),
    ("单元门禁输入 8812# 就能开，快递放门口。", ["8812"], ["快递放门口"]),
    ("民宿大门按 5093# 开门，退房后失效。", ["5093"], ["退房后失效"]),
    ("给保洁发了临时门锁码 40761#，周六上门。", ["40761"], ["周六上门"]),
    # an account number in a chat turn, its bank named after it
    ("Mia: refund the deposit to my account please, 6011 2004 8831 7720 at Hang Seng Bank\nLeo: ok", ["6011 2004 8831 7720"],
     ["Leo: ok"]),
    ("Raj: pay me back into my account when you can - 4401 2210 9934 7788, Bank of Ningbo\nSue: will do",
     ["4401 2210 9934 7788"], ["Sue: will do"]),
    ("Kai: my share goes to my account, 55201 88403 1127 with Zenith Credit Union\nJo: sent 300", ["55201 88403 1127"],
     ["sent 300"]),
    ("小王：钱转我卡上就行，6214 8301 2345 6789，招商银行\n小李：好的", ["6214 8301 2345 6789"], ["小李：好的"]),
    ("阿杰：押金退到我账户吧，4033 9210 5567 1820 工商银行\n房东：收到", ["4033 9210 5567 1820"], ["房东：收到"]),
    # a second account named by its currency or its type after a first
    ("Our USD account is 0457 2281 9930 5512 at DBS; the euro account is 0457228199305601.", ["0457 2281 9930 5512",
     "0457228199305601"], ["DBS"]),
    ("Bank account no. 3391 0027 8841 for payroll, and the savings one is 7720914436.", ["3391 0027 8841", "7720914436"],
     ["payroll"]),
    ("公司美元账户账号 5510 2873 9904 1126，人民币户为 621700123498765001。", ["5510 2873 9904 1126", "621700123498765001"],
     ["公司美元账户"]),
    ("对公账号 1102 0233 0900 8812 345；另一个一般户是 3100 4521 8876 2210。", ["1102 0233 0900 8812 345",
     "3100 4521 8876 2210"], ["另一个一般户"]),
    ("收款账户 6230 5821 0034 7712，港币户是 012-887-1-004512-3。", ["6230 5821 0034 7712", "012-887-1-004512-3"],
     ["港币户"]),
]

# (text, the values that stay)
KEEP = [
    # a business listing: a shop's name, its address and its opening hours (and its phone) - published
    ("Sunny Side Bikes, 402 Valencia St, San Francisco, CA 94110 - open daily 10-6, call (415) 555-0188.",
     ["402 Valencia St", "(415) 555-0188"]),
    ("Green Leaf Noodles, 18 Harbour Road, Wellington 6011. Open Tue-Sun 11am-9pm, tel 04 555 0192.", ["18 Harbour Road"]),
    ("Corner Books - 77 King Street, Bristol BS1 4EF, opening hours Mon-Sat 9:00-17:30.", ["77 King Street"]),
    ("老街面馆，解放路128号，每天10:00-21:00营业，电话0571-8555 0123。", ["解放路128号", "0571-8555 0123"]),
    ("小熊洗衣，建国路56号，营业时间 8:00-20:00。", ["建国路56号"]),
    # look-alikes of the other kinds: pairs without a secret, a lock's model or hours, chat numbers that are not accounts
    ("The docs name the two fields appKey and appSecret; ours live in the vault under payment/prod.", ["appKey", "appSecret"]),
    ("The lock code model is LX-4410 and the gate opens 0700-2200.", ["LX-4410"]),
    ("Ana: order 7719004322 at Bank Street Deli, it's 18 for two\nBen: done", ["7719004322"]),
    ("A：快递单号 SF1402 2231 8890 寄到银行路网点\nB：收到", ["SF1402 2231 8890"]),
    ("Support ticket 45021 and invoice 88301 for the euro account migration.", ["45021", "88301"]),
    ("The token's contract address 0x71C7656EC7ab88b098defB751B7401B5f6d8976F is on the website.",
     ["0x71C7656EC7ab88b098defB751B7401B5f6d8976F"]),
]

# A person's address stays redacted though opening hours stand near it.
PERSONAL = [
    ("My place is 12 Elm Street, Springfield - open house Sunday 1-4, call me on 07700 900123.", "12 Elm Street"),
    ("我家在幸福路8号，周末10:00-18:00都在家。", "幸福路8号"),
]


test_secret_gone_fact_kept, test_lookalike_kept = round_tests(GONE, KEEP)


@pytest.mark.parametrize(("text", "value"), PERSONAL)
def test_a_persons_address_near_hours_goes(text: str, value: str) -> None:
    assert value not in redact(text).text


def _keyed(text: str) -> object:
    from hindsight.safety.redact_keypad import find_keyed_codes  # round 34's modules (absent on main)

    return find_keyed_codes(text)


def _banked(text: str) -> object:
    from hindsight.safety.redact_banked import find_banked_accounts

    return find_banked_accounts(text)


def _listed(text: str) -> object:
    from hindsight.safety.redact_listing import listed_with_hours

    return [listed_with_hours(text, i, i + 10) for i in range(0, len(text), 97)]


@pytest.mark.parametrize(("run", "unit", "n"), [
    (_keyed, "Front door keypad: 7720#, then 单元门禁输入 8812# 就能开 ", 100),
    (_keyed, "1234#", 400),
    (_banked, "send to my account, 7719 0043 2218 5560 at Bank of Yunnan, the euro account is 0457228199305601; ", 60),
    (_banked, "the other one is 1234567890 ", 200),
    (_listed, "Corner Books - 77 King Street, Bristol, opening hours Mon-Sat 9:00-17:30. ", 60),
], ids=["keyed", "keyed-adversarial", "banked", "banked-adversarial", "listing"])
def test_linear_cost(run: object, unit: str, n: int) -> None:
    """Ten times the text costs about ten times as much (the readings alone)."""
    assert_not_superlinear(run, unit * n, unit * 10 * n, slack=0.05)  # type: ignore[arg-type]


def test_a_caller_claiming_to_be_the_bank_is_no_account() -> None:
    """A service line before "说是银行" is a phone, and a clause before 银行 is no bank's name."""
    from hindsight.safety.redact_banked import find_banked_accounts

    assert find_banked_accounts("有人从 400-820-1234 打来说是银行客服，让我转账到安全账户。") == []
    assert find_banked_accounts("Got a call from 800-555-0143 at First City Bank about my account.") == []
    assert find_banked_accounts("退款打到我卡上，6214 8301 2345 6789，招商银行") != []
