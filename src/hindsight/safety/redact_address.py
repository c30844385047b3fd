"""Postal addresses, English/European and Chinese, as spans to redact.

English: a house number, up to five capitalised words and a street type ("1427 Maple Ave"), or a
street type first as in French, Italian, Spanish ("16 Rue de Lille"), or a type suffix as in German, Nordic, Dutch
("Hauptstraße 5", "Hagagatan 14, lgh 1102", "Prinsengracht 263");
then optional unit, city, state/postcode. Chinese: an optional province/city/district prefix and
either a road with a house number (中山路57号) or a named estate or building (翠苑小区, 华星大厦)
followed by building / unit / floor / room parts (3栋2单元502室, 5栋702). Words of the sentence
before the address ("寄到", "公司搬到了") stay outside the span.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_public import RULED_OUT as _RULED_OUT
from hindsight.safety.redact_public import ZH_REGION_BEFORE as _ZH_REGION_BEFORE
from hindsight.safety.redact_public import public_address
from hindsight.safety.redact_vehicle import model_year

Span = tuple[str, int, int]

_STREET_TYPE = (r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Close|Crescent|"
                r"Parkway|Pkwy|Highway|Hwy|Square|Sq|Row|Mews|Gardens|Hill|Circle|Cir|Trail|Plaza|Walk|Quay|Parade|Grove|Gr|Rise|Green|"
                r"View|Park|Heights|Hts|Vale|Gate|Yard|Wharf|Loop|Ridge|Meadows?|Alley|Pike|Crossing|Xing|"
                r"Commons?|Embankment|Esplanade|Promenade|Broadway|Circus|Approach|Dale|Glen|Hollow|Knoll|Landing|Brow|Wynd)")
_UNIT = r"(?:Apt|Apartment|Unit|Suite|Ste|Flat|Floor|Fl|Room|Rm|#)\.?\s*#?\w{1,5}"
_EN_ADDRESS = re.compile(
    r"(?:\b(?:Apt|Apartment|Unit|Suite|Flat)\.?\s*#?(?:\w{1,5},?\s+|(?=\d{1,4}/\d)))?"  # "Unit 12, 88 ...", "Unit 7/212 ..."
    r"\b\d{1,5}[A-Za-z]?(?:[-/]\d{1,4}[A-Za-z]?)?\s+(?:(?:[A-Z][A-Za-z'.-]*|\d{1,3}(?:st|nd|rd|th))\s+){1,5}" + _STREET_TYPE + r"\b\.?"
    r"(?:\s+(?:N|S|E|W|NE|NW|SE|SW)\b\.?)?(?:,?\s*" + _UNIT + r")?"
)
# After the street line: the city and the state stay (they name a town and a region, not a home: "Columbus, OH",
# "Malvern VIC"); the US ZIP, Canadian or Australian postcode after the state / province, a UK postcode or a bare 4-6 digit postcode is
# redacted too. Round 28: up to three place names between ("Didsbury, Manchester M20 6RT": a district and a town).
_EN_POSTCODE = re.compile(
    r"(?:,?\s*[A-Z][a-z][A-Za-z.'-]*(?:\s+[A-Z][a-z][A-Za-z.'-]*){0,2}){0,3},?\s*"
    r"(?:(?:NSW|VIC|QLD|TAS|ACT|SA|WA|NT)\s+(?P<au>\d{4})(?!\d|[.,]\d)|[A-Z]{2}\s+(?P<zip>\d{5}(?:-\d{4})?)|[A-Z]{2}\s+(?P<ca>[A-Z]\d[A-Z]\s?\d[A-Z]\d)(?![A-Za-z0-9])|"
    # round 43: an Irish Eircode ("Swords, Co. Dublin K67 X2Y4") and a Dutch postcode ("1016 DV")
    r"(?P<post>[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}|[AC-FHKNPRTV-Y]\d{2}\s?(?=[0-9AC-FHKNPRTV-Y]*\d)[0-9AC-FHKNPRTV-Y]{4}(?![A-Za-z0-9])|"
    r"\d{4}\s?[A-Z]{2}(?![A-Za-z0-9])|\d{4,6}(?![\d,]|\.\d)))"
)
# "16 Rue de Lille, 75007 Paris", "12 Via Roma", "Calle Mayor 5": the street type comes first.
_EU_ADDRESS = re.compile(
    r"\b\d{1,5}(?:\s?(?:bis|ter))?,?\s+(?:[Rr]ue|Avenue|[Aa]v\.|[Bb]oulevard|Bd|[Pp]lace|[Qq]uai|[Cc]hemin|[Ii]mpasse|[Aa]llée|Via|Viale|Piazza|Corso|"
    r"Calle|Avenida|Plaza|Paseo|Rua|Carrer)\s+(?:(?:de|du|des|la|le|les|del|della|di|da|do|dos|d')\s*|[A-ZÀ-Ý][\w'-]*\s*){1,5}?"
    r"[A-ZÀ-Ý][\w'-]*"
    r"(?:,?\s*(?P<post>\d{4,5})\s+[A-Z][a-zé'-]+(?:[ -][A-Z][a-zé'-]+)?)?"
)
# "Calle de Alcalá 48", "Via Garibaldi 23", "Rua Augusta, 1200": the street type, its name, then the number.
_STREET_FIRST = re.compile(
    r"\b(?:Calle|Avenida|Av\.|Paseo|Plaza|Carrer|Rua|Travessa|Via|Viale|Piazza|Corso|Vicolo|Largo|Strada|Ulica|ul\.)\s+"
    r"(?:(?:de|del|de la|de los|da|do|dos|das|di|della|dei|delle)\s+)?(?:[A-ZÀ-Ý][\w'’.-]*\s+){0,3}?[A-ZÀ-Ý][\w'’.-]*,?\s+"
    r"\d{1,5}[A-Za-z]?(?![\d.,]\d)(?:,?\s*\d{1,2}\s?[ºª°](?:\s*(?:izq(?:da)?|dcha|der|dto|centro|[A-H])\.?)?)?"
    r"(?:,?\s*(?P<post>\d{4,5})\s+[A-ZÀ-Ý][\wà-ÿ'-]+)?"
)
# The street name carries its type as a suffix and the number follows: German "Hauptstraße 5"; round 17: Nordic
# ("Hagagatan 14, lgh 1102", "Nørregade 7", "Storgata 12"), Dutch ("Keizersgracht 123") and Finnish ("Mannerheimintie" is
# left out: "-tie" ends English words) streets too, a flat after the number (lgh / leil. / Whg. / Top / bus / app.), and a
# postcode before the town (4-5 digits, Swedish "113 48"): the postcode goes, the town stays, as in English.
_DE_ADDRESS = re.compile(
    r"\b[A-ZÅÄÖØÆ][a-zäöüßåæø-]+(?:straße|strasse|str\.|weg|allee|platz|gasse|ring|damm|ufer|chaussee|"
    r"gatan|gata|gaten|vägen|väg|gränd|torget|stigen|gade|vej|stræde|torv|veien|vegen|katu|kuja|straat|laan|gracht|plein|kade|singel|dijk)"
    r"\s+\d{1,4}[a-zA-Z]?(?:,?\s*(?:lgh|lägenhet|leil(?:ighet)?\.?|Whg\.?|Wohnung|Top|bus|app\.?|as\.|asunto)\s*\d{1,5}[A-Za-z]?)?"
    # round 43: a Dutch floor after the number ("Keizersgracht 221-III", "12-hs") and a Dutch postcode ("1016 DV Amsterdam")
    r"(?:-(?:I{1,3}|IV|hs|bg|\d{1,2})\b)?"
    r"(?:,\s*(?P<post>\d{4}\s?[A-Z]{2}|\d{4,5}|\d{3}\s\d{2})\s+[A-ZÅÄÖØÆ][a-zäöüßåæø-]+)?"
)
# Round 32: a Chinese address written in English, its house number first and the lane by its number ("No. 6, Lane 12,
# Cuihua Road", "Room 502, Building 3, No. 18 Jianshe North Road", "Lane 1285, Huaihai Middle Road"); the district and the
# city after it stay, the postcode goes (``_EN_POSTCODE``).
_CN_EN_ADDRESS = re.compile(
    r"(?:\b(?:Room|Rm|Flat|Apt|Apartment|Unit|Suite)\.?\s*[\dA-Z]{1,5}(?:-\d{1,4})?,\s*)?(?:\b(?:Unit|Entrance)\s*\d{1,3},\s*)?"
    r"(?:\b(?:Building|Bldg|Block|Blk|Tower)\.?\s*[\dA-Z]{1,4},\s*)?"
    r"(?:\bNo\.\s?\d{1,5}(?:-\d{1,4})?[A-Z]?,?\s+(?:(?:Lane|Alley|Nong|Hutong)\s+\d{1,5},?\s+)?|\b(?:Lane|Alley|Nong)\s+\d{1,5},?\s+)"
    r"(?:[A-Z][a-z'-]+\s+){1,3}(?:Road|Rd|Street|St|Avenue|Ave|Boulevard|Lu|Jie|Dajie|Dadao|Hutong|Alley|Lane)\b\.?"
)
# Round 45 (blind r40): a number counted out of another ("3 of 10", "2 out of 5") is no house number, and an
# English gerund ("Storing", "During", "Offering": a vowel before "-ring") is no German "-ring" street.
_COUNT_OF = re.compile(r"\s*(?:of|out\s+of)\s+\d")
_GERUND = re.compile(r"[A-Z][a-z]*[aeiouy]ring\s")
_PO_BOX = re.compile(r"(?i)\bP\.?\s*O\.?\s*Box\s+\d{1,6}\b")
# Round 19, other countries' forms. Japan in romaji: a block-lot-house number and the district ("5-12-3 Kichijoji Honcho",
# "Kitazawa 2-14-7"), told apart from a date or a score by a Japanese place after it (a -ku / -shi / -cho / -gun, a
# prefecture city, Japan) or a 〒 / NNN-NNNN postcode; the ward and the city stay, the postcode goes.
_JP_PLACE = (r"(?:[A-Z][a-z]+-(?:ku|shi|cho|machi|gun|ken)\b|\b(?:Tokyo|Osaka|Kyoto|Yokohama|Nagoya|Sapporo|Kobe|Fukuoka|Kawasaki|Saitama|"
             r"Hiroshima|Sendai|Chiba|Okinawa|Nara|Kanagawa|Hokkaido|Japan)\b|\d{3}-\d{4}\b)")
_JP_ADDRESS = re.compile(
    r"(?:\b\d{1,2}(?:-chome)?-\d{1,3}-\d{1,4}\s+[A-Z][a-z]+(?:[- ][A-Z][a-z]+){0,2}(?=,\s*(?:[A-Z][\w-]*,?\s+){0,2}" + _JP_PLACE + r")|"
    r"(?:(?<=-ku, )|(?<=-shi, )|(?<=-cho, ))[A-Z][a-z]+(?:[- ][A-Z][a-z]+){0,2}\s+\d{1,2}(?:-chome)?-\d{1,3}-\d{1,4}\b)"
    r"(?:(?P<between>[^\n.;]{0,60}?)\b(?P<post>\d{3}-\d{4})\b)?"
)
# Japan in its own script, or written in Chinese: after the ward / city / town (which stay), the district and
# 丁目-番地-号 or a dash triple ("東京都渋谷区渋谷2-21-1", "东京都世田谷区北泽2-14-7", "大阪市北区梅田3丁目1番3号").
_JP_KANJI = re.compile(
    r"(?<=[市区區町村郡])[\u4e00-\u9fff\u3040-\u30ff]{1,8}?\d{1,2}(?:丁目|[-－])\d{1,4}(?:番地?|[-－])\d{1,4}(?:号|號)?(?![\d-])"
)
_JP_POSTMARK = re.compile(r"〒\s?\d{3}-\d{4}")
# Korea: a road name ending 로 / 길 and the building number, then an optional 동 / 호 flat ("테헤란로 123, 101동 1502호").
_KR_ADDRESS = re.compile(r"[\uac00-\ud7a3]{1,10}(?:로|길)\s?\d{1,4}(?:-\d{1,4})?(?:번?길\s?\d{1,4})?(?:,?\s*\d{1,4}동)?(?:\s*\d{1,5}호)?")
# India: a flat or house number and the building or colony ("Flat 302, Sai Residency", "H.No. 12-3-45, Gandhi Nagar").
_IN_ADDRESS = re.compile(
    r"\b(?:Flat|Apt\.?|House|H\.\s?No\.?|Door\s+No\.?|Plot(?:\s+No\.?)?)\s*#?\s*[\w/-]{1,8},\s+(?:[A-Z][\w'-]*\s+){0,3}"
    r"(?:Residency|Apartments?|Towers?|Heights|Enclave|Nagar|Colony|Society|Complex|Villas?|Residences?|Mansions?|Layout|Vihar|Niwas|Bhavan)\b"
)
# Colombia's grid: "Calle 93 #11-26", "Carrera 7 No. 71-21".
_GRID_ADDRESS = re.compile(r"\b(?:Calle|Carrera|Cra\.?|Avenida|Transversal|Diagonal)\s+\d{1,3}[A-Z]?(?:\s?bis)?\s*(?:#|No\.?|N°)\s*\d{1,3}[A-Z]?\s?-\s?\d{1,3}\b")
# Singapore HDB flats: "Blk 123 Ang Mo Kio Ave 3, #05-67" (the unit "#05-67" is a home's).
_SG_ADDRESS = re.compile(r"\b(?:Blk|Block)\s+\d{1,4}[A-Z]?\s+(?:[A-Z][a-z]+\s+){1,4}(?:Ave|Avenue|St|Street|Rd|Road|Dr|Drive|Cres|Crescent|Ring|Link)"
                         r"(?:\s+\d{1,2})?(?:,?\s*#\d{1,2}-\d{1,5})?|#\d{2}-\d{2,5}(?=,?\s*Singapore\s+\d{6})|\d{1,4}[A-Z]?座\s*#\d{1,2}-\d{1,5}")

_HAN = r"[\u4e00-\u9fff]"
_NUM = r"[\dA-Za-z一二三四五六七八九十两]{1,5}"
_PART = r"(?:号楼|號樓|栋|棟|幢|座|单元|單元|门|層|层|楼|樓|室|号|號|户|房|弄|区|期|组)"
_REGION = (rf"(?:{_HAN}{{2,7}}(?:省|自治区))?(?:{_HAN}{{2,7}}市)?(?:{_HAN}{{1,7}}(?:区|县|镇|乡))?"
           rf"(?:{_HAN}{{2,6}}(?:街道|镇|乡))?")
_PARTS = rf"(?:\s*附?\s*(?:{_NUM}\s*{_PART}|[东西南北中]{{1,2}}区(?=\s*\d)))"
_ROAD = r"[\u4e00-\u9fffA-Za-z0-9]{0,12}?(?:路|街|大街|大道|道|巷|弄|胡同|里|村)(?:[东西南北中](?=[甲乙丙丁]?\d))?(?:[一二三四五六七八九十\d东西南北中]{1,3}段)?(?:[一二三四五六七八九十\d]{1,3}(?:巷|弄))?\s*[甲乙丙丁]?\d{1,5}(?:[-－]\d{1,4})?\s*(?:号|號|弄|组)"
_ESTATE = rf"{_HAN}{{1,10}}?(?:小区|花园|家园|公寓|新村|社区|大厦|大楼)"
# A weaker suffix (园, 苑, 城, 中心 ...) also ends "公园" or "市中心": it needs a building part ("3栋") or two parts.
_ESTATE_WEAK = rf"{_HAN}{{1,10}}?(?:广场|中心|苑|园|府|城|湾|庭|里|院)"
# After the road and number or the estate: more named buildings, building/unit/room parts, and a
# trailing bare room number ("5栋702").
# ... or building-unit-room written with dashes after the house number ("56-3号2-4-1", common in the north-east).
_AFTER = rf"(?:之[一二三四五六七八九十\d]{{1,2}})?(?:\s*(?:院|大院|[\u4e00-\u9fffA-Za-z]{{1,12}}?(?:小区|花园|家园|公寓|大厦|广场|中心|城|苑|园|府|院)))?{_PARTS}*(?:\s*\d{{1,3}}(?:[-－]\d{{1,4}}){{2}}(?![\d.-])|\s*[-－]?\d{{2,5}}(?![\d.]))?"
_ROOM_TAIL = r"(?:\s*[-－]?\d{2,5}(?![\d.]))?"
# Any named place with a building number and a room ("天通苑北一区 21 号楼 4 单元 601", "教工宿舍 15 栋 402"): a
# building part alone ("在3号楼开会") is a meeting place, a building with its room number is a home.
_BUILDING_ROOM = rf"{_HAN}{{2,12}}?\s*{_NUM}\s*(?:号楼|栋|幢|座)(?:\s*{_NUM}\s*(?:单元|层|楼))?\s*[-－]?(?:\d{{3,5}}|\d{{1,2}}[A-H](?![A-Za-z]))(?:室|房|号)?(?![\d.])"
_ZH_ADDRESS = re.compile(
    rf"(?P<region>{_REGION})(?:{_ROAD}{_AFTER}|{_ESTATE}{_PARTS}+{_ROOM_TAIL}|{_BUILDING_ROOM}|"
    rf"{_ESTATE_WEAK}(?:{_PARTS}{{2,}}|\s*{_NUM}\s*(?:号楼|栋|幢|座|单元|室)){_ROOM_TAIL})"
)
_ZH_ADDRESS_LEAD = re.compile(r"(?:到了|到|在|是|为|：|:|寄|送|址|住|于)")
_ZH_PLACE = re.compile(r"省|自治区|市|区|县|路|街|大道|道|巷|弄|胡同|小区|花园|家园|公寓|新村|社区|大厦|广场|苑|园|府|城|湾|庭|里|院|村")


# An organisation's published address ("Company HQ: ...", "Our office is ...", "公司地址：...", "Acme HQ (500 ...)") is a
# public contact.
_ORG_CUE = re.compile(r"(?i)(?:\b(?:office|offices|hq|headquarters|head office|company|campus|store|branch|showroom|reception|warehouse)"
                      r"(?:'s)?(?:\s+(?:address|is|are|located|at|in|on)){0,3}|"
                      # "HQ for the W-9: Lumen Analytics, ...": an organisation's seat, what the address is for, its name.
                      r"\b(?:hq|headquarters|head\s+office|registered\s+office|company|warehouse)(?:\s+address)?"
                      r"(?:\s+for\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?)?\s*[:：]\s*(?-i:[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})\s*,|"
                      r"(?:公司|总部|办公室|门店|营业厅|分公司|园区|售后|退货|维修|仓库)"
                      r"(?:的)?(?:前台|办公|服务|中心|部)?地址(?:是|为)?)\s*[:：(（]?\s*$|"
                      # A department of an organisation: "Returns Dept., 200 ...", "Service Center, ...".
                      r"(?-i:\b(?:Returns|Support|Service|Repairs?|Shipping|Receiving|Fulfil+ment)\s+(?:Dept\.?|Department|Cent(?:er|re)))\s*,?\s*$|"
                      # A named organisation right before the address: "Acme Support, 1200 ...", "Globex Inc., ...".
                      r"(?-i:\b[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3}\s+(?:Support|Inc\.?|LLC|Ltd\.?|Corp\.?|GmbH|Returns|"
                      r"Warehouse|Depot|Services?|Repairs?|Fulfil+ment)(?:\s+(?:Cent(?:er|re)|Dept\.?))?)\s*,?\s*$")
# A room of a workplace or a public building after the building and room number: not a home.
_NOT_A_HOME = re.compile(r"\s*(?:会议室|会议厅|报告厅|教室|实验室|机房|展厅|多功能厅|培训室|办公室|阶梯教室|演播厅|礼堂)")
# ... or named before it: "会议室改到B座1703", "培训在3号楼402": where a meeting or a class moves to.
_WORK_ROOM_BEFORE = re.compile(r"(?:会议室|会议|教室|实验室|机房|培训室|考场|开会|上课|培训|面试)[\u4e00-\u9fff]{0,3}?(?:在|到|于)")
_HOME_CUE = re.compile(r"(?i)\b(?:home|house|apartment|flat|lives?|my|his|her|their)\b|家|住|我|他|她")




def is_public_address(text: str, start: int) -> bool:
    """The address is announced as an organisation's (office, HQ, company address) and not as anyone's home."""
    before = text[max(0, start - 40) : start]
    region = _ZH_REGION_BEFORE.search(before)
    before = before[: region.start()] if region else before
    cue = _ORG_CUE.search(before)
    if cue is not None and _RULED_OUT.search(before, 0, cue.start()):
        return False  # round 39: "to my home, not the warehouse: 42 ..." names the workplace to rule it out
    return cue is not None and not _HOME_CUE.search(cue.group(0))


def find_addresses(text: str) -> list[Span]:
    """Private addresses (an organisation's or a public venue's stay) and, as kind ``public``, the public ones:
    the redactor keeps those ranges away from its other finders and the tagger."""
    out: list[Span] = []
    for group in _find_addresses(text):
        start, end = group[0][1], group[-1][2]
        if is_public_address(text, start) or public_address(text, start, end):
            out.append(("public", start, end))
        else:
            out.extend(group)
    return out


# A province / city / district the road match swallowed ("成都武侯区玉林南路6号..."): it names a town, not a home.
_REGION_HEAD = re.compile(r"(?:[\u4e00-\u9fff]{1,7}?(?:省|自治区|市|(?<![小社园校景厂矿街])区|县|旗))+")
_ROAD_OR_ESTATE = re.compile(r"[\u4e00-\u9fffA-Za-z]{1,14}?(?:路|街|大道|道|巷|弄|胡同|里|村|小区|花园|家园|公寓|新村|社区|大厦|大楼)")
# A large city written without 市 ("住成都玉林北路 17 号"): a data table, municipalities, provincial capitals and the
# other large cities. The road after it needs a name of two characters or more, so "南京西路" and "成都路" stay roads.
_CITY = ("北京|上海|天津|重庆|广州|深圳|成都|杭州|南京|武汉|西安|苏州|郑州|长沙|沈阳|青岛|宁波|东莞|无锡|厦门|福州|济南|大连|"
         "哈尔滨|长春|昆明|合肥|南昌|南宁|贵阳|太原|石家庄|兰州|乌鲁木齐|呼和浩特|银川|西宁|拉萨|海口|三亚|珠海|佛山|温州|"
         "绍兴|嘉兴|金华|台州|常州|南通|徐州|扬州|烟台|潍坊|洛阳|唐山|保定|泉州|惠州|中山|汕头|桂林|宜昌|襄阳|芜湖|绵阳|"
         "遵义|大理|丽江|香港|澳门|台北")
_CITY_HEAD = re.compile(rf"(?:{_CITY})(?:{_REGION_HEAD.pattern})?")
_NAMED_ROAD_OR_ESTATE = re.compile(r"[\u4e00-\u9fffA-Za-z]{2,14}?(?:路|街|大道|道|巷|弄|胡同|里|村|小区|花园|家园|公寓|新村|社区|大厦|大楼)")


def region_head(span: str) -> int:
    """The length of a region prefix of ``span`` when a road or an estate still follows it, else 0."""
    m = _REGION_HEAD.match(span)
    if m and _ROAD_OR_ESTATE.match(span, m.end()):
        return m.end()
    city = _CITY_HEAD.match(span)
    return city.end() if city and _NAMED_ROAD_OR_ESTATE.match(span, city.end()) else 0


def _find_addresses(text: str) -> list[list[Span]]:
    """Each address as its spans: a street line and, when it has one, its postcode (the town between stays)."""
    out: list[list[Span]] = []
    for pattern in (_EN_ADDRESS, _CN_EN_ADDRESS, _EU_ADDRESS, _STREET_FIRST, _DE_ADDRESS, _PO_BOX, _JP_ADDRESS, _JP_KANJI, _KR_ADDRESS, _SG_ADDRESS, _JP_POSTMARK,
                    _IN_ADDRESS, _GRID_ADDRESS):
        for m in pattern.finditer(text):
            group: list[Span]
            if "post" in pattern.groupindex and m.group("post"):  # "..., 28028 Madrid": the town stays, as in English
                cut = m.start("between") if "between" in pattern.groupindex else m.start("post")
                street_end = m.start() + len(text[m.start() : cut].rstrip(", "))
                out.append([("address", m.start(), street_end), ("address", *m.span("post"))])
                continue
            if pattern is _EN_ADDRESS and model_year(text, m.start(), m.end()):
                continue  # round 36: "the 2018 Triumph Street Triple" is a motorcycle
            if _COUNT_OF.match(text, m.end()) or pattern is _DE_ADDRESS and _GERUND.match(m.group(0)):
                continue  # round 45: "Storing 3 of 10 here": a count and an English gerund, not a street and its number
            group = [("address", m.start(), m.end())]
            post = _EN_POSTCODE.match(text, m.end()) if pattern in (_EN_ADDRESS, _CN_EN_ADDRESS) else None
            if post:
                group.append(("address", *post.span(next(g for g in ("zip", "ca", "au", "post") if post.group(g)))))
            out.append(group)
    for m in _ZH_ADDRESS.finditer(text):
        if _NOT_A_HOME.match(text, m.end()):
            continue  # "3 号楼 1205 会议室": a meeting room, not a flat
        if (room := _WORK_ROOM_BEFORE.search(text, max(0, m.start() - 8), m.end())) and not _HOME_CUE.search(text, room.start(), m.end()):
            continue
        # The region prefix is greedy over any Han characters: keep the sentence's own words
        # ("公司搬到了", "父母家的地址是") out of the span by cutting after the last lead-in
        # marker that comes before the first place suffix.
        span = m.group(0)
        first_place = _ZH_PLACE.search(span)
        if first_place:
            leads = list(_ZH_ADDRESS_LEAD.finditer(span[: first_place.start()]))
        else:  # round 19: a building named with no place suffix ("办公地点是学校官网写的工程楼B座417"): cut after the last
            # lead-in or "的" before the building's number, so a published cue stays in the clause before the address
            number = re.search(r"[\dA-Za-z一二三四五六七八九十两]", span)
            leads = list(re.finditer(_ZH_ADDRESS_LEAD.pattern + "|的", span[: number.start() if number else 0]))
        # The province / city / district names a town, not a home: the span starts at the road or estate.
        start = max(m.start() + (leads[-1].end() if leads else 0), m.end("region"))
        out.append([("address", start + region_head(text[start : m.end()]), m.end())])
    return out
