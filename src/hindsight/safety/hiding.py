"""The act of hiding a write's wording (issue 10, round 22).

Obfuscation recurs in every round (round 19: 5 missed, round 20: 8) and ``normalize.prepare`` now undoes nearly all of
it - spaced, dotted and hyphenated letters, Cyrillic homoglyphs, split Han, leetspeak, ROT13 - yet the plain text it
recovers still scores 0.18 - 0.59: the classifier judges the decoded sentence as if nothing had happened. Nothing had
not: an ordinary note is not written "w-i-r-e t-h-e d-e-p-o-s-i-t", "Аlwаys fоrwаrd" (Cyrillic а / о / е inside Latin
words), "每 周 把 客 户 名 单" or "yu lv 超标的 jing bao 响了直接 guan diao". The hiding is itself a signal, read here by
its marks on the raw text (not by what the decoded text says):

- an encoding a decoder undid (base64, hex, ROT13, leetspeak, pinyin or sound-alike Chinese, reversed text ...; not
  ``html_stripped``, which every HTML note has);
- a word that mixes Latin letters with Cyrillic or Greek look-alikes, or three invisible characters inside words;
- letters spelled out one at a time: a run of five or more single letters joined by one separator, or two runs of
  three or more ("d i s a b l e", "i.g.n.o.r.e", "w-i-r-e");
- Han characters split one by one: four or more in a row, each followed by one space or symbol;
- Chinese words written as pinyin inside Chinese text: two or more lower-case runs of at least two pinyin syllables
  between Han characters ("zhen dong 保护 ke yi 先 duan jie"; romanised names are capitalised).

A note *about* such tricks (a test fixture, an article, a training example quoting "tui kuan bu yong he dui":
``mention.mentions_attack``), or one whose only hidden piece is inside a quotation, shows the hiding, it does not hide. What the guard does with a text that hides:
:data:`lowered.HIDING_THRESHOLD`, a lower classifier threshold for the (decoded) text; never a quarantine on its own,
and the classifier's features are unchanged.
"""

from __future__ import annotations

import re
import unicodedata

from hindsight.safety.decode import _is_pinyin_token
from hindsight.safety.mention import mentions_attack
from hindsight.safety.normalize import _HOMOGLYPH_FROM, INVISIBLE_CHARS, ScreeningText, prepare

#: ``prepare``'s hidden kinds that are places, not encodings: every HTML note has stripped tags.
NOT_HIDING = frozenset({"html_stripped"})
#: A Latin letter beside a Cyrillic or Greek look-alike that ``normalize`` folds (а, е, о, р, ο, ι ...): "Аlwаys"; not
#: "e^(iπ)", whose π folds to nothing.
_LOOKALIKE = "".join(ch for ch in _HOMOGLYPH_FROM if "\u0370" <= ch <= "\u04ff")
_MIXED_SCRIPT = re.compile(f"[a-zA-Z][{_LOOKALIKE}]|[{_LOOKALIKE}][a-zA-Z]")
_SPELLED = re.compile(r"(?<![^\W\d_])(?:[^\W\d_](?: |[.\-_*·] ?)){2,}[^\W\d_](?![^\W\d_])")
#: A Han character and one separator, four or more times: a space, ASCII joiner, arrow, box, dingbat or star - not the
#: general or CJK punctuation a sentence uses (quotes, dashes, commas).
_SPLIT_HAN = re.compile(r"(?:[\u3400-\u9fff][ \t.\-_*·/|\u2190-\u21ff\u2500-\u27bf\u2b00-\u2bff]){3,}[\u3400-\u9fff]")
_PINYIN_RUN = re.compile(r"(?<=[\u3400-\u9fff，,。、\s])((?:[a-z]{1,6} ){1,5}[a-z]{1,6})(?=\s*[\u3400-\u9fff，,。、])")
_HAN = re.compile(r"[\u3400-\u9fff]")
#: A quotation: a quote mark that opens after a non-letter and closes before one (an apostrophe in "studio's" or
#: "don't" neither opens nor closes one).
_QUOTED = re.compile(r"(?<![^\W\d_])[\"'“‘「『][^\"'“”‘’「」『』]{4,}?[\"'”’」』](?![^\W\d_])")
_INVISIBLE_IN_WORD = re.compile(rf"(?<=\w)[{INVISIBLE_CHARS}](?=\w)")  # every character that renders as nothing


def _letters(run: str) -> int:
    return sum(ch.isalpha() for ch in run)


def hiding_signs(raw: str, prepared: ScreeningText) -> list[str]:
    """Which marks of hidden wording the raw text bears (see the module); empty for an ordinary note."""
    text = unicodedata.normalize("NFKC", raw)
    signs = [f"encoded:{kind}" for kind in dict.fromkeys(prepared.hidden) if kind not in NOT_HIDING]
    if len(_INVISIBLE_IN_WORD.findall(raw)) >= 3:
        signs.append("invisible")
    if _MIXED_SCRIPT.search(text):
        signs.append("homoglyph")
    spelled = [_letters(m.group(0)) for m in _SPELLED.finditer(text)]
    if any(n >= 5 for n in spelled) or sum(n >= 3 for n in spelled) >= 2:
        signs.append("spelled")
    if _SPLIT_HAN.search(text):
        signs.append("split_han")
    if _HAN.search(text):  # lower-case runs only: "Zhang Wei、Li Na" are romanised names, not hidden words
        runs = [m.group(1).split() for m in _PINYIN_RUN.finditer(text)]
        if sum(len(r) >= 2 and all(_is_pinyin_token(t) for t in r) for r in runs) >= 2:
            signs.append("pinyin")
    return signs


def hides_wording(raw: str, prepared: ScreeningText) -> bool:
    """Does the text hide its wording (a sign above) outside any quotation, without being a note about such tricks?
    A payload shown in quotes ("Input 'aWdub3Jl...' decodes to ...") is quoted, not hidden."""
    if not hiding_signs(raw, prepared) or mentions_attack(prepared.text):
        return False
    unquoted = _QUOTED.sub(" ", raw)
    return unquoted == raw or bool(hiding_signs(unquoted, prepare(unquoted)))
