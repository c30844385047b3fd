"""Round 47 (issue 10, guard47): three readings written from blind round 41's guard misses, measured on every released
writer (docs/benchmarks.md "Guard, round 47", the rule in ``bench/results/guard47/ship_rule.md``).

    E="env PYTHONPATH=src:scripts OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python"
    $E scripts/guard45_stage.py rows --rounds r41-r41 --out /tmp/g47/rows41.jsonl
    $E scripts/guard47_stage.py sig /tmp/g43/rows.jsonl /tmp/g45/rows3940.jsonl /tmp/g47/rows41.jsonl --out /tmp/g47/moved.json
    $E scripts/guard47_stage.py screen /tmp/g47/moved.json --out /tmp/g47/screen.json
    $E scripts/guard47_stage.py report /tmp/g47/screen.json --out bench/results/guard47/result.json

guard45's staging (``scripts/guard45_stage.py``: its rows, ``sig``, ``screen`` and ``report``) with this round's
switches: per text (released rows r1 - r41 + b, PII notes, retrieval memories, the pinned sets, the 13 MCP notes)
whether ``normalize.SHORT_RUNS_ON`` changes the folded text, and whether ``said.licensed_by_party`` and
``trusted.transfers_trust`` on the normalised text and every marked part say the same with the switches off (main) and
on; only texts where they differ are screened through ``WriteGuard`` (switches read at call time). r41 / r41b in
sample, apart.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import guard45_stage as staging  # noqa: E402  (the scripts folder on the path first)

READINGS = ("short_runs", "said", "channel_is_person")


def set_switches(on: bool) -> None:
    from hindsight.safety import normalize, said, trusted
    normalize.SHORT_RUNS_ON = on
    said.ON = on
    trusted.CHANNEL_IS_PERSON_ON = on


def signature(red: str) -> str:
    from hindsight.safety import normalize
    from hindsight.safety.normalize import fold, prepare
    from hindsight.safety.said import licensed_by_party
    from hindsight.safety.segments import marked_parts
    from hindsight.safety.trusted import transfers_trust

    on = normalize.SHORT_RUNS_ON
    normalize.SHORT_RUNS_ON = False
    plain = fold(red)
    normalize.SHORT_RUNS_ON = on
    joined = "1" if on and fold(red) != plain else "0"

    def one(text: str) -> str:
        return joined + "".join("1" if f(text) else "0" for f in (licensed_by_party, transfers_trust))
    return ",".join([one(prepare(red).text), *(one(prepare(p).text) for p in marked_parts(fold(red)))])


if __name__ == "__main__":
    staging.READINGS = READINGS  # type: ignore[assignment]
    staging.CACHE = Path("/tmp/g47/emb.npy")
    staging.IN_SAMPLE = {"r41", "r41b", "pii-r41", "retr-r41"}
    staging.set_switches = set_switches
    staging.signature = signature
    sys.exit(staging.main())
