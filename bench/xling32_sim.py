"""Offline fusion variants over `xling32_dump.py` dumps (issue 10, round 32).

    python bench/xling32_sim.py DUMP_DIR VARIANTS.json r1 r2 ... > table.json
    python bench/xling32_sim.py DUMP_DIR --grid r1 r2 ... > loro.json   # the declared grid, leave-one-round-out
    python bench/xling32_sim.py DUMP_DIR --cands 20 OUT_DIR r1 r2 ...  # rerank23_fit.py's rows from the dumps

Re-runs, for each question of a mixed-script pool, the language-aware lanes (`channels._language_aware`: the dense
channel by script, the cross-lingual and gloss lanes), the weighted rank fusion, the order after fusion (each hit's
captured multiplier: priors, status, boosts), the learned mixed-pool order and the dense slot, with each variant's
settings; the keyword and dictionary (`translated`) lists are the dump's. The later steps of the real path (currency
flags, which move an older version below its newer one) are not replayed, nor a question whose parsed filter
narrowed or widened the search: those keep the dump's own result. `main` (no settings) must reproduce the dump's hits
(`agree` counts the questions whose simulated top 5 is the dump's, as a set).

A variant (VARIANTS.json: name -> settings) may set:
  zh_dense       "pool" (main: a Chinese question's dense channel ranks its whole pool by script) or "head" (as an
                 English question's: the raw top dense_candidates, by script only where they mix)
  zh_level       for a Chinese question, the share of the gap between the other script's reference level and its
                 own that `by_script` takes off an English hit (1: each script's best sit level)
  w_<channel>    the RRF weight of a channel for a Chinese question (main: the settings' weights)
  en_w_<channel> the same for an English question
"""

import json
import math
import statistics
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from hindsight.config import RetrievalSettings
from hindsight.retrieval import xling_rerank
from hindsight.retrieval.channels import weights
from hindsight.retrieval.crosslingual import REFERENCE_DEPTH, bias_group
from hindsight.retrieval.fusion import reciprocal_rank_fusion
from hindsight.retrieval.glossmatch import gloss_ranked

R = RetrievalSettings()
CATS = ("en_paraphrase", "zh_paraphrase", "zh_to_en", "en_to_zh", "superseded")


def by_script(dense: list, script: dict, own: str, share: float = 1.0) -> list:
    """`crosslingual.by_script`; with `share` < 1 a hit of the other script than `own` (the question's) loses only
    that share of the gap between its script's reference level and the question's script's."""
    per: dict = {}
    for mid, s in dense:
        per.setdefault(script.get(mid), []).append(s)
    level = {k: sum(v[:REFERENCE_DEPTH]) / len(v[:REFERENCE_DEPTH]) for k, v in per.items()}
    base = level.get(own, 0.0)
    shifted = {k: (x if k == own or own not in level else share * x + (1 - share) * base) for k, x in level.items()}
    return sorted(((mid, s - shifted[script.get(mid)]) for mid, s in dense), key=lambda x: -x[1])


def lanes(q: dict, script: dict, texts: dict, v: dict) -> dict | None:
    """The channel lists of a mixed-script pool under variant `v`; None when the pool is one script."""
    raw = [(mid, s) for mid, s in q["raw"] if mid is not None]
    if len({script.get(mid) for mid, _ in raw}) < 2:
        return None
    zh = bias_group(q["text"]) == "zh"
    group = "zh" if zh else "en"
    share = v.get("zh_level", 1.0) if zh else 1.0
    ranked = by_script(raw, script, group, share)
    if zh and v.get("zh_dense", "pool") == "pool":
        own = ranked
    else:
        own = raw[: R.dense_candidates]
        if len({script.get(mid) for mid, _ in own}) > 1:
            own = by_script(own, script, group, share)
    other = [(mid, s) for mid, s in ranked if script.get(mid) not in (None, group)]
    out = {"dense": own[: R.dense_candidates], "crosslingual": other[: R.dense_candidates],
           "gloss": gloss_ranked(q["text"], other, texts)}
    for name in ("keyword", "translated"):
        if name in q["scored"]:
            out[name] = [(mid, s) for mid, s in q["scored"][name]]
    return out


