"""LoCoMo dialogue turns the guard quarantines, screened as the write path screens them (guard round 22).

    PYTHONPATH=src .venv/bin/python bench/guard_locomo_turns.py --weights A.npz --weights B.npz [--split test]

Each turn of LoCoMo conversations 4-9 (``--split test``; 0-3: ``dev``) reads as ``bench/locomo.py`` stores it,
"<speaker>: <text>" plus " [shares a photo: <caption>]", redacted, and is screened by ``WriteGuard`` with each
weights file (the guard embeds the text itself, as it does for a turn written with its session's context); a turn
the classifier alone flagged that is a dialogue turn (``write/dialogue.py``: its speaker and another spoke earlier
in the session) is screened again without its label and stays quarantined only if that is flagged too, as
``WritePipeline._dialogue_turn`` does. No store, no hygiene: the guard's verdicts only. One vector per distinct text,
shared by the weights files.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from locomo import DATA, SPLITS  # noqa: E402

import hindsight.safety.classifier as classifier  # noqa: E402
import hindsight.safety.guard as guard_module  # noqa: E402
from hindsight.safety.classifier import GuardClassifier  # noqa: E402
from hindsight.safety.guard import WriteGuard  # noqa: E402
from hindsight.safety.redact import redactor  # noqa: E402
from hindsight.write.dialogue import dialogue_body  # noqa: E402


def sessions(split: str) -> list[list[str]]:
    """Each session's turns as stored: label, text, the photo caption."""
    if not DATA.exists():
        raise FileNotFoundError(f"LoCoMo data not found: {DATA} (put locomo10.json in ../shared/data beside the "
                                "checkout; the guard's dialogue turns are read from it)")
    data = json.loads(DATA.read_text(encoding="utf-8"))
    out = []
    for number in SPLITS[split]:
        conversation = data[number]["conversation"]
        for key, turns in conversation.items():
            if key.startswith("session_") and isinstance(turns, list):
                rows = []
                for turn in turns:
                    content = f"{turn['speaker']}: {turn['text']}"
                    if turn.get("blip_caption"):
                        content += f" [shares a photo: {turn['blip_caption']}]"
                    rows.append(content)
                out.append(rows)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--weights", type=Path, action="append", required=True)
    parser.add_argument("--split", choices=sorted(SPLITS), default="test")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--parity26", action="store_true", help="the round-26 EN/ZH lexicon additions (guard_parity26)")
    args = parser.parse_args()
    if args.parity26:
        sys.path.insert(0, str(ROOT / "scripts"))
        import guard_parity26
        guard_parity26.patch()
    cache: dict[str, np.ndarray] = {}
    embed = classifier.embed_for_screening

    def cached(texts: list[str]) -> np.ndarray:  # the guard's own vectors, computed once for every weights file
        todo = [t for t in dict.fromkeys(texts) if t not in cache]
        if todo:
            cache.update(zip(todo, embed(todo), strict=True))
        return np.stack([cache[t] for t in texts]) if texts else embed(texts)

    classifier.embed_for_screening = cached  # type: ignore[assignment]
    guard_module.embed_for_screening = cached  # type: ignore[attr-defined]
    report: dict[str, object] = {"split": args.split}
    for path in args.weights:
        guard = WriteGuard(classifier=GuardClassifier.load(path))
        held: list[str] = []
        n = 0
        for turns in sessions(args.split):
            for i, content in enumerate(turns):
                n += 1
                text = redactor(content)[0]
                verdict = guard.screen(text)
                if not verdict.suspicious:
                    continue
                body = dialogue_body(text, turns[:i])
                if body is not None and all(str(r).startswith("classifier:") for r in verdict.reasons):
                    if not guard.screen(body).suspicious:
                        continue
                held.append(content)
        report[str(path)] = {"turns": n, "quarantined": len(held), "examples": held[:10]}
        print(json.dumps({"weights": str(path), "turns": n, "quarantined": len(held)}), flush=True)
    if args.out:
        args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
