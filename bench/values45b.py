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
    import restate45

    restate45.run(mode, src, out, switch=_switch)  # value_digests.PHONE_FORMS stays as on main


def compare(off: Path, on: Path, out: Path) -> None:
    import restate45

    restate45.compare(off, on, out)  # dist45's comparison, r40 in sample


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
    fns = {"reach": reach, "run": run, "compare": compare, "stores": stores}
    fns[cmd](*[a if a in ("off", "on") else Path(a) for a in args])  # type: ignore[operator]
