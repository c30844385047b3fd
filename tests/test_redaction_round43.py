"""Redaction round 43 (issue 10): phone forms no reader took, an office's line as documented, authenticator apps by name.

- Forms: a country code after 00 or in brackets ("0044 20 7946 0321", "(+86) 10 6275 1234"), China's 86 with no +
  ("86-10-6275-1234"), a subscriber number in pairs after the area code ("0472 531 88 00", French "01 42 68 53 00"),
  a two-digit area code (Japan "03-5412-8890", Australia "(02) 9876 5432"), a German slash ("030/2847 5519") and a
  NANP number after its trunk 1 ("1 (415) 728 3391") were kept in clear, or redacted as a password by the tagger,
  where no cue stood right before them. They are now phones by shape wherever a number is not a quantity.
- docs/security.md said an office's plain phone without a public cue is redacted, while `redact_public` reads "office"
  as an organisation ("the safety office phone number is ..." kept). Redacting it moved 5 released non-PII texts (a
  department's and doctors' office lines), so the docs now say what the code does: in English an office's own line
  named as the office's is the organisation's; a person's office line and, in Chinese, 办公室电话 are redacted.
- A code an authenticator app shows, the app named ("my Authy says 771-204", "验证器App里现在是330871").
- From our own dev set (bench/results/pii43/dev_set.jsonl): a CVV under its other names ("Card security value (CVC2)
  for the company Mastercard: 561"), a home's postcode given after its label (邮编610041), an Eircode and a Dutch
  postcode, 博物院 as a public venue, a model / batch / lot number in a landline's shape.
Examples are our own (none copied from a set).
"""

from __future__ import annotations

import pytest
from redaction_round import TAGGER, round_tests

from hindsight.safety.redact import redact

FORMS = ["0472 531 88 00", "0472-531-88-00", "86-10-6275-1234", "86 10 6275 1234", "(+86) 10 6275 1234",
         "0086 (10) 6275 1234", "0044 20 7946 0321", "0049 30 2847 5519", "0033 1 42 68 53 00", "001 415 728 3391",
         "030/2847 5519", "0171/2345678", "01 42 68 53 00", "01.42.68.53.00", "03-5412-8890", "(03) 5412-8890",
         "06-6341-2298", "(02) 9876 5432", "02 9876 5432", "08 9325 4471", "1 (415) 728 3391"]
# a person's number with no contact cue right before it (a name, a cue after it, an informal verb)
SENTENCES = ["Wang Lei: {}", "{} is Jen's number, she said.", "找老周，{}。", "Ping me on {} if the bus is late.",
             "我姐家里 {}，晚上打。"]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("sentence", SENTENCES)
@TAGGER
def test_phone_form_redacted_as_a_phone(form: str, sentence: str, tagger: bool) -> None:
    out = redact(sentence.format(form), tagger=tagger).text
    assert form not in out and "[REDACTED:phone]" in out and "[REDACTED:password]" not in out, out
    assert sum(c.isdigit() for c in out) == 0, out  # no digit of it left beside the placeholder


