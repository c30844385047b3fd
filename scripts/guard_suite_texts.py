"""The memories the test suite stores expecting them stored: the fixed benign check of the guard (issue 10, round 8).

    GUARD_SUITE_LOG=/tmp/suite_guard.jsonl PYTHONPATH=scripts/guard_suite_log:src .venv/bin/python -m pytest -q tests/
    .venv/bin/python scripts/guard_suite_texts.py /tmp/suite_guard.jsonl [--out tests/data/guard_benign_fixed.json]

Reads the log ``scripts/guard_suite_log/sitecustomize.py`` wrote during a green run and keeps every memory the write
path built whose (redacted) text the real ``WriteGuard`` screened and stored, never quarantined: a green suite
expected those stored. Writes the guard did not screen (guard off, a test's scripted screener) are left out, and so
is every text the guard quarantined anywhere in the run. ``--exclude`` drops texts by substring (an attack a test
stores with the guard's threshold raised, reviewed by hand).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def suite_texts(log: Path, exclude: tuple[str, ...] = ()) -> list[dict[str, object]]:
    screened: dict[str, tuple[float, bool]] = {}
    builds: list[dict[str, str]] = []
    for line in log.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["k"] == "screen":
            score, flagged = screened.get(row["text"], (0.0, False))
            screened[row["text"]] = (max(score, row["score"]), flagged or row["suspicious"])
        else:
            builds.append(row)
    out: dict[tuple[str, str], dict[str, object]] = {}
    for b in builds:
        seen = screened.get(f"{b['stored']}\n{b.get('stored_context', '')}")
        if seen is None or seen[1] or not b["content"].strip() or any(x in b["content"] for x in exclude):
            continue
        out.setdefault((b["content"], b["context"]), {"content": b["content"], "context": b["context"],
                                                      "score": round(seen[0], 4)})
    return sorted(out.values(), key=lambda r: (-float(r["score"]), str(r["content"])))  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log", type=Path)
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "guard_benign_fixed.json")
    parser.add_argument("--exclude", action="append", default=[])
    args = parser.parse_args()
    rows = suite_texts(args.log, tuple(args.exclude))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps([{"content": r["content"], "context": r["context"]} for r in rows], indent=0,
                                   ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(rows)} texts -> {args.out}; highest scores under the guard of the run:")
    for r in rows[:15]:
        print(f"  {r['score']:.3f}  {str(r['content'])[:110]}")


if __name__ == "__main__":
    main()
