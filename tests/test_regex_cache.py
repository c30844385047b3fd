"""tests/regex_cache.py: the processes a test starts build each regular expression from the program the run recorded,
and what they build is what `re` builds (test-only; see its docstring)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from array import array

import pytest
import regex_cache
from conftest import RE_CACHE

pytestmark = pytest.mark.skipif(sys.implementation.name != "cpython" or sys.version_info[:2] not in ((3, 11), (3, 12), (3, 13)),
                                reason="regex_cache copies the compile steps of CPython 3.11 - 3.13 only")

_CHILD = """
import re, sys
cache = sys.modules.get("hs_test_regex_cache")
print(cache is not None and cache._installed)
print(sorted(re.compile(r"(?P<a>x)(?P<b>y)?").groupindex.items()) == [("a", 1), ("b", 2)])
re.compile(sys.argv[1])
"""


def test_every_recorded_program_builds_the_pattern_re_builds() -> None:
    """Each pattern this run recorded (the package's import: ~1,500), built from its record, equals re's own compile
    of the same (pattern, flags): Pattern equality compares the flags, the pattern and the SRE program word by word."""
    import _sre

    assert regex_cache.original_compile is not None, "install refused: its probe no longer builds what re builds"
    entries = regex_cache.read(RE_CACHE)
    assert len(entries) > 500, len(entries)
    for (_, pattern, flags), (final_flags, code, groups, groupindex, indexgroup) in entries.items():
        built = _sre.compile(pattern, final_flags, array("I", code).tolist(), groups, dict(groupindex), indexgroup)
        fresh = regex_cache.original_compile(pattern, flags)
        assert built == fresh, pattern
        assert (built.flags, built.groups, built.groupindex) == (fresh.flags, fresh.groups, fresh.groupindex), pattern


def test_a_started_process_reads_the_programs_and_adds_what_it_compiled() -> None:
    new = r"ci38-(?P<probe>\d+)-only-in-this-child"
    assert not any(key[1] == new for key in regex_cache.read(RE_CACHE))
    done = subprocess.run([sys.executable, "-c", _CHILD, new], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ))
    assert done.returncode == 0 and done.stdout.split() == ["True", "True"], (done.stdout, done.stderr[-800:])
    assert (False, new, 0) in regex_cache.read(RE_CACHE)
    assert re.compile(new).groupindex == {"probe": 1}
