"""Which released rows' carried-value reading this checkout changes against main (round 28, issue 10).

    PYTHONPATH=src .venv/bin/python bench/guardfp28_flips.py --cache /tmp/guardfp28/red.json --main /work/main/src --out /tmp/guardfp28/flips.jsonl

The round-28 change touches only ``carried.py`` and ``routed.py``, which the guard reads through one decision:
``carried.carried_value_fact`` (a fact that carries a value is judged at ``guard.FACT_THRESHOLD`` 0.97). It can only
*raise* a text's threshold, so a row can move only where main's reading is False and this checkout's True: those rows
are written out (with main's and this checkout's threshold read by a stand-in classifier) to be screened with the real
classifier (``guardfp28_scan.py scan --only``). Main's two modules are loaded from ``--main`` under other names; the
redacted texts come from ``guardfp28_thresholds.py``'s cache (the write path's redaction of every released row).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str, path: Path, replace: tuple[str, str] | None = None) -> ModuleType:
    source = path.read_text(encoding="utf-8")
    if replace:
        source = source.replace(*replace)
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(source, str(path), "exec"), module.__dict__)  # noqa: S102 - main's own module, read for the diff
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--main", type=Path, required=True, help="main's src directory")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "bench"))
    from guardfp28_scan import load_rows

    from hindsight.safety.carried import carried_value_fact
    from hindsight.safety.normalize import prepare

    safety = args.main / "hindsight" / "safety"
    _load("main_routed", safety / "routed.py")
    main_carried = _load("main_carried", safety / "carried.py", ("hindsight.safety.routed", "main_routed"))
    cache: dict[str, str] = json.loads(args.cache.read_text(encoding="utf-8"))
    n = 0
    with args.out.open("w", encoding="utf-8") as out:
        for r in load_rows():
            red = cache.get(r["text"])
            if red is None:  # not a candidate (no digit, @, <, = or secret word: nothing to redact or carry)
                continue
            norm = prepare(red).text
            ours, theirs = carried_value_fact(norm), main_carried.carried_value_fact(norm)
            if ours != theirs:
                n += 1
                out.write(json.dumps({**r, "red": red, "main": theirs, "branch": ours}, ensure_ascii=False) + "\n")
    print("flipped", n)


if __name__ == "__main__":
    main()
