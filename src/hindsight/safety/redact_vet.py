"""The last word on the rules' findings before the tagger: what stays although a finder took it.

- Public contacts (:mod:`redact_public`): an address finder reports an organisation's or a venue's address as
  kind ``public``; a phone or email that reaches an organisation is recognised here. Their ranges are kept out
  of every other finding and handed to the tagger as taken, so it never scores them either.
- Password findings that are code or a URL: a type annotation (``password: str``, ``password: Optional[str]``), an
  operator (``user.password !== confirmPassword``, round 21)
  and a whole URL after a password label ("账号密码：https://u:pw@host" - the URL's own pattern takes only its
  password). Several finders read "password<sep>value"; the check lives here once instead of in each.
"""

from __future__ import annotations

import bisect
import re

from hindsight.safety.redact_contacts import is_public_contact
from hindsight.safety.redact_halves import named_public
from hindsight.safety.redact_labels import host_shaped, identifier_label
from hindsight.safety.redact_public import is_public_span, same_place
from hindsight.safety.validators import placeholder_words, stand_in_value

Span = tuple[str, int, int]

_CODE_TYPE = re.compile(r"(?:str|string|String|bytes|int|bool|SecretStr|SecretBytes|char|varchar(?:\(\d+\))?|text|Optional\[.*)\]?")
_URL = re.compile(r"(?i)^[a-z][a-z0-9+.-]*://")


# An EVM wallet address is public by design (it receives funds); its private key is 64 hex digits.
_WALLET_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")
# Contacts listed together ("+1 833 ... or baggage@...", "400-... / kefu@...") share their publicness.
_COORDINATED = re.compile(r"(?i)\s*(?:,|/|、|，|\bor\b|\band\b|或者?|和|及)\s*")


# Round 21: a comparison or assignment operator where a value would stand ("if (user.password !== confirmPassword)").
_OPERATOR = re.compile(r"[!=<>]==?|===?|:=")


def _not_a_password(value: str) -> bool:
    return bool(_CODE_TYPE.fullmatch(value) or _URL.match(value) or _OPERATOR.fullmatch(value))


_CONTACT = r"(\+?[\d(][\d\s().-]{6,}\d|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
_PREV_CONTACT = re.compile(_CONTACT + _COORDINATED.pattern[4:] + "$")
_NEXT_CONTACT = re.compile(_COORDINATED.pattern[4:] + _CONTACT)


def _coordinated(text: str, span: Span, public: list[tuple[int, int]]) -> bool:
    """A phone or email joined by "or" / "and" / a comma to a public contact of its clause (a finding judged public,
    or a toll-free number / role mailbox no finder reports)."""
    if span[0] not in ("phone", "email"):
        return False
    if any(_COORDINATED.fullmatch(text, b, span[1]) or _COORDINATED.fullmatch(text, span[2], a) for a, b in public):
        return True
    prev = _PREV_CONTACT.search(text[max(0, span[1] - 48) : span[1]])
    nxt = _NEXT_CONTACT.match(text, span[2])
    return any(m is not None and is_public_contact(m.group(1).strip()) for m in (prev, nxt))


# A value the writer declares public right after it: "AppID 是 wx…（这个可以公开）", "client id abc123 (public)".
_DECLARED_PUBLIC = re.compile(
    r"(?i)\s*[(（]\s*(?:这个|它|this(?: one)?|it)?\s*(?:可以公开|是公开的|公开的|不是秘密|不敏感|(?:is )?public|not (?:a )?secret|safe to share)\s*[)）]"
)

# Round 30: a key- or password-shaped value the sentence calls a stand-in right after it ("...\" 只是占位", "' is just a
# placeholder", "(dummy)", "- not a real key"): a fixture's value, not a credential.
_DECLARED_STAND_IN = re.compile(
    r"(?i)[\"'”’`]?\s*(?:[(（]\s*)?(?:(?:只是|仅是|仅为|就是|是)?(?:占位|假的|示例)|"
    r"(?:[-–—,]\s*|\bis\s+)?(?:(?:just|only)\s+)?(?:a\s+)?(?:placeholder|dummy|stand-?in|not\s+a\s+real\b))"
)

