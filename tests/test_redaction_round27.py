"""Redaction round 27 (issue 10): codes, passwords and public contacts read by their role, EN and ZH, in wordings of
our own (none copied from a released set).

PII: a code that arrived, was entered or is shown, later in the sentence that names it ("收到 / 输了 / showed /
displays"), glued to its noun ("取件码52810") or after a parenthesis and a colon; the other codes of a counted list
("一条 ... 一条 ...") and a code said again; a code of capitals and digits said alone in chat after a request; a password
an account now uses or was changed to (no password word); a password named after its value ("用 X 这个密码", "X is the
new guest password"), asked for and told ("Locker PIN? It's 4190"), a network's key; a plaintext (明文) after a hash; a login typed in as
``user / password``; a Basic credential's password written out; a password glued to Chinese prose (only the value goes).
Look-alikes: a number with its own label in a code's sentence (尾号, order), a quantity, an account's plan name, a place
open to the public, a sign's numbers, a record's next field after a full stop, an organisation's service handle, an
encoding or a web address a setting was changed to; a person's desk mailbox, WeChat Work or desk handle stays redacted.
"""

from __future__ import annotations

import pytest
from linear_cost import assert_not_superlinear
from redaction_helpers import assert_value_gone_or_kept, value_cases

from hindsight.safety.redact import redact
from hindsight.safety.redact_bound import find_bound_values

PII = [
    ("The ferry app's SMS code was slow, but my phone finally got 604 219 at the pier.", "604 219"),
    ("My hardware token displays 612 884 right now, use it before it rolls.", "612 884"),
    ("Keyfob for the VPN showed 38 11 92 when I signed the release.", "38 11 92"),
    ("车库门禁码是临时的，物业大哥刚刚发来了 5832，今晚失效。", "5832"),
    ("银行的动态码太长了，我在柜台输了 660142 才转过去。", "660142"),
    ("快递柜取件码52810明天中午前有效。", "52810"),
    ("Gate code for the boathouse (ask Rita after 18:00): 4471.", "4471"),
    ("家里收到三条验证码，一条3381一条9025一条7716，以最后一条7716为准。", "9025"),
    ("Tomas: send me the login code\nIvy: Q8W27K (from the app)", "Q8W27K"),
    ("The studio Wi-Fi now uses \"Fern-blue-88\" after the reset.", "Fern-blue-88"),
    ("仓库那台电脑已经被老周改成了 cangku#778，周一起用。", "cangku#778"),
    ("The bcrypt hash is stored; the plaintext was Orchard!2031 before anyone saw it.", "Orchard!2031"),
    ("哈希存在库里，明文是 Shuju@2031，只有运维知道。", "Shuju@2031"),
    ("Log in with ops-admin / Harbor!42 on the staging box.", "Harbor!42"),
    ("登录时输入 zhanghu01 / Mima@2025 就行。", "Mima@2025"),
    ("Proxy sends Authorization: Basic YmFja3VwOlRpZGUjNzcxOQ== on each call; decoded that is backup:Tide#7719.", "Tide#7719"),
    ("用 huangshan88 这个密码就能登进报税后台。", "huangshan88"),
    ("pelican42 is the new guest password at the front desk.", "pelican42"),
    ("Locker PIN? It's 4190, don't share it.", "4190"),
    ("Kennel Wi-Fi: network VetGuest, key otter2290.", "otter2290"),
    ("Code 552019 valid for ten minutes, the bank said.", "552019"),
]

KEEP = [
    ("验证码发到尾号 4521 的手机上了，我还没收到。", "4521"),
    ("The OTP screen for order 88213 kept timing out.", "88213"),
    ("The SMS code is 6 digits and expires in 300 seconds.", "300 seconds"),
    ("The door code reminder goes out at 0900 every Monday.", "0900"),
    ("Our account now uses the plan 'Team 2024' for billing.", "Team 2024"),
    ("财务系统的登录密码昨天被张会计重置成了Caiwu#2025，周一生效。", "张会计"),
    ("The clinic's reading room is open to the public at 12 Shennan Road, Futian District.", "12 Shennan Road"),
    ("Bakery window sign: Tel 2555 0101, WhatsApp Business 5555 0144, Shop 3, G/F.", "5555 0144"),
    ("店铺招牌上写着：电话 0571-8765 4321。", "0571-8765 4321"),
    ("Harbour Museum (per the city directory): Pier 4, 1 Quay Street; phone (555) 010-3300.", "(555) 010-3300"),
    ("The ferry office's published address: 5 Wharf Road, Zhuhai. Open 8:00-20:00, phone 0756-5550-1200.", "0756-5550-1200"),
    ("官方客服微信号 tianshan_kefu，门店收银台也贴着。", "tianshan_kefu"),
    ("排班系统导出乱码，把编码从 GBK 改成 UTF-8 就好了。", "UTF-8"),
    ("公司邮箱的登录地址换成 mail-corp-login.cn 了。", "mail-corp-login.cn"),
    ("Visitor car park is at 90 Depot Lane, Riverton - signposted from the ring road.", "90 Depot Lane"),
    ("Helm values:\n  url: \"postgresql://app:Pw!9x@db.svc:5432/app\"\n这个库密码下周换。", "db.svc:5432/app"),
]

CASES = value_cases(PII, KEEP)


@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
@pytest.mark.parametrize(("text", "value", "secret"), CASES)
def test_secret_gone_and_look_alike_kept(text: str, value: str, secret: bool, tagger: bool) -> None:
    """A PII case's value is gone from the output; a look-alike's value is still there."""
    assert_value_gone_or_kept(text, value, secret, tagger)


@pytest.mark.parametrize(("text", "value"), [
    ("For the front desk, contact Lin at frontdesk-lin@clinic.example.com.", "frontdesk-lin@clinic.example.com"),
    ("运维组长老周的企业微信号是 zhou_ops2。", "zhou_ops2"),
    ("前台小王的微信号是 xw_desk88。", "xw_desk88"),
    ("Her personal mobile is 0412 555 908, she is open to the public speaking gig.", "0412 555 908"),
    ("My WhatsApp is +44 7700 900123, ping me there.", "+44 7700 900123"),
])
def test_a_persons_contact_stays_redacted(text: str, value: str) -> None:
    """A desk's mailbox named for a person, a person's WeChat Work or desk handle, a mobile beside an "open to the public",
    a plain WhatsApp: a person's."""
    assert value not in redact(text).text


@pytest.mark.parametrize("unit", [
    "the SMS code came late, then my phone got 604 219 and ",
    "取件码52810，一条3381一条9025，",
    "the shared account now uses 'Fern-blue-88' and ",
    "log in with ops-admin / Harbor!42 and ",
    "Authorization: Basic YmFja3VwOlRpZGUjNzcxOQ== backup:Tide#7719 ",
])
def test_round27_readers_are_linear(unit: str) -> None:
    """Every reading is a bounded pattern or a bounded scan: ten times the text costs about ten times as much."""
    assert_not_superlinear(find_bound_values, unit * 100, unit * 1000, slack=0.05)
