"""A learned re-ranking of a mixed-script search's best candidates (issue 10, round 6).

In a store that holds both Chinese and English memories the fused order (dense by script, BM25, the
cross-lingual and gloss channels) leaves the right memory at rank 6-20 for a quarter of the paraphrase and
cross-language questions of the released blind rounds: each channel votes by rank only, so a strong dense
match in the other script and a weak BM25 echo in the query's own script count alike. This step describes
each of the best `POOL` candidates with what the search already knows (every channel's rank and score, the
raw query cosine, the script pair) plus cheap overlaps (the query's content words, its Han characters and
character pairs, its Latin tokens and numbers, its dictionary glosses across scripts) and orders them by a
logistic model fitted on the 18 released retrieval rounds and two training stores (`bench/rerank23_fit.py`,
measured leave-one-round-out through the real path; coefficients in data/xling_rerank.json). Round 23 added the
dictionary (`translated`) channel's rank, which the round-17 fit predates; a model file names the columns it reads.

It runs only where it was fitted: the dense pool spans both scripts. An English-only store (LoCoMo) never
sees it. No encoder call; the features cost a tokenisation of the query and of `POOL` memory texts.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from hindsight.retrieval.bilingual import english_words
from hindsight.retrieval.glossmatch import english_side
from hindsight.text.script import HAN_EXTENDED
from hindsight.text.tokenize import query_terms

MODEL_FILE = Path(__file__).resolve().parent.parent / "data" / "xling_rerank.json"
#: candidates re-ordered (the search's own best first); the rest keep their place below them
#: The model was fitted on full pools of this many hits from 300-memory stores; a smaller pool (a store of a handful of
#: memories) is outside what it saw (ranks and gaps mean something else there) and keeps the fused order.
POOL = 20
FEATURES = (
    "zh_query", "same_script", "order_rrank", "dense_rrank", "dense_score", "cos", "keyword_rrank",
    "keyword_log", "cross_rrank", "gloss_rrank", "fused", "words_same", "words_same_x", "tokens",
    "gloss_shared", "gloss_shared_x", "han_chars", "han_bigrams", "translated_rrank", "rendered_rrank",
)
#: the Explanation fields a candidate dict carries
EXPLANATION_FIELDS = {"dense_rank", "dense_score", "keyword_rank", "keyword_score", "crosslingual_rank", "gloss_rank",
                      "translated_rank", "rendered_rank", "fused"}
#: columns `expand` adds: gaps to the pool's best, and the channel ranks split by the script pair
DERIVED = ("dense_gap", "cos_gap", "dense_rrank_same", "dense_rrank_other", "keyword_rrank_zh", "cross_rrank_zh",
           "cos_gap_same", "translated_rrank_zh", "rendered_rrank_zh")
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*[A-Za-z0-9]|\d+(?:\.\d+)?")
_HAN = re.compile(f"[{HAN_EXTENDED}]")  # one Han character (the shared range in text/script.py)
#: characters that carry grammar or the question's form, not its topic (left out of `_han_chars`)
_HAN_FUNCTION = frozenset("的了是在有和就都也要我们你他她它这那个吗呢吧啊么什怎哪谁几多少还能会到说")


def _rr(rank: int | None) -> float:
    return 1.0 / rank if rank else 0.0


@lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    """Content terms as the keyword index sees them (jieba words for Chinese, whole English words)."""
    return frozenset(t for t in query_terms(text.lower()) if len(t) > 1 or _HAN.fullmatch(t) is None)


@lru_cache(maxsize=4096)
def _tokens(text: str) -> frozenset[str]:
    """Latin identifiers and numbers ("Redis", "6380", "pg-main"): shared across scripts as written."""
    return frozenset(t.lower() for t in _TOKEN.findall(text))


@lru_cache(maxsize=4096)
def _han_chars(text: str) -> frozenset[str]:
    """Han characters of `text` other than function characters."""
    return frozenset(c for c in _HAN.findall(text) if c not in _HAN_FUNCTION)


@lru_cache(maxsize=4096)
def _han_bigrams(text: str) -> frozenset[str]:
    """Adjacent Han character pairs of `text`."""
    return frozenset(a + b for a, b in zip(text, text[1:]) if _HAN.fullmatch(a) and _HAN.fullmatch(b))


def _share(wanted: frozenset[str], found: frozenset[str]) -> float:
    return len(wanted & found) / len(wanted) if wanted else 0.0


def features_of(query: str, query_group: str, cand: Mapping[str, Any], order: int) -> list[float]:
    """One candidate's inputs. `cand` holds the search's view of it: `group` (its script group), `text`,
    `cos` (raw query cosine) and the Explanation's dense/keyword/crosslingual/gloss ranks and scores and
    `fused`; `order` is its 1-based place in the search's own order."""
    zh = query_group == "zh"
    same = cand["group"] == query_group
    text = cand["text"]
    words = _share(_words(query), _words(text)) if same else 0.0
    # a Chinese paraphrase often shares characters but no jieba word with its memory (排风扇 / 抽风的机器)
    chars = _share(_han_chars(query), _han_chars(text)) if same else 0.0
    bigrams = _share(_han_bigrams(query), _han_bigrams(text)) if same else 0.0
    gloss = 0.0
    if not same:
        glossed = english_words(query) if zh else english_side(query)
        gloss = math.log1p(len(glossed & (english_side(text) if zh else english_words(text))))
    keyword = cand.get("keyword_score")
    return [
        float(zh), float(same), 1.0 / order, _rr(cand.get("dense_rank")), cand.get("dense_score") or 0.0,
        cand.get("cos") or 0.0, _rr(cand.get("keyword_rank")), math.log1p(max(keyword or 0.0, 0.0)),
        _rr(cand.get("crosslingual_rank")), _rr(cand.get("gloss_rank")), cand.get("fused") or 0.0,
        words, words * float(zh), _share(_tokens(query), _tokens(text)), gloss, gloss * float(zh), chars, bigrams,
        _rr(cand.get("translated_rank")), _rr(cand.get("rendered_rank")),
    ]


