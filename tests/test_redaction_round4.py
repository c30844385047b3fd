"""Issue 10 round 4: secrets in the shapes the third round missed, EN and ZH, and look-alikes that must stay.

Every case was written for this file from the kinds listed in the issue (none is copied from an evaluation set):
values before their label, labels with a qualifier, environment names, basic auth in code and commands, Oracle
``user/pw@``, short secret halves, escaped and truncated PEM bodies, card and ID numbers after a cue that fail their
checksum, national numbers of more countries, street-first and more street types, codes named by their service.
"""

from __future__ import annotations

import time

import pytest

from hindsight.safety.redact import redact

# (category, text, must not survive, must survive)
PII: list[tuple[str, str, list[str], list[str]]] = [
    ('password', 'The guest Wi-Fi password is sunflower88 and the network is Cafe-Guest.', ['sunflower88'], ['Cafe-Guest']),
    ('password', "He uses 'letmein2024' as his password for the staging box.", ['letmein2024'], ['staging box']),
    ('password', "the NAS login is admin and the password's Tulip#2291, don't lose it", ['Tulip#2291'], ['NAS login', "don't lose it"]),
    ('password', 'export PGPASSWORD=Pg_r3port_44 before running the nightly script', ['Pg_r3port_44'], ['nightly script']),
    ('password', 'Kiosk tablet: pass - orchid-lamp-19, reboot it weekly', ['orchid-lamp-19'], ['Kiosk tablet', 'reboot it weekly']),
    ('password', 'docker login -u ci-bot -p Rg9xTq2mLw registry.corp.io', ['Rg9xTq2mLw'], ['registry.corp.io']),
    ('password', 'psql --password=Ana1ytics_ro -h warehouse.local', ['Ana1ytics_ro'], ['warehouse.local']),
    ('password', 'Mot de passe du routeur : soleil2024, change-le', ['soleil2024'], ['routeur']),
    ('password', 'redis 的 requirepass 设置成了 Rds@Prod_0931，改完要重启', ['Rds@Prod_0931'], ['改完要重启']),
    ('password', '客厅 WiFi 叫 Home-5G，密码是 woaijia1314', ['woaijia1314'], ['Home-5G']),
    ('password', '路由器后台账号 admin，口令 Tp@link8826，别告诉孩子', ['Tp@link8826'], ['别告诉孩子']),
    ('password', '堡垒机的登录密码我改成 Bl@ckH0le22 了', ['Bl@ckH0le22'], ['堡垒机']),
    ('password', '老王说共享盘的密码就是 qwe123456，记一下', ['qwe123456'], ['共享盘']),
    ('password', 'zip 包解压密码：ZipMe#77，里面是合同', ['ZipMe#77'], ['里面是合同']),
    ('password', 'Sign into the kiosk with PIN 8841 at the front desk', ['8841'], ['front desk']),
    ('password', 'our shared 1Password vault master password: Brave-Otter-Cloud-91', ['Brave-Otter-Cloud-91'], ['vault']),
    ('basic_auth', "requests.get(url, auth=('reporter', 'Rp0rt!ng-2025'))", ['Rp0rt!ng-2025'], ['requests.get']),
    ('basic_auth', 'The staging site sits behind basic auth, credentials are preview:Pr3view_Only', ['Pr3view_Only'], ['staging site']),
    ('basic_auth', 'wget --http-user=bob --http-password=W9et-Bob! https://files.example.net/dump.tgz', ['W9et-Bob!'], ['files.example.net']),
    ('basic_auth', 'htpasswd -b /etc/nginx/.htpasswd alice Al1ce_pw_7 was used for the dashboard', ['Al1ce_pw_7'], ['dashboard']),
    ('basic_auth', '-H "Authorization: Basic YWRtaW46U3VwZXJTZWNyZXQ=" is what the webhook sends', ['YWRtaW46U3VwZXJTZWNyZXQ='], ['webhook sends']),
    ('basic_auth', '监控页面加了 basic auth，用户 grafana 密码 Gf_2025!ok', ['Gf_2025!ok'], ['监控页面']),
    ('basic_auth', '内网 Nexus 的地址 https://deployer:Nx_Dep10y@nexus.intra.cn/repository/ 直接能拉', ['Nx_Dep10y'], ['直接能拉']),
    ('basic_auth', 'Prometheus scrape uses basic_auth: username: scraper, password: Scr4pe-It', ['Scr4pe-It'], ['Prometheus']),
    ('connection_string', 'Server=tcp:sql-prod.database.windows.net,1433;Database=crm;User ID=crm_app;Password=Cr^m4pp!;Encrypt=True;', ['Cr^m4pp!'], ['Encrypt=True']),
    ('connection_string', 'DefaultEndpointsProtocol=https;AccountName=mediastore;AccountKey=q8Zt3Lw9Xv2Bn7Mk5Pr1Hs6Jd4Fg0Aa+Ye/Uo==;EndpointSuffix=core.windows.net', ['q8Zt3Lw9Xv2Bn7Mk5Pr1Hs6Jd4Fg0Aa+Ye/Uo=='], ['AccountName=mediastore']),
    ('connection_string', 'Endpoint=sb://orders-bus.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=Zk3pQ9vW2xL7mN4bT8cR1yH6jF0dS5aE+gU/oI=', ['Zk3pQ9vW2xL7mN4bT8cR1yH6jF0dS5aE+gU/oI='], ['orders-bus']),
    ('connection_string', 'sqlplus scott/T1ger_db@//ora-prod:1521/ORCL runs the report', ['T1ger_db'], ['runs the report']),
    ('connection_string', 'DSN: host=pg.local port=5432 dbname=shop user=shop_rw password=ShopRW#88 sslmode=require', ['ShopRW#88'], ['sslmode=require']),
    ('connection_string', '订单库连接：mysql://order_rw:Ord3r!rw@10.8.1.23:3306/orders?charset=utf8mb4', ['Ord3r!rw'], ['订单库连接']),
    ('connection_string', 'MONGO_URL=mongodb://reporter:Rep0rt3r@mongo-1:27017,mongo-2:27017/?replicaSet=rs0', ['Rep0rt3r'], ['replicaSet=rs0']),
    ('key_pair', 'MinIO creds for the lab: access key labuser, secret key Lq8Zp3Rt6Yw2', ['Lq8Zp3Rt6Yw2'], ['MinIO creds']),
    ('key_pair', '七牛云 AK：Xq9bT2wLz7mR3vP8nK4cY1hJ6dF0sG5aE2uI9oQ，SK：Pm4Rz8Tq1Wv6Xn3Lb9Kc2Yh7Jd5Fs0Ga8Eu3Io6', ['Pm4Rz8Tq1Wv6Xn3Lb9Kc2Yh7Jd5Fs0Ga8Eu3Io6'], ['七牛云']),
    ('key_pair', '华为云 OBS：Access Key Id = HPUAXK2M7QZ9RT4WNL3B，Secret Access Key = zR4tW8qL2mX7vN3bK9pY1cH6jF0dS5gA2eU8iO4r', ['zR4tW8qL2mX7vN3bK9pY1cH6jF0dS5gA2eU8iO4r'], ['华为云 OBS']),
    ('key_pair', 'client_id=web-portal client_secret=Gx7Lq2Vw9Zt4Rk8N for the OAuth app', ['Gx7Lq2Vw9Zt4Rk8N'], ['OAuth app']),
    ('key_pair', 'App ID wx8a7b6c5d4e3f2a1b, App Secret 3c9f1e7a5b2d8c4f6a0e9b1d7c3f5a2e — 小程序后台', ['3c9f1e7a5b2d8c4f6a0e9b1d7c3f5a2e'], ['小程序后台']),
    ('key_pair', '腾讯云 SecretId: AKIDz8krbsJ5yKBZQpn74WFkmLPx3gnPhESA, SecretKey: Gu5t9xGARNpq86cd98joQYCN3Cozk1qA', ['Gu5t9xGARNpq86cd98joQYCN3Cozk1qA'], ['腾讯云']),
    ('private_key', 'key for the bastion (truncated):\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn\nNhAAAAAwEAAQAAAYEAx9k2...', ['b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn'], ['bastion']),
    ('private_key', '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQC7\\n..."}', ['MIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQC7'], ['service_account']),
    ('private_key', 'WireGuard peer config: PrivateKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=', ['yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk='], ['WireGuard peer config']),
    ('private_key', 'age key file: AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQS3EJ7J4', ['AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQS3EJ7J4'], ['age key file']),
    ('private_key', '钱包扩展私钥 xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi 别发群里', ['xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi'], ['别发群里']),
    ('private_key', '这是部署用的私钥片段：\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAvRk3+9mQz1xYb7TcL0pWq2Zf\n（后面省略）', ['MIIEowIBAAKCAQEAvRk3+9mQz1xYb7TcL0pWq2Zf'], ['后面省略']),
    ('payment_card', 'Visa 4532 7713 9902 1457, exp 09/28, CVV 418 — her travel card', ['4532 7713 9902 1457', '418'], ['travel card']),
    ('payment_card', 'Card on file: 5500-0000-0000-0004, expiry 11/27, the three digits on the back are 913', ['5500-0000-0000-0004', '913'], ['Card on file']),
    ('payment_card', '信用卡 6225 8812 3456 7890，有效期 08/29，背面 CVV 是 562', ['6225 8812 3456 7890', '562'], ['信用卡']),
    ('payment_card', '公司卡的安全码 073，卡号 4000 1234 5678 9010，月底到期', ['073', '4000 1234 5678 9010'], ['公司卡', '月底到期']),
    ('payment_card', 'Amex ending 1005 but full number 3782 822463 10005 with CID 4412', ['3782 822463 10005', '4412'], ['Amex ending 1005']),
    ('address', 'Ship the replacement to Flat 2, 17 Elm Grove, Leeds LS6 2AB, she works nights', ['17 Elm Grove'], ['replacement', 'she works nights']),
    ('address', 'Her new place is 88 Kingfisher Rise, Bristol BS4 3QT.', ['88 Kingfisher Rise'], ['new place']),
    ('address', 'Deliver to Unit 5/12 Smith St, Fitzroy VIC 3065 after 5pm', ['5/12 Smith St'], ['after 5pm']),
    ('address', 'Mi dirección es Calle de Alcalá 48, 28014 Madrid, cerca del parque', ['Calle de Alcalá 48'], ['cerca del parque']),
    ('address', 'He moved to Via Garibaldi 23, 10122 Torino last spring', ['Via Garibaldi 23'], ['last spring']),
    ('address', 'Mailing address: 1200 Harbor View Terrace Apt 5C, Oakland, CA 94612', ['1200 Harbor View Terrace'], ['Mailing address']),
    ('address', '快递寄到杭州市余杭区五常街道荆长路 589 号 2 幢 1101，收件人小林', ['荆长路 589 号'], ['收件人小林']),
    ('address', '我爸妈住在南京市秦淮区夫子庙贡院西街12号院3单元502，周末回去', ['贡院西街12号院3单元502'], ['周末回去']),
    ('address', '收货地址：广州市天河区珠江新城华夏路 10 号富力中心 28 楼 2805', ['华夏路 10 号'], ['收货地址']),
    ('address', '她家在成都市高新区天府三街 199 号太平洋保险金融大厦 A 座 1608 室', ['天府三街 199 号'], ['她家在']),
    ('address', '新地址是深圳市福田区梅林一村 32 栋 701，门禁密码另说', ['梅林一村 32 栋 701'], ['门禁密码另说']),
    ('otp', 'Telegram code 52817, do not give this code to anyone', ['52817'], ['do not give this code']),
    ('otp', 'Enter 604193 to finish signing in to your Acme account', ['604193'], ['Acme account']),
    ('otp', 'Microsoft account security code: 7291', ['7291'], ['Microsoft account']),
    ('otp', '【支付宝】校验码 305918，用于登录，请勿泄露', ['305918'], ['请勿泄露']),
    ('otp', '动态码 4 8 1 9 2 7 发过来了，5 分钟有效', ['4 8 1 9 2 7'], ['5 分钟有效']),
    ('otp', 'WhatsApp code: 482-019', ['482-019'], ['WhatsApp']),
    ('otp', '你的验证码为：883102（有效期10分钟）', ['883102'], ['有效期10分钟']),
    ('national_id', 'Her NRIC is S8234567D, needed for the clinic form', ['S8234567D'], ['clinic form']),
    ('national_id', 'HKID Z683365(5) on the tenancy agreement', ['Z683365(5)'], ['tenancy agreement']),
    ('national_id', 'Codice fiscale RSSMRA85T10A562S per la fattura', ['RSSMRA85T10A562S'], ['fattura']),
    ('national_id', 'CPF do cliente: 123.456.789-09', ['123.456.789-09'], ['cliente']),
    ('national_id', 'SIN 046 454 286 for the payroll form', ['046 454 286'], ['payroll form']),
    ('national_id', '身份证号码：32010619900307451X（请核对）', ['32010619900307451X'], ['请核对']),
    ('national_id', '台湾身份证字号 A123456789，办签证用', ['A123456789'], ['办签证用']),
    ('national_id', '주민등록번호 900101-1234567 is on the form', ['900101-1234567'], ['on the form']),
    ('phone', 'reach me on 0412 345 678 after work', ['0412 345 678'], ['after work']),
    ('phone', 'Her cell is 415.555.0137, text first', ['415.555.0137'], ['text first']),
    ('phone', '王老师手机 139 1088 6677，下午有课', ['139 1088 6677'], ['下午有课']),
    ('phone', '有事打 0571-8765 4321 找前台小刘', ['0571-8765 4321'], ['找前台小刘']),
    ('phone', 'his number is 020 7946 0958 (London office line is different)', ['020 7946 0958'], ['London office']),
    ('bank_account', 'Routing 021000021, account 4829105573 at Chase for rent', ['4829105573'], ['for rent']),
    ('bank_account', '转账到 6217 0012 3456 7890 123（建设银行，户名李雷）', ['6217 0012 3456 7890 123'], ['建设银行']),
    ('bank_account', 'BSB 062-000, acc 1234 5678 for the refund', ['062-000', '1234 5678'], ['refund']),
    ('api_key', 'the Mailchimp key is 8a7f6e5d4c3b2a1908f7e6d5c4b3a291-us21', ['8a7f6e5d4c3b2a1908f7e6d5c4b3a291-us21'], ['Mailchimp key']),
    ('api_key', 'X-Api-Key: Q7mL2vR9tZ4xK8pW3nB6 for the partner API', ['Q7mL2vR9tZ4xK8pW3nB6'], ['partner API']),
    ('api_key', '高德地图的 key 我放这了：f3a9c2e7b1d84605a2c9e7f1b3d5a8c0', ['f3a9c2e7b1d84605a2c9e7f1b3d5a8c0'], ['高德地图']),
    ('api_key', 'Use token=Zq8XvT2mLk9Wp3Rn in the query string for the metrics endpoint', ['Zq8XvT2mLk9Wp3Rn'], ['metrics endpoint']),
    ('api_key', 'GOOGLE_CLIENT_SECRET=GOCSPX-7Hq2Lm9Zx4Vt8Rk3Wn6Pb1Yc5Jd', ['GOCSPX-7Hq2Lm9Zx4Vt8Rk3Wn6Pb1Yc5Jd'], ['GOOGLE_CLIENT_SECRET']),
    ('api_key', 'OpenRouter 的 API Key 是 sk-or-v1-4f8a2c9e7b1d3f5a6c8e0b2d4f6a8c1e3b5d7f9a', ['sk-or-v1-4f8a2c9e7b1d3f5a6c8e0b2d4f6a8c1e3b5d7f9a'], ['OpenRouter']),
    ('api_key', 'deepseek 给的密钥：sk-3f9e2a7c1b8d4e6f0a5c9b2d7e1f4a8c', ['sk-3f9e2a7c1b8d4e6f0a5c9b2d7e1f4a8c'], ['deepseek']),
    ('basic_auth', 'Basic auth header for the webhook: dXNlcjpwYXNzd29yZDE=', ['dXNlcjpwYXNzd29yZDE='], ['webhook']),
    ('basic_auth', 'creds: jsmith/Winter2025! for the VPN', ['Winter2025!'], ['for the VPN']),
    ('basic_auth', 'http -a bob:B0bPass! GET api.local/me', ['B0bPass!'], ['api.local/me']),
    ('basic_auth', '接口鉴权用的请求头值是 YXBpdXNlcjpBcGkjMjAyNg==，别外传', ['YXBpdXNlcjpBcGkjMjAyNg=='], ['别外传']),
    ('key_pair', 'AWS Secret Access Key [None]: wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Lm2Tq9', ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Lm2Tq9'], ['AWS Secret Access Key']),
    ('connection_string', '.pgpass: db.internal:5432:appdb:appuser:S3cr3t!x', ['S3cr3t!x'], ['db.internal:5432:appdb:appuser']),
    ('connection_string', 'redis AUTH Rd1s-pass-9 then SELECT 2', ['Rd1s-pass-9'], ['SELECT 2']),
    ('api_key', 'the Figma token for CI: figd_Ab3dEfGh1jKlMn0pQrStUvWx9z', ['figd_Ab3dEfGh1jKlMn0pQrStUvWx9z'], ['Figma token']),
    ('api_key', 'Jira 的访问凭证 ATATT3xFfGF0Lq8ZvT2mWn6Rp4Yc9Kd1, 只读', ['ATATT3xFfGF0Lq8ZvT2mWn6Rp4Yc9Kd1'], ['只读']),
    ('otp', 'The 2FA code he read out was 448 112, fine', ['448 112'], ['he read out']),
    ('otp', '验证码我收到了，是 482913', ['482913'], ['验证码我收到了']),
    ('otp', 'use code 8843 at the door', ['8843'], ['at the door']),
    ('otp', 'the code to the lockbox is 4471', ['4471'], ['lockbox']),
    ('phone', 'call (415) 555 0132 tonight', ['(415) 555 0132'], ['tonight']),
    ('national_id', 'driver licence D1234-56789-01234 expires next year', ['D1234-56789-01234'], ['expires next year']),
    ('national_id', 'My Number 1234 5678 9012 on file', ['1234 5678 9012'], ['on file']),
    ('payment_card', 'the code on the back is 371', ['371'], ['on the back']),
    ('payment_card', '卡背后三位 372，别告诉别人', ['372'], ['别告诉别人']),
    ('address', 'send it to 12 rue des Écoles, 75005 Paris', ['12 rue des Écoles'], ['send it to']),
    ('address', '四川省绵阳市涪城区临园路东段 63 号', ['临园路东段 63 号'], []),
    ('address', '公司在台北市信義區松仁路 100 號 12 樓', ['松仁路 100 號'], ['公司在']),
    ('address', '家住幸福里 7 号院 2 号楼 3 门 402', ['2 号楼 3 门 402'], ['家住']),
    ('other_id', '微信号 zhang_wei88，加我', ['zhang_wei88'], ['加我']),
    ('other_id', 'QQ 号 123456789 是他的小号', ['123456789'], ['小号']),
    ('password', 'wifi密码是大写的HELLO2024', ['HELLO2024'], ['wifi']),
]

LOOKALIKES: list[str] = [
    'Upgrade to version 2.14.3-rc1 before Friday; the build hash is 9f3c2a1b.',
    'The password field must be at least 12 characters and contain a symbol.',
    '密码长度至少 8 位，需包含大小写字母和数字。',
    'Set DB_PASSWORD in the .env file, never commit it.',
    "password = os.environ['DB_PASSWORD']",
    "api_key = get_secret('stripe/api_key')",
    'token: ${GITHUB_TOKEN}',
    'AWS_SECRET_ACCESS_KEY=<your-secret-here>',
    'Order #A8842-19 shipped; tracking 1Z999AA10123456784.',
    'sha256: 3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b',
    'commit 4f9a2c71e8b3d0a6c5f1e9b7d2a4c8f0e6b1d3a5 fixed the login bug',
    '请求 ID 7f3e9a1c-2b4d-4e8f-9a6c-1d3b5e7f9a2c 超时了',
    '发票金额 12,480.00 元，税号 91330106MA2KXXXX',
    '客服邮箱 service@example.cn，客服热线 400-820-8820',
    'Contact press@acme.org or call our toll-free line 1-800-555-0100.',
    'The error code was 0x80070005 (access denied).',
    'Meeting room 3B, building 7, at 14:30 on 2026-03-04.',
    'The PIN pad on the door is broken, use the key.',
    'The wifi password was changed yesterday; ask IT for the new one.',
    '验证码已经发到你的手机上了，请查收。',
    'SKU 8801234567890 is out of stock.',
    'lat 31.2304, lon 121.4737 is the office',
    'the RSA public key starts with ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7',
    'Port 5432 is open; redis listens on 6379.',
    'JIRA ticket OPS-4821 tracks the secret rotation.',
    'our office is on the 3rd floor of the Main Street building',
    'Python 3.11.4 and numpy 1.26.4 are pinned.',
    'Docker image digest sha256:9b2c0e4a1f7d',
    '平均响应时间 235 ms，P99 1.2 s，QPS 8800',
    'The Stripe publishable key is pk_test_xxxxxxxxxxxxxxxx in docs.',
    '在 3 号楼 5 层开会',
    'ISBN 978-7-111-54742-6',
    'The secret to good bread is a long proof.',
    'Reset the password via the link in the email; it expires in 24 hours.',
    "auth=('user', 'password') is just the docs example",
    'connection string format: postgres://USER:PASSWORD@HOST:5432/DB',
    'The API token format is documented at docs.example.com/tokens; rotate keys every 90 days.',
    'Set GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }} in the workflow.',
    'export AWS_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY',
    'DB_PASSWORD: ${DB_PASSWORD}',
    'REDIS_PASSWORD=<set-in-vault>',
    'secret_key = settings.SECRET_KEY',
    "client_secret: '***'",
    'The secret key is stored in KMS under alias/prod-signing.',
    'password: must contain at least one digit',
    'Password (optional): leave blank to use SSO',
    '密码：请联系管理员获取',
    '账号密码：见 1Password 的 Ops 保险库',
    'login: see the runbook at wiki/ops/login-2024',
    'credentials: stored in vault under kv/prod/db',
    'The integrity hash is sha384-oqVuAfXRKap7fdgcCY5uykM6R9GqQ8Kuxy9rx7HNQlGYl1kPzQho1wx4JwY8wC for the CDN script.',
    'The commit for the token refactor is 4f9a2c71e8b3d0a6c5f1e9b7d2a4c8f0e6b1d3a5.',
    'Docker image tag for the api key service: v2.31.0-alpine3.19',
    'The request id for the failed token refresh was req_8fK2mQ9xL3vT7wZ1nB5cY4hJ',
    'Wallet address 0x71C7656EC7ab88b098defB751B7401B5f6d8976F received the refund.',
    'Account 7 of 12 reviewed; bank holiday on Monday.',
    'The transfer of 1,250.00 EUR to account holder Maria was approved on 2026-03-02.',
    'Bank branch code 0012 and 3,450 transactions processed.',
    'Order ID 4539 1488 0343 6467 in the warehouse system',
    'Visa approval took 14 days; appointment 2026-05-14.',
    '信用卡还款日是每月 8 号，额度 50000 元',
    '身份证复印件已上传到人事系统',
    'Her SIN application was approved last week.',
    'Passport renewal costs 130 USD and takes 6-8 weeks.',
    'Google code review 48213 got approved',
    'Use code SAVE20 at checkout',
    'Enter 2024 to filter by year',
    'HTTP status code 503 came back from the auth server',
    'verification code length is 6 digits and expires in 300 seconds',
    '验证码有效期 5 分钟，长度 6 位',
    'Room 1203 of Building 7 hosts the Tuesday meeting.',
    'The meeting is at 3 Park, then lunch.',
    "Python's secrets.token_urlsafe(32) generates the session key.",
    'AUTH_METHOD=oauth2 and TOKEN_TTL=3600',
    'jwt secret rotation is handled by the rotate-secrets job (CRON 0 3 * * *)',
    'The S3 bucket key is reports/2026/q1/summary-final.csv',
    'cache key: user:42:profile:v3',
    'Idempotency-Key: 7f3e9a1c-2b4d-4e8f-9a6c-1d3b5e7f9a2c',
    'The base64 of the logo is iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'PyPI package name: django-rest-framework-simplejwt 5.3.1',
    'Grafana dashboard uid: aDkP9mZ4k, panel 12',
    'YouTube video id dQw4w9WgXcQ about API keys',
    'Rotate the key pair; the new public key fingerprint is SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8.',
    '账号 admin 已禁用，密码策略：90 天更换一次',
    '用户名/密码登录已下线，改用扫码登录',
    "The password hint is 'first pet + year'.",
    'pass rate: 97.5% on the nightly suite',
    'All tests pass: 412/412',
    'pw: see above',
    'Secret Santa budget is 30 dollars',
    'Sprint 24 token budget: 1,200,000 tokens per day',
    'The function get_api_key_from_env() returns None when unset.',
    '版本号 v3.2.1，构建号 20260301.7',
    '地址栏输入 localhost:8080 就能看到',
    'IP address 10.0.0.12 is the build agent',
    'email address format is name@domain',
    'The QQ group for the meetup is public: see the poster',
    'Card payments are down; Stripe status page says degraded.',
    'WiFi network name is Office-Guest; ask reception for access',
    'Our SWIFT/BIC is DEUTDEFF for international wires',
]


@pytest.mark.parametrize(("category", "text", "secrets", "keep"), PII, ids=[f"{c}-{i}" for i, (c, *_rest) in enumerate(PII)])
def test_secret_removed_and_fact_kept(category: str, text: str, secrets: list[str], keep: list[str]) -> None:
    result = redact(text)
    for secret in secrets:
        assert secret not in result.text, (category, result.text)
    for word in keep:
        assert word in result.text, (category, result.text)


@pytest.mark.parametrize("text", LOOKALIKES)
def test_lookalike_untouched(text: str) -> None:
    result = redact(text)
    assert result.text == text and result.findings == [], result


def _cost(text: str) -> float:
    t0 = time.perf_counter()
    redact(text)
    return time.perf_counter() - t0


@pytest.mark.parametrize("unit", [
    "password for x " * 2, "'abc12' as " * 3, "AUTH " * 4, "auth=('a', " * 3, "a:1:b:c:" * 3, "dXNlcjpw " * 3, "token aB3" + "x" * 30 + " ",
    "creds: a/" * 3, "2FA code he said " * 2, "Calle Mayor " * 3, "NRIC " * 4, "card " + "4111 " * 5, "微信号 " * 4, "secret key " * 3,
    "key 我放这了 " * 2, "ABCDEF12AB1A1A1A " * 2, "PGPASSWORD=" * 3, "The code to the " * 2,
])
def test_cost_grows_linearly(unit: str) -> None:
    """Adversarial repetitions of the new patterns' prefixes: ten times the text, not much more than ten times the time."""
    small, large = unit * 60, unit * 600
    _cost(small)
    t_small = min(_cost(small) for _ in range(3))
    t_large = min(_cost(large) for _ in range(2))
    assert t_large < 40 * t_small + 0.05, (t_small, t_large)