# A value the text names as a digest or a public identifier (round 13): after it, "(hash of poetry.lock)", "（文件的
# 哈希）"; right before it, a content ID, a cache key, a checksum or a parcel's tracking number ("IPFS CID 是 Qm...",
# "tracking 1Z 4F7 R22 03 8841 2950": only the number's own groups between the cue and the value).
_DECLARED_DIGEST = re.compile(
    r"(?i)\s*[(（]\s*(?:the\s+|a\s+)?(?:(?:sha-?\d*|md5|content)\s+)?(?:hash|checksum|digest)(?:es)?\b(?:\s+of\b)?|\s*[(（][^()（）\n]{0,12}(?:哈希|校验和|摘要)"
)
# Round 14: an order, invoice, commit, serial, VAT / company registration number or ISBN named right before it
# ("Order # 7Q2-99K1", "VAT number is GB 123 4567 89", "订单号 ...", "税号：...", "统一社会信用代码 ...").
# Round 17: the groups between the cue and the value are the number's own (capitals and digits, case-sensitive): a word
# ("freight tracking page: AIza...") ends the cue, so a key after "tracking page" is not a tracking number.
# Round 15: 工单号 / 版本号 / 构建号 too, and (_EXAMPLE_BEFORE) a value given as an example right after "e.g.", "for
# example", "such as", 例如, 比如 (with nothing but a colon or comma between), or right after a ticket / case / build /
# release number's own label ("Ticket ID:", "build no.").
_DIGEST_BEFORE = re.compile(
    r"(?i)(?:\b(?:ipfs\s+)?cid|\bcache[ _-]?key|\bchecksum|\bdigest|\bsha-?(?:1|256|512)|\bmd5|"
    r"\b(?:tracking|order|invoice|serial|vat|isbn|commit)(?:\s+(?:no\.?|number|#|id|ref))?|\b(?:company|business)\s+(?:registration\s+)?number|"
    # round 25: a CRC or a file's check code ("CRC32校验码是 9A3F04C1"), a hash or an ETag named right before it
    r"\bcrc-?(?:8|16|32|64)?(?:\s+(?:checksum|value|code))?|\b(?:file\s+)?hash(?:\s+value)?|\betag|"
    r"(?:crc-?\d*|md5|sha-?\d*|文件|数据|数据包|安装包|镜像)(?:的)?校验码|散列值?|"
    r"哈希值?|校验和|内容标识|订单号?|运单号|快递单号|物流单号|发票号码?|序列号|税号|纳税人识别号|统一社会信用代码|营业执照号|工单号?|版本号|构建号)"
    # round 37: the number's own groups, or a separator - not both: in "the delivery PIN for order 77310 is 5821" the
    # order's number is given (77310) and what "is" introduces is the PIN's value
    r"(?:\s*(?:[:：=#]|\bis\b|是|为))?(?:(?:\s+(?-i:[A-Z0-9]{1,6}))+|\s*(?:[:：=#]|\bis\b|是|为))?\s*$"
)
# Round 28: a shipment's own number right after its label - a container, a bill of lading, a booking, an air waybill;
# 柜号, 箱号, 提单号, 订舱号 - in a shipment number's shape (ISO 6346 "TGHU7734412", capitals and digits, a long number):
# the tagger read a container number after a one-time code as a password. No "is" between ("the container is 4719"
# names a door code's container) and no word ("booking API: sk_...").
_SHIPMENT_BEFORE = re.compile(
    r"(?i)(?:\b(?:container|cntr|bill\s+of\s+lading|b/l|bol|booking|awb|air\s*waybill|waybill|consignment)(?:\s+(?:no\.?|number|#|id|ref))?|"
    r"集装箱号?|柜号|箱号|提单号|提运单号|订舱号|报关单号|包裹号)\s*(?:[:：#]|是|为)?\s*$"
)
_SHIPMENT_VALUE = re.compile(r"[A-Z]{4}\d{6,7}|(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9-]{8,20}|\d{9,14}")
_EXAMPLE_BEFORE = re.compile(
    r"(?i)(?:\be\.g\.|\bfor\s+(?:example|instance)|\bsuch\s+as|\bexample\s*:|例如|比如|举例|示例|样例|范例)\s*[:：,，]?\s*$|"
    # a ticket / case / build / release number, named with its "number" / "ID" / "#" right before it
    r"\b(?:ticket|case|incident|request|build|release|version|ref(?:erence)?)\s*(?:no\.?|number|#|id)\s*(?:[:：=#]|\bis\b)?\s*$"
)
# Round 19: a value quoted from a vendor's documentation ("Sample Stripe key from their docs: sk_test_...").
_FROM_DOCS_BEFORE = re.compile(
    r"(?i)\b(?:from|in|per)\s+(?:the|their|its)\s+(?:[\w.-]+\s+)?(?:api\s+)?(?:docs|documentation|readme|quickstart|tutorial)\s*[:：,，]?\s*$|"
    r"文档里的?(?:示例|例子)?[:：]?\s*$"
)
# Round 26: a pagination or sync cursor ("next_token:", "pageToken=", "continuation token", "游标") opens the next page of
# a listing, not an account: an API hands it to whoever asked for the first page.
_CURSOR_BEFORE = re.compile(
    r"(?i)(?:\b(?:next|page|pagination|continuation|sync|resume)[ _-]?(?:token|cursor|marker|key)|\bnextPageToken|\bcursor|"
    r"\b(?:next|continuation)\s+(?:page\s+)?token|分页(?:令牌|游标|token)|游标|下一页(?:的)?(?:token|令牌))[\"']?\s*(?:[:：=]|\bis\b|是|为)?\s*[\"']?$"
)
# Round 38 (blind r36): a content identifier is the hash of what it names, public by design - an IPFS CID, v0 ("Qm" and
# 44 base58 characters) or v1 in base32 ("bafy...", "bafk..."); the tagger read one as a key.
_CONTENT_ID = re.compile(r"Qm[1-9A-HJ-NP-Za-km-z]{44}|baf[a-z2-7]{56,}")
# Round 38 (blind r36): a record number its sentence calls internal ("病历号P-2024-...只是诊所内部编号", "MRN ... is just
# the clinic's internal reference", "跟身份证没关系"): the clinic's own bookkeeping, not a person's identifier.
_DECLARED_INTERNAL = re.compile(
    r"内部(?:的)?(?:编号|号码?|流水号|序号|单号|记录号?|参考号)|(?:跟|和|与)身份证(?:号码?)?(?:没关系|没有关系|无关)|"
    r"(?i:\binternal\s+(?:reference|ref|record|number|id|code)s?\b|\bnothing\s+to\s+do\s+with\s+(?:the|your|his|her|their)\s+"
    r"(?:id|passport|identity)\b)"
)
_SENTENCE_REST = re.compile(r"[^。！？\n]{0,60}?(?=[。！？\n]|[.!?](?:\s|$)|$)")
_SHAPE_KINDS = frozenset({"api_key", "password", "other_id", "otp"})
# Round 29: kinds read from a value's shape that a record's label in front of it overrules (``redact_labels``): an
# application's number read as a phone, a customs entry's grouped number read as a password.
_LABELLED_KINDS = _SHAPE_KINDS | {"phone", "bank_account", "card", "national_id", "cn_id", "cvv", "card_expiry"}


