"""The labels a session's turns carry in its episode ("User said: ...", "用户说：..."), and their removal.

`MemoryEngine.end_session` (conversations.py) writes each turn of a session as `<label><text>`; the label follows the
session's language (round 47: a Chinese session's episode read "User said: 以后回复我请用中文。", and the English
labels were embedded, compared and promoted with the turns). Consolidation reads a turn without its label
(`unlabelled`): a label is transcript form, not what was said, and two turns that share only "said" share no slot.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from hindsight.retrieval.crosslingual import bias_group

#: a Chinese session's labels; any other role keeps its own name
ZH_SAID = {"user": "用户说：", "assistant": "助手说：", "tool": "工具输出：", "system": "系统："}

_LABEL = re.compile(r"(?:^|(?<=\s))(?:(?:User|Assistant|Tool|System) said: |用户说：|助手说：|工具输出：|系统：)")


def said_in(text: str) -> Callable[[str], str]:
    """The label of a turn by `role` in a session whose turns read `text`: in the session's language."""
    if bias_group(text) == "zh":
        return lambda role: ZH_SAID.get(role.lower(), f"{role}：")
    return lambda role: f"{role.capitalize()} said: "


def unlabelled(text: str) -> str:
    """`text` without the turn labels a session end writes."""
    return _LABEL.sub("", text).strip()
