"""Contacts and payment numbers found by their own shape: emails, PRC resident IDs, cards, CVV codes, phones.

Each shape is validated where a checksum exists (Luhn for cards, GB 11643 for 身份证); phones must look
like a phone in their own numbering plan and must not be a count ("共执行 18612345678 次").
"""

from __future__ import annotations

import re

from hindsight.safety.redact_cues import NOT_PAYMENT_CARD, declared_invalid
from hindsight.safety.redact_cues import TEST_CARD as _TEST_CARD
from hindsight.safety.redact_phones import is_quantity
from hindsight.safety.validators import card_valid, cn_id_valid

Span = tuple[str, int, int]

_CVV = re.compile(
    r"(?i)(?:(?<![A-Za-z0-9])(?:cvv2?|cvc2?|cvn2?|cid|csc|card security code|security code|"
    # round 43: the value's other names, a bracketed abbreviation after them and the card they are for ("Card security
    # value (CVC2) for the company Mastercard: 561")
    r"card (?:security|verification) (?:value|number|code)(?: \((?:cvv2?|cvc2?|cvn2?|cid|csc)\))?(?: for (?:[\w'’&-]+ ){0,3}?"
    r"(?:card|visa|mastercard|amex|discover|unionpay|jcb)\b(?=\s*[:：]))?|(?:three|four|3|4)[- ](?:digits?|numbers?)(?: code)? (?:on|at|from) the back"
    r"(?: of (?:the|her|his|my|your|our) card)?(?: (?:are|is|reads?))?|(?:code|number|digits) on the back(?: of (?:the|her|his|my|your|our) card)?(?: (?:are|is|reads?))?)|安全码|校验码|(?:卡背面?|卡背后|背面|背后)(?:的)?(?:最?后|末)?(?:三|3|四|4)位(?:数|数字|码)?|cvv码)"
    r"\s*(?:code|number)?(?:\s+(?:on|at|from|printed on)\s+(?:the\s+)?\w+)?\s*(?:[:=：]|is|是|为)?\s*(?P<value>\d{3,4})(?!\d)"
)
# A card number after a card word: test numbers and made-up ones fail Luhn, but the sentence says what it is.
_CARD_CUE = re.compile(
    r"(?i)(?:\b(?:visa|mastercard|master card|amex|american express|discover|diners|jcb|unionpay|maestro|"
    r"(?:credit|debit|bank|company|corporate|business|travel|virtual|prepaid|payment)\s+card|card\s*(?:no\.?|number|#|on file)|cc\s*#?)|"
    r"信用卡|借记卡|储蓄卡|银行卡|银联卡?|卡号|公司卡|工资卡)[^\d\n]{0,16}?"
    # round 32: UnionPay's 6-digit issuer group first ("622848 0012 3456 7890", "621700 1234567890123")
    r"(?P<value>(?<![\d-])(?:\d{4}(?:[ -]?\d{4}){2,3}(?:[ -]?\d{1,3})?|\d{4}[ -]?\d{6}[ -]?\d{4,5}|\d{6}(?:[ -]\d{4}){3}(?:[ -]\d{1,3})?|\d{6}[ -]\d{10,13}))(?![\d-])"
)
_NOT_CARD_BEFORE = re.compile(r"(?i)(?:\border|\btracking|\binvoice|\bticket|\bshipment|\bparcel|\bref(?:erence)?|\bserial|\bSKU|订单|单号|运单|快递|发票|工单|序列号)"
                              r"[^\d\n]{0,12}$")
