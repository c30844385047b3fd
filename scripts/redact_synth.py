"""Synthetic training text for the redaction tagger: secrets in free EN/ZH sentences, and look-alikes of the same shapes.

    .venv/bin/python scripts/redact_synth.py --n 1600 --seed 7 > /tmp/synth.jsonl

Rows have the blind-set format ({text, kind: pii|lookalike, secrets, keep, category, lang}). The templates
were written for this generator (none is copied from a blind set); what they teach is contrast: the same
value shapes (random strings, hex, short codes, digit groups) as a secret after a cue, and as a hash, an
id, a version, a price or a public hotline, or a placeholder, in a look-alike.
"""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
from collections.abc import Callable

R = random.Random()
ALNUM = string.ascii_letters + string.digits
WORDS = ["maple", "otter", "copper", "lantern", "harbor", "violet", "cactus", "falcon", "pepper", "quartz", "tundra",
         "walnut", "mango", "cobalt", "nimbus", "saffron", "pixel", "ember", "juniper", "bramble", "sorrel", "zephyr"]
SYMS = "!#$%&*@^_-."


def rnd(n: int, alphabet: str = ALNUM) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def password() -> str:
    w = R.choice(WORDS)
    forms = [
        lambda: w.capitalize() + R.choice(SYMS) + str(R.randint(10, 9999)),
        lambda: w + str(R.randint(1960, 2029)) + R.choice("!#$@"),
        lambda: rnd(R.randint(8, 14), ALNUM + "!#$%&*"),
        lambda: w[:3] + R.choice(SYMS) + rnd(5) + str(R.randint(1, 99)),
        lambda: R.choice(WORDS).capitalize() + "-" + w.capitalize() + "-" + str(R.randint(1, 99)),
        lambda: "".join(c.upper() if R.random() < .3 else c for c in w).replace("o", "0").replace("e", "3") + str(R.randint(1, 999)),
    ]
    return R.choice(forms)()


def api_key() -> str:
    n = R.randint(20, 48)
    forms = [lambda: rnd(n), lambda: rnd(n, "0123456789abcdef"), lambda: R.choice(["live_", "key_", "ak-", "pk.", "tok_"]) + rnd(n),
             lambda: rnd(n, ALNUM + "+/") + R.choice(["", "=", "=="]), lambda: rnd(8) + "-" + rnd(12) + "-" + rnd(10)]
    return R.choice(forms)()


def code() -> str:
    forms = [lambda: str(R.randint(1000, 999999)), lambda: rnd(R.randint(4, 6), string.ascii_uppercase + string.digits),
             lambda: rnd(3, string.ascii_uppercase) + "-" + rnd(3, string.ascii_uppercase + string.digits),
             lambda: f"{R.randint(100, 999)} {R.randint(100, 999)}"]
    v = R.choice(forms)()
    return v if any(c.isdigit() for c in v) else v[:-1] + str(R.randint(0, 9))


def pin() -> str:
    return str(R.randint(0, 10 ** R.choice([4, 4, 6]) - 1)).zfill(4)


def digits_grouped(groups: list[int], sep: str = " ") -> str:
    return sep.join(rnd(g, string.digits) for g in groups)


def phone() -> str:
    return R.choice([lambda: "1" + R.choice("3589") + rnd(9, string.digits), lambda: digits_grouped([4, 3, 3]),
                     lambda: "+" + str(R.randint(30, 99)) + " " + digits_grouped([3, 3, 4]),
                     lambda: "0" + digits_grouped([3, 3, 4], "-"), lambda: "1" + R.choice("3589") + rnd(1, string.digits) + " " + digits_grouped([4, 4])])()


def account() -> str:
    return R.choice([lambda: digits_grouped([4, 4, 4, 4]), lambda: rnd(R.randint(9, 12), string.digits),
                     lambda: digits_grouped([4, 4, 4, 4, 3])])()


