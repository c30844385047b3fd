"""Redact secrets and personal data before a memory is stored.

A memory outlives the conversation that produced it and is replayed into many
later prompts, so a pasted API key or phone number would leak again and again.
Redaction replaces the sensitive *value* with a typed placeholder such as
``[REDACTED:email]`` and keeps the sentence, so the memory stays useful ("the
user's email is [REDACTED:email]").

Precision matters as much as recall: a memory store full of version strings,
git hashes, order numbers and timestamps must not be shredded. So every numeric
kind is validated, not just matched: Chinese resident IDs by date and the
ISO 7064 MOD 11-2 checksum, card numbers by issuer prefix and Luhn, tokens by
known prefixes or by entropy after an explicit ``key=``/``token:`` label.

This module finds keys and tokens and resolves overlaps between all findings;
the other finders live in ``redact_passwords`` (passwords after a label, login pairs, URL user info),
``redact_contacts`` (emails, IDs, cards, phones by shape),
``redact_context`` (values named by the sentence around them), ``redact_cues`` (values announced by an EN/ZH cue: one-time
codes, passports/SSNs, bank accounts, card expiry), ``redact_shapes`` (a cue anywhere in the clause and a value
found by its shape: bridged passwords, card codes, key material, seed phrases, spelled contacts),
``redact_address`` and ``validators`` (the checksums); ``redact_spelled`` reads spoken forms as written ones and
``redact_echo`` adds the values a found value vouches for (a restatement, a sibling account, its record's expiry). What the rules leave, ``redact_tagger`` (a learned
per-token second opinion) scores.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from hindsight.safety.redact_address import find_addresses
from hindsight.safety.redact_answers import find_answered_values, find_sent_values
from hindsight.safety.redact_banked import find_banked_accounts
from hindsight.safety.redact_bound import find_bound_values
from hindsight.safety.redact_brackets import bracketed_findings
from hindsight.safety.redact_clause import find_clause_passwords, find_contact_phones, find_labelled_addresses
from hindsight.safety.redact_contacts import find_card_codes, find_contacts, find_mailboxes
from hindsight.safety.redact_context import find_card_combo, find_context_secrets
from hindsight.safety.redact_credentials import (
    code_expression,
    code_statement,
    find_cli_passwords,
    find_credentials,
    find_key_ids,
    find_labelled_hex,
)
from hindsight.safety.redact_cues import (
    find_bank_accounts,
    find_card_expiry,
    find_national_ids,
    find_otp,
    find_spelled_emails,
)
from hindsight.safety.redact_documents import find_followed_numbers, find_local_numbers
from hindsight.safety.redact_echo import find_echoes
from hindsight.safety.redact_entered import find_entered_codes
from hindsight.safety.redact_estate import find_estate_addresses
from hindsight.safety.redact_expiry_code import find_expiry_codes
from hindsight.safety.redact_extent import bound, bound_all
from hindsight.safety.redact_fold import fold_for_finders, imitates_latin
from hindsight.safety.redact_glued import find_glued_values
from hindsight.safety.redact_ids import find_ids, find_prose_passwords
from hindsight.safety.redact_keypad import find_keyed_codes
from hindsight.safety.redact_lines import find_line_partners
from hindsight.safety.redact_mixed import find_mixed_passwords
from hindsight.safety.redact_named import find_named_ids
from hindsight.safety.redact_passwords import find_passwords
from hindsight.safety.redact_phones import find_phones
from hindsight.safety.redact_quoted_seed import find_quoted_seeds
from hindsight.safety.redact_read_out import find_read_out_codes
from hindsight.safety.redact_records import find_record_values
from hindsight.safety.redact_replaced import find_replaced_values
from hindsight.safety.redact_reset import find_reset_values
from hindsight.safety.redact_respective import find_respective_values
from hindsight.safety.redact_roles import find_role_values
from hindsight.safety.redact_shapes import (
    find_card_security_codes,
    find_cued_passwords,
    find_key_material,
    find_spelled_contacts,
    find_structured,
)
from hindsight.safety.redact_short_keys import find_short_keys
from hindsight.safety.redact_spelled import spelled_findings
from hindsight.safety.redact_structure import find_structured_secrets
from hindsight.safety.redact_subjects import find_subject_values, find_unlabelled_values
from hindsight.safety.redact_tagger import TaggerModel, find_tagged
from hindsight.safety.redact_told import find_told_codes
from hindsight.safety.redact_turns import find_turn_codes
from hindsight.safety.redact_urls import find_url_secrets
from hindsight.safety.redact_vet import declared_public, name_with_number, vet
from hindsight.safety.redact_wifi import find_wifi_passwords
from hindsight.safety.redact_window import (
    find_card_numbers,
    find_cards_by_what_follows,
    find_labelled_pairs,
    find_otp_seeds,
    find_pair_partners,
    find_unionpay_accounts,
    find_window_codes,
    find_window_keys,
)
from hindsight.safety.validators import PLACEHOLDER_VALUE as _PLACEHOLDER_VALUE
from hindsight.safety.validators import (
    card_valid,
    cn_id_checksum,
    cn_id_valid,
    looks_random,
    luhn_valid,
    shannon_entropy,
)
from hindsight.safety.validators import group_span as _group_span

__all__ = ["KINDS", "Finding", "RedactionResult", "card_valid", "cn_id_checksum", "cn_id_valid", "find_sensitive",
           "luhn_valid", "placeholder", "redact", "redactor", "shannon_entropy"]

KINDS: tuple[str, ...] = ("private_key", "api_key", "password", "otp", "email", "cn_id", "card", "national_id", "other_id", "bank_account",
                          "card_expiry", "cvv", "phone", "address")
# Kinds that make a text a credential note: the ID half of an access-key pair next to one is redacted too. The host a
# credential opens (an IP address, a hostname) stays: it locates the service, and four of five blind writers kept it.
_CREDENTIAL_KINDS = frozenset({"private_key", "api_key", "password", "otp"})
_CARD_WORD = re.compile(r"(?i)\bcards?\b|卡")
# Lower number wins when two findings overlap.
_PRIORITY = {kind: i for i, kind in enumerate(KINDS)}


@dataclass(frozen=True)
class Finding:
    """One redacted span of the *original* text."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True)
