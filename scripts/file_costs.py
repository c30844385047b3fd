"""Per-file test cost from `bench/suite_cost.py` logs: write tests/data/file_costs.json, or simulate xdist's schedule.

    # write the table the loadfile scheduler reads (tests/xdist_order.py): files costing at least --min seconds
    .venv/bin/python scripts/file_costs.py write LOG.tsv [LOG2.tsv ...] --metric cpu --min 10
    # two workers, xdist's own order vs heavy-first: which worker each file lands on, and when each worker ends
    PYTHONPATH=tests .venv/bin/python scripts/file_costs.py simulate LOG.tsv ... --collection collect.txt

A log line per test: ``T nodeid wall cpu_self cpu_children worker``. `--metric cpu` (process + reaped children) is
the number to compare on a loaded host; `wall` on a quiet one (CI). `collect.txt` is `pytest --collect-only -q`'s
output (every test id); a test no log timed costs `--default` seconds in the simulation.
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
from collections import OrderedDict, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from xdist_order import COSTS, heavy_first  # noqa: E402


def test_costs(logs: list[Path], metric: str) -> dict[str, float]:
    """nodeid -> seconds (the last log that timed it wins)."""
    out: dict[str, float] = {}
    for log in logs:
        for line in log.read_text("utf-8").splitlines():
            parts = line.split("\t")
            if parts[0] == "T" and len(parts) >= 5:
                out[parts[1]] = float(parts[2]) if metric == "wall" else float(parts[3]) + float(parts[4])
    return out


def file_costs(tests: dict[str, float]) -> dict[str, float]:
    per: dict[str, float] = defaultdict(float)
    for nodeid, seconds in tests.items():
        per[nodeid.split("::", 1)[0]] += seconds
    return dict(per)


def simulate(queue: OrderedDict[str, list[float]], workers: int = 2) -> tuple[list[float], dict[str, tuple[int, float, float]]]:
    """xdist's LoadFileScheduling on `workers` nodes: a node is handed the next file when it has 2 or fewer tests
    left (its low-watermark), tests run in order. Returns each node's end and file -> (node, start, end)."""
    queue = OrderedDict(queue)
    pending: list[list[tuple[str, float]]] = [[] for _ in range(workers)]
    clock = [0.0] * workers
    where: dict[str, tuple[int, float, float]] = {}

    def hand_out(node: int) -> None:
        name, durations = queue.popitem(last=False)
        pending[node].extend((name, d) for d in durations)

    for node in range(workers):
        if queue:
            hand_out(node)
    for node in range(workers):
        if queue and len(pending[node]) <= 2:
            hand_out(node)
    events = [(0.0, node) for node in range(workers)]
    while events:
        now, node = heapq.heappop(events)
        if not pending[node]:
            continue
        name, seconds = pending[node].pop(0)
        start = where.get(name, (node, now, now))[1]
        where[name] = (node, start, now + seconds)
        clock[node] = now + seconds
        if queue and len(pending[node]) <= 2:
            hand_out(node)
        heapq.heappush(events, (now + seconds, node))
    return clock, where


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["write", "simulate"])
    parser.add_argument("logs", nargs="+", type=Path)
    parser.add_argument("--metric", choices=["cpu", "wall"], default="cpu")
    parser.add_argument("--min", type=float, default=10.0, help="write: files costing at least this many seconds")
    parser.add_argument("--source", default="", help="write: where the numbers come from (kept in the table)")
    parser.add_argument("--collection", type=Path, help="simulate: pytest --collect-only -q output")
    parser.add_argument("--default", type=float, default=0.2, help="simulate: seconds of a test no log timed")
    args = parser.parse_args()
    tests = test_costs(args.logs, args.metric)
    if args.action == "write":
        costs = {name: round(s, 1) for name, s in sorted(file_costs(tests).items(), key=lambda kv: -kv[1])
                 if s >= args.min}
        COSTS.write_text(json.dumps({"metric": args.metric, "source": args.source, "seconds": costs}, indent=1)
                         + "\n", encoding="utf-8")
        print(f"{len(costs)} files -> {COSTS.relative_to(ROOT)}")
        return 0
    assert args.collection, "simulate needs --collection"
    files: OrderedDict[str, list[float]] = OrderedDict()
    for line in args.collection.read_text("utf-8").splitlines():
        if "::" in line and not line.startswith(" "):
            files.setdefault(line.split("::", 1)[0], []).append(tests.get(line.strip(), args.default))
    xdist = OrderedDict(sorted(files.items(), key=lambda kv: -len(kv[1])))  # stable: collection order among ties
    table = json.loads(COSTS.read_text("utf-8"))["seconds"] if COSTS.exists() else {}
    ours = OrderedDict((name, xdist[name]) for name in heavy_first(xdist, table))
    costs = {name: sum(d) for name, d in files.items()}
    for label, queue in (("xdist order", xdist), ("heavy first", ours)):
        ends, where = simulate(queue)
        print(f"{label}: workers end at {[round(e) for e in ends]} s (sum of tests {sum(costs.values()):.0f} s)")
        for name in sorted(costs, key=lambda n: -costs[n])[:12]:
            node, start, end = where[name]
            print(f"  {name:55s} {costs[name]:7.1f} s  gw{node}  {start:7.0f} -> {end:7.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
