"""Round 46: per-candidate features of today's top 20 / 30 over round 40's collected rows (measurement only).

Only what the search holds or can compute cheaply (declared in bench/results/rank46/ship_rule.md): the lists'
ranks, the query's cosine to the turn and to its session's mean vector, session agreement in today's head, the
neighbours' ranks, the named speaker, own-text overlap (`retrieval/turn_features.rows`), and question-shape
interactions (asks_list, asks_when). No category, no evidence label.
"""
from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "recall38"))
from fuse import apply as apply38  # noqa: E402
from fuse import load  # noqa: E402

sys.path.insert(0, str(HERE.parents[1] / "src"))
from hindsight.retrieval import turn_features  # noqa: E402
from hindsight.retrieval.class_lexicon import asks_list  # noqa: E402
from hindsight.text.tokenize import query_terms  # noqa: E402

PICK40 = ("inst", "rrf", 0.5, "speaker")  # round 40's shipped step 6d (list questions only)
NAMES = ("log_rank", "log_base", "log_first", "log_kw", "log_inst", "cos", "cos_gap", "log_cos_rank", "sess_cos",
         "sess_cos_gap", "sess_top10", "sess_head", "log_neighbour", "speaker_named", "speaker_other", "term_hits",
         *turn_features.NAMES, "L_cos", "L_own_terms", "L_speaker", "L_sess_top10", "L_log_rank", "W_log_rank",
         "W_names_time")
_DIA = re.compile(r"^D(\d+):(\d+)$")


def question_features(question: str) -> tuple[float, float]:
    return float(asks_list(question)), float(turn_features.asks_when(question))


def _log_rank(lst: list[str], d: str, absent: int) -> float:
    try:
        return math.log(lst.index(d) + 1)
    except ValueError:
        return math.log(absent)


def _neighbours(d: str) -> list[str]:
    m = _DIA.match(d or "")
    if not m:
        return []
    s, n = int(m.group(1)), int(m.group(2))
    return [f"D{s}:{n - 1}", f"D{s}:{n + 1}"]


def features(q: dict, store: dict, head: list[str], ctx: dict) -> np.ndarray:
    index, sess_mean = ctx["index"], ctx["sess_mean"]
    qv = np.asarray(q["qv"], dtype=np.float32)
    qv = qv / (np.linalg.norm(qv) or 1.0)
    idx = [index.get(d) for d in head]
    cos = np.array([float(ctx["unit"][i] @ qv) if i is not None else 0.0 for i in idx])
    sessions = [store["session"][i] if i is not None else "" for i in idx]
    scos = np.array([float(sess_mean[s] @ qv) if s in sess_mean else 0.0 for s in sessions])
    top10 = sessions[:10]
    named = set(store["speaker"]) & set(q["names"])
    is_list, is_when = question_features(q["q"])
    residual_terms = set(query_terms(q["residual"])) - {t for n in q["names"] for t in query_terms(n)}
    contents = {d: store["own"][i] if i is not None else "" for d, i in zip(head, idx, strict=True)}
    own = turn_features.rows(contents, head, q["residual"], q["q"])
    today_rank = {d: r for r, d in enumerate(q["today"][:50])}
    inst = q["lists"].get("inst") or []
    out = []
    for r, (d, i) in enumerate(zip(head, idx, strict=True)):
        speaker = store["speaker"][i] if i is not None else ""
        nb = [today_rank[n] for n in _neighbours(d) if n in today_rank]
        terms = set(query_terms(contents[d]))
        spk = float(bool(named) and speaker in named)
        row = [math.log(r + 1), _log_rank(q["base"], d, 51), _log_rank(q["first"], d, 101),
               _log_rank(q["lists"]["kw_q"], d, 101), _log_rank(inst, d, 101), cos[r], cos[r] - cos.max(),
               _log_rank(q["lists"]["cos"], d, 101), scos[r], scos[r] - scos.max(),
               float(sum(1 for s in top10 if s == sessions[r])) - float(r < 10),
               float(sum(1 for s in sessions if s == sessions[r]) - 1), math.log(min(nb) + 1) if nb else math.log(51),
               spk, float(bool(named) and not spk), float(len(terms & residual_terms)), *own[d]]
        row += [is_list * cos[r], is_list * own[d][0], is_list * spk, is_list * row[10], is_list * row[0],
                is_when * row[0], is_when * own[d][4]]
        out.append(row)
    return np.asarray(out, dtype=np.float64)


def prepare(col: Path, convs: list[int], depths: tuple[int, ...]) -> list[tuple[dict, dict]]:
    """Round 40's rows with today's order and the features of its first `depth` for each depth."""
    rows = load(col, convs)
    ctxs: dict[int, dict] = {}
    for q, store in rows:
        if id(store) not in ctxs:
            m = store["matrix"].astype(np.float32)
            unit = m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)
            by: dict[str, list[int]] = {}
            for i, s in enumerate(store["session"]):
                by.setdefault(s, []).append(i)
            means = {s: unit[ix].sum(axis=0) for s, ix in by.items()}
            ctxs[id(store)] = {"unit": unit, "index": {d: i for i, d in enumerate(store["dia"])},
                               "sess_mean": {s: v / (np.linalg.norm(v) or 1.0) for s, v in means.items()}}
        q["today"] = apply38(q, store, PICK40) if asks_list(q["q"]) else q["base"]
        q["feat"] = {}
        for depth in depths:
            head = q["today"][:depth]
            ev = set(q["evidence"])
            q["feat"][depth] = (features(q, store, head, ctxs[id(store)]),
                                np.array([1 if d in ev else 0 for d in head]))
    return rows