class RedactionResult:
    """The redacted text and what was removed from where."""

    text: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def kinds(self) -> list[str]:
        """Distinct kinds found, in a stable order."""
        found = {f.kind for f in self.findings}
        return [k for k in KINDS if k in found]


def placeholder(kind: str) -> str:
    return f"[REDACTED:{kind}]"


# --------------------------------------------------------------------------- patterns

_PRIVATE_KEY = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:(?!-----BEGIN )[\s\S])*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
)  # the body never crosses another BEGIN: many headers without an END cost linear time, not quadratic
# A pasted key cut off before its END line: the header and every base64 line after it.
_PRIVATE_KEY_CUT = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:(?:\s|\\n)*+(?:[A-Za-z-]+: [^\n]*|[A-Za-z0-9+/=]{12,}+))++"
)
_KEY_BODY = re.compile(r"[A-Za-z0-9+/=]{16,}")
_TOKEN_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-|live-|test-|ant-(?:api|admin)\d{2}-)?[A-Za-z0-9_-]{20,}"
    ),
    re.compile(r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{30,}"),
    re.compile(r"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,}"),
    re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}(?![0-9A-Za-z])"),
    re.compile(r"(?<![A-Za-z0-9])LTAI[0-9A-Za-z]{12,24}(?![0-9A-Za-z])"),  # Alibaba Cloud AccessKey ID
    re.compile(r"(?<![A-Za-z0-9])AKID[0-9A-Za-z]{32}(?![0-9A-Za-z])"),  # Tencent Cloud SecretId
    re.compile(r"(?<![A-Za-z0-9])xox[abprse]-[A-Za-z0-9-]{10,}"),
    re.compile(r"(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}"),
    re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}"),
    re.compile(r"(?<![A-Za-z0-9])[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}"),
    re.compile(r"(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}"),
    re.compile(r"(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}"),
    re.compile(r"(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}"),
    re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/]{20,}"),
    re.compile(r"(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}"),  # SendGrid
    re.compile(r"(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![0-9A-Za-z])"),  # Twilio API key
    re.compile(r"(?<![A-Za-z0-9])shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),  # Shopify
    re.compile(r"(?<![A-Za-z0-9])do[por]_v1_[a-f0-9]{64}"),  # DigitalOcean
    re.compile(r"(?<![A-Za-z0-9])pypi-[A-Za-z0-9_-]{50,}"),
    re.compile(r"(?<![A-Za-z0-9])key-[0-9a-f]{32}(?![0-9a-f])"),  # Mailgun
    re.compile(r"(?<![A-Za-z0-9])ya29\.[A-Za-z0-9_-]{20,}"),  # Google OAuth access token
    re.compile(r"(?<![A-Za-z0-9:])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])"),  # Telegram bot
    re.compile(r"(?<![A-Za-z0-9])(?:glc|gldt|glrt|glptt)-[A-Za-z0-9_-]{20,}"),  # GitLab
    re.compile(r"(?<![A-Za-z0-9])xapp-\d-[A-Za-z0-9-]{20,}"),  # Slack app token
    re.compile(r"(?<![A-Za-z0-9])whsec_[A-Za-z0-9+/=]{20,}"),  # webhook signing secret
    re.compile(r"(?<![A-Za-z0-9])dapi[0-9a-f]{32}(?![0-9a-f])"),  # Databricks
    # DeepL's API key: a UUID with the free plan's ":fx" (a bare UUID is an identifier and needs a label)
    re.compile(r"(?i)(?<![A-Za-z0-9-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:fx(?![A-Za-z0-9])"),
)
# Whatever follows an Authorization header's scheme is a credential ("Authorization: Token 9944b0...").
_AUTH_HEADER = re.compile(
    r"(?i)\b(?:proxy-)?authorization\s*[:=]\s*[\"']?(?:bearer|token|basic|digest|apikey|api-key|key|sso-key)?\s*"
    r"(?P<value>(?=[^\s\"']*\d)[A-Za-z0-9._~+/=:-]{8,})"
)
_BEARER = re.compile(r"\b[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)")
_KEYED_SECRET = re.compile(
    r"(?i)(?<![A-Za-z0-9_-])(?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|secret(?:[_-]?(?:access[_-]?)?key)?|"
    r"client[_-]?secret|private[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|token|app[_-]?secret|app[_-]?key|signing[_-]?key|"
    r"webhook[_-]?secret|salt|signature|cookie|session(?:[_-]?id)?|credentials?|account[_-]?key|passkey|sas)s?[\"']?\s*(?:[:=]|=>|\bis\b|:=|是|为)\s*[\"']?([A-Za-z0-9_\-./+=~]{12,})"
)
# "with key SG.x", "令牌 ghx...": a bare key word and a long random value, whatever its shape.
_BARE_KEY = re.compile(
    r"(?i)(?:\b(?:key|token|secret|credential)s?|(?<=[a-z])(?-i:Key|Token|Secret)s?|密钥|秘钥|私钥|令牌|凭证|凭据)\s*(?:\bis\b|:|：|是|为)?\s*[\"'“`]?"
    r"([A-Za-z0-9_\-./+=~]{20,})"
)
_HEX_OR_UUID = re.compile(r"(?i)^(?:[0-9a-f]{20,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|sha\d*[:-].*|v?\d+(?:\.\d+)+.*)$")
_KEYED_SECRET_ZH = re.compile(
    r"(?i)(?:密钥|秘钥|私钥|令牌|访问令牌|token|api[ _-]?key|access[ _-]?key|secret[ _-]?key)\s*(?:是|为|:|：|=)\s*[\"'“]?([A-Za-z0-9_\-./+=~]{12,})"
)
_BASIC_AUTH = re.compile(r"(?i)\bbasic\s+(?P<value>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])")
# "AKIA... / wJalr...": an access-key ID written next to its secret half.
_KEY_PAIR = re.compile(
    r"(?<![A-Za-z0-9])(?:AKIA|ASIA|LTAI|AKID)[A-Za-z0-9]{12,36}\s*(?:/|,|:|\||\s)\s*(?P<value>[A-Za-z0-9/+=_-]{30,64})(?![A-Za-z0-9/+=_-])"
)
# The secret half of an access-key pair: a labelled 30-64 character random string.
_KEY_SECRET_HALF = re.compile(
    r"(?i)(?:secret(?:[ _-]?access)?(?:[ _-]?key)?|access[ _-]?key[ _-]?secret|secretaccesskey|accesskeysecret|\bsk\b|密钥|秘钥|私钥)"
    r"(?:\s+(?:for|of)\b[^\n:=：]{1,40}?\s(?:is|was)\b)?"  # "secret access key for the reporting user is X"
    r"[\"']?\s*(?:[:=：]|is|是|为)?\s*[\"']?(?P<value>[A-Za-z0-9/+=_-]{30,64})(?![A-Za-z0-9/+=_-])"
)
Span = tuple[str, int, int]