SECRET_EN: list[tuple[str, Callable[[], str], str]] = [
    ("The {thing} password is {v}, {tail}", password, "password"),
    ("{who} changed the {thing} login to {v} this morning; {tail}", password, "password"),
    ("Note for later: {thing} -> user ops, pw {v}", password, "password"),
    ("If {thing} asks for a passphrase, type {v} and {tail}", password, "password"),
    ("{who} texted me the {thing} PIN: {v}. {tail}", pin, "password"),
    ("Remember the unlock code for the {thing} is {v}", pin, "password"),
    ("creds for {thing}: deploy / {v} ({tail})", password, "password"),
    ("{thing} runs with the secret {v} in its config, {tail}", api_key, "api_key"),
    ("New {thing} token issued to {who}: {v}", api_key, "api_key"),
    ("{who} pasted the {thing} API key ({v}) into the chat, {tail}", api_key, "api_key"),
    ("The webhook for {thing} signs payloads with {v}; {tail}", api_key, "api_key"),
    ("Set {ENV}={v} before starting {thing}", api_key, "api_key"),
    ("{thing} app secret got rotated, new value {v}", api_key, "api_key"),
    ("Your {thing} sign-in code is {v}. Don't share it.", code, "otp_code"),
    ("{who} read out the confirmation code {v} so I could finish the {thing} setup", code, "otp_code"),
    ("Two-step code from {thing}: {v} (expires in 5 minutes)", code, "otp_code"),
    ("Call {who} on {v} before the {thing} visit", phone, "phone"),
    ("{who}'s personal mobile is {v}, {tail}", phone, "phone"),
    ("Pay {who} by transfer, account {v}, {tail}", account, "bank_account"),
    ("Card for {thing}: security code {v}", lambda: str(R.randint(100, 999)), "payment_card"),
    ("{who} gets into the {thing} with {v}; {tail}", password, "password"),
    ("my usual combo for the {thing} is {v}", password, "password"),
    ("{thing} auth string ended up as {v} in the config", password, "password"),
    ("{thing} uploads are signed with {v} (the HMAC one)", api_key, "api_key"),
    ("{who} shared the {thing} login over the phone: user ops, then {v}", password, "password"),
    ("Logged in to {thing} as root with {v}, {tail}", password, "password"),
    ("{thing} credentials (temporary): svc-sync {v}", password, "password"),
]
SECRET_ZH: list[tuple[str, Callable[[], str], str]] = [
    ("{thing_zh}的密码改成了 {v}，{tail_zh}", password, "password"),
    ("{who_zh}说{thing_zh}登录用 admin，口令 {v}", password, "password"),
    ("记一下：{thing_zh}的开机密码 {v}", password, "password"),
    ("{thing_zh}的 PIN 码是 {v}，{tail_zh}", pin, "password"),
    ("{thing_zh}账号 ops，密码{v}，{tail_zh}", password, "password"),
    ("{thing_zh}的接口密钥设置为 {v}，{tail_zh}", api_key, "api_key"),
    ("{who_zh}把{thing_zh}的 token 发群里了：{v}", api_key, "api_key"),
    ("{thing_zh}的 AppSecret 重置了，新值是 {v}", api_key, "api_key"),
    ("配置里 {ENV}={v}，{tail_zh}", api_key, "api_key"),
    ("{thing_zh}的签名密钥为{v}，{tail_zh}", api_key, "api_key"),
    ("{thing_zh}发来的验证码 {v}，五分钟内有效", code, "otp_code"),
    ("{who_zh}把动态码 {v} 念给我了，{tail_zh}", code, "otp_code"),
    ("{who_zh}的私人手机 {v}，{tail_zh}", phone, "phone"),
    ("有事直接打{who_zh}电话 {v}", phone, "phone"),
    ("货款转到{who_zh}的卡上：{v}，{tail_zh}", account, "bank_account"),
    ("{who_zh}的银行账户 {v}，开户行是建设银行", account, "bank_account"),
    ("信用卡背面的安全码 {v}，{tail_zh}", lambda: str(R.randint(100, 999)), "payment_card"),
    ("{thing_zh}的 HMAC 串是 {v}，{tail_zh}", api_key, "api_key"),
    ("{thing_zh}加签用 {v} 这个值", api_key, "api_key"),
    ("{who_zh}登{thing_zh}一直用 {v}，{tail_zh}", password, "password"),
    ("{thing_zh}的临时口令发我了：{v}", password, "password"),
    ("{thing_zh}那边给的 secret 是 {v}，{tail_zh}", api_key, "api_key"),
]


def commit() -> str:
    return rnd(R.choice([7, 12, 40]), "0123456789abcdef")


def version() -> str:
    return f"{R.randint(0, 9)}.{R.randint(0, 30)}.{R.randint(0, 20)}"


