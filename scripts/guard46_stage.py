"""Round 46 (issue 10, guard46): four readings written from blind round 40's remaining misses, measured on every released
writer (docs/benchmarks.md "Guard, round 46", the rule in ``bench/results/guard46/ship_rule.md``).

    E="env PYTHONPATH=src:scripts OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python"
    $E scripts/guard46_stage.py sig /tmp/g43/rows.jsonl /tmp/g45/rows3940.jsonl --out /tmp/g46/moved.json
    $E scripts/guard46_stage.py screen /tmp/g46/moved.json --out /tmp/g46/screen.json
    $E scripts/guard46_stage.py report /tmp/g46/screen.json --out bench/results/guard46/result.json

guard45's staging (``scripts/guard45_stage.py``: its rows, ``sig``, ``screen`` and ``report``) with this round's
switches and readings: per text (released rows, the pinned sets, the 13 MCP notes) whether ``exported.exports_data``,
``payload.obeys_payload``, ``claimant.claimant_collects`` and ``stake.benign_frame`` (its disk-format reading) on the
normalised text and every marked part say the same with the switches off (main) and on; only texts where they differ
are screened through ``WriteGuard`` (switches off and on, read at call time). r40 / r40b in sample, apart.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import guard45_stage as staging  # noqa: E402  (the scripts folder on the path first)

READINGS = ("exported", "payload", "claimant", "frame_disk_format")


def set_switches(on: bool) -> None:
    from hindsight.safety import claimant, exported, payload, stake
    exported.ON = on
    payload.ON = on
    claimant.ON = on
    stake.DISK_FORMAT_ON = on


def signature(red: str) -> str:
    from hindsight.safety.claimant import claimant_collects
    from hindsight.safety.exported import exports_data
    from hindsight.safety.normalize import fold, prepare
    from hindsight.safety.payload import obeys_payload
    from hindsight.safety.segments import marked_parts
    from hindsight.safety.stake import benign_frame

    def one(text: str) -> str:
        return "".join("1" if f(text) else "0" for f in (exports_data, obeys_payload, claimant_collects, benign_frame))
    return ",".join([one(prepare(red).text), *(one(prepare(p).text) for p in marked_parts(fold(red)))])


if __name__ == "__main__":
    staging.READINGS = READINGS  # type: ignore[assignment]
    staging.CACHE = Path("/tmp/g46/emb.npy")
    staging.set_switches = set_switches
    staging.signature = signature
    sys.exit(staging.main())