def expand(rows: list[list[float]]) -> list[list[float]]:
    """`features_of` rows of one query's pool plus the DERIVED columns (they compare a candidate with the pool)."""
    i = {name: k for k, name in enumerate(FEATURES)}
    best_dense = max((row[i["dense_score"]] for row in rows), default=0.0)
    best_cos = {same: max((row[i["cos"]] for row in rows if row[i["same_script"]] == same), default=0.0)
                for same in (0.0, 1.0)}
    out = []
    for row in rows:
        same, zh = row[i["same_script"]], row[i["zh_query"]]
        cos_gap = row[i["cos"]] - best_cos[same]
        out.append([*row, row[i["dense_score"]] - best_dense, cos_gap, same * row[i["dense_rrank"]],
                    (1 - same) * row[i["dense_rrank"]], zh * row[i["keyword_rrank"]], zh * row[i["cross_rrank"]],
                    same * cos_gap, zh * row[i["translated_rrank"]], zh * row[i["rendered_rrank"]]])
    return out


@dataclass(frozen=True)
class XlingModel:
    """Logistic regression over standardised features: z = b + w . (x - mean) / scale, over the columns of an
    `expand` row named by `index` (a model fitted before a feature existed keeps reading the columns it names)."""

    coef: tuple[float, ...]
    intercept: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    index: tuple[int, ...] = ()

    def score(self, values: list[float]) -> float:
        picked = [values[i] for i in self.index] if self.index else values
        return self.intercept + sum(c * (v - m) / s for c, v, m, s in zip(self.coef, picked, self.mean, self.scale))


def load(path: Path) -> XlingModel | None:
    """The model in `path`, or None when it names a column this code does not compute."""
    entry = json.loads(path.read_text(encoding="utf-8"))
    columns = [*FEATURES, *DERIVED]
    if not set(entry["features"]) <= set(columns):
        return None
    index = tuple(columns.index(name) for name in entry["features"])
    return XlingModel(tuple(entry["coef"]), float(entry["intercept"]), tuple(entry["mean"]), tuple(entry["scale"]),
                      index)


@lru_cache(maxsize=1)
def model() -> XlingModel | None:
    """The fitted model, or None without a file whose features this code computes."""
    return load(MODEL_FILE) if MODEL_FILE.exists() else None


#: set by bench/xling_dump.py to a list: every call of `reorder` appends (query, ids, feature rows) to it
CAPTURE: list[tuple[str, list[str], list[list[float]]]] | None = None


def reorder(query: str, query_group: str, cands: list[dict[str, Any]]) -> tuple[list[int], list[float]] | None:
    """The new order (indices into `cands`, the search's best first, at most POOL) and each candidate's
    score, or None without a model.

    Each candidate is a dict as `features_of` reads it plus its `id`."""
    rows = [features_of(query, query_group, cand, k) for k, cand in enumerate(cands[:POOL], start=1)]
    if CAPTURE is not None:
        CAPTURE.append((query, [cand["id"] for cand in cands[:POOL]], rows))
    fitted = model()
    if fitted is None or not rows:
        return None
    scores = [fitted.score(row) for row in expand(rows)]
    return sorted(range(len(rows)), key=lambda i: -scores[i]), scores