def simulate(q: dict, script: dict, texts: dict, vec: dict, qv: np.ndarray, v: dict,
             pool_out: list | None = None, order_out: list | None = None) -> list[str] | None:
    """The simulated top 5 (set ids) of question `q`, or None when it is not simulated (see the docstring);
    `pool_out`: filled with the candidates the learned order reads (`v["pool"]` of them, 20 by default)."""
    if q["narrowed"] or q["widened"] or q["held"] or "crosslingual" not in q["scored"] or not q["factor"]:
        return None
    lists = lanes(q, script, texts, v)
    if lists is None:
        return None
    zh = bias_group(q["text"]) == "zh"
    w = weights(R, mixed=True, query_group="zh" if zh else "en")
    prefix = "w_" if zh else "en_w_"
    w.update({k[len(prefix):]: float(x) for k, x in v.items() if k.startswith(prefix)})
    fused = reciprocal_rank_fusion({c: [m for m, _ in hits] for c, hits in lists.items()}, w, k=R.rrf_k)
    default = statistics.median(q["factor"].values())
    score = {mid: f * q["factor"].get(mid, default) for mid, f in fused.items() if mid in texts}
    order = sorted(score, key=lambda mid: -score[mid])
    rank = {c: {mid: k for k, (mid, _) in enumerate(hits, start=1)} for c, hits in lists.items()}
    value = {c: dict(hits) for c, hits in lists.items()}
    if len(order) >= xling_rerank.POOL and xling_rerank.model() is not None:
        cands = []
        for mid in order[: max(xling_rerank.POOL, v.get("pool", xling_rerank.POOL))]:
            stored = vec.get(mid)
            cos = float(np.dot(qv, stored) / (np.linalg.norm(stored) or 1.0)) if stored is not None else None
            cands.append({"id": mid, "group": script[mid], "text": texts[mid], "cos": cos,
                          "dense_rank": rank["dense"].get(mid),
                          "dense_score": round(value["dense"][mid], 6) if mid in value["dense"] else None,
                          "keyword_rank": rank.get("keyword", {}).get(mid),
                          "keyword_score": round(value["keyword"][mid], 6) if mid in value.get("keyword", {}) else None,
                          "crosslingual_rank": rank["crosslingual"].get(mid), "gloss_rank": rank["gloss"].get(mid),
                          "translated_rank": rank.get("translated", {}).get(mid), "rendered_rank": None,
                          "fused": round(fused[mid], 6)})
        if pool_out is not None:
            pool_out.extend(dict(c) for c in cands)
        cands = cands[: v.get("pool", xling_rerank.POOL)]
        got = xling_rerank.reorder(q["text"], "zh" if zh else "en", cands)
        if got is not None:
            order = [cands[i]["id"] for i in got[0]] + order[xling_rerank.POOL:]
    # the dense slot (fusion.keep_dense_best with dense_slot 1, head 5)
    if len(order) > 5 and R.dense_slot > 0:
        late = [mid for mid in order[5:] if rank["dense"].get(mid, math.inf) <= R.dense_slot][:4]
        if late:
            head = order[: 5 - len(late)]
            order = head + late + [mid for mid in order if mid not in head and mid not in late]
    if order_out is not None:
        order_out.extend(order[: xling_rerank.POOL])
    return order[:5]


def script_quota(order: list[str], script: dict, q: int, head: int = 5, depth: int = 20) -> list[str]:
    """`order` with at least `q` memories of each script in its first `head` where the first `depth` hold them: the
    best one of a short script below the head takes the lowest place the other script holds beyond its own `q`."""
    top = list(order[:head])
    for s in ("zh", "en"):
        while sum(script.get(m) == s for m in top) < q:
            others = [m for m in top if script.get(m) != s]
            cand = next((m for m in order[head:depth] if script.get(m) == s and m not in top), None)
            if cand is None or len(others) <= q:
                break
            top.remove(others[-1])
            top.append(cand)
    return top + [m for m in order if m not in top]


