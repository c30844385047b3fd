"""Redaction round 40: the kinds blind r30 - r37 missed when first measured, in wordings of our own (none copied from
a set), read on a source tree - which kinds still fail today.

    PYTHONPATH=<src> .venv/bin/python bench/pii40_kinds.py LABEL OUT.json

Each probe is (kind, text, values): a GONE probe passes when every value is gone, a KEEP probe when every value stays.
Kinds and the rounds whose first-measured failures they generalise (docs "Round 32" - "Round 39"):
seed (r33, r36, r37), turns (r31, r34, r37: a secret answered in a chat), doc (r33, r34, r36, r37: an identity, health
or bank document's number named by its noun), addr (r30, r33, r37: addresses with unit / flat / room parts), pw (r30,
r31, r33), otp (r30 - r32, r34, r35, r37), card (r30, r32, r34, r37), bank (r32, r36), id (r30, r33, r34, r36, r37),
key (r31 - r33, r37), lk (look-alikes of r31 - r33, r35 - r37). Rules + the shipped tagger (redact's default).
Written before the branch's code; the probes that fail on main became tests/test_redaction_round40.py's cases.
"""
import json
import sys
from collections import Counter

from hindsight.safety.redact import redact

W12 = "velvet orbit canyon mirror lunar bridge tonic harvest pledge quartz ember alpine"
W24 = W12 + " glove river fossil anchor bronze timber lyric salad frown pilot ember quarry"
GONE = [
 # seed phrases unquoted, far from cue
 ("seed", f"dad: I put the bitcoin wallet recovery words on the back of the calendar, here they are in case it gets lost: {W12}\nme: please delete", ["velvet orbit", "ember alpine"]),
 ("seed", f"The hardware wallet's backup phrase, which I copied from the card in the safe last Tuesday before the move, is {W12}. Keep it offline.", ["velvet orbit"]),
 ("seed", f"钱包的恢复短语我抄在笔记本最后一页了，怕丢了在这里也记一份：{W12}，别外传。", ["velvet orbit"]),
 ("seed", f"Writing my MetaMask secret recovery phrase here since the paper got wet yesterday afternoon\n{W12}", ["velvet orbit"]),
 ("seed", f"助记词（24个）抄在这里了，之前那张纸被水泡了看不清，按顺序是 {W24}", ["velvet orbit"]),
 # answer several turns after question
 ("turns", "tom: what's the alarm code for the studio?\nann: hang on, checking my notes\nann: found it\nann: 4471, then press the hash key\ntom: thanks", ["4471"]),
 ("turns", "lee: what's the wifi password at the cabin?\nmia: one sec\nmia: the router sticker says\nmia: PineCone-8841\nlee: cheers", ["PineCone-8841"]),
 ("turns", "老板：收银机密码多少？\n小王：等一下我找找\n小王：找到了\n小王：Qx82kd7\n老板：好", ["Qx82kd7"]),
 ("turns", "agent: can you give me your passport number?\nme: sure, let me get it\nme: it's in the drawer\nme: K4839201\nagent: thanks", ["K4839201"]),
 ("turns", "客服：请提供一下身份证号\n我：稍等\n我：我去拿\n我：110101199003074512\n客服：好的", ["110101199003074512"]),
 ("turns", "bank: what's your account number for the refund?\nme: hold on\nme: it's 40218836 sort code 20-45-77\nbank: great", ["40218836"]),
 ("turns", "sam: what's the door code again\nkim: why\nsam: locked out lol\nkim: 5519#\nsam: ty", ["5519"]),
 # local-language document names
 ("doc", "マイナンバー: 1234 5678 9012。来週の手続きで使います。", ["1234 5678 9012"]),
 ("doc", "Her Personalausweisnummer is L01X00T47, she arrives Monday.", ["L01X00T47"]),
 ("doc", "Codice fiscale del cliente: RSSMRA85T10A562S, contratto firmato.", ["RSSMRA85T10A562S"]),
 ("doc", "주민등록번호 900101-1234567 로 가입했어요.", ["900101-1234567"]),
 ("doc", "His BSN is 123456782, needed for the Dutch payroll.", ["123456782"]),
 ("doc", "NIE del inquilino: X1234567L, entra el lunes.", ["X1234567L"]),
 ("doc", "台胞证号码 0123456789，下周来厂里。", ["0123456789"]),
 ("doc", "港澳通行证 C12345678，周五过关。", ["C12345678"]),
 ("doc", "他的护照号是E12345678，下周一出发。", ["E12345678"]),
 ("doc", "驾驶证号 320102198001011234，扣了3分。", ["320102198001011234"]),
 ("doc", "军官证号码：南字第1234567号，周三报到。", ["1234567"]),
 ("doc", "医保卡号 1234567890，下次复诊带上。", ["1234567890"]),
 ("doc", "Her Medicare card number is 2953 71840 1, for the claim.", ["2953 71840 1"]),
 ("doc", "社保号 3201 0219 8001 0112，单位已缴到十月。", ["3201 0219 8001 0112"]),
 ("doc", "SIN: 046 454 286, Canadian payroll starts in May.", ["046 454 286"]),
 ("doc", "The patient's NHS no. is 943 476 5919, seen on ward 6.", ["943 476 5919"]),
 ("doc", "Steuer-ID 12 345 678 901 für die Lohnabrechnung.", ["12 345 678 901"]),
 ("doc", "IBAN DE89 3704 0044 0532 0130 00, Miete bis zum 3.", ["DE89 3704"]),
 ("doc", "工资卡账号 6222 0212 3456 7890 123，开户行工商银行。", ["6222 0212"]),
 ("doc", "我的存折账号是 4100 2345 6789 012，转账后说一声。", ["4100 2345"]),
 ("doc", "口座番号は 1234567 です（三菱UFJ 新宿支店）。", ["1234567"]),
 ("doc", "계좌번호 110-234-567890 (신한은행)로 보내주세요.", ["110-234-567890"]),
 ("doc", "Kontonummer 1234567890 bei der Sparkasse, bitte bis Freitag.", ["1234567890"]),
 ("doc", "在留カード番号 AB12345678CD、更新は来月。", ["AB12345678CD"]),
 ("doc", "여권번호 M12345678 로 예약했습니다.", ["M12345678"]),
 ("doc", "運転免許証番号 123456789012 を控えてください。", ["123456789012"]),
 ("doc", "居住证号码 440300199001011234，租房合同要用。", ["440300199001011234"]),
 ("doc", "Numéro de sécurité sociale : 1 85 05 78 006 084 36, pour la mutuelle.", ["1 85 05 78 006 084 36"]),
 ("doc", "PESEL 44051401359, umowa od poniedziałku.", ["44051401359"]),
 # addresses with unit parts
 ("addr", "Send it to my place: Flat 4B, 22 Harbour Road, Brighton BN1 2AA.", ["22 Harbour Road"]),
 ("addr", "My home is Apt 12, 340 West 57th Street, New York, NY 10019 - ring twice.", ["340 West 57th"]),
 ("addr", "Home: Unit 5/17 Bay Street, Glebe NSW 2037.", ["17 Bay Street"]),
 ("addr", "我家地址：朝阳区望京西园三区312号楼2单元1102室，快递放门口。", ["1102室"]),
 ("addr", "寄到我家：上海市徐汇区漕溪北路88号5号楼1203室。", ["1203室"]),
 ("addr", "Room 803, Block B, 15 Keji Road, Nanshan District, Shenzhen - that's my flat.", ["15 Keji Road"]),
 ("addr", "I live at Suite 210, 1500 Pine Ave, Seattle WA 98101.", ["1500 Pine Ave"]),
 ("addr", "Forward my post to 7 Elm Close, Apartment 3, Leeds LS2 9JT please.", ["7 Elm Close"]),
 ("addr", "家里地址是北京市海淀区中关村南大街5号院3栋502，周末有人。", ["3栋502"]),
 ("addr", "我住在天河区体育西路103号维多利广场B座2806房。", ["2806"]),
 ("addr", "my new address: 2/F, 18 Tai Hang Road, Causeway Bay, Hong Kong", ["18 Tai Hang Road"]),
 ("addr", "Please mail the cheque home - Flat 9, Kings Court, 4 Station Rd, Cambridge CB1 2JB.", ["4 Station Rd"]),
 ("pw", "The server room door keypad got changed to 551903 yesterday, after Li Wei moved to the Xi'an office.", ["551903"]),
 ("pw", "储物柜密码锁现在是 739104（上周换的），钥匙在前台。", ["739104"]),
 ("pw", "Front desk PCs: reception / Kx!92mala, and the back-office laptop uses backoffice-2023pw. Shift starts 8.", ["Kx!92mala", "backoffice-2023pw"]),
 ("pw", "I set the new NAS password to Blue-Otter_447 this morning; the previous one (otter2019) no longer works.", ["Blue-Otter_447", "otter2019"]),
 ("pw", "家里路由器管理密码我改成了猫咪2024xyz，原来的admin888不用了。", ["猫咪2024xyz", "admin888"]),
 ("pw", "Cabin wifi is PineLodge!77 and the smart lock app login is owner / Lk9#treehouse.", ["PineLodge!77", "Lk9#treehouse"]),
 ("otp", "My bank sent the 2FA code just now: 4 8 2 9 1 7. Can you enter it?", ["4 8 2 9 1 7"]),
 ("otp", "Yesterday's login code from the tax portal was 552871; today it asked again.", ["552871"]),
 ("otp", "刚收到的短信验证码：三七九二零一，你帮我填一下。", ["三七九二零一"]),
 ("otp", "Authenticator app showed 118 402 when I linked the payroll account; backup code is QX7P-M2KD-9RTW.", ["118 402", "QX7P-M2KD-9RTW"]),
 ("otp", "Parcel locker pickup code for order #88213 is 7731, valid until Friday.", ["7731"]),
 ("otp", "Your Microsoft code is M-449102. Don't share it.", ["449102"]),
 ("card", "会员充值用的卡：6217 0012 3456 7890 123，背面三位 481，充了500。", ["481"]),
 ("card", "Visa ending 4242? no - the full one is 4242 4242 4242 4242, expires 11/27, CVV 118. Charged 60 USD.", ["118"]),
 ("card", "Amex for the deposit: 3782 822463 10005, exp 08/29, CID 4417.", ["4417", "3782 822463 10005"]),
 ("bank", "Please pay my half into my account, 6230 5800 1234 5678 at Ping An Bank, it's 1,250 for the trip.", ["6230 5800 1234 5678"]),
 ("bank", "欧元户账号 DE44 5001 0517 5407 3249 31，人民币户 6222021001122334455。", ["6222021001122334455"]),
 ("bank", "Landlord's account for the rent: 12-3456-7890123-00 (ASB), due on the 1st.", ["7890123"]),
 ("bank", "Supplier's personal HKD account (HSBC): 004-123456-001. Pay by Friday.", ["123456"]),
 ("id", "Emergency contact for the child's file: father Zhang Min, ID 110105198506073213.", ["110105198506073213"]),
 ("id", "报名表上填的身份证号码：王小明 440106200001011239，男。", ["440106200001011239"]),
 ("id", "Copied the seller's UK driving licence number: SMITH801155J99AB, full licence.", ["SMITH801155J99AB"]),
 ("id", "ugh the bank asked for my SSN again. it's 078-05-1120, same as before", ["078-05-1120"]),
 ("id", "台胞证号码 08123456，下周三来厂里。", ["08123456"]),
 ("id", '{"guest": "Ana Ruiz", "pasaporte": "XDA123456", "room": 12}', ["XDA123456"]),
 ("id", "The nurse needs his health card number - it's 1234-567-890-AB, Ontario.", ["1234-567-890"]),
 ("addr", "Please post the refund cheque to my home: Flat 2B, 19 Cedar Lane, Manchester M14 5RT.", ["19 Cedar Lane"]),
 ("addr", "Mail my W-2 home, not to the store: 88 Oak Street, Apt 4, Portland OR 97205.", ["88 Oak Street"]),
 ("addr", "我家：西安市雁塔区小寨东路15号院2号楼3单元601。", ["小寨东路15号"]),
 ("addr", "Home address for the insurance form: Room 902, Block 3, Jinxiu Garden, Futian District, Shenzhen 518000.", ["Jinxiu Garden"]),
 ("seed", "My Trezor backup (don't laugh, it's on a post-it): orbit velvet canyon mirror lunar bridge tonic harvest pledge quartz ember alpine", ["orbit velvet"]),
 ("seed", "钱包助记词我发你了：ocean tiger blanket rapid scout wisdom enrich famous pitch lobster cycle useful，收到删掉。", ["ocean tiger"]),
 ("key", "阿里云的AccessKey ID和Secret分别是 LTAI5tQ9xR2mL7vT4kP8 和 Wz3bC6yH1jF5sD0gAqN7xR2mL9vT4k，别外传。", ["LTAI5tQ9xR2mL7vT4kP8", "Wz3bC6yH1jF5sD0gAqN7xR2mL9vT4k"]),
 ("key", "[payment-gateway]\nmerchant_id = 88213047\nmerchant_secret = 4f9a1c7e3b2d8e6a0c5f9b7d1e3a8c2f", ["4f9a1c7e3b2d8e6a0c5f9b7d1e3a8c2f"]),
 ("key", "小李：把腾讯云的SecretId和SecretKey发我\n我：SecretId=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE，SecretKey=Gu5t9xGARNpq86cd98joQYCN3EXAMPLE", ["Gu5t9xGARNpq86cd98joQYCN3EXAMPLE"]),
]
KEEP = [
 ("lk", "Flat 4B is the show flat; viewings on Saturday.", ["Flat 4B"]),
 ("lk", "The conference is in Room 803 of the Shenzhen Convention Centre, 15 Keji Road.", ["Room 803"]),
 ("lk", "旗舰店地址：南京西路1266号恒隆广场5楼501室，营业至晚十点。", ["501室"]),
 ("lk", "tom: what's the meeting room?\nann: hang on\nann: 4471, second floor\ntom: thanks", ["4471"]),
 ("lk", "the wallet ad lists twelve words: secure simple private fast cheap light safe easy clean modern open free", ["secure simple"]),
 ("lk", "Passport photo booth is at gate 12, costs 8 EUR.", ["gate 12"]),
 ("lk", "客服：请问订单号是多少？\n我：稍等\n我：找到了\n我：20241107883\n客服：好的", ["20241107883"]),
 ("lk", "Dentist's flyer: \"Call us on 0800 555 0199 or drop in at 42 High Street, open Saturdays.\"", ["42 High Street", "0800 555 0199"]),
 ("lk", "VIN WP0ZZZ99ZTS392124 - 1996 911, matching numbers, auction lot 77.", ["WP0ZZZ99ZTS392124"]),
 ("lk", "病例编号CASE-2024-0087只是我们系统里的编号，不是身份证。", ["CASE-2024-0087"]),
 ("lk", "展览馆地址：北京市朝阳区北三环东路6号，周一闭馆。", ["北三环东路6号"]),
 ("lk", ".env.template\nJWT_SECRET=\nPORT=3000\nDATABASE_URL=postgres://localhost:5432/app", ["PORT=3000"]),
 ("lk", "School trips: bookings@sciencemuseum.example.org, weekdays only.", ["bookings@sciencemuseum.example.org"]),
 ("lk", "Our IPFS gallery: bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi (public).", ["bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi"]),
 ("lk", "sha256 of the installer: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", ["9f86d081884c7d659a2feaa0c55ad015"]),
 ("lk", "Tracking number 1Z999AA10123456784 for the bells, UPS ground.", ["1Z999AA10123456784"]),
 ("lk", "Gate 14, seat 22A, boarding 7:40 - flight CA1832.", ["22A", "CA1832"]),
]


def main() -> None:
    rows, tally = [], Counter()
    for side, probes in (("gone", GONE), ("keep", KEEP)):
        for kind, text, values in probes:
            out = redact(text).text
            ok = all((v not in out) if side == "gone" else (v in out) for v in values)
            rows.append({"side": side, "kind": kind, "ok": ok, "text": text, "out": out})
            tally[(side, kind, ok)] += 1
    kinds = sorted({(r["side"], r["kind"]) for r in rows})
    summary = {f"{s}:{k}": f"{tally[(s, k, True)]}/{tally[(s, k, True)] + tally[(s, k, False)]}" for s, k in kinds}
    json.dump({"label": sys.argv[1], "summary": summary, "rows": rows}, open(sys.argv[2], "w", encoding="utf-8"),
              ensure_ascii=False, indent=1)
    print(sys.argv[1], json.dumps(summary, ensure_ascii=False))


if __name__ == "__main__":
    main()
