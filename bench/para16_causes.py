"""Causes table over `bench/para16_misses.py` rows (issue 10, round 16), and hit counts per round and category.

    python bench/para16_causes.py main_r2.jsonl main_r4.jsonl ...   # file names end in _rN.jsonl

Per miss: d = dense rank (by script in a mixed pool), x = cross-lingual rank (among the other script's hits),
k = BM25 rank, g = gloss rank, f = first-pass fused place, then the place without the learned mixed-pool order and
the final place (top 20); q / o = how many of the hits above it are in the query's script / the other script.
"""

import collections
import json
import sys


def cause(q: dict, best: dict) -> str:
    ch = best["ch"]
    d, x, k, fu = ch.get("dense"), ch.get("crosslingual"), ch.get("keyword"), ch.get("fused")
    cross = best["script"] != q["qscript"]
    same_above = sum(a["script"] == q["qscript"] for a in q["ahead"])
    if best["status"] != "active":
        return f"answer {best['status']} on write"
    if q["narrowed"] and best["outside_filter"] and not q["widened"]:
        return "a parsed filter excluded it"
    if fu is None:
        return "embedder: outside the 50-deep dense pool, no BM25 match"
    fin, nol = q["final"] or 99, q["final_no_learned"] or 99
    if nol <= 5 < fin:
        return "the learned mixed-pool order (xling_rerank) moved it out of the top 5"
    if fu <= 5 < nol:
        return "first-pass top 5, moved out after fusion (priors / second step / dense slot)"
    rank = x if cross else d
    if rank is None or rank > 10:
        return ("embedder: cross-lingual rank > 10" if cross else "embedder: dense rank > 10") + (
            " (BM25 match)" if k else "")
    if cross:
        return ("cross-lingual rank 1-10; query-script memories fill the top 5" if same_above >= 3
                else "cross-lingual rank 1-10; other-script memories rank above it")
    if k is None:
        return "dense 1-10, no shared word; " + ("BM25-voted hits fill the top 5" if sum(
            bool(a["ch"].get("keyword")) for a in q["ahead"]) >= 3 else "other-script / dense hits above it")
    return "dense 1-10 with a BM25 vote; outranked after fusion"


def main() -> None:
    tab = collections.defaultdict(list)
    hits: dict = collections.defaultdict(lambda: [0, 0])
    for f in sys.argv[1:]:
        r = f.rsplit("_r", 1)[1].split(".")[0]
        for line in open(f, encoding="utf-8"):
            q = json.loads(line)
            if q["kind"] == "q":
                hits[(r, q["category"])][0] += q["hit"]
                hits[(r, q["category"])][1] += 1
                continue
            best = min(q["rel"], key=lambda w: w["ch"].get("fused") or 999)
            ch = best["ch"]
            flt = ("time:" + str(q["time_expr"]) if q["time_hard"] else "") + (
                " type:" + ",".join(q["types"]) if q["type_hard"] else "")
            if q["narrowed"]:
                flt += (" widened" if q["widened"] else " narrowed") + (
                    " (answer outside)" if best["outside_filter"] else "")
            qa = sum(a["script"] == q["qscript"] for a in q["ahead"])
            tab[(q["category"], cause(q, best))].append(
                f"r{r}/{q['line']} (d{ch.get('dense')} x{ch.get('crosslingual') or '-'} k{ch.get('keyword') or '-'}"
                f" g{ch.get('gloss') or '-'} f{ch.get('fused')} -> {q['final_no_learned'] or '>20'} -> "
                f"{q['final'] or '>20'}; q{qa} o{len(q['ahead']) - qa}{'; ' + flt if flt else ''})")
    for cat in sorted({c for c, _ in tab}):
        print(f"\n{cat}\n\n| cause | n | round/line |\n|---|---|---|")
        for (c2, c), v in sorted(tab.items(), key=lambda x: -len(x[1])):
            if c2 == cat:
                print(f"| {c} | {len(v)} | " + ", ".join(v) + " |")
    cats = sorted({c for _, c in hits})
    print("\n| round | " + " | ".join(cats) + " |\n" + "|---" * (len(cats) + 1) + "|")
    for r in sorted({r for r, _ in hits}, key=int):
        print(f"| r{r} | " + " | ".join(f"{hits[(r, c)][0]} / {hits[(r, c)][1]}" for c in cats) + " |")
    print("| all | " + " | ".join(f"{sum(hits[(r, c)][0] for r, _ in list(hits) if _ == c)} / "
                                  f"{sum(hits[(r, c)][1] for r, _ in list(hits) if _ == c)}" for c in cats) + " |")


main()
