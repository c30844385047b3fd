"""prefs45 (issue 10): a preference's slot is what it is about, not its verb.

The pairs were written before the rules were read (bench/results/prefs45/pairs.md): the same attribute changed
(the older memory may retire) and two attributes (both stay live). The unit tests read `preference_slot` and the
veto alone; the engine tests write through the real embedder, as the walks (ux45, relev45) did.
"""
from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastmcp import Client

import hindsight.write.preference_slot as preference_slot
from hindsight.engine import MemoryEngine
from hindsight.server.mcp_server import build_server
from hindsight.write.preference_slot import other_preference, preference
from hindsight.write.retire_veto import veto

SAME = [
    ("The user prefers dark mode in the editor", "The user now prefers light mode in the editor"),
    ("The user prefers tabs over spaces", "The user now prefers spaces over tabs"),
    ("The user drinks tea in the morning", "The user switched to coffee in the morning"),
    ("The user prefers a font size of 12 in the editor", "The user now prefers a font size of 14 in the editor"),
    ("The user prefers aisle seats on flights", "The user now prefers window seats on flights"),
    ("The user prefers coffee", "The user now prefers tea"),
    ("用户喜欢喝拿铁", "用户改喝美式了"),
    ("用户喜欢喝拿铁", "用户现在喜欢喝美式"),
    ("用户偏好编辑器深色模式", "用户现在偏好编辑器浅色模式"),
    ("用户坐飞机喜欢靠过道的座位", "用户坐飞机现在喜欢靠窗座位"),
    ("用户首选汉庭", "用户首选全季"),
    ("Sam's favourite colour is green.", "Sam's favourite colour is orange these days."),  # the attribute is named
    ("文档正文字体喜欢用宋体。", "文档字体现在偏好思源黑体，宋体看久了眼睛累。"),  # the new text names the old object
]
DIFFERENT = [
    ("The user now prefers light mode in the editor", "The user prefers tabs over spaces"),
    ("The user prefers dark mode in the editor", "The user prefers a font size of 14 in the editor"),
    ("The user prefers window seats on flights", "The user prefers vegetarian meals"),
    ("用户现在偏好编辑器浅色模式", "用户偏好用制表符而不是空格缩进"),
    ("用户坐飞机喜欢靠窗座位", "用户偏好素食"),
    ("用户偏好深色主题", "用户偏好14号字体"),
    ("Sam's favourite food is pizza.", "Sam's favourite colour is orange these days."),
]


@pytest.mark.parametrize(("old", "new"), SAME)
def test_same_attribute_is_not_vetoed(old: str, new: str) -> None:
    assert other_preference(old, new) == ""


@pytest.mark.parametrize(("old", "new"), DIFFERENT)
def test_another_attribute_is_vetoed(old: str, new: str) -> None:
    assert other_preference(old, new).startswith("a preference about another attribute")
    assert veto(old, new)


def test_objects_and_heads() -> None:
    light = preference("The user now prefers light mode in the editor")
    assert light is not None and light.head == "mode" and light.words == {"light", "mode"}
    tabs = preference("The user prefers tabs over spaces")
    assert tabs is not None and tabs.head == "" and tabs.words == {"tab", "space"}
    theme = preference("用户偏好深色主题")
    assert theme is not None and theme.head == "主题"
    assert preference("Preferred airline: Delta") is None  # a label, not a stated preference
    assert preference("The user drinks tea") is None


def test_off_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(preference_slot, "ON", False)
    assert other_preference(*DIFFERENT[0]) == ""


def _write(engine: MemoryEngine, old: str, new: str, ns: str) -> tuple[str, str]:
    a = engine.store_memory({"content": old, "namespace": ns, "type": "semantic"})
    b = engine.store_memory({"content": new, "namespace": ns, "type": "semantic"})
    return b.action, engine.get(a.memory_id, ns, record_access=False).status.value


@pytest.mark.parametrize(("old", "new"), [DIFFERENT[0], DIFFERENT[1], DIFFERENT[5]])
def test_engine_keeps_both_preferences(engine: MemoryEngine, old: str, new: str) -> None:
    """The walks' pair (superseded, p(change) 0.71, before) and two of the different-attribute pairs the rules read
    as one slot ("single-valued attribute", 偏好 + a swapped object) stay live, linked."""
    action, status = _write(engine, old, new, "prefs")
    assert (action, status) == ("supplemented", "active")
    if "light mode" in old:  # the live theme preference is still found
        hits = engine.search("editor theme", namespace="prefs", top_k=5, record_access=False)
        assert any("light mode" in h.memory.content for h in hits)


@pytest.mark.parametrize(("old", "new"), [SAME[0], SAME[4], SAME[9]])
def test_engine_still_retires_a_changed_preference(engine: MemoryEngine, old: str, new: str) -> None:
    assert _write(engine, old, new, "prefs") == ("superseded", "deprecated")


def test_mcp_store_keeps_the_theme_preference(engine: MemoryEngine) -> None:
    """The walks' reproduction through the MCP tools: the second store answered `superseded` and the theme
    preference was gone from search."""
    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        async with Client(build_server(engine)) as client:
            await client.call_tool("memory_store", {"content": DIFFERENT[0][0], "type": "semantic"})
            second = await client.call_tool("memory_store", {"content": DIFFERENT[0][1], "type": "semantic"})
            found = await client.call_tool("memory_search", {"query": "editor theme"})
            assert isinstance(second.structured_content, dict) and isinstance(found.structured_content, dict)
            return second.structured_content, found.structured_content

    second, found = asyncio.run(run())
    assert second["action"] == "supplemented"
    assert "light mode" in json.dumps(found, ensure_ascii=False)
