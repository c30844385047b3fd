"""Redaction round 41 (issue 10): the kinds blind r38 missed, in examples of our own (none copied from a set).

Misses: a one-time code an authenticator shows written right after a Chinese verb with no space ("显示771 406"); a UK
mobile written in hyphenated groups ("07123-456-789"); a hex private key whose cue is followed by a few words before its
colon ("private key for the shop's wallet: 0x..."); an old password voided ("旧的X作废了", "the old one X is dead")
beside the new one; a key pair's short numeric ID ("client id 884213, client secret ..."); a BSB / sort code
column of a CSV beside the account column.
Look-alikes that stay: an old model or build voided with no password named; a transaction hash or a public address
after words about a wallet; a hyphenated order number that is not a mobile's shape; a BSB-like column of another name.
"""

from __future__ import annotations

from redaction_round import round_tests

_HEX = "5b1e9c7a3f0d2468ace13579bdf02468ace13579bdf0a1b2c3d4e5f60718293a"

# (text, the values that go, the facts that stay)
GONE = [
    # a code an authenticator shows, glued to a Chinese verb
    ("微软验证器上财务系统那栏现在显示582 913,赶紧输。", ["582 913"], ["财务系统"]),
    ("令牌现在显示604117,你快点登录。", ["604117"], ["快点登录"]),
    ("身份验证器显示的是309 552就这个", ["309 552"], ["身份验证器"]),
    # a UK mobile in hyphenated groups
    ("Call the plumber on 07700-900-461 if the boiler trips again.", ["07700-900-461"], ["boiler"]),
    ("Backup contact: cousin Priya 07812-334-905, lives in Leeds.", ["07812-334-905"], ["Priya", "Leeds"]),
    ("紧急联系人：英国的表姐 07956-210-384，晚上打。", ["07956-210-384"], ["晚上打"]),
    ("Mrs Okafor next door has spares, 07845-112-903.", ["07845-112-903"], ["Mrs Okafor"]),
    # a hex private key whose cue has words before its colon
    ("Private key for the shop's donation wallet: 0x" + _HEX + " (keep it off the laptop).", ["0x" + _HEX], ["laptop"]),
    ("The private key of Dana's hot wallet: " + _HEX + ", back it up tonight.", [_HEX], ["back it up tonight"]),
    ("Private key for the donation wallet: 0x" + _HEX + " (its address is public: 0x71C7656EC7ab88b098defB751B7401B5f6d8976F).",
     ["0x" + _HEX], ["0x71C7656EC7ab88b098defB751B7401B5f6d8976F"]),
    ("钱包私钥：" + _HEX + "，对应的地址是 0x71C7656EC7ab88b098defB751B7401B5f6d8976F", [_HEX], ["0x71C7656EC7ab88b098defB751B7401B5f6d8976F"]),
    ("店里收款钱包的私钥(备份用): 0x" + _HEX + " 别发群里。", ["0x" + _HEX], ["别发群里"]),
    # an old password voided beside the new one (the old one still opens backups and reused accounts)
    ("店长:收银机密码改了,旧的sony7788a作废了,新的是canon_R6_2024,别外传。", ["sony7788a", "canon_R6_2024"], ["别外传"]),
    ("A: what is the till password?\nB: the old one otter5521 is dead, it's now Heron_9901", ["otter5521", "Heron_9901"],
     ["till password"]),
    ("Our old wifi pass bluefin77 no longer works; use Coral-Reef-88 now.", ["bluefin77", "Coral-Reef-88"], ["wifi"]),
    ("仓库电脑密码?\n之前那个kiwi_2020已经停用了，现在用 mango#2024", ["kiwi_2020", "mango#2024"], ["仓库电脑"]),
    # a key pair's short numeric ID half beside its secret
    ("Booking widget: client id 884213, client secret 7d6c5b4a39281706f5e4d3c2b1a0ff9e.", ["884213", "7d6c5b4a39281706f5e4d3c2b1a0ff9e"],
     ["Booking widget"]),
    ("外卖平台对接：应用ID 730215，应用密钥 Kx9f8e7d6c5b4a3928170a6f5e4d3c2b1，周五上线。", ["730215", "Kx9f8e7d6c5b4a3928170a6f5e4d3c2b1"],
     ["周五上线"]),
    # a BSB / sort code column beside the account column of a CSV
    ("staff.csv:\nname,bsb,account,start\nTom Reyes,083-170,4471 2290,2023-02-01", ["083-170", "4471 2290"], ["Tom Reyes", "2023-02-01"]),
    ("name,sort_code,account_no\nAva Hill,20-45-77,40218836", ["20-45-77", "40218836"], ["Ava Hill"]),
]

KEEP = [
    # a transaction hash after wallet words; an address called public
    ("Payout from the donation wallet went through: tx 0x" + _HEX + ", confirmed in block 19203344.", ["0x" + _HEX]),
    ("收款钱包地址(公开的): 0x71C7656EC7ab88b098defB751B7401B5f6d8976F", ["0x71C7656EC7ab88b098defB751B7401B5f6d8976F"]),
    # a hyphenated number of another shape; a code shown with no device
    ("Order 07-123-456-789 shipped from the Leeds warehouse.", ["07-123-456-789"]),
    ("屏幕上显示771 406个订单已同步。", ["771 406"]),
    ("Hash of the wallet export: 0x" + _HEX + ", private key stays offline.", ["0x" + _HEX]),
    ("Ref 07845-112-903-22 on the Leeds invoice.", ["07845-112-903-22"]),
    # an old version or model voided, no password named
    ("旧的X200v2停产了,新的是X300v3,价格不变。", ["X200v2", "X300v3"]),
    ("The old build rc7-2291 is dead; now rc8-0012 ships to the shop.", ["rc7-2291", "rc8-0012"]),
    # a short number with no ID label before a secret; an ID far from the secret
    ("Store 104233 got the new secret 7d6c5b4a39281706f5e4d3c2b1a0ff9e today.", ["104233"]),
    ("员工ID 730215 负责门店；另外应用密钥 Kx9f8e7d6c5b4a3928170a6f5e4d3c2b1 已轮换。", ["730215"]),
    # a column of another name beside an amount
    ("item,code,qty\nLens cap,062-914,12", ["062-914"]),
]

test_secret_gone_fact_kept, test_lookalike_kept = round_tests(GONE, KEEP)