GONE = [
    # a person's office line, EN and ZH, and a Chinese office's 办公室电话 (docs/security.md, the round-1 writer's)
    ("My office phone is (312) 874-2290, my desk is by the window.", ["(312) 874-2290"], ["my desk"]),
    ("Mr Li's office phone is 0161 496 0533.", ["0161 496 0533"], ["Mr Li"]),
    ("项目部办公室电话 0472-5318800，找刘工。", ["0472-5318800"], ["找刘工"]),
    ("王经理办公室电话 021-62345781，工作日打。", ["021-62345781"], ["工作日打"]),
    # authenticator apps by name, EN and ZH
    ("My Authy says 771-204 for the exchange login.", ["771-204"], ["exchange login"]),
    ("The Duo app is displaying 550231, type it in quickly.", ["550231"], ["Duo app"]),
    ("Okta Verify gave me 309 118 - paste it.", ["309 118"], ["Okta Verify"]),
    ("验证器App里现在是330871，三十秒内有效。", ["330871"], ["三十秒内有效"]),
    ("我手机上的身份验证器刚刷新，六位数是 812 470。", ["812 470"], ["身份验证器"]),
    # a card's code under another name, with its abbreviation and the card it is for
    ("Card security value (CVC2) for the company Mastercard: 561. Ask Finance first.", ["561"], ["Ask Finance first"]),
    ("The card verification number for my Visa: 772.", ["772"], ["my Visa"]),
    # a found address's postcode given after its label in the same sentence, ZH and EN
    ("我爸现在住成都市武侯区玉林北路18号附3号2栋1单元，邮编610041。", ["610041"], ["成都市"]),
    ("I live at 27 Marlowe Gardens in Cheltenham, postcode GL50 3PX.", ["GL50 3PX"], ["Cheltenham"]),
    # an Irish Eircode and a Dutch postcode (and floor) after a home's street line
    ("Forward my post to 9 Kerrigan Close, Swords, Co. Dublin K67 X2Y4 while I'm away.", ["9 Kerrigan Close", "K67 X2Y4"], ["Swords"]),
    ("His home is Keizersgracht 221-III, 1016 DV Amsterdam.", ["Keizersgracht 221", "1016 DV"], ["Amsterdam"]),
    # the forms after a cue too
    ("Call my cousin on 86-10-62751234 after 8pm.", ["86-10-62751234"], ["after 8pm"]),
    ("他家座机 0086 (10) 6275 1234，周末打。", ["6275 1234"], ["周末打"]),
]
KEEP = [
    # an office's own line named as the office's, in English (docs/security.md: the round-9 / 10 writers keep it), a
    # doctor's office (a practice), a public body's office, an office's address, a school office
    ("The smelter safety office phone number is 0472-5318800.", ["0472-5318800"]),
    ("Dr. Okafor's office number is (312) 874-2290.", ["(312) 874-2290"]),
    ("The tax office's number is 0300 200 3300.", ["0300 200 3300"]),
    ("The post office number is 020 7946 0155.", ["020 7946 0155"]),
    ("The office address is 5 Harbour Way, Leith EH6 6JJ.", ["5 Harbour Way"]),
    ("The school office phone is 020 7946 0123.", ["020 7946 0123"]),
    ("The tourist office hotline is 01 42 68 53 00.", ["01 42 68 53 00"]),
    ("客服热线：0472 531 88 00", ["0472 531 88 00"]),
    # a public venue by its kind (博物院, 研究院), a listed number said so before it
    ("故宫博物院地址：北京市东城区景山前街4号。", ["景山前街4号"]),
    ("The harbour office's listed number is +44 1632 960555.", ["+44 1632 960555"]),
    ("邮编610041是成都武侯区的。", ["610041"]),
    ("Meet at 12 High Street, Oxford at 10 AM today.", ["Oxford at 10 AM"]),
    # numbers of another kind in the new shapes: quantities, part numbers, dates, versions, hex, ranges
    ("共处理 0472 531 88 00 次请求。", ["0472 531 88 00"]),
    ("Part number 030/2847 5519 is back in stock.", ["030/2847 5519"]),
    ("型号 03-5412-8890，铭牌上写着。", ["03-5412-8890"]),
    ("Dump: 0010 2030 4050 6070 8090 a0b0", ["0010 2030 4050"]),
    ("Dates 01.02.03.04.05 and 12/05/2024 in the log.", ["01.02.03.04.05", "12/05/2024"]),
    ("Version 1.02.42.68.53.00 is out.", ["1.02.42.68.53.00"]),
    ("Seats 02 03 04 05 06 are free.", ["02 03 04 05 06"]),
    ("Lottery picks: 04 11 19 23 31 42 05 13.", ["04 11 19 23 31 42"]),
    ("Scores 86-10 and 86-12 tonight.", ["86-10", "86-12"]),
    ("订单号 7823 0019 4456 2210 已发货。", ["7823 0019 4456 2210"]),
    # a model, batch or lot number in a landline's shape, old forms and new
    ("The replacement part is model 0472-5318800 from the catalogue.", ["0472-5318800"]),
    ("Batch 86-10-6275-1234 was recalled by the supplier.", ["86-10-6275-1234"]),
    ("型号(0472)5318800，铭牌上写着。", ["5318800"]),
    ("Lot no. +44 20 7946 0321 is the odd one.", ["7946 0321"]),
    ("Authy codes refresh every 30 seconds; the app shows 6 digits.", ["30 seconds", "6 digits"]),
    ("验证器现在是最新版本 6.4.1。", ["6.4.1"]),
]

test_secret_gone_fact_kept, test_lookalike_kept = round_tests(GONE, KEEP)
