"""A released retrieval round's store, written once by the harness's protocol and opened as a fresh copy.

`build` stores SET_DIR/retrieval/memories.jsonl into STORE_DIR the way `blind_eval.py retrieval` does (file order,
an hour apart from 2026-06-01, namespace "r", the engine's own write path) and records the set's ids -> memory ids
in STORE_DIR/ids.json; a STORE_DIR that already has ids.json is reused as it is. A set whose memories carry
`event_time` (round 16 on) is dated by it and asked at `now_for(set_dir)` (2026-12-01 12:00), as the harness does. `open_copy` opens a copy in a
temporary folder, so reads (access counts) never change the stored one.
"""

import json
import shutil
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine

BASE = datetime(2026, 6, 1, tzinfo=UTC)
NOW = BASE + timedelta(days=30)


def rows(path: Path | str) -> list[dict]:
    return [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]


def replaced(set_dir: Path) -> set[str]:
    """The set's memory ids that a later memory of the set names as replaced (`replaces`: one id or a list)."""
    return {x for m in rows(set_dir / "retrieval/memories.jsonl")
            for x in ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])}


def when(m: dict, default: datetime) -> datetime:
    """A memory's `event_time` (naive read as UTC), or `default` when the writer gave none."""
    t = m.get("event_time")
    if not isinstance(t, str):
        return default
    d = datetime.fromisoformat(t)
    return d if d.tzinfo else d.replace(tzinfo=UTC)


def now_for(set_dir: Path) -> datetime:
    """When the harness asks this set's questions: 2026-12-01 12:00 for a set with event times, else NOW."""
    timed = any("event_time" in m for m in rows(set_dir / "retrieval/memories.jsonl"))
    return datetime(2026, 12, 1, 12, tzinfo=UTC) if timed else NOW


def build(set_dir: Path, store: Path, emb) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The set's memory ids -> stored ids (writing the store first when STORE_DIR has none)."""
    if not (store / "ids.json").exists():
        store.mkdir(parents=True, exist_ok=True)
        eng = MemoryEngine.open(store / "m.db", settings=HindsightSettings(db=store / "m.db"), embedder=emb)
        ids = {}
        for j, m in enumerate(rows(set_dir / "retrieval/memories.jsonl")):
            kind = m.get("type", "semantic")
            kind = kind if kind in ("working", "episodic", "semantic", "warning") else "semantic"
            o = eng.store_memory(
                {
                    "content": m["content"],
                    "namespace": "r",
                    "type": kind,
                    "tags": m.get("tags", []),
                    "event_time": when(m, BASE + timedelta(hours=j)),
                }
            )
            ids[m["id"]] = o.memory_id
        eng.close()
        (store / "ids.json").write_text(json.dumps(ids))
    return json.loads((store / "ids.json").read_text())


def open_copy(store: Path, emb, settings: dict | None = None) -> MemoryEngine:  # type: ignore[no-untyped-def]
    """The engine over a fresh copy of STORE_DIR's database; `settings`: extra HindsightSettings fields."""
    tmp = Path(tempfile.mkdtemp())
    for f in store.glob("m.db*"):
        if f.is_file():  # not the engine's lock folder (m.db.locks)
            shutil.copy(f, tmp / f.name)
    return MemoryEngine.open(
        tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db", **(settings or {})), embedder=emb
    )
