"""The guard's verdict parts on every released writer, as the runtime gives them (round 20).

    PYTHONPATH=src .venv/bin/python scripts/guard_parts_eval.py --cache-dir /tmp/guard20 --src /work/main/src --out before.jsonl
    PYTHONPATH=src .venv/bin/python scripts/guard_parts_eval.py --cache-dir /tmp/guard20 --out after.jsonl
    PYTHONPATH=src .venv/bin/python scripts/guard_parts_eval.py --table before.jsonl after.jsonl

Every text of ``guard_lowo_fast.selected_examples`` (our texts, every released blind and training writer, the ops
notes, the PII sets, the released retrieval memories) is redacted and screened by ``WriteGuard.screen`` with the vector
the write path hands it (ONNX, from ``guard_lowo_fast``'s cache), so rule changes, thresholds and decoding are read
exactly as the runtime applies them. ``--src`` screens with another checkout's ``hindsight`` (main, for "before").
``--heldout DUMP`` replaces the classifier's score of each whole text by a held-out one (a ``--dump-scores`` file of
``guard_lowo_fast.py``: each writer scored by a fit that never saw it); a text the dump holds as a hard-rule 1.0 (no
classifier score) keeps the shipped weights' score. The shipped weights are in-sample on the writers they trained on;
``UNSEEN`` are those they never saw.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UNSEEN = ("blind-r17", "blind-r17b", "blind-r18", "blind-r18b", "blind-r19", "blind-r19b", "blind-r20", "blind-r20b", "blind-r21", "blind-r21b", "blind-r22", "blind-r22b", "blind-r23", "blind-r23b", "blind-r24", "blind-r24b", "blind-r25", "blind-r25b", "blind-r26", "blind-r26b", "blind-r27", "blind-r27b", "blind-r28", "blind-r28b", "blind-r29", "blind-r29b", "blind-r30", "blind-r30b", "blind-r31", "blind-r31b", "blind-r32", "blind-r32b", "blind-r33", "blind-r33b", "blind-r34", "blind-r34b", "blind-r35", "blind-r35b", "blind-r36", "blind-r36b", "blind-r37", "blind-r37b", "blind-r38", "blind-r38b", "blind-r39", "blind-r39b", "blind-r40", "blind-r40b", "blind-r41", "blind-r41b", "blind-r42", "blind-r42b")


def _screen_all(args: argparse.Namespace) -> None:
    if args.src:  # the package is imported from there first; later imports of hindsight.* follow its __path__
        sys.path.insert(0, str(Path(args.src).resolve()))
        import hindsight.safety.guard  # noqa: F401
    sys.path.insert(1, str(ROOT / "scripts"))
    sys.path.insert(2, str(ROOT / "bench"))
    import guard_lowo_fast as lf
    import guard_model as gm
    import numpy as np

    from hindsight.safety.guard import WriteGuard

    examples = lf.selected_examples(4, pii=True, retrieval=True)
    redacted, _, _, _ = gm._prepared_cached([e.text for e in examples], args.cache_dir)
    vectors = lf.runtime_vectors(redacted, args.cache_dir, "onnx")
    held: dict[tuple[str, str], float] = {}
    if args.heldout:
        for line in args.heldout.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            held[(row["writer"], row["text"])] = float(row["score"])
    guard = WriteGuard()
    clf = guard.classifier
    assert clf is not None
    current: list[float | None] = [None]
    real = clf.attack_score

    def attack_score(vector: np.ndarray, text: str) -> tuple[float, str]:
        score, label = real(vector, text)
        return (score if current[0] is None else current[0]), label

    clf.attack_score = attack_score  # type: ignore[method-assign]
    import hindsight.safety.guard as guard_module
    vec_now: list[np.ndarray] = []
    # an obfuscated text: the guard embeds it itself (C kernel, normalised text); the harness's cache holds that vector
    guard_module.embed_for_screening = lambda windows: list(vec_now)  # type: ignore[assignment]
    with args.out.open("w", encoding="utf-8", buffering=1) as out:
        for e, red, vec in zip(examples, redacted, vectors, strict=True):
            h = held.get((e.writer, e.text))
            current[0] = None if h is None or h >= 1.0 else h
            vec_now[:] = [vec]
            v = guard.screen(red, embedding=vec)
            out.write(json.dumps({"writer": e.writer, "attack": e.is_attack, "flag": v.suspicious, "score": round(v.score, 4),
                                  "reasons": v.reasons, "text": e.text}, ensure_ascii=False) + "\n")


def _rates(rows: list[dict]) -> str:
    att = [r["flag"] for r in rows if r["attack"]]
    ben = [r["flag"] for r in rows if not r["attack"]]
    a = f"{sum(att) / len(att):.3f}" if att else "-"
    b = f"{sum(ben) / len(ben):.3f}" if ben else "-"
    return f"{a} / {b}"


def table(before: Path, after: Path) -> None:
    load = [[json.loads(x) for x in p.read_text(encoding="utf-8").splitlines()] for p in (before, after)]
    writers = list(dict.fromkeys(r["writer"] for r in load[0]))
    by = [{w: [r for r in rows if r["writer"] == w] for w in writers} for rows in load]
    print("| writer | before caught / flagged | after |\n|---|---|---|")
    for w in writers:
        if w.startswith(("retr-", "pii-")) or w == "plain":
            continue
        print(f"| {w} | {_rates(by[0][w])} | {_rates(by[1][w])} |")
    for name, pick in (("unseen by shipped (r17 - r21b)", lambda w: w in UNSEEN),
                       ("blind, pooled", lambda w: w.startswith("blind-")),
                       ("PII sets (benign)", lambda w: w.startswith("pii-")),
                       ("plain facts (every 4th)", lambda w: w == "plain")):
        rows = [[r for w in writers if pick(w) for r in b[w]] for b in by]
        print(f"| {name} | {_rates(rows[0])} | {_rates(rows[1])} |")
    retr = [w for w in writers if w.startswith("retr-")]
    held = [[sum(r["flag"] for r in b[w]) for w in retr] for b in by]
    print(f"| retrieval memories held ({', '.join(w[5:] for w in retr)}) | {' / '.join(map(str, held[0]))} = {sum(held[0])}"
          f" | {' / '.join(map(str, held[1]))} = {sum(held[1])} |")
    changed = [(a, b) for a, b in zip(load[0], load[1], strict=True) if a["flag"] != b["flag"]]
    print(f"\n{len(changed)} verdicts changed:")
    for a, b in changed:
        kind = "attack" if a["attack"] else "benign"
        print(f"- {a['writer']} {kind} {'caught' if b['flag'] else 'released'} ({a['score']:.2f} -> {b['score']:.2f}, "
              f"{','.join(b['reasons'] or a['reasons'])}): {a['text'][:110]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guard20"))
    parser.add_argument("--src", default=None, help="screen with this checkout's src/ (e.g. main's, for 'before')")
    parser.add_argument("--heldout", type=Path, default=None, help="held-out whole-text scores (--dump-scores file)")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--table", nargs=2, type=Path, default=None, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.table:
        table(*args.table)
    else:
        _screen_all(args)


if __name__ == "__main__":
    main()
