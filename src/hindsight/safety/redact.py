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

This module runs every finder and resolves overlaps between all findings; keys and tokens are found in
``redact_secrets``, the other finders live in ``redact_passwords`` (passwords after a label, login pairs, URL user info),
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
from hindsight.safety.redact_documents import find_followed_numbers, find_local_numbers, find_named_numbers
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
from hindsight.safety.redact_phonelib import find_all_phones
from hindsight.safety.redact_quoted_seed import find_quoted_seeds
from hindsight.safety.redact_read_out import find_read_out_codes
from hindsight.safety.redact_records import find_record_values
from hindsight.safety.redact_replaced import find_replaced_values
from hindsight.safety.redact_reset import find_reset_values
from hindsight.safety.redact_respective import find_respective_values
from hindsight.safety.redact_roles import find_role_values
from hindsight.safety.redact_secrets import find_secrets
from hindsight.safety.redact_shapes import (
    find_card_security_codes,
    find_cued_passwords,
    find_key_material,
    find_spelled_contacts,
    find_structured,
)
from hindsight.safety.redact_short_keys import find_short_keys
from hindsight.safety.redact_spelled import spelled_findings
from hindsight.safety.redact_spoken_phones import find_spoken_phones
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
from hindsight.safety.validators import (
    card_valid,
    cn_id_checksum,
    cn_id_valid,
    luhn_valid,
    shannon_entropy,
)

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


Span = tuple[str, int, int]


_FINDERS: tuple[Callable[[str], list[Span]], ...] = (
    find_secrets, find_passwords, find_contacts, find_card_codes, find_otp, find_national_ids, find_bank_accounts,
    find_all_phones, find_addresses, find_spelled_emails, find_ids, find_prose_passwords, find_credentials, find_labelled_hex,
    find_cli_passwords, find_cued_passwords, find_card_security_codes, find_key_material, find_spelled_contacts, find_structured,
    find_structured_secrets, find_context_secrets, find_window_keys, find_card_numbers, find_unionpay_accounts,
    find_cards_by_what_follows, find_window_codes, find_labelled_pairs, find_otp_seeds, find_expiry_codes,
    find_record_values, find_contact_phones, find_clause_passwords, find_labelled_addresses, find_url_secrets,
    find_subject_values, find_unlabelled_values, find_role_values, find_bound_values, find_told_codes,
    find_replaced_values, find_respective_values, find_turn_codes, find_keyed_codes, find_quoted_seeds,
    find_banked_accounts, find_mixed_passwords, find_named_ids, find_estate_addresses, find_wifi_passwords,
    find_answered_values, find_sent_values, find_glued_values, find_followed_numbers, find_local_numbers, find_entered_codes,
    find_reset_values, find_short_keys, find_read_out_codes,  # round 45
    find_spoken_phones,  # round 46 (find_all_phones above: redact_phonelib)
    find_named_numbers,  # round 47
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