def _wordy(value: str) -> bool:
    """A path or identifier made of words ("reports/2024/summary.csv", "user_profile_cache_v2"), not a token."""
    parts = [p for p in re.split(r"[/._:-]+", value) if p]
    plain = sum(len(p) for p in parts if p.isdigit() or (p.isalpha() and (p.islower() or p.istitle()))
                or (len(p) <= 8 and p.islower()))
    return plain >= 0.7 * sum(len(p) for p in parts)


def _find_secrets(text: str) -> list[Span]:
    out: list[Span] = []
    for pattern in (_PRIVATE_KEY, _PRIVATE_KEY_CUT):
        for m in pattern.finditer(text):
            if _KEY_BODY.search(m.group(0)):  # "paste -----BEGIN PRIVATE KEY----- to -----END PRIVATE KEY-----" names the block
                out.append(("private_key", m.start(), m.end()))
    for pattern in _TOKEN_PATTERNS:
        for m in pattern.finditer(text):
            if len(set(m.group(0)[-16:].lower())) <= 2:
                continue  # "sk-xxxxxxxxxxxxxxxx", "ghp_0000...": a template placeholder
            out.append(("api_key", m.start(), m.end()))
    for m in _AUTH_HEADER.finditer(text):
        if not m.group("value").startswith("[REDACTED"):
            out.append(("api_key", *_group_span(m, "value")))
    for m in _BEARER.finditer(text):
        out.append(("api_key", *_group_span(m)))
    for m in _KEY_PAIR.finditer(text):
        if looks_random(m.group("value")):
            out.append(("api_key", *m.span("value")))
    for m in _KEY_SECRET_HALF.finditer(text):
        value = m.group("value")
        if not _PLACEHOLDER_VALUE.match(value) and looks_random(value):
            out.append(("api_key", *_group_span(m, 1)))
    for m in _BASIC_AUTH.finditer(text):
        out.append(("password", *_group_span(m, 1)))
    for pattern in (_KEYED_SECRET, _KEYED_SECRET_ZH):
        for m in pattern.finditer(text):
            value = m.group(1).rstrip(".,;:")
            if _PLACEHOLDER_VALUE.match(value) or not looks_random(value) or code_expression(text, *_group_span(m)):
                continue
            out.append(("api_key", *_group_span(m)))
    for m in _BARE_KEY.finditer(text):
        value = m.group(1).rstrip(".,;:")
        if (_PLACEHOLDER_VALUE.match(value) or _HEX_OR_UUID.match(value) or _wordy(value) or not looks_random(value, 20)
                or value.startswith("MII") or code_expression(text, *_group_span(m))):  # DER in base64: a private key is found
            continue  # by its shape (redact_ids), a public key stays
        out.append(("api_key", *_group_span(m)))
    return out


