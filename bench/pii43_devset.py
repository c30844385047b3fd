"""Redaction round 43: writes our own dev set (bench/results/pii43/dev_set.jsonl), EN / ZH, written before the rules
were read; every checksum-bearing value (Luhn, mod-97, GB 11643, mod-11) is made valid here.

    PYTHONPATH=src .venv/bin/python bench/pii43_devset.py
"""
import json

from hindsight.safety.validators import luhn_valid


def luhn(body: str) -> str:
    return next(body + d for d in "0123456789" if luhn_valid("0" * 12 + body + d))  # leading zeros leave Luhn as it is


def iban(country: str, bban: str) -> str:
    raw = bban + country + "00"
    num = "".join(str(int(c, 36)) for c in raw)
    check = 98 - int(num) % 97
    return f"{country}{check:02d}{bban}"


def groups(s: str, n: int = 4) -> str:
    return " ".join(s[i:i + n] for i in range(0, len(s), n))


def prc_id(body17: str) -> str:
    w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return body17 + "10X98765432"[sum(int(a) * b for a, b in zip(body17, w)) % 11]


def bsn(body8: str) -> str:
    for last in range(10):
        s = body8 + str(last)
        if sum(int(c) * w for c, w in zip(s, [9, 8, 7, 6, 5, 4, 3, 2, -1])) % 11 == 0:
            return s
    raise ValueError(body8)


def dni(num: str) -> str:
    return num + "TRWAGMYFPDXBNJZSQVHLCKE"[int(num) % 23]


C1 = luhn("453201511283036")          # Visa
C2 = luhn("622202123456789012")       # UnionPay 19
C3 = luhn("37828224631000")           # Amex 15
C4 = luhn("541333008765432")          # Mastercard
IB_DE = iban("DE", "370400440532013777")
IB_FR = iban("FR", "30006000011234567890189")
IB_GB = iban("GB", "NWBK60161331926819")
IB_NL = iban("NL", "ABNA0417164300")
IB_CH = iban("CH", "0483012345678009")
IB_ES = iban("ES", "21000418450200051332")
ID1 = prc_id("33010619850317241")
ID2 = prc_id("44030519921108003")
ID3 = prc_id("51010719780622456")
BSN = bsn("11122233")
DNI = dni("48291736")
SIN = luhn("04671234")

P = []   # (category, lang, text, secrets, keep)
L = []


def p(cat, lang, text, secrets, keep=()):
    P.append({"text": text, "kind": "pii", "secrets": list(secrets), "keep": list(keep), "category": cat, "lang": lang})


def look(cat, lang, text, keep):
    L.append({"text": text, "kind": "lookalike", "secrets": [], "keep": list(keep), "category": cat, "lang": lang})


