"""Redaction round 7: the shapes round 6's blind writer brought, in general form (own EN/ZH cases, none copied).

Each PII case names the secrets that must go and the words that must stay; each look-alike must come back
unchanged. Shapes: a one-time code announced by how it arrived ("the code they texted me is ...", "enter N from
the SMS"), lists of backup codes after a long qualifier, a hex key someone owns ("our key: <hex>") next to hex
that is a digest or a cache key, hex after an app-code / licence label, the access-id half of an HMAC pair, a
bare user:password used with a client (curl, login), a URL with userinfo after a password label (the URL stays,
its password goes), type annotations in code, meeting IDs.
"""

from __future__ import annotations

import pytest
from redaction_helpers import assert_linear_cost, assert_removed_and_kept, assert_untouched

PII: list[tuple[str, str, list[str], list[str]]] = [
    ("otp", "the PIN they sent me was 4 4 1 9 0 2, can you finish the login for me", ["4 4 1 9 0 2"], ["finish the login"]),
    ("otp", "Card issuer check: enter 55102938 from the text message to confirm the hotel charge.", ["55102938"], ["hotel charge"]),
    ("otp", "Please type 608214 from your authenticator app before the session times out.", ["608214"], ["session times out"]),
    ("otp", "Recovery codes for the engineering GitHub organisation owner: 1183 2291, 8830 1742, 5521 0098 (one use each).",
     ["1183 2291", "8830 1742", "5521 0098"], ["one use each"]),
    ("otp", "the code my bank just messaged me is 739 104, it expires in five minutes", ["739 104"], ["expires in five minutes"]),
    ("api_key", "The maps vendor sent over our key: 9c1f0e7a4b2d8e6f3a5c7b9d1e0f2a4c, 50k loads a month included.",
     ["9c1f0e7a4b2d8e6f3a5c7b9d1e0f2a4c"], ["maps vendor", "50k loads"]),
    ("api_key", "Their license key is 3e8b1d9f0a2c4e6b8d0f1a3c5e7b9d2f; it is bound to two seats.", ["3e8b1d9f0a2c4e6b8d0f1a3c5e7b9d2f"],
     ["two seats"]),
    ("api_key", "天气接口用的 AppCode：7a9c2e4f6b8d0a1c3e5f7b9d2a4c6e8f，放在 weather-svc 的配置中心里。", ["7a9c2e4f6b8d0a1c3e5f7b9d2a4c6e8f"],
     ["weather-svc"]),
    ("api_key", "MinIO gateway HMAC pair for the archiver: access id GOOG1EQ7R2M4K8P0X6Z3W9N5T1Y7B3V6C2L8J4H0, secret "
     "Zk8+Qm3/Lp9Wv2Rt7Nc4Yh6Fd1sGa0EuJkXo", ["GOOG1EQ7R2M4K8P0X6Z3W9N5T1Y7B3V6C2L8J4H0", "Zk8+Qm3/Lp9Wv2Rt7Nc4Yh6Fd1sGa0EuJkXo"],
     ["archiver"]),
    ("password", "我用 kibana_ro:Vw7nQ2pLx9 登录看了一下，慢查询集中在凌晨三点。", ["Vw7nQ2pLx9"], ["慢查询集中在凌晨三点"]),
    ("password", "Checked the cluster health with admin:Rt5mKz8Qw2 via curl against the prod node; all shards green.",
     ["Rt5mKz8Qw2"], ["all shards green"]),
    ("password", "仓库地址里带着密码：https://lihua:Qp2025mnb@gitee.com/team/app.git，先别发到群里。", ["Qp2025mnb"],
     ["team/app.git", "先别发到群里"]),
    # batch 2 (written and measured once before its fixes: branch 20/24 PII, 11/12 look-alikes; main 19/24, 11/12)
    ('password', 'the locker code my coach gave me is 29-14-07', ['29-14-07'], []),
    ('password', 'Kiosk admin login is kiosk / Brn7!tqZ, only for the weekend staff.', ['Brn7!tqZ'], []),
    ('password', '我把 NAS 登录密码改成了 雪山飞狐2024，别忘了。', ['雪山飞狐2024'], []),
    ('password', "The shared 1Password vault unlock phrase is 'amber kettle river 71'.", ['amber kettle river 71'], []),
    ('api_key', 'Mapbox token for the demo: pk.eyJ1IjoiZGVtb3VzZXIiLCJhIjoiY2x4eTk4In0.Zk2Lq8Rt1Vw3Xy5Na7Bc9D', ['pk.eyJ1IjoiZGVtb3VzZXIiLCJhIjoiY2x4eTk4In0.Zk2Lq8Rt1Vw3Xy5Na7Bc9D'], []),
    ('api_key', '支付回调签名密钥 8f3a1c5e7b9d2f4a6c8e0b1d3f5a7c9e，只配在生产环境。', ['8f3a1c5e7b9d2f4a6c8e0b1d3f5a7c9e'], []),
    ('api_key', 'the translation service gave us key 4b8d2f6a0c3e5b7d9f1a2c4e6b8d0f3a for the pilot', ['4b8d2f6a0c3e5b7d9f1a2c4e6b8d0f3a'], []),
    ('otp', 'Apple sent a 6-digit code to my phone: 418 207. Can you enter it?', ['418 207'], []),
    ('otp', '短信里的验证码我念给你：三七一九零二。', ['三七一九零二'], []),
    ('otp', 'He read the code off his authenticator - 602 118 - and I typed it in.', ['602 118'], []),
    ('card', 'Charge the deposit to my Visa 4929 1873 6640 2281, exp 11/27.', ['4929 1873 6640 2281'], []),
    ('national_id', 'Her SSN for the tax form is 524-71-3390.', ['524-71-3390'], []),
    ('basic_auth', 'curl -u reporter:Qm4Zt8Lp2x https://jira.internal/rest/api/2/search', ['Qm4Zt8Lp2x'], []),
    # round 5's dev misses in general form: a quoted value someone uses to sign in, a code handed over after its
    # cue, a passphrase of Chinese words and digits
    ("password", "\"Maple-Harbor-2291\" is what he uses for the family Disney+ account.", ["Maple-Harbor-2291"], ["Disney+ account"]),
    ("otp", "Support flow needed the 2FA code; the caller provided 551027 and was verified.", ["551027"], ["was verified"]),
    ("password", "备份盘的保护口令是 龙井茶2020，别写在便签上。", ["龙井茶2020"], ["别写在便签上"]),
    ("password", "The clone URL has the password in it - password: https://deploy:Hn4vX8q2Lm@git.acme.dev/infra/tf.git",
     ["Hn4vX8q2Lm"], ["infra/tf.git"]),
]

