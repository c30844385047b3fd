"""The gloss channel: other-script dense candidates that share dictionary meaning or a name with the query.

BM25 matches only within a script, so for an English question over a Chinese memory the keyword channel
has nothing to say about the right memory and its English-side noise outvotes the dense channel. A
dictionary-translated BM25 channel over the whole store was measured and dropped (docs/benchmarks.md, round 3):
English -> Chinese glosses are too broad (提交 -> "submit", "refer"; "books" -> 书籍) and matched noise all
over the store. This channel keeps the dictionary but turns it around and narrows it:

* it only re-orders the memories the multilingual dense model already put in the pool, in the other script
  than the query (the `crosslingual` list): the dictionary never brings in a memory, it only votes among
  the candidates;
* it reads CC-CEDICT in its own direction, Chinese word -> English senses (`bilingual.english_words`), and
  compares English words with English words, stemmed;
* a match weighs by how rare the word is *in that candidate list* (a word every candidate glosses, "user",
  "data", weighs nothing);
* a romanised Chinese name counts as a shared word: "Lin Kai" meets 林凯, "Doubao" 豆包 (the pinyin of the
  Han characters, without tones, `bilingual.pinyin`).

The list it returns is fused by RRF like the other channels (weight `gloss_weight`).

`translated_ranked` is the one place the dictionary does bring memories in: a Chinese question's words glossed into
English (`bilingual.english_words`, CC-CEDICT's first senses) and searched by BM25 over the whole scope, English
memories only (weight `translated_weight`). The embedder leaves a Chinese question's English answer outside its pool
or far down the cross-lingual lane for a fifth of the released rounds' ZH -> EN misses while its words, glossed, are
the answer's own words (培训的录像 -> "train", "videotape"; docs/benchmarks.md, paraphrase round 18). An English
question is never translated (English -> Chinese glosses are too broad: round 3).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from hindsight.retrieval.bilingual import chinese_words, english_words, name_keys, stem
from hindsight.retrieval.crosslingual import bias_group
from hindsight.text.tokenize import EN_STOPWORDS, query_terms

#: A Chinese query glosses each of its words into several English senses, so one shared word is weak evidence:
#: its gloss votes need `ZH_QUERY_MIN_SHARED` shared words and weigh `ZH_QUERY_FACTOR` x gloss_weight
#: (an English query: one word, full weight). Chosen on r1 + r2 (docs/benchmarks.md, round 5): full weight for
#: Chinese queries cost ZH paraphrase 2 of 27 on r2, 0.2 with two words kept it and gained ZH -> EN.
ZH_QUERY_MIN_SHARED = 2
ZH_QUERY_FACTOR = 1 / 2
#: a translated hit must hold this many of the query's glossed words (English side, stemmed): one glossed word is
#: often a broad sense of a Chinese word ("机器" -> "machine") that half the English memories hold
TRANSLATED_MIN_SHARED = 1
#: the translated channel runs only when the dense pool holds at least this many memories (the learned order's pool,
#: `xling_rerank.POOL`): its weight was chosen on 300-memory stores, where the answer it brings is one of hundreds;
#: in a store of a handful every memory is in every lane already, and an English twin of a Chinese memory would only
#: gain a vote over the exact Chinese match (tests/test_relevance.py)
TRANSLATED_MIN_POOL = 20

_EN_WORD = re.compile(r"[a-z][a-z'\-]*[a-z]")
#: query words that say what kind of question (or of fact) it is, not what it is about: question words and
#: verbs of wanting and liking ("what language does the user like" must not meet every 喜欢 memory)
_QUESTION_WORDS = frozenset({"what", "which", "who", "whom", "whose", "when", "where", "why", "how", "much", "many",
                             "should", "would", "could", "can", "does", "did", "do", "is", "are", "use", "used",
                             "need", "want", "ok", "okay", "fine", "good", "best", "right", "usually", "currently",
                             "now", "still", "ask", "our", "we", "us", "user", "users", "like", "prefer", "wish",
                             "love", "needs", "wants", "likes", "prefers"})


@lru_cache(maxsize=4096)
def english_side(text: str) -> frozenset[str]:
    """Stemmed English content words of `text` (Latin words only, minus stopwords and question words)."""
    return frozenset(stem(t) for t in query_terms(text.lower()) if _EN_WORD.fullmatch(t)
            and t not in EN_STOPWORDS and t not in _QUESTION_WORDS)


def gloss_ranked(query: str, candidates: list[tuple[str, float]], content_of: Mapping[str, str]
                 ) -> list[tuple[str, float]]:
    """`candidates` (other-script hits, best first) that share meaning with `query`, best first.

    Score: sum over shared words of log(1 + n / df), df = how many candidates share that word with the
    query; ties keep the candidates' order."""
    if not candidates:
        return []
    side: Callable[[str], frozenset[str]]
    if bias_group(query) == "en":
        wanted = english_side(query) | name_keys(query, latin=True)
        side = lambda text: english_words(text) | name_keys(text, latin=False)
    else:
        wanted = english_words(query) | name_keys(query, latin=False)
        side = lambda text: english_side(text) | name_keys(text, latin=True)
    if not wanted:
        return []
    shared = {mid: wanted & side(content_of[mid]) for mid, _ in candidates if mid in content_of}
    df: dict[str, int] = {}
    for found in shared.values():
        for w in found:
            df[w] = df.get(w, 0) + 1
    least = 1 if bias_group(query) == "en" else ZH_QUERY_MIN_SHARED
    shared = {mid: found for mid, found in shared.items() if len(found) >= least}
    n = len(shared)
    scored = [(mid, sum(math.log(1 + n / df[w]) for w in shared[mid])) for mid, _ in candidates if shared.get(mid)]
    order = {mid: i for i, (mid, _) in enumerate(candidates)}
    return sorted(scored, key=lambda item: (-item[1], order[item[0]]))


def translated_terms(query: str) -> list[str]:
    """A Chinese query's words as English search terms: the stemmed content words of their dictionary senses,
    minus question words (sorted, so the same query always asks the same)."""
    return sorted(english_words(query) - _QUESTION_WORDS)


def translated_ranked(query: str, search: Callable[[list[str]], Sequence[tuple[str, float]]],
                      content_of: Callable[[list[str]], Mapping[str, str]]) -> list[tuple[str, float]]:
    """The English memories a BM25 `search` over a Chinese `query`'s translated terms finds, best first; [] for an
    English query or one without dictionary words. `content_of`: ids -> their texts (unreadable ids are left out)."""
    if bias_group(query) != "zh":
        return []
    terms = translated_terms(query)
    hits = list(search(terms)) if terms else []
    texts = content_of([mid for mid, _ in hits]) if hits else {}
    wanted = frozenset(terms)
    return [(mid, score) for mid, score in hits if mid in texts and bias_group(texts[mid]) == "en"
            and (TRANSLATED_MIN_SHARED <= 1 or len(wanted & english_side(texts[mid])) >= TRANSLATED_MIN_SHARED)]


def reverse_ranked(query: str, search: Callable[[list[str]], Sequence[tuple[str, float]]],
                   content_of: Callable[[list[str]], Mapping[str, str]]) -> list[tuple[str, float]]:
    """The Chinese memories a BM25 `search` over an English `query`'s words rendered in Chinese finds, best first;
    [] for a Chinese query or one without dictionary words."""
    if bias_group(query) != "en":
        return []
    terms = chinese_words(english_side(query))
    hits = list(search(terms)) if terms else []
    texts = content_of([mid for mid, _ in hits]) if hits else {}
    return [(mid, score) for mid, score in hits if mid in texts and bias_group(texts[mid]) == "zh"]