# ---- passwords in free sentences
p("password", "en", "Note to self: the garage NAS finally accepts my new passphrase, Tidal-Orchid-5523, after the firmware update.", ["Tidal-Orchid-5523"], ["garage NAS"])
p("password", "en", "Grandma's tablet unlocks with marigold1949 - she wrote it inside the cookbook cover, which worries me.", ["marigold1949"], ["Grandma"])
p("password", "en", "For the shared Kindle account we agreed on Bookworm&Tea42 as the login secret; don't change it without asking Priya.", ["Bookworm&Tea42"], ["Priya", "Kindle"])
p("password", "en", "The lab's freezer monitor dashboard: username ops-cold, and the pass phrase is 'minus80-Alarm!'.", ["minus80-Alarm!"], ["ops-cold"])
p("password", "en", "I reset the church's YouTube login; it's now Psalm23:Vesper#7 until the AV team picks a better one.", ["Psalm23:Vesper#7"], ["AV team"])
p("password", "en", "The code word to open the encrypted zip from the accountant is Q3-ledger-Fennel.", ["Q3-ledger-Fennel"], ["accountant"])
p("password", "en", "Uncle Bo's bank app pw got changed to Rainier!88bo last night after the phishing scare.", ["Rainier!88bo"], ["Uncle Bo"])
p("password", "en", "Admin credentials for the kiosk are kiosk-admin with Lantern_Yew_219 as the password.", ["Lantern_Yew_219"], ["kiosk-admin"])
p("password", "zh", "我把家里路由器的管理密码改成了 Hx@2024jiayou，别再用旧的那个了。", ["Hx@2024jiayou"], ["路由器"])
p("password", "zh", "老妈的微信支付密码是 830517，她让我记一下，我觉得不安全。", ["830517"], ["老妈"])
p("password", "zh", "公司VPN账号 zhangwei，登录口令：Vpn#Shanghai77，下周强制更换。", ["Vpn#Shanghai77"], ["zhangwei"])
p("password", "zh", "孩子平板的屏幕使用时间密码我设的是 4417，别告诉他。", ["4417"], ["平板"])
p("password", "zh", "工作室打印机后台的登录密码为 printer_Admin9，账号是 admin。", ["printer_Admin9"], ["打印机"])
p("password", "zh", "邮箱独立密码：qiuyu_1108!，开启了两步验证。", ["qiuyu_1108!"], ["两步验证"])
# ---- CVV / CVC
p("cvv", "en", "Booking the ferry with the Visa ending 3036; the three digits on the back are 418.", ["418"], ["ending 3036"])
p("cvv", "en", "Amex for the conference: the 4-digit CID printed on the front is 7302, expiry 09/28.", ["7302"], ["conference"])
p("cvv", "en", "Card security value (CVC2) for the company Mastercard: 561. Ask Finance before using it.", ["561"], ["Finance"])
p("cvv", "en", "He read me the card over the phone: number " + groups(C1) + ", expires 11/27, CVV 092.", ["092", groups(C1)], [])
p("cvv", "zh", "信用卡背面的后三位是 734，有效期 2027 年 5 月。", ["734"], ["有效期"])
p("cvv", "zh", "这张招行卡的安全码：905，别外传。", ["905"], ["招行卡"])
p("cvv", "zh", "卡号 " + groups(C4) + "，CVV2 码 316，有效期 08/29。", ["316", groups(C4)], [])
p("cvv", "en", "security code is 4471 on the Amex (front, above the number), renewal is due in March", ["4471"], ["Amex"])
# ---- Basic auth
p("basic_auth", "en", "The scraper sends `Authorization: Basic bWFyZ286dGlkZXBvb2wtOTE=` to the staging feed.", ["bWFyZ286dGlkZXBvb2wtOTE="], ["staging feed"])
p("basic_auth", "en", "Proxy-Authorization: Basic Y29ycDpIb3JzZXNob2UjNDQ= is what the old squid config hard-coded.", ["Y29ycDpIb3JzZXNob2UjNDQ="], ["squid"])
p("basic_auth", "en", "Run it with curl --user deploy:Gantry!Pike77 https://ci.internal.example/hook to trigger the build.", ["Gantry!Pike77"], ["deploy"])
p("basic_auth", "en", "In Python I pass auth=('metrics', 'Sprocket-Lime-31') to requests.get for the exporter.", ["Sprocket-Lime-31"], ["metrics"])
p("basic_auth", "en", "wget --http-user=backup --http-password=Fjord_Cabin_882 https://files.example.net/dump.tgz", ["Fjord_Cabin_882"], ["backup"])
p("basic_auth", "zh", "监控接口用 Basic 认证，请求头是 Authorization: Basic YWRtaW46WWFuZ3RzZTIwMjQh ，别提交到仓库。", ["YWRtaW46WWFuZ3RzZTIwMjQh"], ["监控接口"])
p("basic_auth", "zh", "内网仓库地址 https://builder:Mirror_88hz@repo.corp.example/simple ，构建机上已配置。", ["Mirror_88hz"], ["构建机"])
p("basic_auth", "en", "Grafana datasource URL is http://reader:Okapi-Dune-5@10.0.4.12:9090 for now.", ["Okapi-Dune-5"], ["10.0.4.12:9090"])
# ---- secret halves of key pairs
p("key_pair", "en", "AWS for the photo archive: key id AKIAJ7QX3LPMZ2RTVW4N, and its secret is 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.", ["8hTq2Lw+Zk4pXv9Rn1Ys7Bc0Md3Fg6Hj5Kl8Nq2W"], ["photo archive"])
p("key_pair", "en", "Twitter app consumer key xvz1evFS4wEEPTGEFPHBog, consumer secret kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw.", ["kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw"], [])
p("key_pair", "en", "The OAuth client for the booking widget: client_id 8842-widget-prod, client secret GOCSPX-r7Tn2Qw9LmZx4Kp1Vb6Yh3Js.", ["GOCSPX-r7Tn2Qw9LmZx4Kp1Vb6Yh3Js"], ["booking widget"])
p("key_pair", "zh", "阿里云 AccessKey ID：LTAI5tQp8Zr3Wn7Xk2Yb9Mv，AccessKey Secret：hQ7zK2pW9xN4rT6vL1mB8cY3sD5fG0。", ["hQ7zK2pW9xN4rT6vL1mB8cY3sD5fG0"], ["阿里云"])
p("key_pair", "zh", "腾讯云 SecretId AKIDz8krbsJ5yKBZQpn74WFkmLPx3gnPhESA，SecretKey 是 Gu5t9xGARNpq86cd98joQYCN3Cozk1qA。", ["Gu5t9xGARNpq86cd98joQYCN3Cozk1qA"], ["腾讯云"])
p("key_pair", "en", "Binance sub-account API: public key Xq3mT8vR2nL7kP9wZ4bY1cJ6, private half 9fKd2Lq7Wm4Xz8Rv1Tn6Bp3Ys5Hc0Jg2 - IP locked.", ["9fKd2Lq7Wm4Xz8Rv1Tn6Bp3Ys5Hc0Jg2"], ["IP locked"])
p("key_pair", "en", "Mailgun: the sending domain is mg.shop.example and the signing secret for webhooks is 5c8e2f7a91b04d36e8a2c7f1b9d3e6a4.", ["5c8e2f7a91b04d36e8a2c7f1b9d3e6a4"], ["mg.shop.example"])
p("key_pair", "zh", "七牛云的 AK 是 Vb3Nq7Lp2Xw9Kz4Rt8Ym1Hs6，SK 是 Qw8Er2Ty6Ui4Op0As3Df7Gh1Jk5Lz9Xc。", ["Qw8Er2Ty6Ui4Op0As3Df7Gh1Jk5Lz9Xc"], ["七牛云"])
p("key_pair", "en", "Pusher app 1834412 uses key 7b2c9e4f1a8d3e6b0c5f and secret 3e9a7c1f5b2d8e4a6c0f.", ["3e9a7c1f5b2d8e4a6c0f"], ["1834412"])
# ---- postal addresses
p("address", "en", "Send the spare keys to my flat: 27 Marlowe Gardens, Cheltenham GL50 3PX.", ["27 Marlowe Gardens", "GL50 3PX"], ["Cheltenham"])
p("address", "en", "Mom moved to 1187 Alder Grove Rd, Apt 3B, Eugene, OR 97401 in June.", ["1187 Alder Grove Rd", "97401"], ["Eugene"])
p("address", "en", "My sister lives at Lindenstraße 14, 10969 Berlin, so use that for the parcel.", ["Lindenstraße 14", "10969"], ["Berlin"])
p("address", "en", "Home address for the insurance form: Unit 4/17 Ocean Street, Bondi NSW 2026.", ["17 Ocean Street", "2026"], ["Bondi"])
p("address", "en", "Our new place is 88 rue Saint-Paul, 75004 Paris; the buzzer says Moreau.", ["88 rue Saint-Paul", "75004"], ["Paris"])
p("address", "en", "I'm renting at 3412 W Belmont Ave #2F, Chicago IL 60618 until August.", ["3412 W Belmont Ave", "60618"], ["Chicago"])
p("address", "en", "Forward my post to 9 Kerrigan Close, Swords, Co. Dublin K67 X2Y4 while I'm away.", ["9 Kerrigan Close", "K67 X2Y4"], ["Swords"])
p("address", "en", "His home is Keizersgracht 221-III, 1016 DV Amsterdam.", ["Keizersgracht 221", "1016 DV"], ["Amsterdam"])
p("address", "zh", "我家住在杭州市西湖区文三路478号3单元502室，快递放门口就行。", ["文三路478号", "502室"], ["杭州市"])
p("address", "zh", "收件人地址：广东省深圳市南山区科苑南路2666号海岸城东座1803，电话另发。", ["科苑南路2666号"], ["深圳市"])
p("address", "zh", "我爸现在住成都市武侯区玉林北路18号附3号2栋1单元，邮编610041。", ["玉林北路18号", "610041"], ["成都市"])
p("address", "zh", "房东给的新地址是北京市朝阳区望京西园三区312号楼1204。", ["望京西园三区312号楼", "1204"], ["北京市"])
p("address", "zh", "台北的住址：台北市大安區復興南路一段390號5樓，收件人寫我名字。", ["復興南路一段390號"], ["台北市"])
# ---- IBAN / bank accounts / 银行卡
p("bank_account", "en", f"Please pay my share of the rent into {groups(IB_DE)} (Sparkasse, name as on the lease).", [groups(IB_DE)], ["Sparkasse"])
p("bank_account", "en", f"Refund to my French account: IBAN {IB_FR}, BIC BNPAFRPPXXX.", [IB_FR], ["BNPAFRPPXXX"])
p("bank_account", "en", f"my iban is {IB_NL.lower()} if you want to send the deposit back", [IB_NL.lower()], [])
p("bank_account", "en", "Wire the deposit to sort code 20-45-77, account no. 41938270, payee J Okafor.", ["41938270"], ["20-45-77"])
p("bank_account", "en", "For direct deposit use routing 121000358 and checking account 004829103377.", ["004829103377"], [])
p("bank_account", "en", f"The Swiss account for the chalet deposit is {groups(IB_CH)}.", [groups(IB_CH)], ["chalet deposit"])
p("bank_account", "en", f"Salary goes to {IB_ES} at CaixaBank since May.", [IB_ES], ["CaixaBank"])
p("bank_account", "zh", f"学费转到我的工行卡：{groups(C2)}，户名李娜。", [groups(C2)], ["工行卡"])
p("bank_account", "zh", f"我的银行卡号{C2}，建设银行，麻烦把押金退回来。", [C2], ["建设银行"])
p("bank_account", "zh", "房租打到招商银行账户 6214 8378 1234 5670，开户行深圳分行。", ["6214 8378 1234 5670"], ["深圳分行"])
p("bank_account", "en", f"UK account for the invoice: {IB_GB}; reference INV-2031.", [IB_GB], ["INV-2031"])
p("bank_account", "en", "BSB 062-000 acct 1234 5678 for my Aussie savings, in case you need to reimburse me.", ["1234 5678"], [])
# ---- national IDs
p("national_id", "en", "My SSN for the lease application is 512-44-9087; please shred the paper copy.", ["512-44-9087"], [])
p("national_id", "en", "Her National Insurance number: JG 10 37 46 D (needed for the payroll switch).", ["JG 10 37 46 D"], ["payroll switch"])
p("national_id", "en", f"For the Dutch tax office I gave my BSN {BSN}.", [BSN], [])
p("national_id", "en", f"Spanish DNI of the tenant: {DNI}; copy attached to the contract.", [DNI], ["contract"])
p("national_id", "en", f"Canadian SIN {SIN[:3]} {SIN[3:6]} {SIN[6:]} goes on the T4 form for Marc.", [f"{SIN[:3]} {SIN[3:6]} {SIN[6:]}"], ["T4 form", "Marc"])
p("national_id", "en", "My PAN card number ABCPE1234F is needed for the brokerage KYC.", ["ABCPE1234F"], ["brokerage KYC"])
p("national_id", "en", "Codice fiscale for the Rome apartment: RSSMRA85T10A562S.", ["RSSMRA85T10A562S"], ["Rome apartment"])
p("national_id", "en", "Singapore NRIC S8834521D is my flatmate's, for the condo visitor list.", ["S8834521D"], ["condo visitor list"])
p("national_id", "zh", f"我的身份证号码是{ID1}，办宽带要用。", [ID1], ["办宽带"])
p("national_id", "zh", f"老婆的证件号：{ID2[:6]} {ID2[6:14]} {ID2[14:]}，订机票用。", [f"{ID2[:6]} {ID2[6:14]} {ID2[14:]}"], ["订机票"])
p("national_id", "zh", f"租客张磊，身份证 {ID3}，押一付三。", [ID3], ["押一付三"])
p("national_id", "zh", "韩国同事的外国人登录证号 880514-5123456，办手续要用。", ["880514-5123456"], ["办手续"])
# ---- phones: the brief's forms and wider
p("phone", "zh", "王师傅的座机 0472 531 88 00，下午找他。", ["0472 531 88 00"], ["王师傅"])
p("phone", "en", "Mr Zhao's home line is 0472 531 88 00 if the mobile is off.", ["0472 531 88 00"], ["Mr Zhao"])
p("phone", "en", "Call my cousin in Beijing on 86-10-6275-1234 after 8pm.", ["86-10-6275-1234"], ["Beijing"])
p("phone", "en", "Li Wei's home phone: +86 (10) 6275 1234.", ["+86 (10) 6275 1234"], ["Li Wei"])
p("phone", "zh", "他家座机 +86 (21) 5489 2217，晚上打。", ["+86 (21) 5489 2217"], ["晚上打"])
p("phone", "zh", "我姐家里电话 86-21-5489-2217。", ["86-21-5489-2217"], ["我姐"])
p("phone", "en", "My landlord's number is +44 (0)20 7946 0321 - he prefers calls to texts.", ["+44 (0)20 7946 0321"], ["landlord"])
p("phone", "en", "Text me on 07911 123 456 when you land.", ["07911 123 456"], [])
p("phone", "en", "Her house in Leeds: 0113 496 0721, ask for Jen.", ["0113 496 0721"], ["Leeds", "Jen"])
p("phone", "en", "Oma's phone in Munich is +49 (0)89 2318 4456.", ["+49 (0)89 2318 4456"], ["Munich"])
p("phone", "en", "My German mobile: 0171 2345678, WhatsApp works too.", ["0171 2345678"], [])
p("phone", "en", "Klaus gave me his private number 030/2847 5519.", ["030/2847 5519"], ["Klaus"])
p("phone", "en", "My Paris number is 01 42 68 53 00, the mobile is +33 6 12 34 56 78.", ["01 42 68 53 00", "+33 6 12 34 56 78"], ["Paris"])
p("phone", "en", "Call Amélie at +33 (0)4 78 92 13 55 after work.", ["+33 (0)4 78 92 13 55"], ["Amélie"])
p("phone", "en", "Kenji's home phone in Tokyo is 03-5412-8890, his cell is 090-4412-7735.", ["03-5412-8890", "090-4412-7735"], ["Tokyo"])
p("phone", "en", "Reach Yuki on +81-6-6341-2298 (home) this week.", ["+81-6-6341-2298"], ["Yuki"])
p("phone", "en", "My mum's landline is (02) 9876 5432 and my mobile 0412 345 678.", ["(02) 9876 5432", "0412 345 678"], [])
p("phone", "en", "Dave in Perth: +61 8 9325 4471, home number.", ["+61 8 9325 4471"], ["Perth"])
p("phone", "en", "Call me at 415.728.3391 or (415) 728-3391, same phone.", ["415.728.3391", "(415) 728-3391"], [])
p("phone", "en", "my dad's cell: 1 (646) 382-9917", ["(646) 382-9917"], [])
p("phone", "en", "Sofia's personal number is +1-503-284-7719 ext. 0; don't share it.", ["+1-503-284-7719"], ["Sofia"])
p("phone", "zh", "张老师手机：139 1234 5678，家里座机 (0571) 8672 3345。", ["139 1234 5678", "(0571) 8672 3345"], ["张老师"])
p("phone", "zh", "我姥姥家电话是 0311-8596 2201，一般在家。", ["0311-8596 2201"], ["我姥姥"])
p("phone", "zh", "小陈的手机号 +86 186-0213-4477，微信同号。", ["+86 186-0213-4477"], ["小陈"])
p("phone", "en", "Our site office phone number is 0472-5318800; Wang answers it most mornings.", ["0472-5318800"], ["Wang"])
p("phone", "en", "The back-office number for our dental practice is 020 7946 0877 - not for patients, just staff.", ["020 7946 0877"], ["dental practice"])
p("phone", "en", "My office phone is (312) 874-2290, my desk is by the window.", ["(312) 874-2290"], [])
p("phone", "en", "The warehouse office line 0161 496 0533 rings on Tom's desk.", ["0161 496 0533"], ["Tom"])
# ---- emails
p("email", "en", "Reach me at jo.hartley+garden@fastmail.com for the allotment rota.", ["jo.hartley+garden@fastmail.com"], ["allotment rota"])
p("email", "en", "My personal email is maria.lopez at gmail dot com.", ["maria.lopez at gmail dot com"], [])
p("email", "en", "send the scans to k.osei [at] outlook [dot] co [dot] uk please", ["k.osei [at] outlook [dot] co [dot] uk"], [])
p("email", "en", "Priya's email: Priya.Nair1991@Yahoo.co.in (she checks it weekly).", ["Priya.Nair1991@Yahoo.co.in"], [])
p("email", "zh", "我的邮箱：wanglei_1988＠163.com，有事发邮件。", ["wanglei_1988＠163.com"], [])
p("email", "zh", "张婷的私人邮箱 tingting.zhang(at)qq.com，别发到公司邮箱。", ["tingting.zhang(at)qq.com"], ["张婷"])
p("email", "en", "Add my husband, <a.novak@seznam.cz>, to the school mailing list.", ["a.novak@seznam.cz"], ["school mailing list"])
p("email", "en", "My work address is d.mbeki@harbourlogistics.co.za - it's my own inbox, not shared.", ["d.mbeki@harbourlogistics.co.za"], [])
# ---- OTP read off an app
p("otp_code", "en", "Google Authenticator shows 482 913 for the bank right now.", ["482 913"], ["Google Authenticator"])
p("otp_code", "en", "My Authy says 771-204 for the exchange login.", ["771-204"], ["Authy"])
p("otp_code", "en", "The Duo app is displaying 550231, type it in before it rolls over.", ["550231"], ["Duo"])
p("otp_code", "en", "Okta Verify gave me 309 118 - quick, paste it.", ["309 118"], ["Okta Verify"])
p("otp_code", "zh", "微软验证器上显示 906 112，赶紧输。", ["906 112"], ["微软验证器"])
p("otp_code", "zh", "验证器App里现在是330871，三十秒内有效。", ["330871"], ["验证器"])
p("otp_code", "zh", "令牌上的动态码：428 519。", ["428 519"], [])
p("otp_code", "en", "the 2FA app on my phone reads 664 027 for the payroll site", ["664 027"], ["payroll site"])
p("otp_code", "zh", "我手机上的身份验证器刚刷新，六位数是 812 470。", ["812 470"], [])
# ---- private keys
p("private_key", "en", "Deploy key for the docs mirror:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACCj3vT9kQ2mX7pL8wZ4rN1bY6cH5sJ0fG3dK9aV2tU8eQAAAJgq7Wm1Ku1p\n-----END OPENSSH PRIVATE KEY-----", ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"], ["docs mirror"])
p("private_key", "en", "My MetaMask account's private key is 4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318, keep it offline.", ["4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"], ["MetaMask"])
p("private_key", "en", "Paper wallet WIF: 5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ (the old cold storage).", ["5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ"], ["cold storage"])
p("private_key", "en", "age identity for the backups: AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQS3LAHMJ", ["AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQS3LAHMJ"], ["backups"])
p("private_key", "zh", "钱包私钥：0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f，千万别截图。", ["0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f"], ["千万别截图"])
p("private_key", "en", "The EC key for signing the tokens:\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5zCaILf2n2TqDoAoGCCqGSM49\nAwEHoUQDQgAE7Xb1Rm5xKz3Y0Vn2Hc8Lq4Ws9Dj6Fp1Tg7Ue2Io5Pa3Kl8Nm0Bv\n-----END EC PRIVATE KEY-----", ["MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5zCaILf2n2TqDoAoGCCqGSM49"], ["signing the tokens"])
p("private_key", "zh", "服务器的 SSH 私钥贴在这：-----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEAu3Kz9Qw2Lp7Xn4Vb8Rt1Ys6Hd3Fj0Gk5Mc2Ue9Io4Nq -----END RSA PRIVATE KEY-----", ["MIIEowIBAAKCAQEAu3Kz9Qw2Lp7Xn4Vb8Rt1Ys6Hd3Fj0Gk5Mc2Ue9Io4Nq"], ["SSH"])
p("private_key", "en", "Solana keypair secret (base58) for the faucet bot: 4Z7cXSyeFR8wNGMVXUE1TwtKn5D5Vu7FzEv69dokLv7KrQk7h6pu4LF8ZRR9yQBhc7uSM6RTTZtU1fmaxiNrxXrs", ["4Z7cXSyeFR8wNGMVXUE1TwtKn5D5Vu7FzEv69dokLv7KrQk7h6pu4LF8ZRR9yQBhc7uSM6RTTZtU1fmaxiNrxXrs"], ["faucet bot"])
# ---- tokens in URLs
p("url_token", "en", "The export link was https://api.tallyhub.example/v1/export?format=csv&access_token=ya29.a0AfH6SMBx7Qk2Lm9Zp4Wn from Sam.", ["ya29.a0AfH6SMBx7Qk2Lm9Zp4Wn"], ["Sam", "format=csv"])
p("url_token", "en", "Shared the S3 link: https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20240101&X-Amz-Signature=9f2c1e8a7b3d4f5e6a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f", ["9f2c1e8a7b3d4f5e6a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f"], ["report.pdf"])
p("url_token", "en", "Maps embed uses https://maps.googleapis.com/maps/api/staticmap?center=Oslo&key=AIzaSyD8mK2pQ7xN4wL9rT3vB6yH1cJ5sF0gE2a", ["AIzaSyD8mK2pQ7xN4wL9rT3vB6yH1cJ5sF0gE2a"], ["center=Oslo"])
p("url_token", "en", "After login it redirected to https://app.example.org/callback#access_token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.Xk9pL2mQ7wZ4nR8tV1bY6cH3&token_type=bearer", ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.Xk9pL2mQ7wZ4nR8tV1bY6cH3"], ["token_type=bearer"])
p("url_token", "zh", "下载链接 https://dl.example.cn/files/backup.zip?auth_key=1718000000-0-0-8c3f2a9e7b1d4c6f5e0a9b8c7d6e5f4a 三天后失效。", ["8c3f2a9e7b1d4c6f5e0a9b8c7d6e5f4a"], ["三天后失效"])
p("url_token", "en", "Invite link for the vendor portal: https://portal.example.com/join?invite=Qm7vT2xK9pL4wZ8r&team=ops", ["Qm7vT2xK9pL4wZ8r"], ["team=ops"])
p("url_token", "en", "The Slack hook is https://hooks.slack.com/services/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 and posts to #alerts.", ["q8Lm2Xw7Zp4Kv9Rt1Nb6Yc3H"], ["#alerts"])
p("url_token", "zh", "飞书机器人 webhook：https://open.feishu.cn/open-apis/bot/v2/hook/5f8e2c1a-7b3d-4e9f-a6c0-1d2e3f4a5b6c ，别发到群里。", ["5f8e2c1a-7b3d-4e9f-a6c0-1d2e3f4a5b6c"], ["飞书机器人"])
p("url_token", "en", "Password reset link (don't click twice): https://id.example.net/reset?uid=884&token=b7e2c9f1a4d83e6f0c5a", ["b7e2c9f1a4d83e6f0c5a"], ["uid=884"])

# ---------------- look-alikes
look("version", "en", "Upgraded the NAS firmware to 4.2.11-b2031 and the ZFS pool to version 5000.", ["4.2.11-b2031"])
look("hash", "en", "sha256 of the installer: 3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b", ["3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b"])
look("git_sha", "en", "The regression came in with commit 9c41e7f0b2d8a3e5c6f1b4d7a9e2c5f8b1d4a7e0 on Friday.", ["9c41e7f0b2d8a3e5c6f1b4d7a9e2c5f8b1d4a7e0"])
look("uuid", "en", "Request id 7d9f2c1e-4b8a-4e6f-9c3d-2a1b0e9f8d7c failed with a 502 at the gateway.", ["7d9f2c1e-4b8a-4e6f-9c3d-2a1b0e9f8d7c"])
look("order", "en", "Order #A-4471-2290 shipped; tracking 1Z999AA10123456784 via UPS.", ["A-4471-2290", "1Z999AA10123456784"])
look("order", "zh", "订单号 202406150013478，快递单号 SF1402837749281，明天到。", ["202406150013478", "SF1402837749281"])
look("isbn", "en", "The book is ISBN 978-0-306-40615-7, second edition.", ["978-0-306-40615-7"])
look("model", "en", "The replacement part is model 0472-5318800 from the catalogue.", ["0472-5318800"])
look("model", "zh", "这台电机型号 0472 531 88 00，铭牌上写着。", ["0472 531 88 00"])
look("public_key", "en", "Add my public key to authorized_keys: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx7Qk2Lm9Zp4Wn8Rt1Ys6Hd3Fj0Gk5Mc2Ue9Io4Nq ana@laptop", ["AAAAC3NzaC1lZDI1NTE5AAAAIGx7Qk2Lm9Zp4Wn8Rt1Ys6Hd3Fj0Gk5Mc2Ue9Io4Nq"])
look("public_key", "en", "Donations go to the club's public wallet address 0x71C7656EC7ab88b098defB751B7401B5f6d8976F.", ["0x71C7656EC7ab88b098defB751B7401B5f6d8976F"])
look("policy", "en", "The password must be at least 12 characters and the CVV is the 3 digits on the back.", ["12 characters", "3 digits"])
look("policy", "zh", "密码长度至少8位，验证码有效期5分钟，身份证号需18位。", ["8位", "5分钟", "18位"])
look("placeholder", "en", "Set API_SECRET=<your-secret-here> and AWS_SECRET_ACCESS_KEY=${AWS_SECRET} in the .env.", ["<your-secret-here>", "${AWS_SECRET}"])
look("date", "en", "The meeting moved from 2024-03-15 14:30 to 2024-03-22 09:00 UTC.", ["2024-03-15 14:30", "2024-03-22 09:00"])
look("numbers", "en", "We shipped 4,471,290 units in Q2, up 12.5% on 3,974,480 last year.", ["4,471,290", "3,974,480"])
look("public_contacts", "en", "The museum's ticket line is 020 7323 8299, open daily 10-17.", ["020 7323 8299"])
look("public_contacts", "en", "Citizens Advice helpline: 0800 144 8848 (free from landlines and mobiles).", ["0800 144 8848"])
look("public_contacts", "zh", "中国移动客服热线 10086，人工服务按0。", ["10086"])
look("public_contacts", "zh", "医院官网公布的预约电话：0571-87236114。", ["0571-87236114"])
look("public_contacts", "en", "The consulate's visa section is at 1 Chanceller Road, London W6 9RS, per their website.", ["1 Chanceller Road", "W6 9RS"])
look("public_contacts", "en", "Box office: +44 (0)20 7638 8891, listed on the theatre website.", ["+44 (0)20 7638 8891"])
look("public_contacts", "en", "Support mailbox is support@tallyhub.example - anyone on the team can answer.", ["support@tallyhub.example"])
look("public_contacts", "en", "The registered office is 14 Quay Street, Manchester M3 3HN (from Companies House).", ["14 Quay Street", "M3 3HN"])
look("public_contacts", "zh", "公司注册地址：上海市浦东新区张江路88号，见营业执照。", ["张江路88号"])
look("public_contacts", "en", "Reservations line (on the hotel website): +81-3-3504-1111.", ["+81-3-3504-1111"])
look("public_contacts", "en", "Per the clinic's listing, the front desk is (415) 476-1000.", ["(415) 476-1000"])
look("public_contacts", "en", "The city council switchboard, +61 2 9265 9333, is on every rates notice.", ["+61 2 9265 9333"])
look("public_contacts", "en", "The Paris tourist office hotline is +33 1 49 52 42 63 per their site.", ["+33 1 49 52 42 63"])
look("public_contacts", "en", "The Berlin Bürgeramt's public service number is 115, or +49 30 115 from abroad.", ["115"])
look("ip", "en", "The staging box is 10.20.30.40 on port 8443; ping is fine.", ["10.20.30.40", "8443"])
look("masked", "en", "The card on file ends in ****3036 and the phone is +44 7*** ***456.", ["****3036"])
look("masked", "zh", "尾号 5678 的手机号 138****5678 已绑定。", ["138****5678"])
look("iban_format", "en", "A German IBAN is DE plus 2 check digits and 18 digits, 22 characters in all.", ["22 characters"])
look("swift", "en", "The bank's SWIFT code is DEUTDEFFXXX; fees are 15 EUR.", ["DEUTDEFFXXX"])
look("error", "en", "The installer fails with error 0x80070643 and exit code 1603.", ["0x80070643", "1603"])
look("coords", "en", "Meet at 51.5033, -0.1196 near the London Eye at 14:00.", ["51.5033, -0.1196"])
look("price", "zh", "这套房子总价 4,580,000 元，首付 30%，月供 15,230 元。", ["4,580,000", "15,230"])
look("chemical", "en", "CAS 7732-18-5 is water; CAS 64-17-5 is ethanol.", ["7732-18-5", "64-17-5"])
look("phone_like", "en", "Part numbers 0113 496 0721 and 0171 2345678 are both in stock.", ["0113 496 0721"])
look("phone_like", "en", "The serial on the router is 03-5412-8890-X, firmware 2.4.", ["03-5412-8890-X"])
look("time_range", "en", "Opening hours 0900-1730 Mon-Fri, rooms 0101-0420 on the ground floor.", ["0900-1730", "0101-0420"])
look("otp_policy", "en", "Authy codes refresh every 30 seconds and are 6 digits long.", ["30 seconds", "6 digits"])
look("otp_policy", "zh", "验证器显示的是六位数字，每30秒刷新一次。", ["30秒"])
look("docs_example", "en", "Example: curl -u USER:PASSWORD https://api.example.com/v1/items", ["USER:PASSWORD"])
look("docs_example", "en", "Basic auth header format: Authorization: Basic <base64(user:pass)>.", ["<base64(user:pass)>"])
look("url", "en", "Docs are at https://docs.example.com/v2/guide?lang=en&page=3#install.", ["https://docs.example.com/v2/guide?lang=en&page=3#install"])
look("url", "zh", "文档地址 https://help.example.cn/article?id=883120&from=search 里有步骤。", ["id=883120"])
look("ticket", "en", "Jira ticket OPS-4471 and incident INC0012290 cover the outage.", ["OPS-4471", "INC0012290"])
look("vin_like", "en", "Flight BA0117 departs gate A22 at 18:40; seat 34K.", ["BA0117", "34K"])
look("address_public", "en", "The British Museum is on Great Russell Street, London WC1B 3DG.", ["Great Russell Street", "WC1B 3DG"])
look("address_public", "zh", "故宫博物院地址：北京市东城区景山前街4号。", ["景山前街4号"])
look("code_snippet", "en", "def check(password: str) -> bool: return len(password) >= 12", ["password: str"])
look("code_snippet", "en", "if token == os.environ['API_TOKEN']: allow()", ["os.environ['API_TOKEN']"])
look("version", "zh", "App 升级到 8.0.47 (build 2406151230) 后闪退修复了。", ["8.0.47", "2406151230"])
look("hash", "zh", "文件的 MD5 校验值为 9e107d9d372bb6826bd81d3542a419d6。", ["9e107d9d372bb6826bd81d3542a419d6"])
look("numbers", "en", "Population 8,799,728; area 1,572 km2; founded AD 47.", ["8,799,728"])
look("public_contacts", "en", "Press enquiries: press@natmuseum.example or the press office on 020 7942 5654.", ["press@natmuseum.example", "020 7942 5654"])
look("public_contacts", "zh", "市民服务热线 12345，24小时有人接。", ["12345"])
look("public_contacts", "en", "Our office address is 5 Harbour Way, Leith EH6 6JJ - visitors sign in at reception.", ["5 Harbour Way", "EH6 6JJ"])
look("phone_like", "zh", "共处理 0472 531 88 00 次请求，峰值在晚上。", ["0472 531 88 00"])
look("phone_like", "en", "Batch 86-10-6275-1234 was recalled by the supplier.", ["86-10-6275-1234"])

with open("bench/results/pii43/dev_set.jsonl", "w", encoding="utf-8") as f:
    for row in P + L:
        f.write(json.dumps(row, ensure_ascii=False) + "\n")
print(len(P), "pii", len(L), "look-alikes")
