"""Test-only: the compiled programs of regular expressions, kept for the `hindsight` processes a test run starts.

Every `hindsight` process (a server, a CLI call) compiles ~2,300 regular expressions while it imports the package:
~0.85 s of the ~1.4 s of CPU a `hindsight --help` takes, paid again by each of the hundreds of processes the suite
starts. What `re` builds for a pattern - the SRE program, its flags and group names - is a function of the pattern
string, the flags and the interpreter alone, so the suite builds each one once and hands it on: the pytest process
records what it compiles into a file (`install`, `save`), and the child processes load the same file through
`tests/child_site/sitecustomize.py` and build their patterns from the recorded programs. The objects are the ones
`re` would build (`Pattern.__eq__` compares the program: tests/test_regex_cache.py); a pattern not in the file is
compiled by `re` itself and added. Nothing in src/ knows of it; a process started without HS_TEST_RE_CACHE compiles as
usual. CPython 3.11 - 3.13 (`re._compiler`); anything else, or a different interpreter build, reads no entry.
"""

from __future__ import annotations

import marshal
import os
import sys
from array import array
from typing import Any

ENV = "HS_TEST_RE_CACHE"  # not HINDSIGHT_*: mcp_helpers.child_env drops those
_CODE = "I"  # SRE code words are 4-byte unsigned (_sre.CODESIZE, checked in install)
_KEY = sys.version  # the interpreter's version and build: what `re` compiles with
_entries: dict[Any, Any] = {}
_new: dict[Any, Any] = {}
_installed = False
original_compile: Any = None  # re's own compile step, once installed (tests/test_regex_cache.py compares with it)


def _program(parser: Any, compiler: Any, pattern: str | bytes, flags: int) -> tuple[Any, ...]:
    """What `re._compiler.compile` hands `_sre.compile` for (pattern, flags): the same steps, kept."""
    parsed = parser.parse(pattern, flags)
    code = array(_CODE, compiler._code(parsed, flags)).tobytes()  # one bytes object: cheap to store and to read
    groupindex = dict(parsed.state.groupdict)
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return int(flags | parsed.state.flags), code, parsed.state.groups - 1, groupindex, tuple(indexgroup)


def _read_all(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            stored = marshal.load(handle)
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return stored if isinstance(stored, dict) else {}


def _read(path: str) -> dict[Any, Any]:
    """This interpreter's entries (a child of another Python - a setup test's venv - keeps its own under its key)."""
    entries = _read_all(path).get(_KEY)
    return entries if isinstance(entries, dict) else {}


def install(path: str) -> bool:
    """Serve `re`'s compiles from the file at `path` (and record new ones); False where this interpreter is not one
    whose compile steps this module copies."""
    global _installed, original_compile
    if _installed:
        return True
    if sys.version_info[:2] not in ((3, 11), (3, 12), (3, 13)) or sys.implementation.name != "cpython":
        return False
    import _sre
    import re

    if _sre.CODESIZE != array(_CODE).itemsize:
        return False
    from re import _compiler, _parser  # type: ignore[attr-defined]

    original = _compiler.compile
    skip = re.DEBUG | getattr(re, "TEMPLATE", 0)
    _entries.update(_read(path))

    def compile(pattern: Any, flags: int = 0) -> Any:
        if not isinstance(pattern, (str, bytes)) or flags & skip:
            return original(pattern, flags)
        key = (isinstance(pattern, bytes), pattern, flags)
        entry = _entries.get(key)
        if entry is None:
            entry = _program(_parser, _compiler, pattern, flags)
            _entries[key] = _new[key] = entry
        final_flags, code, groups, groupindex, indexgroup = entry
        return _sre.compile(pattern, final_flags, array(_CODE, code).tolist(), groups, dict(groupindex), indexgroup)

    probe = r"(?i)(?P<word>[a-z]+)\s*=\s*(?:'[^']*'|\d{2,4})(?!\w)"
    if compile(probe, 0) != original(probe, 0):  # the copied steps no longer build what re builds
        _entries.clear()
        _new.clear()
        return False
    _compiler.compile = compile
    original_compile = original
    _installed = True
    return True


_folder: str | None = None


def start(child_site: str) -> bool:
    """The test process's side: record into a new file and hand it to every child (HS_TEST_RE_CACHE, and `child_site`,
    the folder of the sitecustomize that loads this module there, first on PYTHONPATH). In a process the run started
    (an xdist worker: the controller's conftest started the cache) this is the run's file already: kept, not replaced."""
    global _folder
    import tempfile

    if _installed and os.environ.get(ENV):  # a process of the run (an xdist worker): the run's file, the run's folder
        return True
    _folder = tempfile.mkdtemp(prefix="hs-test-re-")
    path = os.path.join(_folder, "programs.marshal")
    if not install(path):
        return False
    os.environ[ENV] = path
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (child_site, os.environ.get("PYTHONPATH", "")) if p)
    return True


def stop() -> None:
    """Remove the file `start` made (the end of the test session)."""
    if _folder:
        import shutil

        shutil.rmtree(_folder, ignore_errors=True)


def read(path: str) -> dict[Any, Any]:
    """The recorded programs in the file: {(bytes?, pattern, flags): (flags, code, groups, groupindex, indexgroup)}."""
    return _read(path)


#: the file stops growing here (~3x what the package's own patterns take): a pattern built from data at run time is
#: compiled by `re` as usual rather than kept
MAX_BYTES = 16 << 20


def save(path: str) -> None:
    """Add what this process compiled and the file lacks (merged under a lock; written whole, then renamed)."""
    if not _new or not path:
        return
    try:
        if os.path.getsize(path) > MAX_BYTES:
            _new.clear()
            return
    except OSError:
        pass
    try:
        import fcntl
    except ImportError:
        return
    try:
        with open(path + ".lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            stored = _read_all(path)
            merged = stored.get(_KEY)
            merged = merged if isinstance(merged, dict) else {}
            merged.update(_new)
            stored[_KEY] = merged
            temporary = f"{path}.{os.getpid()}.tmp"
            with open(temporary, "wb") as handle:
                marshal.dump(stored, handle)
            os.replace(temporary, path)
    except OSError:
        return
    _new.clear()