# Round 37: an order or a parcel said of another noun ("the delivery PIN for your order is 4096", "the code of order
# 7731 is ...") modifies it: the value is the noun's, not the order's number.
_OF_BEFORE = re.compile(r"(?i)\b(?:for|of)\s+(?:(?:the|your|my|our|his|her|their|this|that|each|every)\s+)?$")


def _digest_label(text: str, start: int) -> bool:
    m = _DIGEST_BEFORE.search(text, max(0, start - 40), start)
    return m is not None and not _OF_BEFORE.search(text, max(0, m.start() - 24), m.start())


def _internal(text: str, end: int) -> bool:
    """The rest of the value's sentence (60 characters at most) calls it an internal number."""
    rest = _SENTENCE_REST.match(text, end)
    return rest is not None and _DECLARED_INTERNAL.search(rest.group(0)) is not None


def declared_public(text: str, end: int, start: int | None = None, kind: str = "") -> bool:
    """Does the text declare the value ending at `end` public ("（这个可以公开）", "(public)")? Given its start and
    kind, also: is a key-, password- or ID-shaped value named a digest or a public identifier ("(hash of ...)", "CID 是")?"""
    if _DECLARED_PUBLIC.match(text, end):
        return True
    if start is None or kind not in _LABELLED_KINDS:
        return False
    if identifier_label(text, start) or kind in ("api_key", "password", "other_id") and host_shaped(text[start:end]):
        return True  # round 29: "申请单号2024...", "Entry number 552-...": a record's number; a host is where a key goes
    if kind not in _SHAPE_KINDS:
        return False
    value = text[start:end]
    if _CONTENT_ID.fullmatch(value) or kind == "other_id" and _internal(text, end) or named_public(text, start, end):
        return True
    if placeholder_words(value) or kind != "other_id" and stand_in_value(value) or _DECLARED_STAND_IN.match(text, end):
        return True  # round 17: "api_key='test-key-000'" in a fixture; round 25: a credential's stand-in, "Bearer YOUR_TOKEN"
    return bool(_DECLARED_DIGEST.match(text, end) or _digest_label(text, start)
                or _EXAMPLE_BEFORE.search(text, max(0, start - 20), start)
                or bool(_SHIPMENT_VALUE.fullmatch(value)) and bool(_SHIPMENT_BEFORE.search(text, max(0, start - 30), start)) or _FROM_DOCS_BEFORE.search(text, max(0, start - 40), start)
                or kind == "api_key" and bool(_CURSOR_BEFORE.search(text, max(0, start - 30), start)))


