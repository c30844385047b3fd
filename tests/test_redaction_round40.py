"""Redaction round 40 (issue 10): the kinds r30 - r37 missed that still fail on main in other wordings, in examples of
our own (none copied from a set).

Misses: a secret given as the answer several turns after the question in a chat, the turns between only stalling
("one sec", "稍等", "found it" - no number, no new question); a bank account asked for in a chat and answered; an
identity, health or bank document's number named by a local-language noun (在留カード, 運転免許証番号, 여권번호, 계좌번호,
口座番号, Steuer-ID, Kontonummer, numéro de sécurité sociale, tessera sanitaria ...) or a record key in a local language
(pasaporte, passeport); a ZH permit's number after 号码 with a wrong check character; a keypad code answered with "#";
an account named with what it is for or its bank in brackets; a home address ruling out a store (不是门店); a seed
phrase written out without quotes after a wallet named earlier in its line or the line before.
Look-alikes that stay: a turn with a number or a new question between closes the request; the asker's own later turn
after stalls is no answer; a document noun's date or count, a cloud's or a customer's account, a store's address
ruling out only a warehouse stay.
"""

from __future__ import annotations

from redaction_round import round_tests

_WORDS_12 = "velvet orbit canyon mirror lunar bridge tonic harvest pledge quartz ember alpine"

# (text, the values that go, the facts that stay)
GONE = [
    # a secret answered several turns after the question, the turns between stalling
    ("lee: what's the wifi password at the cabin?\nmia: one sec\nmia: the router sticker says\nmia: PineCone-8841\nlee: cheers",
     ["PineCone-8841"], ["router sticker"]),
    ("老板：收银机密码多少？\n小王：等一下我找找\n小王：找到了\n小王：Qx82kd7\n老板：好", ["Qx82kd7"], ["收银机"]),
    ("agent: can you give me your passport number?\nme: sure, let me get it\nme: it's in the drawer\nme: K4839201\nagent: thanks",
     ["K4839201"], ["in the drawer"]),
    ("客服：请提供一下护照号码\n我：稍等\n我：我去拿\n我：E39182734\n客服：好的", ["E39182734"], ["我去拿"]),
    ("tom: what's the alarm code for the studio?\nann: hang on, checking my notes\nann: found it\nann: 4471, then press the hash key\ntom: thanks",
     ["4471"], ["hash key"]),
    ("sam: what's the door code again\nkim: why\nsam: locked out lol\nkim: 5519\nsam: ty", ["5519"], ["locked out"]),
    ("师傅：手机收到验证码了吗？\n我：等等\n我：还没\n我：来了\n我：583920\n师傅：好了", ["583920"], ["还没"]),
    # a bank account asked for in a chat, answered
    ("bank: what's your account number for the refund?\nme: 40218836, sort code 20-45-77\nbank: great", ["40218836"],
     ["refund"]),
    ("会计：工资打到哪个账户？\n我：稍等\n我：6222 0212 3456 7890 123，工商银行\n会计：收到", ["6222 0212 3456 7890 123"],
     ["工商银行"]),
    # a document's number named by a local-language noun (JP / KR / EU)
    ("在留カード番号 AB12345678CD、更新は来月。", ["AB12345678CD"], ["更新は来月"]),
    ("運転免許証番号は 301234567890 です。", ["301234567890"], ["運転免許証"]),
    ("여권번호 M12345678 로 예약했습니다.", ["M12345678"], ["예약했습니다"]),
    ("口座番号 1234567（三菱UFJ 新宿支店）に振り込んでください。", ["1234567"], ["新宿支店"]),
    ("계좌번호 110-234-567890 (신한은행)로 보내주세요.", ["110-234-567890"], ["신한은행"]),
    ("Steuer-ID 12 345 678 901 für die Lohnabrechnung.", ["12 345 678 901"], ["Lohnabrechnung"]),
    ("Kontonummer 1234567890 bei der Sparkasse, bitte bis Freitag.", ["1234567890"], ["Sparkasse"]),
    ("Numéro de sécurité sociale : 1 85 05 78 006 084 36, pour la mutuelle.", ["1 85 05 78 006 084 36"], ["mutuelle"]),
    ("Tessera sanitaria n. 80380000012345678901, scade nel 2027.", ["80380000012345678901"], ["scade nel 2027"]),
    ("健康保険証の記号番号は 1234-5678 です、来院時に提示。", ["1234-5678"], ["来院時に提示"]),
    # a permit's number right after "号码" (the label decides, not the check character)
    ("居住证号码 440300199001011234，租房合同要用。", ["440300199001011234"], ["租房合同"]),
    ("台胞证号码：44030019900101123X，下周来厂里。", ["44030019900101123X"], ["下周来厂里"]),
    # a keypad code answered with its "#"
    ("sam: what's the door code again\nkim: why\nsam: locked out lol\nkim: 5519#\nsam: ty", ["5519"], ["locked out"]),
    ("阿姨：单元门密码多少？\n我：8830#，按完等一下", ["8830"], ["按完等一下"]),
    # an account named with what it is for or its bank in brackets, then a colon
    ("Landlord's account for the rent: 12-3456-7890123-00 (ASB), due on the 1st.", ["7890123"], ["due on the 1st"]),
    ("Supplier's personal HKD account (HSBC): 004-123456-001. Pay by Friday.", ["123456"], ["Pay by Friday"]),
    ("My account for the refund: 40218836, sort code 20-45-77.", ["40218836"], ["refund"]),
    # a record's key names the document in a local language
    ('{"guest": "Ana Ruiz", "pasaporte": "XDA123456", "room": 12}', ["XDA123456"], ['"room": 12']),
    ("client: {name: 'Luc Martin', passeport: '19AB12345', nuits: 3}", ["19AB12345"], ["nuits: 3"]),
    # a home address whose sentence rules out a shop or store named as public
    ("Mail my W-2 home, not to the store: 88 Oak Street, Apt 4, Portland OR 97205.", ["88 Oak Street"], ["W-2"]),
    ("寄到我家，不是门店：成都市武侯区玉林南路12号4栋2单元501室。", ["玉林南路12号"], ["寄到我家"]),
    # a seed phrase written out without quotes, its wallet named earlier in the line
    (f"dad: I put the bitcoin wallet recovery words on the back of the calendar, here they are in case it gets lost: {_WORDS_12}\nme: please delete",
     ["velvet orbit", "ember alpine"], ["calendar"]),
    (f"The hardware wallet's backup phrase, which I copied from the card in the safe last Tuesday before the move, is {_WORDS_12}. Keep it offline.",
     ["velvet orbit", "ember alpine"], ["Keep it offline"]),
    (f"爸：比特币钱包的助记词我写在日历背面了，怕丢了再记一份在这里\n{_WORDS_12}\n我：删掉吧", ["velvet orbit", "ember alpine"],
     ["日历背面"]),
]