QUOTAS = {"off": (0, False), "zh1": (1, False), "zh2": (2, False), "all1": (1, True), "all2": (2, True)}


def quota_hits(dump: Path, rounds: list[str]) -> dict:
    """round -> option -> category -> hits (simulated order; a question not simulated keeps the dump's hit)."""
    out: dict = {}
    for rnd in rounds:
        mems, qs, vec, qvs = load(dump, rnd)
        texts = {sid: m["text"] for sid, m in mems.items() if m["status"] == "active"}
        script = {sid: bias_group(t) for sid, t in texts.items()}
        table = {name: Counter() for name in QUOTAS}
        for q, qv in zip(qs, qvs, strict=True):
            order: list = []
            top = simulate(q, script, texts, vec, qv, {}, order_out=order)
            zh = q["text"] is not None and bias_group(q["text"]) == "zh"
            for name, (n, every) in QUOTAS.items():
                if top is None:
                    hit = q["hit"]
                else:
                    head = script_quota(order, script, n)[:5] if n and (zh or every) else top
                    hit = bool(set(head) & set(q["relevant"]))
                table[name][q["cat"]] += hit
        out[rnd] = {name: dict(c) for name, c in table.items()}
        print(rnd, file=sys.stderr, flush=True)
    return out


def load(dump: Path, rnd: str) -> tuple[dict, list[dict], dict, np.ndarray]:
    lines = [json.loads(line) for line in open(dump / f"{rnd}.jsonl", encoding="utf-8")]
    data = np.load(dump / f"{rnd}.npz")
    vec = dict(zip(data["ids"].tolist(), data["vectors"], strict=True))
    return lines[0]["memories"], lines[1:], vec, data["queries"]


def write_cands(dump: Path, out: Path, pool: int, rounds: list[str]) -> None:
    """`rerank23_eval.py`'s rows (OUT/main_ROUND.jsonl) from the dumps: each question's `pool` best candidates through
    the main fusion (none where the question is not simulated: `rerank23_fit.py` keeps its hit)."""
    out.mkdir(parents=True, exist_ok=True)
    for rnd in rounds:
        mems, qs, vec, qvs = load(dump, rnd)
        texts = {sid: m["text"] for sid, m in mems.items() if m["status"] == "active"}
        script = {sid: bias_group(t) for sid, t in texts.items()}
        with open(out / f"main_{rnd}.jsonl", "w", encoding="utf-8") as f:
            for q, qv in zip(qs, qvs, strict=True):
                cands: list = []
                top = simulate(q, script, texts, vec, qv, {"pool": pool}, cands)
                text = q["text"] or q["query"]
                f.write(json.dumps({"round": rnd, "line": q["line"], "cat": q["cat"], "hit": q["hit"],
                                    "relevant": q["relevant"], "returned": q["returned"], "text": text,
                                    "group": bias_group(text), "cands": cands if top is not None else []},
                                   ensure_ascii=False) + "\n")


