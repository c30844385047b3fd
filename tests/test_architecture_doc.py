"""docs/architecture.md stays true and readable: its Modules table names every module under src/hindsight
once, names no `*.py` path that does not exist, and no table row outgrows what a person can review."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "hindsight"
DOC = ROOT / "docs" / "architecture.md"
MAX_ROW = 1500
# repository folders a doc may name a script or test in (`scripts/lint.sh`, `bench/second_pass_cost.py`)
REPO_DIRS = ("scripts", "bench", "tests", "examples", "deploy")

_PY = re.compile(r"(?<![\w/.-])([A-Za-z_][\w]*(?:/[A-Za-z_][\w]*)*\.py)(?![\w])")
_PATH_CELL = re.compile(r"`([^`]+\.py)`")


def _doc() -> str:
    return DOC.read_text(encoding="utf-8")


def _modules() -> list[str]:
    return sorted(
        p.relative_to(SRC).as_posix() for p in SRC.rglob("*.py") if p.name != "__init__.py" and "__pycache__" not in p.parts
    )


def _module_rows(text: str) -> list[str]:
    """The rows of the table under `## Modules` (header and rule aside)."""
    section = text.split("\n## Modules", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [row for row in rows[2:]]


def _first_cell(row: str) -> str:
    return row.split("|")[1]


def _named_in_table(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for row in _module_rows(text):
        for path in _PATH_CELL.findall(_first_cell(row)):
            counts[path] = counts.get(path, 0) + 1
    return counts


def _all_files() -> set[str]:
    names = {p.name for p in SRC.rglob("*.py")}
    for folder in REPO_DIRS:
        names.update(p.name for p in (ROOT / folder).rglob("*.py"))
    return names


def _missing_paths(text: str) -> list[str]:
    """`*.py` paths the doc names that do not exist (a package path under src/hindsight, a repository path, or a
    bare file name found nowhere)."""
    packages = {p.name for p in SRC.iterdir() if p.is_dir()}
    files = _all_files()
    missing = []
    for path in sorted(set(_PY.findall(text))):
        head = path.split("/", 1)[0]
        if "/" not in path:
            ok = path in files
        elif head in packages:
            ok = (SRC / path).is_file()
        elif head in REPO_DIRS:
            ok = (ROOT / path).is_file()
        elif path.startswith("src/"):
            ok = (ROOT / path).is_file()
        else:
            ok = False
        if not ok:
            missing.append(path)
    return missing


def test_every_module_is_named_once_in_the_modules_table() -> None:
    named = _named_in_table(_doc())
    missing = [m for m in _modules() if m not in named]
    assert not missing, f"modules missing from the first column of docs/architecture.md's Modules table: {missing}"
    twice = sorted(m for m, n in named.items() if n > 1)
    assert not twice, f"modules with more than one row (a merge duplicated them?): {twice}"


def test_the_doc_names_no_py_path_that_does_not_exist() -> None:
    assert not _missing_paths(_doc()), f"docs/architecture.md names files that do not exist: {_missing_paths(_doc())}"


def test_no_table_row_is_too_long_to_read() -> None:
    long_rows = [
        (line[:60], len(line)) for line in _doc().splitlines() if line.startswith("|") and len(line) > MAX_ROW
    ]
    assert not long_rows, f"table rows over {MAX_ROW} characters (one row per module, history in benchmarks.md): {long_rows}"


def test_the_checks_catch_what_they_are_for() -> None:
    doc = (
        "# A\n\n## Modules\n\n| module | one job |\n|---|---|\n"
        "| `engine.py` | one |\n| `write/pipeline.py`, `write/nope_not_here.py` | two |\n| `engine.py` | again |\n"
        "\n## A write\n\nsee `safety/gone_module.py` and `scripts/no_such_script.py` and `vanished.py`.\n"
    )
    named = _named_in_table(doc)
    assert named == {"engine.py": 2, "write/pipeline.py": 1, "write/nope_not_here.py": 1}
    assert _missing_paths(doc) == [
        "safety/gone_module.py", "scripts/no_such_script.py", "vanished.py", "write/nope_not_here.py",
    ]
