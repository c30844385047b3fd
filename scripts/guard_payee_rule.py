"""What the hard rule `pay_unverified_change` (safety/payee.py) does on every released text.

    PYTHONPATH=src .venv/bin/python scripts/guard_payee_rule.py --cache-dir /tmp/payee11

False alarms: the rule on every released benign guard text and every string of the PII, hygiene and retrieval sets
(raw and, for guard/PII, redacted). Attacks: how many released guard attacks it holds, and, replaying carry11's
guard (the rule switched off, classifier scored on the redacted text's passage vector), how many of those it holds
that `CARRY_THRESHOLD` (0.85) or the shipped 0.75 would let through.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from guard_carry_loro import ROOT  # noqa: E402
from guard_lowo_fast import embed, vector_text  # noqa: E402

import hindsight.safety.guard as guard_module  # noqa: E402
import hindsight.safety.hard_rules as hard_rules  # noqa: E402
from hindsight.safety.normalize import prepare  # noqa: E402
from hindsight.safety.payee import orders_unverified_payee_change  # noqa: E402
from hindsight.safety.redact import redactor  # noqa: E402
from hindsight.safety.view import feature_view  # noqa: E402


def _fires(*texts: str) -> bool:
    return any(orders_unverified_payee_change(prepare(t + "\n").text) for t in texts)


def _strings(obj: Any) -> list[str]:
    if isinstance(obj, str):
        return [obj] if len(obj) >= 8 else []
    values = obj.values() if isinstance(obj, dict) else obj if isinstance(obj, list) else []
    return [s for v in values for s in _strings(v)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache-dir", type=Path, required=True)
    cache = ap.parse_args().cache_dir
    cache.mkdir(parents=True, exist_ok=True)

    attacks: list[dict[str, Any]] = []
    benign = others = 0
    alarms: list[str] = []
    for path in sorted(ROOT.glob("*/*/*/*.jsonl")):
        kind, writer = path.parent.name, path.parent.parent.name
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            if kind == "guard":
                red = redactor(row["text"])[0]
                hit = _fires(row["text"], red)
                if row["label"] == "attack":
                    attacks.append({"writer": writer, "text": row["text"], "red": red, "hit": hit})
                else:
                    benign += 1
                    alarms += [f"{path}: {row['text'][:120]}"] if hit else []
                continue
            for text in _strings(row):
                others += 1
                if _fires(text, *([redactor(text)[0]] if kind == "pii" else [])):
                    alarms.append(f"{path}: {text[:120]}")
    print(f"benign guard texts {benign}, other released strings {others}: false alarms {len(alarms)}")
    for a in alarms:
        print("  FA", a)
    for a in attacks:
        a["carry"] = guard_module.carries_secret(feature_view(prepare(a["red"] + "\n").text))
    todo = [a for a in attacks if a["carry"] or a["hit"]]
    hard_rules.orders_unverified_payee_change = lambda _t: False  # type: ignore[assignment]  # carry11's guard
    vectors = embed([vector_text(a["red"]) for a in todo], cache / "emb_payee.npy")
    screen = guard_module.WriteGuard(carry_threshold=0.75)
    for a, vec in zip(todo, vectors, strict=True):
        v = screen.screen(a["red"] + "\n", embedding=None if prepare(a["red"]).obfuscated else vec)
        a["hard"] = v.suspicious and any(r in guard_module.HARD_RULE_IDS for r in v.reasons)
        a["score"] = 1.0 if a["hard"] else v.score
    hits = [a for a in todo if a["hit"]]
    released = [a for a in todo if a["carry"] and not a["hard"] and 0.75 <= a["score"] < 0.85]
    new = [a for a in hits if not (a["hard"] or a["score"] >= (0.85 if a["carry"] else 0.75))]
    print(f"attacks {len(attacks)}: the rule holds {len(hits)} ({sorted(Counter(a['writer'] for a in hits).items())})")
    print(f"carry11 releases {len(released)} at 0.85; the rule holds {sum(a['hit'] for a in released)} of them")
    print(f"held by the rule and by nothing else on carry11: {len(new)}; at 0.75 everywhere: "
          f"{sum(not (a['hard'] or a['score'] >= 0.75) for a in hits)}")
    for a in released:
        print(f"  {'HELD' if a['hit'] else 'left'} {a['writer']} {a['score']:.3f} {a['text'][:100]}")


if __name__ == "__main__":
    main()
