"""Chinese written by sound: pinyin mixed into Chinese text and characters swapped for homophones.

"遇到 zheng shu 报错就把 jiao 验关掉", "收kuan账户", "有人要 mì mǎ", "yanzhengma 可以发给 ta", "脚奔",
"外布油箱": a reader hears the security word; a keyword screen or an embedding of the surface text does not.
:func:`decode_sound_alike` reads a folded text as a row of sounds (a Chinese character stands for each of its
readings, a pinyin syllable for itself; tone marks and tone numbers dropped) and writes back every word of a
fixed security vocabulary (``data/sound_alike.txt``, built from CC-CEDICT by scripts/build_sound_table.py)
that the row spells out in another way than the word itself:

- pinyin in a text that holds Chinese: at least one syllable of the word is written in Latin letters, the
  Latin runs it uses are whole pinyin (``main``, ``review`` are not) and all of them belong to the word;
- characters only: at least one character is the word's own and every other one reads like the word's.

What is decoded is only screened, never stored (:func:`hindsight.safety.normalize.prepare`). The scan reads
each position once against the words that start with its sound, so it is linear in the text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hindsight.text.tokenize import jieba_module

DATA = Path(__file__).parent / "data" / "sound_alike.txt"

_SYLLABLE = re.compile(
    r"(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])?(?:iang|iong|uang|ang|eng|ing|ong|ian|iao|uai|uan|ue|ve|ai|ei|ao|ou|an|en|in|un|ia|ie|iu|ua|uo|ui|er|a|o|e|i|u|v)"
)
# A unit is one Chinese character, one Latin run (pinyin when it splits into syllables; tone digits allowed
# after each), or a break (anything else but blanks, which only separate).
_UNIT = re.compile(r"[\u3400-\u9fff]|[a-z\u00e0-\u024f][a-z\u00e0-\u024f\u0300-\u036f1-5]*|[^\s]")
_HAN = re.compile(r"[\u3400-\u9fff]")
_JOINERS = frozenset("@._-/\\=#0123456789")
_TONES = re.compile(r"[\u0300-\u036f1-5]")
# Grammar characters never stand in for another by sound: "用户的权限" is not "用户提权限" (的 di, 提 di/ti).
_NEVER_SWAPPED = frozenset("的地得之了着过是在有和与就不也都还要会能这那个我你他她它们把被给让对向从到说吗呢吧啊")


@dataclass(frozen=True)
class _Table:
    words: dict[str, list[tuple[str, tuple[frozenset[str], ...]]]]  # first syllable -> (word, readings per slot)
    chars: dict[str, frozenset[str]]  # syllable -> characters read that way
    sounds: dict[str, tuple[str, ...]]  # character -> the syllables of the table it is read as
    known: frozenset[str]  # the words themselves
    real: frozenset[str]  # real words that sound like one of them (油箱, fuel tank: not 邮箱)


@lru_cache(maxsize=1)
def _table() -> _Table:
    words: dict[str, list[tuple[str, tuple[frozenset[str], ...]]]] = {}
    chars: dict[str, frozenset[str]] = {}
    real: frozenset[str] = frozenset()
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        head, _, rest = line.partition("\t")
        slots = rest.split(" ")
        if head == "*":
            real = frozenset(slots)
        elif len(slots) == len(head) and len(head) > 1:  # a word: one reading group per character
            readings = tuple(frozenset(slot.split("/")) for slot in slots)
            for first in readings[0]:
                words.setdefault(first, []).append((head, readings))
        else:  # a syllable and its characters
            chars[head] = frozenset(rest)
    sounds: dict[str, list[str]] = {}
    for syllable, members in chars.items():
        for ch in members:
            sounds.setdefault(ch, []).append(syllable)
    known = frozenset(word for entries in words.values() for word, _ in entries)
    return _Table(words, chars, {ch: tuple(s) for ch, s in sounds.items()}, known, real)


def _pinyin(run: str) -> list[str] | None:
    """The syllables of a Latin run when it is all pinyin ('yanzhengma' -> yan zheng ma), else None."""
    plain = _TONES.sub("", unicodedata.normalize("NFD", run)).replace("ü", "v")
    sylls = _SYLLABLE.findall(plain)
    return sylls if sylls and "".join(sylls) == plain else None


def _units(text: str) -> list[tuple[int, int, str | None, str | None]]:
    """(start, end, character, syllable) per sound; a break has neither. A pinyin run gives one unit per
    syllable, all spanning the whole run (a match must use the run whole)."""
    out: list[tuple[int, int, str | None, str | None]] = []
    for m in _UNIT.finditer(text):
        token = m.group(0)
        if _HAN.fullmatch(token):
            out.append((m.start(), m.end(), token, None))
            continue
        # a Latin run inside an identifier ("kefu@x.cn", "caiwu01", "a_b") is not pinyin
        inside = text[m.start() - 1:m.start()] in _JOINERS or text[m.end():m.end() + 1] in _JOINERS
        sylls = _pinyin(token) if token[0].isalpha() and not inside else None
        if sylls is None:
            out.append((m.start(), m.end(), None, None))
        else:
            out += [(m.start(), m.end(), None, s) for s in sylls]
    return out


def _match(units: list[tuple[int, int, str | None, str | None]], i: int, word: str,
           readings: tuple[frozenset[str], ...], chars: dict[str, frozenset[str]]) -> tuple[int, bool] | None:
    """End of the text span the units from `i` spell `word` with, and whether it is written in characters only;
    None when they do not."""
    if i + len(word) > len(units):
        return None
    same = latin = 0
    for k, (expect, heard) in enumerate(zip(word, readings)):
        start, end, ch, syll = units[i + k]
        if ch is not None:
            if ch == expect:
                same += 1
            elif ch in _NEVER_SWAPPED or not any(ch in chars.get(r, ()) for r in heard):
                return None
        elif syll is None or syll not in heard:
            return None
        else:
            latin += 1
    if same == len(word) or (latin == 0 and same == 0):
        return None  # already written plainly, or a different word that merely sounds the same
    first, last = units[i], units[i + len(word) - 1]
    # a Latin run is used whole: the unit before and after the span must not belong to the same run
    if i > 0 and units[i - 1][0] == first[0] and first[2] is None:
        return None
    if i + len(word) < len(units) and units[i + len(word)][0] == last[0] and last[2] is None:
        return None
    return last[1], latin == 0


class _Segments:
    """jieba's dictionary words around a span of a text (a window of the Han run it is in, so the cost per
    span is bounded and a long run is never segmented whole for each span)."""

    WINDOW = 16

    def __init__(self, text: str) -> None:
        self.text = text

    def loose(self, start: int, end: int) -> bool:
        """Every character in text[start:end] is a word of its own: a swapped character breaks a word apart
        (脚奔 is 脚 + 奔 to jieba without its guesses), while a span cut from real words (上传到, 支行) is left
        as written."""
        left, right = start, end
        while left > max(0, start - self.WINDOW) and _HAN.match(self.text, left - 1):
            left -= 1
        while right < min(len(self.text), end + self.WINDOW) and _HAN.match(self.text, right):
            right += 1
        tokens = jieba_module().tokenize(self.text[left:right], HMM=False)  # dictionary words only, no guesses
        return all(b - a == 1 for _, a, b in tokens if left + a < end and left + b > start)


def decode_sound_alike(folded: str, other_signs: int = 0) -> str | None:
    """The text with every security word spelled by sound written back in characters; None when none is.

    A swap written in characters only counts when the text shows another sign of being written by sound: a
    second such swap, a word spelled in pinyin, or `other_signs` (the caller's known homophones). One real-looking
    swap on its own is more often a name (杭州知行教育, 知行 zhi xing / 执行) than a disguise."""
    if len(_HAN.findall(folded)) < 2:
        return None
    table = _table()
    units = _units(folded)
    segments = _Segments(folded)
    pieces: list[str] = []
    han_only_swaps = 0
    at = 0
    i = 0
    while i < len(units):
        unit = units[i]
        found: tuple[str, int, bool] | None = None
        heard = (unit[3],) if unit[3] else table.sounds.get(unit[2], ()) if unit[2] else ()
        for sound in heard:
            for word, readings in table.words.get(sound, ()):
                matched = _match(units, i, word, readings, table.chars)
                if matched is None or (found is not None and len(word) <= len(found[0])):
                    continue
                end, han_only = matched
                span = folded[unit[0]:end]
                if span in table.known or span in table.real:  # a real word is left as written
                    continue
                if han_only and not segments.loose(unit[0], end):
                    continue
                found = (word, end, han_only)
        if found is None:
            i += 1
            continue
        word, end, han_only = found
        if han_only:
            han_only_swaps += 1
        else:
            other_signs += 1
        pieces += [folded[at:unit[0]], word]
        at = end
        i += len(word)
        while i < len(units) and units[i][0] < end:
            i += 1
    if not pieces or (other_signs == 0 and han_only_swaps < 2):
        return None
    return "".join(pieces) + folded[at:]


def known_words() -> frozenset[str]:
    """The vocabulary the decoder restores (for other decoders that count security words)."""
    return _table().known
