"""One check for "ten times the input must not cost much more than ten times the time" (no wall-clock limit).

Both sizes run interleaved and the best of several runs counts, so a burst of load on a busy machine hits both
sizes alike and the minimum is the run the scheduler disturbed least. The time counted is this process's CPU time, not
the wall clock: on a 2-core host at load 15-25 a preempted large run read 45x its small run by the wall clock (fresh
clone fc43a, round 32) while the code was linear.
"""
from __future__ import annotations

import time
from collections.abc import Callable


def _seconds(fn: Callable[[str], object], arg: str) -> float:
    start = time.process_time()
    fn(arg)
    return time.process_time() - start


def assert_not_superlinear(fn: Callable[[str], object], small: str, large: str, *, factor: float = 40.0,
                           slack: float = 0.0, runs: int = 5) -> None:
    fn(small)  # warm-up (dictionaries, caches)
    t_small, t_large = float("inf"), float("inf")
    for _ in range(runs):
        t_small = min(t_small, _seconds(fn, small))
        t_large = min(t_large, _seconds(fn, large))
    assert t_large < factor * t_small + slack, (t_small, t_large)