def main() -> None:
    if sys.argv[2] == "--quota":  # DUMP --quota r1 r2 ...: the script quota options per round
        print(json.dumps(quota_hits(Path(sys.argv[1]), sys.argv[3:]), indent=1))
        return
    if sys.argv[2] == "--cands":  # DUMP --cands POOL OUT r1 r2 ...
        write_cands(Path(sys.argv[1]), Path(sys.argv[4]), int(sys.argv[3]), sys.argv[5:])
        return
    if sys.argv[2] == "--grid":  # the declared grid, leave-one-round-out
        hits = grid_hits(Path(sys.argv[1]), sys.argv[3:])
        print(json.dumps({"loro": loro(hits), "grid": points(), "hits": hits}, ensure_ascii=False, indent=1))
        return
    dump, variants = Path(sys.argv[1]), json.loads(Path(sys.argv[2]).read_text())
    variants = {"main": {}, **variants}
    table: dict = {name: {"hits": {}, "agree": 0, "simulated": 0} for name in variants}
    per_round: dict = {name: {} for name in variants}
    for rnd in sys.argv[3:]:
        mems, qs, vec, qvs = load(dump, rnd)
        texts = {sid: m["text"] for sid, m in mems.items() if m["status"] == "active"}
        script = {sid: bias_group(t) for sid, t in texts.items()}
        for name, v in variants.items():
            hits: Counter = Counter()
            for q, qv in zip(qs, qvs, strict=True):
                top = simulate(q, script, texts, vec, qv, v)
                if top is None:
                    hit = q["hit"]
                else:
                    hit = bool(set(top) & set(q["relevant"]))
                    table[name]["simulated"] += 1
                    table[name]["agree"] += set(top) == set(q["returned"])
                hits[q["cat"]] += hit
            per_round[name][rnd] = dict(hits)
    for name in variants:
        table[name]["hits"] = {c: sum(r.get(c, 0) for r in per_round[name].values()) for c in CATS}
    print(json.dumps({"pooled": table, "per_round": per_round}, ensure_ascii=False, indent=1))


# ------------------------------------------------------------------ the declared grid, leave-one-round-out
GRID = {"zh_level": (0.8, 0.9, 1.0, 1.1, 1.2), "w_crosslingual": (0.2, 0.4, 0.6), "w_translated": (0.2, 0.4, 0.6),
        "w_keyword": (0.8, 1.0), "pool": (20, 30)}
MAIN = {"zh_level": 1.0, "w_crosslingual": 0.4, "w_translated": 0.4, "w_keyword": 0.8, "pool": 20}


def points() -> list[dict]:
    out = [{}]
    for key, values in GRID.items():
        out = [{**p, key: x} for p in out for x in values]
    return out


def fast_top5(q: dict, lists: dict, script: dict, texts: dict, vec: dict, qv: np.ndarray, w: dict, pool: int,
              feats: dict) -> list[str]:
    """`simulate`'s top 5 for one weight setting over precomputed `lists`; `feats` caches each candidate's feature
    row (the order and fused columns are set per setting)."""
    fused = reciprocal_rank_fusion({c: [m for m, _ in hits] for c, hits in lists.items()}, w, k=R.rrf_k)
    default = statistics.median(q["factor"].values())
    score = {mid: f * q["factor"].get(mid, default) for mid, f in fused.items() if mid in texts}
    order = sorted(score, key=lambda mid: -score[mid])
    rank = feats["__rank__"]
    model = xling_rerank.model()
    if len(order) >= xling_rerank.POOL and model is not None:
        zh = bias_group(q["text"]) == "zh"
        rows = []
        for k, mid in enumerate(order[:pool], start=1):
            if mid not in feats:
                stored = vec.get(mid)
                cos = float(np.dot(qv, stored) / (np.linalg.norm(stored) or 1.0)) if stored is not None else None
                value = feats["__value__"]
                cand = {"group": script[mid], "text": texts[mid], "cos": cos, "dense_rank": rank["dense"].get(mid),
                        "dense_score": round(value["dense"][mid], 6) if mid in value["dense"] else None,
                        "keyword_rank": rank.get("keyword", {}).get(mid),
                        "keyword_score": round(value["keyword"][mid], 6) if mid in value.get("keyword", {}) else None,
                        "crosslingual_rank": rank["crosslingual"].get(mid), "gloss_rank": rank["gloss"].get(mid),
                        "translated_rank": rank.get("translated", {}).get(mid), "rendered_rank": None, "fused": 0.0}
                feats[mid] = xling_rerank.features_of(q["text"], "zh" if zh else "en", cand, 1)
            row = list(feats[mid])
            row[2], row[10] = 1.0 / k, round(fused[mid], 6)
            rows.append(row)
        scores = [model.score(r) for r in xling_rerank.expand(rows)]
        top = sorted(range(len(rows)), key=lambda i: -scores[i])
        order = [order[i] for i in top] + order[pool:]
    if len(order) > 5 and R.dense_slot > 0:
        late = [mid for mid in order[5:] if rank["dense"].get(mid, math.inf) <= R.dense_slot][:4]
        if late:
            head = order[: 5 - len(late)]
            order = head + late + [mid for mid in order if mid not in head and mid not in late]
    return order[:5]


