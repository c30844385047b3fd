"""Write tests/data/redact_structured_dev.jsonl: the round-12b development set of structured texts (own wording).

Each row: text, kind ("pii" or "lookalike"), secrets (exact spans that must go), keep (spans that must stay),
category, format, lang. Values are made up; cards pass Luhn, IBANs mod 97, Chinese IDs GB 11643 unless a row says
otherwise. Run: PYTHONPATH=src .venv/bin/python scripts/make_redact_structured_dev.py
"""

from __future__ import annotations

import json
import sys

from hindsight.safety.validators import cn_id_checksum


def luhn(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            d -= 9 if d > 9 else 0
        total += d
    return body + str((10 - total % 10) % 10)


def iban(country: str, bban: str) -> str:
    digits = "".join(str(int(c, 36)) for c in bban + country + "00")
    return f"{country}{98 - int(digits) % 97:02d}{bban}"


def cnid(first17: str) -> str:
    return first17 + cn_id_checksum(first17)


C1, C2, C3 = luhn("453201776512903"), luhn("622848001234567"), luhn("510510443219876")
I1, I2 = iban("DE", "500105175407324931"), iban("GB", "NWBK60161331926819")
N1, N2 = cnid("11010819870314562"), cnid("44030419920807231")
SH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
GIT = "4e1c2f9a7b3d"
ROWS: list[dict[str, object]] = []


def pii(text: str, secrets: list[str], keep: list[str], cat: str, fmt: str, lang: str = "en") -> None:
    ROWS.append({"text": text, "kind": "pii", "secrets": secrets, "keep": keep, "category": cat, "format": fmt, "lang": lang})


def look(text: str, keep: list[str], cat: str, fmt: str, lang: str = "en") -> None:
    ROWS.append({"text": text, "kind": "lookalike", "secrets": [], "keep": keep, "category": cat, "format": fmt, "lang": lang})


# ---------------------------------------------------------------- .env
pii("APP_ENV=staging\nDB_PASSWORD=walnut-Rain-83\nDB_HOST=db.staging.lan", ["walnut-Rain-83"], ["DB_HOST=db.staging.lan"], "password", "env")
pii("STRIPE_SECRET_KEY=rk_9fQm2LxV7cPz4TnW8sBd\nSTRIPE_MODE=live", ["rk_9fQm2LxV7cPz4TnW8sBd"], ["STRIPE_MODE=live"], "api_key", "env")
pii("# payouts\nPAYOUT_IBAN=" + I1 + "\nPAYOUT_NAME=Greta Holm", [I1], ["PAYOUT_NAME"], "bank_account", "env")
pii("SMTP_USER=mailer\nSMTP_PASS=hollyhock42\nSMTP_PORT=587", ["hollyhock42"], ["SMTP_USER=mailer", "SMTP_PORT=587"], "password", "env")
pii("export ADMIN_PWD='Lk3-fern-boat'\nexport ADMIN_USER=root", ["Lk3-fern-boat"], ["ADMIN_USER=root"], "password", "env")
pii("REDIS_AUTH=z8Qw3vNp1Ls\nREDIS_URL=redis://cache-1:6379/0", ["z8Qw3vNp1Ls"], ["cache-1:6379"], "password", "env")
pii("# 生产环境\nMYSQL_ROOT_PASSWORD=Chun#tian2024\nMYSQL_DATABASE=orders", ["Chun#tian2024"], ["MYSQL_DATABASE=orders"], "password", "env", "zh")
look("DB_PASSWORD=${DB_PASSWORD}\nDB_HOST=postgres\nDB_PORT=5432", ["${DB_PASSWORD}"], "reference", "env")
look("API_KEY=<YOUR_API_KEY>\nAPI_BASE=https://api.example.com/v2", ["<YOUR_API_KEY>"], "placeholder", "env")
look("BUILD_SHA=" + SH[:40] + "\nBUILD_NUMBER=20261204.3\nAPP_VERSION=4.12.0", [SH[:40], "20261204.3"], "checksum", "env")
look("SUPPORT_EMAIL=help@quillworks.io\nSUPPORT_PHONE=+1 800 555 0199\nSTATUS_PAGE=https://status.quillworks.io", ["help@quillworks.io", "+1 800 555 0199"], "public_contact", "env")
look("TOKEN_TTL_SECONDS=3600\nPASSWORD_MIN_LENGTH=12\nSESSION_COOKIE_NAME=sid", ["3600", "PASSWORD_MIN_LENGTH=12"], "setting", "env")
look("SECRET_KEY=os.environ['DJANGO_SECRET']\nDEBUG=False", ["os.environ['DJANGO_SECRET']"], "reference", "env")
look("# 客服热线\nHOTLINE=400-820-1234\nSUPPORT_MAIL=kefu@lanshan.cn", ["400-820-1234", "kefu@lanshan.cn"], "public_contact", "env", "zh")

# ---------------------------------------------------------------- YAML
pii("database:\n  host: pg-main.internal\n  user: billing\n  password: Otter.Lamp.771\n  port: 5432", ["Otter.Lamp.771"], ["pg-main.internal", "user: billing"], "password", "yaml")
pii("payment:\n  card_number: " + C1 + "\n  holder: M. Okafor\n  cvv: 418", [C1, "418"], ["holder: M. Okafor"], "card", "yaml")
pii("employee:\n  name: 李娜\n  身份证号: " + N1 + "\n  部门: 财务", [N1], ["李娜", "部门: 财务"], "national_id", "yaml", "zh")
pii("smtp:\n  username: alerts@ridge.dev\n  app_password: qmzt rvxk plow hend", ["qmzt rvxk plow hend"], ["smtp:", "alerts@ridge.dev"], "password", "yaml")
pii("aws:\n  access_key_id: AKIAQ7R2M4X9LB3TZP5N\n  secret_access_key: r8Lq2Vx9Pm4Tz7Nw3Kb6Hy1Jd5Fs0Gc8Ae2Uo4Wi", ["r8Lq2Vx9Pm4Tz7Nw3Kb6Hy1Jd5Fs0Gc8Ae2Uo4Wi", "AKIAQ7R2M4X9LB3TZP5N"], ["aws:"], "key_pair", "yaml")
pii("收款信息:\n  开户行: 招商银行深圳科技园支行\n  账号: 6214830112345678\n  户名: 王磊", ["6214830112345678"], ["招商银行深圳科技园支行", "户名: 王磊"], "bank_account", "yaml", "zh")
pii("wifi:\n  ssid: Maple-Loft\n  psk: sunflower-Kite-19", ["sunflower-Kite-19"], ["ssid: Maple-Loft"], "password", "yaml")
look("artifact:\n  name: app-release.apk\n  sha256: " + SH + "\n  version: 3.8.1", [SH, "3.8.1"], "checksum", "yaml")
look("auth:\n  password_field: passwd\n  token_header: X-Auth-Token\n  hash_algo: argon2id", ["password_field: passwd", "X-Auth-Token"], "field_name", "yaml")
look("secrets:\n  db_password: ${{ secrets.DB_PASSWORD }}\n  api_token: ${API_TOKEN}", ["${{ secrets.DB_PASSWORD }}", "${API_TOKEN}"], "reference", "yaml")
look("contact:\n  support: support@fernbank.com\n  hotline: 0800 123 4567\n  address: 12 Quay Street, Leeds", ["support@fernbank.com", "0800 123 4567"], "public_contact", "yaml")
look("image:\n  repository: ghcr.io/acme/worker\n  tag: v2.14.3\n  digest: sha256:" + SH, ["v2.14.3", SH], "checksum", "yaml")
look("payment:\n  card_type: visa\n  card_last4: 4242\n  account_type: checking", ["card_last4: 4242", "account_type: checking"], "field_name", "yaml")
look("构建信息:\n  版本号: 5.2.0\n  构建号: 20261130.7\n  提交: " + GIT, ["5.2.0", "20261130.7", GIT], "checksum", "yaml", "zh")

# ---------------------------------------------------------------- JSON
pii('{"user": "kmoreau", "password": "Sable!river9", "remember": true}', ["Sable!river9"], ['"user": "kmoreau"'], "password", "json")
pii('{"card": {"number": "' + C3 + '", "exp": "09/28", "cvc": "771"}}', [C3, "771"], ['"exp"'], "card", "json")
pii('{"beneficiary": "Ana Ruiz", "iban": "' + I2 + '", "amount": 1200}', [I2], ['"beneficiary": "Ana Ruiz"', "1200"], "bank_account", "json")
pii('{"api_key": "tq_3Jd9Kx2mPz7VbR4wLn8c", "region": "eu-west-1"}', ["tq_3Jd9Kx2mPz7VbR4wLn8c"], ['"region": "eu-west-1"'], "api_key", "json")
pii('{"姓名": "赵敏", "身份证": "' + N2 + '", "电话": "13812345678"}', [N2, "13812345678"], ['"姓名": "赵敏"'], "national_id", "json", "zh")
pii('{"name": "Ruth Adeyemi", "home_address": "48 Larkspur Lane, Apt 3C, Dayton, OH 45402"}', ["48 Larkspur Lane"], ['"name": "Ruth Adeyemi"'], "address", "json")
pii('{"登录账号": "wanghf", "登录密码": "tianlan@88", "系统": "OA"}', ["tianlan@88"], ['"系统": "OA"'], "password", "json", "zh")
look('{"request_id": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "status": 200, "latency_ms": 41}', ["7c9e6679-7425-40de-944b-e07fc1f90ae7"], "id", "json")
look('{"checksum": "' + SH + '", "size": 1048576, "file": "dump.tar.gz"}', [SH], "checksum", "json")
look('{"password_policy": {"min_length": 12, "require_symbol": true}, "token_expiry": "15m"}', ['"min_length": 12'], "setting", "json")
look('{"support_email": "care@northwind.co", "support_phone": "+44 20 7946 0000"}', ["care@northwind.co", "+44 20 7946 0000"], "public_contact", "json")
look('{"apiKey": "<YOUR_KEY>", "secret": "REPLACE_ME", "endpoint": "https://api.acme.dev"}', ["<YOUR_KEY>", "REPLACE_ME"], "placeholder", "json")
look('{"commit": "' + GIT + 'a01f", "build": 8812, "version": "1.9.0-rc.2"}', [GIT + "a01f", "1.9.0-rc.2"], "checksum", "json")
look('{"订单号": "DD202612040018", "客服电话": "400-100-8888", "物流单号": "SF1402938475610"}', ["DD202612040018", "400-100-8888", "SF1402938475610"], "id", "json", "zh")

# ---------------------------------------------------------------- INI / TOML
pii("[database]\nhost = 10.0.4.12\nuser = etl\npasswd = grape7Tundra\n", ["grape7Tundra"], ["host = 10.0.4.12", "user = etl"], "password", "ini")
pii('[stripe]\nsecret_key = "sk_live_51Hx9vQ2mK8pLw3ZrT6y"\npublishable = "pk_live_demo"', ["sk_live_51Hx9vQ2mK8pLw3ZrT6y"], ["[stripe]"], "api_key", "toml")
pii('[bank]\naccount = "00123456789"\nsort_code = "20-45-77"\nholder = "D. Fenn"', ["00123456789", "20-45-77"], ['holder = "D. Fenn"'], "bank_account", "toml")
pii("[mail]\nserver = smtp.lantern.io\nlogin = ops\npassword = Ironwood_55\n", ["Ironwood_55"], ["smtp.lantern.io", "login = ops"], "password", "ini")
pii("[支付]\n卡号 = " + C2 + "\n持卡人 = 陈晨", [C2], ["持卡人 = 陈晨"], "card", "ini", "zh")
pii('[deploy]\ntoken = "dpl_8Hq2Vz5Lm9Tx3Kc7Nw1R"\ntarget = "prod-eu"', ["dpl_8Hq2Vz5Lm9Tx3Kc7Nw1R"], ['target = "prod-eu"'], "api_key", "toml")
look('[package]\nname = "tidewater"\nversion = "0.7.3"\nchecksum = "' + SH + '"', ["0.7.3", SH], "checksum", "toml")
look("[auth]\npassword_hash_rounds = 12\ntoken_lifetime = 900\nkey_file = /etc/app/key.pem", ["password_hash_rounds = 12", "/etc/app/key.pem"], "setting", "ini")
look('[smtp]\nuser = "${SMTP_USER}"\npassword = "${SMTP_PASSWORD}"', ["${SMTP_PASSWORD}"], "reference", "toml")
look("[contact]\nhelpdesk = helpdesk@ivory.edu\nhotline = +1 (866) 555-0134", ["helpdesk@ivory.edu", "+1 (866) 555-0134"], "public_contact", "ini")
look('[build]\nid = "b-20261204-0931"\nsha = "' + GIT + '"\nrunner = "ci-7"', ["b-20261204-0931", GIT], "checksum", "toml")

# ---------------------------------------------------------------- SQL
pii("INSERT INTO customers (id, name, card_number, city) VALUES (1042, 'Lena Brandt', '" + C1 + "', 'Graz');", [C1], ["Lena Brandt", "'Graz'", "1042"], "card", "sql")
pii("INSERT INTO users (username, email_verified, password) VALUES ('tmiller', true, 'Quartz&Mint62');", ["Quartz&Mint62"], ["'tmiller'"], "password", "sql")
pii("INSERT INTO payees (payee_name, iban, currency) VALUES ('Okoro Ltd', '" + I1 + "', 'EUR');", [I1], ["'Okoro Ltd'", "'EUR'"], "bank_account", "sql")
pii("UPDATE staff SET ssn = '512-44-8391', dept = 'HR' WHERE staff_id = 77;", ["512-44-8391"], ["dept = 'HR'", "staff_id = 77"], "national_id", "sql")
pii("INSERT INTO 员工 (姓名, 身份证号, 部门) VALUES ('刘洋', '" + N1 + "', '研发');", [N1], ["'刘洋'", "'研发'"], "national_id", "sql", "zh")
pii("INSERT INTO accounts (holder, account_no, routing) VALUES ('B. Castillo', '000123456789', '021000021');", ["000123456789"], ["'B. Castillo'"], "bank_account", "sql")
pii("UPDATE api_clients SET client_secret = 'Zq7Lm2Vx9Pt4Wn8Kb3Hy6Jd' WHERE client_id = 'reports-app';", ["Zq7Lm2Vx9Pt4Wn8Kb3Hy6Jd"], ["'reports-app'"], "api_key", "sql")
pii("INSERT INTO 收款账户 (户名, 银行卡号, 开户行) VALUES ('孙丽', '6222021203004455667', '工商银行');", ["6222021203004455667"], ["'孙丽'", "'工商银行'"], "bank_account", "sql", "zh")
look("INSERT INTO releases (version, build_id, sha) VALUES ('2.3.1', 9912, '" + SH[:40] + "');", ["'2.3.1'", SH[:40]], "checksum", "sql")
look("INSERT INTO orders (order_id, customer_id, total) VALUES (5548813902, 4471, 89.50);", ["5548813902", "4471"], "id", "sql")
look("SELECT id, password_hash FROM users WHERE email = :email AND password_hash = crypt(:pw, password_hash);", ["password_hash", ":pw"], "code", "sql")
look("INSERT INTO contacts (kind, phone) VALUES ('support hotline', '+1 888 555 0100');", ["+1 888 555 0100"], "public_contact", "sql")
look("UPDATE settings SET password_min_length = 14, token_ttl = 3600 WHERE tenant_id = 8;", ["password_min_length = 14", "tenant_id = 8"], "setting", "sql")
look("INSERT INTO 客服 (名称, 热线) VALUES ('售后服务', '400-600-9000');", ["400-600-9000"], "public_contact", "sql", "zh")

# ---------------------------------------------------------------- curl
pii("curl -u deploy:Heron42-slate https://ci.brookline.dev/api/jobs", ["Heron42-slate"], ["deploy", "ci.brookline.dev"], "password", "curl")
pii('curl -H "X-API-Key: kq8Vz2Lm5Tx9Pw3Nc7Rb" https://api.oriel.io/v1/reports', ["kq8Vz2Lm5Tx9Pw3Nc7Rb"], ["api.oriel.io"], "api_key", "curl")
pii("curl -X POST https://pay.vantor.com/charge -d card_number=" + C3 + " -d cvv=902 -d amount=40", [C3, "902"], ["amount=40"], "card", "curl")
pii("curl -d 'username=jchen&password=Pebble_9sky' https://intranet.local/login", ["Pebble_9sky"], ["username=jchen"], "password", "curl")
look('curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user', ["$GITHUB_TOKEN"], "reference", "curl")
look('curl -H "X-Api-Key: ${API_KEY}" https://api.weatherly.com/v3/now', ["${API_KEY}"], "reference", "curl")
look("curl -sSL https://get.tool.sh | sha256sum  # expect " + SH, [SH], "checksum", "curl")
look('curl -u "$USER:$PASS" https://nexus.internal/repository/', ["$USER:$PASS"], "reference", "curl")

# ---------------------------------------------------------------- URLs
pii("DATABASE_URL=postgres://app:Lilac7Storm@db-2.prod:5432/app", ["Lilac7Storm"], ["db-2.prod:5432"], "password", "url")
pii("broker: amqp://worker:t9Vm2Qx7Lp@mq.internal:5672/", ["t9Vm2Qx7Lp"], ["mq.internal:5672"], "password", "url")
look("DATABASE_URL=postgres://app:${DB_PASS}@db-2.prod:5432/app", ["${DB_PASS}"], "reference", "url")
look("mongodb://<user>:<password>@cluster0.example.net/test", ["<password>"], "placeholder", "url")

# ---------------------------------------------------------------- vCard
pii("BEGIN:VCARD\nVERSION:3.0\nFN:Iris Vaughan\nTEL;TYPE=CELL:+1 415 555 0182\nADR;TYPE=HOME:;;221 Birch Hollow Rd;Eugene;OR;97401;USA\nEND:VCARD",
    ["+1 415 555 0182", "221 Birch Hollow Rd"], ["FN:Iris Vaughan", "VERSION:3.0"], "address", "vcard")
pii("BEGIN:VCARD\nFN:周婷\nTEL;TYPE=CELL:13912345678\nEMAIL:zhouting88@163.com\nEND:VCARD", ["13912345678", "zhouting88@163.com"], ["FN:周婷"], "phone", "vcard", "zh")
look("BEGIN:VCARD\nVERSION:4.0\nORG:Harbor Dental\nTEL;TYPE=WORK:+1 800 555 0111\nURL:https://harbordental.com\nEND:VCARD", ["+1 800 555 0111", "VERSION:4.0"], "public_contact", "vcard")

# ---------------------------------------------------------------- CSV
pii("name,email,card_number,exp\nPaolo Neri,pneri@mail.it," + C1 + ",11/27", [C1], ["Paolo Neri", "name,email,card_number,exp"], "card", "csv")
pii("employee,ssn,start_date\nJ. Whitfield,421-55-7302,2021-03-01", ["421-55-7302"], ["J. Whitfield", "2021-03-01"], "national_id", "csv")
pii("姓名,身份证号,入职日期\n黄磊," + N2 + ",2020-07-15", [N2], ["黄磊", "2020-07-15"], "national_id", "csv", "zh")
pii("vendor,account_number,bank\nAsterisk Print,40012987651,Chase", ["40012987651"], ["Asterisk Print", "Chase"], "bank_account", "csv")
pii("service,login,password\nrouter,admin,Cobalt-Yarn-8\nnas,backup,mossy4Gate", ["Cobalt-Yarn-8", "mossy4Gate"], ["router,admin", "nas,backup"], "password", "csv")
look("file,sha256,size\nrelease.zip," + SH + ",88123", [SH, "88123"], "checksum", "csv")
look("order_id,tracking_number,status\n88120345,1Z999AA10123456784,shipped", ["88120345", "1Z999AA10123456784"], "id", "csv")
look("team,support_email,hotline\nBilling,billing@orbit.io,+1 877 555 0142", ["billing@orbit.io", "+1 877 555 0142"], "public_contact", "csv")
look("门店,客服电话,地址\n徐汇店,021-64381234,上海市徐汇区漕溪北路88号", ["021-64381234"], "public_contact", "csv", "zh")
look("user_id,password_changed_at,mfa\n1182,2026-11-02,true", ["1182", "2026-11-02"], "field_name", "csv")

# ---------------------------------------------------------------- git config
pii('[credential "https://git.corp.io"]\n\tusername = build-bot\n\tpassword = Spruce88!Lake', ["Spruce88!Lake"], ["build-bot", "git.corp.io"], "password", "gitconfig")
pii('[remote "origin"]\n\turl = https://oauth2:glx7Kd9Qm2Vp4Lz8Tr3W@gitlab.corp.io/team/app.git', ["glx7Kd9Qm2Vp4Lz8Tr3W"], ["gitlab.corp.io/team/app.git"], "api_key", "gitconfig")
look('[user]\n\tname = Wen Li\n[commit]\n\tgpgsign = true\n\tsigningkey = 3AA5C34371567BD2', ["3AA5C34371567BD2"], "id", "gitconfig")
look('[core]\n\tabbrev = 12\n[log]\n\tshowSignature = false\n# last rebase onto ' + GIT, [GIT], "checksum", "gitconfig")

# ---------------------------------------------------------------- forms
pii("Name: Tomasz Wrona\nCard number: " + C2 + "\nExpiry: 04/29\nCVV: 337", [C2, "337"], ["Name: Tomasz Wrona"], "card", "form")
pii("姓名：韩梅梅\n卡号：" + C2 + "\n开户行：建设银行", [C2], ["姓名：韩梅梅", "建设银行"], "card", "form", "zh")
pii("申请人：郭峰\n身份证号：" + N1 + "\n联系电话：13566778899", [N1, "13566778899"], ["申请人：郭峰"], "national_id", "form", "zh")
pii("账号：guofeng_admin\n密码：Qingshan2026!", ["Qingshan2026!"], ["guofeng_admin"], "password", "form", "zh")
pii("Account holder: Mira Sato\nIBAN: " + I2 + "\nBIC: NWBKGB2L", [I2], ["Mira Sato", "NWBKGB2L"], "bank_account", "form")
pii("Full name: Owen Price\nHome address: 17 Wren Close, Bath BA2 3QT\nReason: parking permit", ["17 Wren Close"], ["Full name: Owen Price", "parking permit"], "address", "form")
pii("收货人：钱多多\n收货地址：杭州市西湖区文三路259号3幢502室\n手机：15088776655", ["文三路259号3幢502室", "15088776655"], ["收货人：钱多多"], "address", "form", "zh")
pii("口令：hongqi-7749\n用途：财务系统", ["hongqi-7749"], ["用途：财务系统"], "password", "form", "zh")
pii("密钥：Vq8Lm3Zx7Pt2Wn9Kb4Hy\n平台：短信网关", ["Vq8Lm3Zx7Pt2Wn9Kb4Hy"], ["平台：短信网关"], "api_key", "form", "zh")
look("Name: ____\nCard number: ____ ____ ____ ____\nCVV: ___", ["Card number: ____"], "placeholder", "form")
look("客服热线：400-880-6655\n客服邮箱：service@jiayuan.cn\n工作时间：9:00-18:00", ["400-880-6655", "service@jiayuan.cn"], "public_contact", "form", "zh")
look("版本：7.4.2\n校验和：" + SH[:32] + "\n发布日期：2026-11-20", ["7.4.2", SH[:32]], "checksum", "form", "zh")
look("Password requirements: at least 12 characters\nToken validity: 30 days\nAccount type: Business", ["at least 12 characters", "Account type: Business"], "setting", "form")
look("密码：请填写您的密码\n卡号：示例 6222 **** **** 1234", ["请填写您的密码"], "placeholder", "form", "zh")
look("Order ID: 771-2290183-4410\nInvoice no: INV-2026-0419\nSupport: orders@paperfox.com", ["771-2290183-4410", "INV-2026-0419", "orders@paperfox.com"], "id", "form")

# ---------------------------------------------------------------- voice transcripts (numbers spelled out)
pii("Voice note: okay the gate code is four nine one seven and the alarm PIN is two two eight zero, thanks", ["four nine one seven", "two two eight zero"], ["Voice note", "gate code"], "password", "voice")
pii("语音转写：我的银行卡号是六二二二 零二一二 零三零零 四四五五，户名张伟", ["六二二二 零二一二 零三零零 四四五五"], ["户名张伟"], "bank_account", "voice", "zh")
pii("Transcript: my social is five one two, four four, eight three nine one, call me back", ["five one two, four four, eight three nine one"], ["Transcript", "call me back"], "national_id", "voice")
look("Voice note: the meeting moved to four thirty, room two one two, bring the quarterly numbers", ["four thirty", "room two one two"], "other", "voice")
look("语音转写：客服电话是四零零八二零一二三四，工作日都能打", ["四零零八二零一二三四"], "public_contact", "voice", "zh")

# ---------------------------------------------------------------- chat
pii("[10:42] dana: here's the vpn login for the contractor\n[10:42] dana: user vcontractor / pass Marble-Finch-61", ["Marble-Finch-61"], ["vcontractor"], "password", "chat")
pii("[09:15] 小陈：报销打到我工资卡吧 6228480402564890175\n[09:16] 财务：好的", ["6228480402564890175"], ["报销打到我工资卡"], "bank_account", "chat", "zh")
pii("<ops-bot> rotated: PAGERDUTY_TOKEN=pd8Kq2Vm7Lx4Tz9Nw3Rb\n<amy> thx", ["pd8Kq2Vm7Lx4Tz9Nw3Rb"], ["PAGERDUTY_TOKEN"], "api_key", "chat")
look("[14:03] li: the checksum for the installer is " + SH + "\n[14:04] raj: matches", [SH], "checksum", "chat")
look("[11:20] 王工：客服热线改成 400-100-5678 了\n[11:21] 小李：收到", ["400-100-5678"], "public_contact", "chat", "zh")
look("<kim> set API_KEY=$(vault read -field=key secret/app) before running", ["$(vault read -field=key secret/app)"], "reference", "chat")
look("<sam> the password_reset_token column is a uuid, e.g. 00000000-0000-0000-0000-000000000000", ["password_reset_token"], "code", "chat")

# ---------------------------------------------------------------- key pairs / private keys in config
pii("ssh:\n  host: bastion.corp\n  private_key: |\n    -----BEGIN OPENSSH PRIVATE KEY-----\n    b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n    -----END OPENSSH PRIVATE KEY-----",
    ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"], ["bastion.corp"], "private_key", "yaml")
pii("OSS_ACCESS_KEY_ID=LTAI5tQm8Vz2Lp9Xw4Kr\nOSS_ACCESS_KEY_SECRET=h7Kq2Vm9Lx4Tz8Nw3Rb6Yc1Pd5Fs0G", ["LTAI5tQm8Vz2Lp9Xw4Kr", "h7Kq2Vm9Lx4Tz8Nw3Rb6Yc1Pd5Fs0G"], ["OSS_ACCESS_KEY_ID"], "key_pair", "env")
look("ssh:\n  host: bastion.corp\n  public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk2vQm8Lz3Tp9Xw4Kr7Nc2Vb5Yd1Fs0Gh6Jq3Lm8Pz ops@laptop\n  fingerprint: SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8",
     ["SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8"], "checksum", "yaml")
look("KEY_ID=kid-2026-11\nKEY_ALGORITHM=RS256\nKEY_VERSION=4", ["kid-2026-11", "RS256"], "id", "env")


def main(path: str = "tests/data/redact_structured_dev.jsonl") -> None:
    for row in ROWS:
        for s in list(row["secrets"]) + list(row["keep"]):  # type: ignore[arg-type]
            assert s in row["text"], (s, row["text"])
    with open(path, "w", encoding="utf-8") as fh:
        for row in ROWS:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(len(ROWS), "rows:", sum(r["kind"] == "pii" for r in ROWS), "pii")


if __name__ == "__main__":
    main(*sys.argv[1:])
