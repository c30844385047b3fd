"""Test-only: loaded by the Python processes a test run starts (tests/conftest.py puts this folder on PYTHONPATH).

It installs tests/regex_cache.py from the file HS_TEST_RE_CACHE names: such a process builds its regular expressions
from the programs the run has already compiled instead of compiling each again, and adds the ones it compiled at exit.
"""

import os

_path = os.environ.get("HS_TEST_RE_CACHE")
if _path:
    import atexit
    import importlib.util

    _spec = importlib.util.spec_from_file_location(
        "hs_test_regex_cache", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "regex_cache.py"))
    if _spec is not None and _spec.loader is not None:
        import sys

        _cache = importlib.util.module_from_spec(_spec)
        sys.modules[_spec.name] = sys.modules["regex_cache"] = _cache  # one module, should the process import it too
        _spec.loader.exec_module(_cache)
        if _cache.install(_path):
            atexit.register(_cache.save, _path)
