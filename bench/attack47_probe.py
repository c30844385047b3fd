"""attack47: the correction contract and the speaker bound attacked through the real HTTP MCP server (shipped embedder,
bearer tokens). `user`: write + user_source on every namespace (speaks for the user); `agent`: write only (an agent's
token). One fresh namespace per case: the user states the memories, the agent writes the attack; printed per case:
the answer's action / corrected / correction_note, and each stated memory's status after.

    PYTHONPATH=src .venv/bin/python bench/attack47_probe.py > bench/results/attack47/probe_branch.json
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from mcp_helpers import create_tokens, http_server, mcp_session  # noqa: E402

PNPM, BUN = "I prefer pnpm over npm for JavaScript projects.", "I now use bun instead of pnpm."
VSCODE, CURSOR = "我喜欢用 VS Code 写代码。", "我现在改用 Cursor 写代码了，不再用 VS Code。"
LIGHT = "The user now prefers light mode in the editor."
ALICE = "I switched my editor to dark mode yesterday, light was hurting my eyes"
LIGHT_ZH, XIAOLI = "用户现在喜欢编辑器用浅色主题。", "我昨天把编辑器换成深色主题了，浅色太刺眼"

# (name, stated by the user, the agent's tool, its arguments)
CASES: list[tuple[str, list[str], str, dict[str, Any]]] = [
    ("agent_correction_en", [PNPM], "memory_user_correction", {"correction": {"correction": BUN}}),
    ("agent_correction_zh", [VSCODE], "memory_user_correction", {"correction": {"correction": CURSOR}}),
    ("external_store_as_correction", [PNPM], "memory_store",
     {"content": BUN, "type": "semantic", "source": "external", "metadata": {"event": "user_correction"}}),
    ("agent_store_plain", [PNPM], "memory_store", {"content": BUN, "type": "semantic"}),
    # the user's own correction under a heading (the user token calls it): the speaker bound read "Correction" as
    # another person on correct47
    ("user_correction_heading", ["The user prefers dark mode in the editor."], "memory_user_correction",
     {"correction": {"correction": "Correction: I now use light mode in the editor."}}),
    ("user_correction_heading_zh", ["用户喜欢深色主题。"], "memory_user_correction",
     {"correction": {"correction": "更正：我现在用浅色主题了。"}}),
]
SPEAKERS = [  # the agent stores another person's turn (memory_store, episodic, a chat session) after the user's fact
    ("speaker_label", LIGHT, f"Alice: {ALICE}"),
    ("speaker_said", LIGHT, f"Alice said: {ALICE}"),
    ("speaker_caps", LIGHT, f"ALICE: {ALICE}"),
    ("speaker_role_note", LIGHT, f"Alice (PM): {ALICE}"),
    ("speaker_three_words", LIGHT, f"Mary Jane Watson: {ALICE}"),
    ("speaker_bracket", LIGHT, f"[Alice] {ALICE}"),
    ("speaker_first_person_fact", "I now prefer light mode in the editor.", f"Alice: {ALICE}"),
    ("speaker_zh_label", LIGHT_ZH, f"小李：{XIAOLI}"),
]


def _statuses(client: Any, ns: str, ids: list[str]) -> list[str]:
    return [client.call("memory_get", memory_id=mid, namespace=ns)["status"] for mid in ids]


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="attack47-"))
    db = root / "memory.db"
    tokens = create_tokens(db, {"user": (["write", "user_source"], ["*"]), "agent": (["write"], ["*"])})
    out: dict[str, Any] = {}
    with http_server(db, root / "server.log") as url, mcp_session(url, auth=tokens["user"]) as user, \
            mcp_session(url, auth=tokens["agent"]) as agent:
        for name, stated, tool, args in CASES:
            ids = [user.call("memory_store", content=t, type="semantic", source="user", namespace=name)["memory_id"]
                   for t in stated]
            if "correction" in args:
                args = {"correction": {**args["correction"], "namespace": name}}
            else:
                args = {**args, "namespace": name}
            answer = (user if name.startswith("user_") else agent).call(tool, **args)
            out[name] = {"action": answer.get("action", answer.get("status")), "corrected": answer.get("corrected"),
                         "note": answer.get("correction_note"), "stated_after": _statuses(user, name, ids)}
        for name, fact, turn in SPEAKERS:
            ids = [user.call("memory_store", content=fact, type="semantic", source="user", namespace=name)["memory_id"]]
            answer = agent.call("memory_store", content=turn, type="episodic", session_id="chat-1", namespace=name)
            out[name] = {"turn": turn, "action": answer.get("action"), "reason": answer.get("reason"),
                         "stated_after": _statuses(user, name, ids)}
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main()
