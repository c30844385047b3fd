"""Working memory: CPU cost of one append with n namespaces held against 10n (issue 14, round 35).

    PYTHONPATH=src .venv/bin/python bench/working_append.py [--n 1000] [--appends 2000] [--out FILE]

Fills a WorkingMemory with n (then 10n) namespaces of one session each, then times `--appends` appends to
namespaces already held (below every bound, the common case), and the same at the server-wide session bound
(`max_sessions_total` set to the namespaces held, so every append to a new namespace evicts one session).
CPU time of this process (time.process_time), least of --rounds rounds; the n / 10n ratio is what matters.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from pathlib import Path

from hindsight.working import WorkingMemory

AT = datetime(2026, 12, 7, tzinfo=UTC)


def _filled(n: int) -> WorkingMemory:
    memory = WorkingMemory()
    memory.max_sessions_total, memory.max_chars_total = 10 * n + 10, 10**12
    for i in range(n):
        memory.append(f"ns{i}", "s", "user", "a turn of text", AT)
    return memory


def _below_bound(n: int, appends: int) -> float:
    memory = _filled(n)
    start = time.process_time()
    for i in range(appends):
        memory.append(f"ns{(i * 7919) % n}", "s", "user", "another turn", AT)
    return (time.process_time() - start) * 1e6 / appends


def _at_bound(n: int, appends: int) -> float:
    memory = _filled(n)
    memory.max_sessions_total = n  # full: each new namespace's session makes one go
    start = time.process_time()
    for i in range(appends):
        memory.append(f"new{i}", "s", "user", "another turn", AT)
    return (time.process_time() - start) * 1e6 / appends


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    result: dict[str, object] = {"n": args.n, "appends": args.appends, "rounds": args.rounds}
    for name, part in (("below_bound", _below_bound), ("at_bound", _at_bound)):
        for size in (args.n, 10 * args.n):
            result[f"{name}_us_per_append_{size}"] = round(min(part(size, args.appends)
                                                              for _ in range(args.rounds)), 2)
        result[f"{name}_ratio_10n_over_n"] = round(
            float(result[f"{name}_us_per_append_{10 * args.n}"]) / float(result[f"{name}_us_per_append_{args.n}"]), 3)  # type: ignore[arg-type]
    print(json.dumps(result, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