def grid_hits(dump: Path, rounds: list[str]) -> dict:
    """round -> point index -> category -> hits, over the declared grid (English questions keep the dump's hit)."""
    grid = points()
    out: dict = {}
    for rnd in rounds:
        kept = dump / f"grid_{rnd}.json"  # one round's grid hits, computed once
        if kept.exists():
            out[rnd] = json.loads(kept.read_text())
            continue
        mems, qs, vec, qvs = load(dump, rnd)
        texts = {sid: m["text"] for sid, m in mems.items() if m["status"] == "active"}
        script = {sid: bias_group(t) for sid, t in texts.items()}
        table = [Counter() for _ in grid]
        for q, qv in zip(qs, qvs, strict=True):
            zh = q["text"] is not None and bias_group(q["text"]) == "zh"
            live = zh and simulate(q, script, texts, vec, qv, {}) is not None
            if not live:
                for t in table:
                    t[q["cat"]] += q["hit"]
                continue
            by_level: dict = {}
            for i, p in enumerate(grid):
                level = p["zh_level"]
                if level not in by_level:
                    lists = lanes(q, script, texts, {"zh_level": level})
                    assert lists is not None
                    feats = {"__rank__": {c: {m: k for k, (m, _) in enumerate(h, start=1)} for c, h in lists.items()},
                             "__value__": {c: dict(h) for c, h in lists.items()}}
                    by_level[level] = (lists, feats)
                lists, feats = by_level[level]
                w = weights(R, mixed=True, query_group="zh")
                w.update({"crosslingual": p["w_crosslingual"], "translated": p["w_translated"], "keyword": p["w_keyword"]})
                top = fast_top5(q, lists, script, texts, vec, qv, w, p["pool"], feats)
                table[i][q["cat"]] += bool(set(top) & set(q["relevant"]))
        out[rnd] = [dict(t) for t in table]
        kept.write_text(json.dumps(out[rnd]))
        print(rnd, file=sys.stderr, flush=True)
    return out


def distance(p: dict) -> float:
    return sum(abs(p[k] - MAIN[k]) / (max(GRID[k]) - min(GRID[k])) for k in GRID)


def loro(hits: dict) -> dict:
    """Each round read by the grid point with the most hits on the other rounds (ties: nearest main)."""
    grid = points()
    rounds = list(hits)
    main_i = grid.index(MAIN)
    total = [sum(sum(hits[r][i].values()) for r in rounds) for i in range(len(grid))]
    chosen, held, base = {}, Counter(), Counter()
    per_round = {}
    for r in rounds:
        others = [total[i] - sum(hits[r][i].values()) for i in range(len(grid))]
        best = max(range(len(grid)), key=lambda i: (others[i], -distance(grid[i])))
        chosen[r] = grid[best]
        held.update(hits[r][best])
        base.update(hits[r][main_i])
        per_round[r] = {c: hits[r][best].get(c, 0) - hits[r][main_i].get(c, 0) for c in CATS}
    best_all = max(range(len(grid)), key=lambda i: (total[i], -distance(grid[i])))
    in_sample = Counter()
    for r in rounds:
        in_sample.update(hits[r][best_all])
    return {"main": {c: base[c] for c in CATS}, "held_out": {c: held[c] for c in CATS},
            "held_out_minus_main_per_round": per_round, "chosen": chosen,
            "in_sample_point": grid[best_all], "in_sample": {c: in_sample[c] for c in CATS},
            "top_points": sorted(({"point": grid[i], "hits": total[i]} for i in range(len(grid))),
                                 key=lambda x: -x["hits"])[:10], "main_total": total[main_i]}


if __name__ == "__main__":
    main()