LOOK_EN: list[tuple[str, Callable[[], str]]] = [
    ("Deployed commit {v} to {thing}, {tail}", commit),
    ("The sha256 of the {thing} installer is {v}", lambda: rnd(64, "0123456789abcdef")),
    ("Order {v} for the {thing} shipped yesterday", lambda: R.choice(["", "ORD-", "#"]) + rnd(R.randint(6, 10), string.digits)),
    ("Ticket {v}: {thing} times out after the upgrade", lambda: rnd(3, string.ascii_uppercase) + "-" + str(R.randint(10, 9999))),
    ("{thing} is pinned to {v}; {tail}", version),
    ("Request id {v} shows the {thing} retry", lambda: f"{rnd(8, '0123456789abcdef')}-{rnd(4, '0123456789abcdef')}-{rnd(4, '0123456789abcdef')}-{rnd(4, '0123456789abcdef')}-{rnd(12, '0123456789abcdef')}"),
    ("The {thing} costs {v} per seat per month", lambda: "$" + str(R.randint(5, 999)) + ".00"),
    ("For {thing} questions call the support hotline {v}", lambda: R.choice(["400-", "800-", "1-800-"]) + digits_grouped([3, 4], "-")),
    ("Set the password in {ENV} (see .env.example: {ENV}={v})", lambda: R.choice(["<your-password>", "changeme", "${" + "DB_PASS}", "xxxxxxxx"])),
    ("Build {v} of {thing} passed all 412 tests", lambda: str(R.randint(1000, 99999))),
    ("Tracking number {v}, {tail}", lambda: rnd(2, string.ascii_uppercase) + rnd(9, string.digits) + "CN"),
    ("{thing} image digest {v}", lambda: "sha256:" + rnd(64, "0123456789abcdef")),
    ("Error code {v} means the {thing} quota ran out", lambda: R.choice(["E", "ERR_", "0x"]) + rnd(4, string.digits)),
    ("The {thing} password policy requires 12 characters and a digit", lambda: ""),
    ("{who} stored the {thing} token in the vault under path kv/{v}", lambda: R.choice(WORDS) + "/" + R.choice(WORDS)),
    ("Invoice {v} for the {thing} is due on the 30th", lambda: "INV-" + str(R.randint(2020, 2027)) + "-" + rnd(4, string.digits)),
    ("The {thing} token lifetime is {v} seconds", lambda: str(R.choice([900, 3600, 7200, 86400]))),
    ("{who} logged in to {thing} with the usual SSO flow; session {v} expired", lambda: rnd(24, "0123456789abcdef")),
    ("Rebuilt {thing} from tag {v}", lambda: f"{version()}-{R.choice(['slim', 'alpine', 'rc1', 'beta2'])}"),
    ("{thing} listens on port {v} behind the proxy", lambda: str(R.choice([5432, 6379, 8080, 8443, 9092, 27017]))),
    # hard negatives: a cue word next to a value that is not a secret
    ("The {thing} password rule changed after release {v}", lambda: R.choice(["Build#", "Rel-", "r"]) + str(R.randint(10, 999))),
    ("Discount code {v} gives 15% off the {thing} renewal", lambda: rnd(R.randint(4, 6), string.ascii_uppercase) + str(R.randint(5, 50))),
    ("{who}'s cloud account ID is {v} (billing only)", lambda: rnd(12, string.digits)),
    ("The {thing} logo as base64: {v}", lambda: "iVBORw0KGgo" + rnd(R.randint(40, 90), ALNUM + "+/")),
    ("Where's the {thing} password? In {v}, under the Ops vault", lambda: R.choice(["1Password", "Bitwarden", "KeePassXC", "LastPass"])),
    ("Token bucket for {thing}: {v} requests per window", lambda: str(R.randint(50, 5000))),
    ("The {thing} API key field accepts {v} characters", lambda: R.choice(["32", "40", "64"])),
    ("Our deploy key fingerprint for {thing} is SHA256:{v}", lambda: rnd(43, ALNUM + "+/")),
    ("Paste the {thing} key as {v} in the template; {tail}", lambda: R.choice(["<api-key>", "YOUR_KEY_HERE", "${" + "API_KEY}", "sk-xxxx"])),
]
LOOK_ZH: list[tuple[str, Callable[[], str]]] = [
    ("{thing_zh}已经升级到 {v}，{tail_zh}", version),
    ("提交 {v} 修复了{thing_zh}的问题", commit),
    ("{thing_zh}安装包的 MD5 是 {v}", lambda: rnd(32, "0123456789abcdef")),
    ("订单号 {v} 的{thing_zh}昨天发货了", lambda: rnd(R.randint(12, 18), string.digits)),
    ("工单 {v}：{thing_zh}超时", lambda: rnd(3, string.ascii_uppercase) + "-" + str(R.randint(10, 9999))),
    ("{thing_zh}每月 {v} 元，{tail_zh}", lambda: str(R.randint(20, 9999))),
    ("{thing_zh}问题请拨打客服热线 {v}", lambda: R.choice(["400-", "800-"]) + digits_grouped([3, 4], "-")),
    ("密码不要写死，用环境变量 {ENV}，示例值 {v}", lambda: R.choice(["<密码>", "changeme", "${" + "DB_PASSWORD}", "******"])),
    ("{thing_zh}的构建号 {v} 已通过测试", lambda: str(R.randint(1000, 99999))),
    ("快递单号 {v}，{tail_zh}", lambda: "SF" + rnd(12, string.digits)),
    ("请求 ID {v} 对应{thing_zh}的那次重试", lambda: rnd(24, "0123456789abcdef")),
    ("{thing_zh}的令牌已存进 Vault，路径 kv/{v}", lambda: R.choice(WORDS) + "/" + R.choice(WORDS)),
    ("发票号码 {v}，{tail_zh}", lambda: rnd(8, string.digits)),
    ("{thing_zh}的 token 有效期 {v} 秒", lambda: str(R.choice([900, 3600, 7200, 86400]))),
    ("{thing_zh}镜像改成 {v} 了", lambda: f"{version()}-{R.choice(['slim', 'alpine', 'rc1'])}"),
    ("{thing_zh}走 {v} 端口", lambda: str(R.choice([5432, 6379, 8080, 8443, 9092]))),
    ("密码策略改了，{thing_zh}从 {v} 版本开始强制 12 位", lambda: R.choice(["Build#", "v", "R"]) + str(R.randint(10, 99))),
    ("{thing_zh}的优惠码 {v}，满减 20 元", lambda: rnd(R.randint(4, 6), string.ascii_uppercase) + str(R.randint(5, 50))),
    ("{who_zh}的云账号 ID {v}，只用于对账", lambda: rnd(12, string.digits)),
    ("账号密码见 {v} 里的运维保险库", lambda: R.choice(["1Password", "Bitwarden", "KeePassXC"])),
    ("{thing_zh}的图标 base64 是 {v}", lambda: "iVBORw0KGgo" + rnd(R.randint(40, 90), ALNUM + "+/")),
    ("{thing_zh}的 key 长度必须是 {v} 位", lambda: R.choice(["32", "64"])),
    ("{thing_zh}的证书指纹 {v}，{tail_zh}", lambda: ":".join(rnd(2, "0123456789ABCDEF") for _ in range(8))),
]
THINGS = ["staging box", "router", "build server", "Grafana", "shared drive", "VPN", "office printer", "NAS", "billing portal",
          "CI runner", "kiosk", "payroll app", "smart lock", "analytics job", "mail relay", "Kafka cluster", "family iPad"]