KEEP = [
    # a new question between closes the request
    ("tom: what's the wifi password?\nann: ask Li, she set it up\ntom: what's the room then?\nann: 4471, second floor",
     ["4471"]),
    ("客服：请提供护照号码\n我：没带\n客服：那订单号呢？\n我：E39182734", ["E39182734"]),
    # a turn with a number between closes it
    ("jo: what's the alarm code?\nli: ask the manager\nli: she's in room 12\nli: 3391, that's her extension", ["3391"]),
    # the asker's own turn after stalls is no answer
    ("tom: what's the wifi password?\nann: no clue\ntom: ok I'll ask the host\ntom: 4471, that's the house number btw",
     ["4471"]),
    # a document noun's date, a room number
    ("在留カード番号の更新は 2025-04-01 まで。", ["2025-04-01"]),
    ("Kontonummer siehe Rechnung vom 12.03.2024, danke.", ["12.03.2024"]),
    # a cloud or a customer account is no bank account; a store's address stays when only the warehouse is ruled out
    ("AWS account (prod): 123456789012, region us-east-1.", ["123456789012"]),
    ("Customer account (portal): 4402187734, log in to see invoices.", ["4402187734"]),
    ("Visit the store, not the warehouse: 12 Dock Road, open 9-5.", ["12 Dock Road"]),
    # a local document noun before a date, an amount or a count; NIR as near-infrared
    ("運転免許証の交付日 20240401、更新は5年後。", ["20240401"]),
    ("계좌 이체 내역 202411 건수 확인", ["202411"]),
    ("The NIR sensor model ABC123456 ships in May.", ["ABC123456"]),
    # a plain sentence of a wallet's line with prose words is no seed phrase
    ("the wallet app says: back up your words now and keep them in a safe place at home", ["back up your words"]),
]

test_secret_gone_fact_kept, test_lookalike_kept = round_tests(GONE, KEEP)
