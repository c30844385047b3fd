"""Hygiene round 45e (issue 10, branch values45b): more values written two ways - the rows and retrieval stores
`write/value_spellings2.py` (switch `numbers.SPELLINGS_2`) reaches, through the engine off and on.

    PYTHONPATH=src:bench python bench/values45b.py reach ROWS.json STORES.json
    PYTHONPATH=src:bench python bench/values45b.py run off|on ROWS.json OUT.json
    PYTHONPATH=src:bench python bench/values45b.py compare OFF.json ON.json OUT.json
    PYTHONPATH=src:bench python bench/values45b.py stores off|on STORES.json OUT.json

Held out = blind r1 - r39, r40 in sample (`bench/results/values45b/ship_rule.md`); run / compare / stores are
restate45's with this switch.
"""
from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IN_SAMPLE = ("r40",)


def _switch(on: bool) -> None:
    from hindsight.write import numbers

    numbers.SPELLINGS_2 = on


def _reached(text: str) -> bool:
    from hindsight.write import numbers

    forms = [text, unicodedata.normalize("NFKC", text)]
    _switch(False)
    before = [numbers.read_numbers(t) for t in forms]
    _switch(True)
    after = [numbers.read_numbers(t) for t in forms]
    _switch(False)
    return before != after


def reach(rows_out: Path, stores_out: Path) -> None:
    import restate45

    restate45._reached = _reached  # restate45's reach, this reading
    restate45.reach(rows_out, stores_out)


def run(mode: str, src: Path, out: Path) -> None:
    from hygkey43 import run_rows

    _switch(mode == "on")
    report: dict[str, object] = {"fixes": [mode]}
    run_rows(json.loads(src.read_text(encoding="utf-8")), report)
    out.write_text(json.dumps(report, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


def compare(off: Path, on: Path, out: Path) -> None:
    import dist45

    dist45.compare(off, on, out, IN_SAMPLE)


def stores(mode: str, src: Path, out: Path) -> None:
    """restate45's store writer, value_digests.PHONE_FORMS as on main (True: restate45's "on"), this switch by mode."""
    import restate45

    _switch(mode == "on")
    restate45.stores("on", src, out)
    report = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    report["mode"] = f"SPELLINGS_2 {mode}"
    out.write_text(json.dumps(report, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    if cmd == "reach":
        reach(Path(args[0]), Path(args[1]))
    elif cmd == "run":
        run(args[0], Path(args[1]), Path(args[2]))
    elif cmd == "compare":
        compare(Path(args[0]), Path(args[1]), Path(args[2]))
    elif cmd == "stores":
        stores(args[0], Path(args[1]), Path(args[2]))
