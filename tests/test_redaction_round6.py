"""Redaction round 6: own EN/ZH cases in shapes no released blind round used (none copied from a blind set).

Each PII case names the secrets that must go and the words that must stay; each look-alike must come back
unchanged. They exercise the method rather than single strings: a credential cue, a bridge ("，前台说", ", in
case you forget,"), a separator and a value whose end is found by its shape; the value before its cue; card
codes next to a card (bridged and keyed); key material by shape (seed phrases EN/ZH, 64-hex after a wallet cue,
OpenSSH bodies, age/WIF keys, byte-array keypairs); spelled contacts; and look-alikes of every such shape
(placeholders, variable names, paths, hashes, transaction ids, public keys, test cards).
"""

from __future__ import annotations

import pytest
from redaction_helpers import assert_linear_cost, assert_removed_and_kept, assert_untouched

from hindsight.safety.redact import redact

PII: list[tuple[str, str, list[str], list[str]]] = [
    # passwords: cue, bridge, separator, value
    ("password", "Router sticker says the admin password (printed under the barcode) is Kq7#mPz2 - change it after setup.",
     ["Kq7#mPz2"], ["Router sticker", "change it after setup"]),
    ("password", "Wi-Fi for the Airbnb: the network key, case-sensitive, is BlueHeron_2291", ["BlueHeron_2291"], ["Airbnb"]),
    ("password", "the passphrase for the backup drive, in case you forget, reads tidal-Orbit-448", ["tidal-Orbit-448"], ["backup drive"]),
    ("password", "Bitwarden master password -> Plum!Tree!Sky9 (do not lose it)", ["Plum!Tree!Sky9"], ["Bitwarden", "do not lose it"]),
    ("password", "requirepass was changed and the new one is R3d!s_prod_77, restart the replicas", ["R3d!s_prod_77"], ["restart the replicas"]),
    ("password", "K9x!vTq2 - that's the wifi password for the guest network", ["K9x!vTq2"], ["guest network"]),
    ("password", "pass for the VPN => Hx!29qLm", ["Hx!29qLm"], ["VPN"]),
    ("password", "mysql root pw changed to Db!root_8841 after the audit", ["Db!root_8841"], ["after the audit"]),
    ("password", "Door keypad PIN is now 7302, the old one stopped working", ["7302"], ["Door keypad"]),
    ("password", "wget --http-user=ops --http-password=W9!xLp2q https://mirror.internal/dump.tar", ["W9!xLp2q"], ["https://mirror.internal/dump.tar"]),
    ("password", "公司WiFi的密码，前台说是 Tx2024@office，记得区分大小写。", ["Tx2024@office"], ["记得区分大小写"]),
    ("password", "保险柜密码我记在这：739104，别告诉别人", ["739104"], ["别告诉别人"]),
    ("password", "Wi-Fi 名称 ChinaNet-8F2A，连接密码设置成了 88776655abc", ["88776655abc"], ["ChinaNet-8F2A"]),
    ("password", "Jx#2024vpn 就是 VPN 的口令，不要外传", ["Jx#2024vpn"], ["不要外传"]),
    ("password", "路由器管理员密码我已经改成了 q1w2e3r4t5 ，你别再用旧的", ["q1w2e3r4t5"], ["你别再用旧的"]),
    ("password", "nginx 的 auth_basic 用户 deploy 口令 Ng!nx_2291，只给测试同学", ["Ng!nx_2291"], ["只给测试同学"]),
    ("password", "家里 NAS 的管理密码（去年换过一次）是 lanmao1207，别外传", ["lanmao1207"], ["别外传"]),
    ("password", "the garage door PIN, the new one, is 5521", ["5521"], ["garage door"]),
    ("password", "lanmao@1207 这个是家里 NAS 的密码，记一下", ["lanmao@1207"], ["记一下"]),
    ("password", "the Wi-Fi key for the studio, all caps, is DUSKMOTH88 (ask Lee if it fails)", ["DUSKMOTH88"], ["ask Lee"]),
    # card security codes and expiry next to a card
    ("payment_card", "Visa 4485728354507552, CVV on the back: 529, expiry 07/29", ["4485728354507552", "529", "07/29"], ["Visa"]),
    ("payment_card", "full number 5391167525081256; the code on the back reads 381", ["5391167525081256", "381"], ["full number"]),
    ("payment_card", "招行信用卡 6222062264457598，卡背面后三位 624，有效期 2028 年 4 月", ["6222062264457598", "624"], ["招行信用卡"]),
    ("payment_card", "checkout?card_number=4716857086140621&card_cvc=118&plan=pro", ["4716857086140621", "118"], ["plan=pro"]),
    ("payment_card", "Amex 371452946632209 and its 4-digit CID is 3947", ["371452946632209", "3947"], ["Amex"]),
    # private-key material by shape
    ("private_key", "wallet seed: lemon tiger harbor velvet oyster candle mirror pulse ocean frame widget bamboo - cold storage",
     ["lemon tiger harbor velvet oyster candle mirror pulse ocean frame widget bamboo"], ["cold storage"]),
    ("private_key", "Recovery words 1. amber 2. grain 3. yellow 4. stool 5. vivid 6. route 7. oxygen 8. basket 9. tunnel 10. frost 11. giant 12. hover",
     ["amber 2. grain", "giant 12. hover"], ["Recovery words"]),
    ("private_key", "助记词（12个）：云 山 月 河 风 雪 花 林 石 江 海 星，放在保险箱里", ["云 山 月 河 风 雪 花 林 石 江 海 星"], ["放在保险箱里"]),
    ("private_key", "my old MetaMask account key 4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318 - import it on the new phone",
     ["4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"], ["import it on the new phone"]),
    ("private_key", "用户把以太坊钱包的私钥发我了：6f1d3a9c82b47e05d9a1c3f7b2e8d4a60c5b9e1f73a2d8c4b0e6f9a1d3c7b5e2，要我帮忙转账",
     ["6f1d3a9c82b47e05d9a1c3f7b2e8d4a60c5b9e1f73a2d8c4b0e6f9a1d3c7b5e2"], ["要我帮忙转账"]),
    ("private_key", "比特币私钥（WIF）：5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ，别丢", ["5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ"], ["别丢"]),
    ("private_key", "sops uses AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQS for the staging secrets",
     ["AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQS"], ["staging secrets"]),
    ("private_key", "deploy key body (id_ed25519): b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQ, rotate monthly",
     ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQ"], ["rotate monthly"]),
    ("private_key", "Solana keypair for the bot: [174,47,154,16,202,193,206,113,199,190,53,133,169,175,31,56,222,53,138,189,224,216,117,173,10,149,53,45,73,251,237,246,15,185,186,82,177,240,148,69,241,227,167,80,141,89,240,121,121,35,172,247,68,251,226,218,48,63,176,109,168,89,238,135]",
     ["174,47,154,16,202,193,206,113"], ["Solana keypair for the bot"]),
    # spelled and spaced contacts and IDs
    ("phone", "手机 幺三八 一二三四 五六七八，晚上打", ["幺三八 一二三四 五六七八"], ["晚上打"]),
    ("email", "write to mei dot lin at proton dot me about the lease", ["mei dot lin at proton dot me"], ["about the lease"]),
    ("national_id", "NI no: AB123456C, starting Monday", ["AB123456C"], ["starting Monday"]),
    ("national_id", "payroll needs my NI number KT 22 41 73 D before Friday", ["KT 22 41 73 D"], ["before Friday"]),
    ("otp", "the bank app showed 6628 31 as the code for the transfer", ["6628 31"], ["bank app"]),
    ("key_pair", "Weather API: app_key 902318845512 with app_secret Qz8Lm2Xv9Rt4Kw7Np3Zb6Yc", ["902318845512", "Qz8Lm2Xv9Rt4Kw7Np3Zb6Yc"], ["Weather API"]),
    ("address", "{\"shipping\": {\"street_address\": \"742 Evergreen Terrace\", \"city\": \"Springfield\"}}", ["742 Evergreen"], ["Springfield"]),
    # second batch, written after the first fixes and measured once before tuning on it (12/20, 18/20)
    ('password', 'SMTP creds -> user: alerts@corp-mail.net / pass: Sm!tp_Relay_44', ['Sm!tp_Relay_44'], ['SMTP creds']),
    ('password', "Our Netflix password is the dog's name plus the year: Biscuit2019", ['Biscuit2019'], ['Netflix']),
    ('password', "ssh into the box with 'deploy' / 'Qz!7mRt2' and restart the worker", ['Qz!7mRt2'], ['restart the worker']),
    ('password', '钉钉群里有人把 VPN 密码发出来了：Vpn#Sz2024！赶紧改', ['Vpn#Sz2024'], ['赶紧改']),
    ('password', 'WIFI：Office-5G 密码：88889999abc', ['88889999abc'], ['Office-5G']),
    ('password', '锁屏密码是 260817，别告诉小孩', ['260817'], ['别告诉小孩']),
    ('password', 'SIM PIN 4417, PUK 83920175 - both on the card holder', ['4417', '83920175'], ['card holder']),
    ('password', 'Gmail app password for the scanner: abcd efgh ijkl mnop', ['abcd efgh ijkl mnop'], ['scanner']),
    ('password', "the safe combo is 12-34-56, don't write it on the safe", ['12-34-56'], ["don't write it on the safe"]),
    ('api_key', 'Discord bot token: MTA5ODc2NTQzMjEwOTg3NjU0.GhJkLm.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab', ['MTA5ODc2NTQzMjEwOTg3NjU0.GhJkLm.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab'], ['Discord bot token']),
    ('payment_card', 'Card: 4485 7283 5450 7552 | 03/28 | 529', ['4485 7283 5450 7552', '03/28', '529'], ['Card']),
    ('payment_card', 'Visa 4716857086140621 - the last three on the back are 407', ['4716857086140621', '407'], ['Visa']),
    ('private_key', 'Electrum seed (new style): wild father tree among universe such mobile favorite target dynamic credit identify', ['wild father tree among universe such mobile favorite target dynamic credit identify'], ['Electrum']),
    ('email', '邮箱 zhang.wei＠qq．com，有事发邮件', ['zhang.wei＠qq．com'], ['有事发邮件']),
    ('address', 'Apt 4B, 221 Baker Street, London NW1 6XE is where the keys go', ['221 Baker Street', 'NW1 6XE'], ['where the keys go']),
    ('address', '收货地址：广东省深圳市南山区科技园南路 18 号 6 栋 1203，电话到了再打', ['科技园南路 18 号 6 栋 1203'], ['电话到了再打']),
    ('otp', 'Your Microsoft security code is 8 6 2 4 1 7', ['8 6 2 4 1 7'], ['Microsoft']),
    ('basic_auth', 'proxy: http://u9:Pr0xy!pw@proxy.corp:3128 for the build agents', ['Pr0xy!pw'], ['build agents']),
    ('key_pair', 'Salesforce connected app: client id 3MVG9d8..z.hDcPLDlcT9TxkG, client secret 8E2B4F71C9A3D605', ['8E2B4F71C9A3D605'], ['Salesforce']),
    ('password', 'VNC password set via vncpasswd: Vnc!2291x', ['Vnc!2291x'], ['vncpasswd']),
]

LOOKALIKES: list[tuple[str, str]] = [
    ("code_snippets", "export DB_PASSWORD=${DB_PASSWORD:?missing} before docker compose up"),
    ("code_snippets", "password: <set in vault>  # filled by the deploy job"),
    ("code_snippets", "数据库密码放在环境变量 MYSQL_ROOT_PASSWORD 里，不要写进代码"),
    ("code_snippets", "这个接口的 API Key 放在 ${AMAP_KEY} 里，模板见 .env.example"),
    ("code_snippets", "pwd prints the working directory: /home/ops/app"),
    ("code_snippets", "the password is read from settings.DB_PASSWORD at startup"),
    ("code_snippets", "WiFi 密码在路由器背面的标签上，自己看"),
    ("code_snippets", "The Wi-Fi password is on the fridge, next to the takeaway menus."),
    ("code_snippets", "password hint: name of first pet + year"),
    ("hashes", "The password field is hashed with argon2id: $argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG"),
    ("hashes", "Tx hash 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060 confirmed in block 17034870"),
    ("hashes", "Wallet address 0x742d35Cc6634C0532925a3b844Bc454e4438f44e got the refund."),
    ("hashes", "git commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed the export"),
    ("hashes", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl deploy@ci is the public key"),
    ("hashes", "钱包地址 0x742d35Cc6634C0532925a3b844Bc454e4438f44e 收到了退款"),
    ("versions", "pin the base image to python:3.11-slim-bookworm"),
    ("versions", "PIN pad firmware 4.2.17 released last week"),
    ("versions", "Pinned numpy==1.26.4 and pandas==2.2.2 in requirements.txt"),
    ("numbers", "CVV checks are done by the gateway; we never store the CVV or the 16-digit number."),
    ("numbers", "Test card 4000 0000 0000 0002 always declines in sandbox."),
    ("numbers", "The seed for the random generator is 42; results are deterministic."),
    ("numbers", "BIP39 defines a 2048-word list; the recovery phrase is 12 or 24 words long."),
    ("ids", "Invoice INV-2024-00831, total $1,249.00, due 2024-12-31"),
    ("ids", "订单号 202412031530228841，快递单号 SF1402938475612"),
    ("public_contacts", "Call the helpdesk at +1 800 555 0199 for a replacement."),
    ("public_contacts", "Send returns to Globex Returns Center, 55 Harbor Way, Oakland CA."),
    # second batch
    ('batch2', 'Set PGPASSWORD in your shell instead of typing it; see ~/.pgpass format host:port:db:user:password'),
    ('batch2', 'The default Wi-Fi password printed on the router label is usually 8 digits.'),
    ('batch2', 'In the config, password_min_length=12 and password_max_age=90d.'),
    ('batch2', '用户名和密码都不能为空，否则返回 401'),
    ('batch2', 'Our API keys start with sk_live_ in production and sk_test_ in staging.'),
    ('batch2', 'docker run -e POSTGRES_PASSWORD=$POSTGRES_PASSWORD postgres:16'),
    ('batch2', 'The CVV is the 3-digit number on the back of the card; never ask customers for it.'),
    ('batch2', 'Public key (for verifying releases): RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3'),
    ('batch2', 'Transaction 4f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7 was refunded by the wallet provider'),
    ('batch2', 'The integrity hash sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC'),
    ('batch2', 'Request ID 01HF8Z3K9Q2XW7V4N6M5T0R1YB timed out'),
    ('batch2', 'UUID 3fa85f64-5717-4562-b3fc-2c963f66afa6 is the tenant'),
    ('batch2', 'AWS account 123456789012 in us-east-1'),
    ('batch2', 'The seed phrase should never be typed into a website; write it on paper.'),
    ('batch2', '员工工号 E20231187，部门编号 D-07'),
    ('batch2', 'build 2024.11.3-rc1+sha.5f2a1c9 shipped'),
    ('batch2', 'Call 911 or the poison control line 1-800-222-1222'),
    ('batch2', 'WPA2-PSK with AES; key rotation every 90 days'),
    ('batch2', '测试卡号 4111 1111 1111 1111 只能在沙箱里用'),
    ('batch2', 'pin: true in the lockfile keeps the version fixed'),
]


@pytest.mark.parametrize(("category", "text", "secrets", "keep"), PII, ids=[f"{c}-{i}" for i, (c, *_rest) in enumerate(PII)])
def test_secret_removed_and_fact_kept(category: str, text: str, secrets: list[str], keep: list[str]) -> None:
    assert_removed_and_kept(category, text, secrets, keep)


@pytest.mark.parametrize(("category", "text"), LOOKALIKES, ids=[f"{c}-{i}" for i, (c, _t) in enumerate(LOOKALIKES)])
def test_lookalike_untouched(category: str, text: str) -> None:
    assert_untouched(text)


def test_the_host_a_credential_opens_stays() -> None:
    """Policy: the IP address of a service is kept next to its credential (r2-r5 writers kept it)."""
    out = redact("NAS at 192.168.1.20, admin password: Vq!8mLz#r2").text
    assert out == "NAS at 192.168.1.20, admin password: [REDACTED:password]"


def test_kinds_of_new_findings() -> None:
    assert redact("钱包助记词：晨 雨 谷 钟 浪 纸 湖 亮 燕 松 茶 岸").kinds == ["private_key"]
    assert redact("{\"pan\": \"4485728354507552\", \"cvv\": \"993\"}").kinds == ["card", "cvv"]
    assert "api_key" in redact("Sentry DSN https://4f8a2c91d7e34b6a9c0e5f1b2d3a7e68@o450112.ingest.sentry.io/5521873").kinds


@pytest.mark.parametrize("unit", ["password, all lowercase, is ", "密码（旧的）是 ", "seed words: lemon tiger ", "cvv 123 card ",
                                  "x dot y at z dot ", "'a' / 'b1!' "])
def test_cost_grows_linearly(unit: str) -> None:
    """The new finders (a bridge of bounded length, a value ended by its shape) stay linear on adversarial repeats."""
    assert_linear_cost(unit)

