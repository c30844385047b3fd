"""Identifiers found by a cue or a checksum: vehicle plates and VINs, medical record numbers, Aadhaar,
ITIN, labelled IBANs, chat-bot webhook tokens and bare private-key material (DER base64, hex).

Like :mod:`hindsight.safety.redact_cues`, a value is taken either by a validated shape (VIN check
digit, Verhoeff for Aadhaar, a Chinese plate's province character) or by a cue right before it
("plate", "VIN", "MRN", "车牌", "病历号"), so look-alikes (order numbers, versions, hashes) stay.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_cues import declared_invalid
from hindsight.safety.validators import cn_id_shape, itin_valid, looks_random, verhoeff_valid, vin_valid

Span = tuple[str, int, int]

# What may stand between a cue and its value: "is", ":", "是", "为", "for the insurance quote:".
_SEP = r"(?:\s*(?:[:：=#,，]|\bis\b|\bwas\b|是|为|号码|号|no\.?|number|:)\s*){0,3}\s*"

# 京A·12345, 沪A D82719 (new-energy plates carry six characters), 粤B 9X7K2.
_CN_PLATE = re.compile(
    r"[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼]"
    r"[A-HJ-NP-Z][·•．. ]?(?=[A-HJ-NP-Z]*\d)[A-HJ-NP-Z0-9]{5,6}(?![A-Za-z0-9])"
)
_PLATE_CUE = re.compile(
    r"(?i)\b(?:licen[cs]e\s+plate|number\s+plate|registration\s+(?:plate|number)|reg\s+(?:plate|number)|plate)"
    r"(?:\s+(?:number|no\.?|#))?" + _SEP
    + r"(?P<value>(?-i:(?=[A-Z0-9 -]*\d)(?=[0-9 -]*[A-Z])[A-Z0-9](?:[A-Z0-9]|[ -](?=[A-Z0-9])){3,8}))(?![A-Za-z0-9])"
)
_VIN = re.compile(r"(?<![A-Za-z0-9])(?=[A-Z]*\d)[A-HJ-NPR-Z0-9]{17}(?![A-Za-z0-9])")
_VIN_CUE = re.compile(r"(?i)(?:\bVIN\b|vehicle\s+identification\s+number|车架号|车辆识别(?:代)?码)[^\n:：]{0,30}?[:：]?\s*$")
_MRN = re.compile(
    r"(?i)(?:\bMRN\b|medical\s+record\s+(?:number|no\.?|#)|patient\s+(?:id|number|no\.?)|\bNHS\s+(?:number|no\.?)|"
    r"病历号|病案号|住院号|门诊号|就诊卡号|医保卡号)" + _SEP + r"[(（]?(?P<value>(?=[A-Z0-9 -]*\d{4})[A-Z0-9](?:[A-Z0-9]|[ -](?=\d)){4,14})(?![A-Za-z0-9])"
)
# Round 17: a record number of an animal patient (a vet clinic's chart for a dog or a cat) is not a person's: the
# sentence around it names a pet, an animal or a vet (ZH names dogs and cats by breed: 金毛, 柯基, 布偶 ...).
_ANIMAL = re.compile(
    r"(?i)\b(?:pets?|dogs?|cats?|pupp(?:y|ies)|kittens?|vets?|veterinar(?:y|ian)|canine|feline|horses?|pony|rabbits?|hamsters?|"
    r"parrots?|spay(?:ed)?|neuter(?:ed)?)\b|宠物|[猫狗犬]|兽医|动物医院|金毛|泰迪|柯基|哈士奇|拉布拉多|萨摩|柴犬|比熊|边牧|德牧|"
    r"布偶|英短|美短|鹦鹉|兔子|仓鼠"
)
_RECORD_SENTENCE = re.compile(r"[。！？；;\n]|[.!?]\s")
# Round 18: a vehicle in a dealer's stock (its stock number, the lot, a listing, 库存, 在售) is nobody's car yet: its VIN
# is printed on the windscreen and the listing, an identifier of the stock, not of a person.
_STOCK = re.compile(
    r"(?i)\b(?:stock\s*(?:#|no\.?|number)?|inventory|on\s+the\s+lot|(?:front|back)\s+row|for\s+sale|listing|showroom|"
    r"auction\s+lot|dealer\s+stock|"
    # round 35: a vehicle's sale listing - its title, its owners, its asking price
    r"(?:clean|salvage|rebuilt)\s+title|(?:one|single)[\s-]owner|carfax|asking\s+(?:price|[$€£¥]|\d)|obo|sold\s+as[\s-]is|"
    # round 37 (blind r35): an auction's lot line - its lot number, the auction, bidding, the reserve, the hammer
    r"(?-i:Lot)\s*(?:#|no\.?\s*)?\d+|lot\s*(?:#|no\.?)\s*\d+|auction(?:s|ed)?|bid(?:s|ding)?|reserve\s+(?:price|not\s+met|met)|"
    r"hammer(?:\s+price)?)\b|"
    r"库存|在售|待售|展厅|车源|上架|寄售|一手车|售价|转让|出售|拍卖|拍品|起拍|竞拍|流拍|成交价"
)


def _in_sentence(cue: re.Pattern[str], text: str, start: int, end: int) -> bool:
    """The sentence around a value (60 characters each side at most) holds ``cue``."""
    before = _RECORD_SENTENCE.split(text[max(0, start - 60) : start])[-1]
    after = _RECORD_SENTENCE.split(text[end : end + 60])[0]
    return bool(cue.search(before) or cue.search(after))


def _animal_record(text: str, start: int, end: int) -> bool:
    """The sentence around a record number names an animal patient."""
    return _in_sentence(_ANIMAL, text, start, end)


_AADHAAR = re.compile(r"(?<![\d-])[2-9]\d{3}[ -]?\d{4}[ -]?\d{4}(?![\d-])")
_AADHAAR_CUE = re.compile(r"(?i)(?:\baadhaar|\bUIDAI|\bUID\b|आधार)[^\n\d]{0,24}$")
_ITIN = re.compile(r"(?i)\bITIN" + _SEP + r"(?P<value>9\d{2}[- ]?\d{2}[- ]?\d{4})(?![\d-])")
_IBAN_CUE = re.compile(r"(?i)\biban[\"']?\s*(?:[:=：]|is)?\s*[\"']?(?P<value>[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?)(?![A-Za-z0-9])")
# "地图 Web 服务 key 是 <32 hex>", "app_key: <32 hex>": hex is a hash elsewhere, but after an API/app key label it is the key.
# Round 19: a UUID after such a label is the key too ("AppKey 4e6c1f8a-92bd-..."; a bare UUID is an identifier), the
# separator may be a space, and the label may be glued to Chinese ("快递鸟AppKey", where "\b" never fires).
_HEX_API_KEY = re.compile(
    r"(?i)(?:(?<![A-Za-z0-9_])(?:api|app|application|access|secret|developer|web)[ _-]?key|(?<![A-Za-z0-9_])app[ _-]?secret|(?:服务|开发者|应用)\s*key)s?[\"']?"
    r"\s*(?:[:=：]|\bis\b|是|为)?\s*[\"'“]?(?P<value>[0-9a-f]{32,64}|[0-9A-F]{32,64}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"|[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12})(?![0-9A-Za-z-])"
)
# Incoming-webhook URLs of chat bots (Feishu/Lark, DingTalk, WeCom): whoever holds the token posts to the group.
_WEBHOOK = re.compile(
    r"(?i)(?:open\.(?:feishu\.cn|larksuite\.com)/open-apis/bot/v2/hook/|oapi\.dingtalk\.com/robot/send\?access_token=|"
    r"qyapi\.weixin\.qq\.com/cgi-bin/webhook/send\?key=)(?P<value>[A-Za-z0-9-]{20,})"
)
# Round 17: any incoming-webhook URL, whoever hosts it - the token is the URL's path segment after a hook segment
# ("https://open.example.com/open-apis/bot/v2/hook/<uuid>", "/api/webhooks/<id>/<token>", "/webhook/<uuid>") or its
# key / token parameter: a UUID or a random run of 20 or more characters ("/hooks/invoice", "/webhook/garage-door" name a route).
_ANY_WEBHOOK = re.compile(
    # bounded host, segments and query: a text of many "https://" starts costs linear time
    r"(?i)https?://[^\s/\"'<>]{1,100}(?:/[^\s/?#\"'<>]{1,64}){0,8}?/(?:web)?hooks?/(?:\d{6,20}/)?(?P<value>[A-Za-z0-9_-]{20,128})(?![A-Za-z0-9_-])|"
    r"https?://[^\s\"'<>?]{0,160}?(?:hook|robot|bot)[^\s\"'<>?]{0,160}\?(?:[^\s\"'<>#&]{0,160}&){0,6}(?:access_token|token|key)="
    r"(?P<v2>[A-Za-z0-9_-]{20,128})(?![A-Za-z0-9_-])"
)
_UUID = re.compile(r"(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _route_words(value: str) -> bool:
    """A route named in words ("garage-door-opener-main", "invoice-sync-handler-v2"), not a generated token: most of
    its characters are lower-case words or short version parts."""
    parts = [p for p in re.split(r"[-_]+", value) if p]
    plain = sum(len(p) for p in parts if (p.isalpha() and p.islower()) or re.fullmatch(r"v?\d{1,3}", p))
    return plain >= 0.6 * sum(len(p) for p in parts)
# A DER private key in base64 without its PEM armour: PKCS#8 ("MIIEvQIBADAN...") or PKCS#1 ("MIIEowIBAAKC...").
# A public key ("MIIBIjANBgkq...AAOCAQ8A") has no version INTEGER 0 and stays.
_DER_KEY = re.compile(r"(?<![A-Za-z0-9+/])MII[A-Za-z0-9+/]{1,3}(?:AgEA|IBA[AD])[A-Za-z0-9+/]{40,}+={0,2}")
# "私钥（hex）：7A3C...", "SM2 private key: 64 hex digits": a hex private key after an explicit private-key cue.
_HEX_PRIVATE = re.compile(
    r"(?i)(?:私钥|private[ _-]?key)(?:\s*[（(][^)）\n]{0,16}[)）])?\s*(?:[:：=]|\bis\b|是|为)\s*[\"'“]?"
    r"(?P<value>[0-9a-f]{64}|0x[0-9a-f]{64})(?![0-9a-z])"
)


# National numbers with a shape of their own: Italian codice fiscale, Brazilian CPF, Korean RRN (birth date, then
# a sex digit). Others need their cue: Singapore NRIC/FIN, Hong Kong and Taiwan IDs, a spaced Canadian SIN,
# and an 18-character PRC ID whose check character is wrong (a typo is still somebody's number after "身份证").
_CODICE_FISCALE = re.compile(r"(?<![A-Za-z0-9])[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z](?![A-Za-z0-9])")
_CPF = re.compile(r"(?<![\d.])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\d-])")
_RRN = re.compile(r"(?<![\d-])\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-[1-8]\d{6}(?![\d-])")
_ID_CUE = (r"(?i)(?:\bNRIC|\bFIN\b|\bHKID|\bIC\s+(?:no\.?|number)|\bSIN\b|\bsocial\s+insurance(?:\s+number)?|\bID\s+card|"
           r"\bnational\s+id(?:entity)?(?:\s+(?:no\.?|number|card))?|身份证|身分证|身分證|字号|证件号码?|香港身份证|居民身份证)")
_SPACED_SIN = re.compile(r"\d{3}[ -]\d{3}[ -]\d{3}")
_CUED_ID = re.compile(
    _ID_CUE + r"[^\n\d:：]{0,12}?" + _SEP
    + r"(?P<value>(?-i:[STFGM]\d{7}[A-Z]|[A-Z]{1,2}\d{6}\s?\(?[0-9A]\)?|[A-Z][12]\d{8}|\d{3}[ -]\d{3}[ -]\d{3}|\d{17}[\dXx]|"
    # the same 18 characters written in groups ("4403 0519 9709 2322 18"): its length and shape are tested below
    r"\d{2,8}(?:[ \u00a0-]\d{1,8}){2,6}(?:[ \u00a0-]?[Xx])?))(?![A-Za-z0-9])"
)


# Round 32 (blind r30): an 18-character PRC ID a few words after a bare "ID" ("Guardian ID for the kid's file: 4501...",
# "Tenant ID number 5101...", "Passenger ID: 3502..."), its province and birth date real, its check character wrong. What a
# wrong check character means is read from the text around it: the value is a sample only where its sentence says so
# ("is the sample with a wrong checksum", "a test ID", "校验位不对": ``declared_invalid``); otherwise it is told as
# somebody's number - a typo or a made-up digit leaves it a person's ID, and a store keeps it redacted.
_BARE_ID_CUE = re.compile(r"(?<![A-Za-z])ID\b[^\n\d]{0,30}?(?P<value>\d{17}[\dXx])(?![A-Za-z0-9])")


# A personal messaging account after its cue: "微信号 zhang_wei88", "QQ 号 123456789", "WeChat ID: lina-0921".
_IM_ACCOUNT = re.compile(
    r"(?i)(?:微信号|微信\s*id|\bwechat\s+id|\bweixin\s+id|\bQQ\s*号?(?:码)?|\bline\s+id|\bkakao(?:talk)?\s+id|"
    # "旧微信不用了，加他新的：zhang_law_2024": the account named a few words earlier, then "add him/me"
    r"(?:微信|wechat)[^\n。.;；]{0,12}?加(?:他|她|我)(?:的)?(?:新的|新号|新微信|微信)?)\s*(?:[:：]|是|为|\bis\b)?\s*"
    r"(?P<value>[A-Za-z][\w-]{5,19}|[1-9]\d{4,11})(?![\w-])"
)


def find_ids(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _CN_PLATE.finditer(text):
        out.append(("other_id", m.start(), m.end()))
    for m in _PLATE_CUE.finditer(text):
        out.append(("other_id", *m.span("value")))
    for m in _VIN.finditer(text):
        if vin_valid(m.group(0)) or _VIN_CUE.search(text, max(0, m.start() - 48), m.start()):
            # a stock vehicle's VIN is public: kept out of every finding and of the tagger (redact_vet)
            out.append(("public" if _in_sentence(_STOCK, text, m.start(), m.end()) else "other_id", m.start(), m.end()))
    for m in _MRN.finditer(text):
        if not _animal_record(text, *m.span("value")):
            out.append(("other_id", *m.span("value")))
    for m in _AADHAAR.finditer(text):
        # The cue is required: one random 12-digit number in ten passes Verhoeff.
        if _AADHAAR_CUE.search(text, max(0, m.start() - 40), m.start()) and (
                verhoeff_valid(re.sub(r"\D", "", m.group(0))) or len(set(re.findall(r"[ -]", m.group(0)))) == 1):
            out.append(("national_id", m.start(), m.end()))
    for m in _IM_ACCOUNT.finditer(text):
        out.append(("other_id", *m.span("value")))
    for pattern in (_CODICE_FISCALE, _CPF, _RRN):
        for m in pattern.finditer(text):
            out.append(("national_id", m.start(), m.end()))
    for m in _CUED_ID.finditer(text):
        value = m.group("value")
        joined = re.sub(r"[ \u00a0-]", "", value)
        if value[:1].isdigit() and joined != value and not _SPACED_SIN.fullmatch(value) and not (len(joined) == 18 and cn_id_shape(joined)):
            continue  # grouped digits after a cue: a spaced SIN (3-3-3) or an 18-character PRC ID, nothing else
        if (len(value) == 18 and value[:17].isdigit() and not cn_id_shape(value)) or declared_invalid(text, *m.span("value")):
            continue  # 18 digits after a cue must still carry a province and a birth date
        out.append(("national_id", *m.span("value")))
    for m in _BARE_ID_CUE.finditer(text):
        if cn_id_shape(m.group("value")) and not declared_invalid(text, *m.span("value")):
            out.append(("national_id", *m.span("value")))
    for m in _ITIN.finditer(text):
        if itin_valid(m.group("value")):
            out.append(("national_id", *m.span("value")))
    for m in _IBAN_CUE.finditer(text):
        out.append(("bank_account", *m.span("value")))
    for m in _HEX_API_KEY.finditer(text):
        if len(set(m.group("value").lower())) >= 8:  # not "0000..." or "ffff..."
            out.append(("api_key", *m.span("value")))
    for m in _WEBHOOK.finditer(text):
        out.append(("api_key", *m.span("value")))
    for m in _ANY_WEBHOOK.finditer(text):
        group = "value" if m.group("value") else "v2"
        value = m.group(group)
        if _UUID.fullmatch(value) or (looks_random(value, 20) and not _route_words(value)):
            out.append(("api_key", *m.span(group)))
    for m in _DER_KEY.finditer(text):
        out.append(("private_key", m.start(), m.end()))
    for m in _HEX_PRIVATE.finditer(text):
        out.append(("private_key", *m.span("value")))
    return out


# A password named in prose but not labelled next to its value ("my bank password is the same as my email
# one — Margarita#77", "the PDF is encrypted; open it with Q3-taxes-Ferris!"): a token shaped like a password
# (upper and lower case, a digit and a symbol) in the same sentence as a password word.
_PROSE_CUE = re.compile(r"(?i)\b(?:password|passphrase|passcode|passwd|encrypted|decrypt|unlock)\b|密码|口令|加密|解密")
# 10+: "Build#42" is a build name; round 27: a token ends at a Han character ("...重置成了Kyc2024!Shen" is the value after 了)
_TOKEN = re.compile(r"[^\s\"'`“”‘’()（）,，;；。<>\[\]{}\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]{10,64}")
_PW_SYMBOL = re.compile(r"[!@#$%^&*?~]")


def _password_shaped(value: str) -> bool:
    if re.match(r"\$(?:2[abxy]?|[56]|argon2\w*|scrypt|pbkdf2[-\w]*)\$", value):
        return False  # a crypt-format password hash (bcrypt $2b$..., sha512-crypt $6$...) is not the password
    if "://" in value or "=" in value or "/" in value or re.search(r"@[A-Za-z0-9-]+\.[A-Za-z]", value):
        return False  # a URL, a key=value pair, a path or an email: other finders own these
    return bool(re.search(r"[A-Z]", value) and re.search(r"[a-z]", value) and re.search(r"\d", value)
                and _PW_SYMBOL.search(value))


def find_prose_passwords(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _TOKEN.finditer(text):
        value = m.group(0).rstrip(".:")
        if not _password_shaped(value) or value.startswith("[REDACTED"):
            continue
        before = text[max(0, m.start() - 100) : m.start()]
        before = re.split(r"[。！？\n]|[.!?]\s", before)[-1]
        after = re.split(r"[。！？\n]|[.!?]\s", text[m.end() : m.end() + 40])[0]
        if _PROSE_CUE.search(before) or _PROSE_CUE.search(after):
            out.append(("password", m.start(), m.start() + len(value)))
    return out