LOOKALIKES: list[str] = [
    "cache key: 5f0c2e8a9b1d4f6a8c0e2b4d6f8a1c3e, evicted after 10 minutes.",
    "The md5 of the tarball, our key check: d41d8cd98f00b204e9800998ecf8427e.",
    "Use the partition key 0f3a5c7e9b1d2f4a6c8e0b2d4f6a8c1e for the hot shard.",
    "def connect(host: str, password: Optional[str] = None) -> Session:",
    "class Settings(BaseModel):\n    password: SecretStr\n    port: int = 5432",
    "Zoom meeting ID 815 2290 4471, the passcode is in the calendar invite.",
    "周例会腾讯会议号 612 883 9901，每周二上午十点，链接在群公告。",
    "docker pull python:3.12-Slim first, then curl localhost:8080/health to check it started.",
    "enter 3 from the menu to repeat the options, then 0 for an operator.",
    "Backup codes are printed once when you enable 2FA; store them somewhere safe.",
    "评审会改到 7 号楼 0412 会议室，周五下午两点。",
    "密码长度至少 8位以上，口令是 6位数字 的那种不再允许。",
    # batch 2 look-alikes
    'Order 4929 1873 6640 2282 shipped yesterday, tracking to follow.',
    'The build hash is 8f3a1c5e7b9d2f4a6c8e0b1d3f5a7c9e, tagged as release-candidate.',
    'Room 1204 in Building 6 is booked for the design review.',
    'Set retries to 5 and timeout: 30s in config.yaml.',
    'ISBN 978-0-13-468599-1 is the second edition.',
    'The meeting is at 3 Pine Road conference centre? no - moved online.',
    '活动编号 20240615-0032，报名截止周五。',
    'Error code 0x80070005 again when installing the update.',
    'password_min_length: 12 and password_max_age: 90 in the policy file.',
    'curl -s https://api.example.com/v2/status | jq .uptime',
    'Use port 8443 and the health path /healthz for the probe.',
    '会议室密码锁坏了，先用钥匙开门。',
]


@pytest.mark.parametrize(("category", "text", "secrets", "keep"), PII)
def test_secret_removed_and_fact_kept(category: str, text: str, secrets: list[str], keep: list[str]) -> None:
    assert_removed_and_kept(category, text, secrets, keep)


@pytest.mark.parametrize("text", LOOKALIKES)
def test_lookalike_untouched(text: str) -> None:
    assert_untouched(text)


def test_round7_patterns_cost_linear() -> None:
    assert_linear_cost("用 admin:Rt5mKz8Qw2 curl 了；the code they texted me is 0 5 7 3 1 8; our key: 9c1f0e7a4b2d8e6f3a5c7b9d1e0f2a4c. ")
