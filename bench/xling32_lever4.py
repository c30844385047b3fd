"""Lever 4 of round 32: the script-gap share chosen per Chinese question by a signal it carries (issue 10).

    PYTHONPATH=src:bench python bench/xling32_lever4.py DUMP_DIR r1 r2 ... > lever4.json   # then xling32_loro.py
    PYTHONPATH=src:bench python bench/xling32_lever4.py DUMP_DIR --oracle r1 r2 ...       # per question 0.8 / 1.0 / 1.2

Options (`xling32_sim.py`'s `zh_level` per question): main (1.0); A - a Latin word of two letters or more in the
question: 1.2, else 1.0; B - the same, else 0.9; C - the script of main's first dense (by-script) hit: English 1.2,
Chinese 0.8. English questions and questions the simulator does not replay keep the dump's hit.
"""

import json
import re
import sys
from collections import Counter
from pathlib import Path

import xling32_sim as sim

from hindsight.retrieval.crosslingual import bias_group

LATIN = re.compile(r"[A-Za-z]{2,}")


def levels(q: dict, script: dict) -> dict[str, float]:
    latin = bool(LATIN.search(q["text"]))
    lead = sim.by_script([(m, s) for m, s in q["raw"] if m is not None], script, "zh")[0][0]
    return {"main": 1.0, "A": 1.2 if latin else 1.0, "B": 1.2 if latin else 0.9,
            "C": 1.2 if script.get(lead) == "en" else 0.8}


class Reader:
    """Whether question `q` hits at a script-gap share, each share simulated once."""

    def __init__(self, q: dict, script: dict, texts: dict, vec: dict, qv, hit: dict) -> None:  # type: ignore[no-untyped-def]
        self.q, self.script, self.texts, self.vec, self.qv, self.hit = q, script, texts, vec, qv, hit

    def __call__(self, level: float) -> bool:
        if level not in self.hit:
            got = sim.simulate(self.q, self.script, self.texts, self.vec, self.qv, {"zh_level": level}) or []
            self.hit[level] = bool(set(got) & set(self.q["relevant"]))
        return self.hit[level]


def main() -> None:
    dump = Path(sys.argv[1])
    oracle = sys.argv[2] == "--oracle"
    rounds = sys.argv[3:] if oracle else sys.argv[2:]
    out: dict = {}
    kinds: Counter = Counter()
    for rnd in rounds:
        mems, qs, vec, qvs = sim.load(dump, rnd)
        texts = {sid: m["text"] for sid, m in mems.items() if m["status"] == "active"}
        script = {sid: bias_group(t) for sid, t in texts.items()}
        table = {o: Counter() for o in ("main", "A", "B", "C")}
        for q, qv in zip(qs, qvs, strict=True):
            zh = q["text"] is not None and bias_group(q["text"]) == "zh"
            top = sim.simulate(q, script, texts, vec, qv, {}) if zh else None
            if top is None:
                for t in table.values():
                    t[q["cat"]] += q["hit"]
                continue
            hit: dict[float, bool] = {1.0: bool(set(top) & set(q["relevant"]))}
            at = Reader(q, script, texts, vec, qv, hit)
            if oracle and q["cat"] in ("zh_paraphrase", "zh_to_en"):
                kinds[f"{q['cat']} {''.join('1' if at(x) else '0' for x in (0.8, 1.0, 1.2))}"] += 1
            for name, level in levels(q, script).items():
                table[name][q["cat"]] += at(level)
        out[rnd] = {o: dict(c) for o, c in table.items()}
    print(json.dumps(dict(kinds) if oracle else out, indent=1))


if __name__ == "__main__":
    main()
