"""One quantity in two written forms across a pair: the new text's value written as the old text writes it.

Restatements say a number, a time, a date or an amount in another form, and the rules' number reading
(`lexicon.normalise_numbers`) reads the forms as different values (hygiene round 20, blind round 19: at least 21 of
47 restatements lost). `align_forms(old, new)` reads the quantities of both texts - each mention with the set of
values it may name - and where a mention of the new text names a value that a mention of the old text names in
another form, writes the old text's form in its place. `conversions.written_alike` calls it first, so every rule that
compares values (the judge's "different numbers", the amount / number merge blockers, the slots, the same-fact
agreement) reads the two forms as one. A mention whose values the old text does not name is left as written: two
different values stay two values, whatever their forms.

What a mention may name (EN and ZH):

* numbers in words, read by the `text2num` package (a maintained reader of English number words): "one point two
  million" (1.2 x 1,000,000), "forty-five hundred", "the twenty-second"; two groups in a row also as the year or the
  hundreds they speak ("twenty sixteen" = 2016, "twenty-one fifty" = 2150) or as a clock time (21:50); digits read
  one by one ("two-one-four" = 214, 五五五-零一六八 = 555-0168);
* times of day: "3pm" / 15:00 / 下午三点, "half nine" (9:30, morning or evening), "quarter to ten", 八点半, 早上8:30; an
  hour not marked as morning or evening names both;
* dates: "22 May" / "May 22nd" / 5月20号 / 五月二十, a month's end (九月底 / "end of September" = 30 September),
  "June '26" / "June 2026" / 2026年6月;
* durations in seconds (a month of 30 days, a year of 365 days or 12 months): "quarter of an hour" / 一刻钟 / 15
  minutes, 六个星期 / 6 周, 半小时, "a fortnight";
* shares in percent: 70% / "seven-tenths" / 八成 / 百分之七十 / 五分之一;
* money with its currency (两块八 = 2.8 元, "$1.2M" = "one point two million dollars"), weights in kilograms
  (六斤八两 = 3.4 公斤: 1 斤 = 10 两 = 0.5 kg), and mega / giga (500M = 五百兆; MB and Mbps only each other's M / 兆).

Chinese numerals are read by `text.numerals.zh_int` (cn2an); the readings of each kind are `quantity_kinds`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from hindsight.text.runs import mask_long_runs
from hindsight.text.spans import Taken
from hindsight.write.amounts import quantities, quantities_differ
from hindsight.write.lexicon import normalise_numbers
from hindsight.write.quantity_kinds import EN_RUN, PATTERNS, fmt, read_kind, word_values, zh_digit_groups
from hindsight.write.value_forms import SPELLED_DIGITS, read_values, spelled_digits

#: Every family of readings; `FAMILIES`, those `align_forms` applies: the ones that, over the 20 released hygiene
#: rounds, merge restatements main keeps and add no wrong outcome (docs/benchmarks.md "Hygiene, round 20": dates
#: retired one restatement and kept one main merges; weights and mega / giga moved no pair). A switch so each
#: family can be replayed.
EVERY_FAMILY = frozenset({"words", "clock", "date", "duration", "share", "money", "mass", "mega"})
FAMILIES: frozenset[str] = frozenset({"words", "clock", "duration", "share", "money"})
_FAMILY = {"date_ym": "date", "date": "date", "money_zh": "money", "money": "money", "clock": "clock",
           "duration": "duration", "duration_words": "duration", "share": "share", "mass": "mass", "mega": "mega"}


@dataclass(frozen=True)
class Mention:
    """A quantity written in a text: its span and the values it may name ("num:2150", "clock:21:50", ...)."""

    start: int
    end: int
    values: frozenset[str]
    plain: bool = False  # digits as written: a form of the old text to write, never one to rewrite



@lru_cache(maxsize=8192)
def mentions(text: str, families: frozenset[str] | None = None) -> tuple[Mention, ...]:
    """The quantities of `text` (NFKC) with the values each may name; first found first kept where spans overlap.
    `families`: the families read (default `FAMILIES`, those `align_forms` rewrites; `value_canon` reads them all)."""
    families = FAMILIES if families is None else families
    text = mask_long_runs(text)  # no reading starts inside a run of 33+ digits (`text.runs`)
    found: list[Mention] = []
    taken = Taken(len(text))

    def add(start: int, end: int, values: frozenset[str], plain: bool = False) -> None:
        if values and not taken.overlaps(start, end):
            found.append(Mention(start, end, values, plain))
            taken.add(start, end)

    for kind, pattern in PATTERNS:
        if _FAMILY[kind] not in families:
            continue
        for m in pattern.finditer(text):
            add(m.start(), m.end(), read_kind(kind, m))
    if "words" in families:  # numbers in words, and digits read one by one
        for m in SPELLED_DIGITS.finditer(text):
            digits = spelled_digits(m.group(0)) or ""
            add(m.start(), m.end(), frozenset({f"digits:{digits}", f"num:{digits}"}))
        for start, end, read in zh_digit_groups(text):
            add(start, end, read)
        for m in EN_RUN.finditer(text):
            if m.group(0).lower() != "second":  # a unit of time as often as an ordinal
                add(m.start(), m.end(), word_values(m.group(0)))
    for m in re.finditer(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?:-\d+|\s\d{3,})*(?:st|nd|rd|th)?(?!\w|\.\d)", text):
        raw = re.sub(r"(?:st|nd|rd|th)$", "", m.group(0))
        values = {"digits:" + re.sub(r"[-,\s]", "", raw)}
        if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?", raw):
            values.add(f"num:{fmt(float(raw.replace(',', '')))}")
        add(m.start(), m.end(), frozenset(values), plain=True)
    return tuple(sorted(found, key=lambda f: f.start))


@lru_cache(maxsize=4096)
def align_forms(old: str, new: str) -> str:
    """`new` with each quantity that names a value a quantity of `old` names in another form written as in `old`
    (`new` as given where there is none)."""
    old_n, new_n = unicodedata.normalize("NFKC", old), unicodedata.normalize("NFKC", new)
    ours = mentions(old_n)
    if not ours:
        return new
    pieces, last = [], 0
    for b in mentions(new_n):
        if b.plain:
            continue
        written = new_n[b.start:b.end]
        matches = {old_n[a.start:a.end] for a in ours if a.values & b.values}
        if len(matches) != 1 or written in matches:
            continue  # none, or several old forms the mention may be: left as written
        match = matches.pop()
        match = match.rstrip(".") if not written.endswith(".") else match  # "9 Oct." read as a date
        if _read_alike(match, written):
            continue  # the rules' own reading already reads the two forms as one value: their words are kept
        pieces += [new_n[last:b.start], match]
        last = b.end
    if not pieces:
        return new
    return "".join([*pieces, new_n[last:]])


def _read_alike(old_form: str, new_form: str) -> bool:
    """Whether `amounts.quantities` (the number reading the rules compare), after `value_forms.read_values` (the
    same-fact agreement's), already reads both forms as one value, and the rules do not read the new form's number
    in pieces.
    Such a mention is left as written: writing it again would only make the two texts share more words, and the
    rules read a pair that differs in a few words only as another statement (measured: 30 restatements main merges
    were kept when every such mention was rewritten)."""
    pieces = [re.findall(r"\d+(?:[.:]\d+)?", normalise_numbers(form)) for form in (old_form, new_form)]
    if len(pieces[1]) > len(pieces[0]) >= 1:
        return False  # the rules read one number in pieces ("three-one-eight" as 3 1 8): "different numbers"
    unread = not pieces[1]  # the rules read no number there to conflict
    old_form, new_form = read_values(old_form), read_values(new_form)
    digits = [re.sub(r"[-\s]", "", form) for form in (old_form, new_form)]
    if unread and digits[0].isdigit() and digits[0] == digits[1]:
        return True  # one number in other groups (139 0123 4567 / 一三九零一二三四五六七): the agreement reads it
    a, b = quantities(old_form), quantities(new_form)
    return bool(a and b) and (a == b or not quantities_differ(old_form, new_form))
