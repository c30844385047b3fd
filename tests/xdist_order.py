"""The order pytest-xdist's workers take files in under ``--dist loadfile`` (round 36: the suite's time).

xdist queues the files most tests first, so a file of one or two slow tests (servers, PostgreSQL, a browser, the
guard's budget checks) starts last, and the worker that takes it is the run's tail while the other waits. The files
``tests/data/file_costs.json`` names (measured cost in seconds; ``scripts/file_costs.py`` writes it from a
``bench/suite_cost.py`` log) go first, most expensive first; every other file follows in xdist's own order. Only the
order changes: each file still runs whole, in one worker, its tests in file order, so module fixtures are built once.
A file the table does not name (new, renamed) is scheduled as before; a name that no longer exists is ignored.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

COSTS = Path(__file__).parent / "data" / "file_costs.json"


def load_costs(path: Path | None = None) -> dict[str, float]:
    path = path or COSTS
    if not path.exists():
        return {}
    return {str(name): float(seconds) for name, seconds in json.loads(path.read_text("utf-8"))["seconds"].items()}


def heavy_first(queue: Mapping[str, Mapping[str, Any]], costs: Mapping[str, float]) -> list[str]:
    """`queue`'s files (file -> its tests), in xdist's order, reordered: the costed ones first, dearest first (ties
    keep xdist's order), then the rest as xdist had them."""
    position = {name: i for i, name in enumerate(queue)}
    costed = sorted((name for name in queue if name in costs), key=lambda n: (-costs[n], position[n]))
    return costed + [name for name in queue if name not in costs]


def make_scheduler(config: Any, log: Any) -> Any:
    """xdist's LoadFileScheduling, its queue put in `heavy_first` order before the first file is handed out."""
    from xdist.scheduler import LoadFileScheduling

    class HeavyFirstFileScheduling(LoadFileScheduling):  # type: ignore[misc]
        costs = load_costs()
        ordered = False

        def _assign_work_unit(self, node: Any) -> None:
            queue = getattr(self, "workqueue", None)
            # schedule() has built the whole queue by the first hand-out; an xdist whose internals differ keeps its
            # own order rather than failing the run
            if not self.ordered and isinstance(queue, OrderedDict):
                self.workqueue = OrderedDict((n, queue[n]) for n in heavy_first(queue, self.costs))
            self.ordered = True
            super()._assign_work_unit(node)

    return HeavyFirstFileScheduling(config, log)
