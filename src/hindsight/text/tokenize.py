"""Tokenisation for the BM25 (SQLite FTS5) index, for mixed Chinese and English.

Why pre-tokenise at all: FTS5's ``unicode61`` tokenizer splits on anything that
is not a letter or digit and treats a run of Han characters as *one* token, so
``数据库迁移`` would only ever match the query ``数据库迁移`` verbatim. We run
jieba's search-mode segmentation on Han runs (``数据库迁移`` -> ``数据``,
``据库``, ``数据库``, ``迁移``) and hand FTS5 the tokens joined by spaces, so
FTS5 only has to split on the spaces we put there.

English words stay whole. Identifiers that matter for exact recall
(``E1234``, ``ERR_CONNECTION_REFUSED``, ``max_connections``, ``1.2.3``,
``ORA-00942``) are emitted whole *and* as their parts (``max``,
``connections``), and CamelCase is split too (``getUserName`` -> ``get``,
``user``, ``name``), so a query for either form matches.

The same function must be used on both sides (index and query); that is what
:func:`query_terms` does, adding stopword removal and de-duplication.

A note for whoever creates the FTS5 table: with the plain
``tokenize='porter unicode61'`` the whole identifier tokens are split again by
FTS5 at ``_``, ``.`` and ``-`` (nothing breaks: the parts still match, and a
quoted ``"max_connections"`` becomes the phrase ``max connections``). To keep
them as single tokens use :data:`FTS5_TOKENIZER`, which adds those characters
as token characters. Because we never emit a token that starts or ends with
them, that does not glue words to sentence punctuation.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from functools import lru_cache
from types import ModuleType

__all__ = [
    "EN_STOPWORDS",
    "FTS5_TOKENIZER",
    "ZH_STOPWORDS",
    "fts_match_query",
    "query_terms",
    "tokenize",
    "warm_up",
]

#: Recommended FTS5 ``tokenize=`` argument: keeps ``max_connections``,
#: ``1.2.3`` and ``ora-00942`` as single tokens (see the module docstring).
FTS5_TOKENIZER = "porter unicode61 tokenchars '._-'"

# Han ideographs (with extension A and compatibility) plus Japanese kana:
# these scripts do not separate words with spaces, so they go to jieba.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# A word character that is not "_" and not CJK; "_" is handled as a joiner.
_W = rf"[^\W_{_CJK}]"
_TOKEN_RE = re.compile(
    rf"(?P<cjk>[{_CJK}]+)"
    # A word, optionally joined to more words by . _ - or an apostrophe; the
    # joiner must be followed by a word character, so "done." and "-x" never
    # carry punctuation into the token.
    rf"|(?P<word>{_W}+(?:[._\-'\u2019]{_W}+)*)"
)
_JOINERS_RE = re.compile(r"[._\-]")
_APOSTROPHE_RE = re.compile(r"['\u2019]")
# Lower-to-upper or acronym-to-word boundaries: getUserName, HTTPServer, utf8Decode.
_CAMEL_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_HAS_CAMEL_RE = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]")
_VERSION_RE = re.compile(r"v\d+(?:\.\d+)+$")

EN_STOPWORDS: frozenset[str] = frozenset(
    ["a", "an", "the", "and", "or", "but", "if", "then", "else", "so", "as", "of", "at", "by", "for", "from", "in", "into", "on", "onto", "to", "with", "without", "about", "over", "under", "up", "down", "out", "off", "than", "too", "very", "just", "also", "only", "is", "am", "are", "was", "were", "be", "been", "being", "do", "does", "did", "doing", "done", "have", "has", "had", "having", "will", "would", "shall", "should", "can", "could", "may", "might", "must", "i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "you", "your", "yours", "he", "him", "his", "she", "her", "hers", "it", "its", "they", "them", "their", "theirs", "this", "that", "these", "those", "there", "here", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "any", "some", "all", "each", "every", "no", "not", "nor", "tell", "show", "give", "let", "please", "know", "remember", "recall", "s", "t", "d", "ll", "re", "ve", "m"]
)
"""English stopwords: function words and question scaffolding ("what did we"),
deliberately small so that content words such as "last" or "first" survive."""

ZH_STOPWORDS: frozenset[str] = frozenset(
    ["的", "了", "是", "吗", "呢", "吧", "啊", "呀", "嘛", "啦", "哦", "么", "着", "过", "地", "得", "之", "其", "和", "与", "及", "或", "而", "并", "也", "都", "还", "又", "就", "在", "于", "从", "到", "对", "把", "被", "给", "让", "为", "为了", "向", "跟", "我", "我们", "你", "你们", "您", "他", "他们", "她", "她们", "它", "它们", "咱们", "自己", "这", "那", "这个", "那个", "这些", "那些", "这里", "那里", "哪", "哪里", "哪个", "哪些", "什么", "怎么", "怎样", "如何", "为什么", "是否", "有没有", "是不是", "有", "一个", "一下", "请", "告诉", "一些", "一种"]
)
"""Chinese stopwords: particles, pronouns and question words. Single content
characters such as 坑 are kept on purpose."""

_STOPWORDS = EN_STOPWORDS | ZH_STOPWORDS

_jieba_module: ModuleType | None = None
_jieba_lock = threading.Lock()


def _jieba() -> ModuleType:
    """Import and initialise jieba once, on first use, without its log chatter.

    Lazy because loading the dictionary takes ~0.5 s and many processes (CLI
    help, tests that never touch Chinese) do not need it.
    """
    global _jieba_module
    if _jieba_module is None:
        with _jieba_lock:
            if _jieba_module is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                jieba.initialize()
                _jieba_module = jieba
    return _jieba_module


jieba_module = _jieba  # public name for other modules that segment Chinese (conflict detection)


def warm_up() -> None:
    """Load jieba's dictionary and its POS tagger now (e.g. at server start) instead of on the first query or write.

    The tagger (`jieba.posseg`, which hygiene's lexical analysis imports lazily, write/analysis.py) costs ~0.3 s
    of CPU once; without this it lands in a process's first write that hygiene judges."""
    _cut_cjk("预热")
    import jieba.posseg  # noqa: F401


@lru_cache(maxsize=8192)
def _cut_cjk(run: str) -> tuple[str, ...]:
    """Search-mode segmentation of one CJK run, cached: runs repeat a lot."""
    return tuple(t for t in _jieba().cut_for_search(run, HMM=True) if t.strip())


def _strip_apostrophes(word: str) -> str:
    """``Caroline's`` -> ``Caroline``, ``don't`` -> ``dont``: possessives match the bare name."""
    if word[-2:] in ("'s", "\u2019s", "'S", "\u2019S"):
        word = word[:-2]
    return _APOSTROPHE_RE.sub("", word)


def _camel_parts(word: str) -> list[str]:
    """Lower-cased CamelCase parts, or an empty list if ``word`` is not CamelCase."""
    if not _HAS_CAMEL_RE.search(word):
        return []
    return [p.lower() for p in _CAMEL_RE.findall(word)]


def _word_tokens(raw: str, out: list[str]) -> None:
    """Append the whole word/identifier, then its parts, to ``out``."""
    word = _strip_apostrophes(raw) if ("'" in raw or "\u2019" in raw) else raw
    if not word:
        return
    whole = word.lower()
    out.append(whole)
    if _VERSION_RE.match(whole):
        out.append(whole[1:])  # "v1.2.3" also matches a query for "1.2.3"
    if _JOINERS_RE.search(word):
        for part in _JOINERS_RE.split(word):
            # One-character parts ("1" of 1.2.3, "e" of e.g) are noise.
            if len(part) > 1:
                out.append(part.lower())
                out.extend(p for p in _camel_parts(part) if len(p) > 1)
    else:
        parts = _camel_parts(word)
        if len(parts) > 1:
            out.extend(p for p in parts if len(p) > 1)


def tokenize(text: str) -> list[str]:
    """Tokens of ``text`` for the BM25 index, in text order, duplicates kept.

    Lower-cased; NFKC-normalised first so full-width ``ＡＢＣ１２３`` and
    ``，`` behave like ASCII. Han runs are segmented with jieba
    ``cut_for_search`` (overlapping sub-words included, which is what gives
    recall on partial Chinese queries). Punctuation and whitespace never
    become tokens. Term frequency matters to BM25, so nothing is removed here;
    use :func:`query_terms` for the query side.
    """
    if not text:
        return []
    text = unicodedata.normalize("NFKC", text)
    out: list[str] = []
    for m in _TOKEN_RE.finditer(text):
        cjk = m.group("cjk")
        if cjk is not None:
            out.extend(_cut_cjk(cjk))
        else:
            _word_tokens(m.group("word"), out)
    return out


def query_terms(text: str) -> list[str]:
    """Query-side tokens: :func:`tokenize`, minus stopwords, de-duplicated, order kept.

    If every token is a stopword (e.g. "what is it"), the de-duplicated tokens
    are returned instead of nothing, so a query always has something to match.
    """
    tokens = tokenize(text)
    seen: dict[str, None] = {}
    for tok in tokens:
        if tok not in _STOPWORDS:
            seen.setdefault(tok, None)
    if not seen:
        return list(dict.fromkeys(tokens))
    return list(seen)


def fts_match_query(terms: list[str], operator: str = "OR") -> str:
    """An FTS5 ``MATCH`` expression for ``terms``: each term double-quoted, joined by ``operator``.

    Quoting is needed because FTS5 bare words may not contain ``.`` or ``-``
    and words like ``AND``/``NOT``/``NEAR`` are operators. Returns ``""`` for
    no terms (the caller should skip the FTS query then).
    """
    quoted = ['"' + t.replace('"', '""') + '"' for t in terms if t]
    return f" {operator} ".join(quoted)
