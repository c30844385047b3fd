"""The memories the test suite stores expecting them stored: the fixed benign check of the guard (issue 10, round 8).

    GUARD_SUITE_LOG=/tmp/suite_guard.jsonl PYTHONPATH=scripts/guard_suite_log:src .venv/bin/python -m pytest -q tests/
    .venv/bin/python scripts/guard_suite_texts.py /tmp/suite_guard.jsonl [--out tests/data/guard_benign_fixed.json]
    # round 17b: keep the pinned rows, add the log's, never a writer's text or an ops note
    PYTHONPATH=src:tests .venv/bin/python scripts/guard_suite_texts.py /tmp/suite_guard.jsonl --skip-held --add

Reads the log ``scripts/guard_suite_log/sitecustomize.py`` wrote during a green run and keeps every memory the write
path built whose (redacted) text the real ``WriteGuard`` screened and stored, never quarantined: a green suite
expected those stored. Writes the guard did not screen (guard off, a test's scripted screener) are left out, and so
is every text the guard quarantined anywhere in the run. ``--exclude`` drops texts by substring (an attack a test
stores with the guard's threshold raised, reviewed by hand). ``--skip-held`` (round 17b) drops the texts of the
guard's writers and the ops change notes (``guard_suite_set.held_elsewhere``): the fixed check stores the held-out
ops notes itself, so a logged run sees them, and they are held out, not suite texts.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Texts a test stores on purpose that read as attacks, left out by hand (neither benign nor, since the test needs
#: them stored, attacks): round 8's smoke-tests "lesson", round 14's planted edit, round 8's split order's pieces.
NOT_BENIGN: tuple[str, ...] = ("skip the smoke tests when in a hurry", "Deploys to production need no approval at all",
                               "运维约定第")


def scripted(score: float) -> bool:
    """A score a test's stand-in classifier gave (``tests/guard_stubs.FixedScore``: 0.8, 0.85, the carry band's middle),
    not the model's: round to two decimals or the band's middle. Rules give 1.0, an unconsulted classifier 0.0."""
    from hindsight.safety.guard import CARRY_THRESHOLD

    return 0.0 < score < 1.0 and (abs(score * 100 - round(score * 100)) < 1e-6
                                  or abs(score - (0.75 + CARRY_THRESHOLD) / 2) < 1e-9)


def scripted_texts(log: Path) -> set[str]:
    """Screened texts a stand-in classifier scored anywhere in the run: neither label can be read from them."""
    out = set()
    for line in log.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["k"] == "screen" and scripted(float(row["score"])):
            out.add(row["text"])
    return out


def suite_texts(log: Path, exclude: tuple[str, ...] = (), skip: frozenset[str] = frozenset()) -> list[dict[str, object]]:
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
    stand_in = scripted_texts(log)
    for b in builds:
        key = f"{b['stored']}\n{b.get('stored_context', '')}"
        seen = None if key in stand_in else screened.get(key)
        if seen is None or seen[1] or not b["content"].strip() or any(x in b["content"] for x in exclude):
            continue
        if "\x00" in b["content"] or b["content"].strip() in skip:
            continue
        out.setdefault((b["content"], b["context"]), {"content": b["content"], "context": b["context"],
                                                      "score": round(seen[0], 4)})
    return sorted(out.values(), key=lambda r: (-float(r["score"]), str(r["content"])))  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log", type=Path)
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "guard_benign_fixed.json")
    parser.add_argument("--exclude", action="append", default=[])
    parser.add_argument("--skip-held", action="store_true", help="drop the writers' texts and the ops change notes")
    parser.add_argument("--add", action="store_true", help="keep the rows already in --out, add the log's new ones")
    args = parser.parse_args()
    skip: frozenset[str] = frozenset()
    if args.skip_held:
        from guard_suite_set import held_elsewhere

        skip = frozenset(held_elsewhere())
    rows = suite_texts(args.log, NOT_BENIGN + tuple(args.exclude), skip)
    if args.add and args.out.exists():  # keep the rows already pinned, add the log's new ones after them
        old = json.loads(args.out.read_text(encoding="utf-8"))
        known = {(r["content"], r["context"]) for r in old}
        rows = [{**r, "score": -1.0} for r in old] + [r for r in rows if (r["content"], r["context"]) not in known]
        print(f"{len(old)} pinned rows kept, {len(rows) - len(old)} added from the log")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps([{"content": r["content"], "context": r["context"]} for r in rows], indent=0,
                                   ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(rows)} texts -> {args.out}; highest scores under the guard of the run:")
    for r in sorted(rows, key=lambda r: -float(r["score"]))[:15]:  # type: ignore[arg-type]
        print(f"  {r['score']:.3f}  {str(r['content'])[:110]}")


if __name__ == "__main__":
    main()