_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![A-Za-z0-9-])"
)
_CN_ID = re.compile(
    r"(?<![0-9A-Za-z])[1-9]\d{5} ?(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]) ?\d{3}[\dXx](?![0-9A-Za-z])"
)
_CARD = re.compile(r"(?<![\d.,/:-])\d(?:[ -]?\d){12,18}(?![\d-]|[.,]\d)")
# Card groups joined by dots or en / em dashes (attack round 26: `4111.1111.1111.1111`, `4111–1111–1111–1111` were kept
# in clear). Only a card's own grouping (a first group of 4, groups of 3-6) with one kind of joiner: a dotted version
# or a page range is no 13-19 digit Luhn-valid card number with an issuer prefix.
_CARD_JOINED = re.compile(r"(?<![\d.,/:\u2013\u2014-])\d{4}(?:[.\u2013\u2014-]\d{3,6}){2,4}(?!\d|[.,\u2013\u2014-]\d)")
_CN_MOBILE = re.compile(r"(?<![\d+])(?:(?:\+|00)86[\s-]?)?1[3-9]\d(?:[\s-]?\d{4}){2}(?![\d])")
_CN_MOBILE_PAREN = re.compile(r"\(\s*\+?86\s*\)\s*1[3-9]\d(?:[\s-]?\d{4}){2}(?!\d)")
_CN_LANDLINE = re.compile(r"(?<![\d-])0\d{2,3}-\d{7,8}(?![\d-])")
_INTL_PHONE = re.compile(
    r"(?<![\w+])\+[1-9]\d{0,2}[\s.-]?(?:\(\d{1,4}\)[\s.-]?)?\d{1,4}(?:[\s.-]?\d{2,4}){1,4}(?![\d])"
)
_NANP = re.compile(r"(?<![\w.-])(?:1[- ])?(?:\(\d{3}\)\s?|\d{3}[.-])\d{3}[.-]\d{4}(?![\w-])")
# Role mailboxes and service accounts reach an organisation, not a person: published contacts stay.
_ROLE_MAILBOX = re.compile(
    r"(?:support|help|helpdesk|service|servicedesk|customerservice|customer-?service|customer-?care|care|cs|kefu|kf|fuwu|tousu|info|"
    r"contact|hello|enquiries|inquiries|sales|bd|biz|business|hezuo|partners?|partnerships?|press|media|news|newsroom|pr|"
    r"communications|comms|marketing|sponsorship|security|psirt|cert|abuse|phishing|disclosure|privacy|gdpr|legal|compliance|dpo|"
    r"billing|invoices?|accounts|finance|payments?|procurement|purchasing|hr|jobs|careers|recruiting|"
    r"recruitment|hiring|talent|zhaopin|jianli|postmaster|webmaster|hostmaster|editors?|editorial|submissions?|tougao|fapiao|"
    r"orders?|bookings?|reservations?|returns|refunds?|complaints|claims|warranty|repairs|rma|shipping|ir|investors|events|conference|registration|tickets|membership|"
    r"donations?|volunteers?|community|newsletter|admissions|alumni|library|"
    r"tours?|visits?|visitors|groups|venues?|hire|schools|education|learning|shop|store|"  # round 39: a venue's desks
    r"noc|soc|netops|network-?ops|sre|oncall|on-call|outages?|itsupport|it-?help|"
    r"board|committee|council|admin-team|noreply|no-reply|donotreply|do-not-reply|notifications?|alerts?|feedback|team|office|reception)"
    # A suffix after "-", "_" or "+" names a desk or a copy (support-eu, hr_archive); after "." only a number or a
    # region code does ("sales.jenny" is a person in sales).
    r"(?:[_+-][a-z0-9]+|\.(?:\d+|[a-z]{2}|apac|emea|amer|latam|intl|global))?"
)
_SERVICE_DOMAIN = re.compile(r"(?i)\.(?:iam\.gserviceaccount\.com|users\.noreply\.github\.com)$"
)
# A template address in documentation: a placeholder name at an RFC 2606 / 6761 reserved domain ("you@example.com",
# "your.name@example.org"); a real-looking name there ("dev+alerts@mail.example.org") is still read as someone's.
_TEMPLATE_MAILBOX = re.compile(r"(?i)(?:you|your[._-]?(?:name|email|address)?|name|user(?:name)?|someone|somebody|me|email|"
                               r"first[._-]?last|firstname[._-]?lastname|foo|bar|test(?:user)?)@(?:[\w-]+\.)*"
                               r"(?:example\.(?:com|org|net)|[\w-]+\.(?:example|test|invalid|localhost))")
# Toll-free and shared-cost service lines: NANP 8xx, China 400/800, UK 0800/0808.
_SERVICE_PHONE = re.compile(r"^(?:\+?1[\s.-]?)?\(?8(?:00|33|44|55|66|77|88)\)?[\s.-]|^(?:400|800)[\s-]?\d{3}[\s-]?\d{4}$|^08(?:00|08)\b")