# Round 45 (attack45): a capitalised name and a number ("Tomas-2014", "Fatima-10003") is a handle, a file or a record,
# not a password, unless the text gives a password cue before it or writes it as a credential pair ("admin:X",
# "user / X", "pw=X", "X@host").
#: Measured, OFF (bench/results/pii45/ship_rule.md): on the held-out non-PII texts it changed 1 of 107,459 ("because it's
#: Windows-1252" no longer read as a password: fewer redactions, the guard's verdict the same), and the ship rule allows
#: none. False: every password finding stays as the finders and the tagger read it.
NAME_NUMBER_KEPT = False
_NAME_NUMBER = re.compile(r"[A-Z][a-z]{2,}[-_.]?\d{2,6}")
_PASSWORD_CUE = re.compile(r"(?i)pass(?:wor|w)ds?\b|\b(?:passcode|passphrase|pass|pw|pwd|pin|creds?|credentials?|secret|auth|"
                           r"reset|changed|rotated)\b|密码|口令|暗号|重置")
_PAIR_BEFORE = re.compile(r"[:=/：]\s*[\"'`“]?$")


def name_with_number(text: str, kind: str, start: int, end: int) -> bool:
    """A password finding that is only a name and a number, with no password cue before it and no pair around it."""
    if not NAME_NUMBER_KEPT or kind != "password" or not _NAME_NUMBER.fullmatch(text, start, end):
        return False
    before = text[max(0, start - 200) : start]
    return not (_PASSWORD_CUE.search(before) or _PAIR_BEFORE.search(before) or text[end : end + 1] == "@")


def vet(text: str, spans: list[Span]) -> tuple[list[Span], list[tuple[int, int]]]:
    """The findings to redact, and the ranges of public contacts (kind ``public`` or a public phone/email) and of values
    the text declares public."""
    spans = [s for s in spans if not (s[0] == "password" and _not_a_password(text[s[1] : s[2]]))
             and not _WALLET_ADDRESS.fullmatch(text, s[1], s[2])]
    public = [(s[1], s[2]) for s in spans if s[0] == "public" or is_public_span(text, *s) or declared_public(text, s[2])]
    public += [(s[1], s[2]) for s in spans if (s[1], s[2]) not in public and _coordinated(text, s, public)]
    ranges = sorted(public)
    public += [(s[1], s[2]) for s in spans if s[0] in ("phone", "email") and same_place(text, s[0], s[1], s[2], ranges)]
    if not public:
        return spans, []
    # Overlap test by bisection over the merged public ranges: linear-logarithmic however many findings there are.
    merged: list[list[int]] = []
    for a, b in sorted(public):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    starts = [m[0] for m in merged]

    def shielded(start: int, end: int) -> bool:
        i = bisect.bisect_left(starts, end) - 1  # the last range that starts before this span ends
        return i >= 0 and merged[i][1] > start

    return [s for s in spans if s[0] != "public" and not shielded(s[1], s[2])], public
