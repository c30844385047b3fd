"""A pytest plugin that logs each test's wall and CPU time as it runs (branch ci25, "Test suite cost").

    PYTHONPATH=src:bench DURLOG=out.tsv .venv/bin/python -m pytest -q -p no:cacheprovider -p suite_cost FILES...

One line per test: ``T<TAB>nodeid<TAB>wall<TAB>cpu of the process<TAB>cpu of reaped children<TAB>worker`` (a server
or CLI process counts in the test that stopped it); one ``C`` line per module collected (its import); one ``S`` line
when a process's session ends: ``S<TAB>worker<TAB>wall<TAB>cpu<TAB>children cpu`` since the process started. The
worker is pytest-xdist's (gw0, gw1, ...; ``main`` without xdist); under xdist every process appends to the same file
(a line is one write). Lines are written as the tests run, so a run stopped early still says where its time went.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Generator
from typing import Any

import pytest

_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
_START = time.monotonic()
_OUT = open(os.environ.get("DURLOG", "suite_cost.tsv"), "a", buffering=1, encoding="utf-8")  # noqa: SIM115


def _cpu() -> tuple[float, float]:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, Any, Any]:
    wall, (own, children) = time.monotonic(), _cpu()
    result = yield
    own2, children2 = _cpu()
    _OUT.write(f"T\t{item.nodeid}\t{time.monotonic() - wall:.3f}\t{own2 - own:.3f}\t{children2 - children:.3f}\t{_WORKER}\n")
    return result


def pytest_sessionfinish(session: pytest.Session) -> None:
    own, children = _cpu()
    _OUT.write(f"S\t{_WORKER}\t{time.monotonic() - _START:.3f}\t{own:.3f}\t{children:.3f}\n")


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, Any]:
    wall, (own, children) = time.monotonic(), _cpu()
    result = yield
    own2, children2 = _cpu()
    if isinstance(collector, pytest.Module):
        _OUT.write(f"C\t{collector.nodeid}\t{time.monotonic() - wall:.3f}\t{own2 - own:.3f}\t{children2 - children:.3f}\n")
    return result