def is_public_contact(value: str) -> bool:
    """A role mailbox (support@, security@), a service account, or a toll-free / 400 service number."""
    if "@" in value:
        local, _, domain = value.partition("@")
        return bool(_ROLE_MAILBOX.fullmatch(local.lower()) or _SERVICE_DOMAIN.search("." + domain) or _TEMPLATE_MAILBOX.fullmatch(value))
    return bool(_SERVICE_PHONE.search(value.strip()))


def find_mailboxes(text: str) -> list[tuple[int, int]]:
    """Every mailbox's span, public ones too."""
    return [m.span() for m in _EMAIL.finditer(text)]


def find_contacts(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _EMAIL.finditer(text):
        local = m.group(0).split("@", 1)[0].lower()
        if local == "git" and text[m.end() : m.end() + 1] == ":":
            continue  # git@github.com:org/repo.git is a remote, not a mailbox
        if is_public_contact(m.group(0)):
            continue
        out.append(("email", m.start(), m.end()))
    for m in _CN_ID.finditer(text):
        if cn_id_valid(m.group(0)):
            out.append(("cn_id", m.start(), m.end()))
    for m in _CARD.finditer(text):
        raw = m.group(0)
        digits = re.sub(r"[ -]", "", raw)
        if not card_valid(digits):
            continue
        if (_NOT_CARD_BEFORE.search(text, max(0, m.start() - 20), m.start()) or _TEST_CARD.search(text, max(0, m.start() - 40), m.start())
                or NOT_PAYMENT_CARD.search(text, max(0, m.start() - 20), m.start())):
            continue  # "Order ID 4539 1488 0343 6467": a reference number that happens to pass Luhn; "test card 4242 ...": public
        groups = re.split(r"[ -]", raw)
        if len(groups) > 1 and (any(len(g) < 3 for g in groups) or len(set(re.findall(r"[ -]", raw))) > 1):
            continue  # "1 2345 6789 ..." or mixed separators: a list of numbers, not a card
        out.append(("card", m.start(), m.end()))
    out += _joined_cards(text)
    for pattern in (_CN_MOBILE_PAREN, _CN_MOBILE):
        for m in pattern.finditer(text):
            if not is_quantity(text, m.start(), m.end()):
                out.append(("phone", m.start(), m.end()))
    for m in _CN_LANDLINE.finditer(text):
        if not is_quantity(text, m.start(), m.end()):  # round 43: "model 0472-5318800" is a part
            out.append(("phone", m.start(), m.end()))
    for m in _INTL_PHONE.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        if 8 <= len(digits) <= 15 and not is_quantity(text, m.start(), m.end()):
            out.append(("phone", m.start(), m.end()))
    for m in _NANP.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))[-10:]
        if digits[0] in "23456789" and digits[3] in "23456789":
            out.append(("phone", m.start(), m.end()))
    return out


def _joined_cards(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _CARD_JOINED.finditer(text):
        joiners = set(re.findall(r"[.\u2013\u2014-]", m.group(0)))
        if joiners <= {"-"} or ("." in joiners and len(joiners) > 1):
            continue  # hyphens alone are _CARD's; dots mixed with dashes are no card's grouping
        digits = re.sub(r"\D", "", m.group(0))
        if not 13 <= len(digits) <= 19 or not card_valid(digits):
            continue
        if (_NOT_CARD_BEFORE.search(text, max(0, m.start() - 20), m.start()) or _TEST_CARD.search(text, max(0, m.start() - 40), m.start())
                or NOT_PAYMENT_CARD.search(text, max(0, m.start() - 20), m.start())):
            continue
        out.append(("card", m.start(), m.end()))
    return out


def find_card_codes(text: str) -> list[Span]:
    out = [("cvv", *m.span("value")) for m in _CVV.finditer(text)]
    for m in _CARD_CUE.finditer(text):
        digits = re.sub(r"\D", "", m.group("value"))
        if (13 <= len(digits) <= 19 and len(set(digits)) >= 3 and not declared_invalid(text, *m.span("value"))
                and not _TEST_CARD.search(text, max(0, m.start("value") - 40), m.start("value"))
                and not NOT_PAYMENT_CARD.search(text, max(0, m.start() - 6), m.start("value"))):
            out.append(("card", *m.span("value")))
    return out
