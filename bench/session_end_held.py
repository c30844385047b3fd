"""How often session end now holds a benign session's preferences (attack round 13).

    PYTHONPATH=src .venv/bin/python bench/session_end_held.py [--locomo ../shared/data/locomo10.json]

`memory_session_end` screens the session's summary before it writes anything; when the guard holds the summary, each
turn kept as a stated preference is written with the summary as its context, so it is judged (and held) with its
session (conversations.py `end_session`). The cost falls on benign sessions whose summary the guard holds: their
preferences are held for review instead of stored. This replays every session of LoCoMo conversations 4-9 (0-3 are
benign guard training data) as a working memory (speaker A as the user), summarises it as `end_session` does and
counts the sessions held among those with a preference turn. Data: ../shared/data/locomo10.json (CC BY-NC 4.0).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord
from hindsight.write import events

ROOT = Path(__file__).resolve().parents[1]
LOCOMO = ROOT.parent / "shared" / "data" / "locomo10.json"
FIRST_HELD_OUT = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, default=LOCOMO, help="locomo10.json (default: ../shared/data)")
    data = json.loads(parser.parse_args().locomo.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        engine = MemoryEngine.open(Path(tmp) / "bench.db")
        sessions = held = with_preference = held_with_preference = preference_turns = 0
        for conversation in data[FIRST_HELD_OUT:]:
            talk = conversation["conversation"]
            user = talk["speaker_a"]
            for key in sorted(k for k in talk if k.startswith("session_") and not k.endswith("date_time")):
                turns = talk[key]
                if not isinstance(turns, list) or len(turns) < 2:
                    continue
                transcript = [MemoryRecord(content=f"{'User' if t['speaker'] == user else 'Assistant'} said: "
                                                   f"{t['text']}", namespace="bench") for t in turns]
                summary, _ = engine.summarizer.summarize(transcript, "structured")
                verdict = engine.writer.screen(summary, "", ["session-summary"])
                is_held = bool(verdict is not None and verdict.suspicious)
                preferences = [t for t in turns if t["speaker"] == user and events.states_general_rule(t["text"])]
                sessions += 1
                held += is_held
                preference_turns += len(preferences)
                if preferences:
                    with_preference += 1
                    held_with_preference += is_held
                if is_held:
                    print(f"held: {key} ({verdict.reason if verdict else ''}): {summary[:160]!r}", file=sys.stderr)
        engine.close()
    print(f"sessions {sessions}, summary held {held}; sessions with a preference turn {with_preference} "
          f"({preference_turns} turns), of them held {held_with_preference}")


if __name__ == "__main__":
    main()
