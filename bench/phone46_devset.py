"""Redaction round 46 (phone46): the own in-sample set - 40 phone texts and 40 look-alikes, EN / ZH / other national
formats, written before any run of main or the branch on them. Writes bench/results/phone46/dev_set.jsonl.

    .venv/bin/python bench/phone46_devset.py
"""
import json

P = "pii"
L = "lookalike"
ROWS: list[tuple[str, str, list[str], list[str], str, str]] = [
    # kind, text, secrets, keep, category, lang
    # ---- phones: UK
    (P, "Lauren's home number is (020) 8734-1102 if the mobile is off.", ["8734-1102"], ["Lauren", "mobile is off"], "phone_uk", "en"),
    (P, "Ring Gareth on 0161 496 0732 after six, he's back from Leeds by then.", ["496 0732"], ["Gareth", "Leeds"], "phone_uk", "en"),
    (P, "My dad's landline: 0161 496 0732 - he never checks texts.", ["496 0732"], ["landline", "texts"], "phone_uk", "en"),
    (P, "Note for the plumber: I'm on +44 (0)20 7946 0958 all day Tuesday.", ["7946 0958"], ["plumber", "Tuesday"], "phone_uk", "en"),
    (P, "Emma gave me her flat's number, 0117 496 0285, for the parcel people.", ["496 0285"], ["Emma", "parcel"], "phone_uk", "en"),
    (P, "If the babysitter needs us she can try 01632 960 781 at my sister's.", ["960 781"], ["babysitter", "sister"], "phone_uk", "en"),
    # ---- Germany, Austria, Switzerland
    (P, "Jonas hat mir seine Nummer gegeben: 030 / 1234 5678, abends erreichbar.", ["1234 5678"], ["Jonas", "abends"], "phone_de", "de"),
    (P, "Call Mrs Hartmann at 089 / 2180 6642 about the flat keys.", ["2180 6642"], ["Hartmann", "flat keys"], "phone_de", "en"),
    (P, "Meine Handynummer ist 0151 2345 6789, bitte nur WhatsApp.", ["2345 6789"], ["WhatsApp"], "phone_de", "de"),
    (P, "Klaus privat: +49 (0)40 3861 2290 - nicht an die Firma weitergeben.", ["3861 2290"], ["Klaus", "Firma"], "phone_de", "de"),
    (P, "Sabine's Vienna number is +43 1 5879 4412, she prefers calls to email.", ["5879 4412"], ["Sabine", "Vienna"], "phone_at", "en"),
    # ---- France, Netherlands, Spain, Italy
    (P, "Le numéro perso de Claire : 06 71 24 93 58, après 18h.", ["71 24 93 58"], ["Claire", "18h"], "phone_fr", "fr"),
    (P, "Pieter's mobile is 06-4127 8830; he's in Utrecht this week.", ["4127 8830"], ["Pieter", "Utrecht"], "phone_nl", "en"),
    (P, "Carmen, mi vecina, tiene el 612 48 93 07 por si hay una fuga.", ["612 48 93 07"], ["Carmen", "fuga"], "phone_es", "es"),
    (P, "Giulia mi ha lasciato il suo cellulare: 347 812 5590.", ["347 812 5590"], ["Giulia"], "phone_it", "it"),
    # ---- US / CA / AU / JP / IN
    (P, "Aunt Rosa picks up at 415.728.3391 most mornings.", ["415.728.3391"], ["Aunt Rosa", "mornings"], "phone_us", "en"),
    (P, "Text Marcus at 1-312-555-0187 when the movers arrive.", ["312-555-0187"], ["Marcus", "movers"], "phone_us", "en"),
    (P, "Chloe's cell in Melbourne is +61 412 339 870, she's two hours ahead of Perth.", ["412 339 870"], ["Chloe", "Melbourne"], "phone_au", "en"),
    (P, "Tanaka-san's private number is 090-3581-2264; don't give it to the agency.", ["3581-2264"], ["Tanaka", "agency"], "phone_jp", "en"),
    (P, "Priya's mother can be reached on +91 98450 22317 during the wedding week.", ["98450 22317"], ["Priya", "wedding"], "phone_in", "en"),
    # ---- China, Hong Kong, Taiwan
    (P, "李老师家里的座机是 021-6432 8899 转 806，晚上打。", ["6432 8899"], ["李老师", "晚上"], "phone_cn", "zh"),
    (P, "我表姐的手机 138 0013 8000，快递放不下就打给她。", ["138 0013 8000"], ["表姐", "快递"], "phone_cn", "zh"),
    (P, "周阿姨的号码：186-1234-5678，周末在家。", ["186-1234-5678"], ["周阿姨", "周末"], "phone_cn", "zh"),
    (P, "小王换号了，新的是 +86 139 1066 2087，旧号别再打了。", ["139 1066 2087"], ["小王", "旧号"], "phone_cn", "zh"),
    (P, "他在深圳的住宅电话 0755 8832 6617，白天没人接。", ["8832 6617"], ["深圳", "白天"], "phone_cn", "zh"),
    (P, "陈先生香港的手提是 +852 9123 4567，只接WhatsApp。", ["9123 4567"], ["陈先生", "WhatsApp"], "phone_hk", "zh"),
    (P, "林小姐台北的手機 0912-345-678，晚上十點後別打。", ["0912-345-678"], ["林小姐", "台北"], "phone_tw", "zh"),
    (P, "妈妈的新号码是15811223344，记一下。", ["15811223344"], ["妈妈"], "phone_cn", "zh"),
    # ---- spoken digits EN / ZH
    (P, "He read it out: my number is one three eight, zero zero one three, eight zero zero zero.", ["one three eight, zero zero one three, eight zero zero zero"], ["read it out"], "phone_spoken", "en"),
    (P, "Tell Dana to call me on oh seven seven zero zero nine double zero one two three.", ["oh seven seven zero zero nine double zero one two three"], ["Dana"], "phone_spoken", "en"),
    (P, "我的手机是一三八零零一三八零零零，你存一下。", ["一三八零零一三八零零零"], ["你存一下"], "phone_spoken", "zh"),
    (P, "他报了号码：幺三九 一零六六 二零八七，说晚上联系。", ["幺三九 一零六六 二零八七"], ["晚上联系"], "phone_spoken", "zh"),
    (P, "Her mobile is seven one two, four five five, nine nine eight one - she spelled it slowly.", ["seven one two, four five five, nine nine eight one"], ["spelled it slowly"], "phone_spoken", "en"),
    # ---- more national forms, no cue word right before
    (P, "Saw Fiona at the school gate, 07700 900 461 is her new one.", ["07700 900 461"], ["Fiona", "school gate"], "phone_uk", "en"),
    (P, "Ask Herr Becker, 0171 / 482 5519, he still has the spare key.", ["482 5519"], ["Becker", "spare key"], "phone_de", "en"),
    (P, "Marie est joignable au 01.42.68.53.00 le matin.", ["42.68.53.00"], ["Marie", "matin"], "phone_fr", "fr"),
    (P, "The landlord, Mr Okafor, is on 020 7946 0321 ext. 14.", ["7946 0321"], ["landlord", "Okafor"], "phone_uk", "en"),
    (P, "赵姐的电话 (010) 6275 1234，有事直接打。", ["6275 1234"], ["赵姐"], "phone_cn", "zh"),
    (P, "Tom wrote his number on the receipt: 0412-339-870.", ["0412-339-870"], ["Tom", "receipt"], "phone_au", "en"),
    (P, "My brother's office line at home is 0131 496 0643, he works from the spare room.", ["496 0643"], ["brother", "spare room"], "phone_uk", "en"),
    # ---- look-alikes: order numbers, invoices, dates, amounts, versions, ISBNs, coordinates, tracking, ranges
    (L, "Order 4521-8890-1123 shipped from the Leeds warehouse on Monday.", [], ["4521-8890-1123"], "order_number", "en"),
    (L, "Invoice INV-2024-0042 for £1,234.50 is due on 15/03/2025.", [], ["INV-2024-0042", "1,234.50", "15/03/2025"], "invoice", "en"),
    (L, "The ISBN is 978-0-306-40615-7, second edition.", [], ["978-0-306-40615-7"], "isbn", "en"),
    (L, "ISBN 0 306 40615 2 is the paperback; the hardback differs.", [], ["0 306 40615 2"], "isbn", "en"),
    (L, "Meet at 51.5072, -0.1276 - the statue by the river.", [], ["51.5072, -0.1276"], "coordinates", "en"),
    (L, "GPS: 31.2304 N 121.4737 E, near the Bund.", [], ["31.2304", "121.4737"], "coordinates", "en"),
    (L, "Release 2.14.1023 went out on 2024-03-15 with the cache fix.", [], ["2.14.1023", "2024-03-15"], "version", "en"),
    (L, "Build 0161.496.0732 failed on the ARM runner again.", [], ["0161.496.0732"], "version", "en"),
    (L, "Tracking number 1Z 999 AA1 0123 4567 84 for the boots.", [], ["1Z 999 AA1 0123 4567 84"], "tracking", "en"),
    (L, "Royal Mail tracking: JD 0002 2133 4455 6677 8.", [], ["JD 0002 2133 4455 6677 8"], "tracking", "en"),
    (L, "The council tax bill was £1,842.60 for 2024/25.", [], ["1,842.60", "2024/25"], "amount", "en"),
    (L, "We raised €2 350 000 in the seed round, closing 30.06.2024.", [], ["2 350 000", "30.06.2024"], "amount", "en"),
    (L, "Room bookings 0900-1730 in rooms 0101 to 0420 only.", [], ["0900-1730", "0101", "0420"], "range", "en"),
    (L, "Batch 020 8734 1102 of the resin passed QC.", [], ["020 8734 1102"], "batch", "en"),
    (L, "Bestellnummer 030 1234 5678 ist noch offen.", [], ["030 1234 5678"], "order_number", "de"),
    (L, "Rechnung Nr. 2024/0815-4471 vom 03.04.2024, Betrag 1.250,00 EUR.", [], ["2024/0815-4471", "03.04.2024", "1.250,00"], "invoice", "de"),
    (L, "Commande n° 06 71 24 93 58 A expédiée hier.", [], ["06 71 24 93 58 A"], "order_number", "fr"),
    (L, "SIRET 732 829 320 00074 de la boulangerie.", [], ["732 829 320 00074"], "company_id", "fr"),
    (L, "Population grew from 13,800,138 to 14,001,322 over the decade.", [], ["13,800,138", "14,001,322"], "amount", "en"),
    (L, "Timestamp 20240315 103045 in the log header.", [], ["20240315 103045"], "timestamp", "en"),
    (L, "The test ran 1 380 013 800 iterations before the heap filled.", [], ["1 380 013 800"], "count", "en"),
    (L, "Flight LH 0400 departs 14:35, seat 21C.", [], ["LH 0400", "14:35"], "flight", "en"),
    (L, "Lottery numbers this week: 07 12 19 23 38 44.", [], ["07 12 19 23 38 44"], "numbers", "en"),
    (L, "The museum's switchboard is 020 7942 2000 for group bookings.", [], ["020 7942 2000"], "public_line", "en"),
    (L, "订单号 2024031512345678，已发货。", [], ["2024031512345678"], "order_number", "zh"),
    (L, "发票号码 04403190 0012 3456，金额 1380.00 元。", [], ["04403190 0012 3456", "1380.00"], "invoice", "zh"),
    (L, "快递单号 SF 1380 0138 0001，明天到。", [], ["SF 1380 0138 0001"], "tracking", "zh"),
    (L, "坐标 31.2304, 121.4737，外滩附近。", [], ["31.2304, 121.4737"], "coordinates", "zh"),
    (L, "版本 3.10.1380 修复了登录问题，发布于 2024-03-15。", [], ["3.10.1380", "2024-03-15"], "version", "zh"),
    (L, "共处理 138 0013 8000 条记录，耗时 42 秒。", [], ["138 0013 8000"], "count", "zh"),
    (L, "ISBN 978-7-5327-4882-3 是中译本。", [], ["978-7-5327-4882-3"], "isbn", "zh"),
    (L, "本季度营收 186,123,456.78 元，同比增长 12%。", [], ["186,123,456.78"], "amount", "zh"),
    (L, "中国银行客服热线 95566，全天服务。", [], ["95566"], "public_line", "zh"),
    (L, "故宫博物院的总机 010-8500 7421 可以预约团体参观。", [], ["010-8500 7421"], "public_line", "zh"),
    (L, "会议室 0301-0318 在三楼，2024年3月15日启用。", [], ["0301-0318"], "range", "zh"),
    (L, "型号 0755-8832-6617 的配件缺货。", [], ["0755-8832-6617"], "model", "zh"),
    (L, "The patch is KB5034 441; reboot after 0400 UTC.", [], ["KB5034 441", "0400 UTC"], "version", "en"),
    (L, "Sensor reading 0.01614960732 mV at 21.5 °C.", [], ["0.01614960732"], "measurement", "en"),
    (L, "Postcode SW1A 1AA, the palace's own code.", [], ["SW1A 1AA"], "postcode", "en"),
    (L, "Serial number 4412 5879 0043 on the router's base.", [], ["4412 5879 0043"], "serial", "en"),
]


def main() -> None:
    with open("bench/results/phone46/dev_set.jsonl", "w", encoding="utf-8") as f:
        for kind, text, secrets, keep, cat, lang in ROWS:
            assert all(s in text for s in secrets + keep), text
            f.write(json.dumps({"text": text, "kind": kind, "secrets": secrets, "keep": keep, "category": cat,
                                "lang": lang}, ensure_ascii=False) + "\n")
    n = {k: sum(1 for r in ROWS if r[0] == k) for k in (P, L)}
    print(n)


if __name__ == "__main__":
    main()