_FINDERS: tuple[Callable[[str], list[Span]], ...] = (
    _find_secrets, find_passwords, find_contacts, find_card_codes, find_otp, find_national_ids, find_bank_accounts,
    find_phones, find_addresses, find_spelled_emails, find_ids, find_prose_passwords, find_credentials, find_labelled_hex,
    find_cli_passwords, find_cued_passwords, find_card_security_codes, find_key_material, find_spelled_contacts, find_structured,
    find_structured_secrets, find_context_secrets, find_window_keys, find_card_numbers, find_unionpay_accounts,
    find_cards_by_what_follows, find_window_codes, find_labelled_pairs, find_otp_seeds, find_expiry_codes,
    find_record_values, find_contact_phones, find_clause_passwords, find_labelled_addresses, find_url_secrets,
    find_subject_values, find_unlabelled_values, find_role_values, find_bound_values, find_told_codes,
    find_replaced_values, find_respective_values, find_turn_codes, find_keyed_codes, find_quoted_seeds,
    find_banked_accounts, find_mixed_passwords, find_named_ids, find_estate_addresses, find_wifi_passwords,
    find_answered_values, find_sent_values, find_glued_values, find_followed_numbers, find_local_numbers, find_entered_codes,
    find_reset_values, find_short_keys, find_read_out_codes,  # round 45
)


