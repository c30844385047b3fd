"""One check for "ten times the input must not cost much more than ten times the time" (no wall-clock limit).

Both sizes run interleaved and the best of several runs counts, so a burst of load on a busy machine hits both
sizes alike and the minimum is the run the scheduler disturbed least. The time counted is this process's CPU time, not
the wall clock: on a 2-core host at load 15-25 a preempted large run read 45x its small run by the wall clock (fresh
clone fc43a, round 32) while the code was linear.

The runs stop early once the large input's best time is under HALF the bound (`factor * small + slack`) read from
the small input's best so far (round 43, branch suite43: these checks were most of the redaction files' CPU). A best
time only falls as runs are added, so the full check could fail where the early one passed only if the small input's
best so far were more than twice its best over all runs (the bound halves exactly then); a linear reader passes
after one run, anything nearer the bound runs every run and meets the same assertion as before.
"""
from __future__ import annotations

import time
from collections.abc import Callable

EARLY_SHARE = 0.5  # stop once the large input's best is under this share of the bound


def _seconds(fn: Callable[[str], object], arg: str, clock: Callable[[], float]) -> float:
    start = clock()
    fn(arg)
    return clock() - start


def assert_not_superlinear(fn: Callable[[str], object], small: str, large: str, *, factor: float = 40.0,
                           slack: float = 0.0, runs: int = 5,
                           clock: Callable[[], float] = time.process_time) -> None:
    fn(small)  # warm-up (dictionaries, caches)
    t_small, t_large = float("inf"), float("inf")
    for _ in range(runs):
        t_small = min(t_small, _seconds(fn, small, clock))
        t_large = min(t_large, _seconds(fn, large, clock))
        if t_large < EARLY_SHARE * (factor * t_small + slack):
            return
    assert t_large < factor * t_small + slack, (t_small, t_large)
