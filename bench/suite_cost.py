"""A pytest plugin that logs each test's wall and CPU time as it runs (branch ci25, "Test suite cost").

    PYTHONPATH=src:bench DURLOG=out.tsv .venv/bin/python -m pytest -q -p no:cacheprovider -p suite_cost FILES...

One line per test: ``T<TAB>nodeid<TAB>wall<TAB>cpu of the process<TAB>cpu of reaped children`` (a server or CLI
process counts in the test that stopped it); one ``C`` line per module collected (its import). Lines are written as
the tests run, so a run stopped early still says where its time went.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Generator
from typing import Any

import pytest

_OUT = open(os.environ.get("DURLOG", "suite_cost.tsv"), "a", buffering=1, encoding="utf-8")  # noqa: SIM115


def _cpu() -> tuple[float, float]:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, Any, Any]:
    wall, (own, children) = time.monotonic(), _cpu()
    result = yield
    own2, children2 = _cpu()
    _OUT.write(f"T\t{item.nodeid}\t{time.monotonic() - wall:.3f}\t{own2 - own:.3f}\t{children2 - children:.3f}\n")
    return result


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, Any]:
    wall, (own, children) = time.monotonic(), _cpu()
    result = yield
    own2, children2 = _cpu()
    if isinstance(collector, pytest.Module):
        _OUT.write(f"C\t{collector.nodeid}\t{time.monotonic() - wall:.3f}\t{own2 - own:.3f}\t{children2 - children:.3f}\n")
    return result
