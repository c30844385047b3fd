"""Plain memories from the released blind rounds: ordinary facts the guard must never quarantine.

Shared by ``bench/guard_plain.py`` (the metric) and ``scripts/train_guard.py`` (benign training data): the
retrieval memories of r1/r2/r4/r5/r6/r7 and every text of their hygiene pairs (``existing``, ``new``, ``others``),
written by other writers as ordinary company/personal memories. None of them is an attack.

A stable hash of each text splits them: ``is_held_out`` texts are never trained on, so the metric on them stays
fair after the plain facts join the guard's training data. LoCoMo dialogue turns (``locomo_turns``): the guard
trains on conversations 0-3 and is measured on 4-9.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLIND = ROOT / "bench" / "data" / "blind"
LOCOMO = next((p / "shared" / "data" / "locomo10.json" for p in ROOT.parents
               if (p / "shared" / "data" / "locomo10.json").exists()), ROOT.parent / "shared" / "data" / "locomo10.json")
ROUNDS = ("r1", "r2", "r4", "r5", "r6", "r7")
#: Redaction sets whose texts are benign notes that carry a secret (PII texts and their look-alikes).
SECRET_SETS = tuple(BLIND / r / "pii" / "set.jsonl" for r in ("r1", "r2", "r3", "r4", "r5", "r6", "r7"))
HELD_OUT_FRACTION = 0.4
#: Plain operational change notes (EN/ZH) written for round 8: moved, switched, rolled back, rotated, revoked, done.
OPS_NOTES = ROOT / "bench" / "data" / "guard_ops" / "ops_change_notes.jsonl"


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def is_held_out(text: str, fraction: float = HELD_OUT_FRACTION) -> bool:
    """Deterministic ~``fraction`` split on the text's hash (independent of file order and of the guard split)."""
    bucket = int(hashlib.sha256(("plain-split:" + text).encode("utf-8")).hexdigest()[:8], 16) / 0xFFFFFFFF
    return bucket < fraction


def load_plain_facts() -> list[dict[str, str]]:
    """Every distinct plain text: ``{text, lang, source}`` (source: ``r4/retrieval``, ``r1/hygiene``, ...)."""
    out: dict[str, dict[str, str]] = {}
    for r in ROUNDS:
        memories = BLIND / r / "retrieval" / "memories.jsonl"
        if memories.exists():
            for m in _rows(memories):
                text = str(m["content"])
                out.setdefault(text, {"text": text, "lang": str(m.get("lang", "")), "source": f"{r}/retrieval"})
        pairs = BLIND / r / "hygiene" / "set.jsonl"
        if pairs.exists():
            for p in _rows(pairs):
                others = p.get("others") or []
                assert isinstance(others, list)
                for text in [str(p["existing"]), str(p["new"]), *(str(o) for o in others)]:
                    out.setdefault(text, {"text": text, "lang": str(p.get("lang", "")), "source": f"{r}/hygiene"})
    return list(out.values())


def load_secret_notes() -> list[dict[str, str]]:
    """Every distinct text of the released redaction sets: ``{text, lang, source}``. Each is an ordinary note that
    carries a secret (or looks like it does); the guard reads it redacted and must store it, not quarantine it."""
    out: dict[str, dict[str, str]] = {}
    for path in SECRET_SETS:
        if path.exists():
            for row in _rows(path):
                text = str(row["text"])
                out.setdefault(text, {"text": text, "lang": str(row.get("lang", "")),
                                      "source": f"{path.parts[-3]}/pii:{row.get('kind', '')}"})
    return list(out.values())


def load_ops_notes() -> list[dict[str, object]]:
    """The operational change notes: ``{text, lang, kind, held_out}``; ``held_out`` (the stable hash split) notes are
    never trained on: tests/test_guard_benign_fixed.py stores them through the engine."""
    return [dict(r) for r in _rows(OPS_NOTES)]


#: LoCoMo conversations the guard may train on (the same ones the retrieval tuning uses, bench/locomo.py); the
#: metric reads only the others (4-9), which nothing is tuned on.
LOCOMO_TRAIN_CONVERSATIONS = (0, 1, 2, 3)


def locomo_turns(sample: int = 0, train: bool = False) -> list[str]:
    """LoCoMo dialogue turns of the held-out conversations 4-9 (``train``: of 0-3), all or an even sample."""
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))
    turns = [t["text"] for i, s in enumerate(data) if (i in LOCOMO_TRAIN_CONVERSATIONS) == train
             for k, v in s["conversation"].items()
             if k.startswith("session_") and isinstance(v, list) for t in v if t.get("text")]
    if not train:  # a few short turns ("Take care!") recur across conversations: the held-out ones never train
        seen = set(locomo_turns(train=True))
        turns = [t for t in turns if t not in seen]
    if sample and sample < len(turns):
        turns = turns[:: max(1, len(turns) // sample)][:sample]
    return turns