THINGS_ZH = ["测试服务器", "路由器", "共享盘", "堡垒机", "打印机", "报销系统", "门禁", "财务系统", "家里的 NAS", "监控平台", "小程序后台", "短信平台"]
WHO = ["Priya", "the landlord", "Marco", "our contractor", "Mrs. Chen", "the new intern", "Sam from finance", "Dad"]
WHO_ZH = ["老张", "房东", "小李", "外包同事", "王经理", "财务的陈姐", "我妈", "新来的实习生"]
TAILS = ["rotate it after the audit", "keep it off Slack", "the old one stops working Friday", "it was set up in March",
         "ask before sharing", "don't forget to update the wiki", "that's the only copy"]
TAILS_ZH = ["审计后要换掉", "别发到群里", "旧的周五失效", "三月份配置的", "用完记得改", "只此一份", "下周迁移"]
ENVS = ["DB_PASSWORD", "API_TOKEN", "STRIPE_SECRET", "APP_KEY", "REDIS_AUTH", "SMTP_PASS", "OSS_SECRET"]


def fill(template: str, v: str) -> str:
    return template.format(v=v, thing=R.choice(THINGS), thing_zh=R.choice(THINGS_ZH), who=R.choice(WHO),
                           who_zh=R.choice(WHO_ZH), tail=R.choice(TAILS), tail_zh=R.choice(TAILS_ZH), ENV=R.choice(ENVS))


def generate(n: int, seed: int) -> list[dict[str, object]]:
    R.seed(seed)
    rows: list[dict[str, object]] = []
    for i in range(n):
        zh = i % 2 == 1
        if i % 3 < 2:
            template, make, category = R.choice(SECRET_ZH if zh else SECRET_EN)
            v = make()
            text = fill(template, v)
            rows.append({"text": text, "kind": "pii", "secrets": [v], "keep": [], "category": "synth_" + category,
                         "lang": "zh" if zh else "en"})
        else:
            template, make = R.choice(LOOK_ZH if zh else LOOK_EN)
            v = make()
            text = fill(template, v)
            rows.append({"text": text, "kind": "lookalike", "secrets": [], "keep": [v] if v else [],
                         "category": "synth_lookalike", "lang": "zh" if zh else "en"})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1600)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    for row in generate(args.n, args.seed):
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
