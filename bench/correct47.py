"""correct47: where `write/speaker_bound.other_speaker` can act on the released data (ship rule:
bench/results/correct47/ship_rule.md).

    PYTHONPATH=src:bench python bench/correct47.py rows OUT.json     # hygiene rows it fires on (any stored text, new)
    PYTHONPATH=src:bench python bench/correct47.py stores OUT.json   # retrieval-store memory pairs it fires on
    PYTHONPATH=src:bench python bench/correct47.py locomo OUT.json   # LoCoMo turn pairs it fires on

A row's pairs are (each of `others` and `existing`, `new`); a store's every two memories of one namespace (older,
newer in file order); LoCoMo's every two turns of one conversation as bench/locomo.py stores them. The veto acts
only on a pair it fires on: a row or store it fires on nowhere is judged alike with the reading off and on.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from hindsight.write.speaker_bound import about_user, other_speaker, others_turn

ROOT = Path(__file__).resolve().parent.parent


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _pairs(texts: list[str]) -> list[tuple[int, int, str]]:
    """(older, newer, why) of every two texts in order that the reading fires on (filtered by its two sides)."""
    olds = [i for i, t in enumerate(texts) if about_user(t)]
    news = [j for j, t in enumerate(texts) if others_turn(t)]
    return [(i, j, why) for j in news for i in olds if i < j and (why := other_speaker(texts[i], texts[j]))]


def rows(out: Path) -> None:
    found: dict[str, Any] = {"rows_read": 0, "sides": {"about_user": 0, "others_turn": 0}, "fired": []}
    for base in sorted((ROOT / "bench/data/blind").iterdir()) + sorted((ROOT / "bench/data/train").iterdir()):
        path = base / "hygiene" / "set.jsonl"
        if not path.exists():
            continue
        for i, r in enumerate(_lines(path)):
            found["rows_read"] += 1
            olds = [*(r.get("others") or []), r["existing"]]
            found["sides"]["about_user"] += sum(about_user(o) for o in olds)
            found["sides"]["others_turn"] += bool(others_turn(r["new"]))
            for old in olds:
                if why := other_speaker(old, r["new"]):
                    found["fired"].append({"pair": f"{base.name}:{i}", "label": r["label"], "old": old,
                                           "new": r["new"], "why": why})
    out.write_text(json.dumps(found, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(found["rows_read"], found["sides"], len(found["fired"]))


def stores(out: Path) -> None:
    found: dict[str, Any] = {}
    for base in sorted((ROOT / "bench/data/blind").iterdir()):
        path = base / "retrieval" / "memories.jsonl"
        if not path.exists():
            continue
        mems = _lines(path)
        hits = []
        for ns in sorted({str(m.get("namespace")) for m in mems}):
            own = [m for m in mems if str(m.get("namespace")) == ns]
            texts = [m["content"] for m in own]
            hits += [{"old": own[i]["id"], "new": own[j]["id"], "old_text": texts[i], "new_text": texts[j], "why": w}
                     for i, j, w in _pairs(texts)]
        found[base.name] = {"memories": len(mems), "about_user": sum(about_user(m["content"]) for m in mems),
                            "others_turn": sum(bool(others_turn(m["content"])) for m in mems), "pairs": hits}
        print(base.name, len(mems), found[base.name]["about_user"], found[base.name]["others_turn"], len(hits))
    out.write_text(json.dumps(found, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def locomo(out: Path) -> None:
    import locomo as bench

    found: dict[str, Any] = {}
    for sample in json.loads(bench.DATA.read_text()):
        texts = [t["content"] for t in bench.turns(sample)]
        found[sample["sample_id"]] = {"turns": len(texts), "about_user": sum(map(about_user, texts)),
                                      "others_turn": sum(bool(others_turn(t)) for t in texts),
                                      "pairs": len(_pairs(texts))}
        print(sample["sample_id"], found[sample["sample_id"]])
    out.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    {"rows": rows, "stores": stores, "locomo": locomo}[sys.argv[1]](Path(sys.argv[2]))
