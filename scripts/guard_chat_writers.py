"""Chat as guard training writers (issue 10, guard round 23; docs/benchmarks.md "Guard, round 23: refit on 65 writers").

Chat is a benign kind the blind guard writers do not write: guardfit22's refit quarantined more LoCoMo dialogue turns
(77 -> 96 of 3,802) and a pinned ZH chat transcript. Two writers fill the gap with data, not a rule:

- ``train-locomo`` (benign): every turn of the LoCoMo *dev* conversations (``bench/locomo.py``'s ``dev`` split, 0-3;
  never the test conversations 4-9 that ``bench/guard_locomo_turns.py`` reads) as the write path stores it -
  "<speaker>: <text>" plus " [shares a photo: <caption>]" - read with the vector the guard gives such a turn (it
  embeds a turn written with its session's context itself: ``guard_lowo_fast.GUARD_EMBEDS``);
- ``train-chat``: chat transcripts ("User said: ... Assistant said: ...", "user: ... assistant: ...", "用户：... 助手：...")
  built from the released *training* writers' notes (``CHAT_SOURCE``: r21T* and later, never a criterion), one or two
  user turns with a short acknowledgement. A benign transcript holds benign notes; an attack transcript holds a benign
  note and an attack note of the same writer, so the transcript form carries no label by itself (only benign
  transcripts would teach "a transcript is benign"). Each row names its source writer in ``group`` (``source_of``),
  so a fit that leaves a writer out leaves its transcripts out too (``scripts/guard_curve.py``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

import guard_dataset as ds  # noqa: E402

DIALOGUE = "train-locomo"
CHAT = "train-chat"
#: training writers whose notes the transcripts are built from (blind-written, never a criterion): round 21 on
CHAT_SOURCE = re.compile(r"train-r(\d+)T\d+$")
CHAT_MIN_ROUND = 21
#: every CHAT_STRIDE-th benign and attack note of a source writer opens a transcript
CHAT_STRIDE = 4
_FORMS = (("User said: ", " Assistant said: ", " "), ("User: ", " Assistant: ", " "), ("user: ", "\nassistant: ", "\n"),
          ("用户：", " 助手：", " "))
_ACK = {"en": ("noted", "Got it.", "Understood, I'll remember that.", "OK, saved.", "Sure."),
        "zh": ("好的", "收到，已记下。", "明白了。", "好，记住了。", "没问题。")}


def dialogue_examples() -> list[ds.GuardExample]:
    """Each turn of the LoCoMo dev conversations as stored (label and caption), benign, once per distinct text."""
    from guard_locomo_turns import sessions

    texts = dict.fromkeys(t for turns in sessions("dev") for t in turns)
    return [ds.GuardExample(text=t, label="benign", category=None, lang="en", group=f"{DIALOGUE}:{ds.group_id(t)}",
                            kind=f"{DIALOGUE}:dialogue_turn", writer=DIALOGUE) for t in texts]


def is_chat_source(writer: str) -> bool:
    m = CHAT_SOURCE.match(writer)
    return m is not None and int(m.group(1)) >= CHAT_MIN_ROUND


def _transcript(turns: list[str], lang: str, i: int) -> str:
    user, assistant, sep = _FORMS[i % (len(_FORMS) if lang == "zh" else len(_FORMS) - 1)]
    acks = _ACK["zh" if lang == "zh" else "en"]
    return sep.join(f"{user}{t}{assistant}{acks[(i + j) % len(acks)]}" for j, t in enumerate(turns)).strip()


def chat_examples(examples: list[ds.GuardExample]) -> list[ds.GuardExample]:
    """Transcripts of the source writers' notes (``CHAT_SOURCE``); deterministic. ``group`` = "<source>:<id>"."""
    out: list[ds.GuardExample] = []
    by_writer: dict[str, list[ds.GuardExample]] = {}
    for e in examples:
        if is_chat_source(e.writer):
            by_writer.setdefault(e.writer, []).append(e)
    for writer, rows in sorted(by_writer.items()):
        for lang in ("en", "zh"):
            benign = [e for e in rows if not e.is_attack and e.lang == lang]
            attack = [e for e in rows if e.is_attack and e.lang == lang]
            if len(benign) < 2:
                continue
            for i, b in enumerate(benign[::CHAT_STRIDE]):
                other = benign[(i * CHAT_STRIDE + len(benign) // 2) % len(benign)]
                turns = [b.text] if i % 2 else [b.text, other.text]
                out.append(_chat(writer, "benign", None, lang, _transcript(turns, lang, i), "chat_benign"))
            for i, a in enumerate(attack[::CHAT_STRIDE]):
                b = benign[(i * CHAT_STRIDE + 1) % len(benign)]
                turns = [b.text, a.text] if i % 2 == 0 else [a.text, b.text]
                kind = (a.kind or "attack").split(":")[-1]
                out.append(_chat(writer, "attack", a.category, lang, _transcript(turns, lang, i), f"chat_{kind}"))
    return out


def _chat(source: str, label: str, category: str | None, lang: str, text: str, kind: str) -> ds.GuardExample:
    return ds.GuardExample(text=text, label=label, category=category, lang=lang, group=f"{source}:{ds.group_id(text)}",
                           kind=f"{CHAT}:{kind}", writer=CHAT)


def source_of(e: ds.GuardExample) -> str:
    """The writer a row's content comes from: a transcript's source writer, else the row's own writer."""
    return e.group.split(":", 1)[0] if e.writer == CHAT else e.writer


def chat_writers(examples: list[ds.GuardExample]) -> list[ds.GuardExample]:
    """Both writers for ``examples`` (the loaded writers the transcripts are built from)."""
    return dialogue_examples() + chat_examples(examples)