_ATTRIBUTE = re.compile(r"[a-z][a-z-]*=")  # an attribute name is lower case; base64 padding ("YWRt...=") is not
_CALL = re.compile(r"\.[A-Za-z_]\w*\(")


def _markup_or_call(text: str, span: Span) -> bool:
    """A markup attribute's name (``autocomplete="``) or a method call (``driver.find_element(``) where a password
    or key would stand: code, not a value."""
    if span[0] not in ("password", "api_key"):
        return False
    value = text[span[1] : span[2]]
    quote_after = text[span[2] : span[2] + 1] in ("\"", "'")
    return bool((_ATTRIBUTE.fullmatch(value) and quote_after) or _CALL.search(value) or code_statement(text, span[1], span[2]))


def _run_finders(text: str) -> list[Span]:
    # Every finder's span is ended where its value ends (``redact_extent``): a Latin value glued to the Chinese or the
    # bracket after it never takes them along.
    return [bound(text, s) for finder in _FINDERS for s in finder(text) if s[2] > s[1] and not _markup_or_call(text, s)]


def _partners(text: str, spans: list[Span]) -> list[Span]:
    secrets = [(s[1], s[2]) for s in spans if s[0] in _CREDENTIAL_KINDS]
    return find_pair_partners(text, secrets) + find_line_partners(text, secrets)  # round 35: "key = value" lines too


def find_sensitive(text: str, kinds: Iterable[str] | None = None, tagger: TaggerModel | bool = True) -> list[Finding]:
    """Non-overlapping findings, left to right; on overlap the higher-priority kind (then the longer span) wins.
    ``tagger``: the learned second opinion over what the rules left (True: shipped weights, False: rules only).

    Characters that render as nothing (``alice\u200b.smith@...``) are read through, and look-alikes are read as
    what they look like (full-width or other-script digits and letters, no-break and thin spaces, non-breaking
    hyphens: ``redact_fold``): the finders see the folded text and each span maps back to the stored text."""
    folding = fold_for_finders(text)
    if folding is None:
        return _find_visible(text, kinds, tagger)
    folded, kept = folding  # kept[i]: the stored offset of the folded text's i-th character
    if not folded:
        return []
    found = [Finding(f.kind, kept[f.start], kept[f.end - 1] + 1) for f in _find_visible(folded, kinds, tagger)
             if f.end > f.start]
    if kinds is not None and "email" not in kinds:
        return found
    # A mailbox spelled with another script's look-alike letters imitates the one it renders as: never a public
    # role mailbox (`support@`), whatever it imitates (attack round 26).
    imitated = [(kept[s], kept[e - 1] + 1) for s, e in find_mailboxes(folded)]
    imitated = [(s, e) for s, e in imitated if imitates_latin(text[s:e])]
    if not imitated:
        return found
    kept_findings = [f for f in found if not any(f.start < e and s < f.end for s, e in imitated)]
    return sorted(kept_findings + [Finding("email", s, e) for s, e in imitated], key=lambda f: f.start)


