"""The n-vs-10n cost check (tests/linear_cost.py) on a fake clock: what it runs and when it fails."""
from __future__ import annotations

from collections.abc import Callable

import pytest
from linear_cost import assert_not_superlinear


class FakeCost:
    """A reader whose cost per call is `cost(text, call_number)` on its own clock (no real time read)."""

    def __init__(self, cost: Callable[[str, int], float]) -> None:
        self.cost, self.now, self.calls = cost, 0.0, 0

    def clock(self) -> float:
        return self.now

    def __call__(self, text: str) -> None:
        self.calls += 1
        self.now += self.cost(text, self.calls)


SMALL, LARGE = "x" * 10, "x" * 100


def test_a_linear_reader_passes_after_one_run_of_each_size() -> None:
    reader = FakeCost(lambda text, _: float(len(text)))
    assert_not_superlinear(reader, SMALL, LARGE, clock=reader.clock)
    assert reader.calls == 3  # the warm-up, one small, one large


def test_a_quadratic_reader_runs_every_run_and_fails() -> None:
    reader = FakeCost(lambda text, _: float(len(text)) ** 2)
    with pytest.raises(AssertionError):
        assert_not_superlinear(reader, SMALL, LARGE, clock=reader.clock)
    assert reader.calls == 1 + 2 * 5


def test_a_reader_near_the_bound_runs_every_run_and_passes_as_before() -> None:
    reader = FakeCost(lambda text, _: 1.0 if text == SMALL else 30.0)  # 30x: under 40x, over half of it
    assert_not_superlinear(reader, SMALL, LARGE, clock=reader.clock)
    assert reader.calls == 1 + 2 * 5


def test_a_slow_first_small_run_under_twice_its_best_does_not_hide_a_reader_over_the_bound() -> None:
    # the first small run (call 2) reads 1.9x its best: the early bound is 0.95 x 40 = 38 < 45, so every run is made
    reader = FakeCost(lambda text, call: (1.9 if call == 2 else 1.0) if text == SMALL else 45.0)
    with pytest.raises(AssertionError):
        assert_not_superlinear(reader, SMALL, LARGE, clock=reader.clock)
    assert reader.calls == 1 + 2 * 5


def test_the_slack_counts_in_the_early_bound_as_in_the_full_one() -> None:
    reader = FakeCost(lambda text, _: 1.0 if text == SMALL else 45.0)
    assert_not_superlinear(reader, SMALL, LARGE, slack=20.0, clock=reader.clock)  # 45 >= (40 + 20) / 2: every run, 45 < 60 passes
    assert reader.calls == 1 + 2 * 5
    early = FakeCost(lambda text, _: 1.0 if text == SMALL else 25.0)
    assert_not_superlinear(early, SMALL, LARGE, slack=20.0, clock=early.clock)  # 25 < (40 + 20) / 2
    assert early.calls == 3
