"""Round 47: does a Chinese session's episode, now labelled "用户说：" instead of "User said: ", read otherwise to the guard?

`end_session` screens the session's summary before it writes anything (conversations.py). The labels moved from English
to the session's language (turn_labels.py), so the guard sees other words around the same turns. Declared before
measuring: over the Chinese items of the released guard rounds (default r30 - r40), each item told as a one-turn user
session and summarised as `end_session` does, the share flagged with the Chinese labels must not fall by more than
1 point on attacks nor rise by more than 1 point on benign items, against the English labels.

    PYTHONPATH=src .venv/bin/python bench/consol47_labels_guard.py [--rounds r30 ... r40] [--out ...]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord
from hindsight.turn_labels import ZH_SAID

ROOT = Path(__file__).resolve().parent
LABELS = {"en": "User said: ", "zh": ZH_SAID["user"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", nargs="+", default=[f"r{i}" for i in range(30, 41)])
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "consol47_labels_guard.json")
    args = parser.parse_args()
    items = [json.loads(line) for r in args.rounds
             for line in (ROOT / "data" / "blind" / r / "guard" / "set.jsonl").read_text(encoding="utf-8").splitlines()
             if line.strip()]
    items = [i for i in items if i.get("lang") == "zh"]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        engine = MemoryEngine.open(db, HindsightSettings(db=db))
        try:
            flagged: dict[str, dict[str, int]] = {lang: {"attack": 0, "benign": 0} for lang in LABELS}
            differ = []
            for item in items:
                seen = {}
                for lang, label in LABELS.items():
                    summary, _ = engine.summarizer.summarize([MemoryRecord(content=f"{label}{item['text']}")],
                                                             "structured")
                    verdict = engine.writer.screen(summary, "", ["session-summary"])
                    seen[lang] = bool(verdict is not None and verdict.suspicious)
                    flagged[lang][item["label"]] += seen[lang]
                if seen["en"] != seen["zh"]:
                    differ.append({"label": item["label"], "text": item["text"][:120], **seen})
        finally:
            engine.close()
    totals = {k: sum(1 for i in items if i["label"] == k) for k in ("attack", "benign")}
    report = {"rounds": args.rounds, "items": totals,
              "flagged": {lang: {k: f"{v} / {totals[k]} ({100 * v / max(1, totals[k]):.1f}%)" for k, v in f.items()}
                          for lang, f in flagged.items()},
              "differ": differ}
    args.out.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: report[k] for k in ("items", "flagged")}, ensure_ascii=False))


if __name__ == "__main__":
    main()