def _find_visible(text: str, kinds: Iterable[str] | None, tagger: TaggerModel | bool) -> list[Finding]:
    wanted = set(kinds) if kinds is not None else set(KINDS)
    # Public contacts (an organisation's hotline, mailbox or address) stay, and the tagger never sees them.
    raw = _run_finders(text)
    spans, public = vet(text, raw + spelled_findings(text, _run_finders) + bracketed_findings(text, _run_finders))
    found = {s[0] for s in spans}
    # Context across the whole text: an expiry date only next to a card, an IP address only in a credential note.
    if found & {"card", "cvv"} or "bank_account" in found and _CARD_WORD.search(text):  # 银联卡 622848 ...: a card
        spans += find_card_expiry(text) + spelled_findings(text, find_card_expiry)
        spans += find_card_combo(text, [(s[1], s[2]) for s in spans if s[0] == "card"])
    # Values a found value vouches for: restated aloud, a sibling account, its record's expiry / postcode / key ID.
    spans += find_echoes(text, spans, public)
    if found & _CREDENTIAL_KINDS:
        spans += find_key_ids(text) + _partners(text, spans)
    if tagger is not False:
        tagged = find_tagged(text, [(s[1], s[2]) for s in spans] + public, None if tagger is True else tagger)
        if not found & _CREDENTIAL_KINDS and {s[0] for s in tagged} & _CREDENTIAL_KINDS:
            spans += find_key_ids(text) + _partners(text, tagged)
        spans += bound_all(text, tagged)
    # A value declared public where it stands stays, whichever finder (a pair's partner, the tagger) took it.
    spans = [s for s in spans if s[0] in wanted and not declared_public(text, s[2], s[1], s[0])
             and not name_with_number(text, *s)]
    spans.sort(key=lambda s: (_PRIORITY[s[0]], -(s[2] - s[1]), s[1]))
    # Taken spans never overlap, so sorted by start their ends are sorted too: one bisect finds the
    # only neighbours a new span could touch (linear-time overall, however many findings).
    starts: list[int] = []
    taken: list[Finding] = []
    for kind, start, end in spans:
        i = bisect.bisect_right(starts, start)
        if (i > 0 and taken[i - 1].end > start) or (i < len(taken) and taken[i].start < end):
            continue
        starts.insert(i, start)
        taken.insert(i, Finding(kind, start, end))
    return taken


def redact(text: str, kinds: Iterable[str] | None = None, tagger: TaggerModel | bool = True) -> RedactionResult:
    """Replace every sensitive value in ``text`` with ``[REDACTED:<kind>]``.

    ``findings`` carry offsets into the original ``text``.
    """
    if not text:
        return RedactionResult(text or "", [])
    findings = find_sensitive(text, kinds, tagger)
    if not findings:
        return RedactionResult(text, [])
    parts: list[str] = []
    cursor = 0
    for f in findings:
        parts.append(text[cursor : f.start])
        parts.append(placeholder(f.kind))
        cursor = f.end
    parts.append(text[cursor:])
    return RedactionResult("".join(parts), findings)


def redactor(text: str) -> tuple[str, list[str]]:
    """(new text, kinds found). The write pipeline's ``Redactor`` is ``redact`` itself, whose findings carry spans."""
    result = redact(text)
    return result.text, result.kinds
