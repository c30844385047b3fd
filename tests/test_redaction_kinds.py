"""Issue 10, PII missed: each kind (EN and ZH) is removed through the engine while the fact is still stored.

Passwords in free sentences, CVV codes, Basic auth headers, the secret half of an
access-key pair and postal addresses; and the look-alikes that must stay untouched.
"""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status

# (text, secret that must not survive, words of the fact that must survive)
PII = [
    ("pass: Tr0ub4dor&3 for the staging box", "Tr0ub4dor&3", "staging box"),
    ("redis 的 requirepass 设置成了 Xk9pLm22", "Xk9pLm22", "requirepass"),
    ("The password for the router is lamp-Orbit-77, don't lose it.", "lamp-Orbit-77", "router"),
    ("服务器登录：admin / Lx2024!!", "Lx2024!!", "服务器登录"),
    ("Card ending 4242, CVV 739, expires 08/27.", "739", "Card ending 4242"),
    ("The security code on the back is 482.", "482", "security code"),
    ("信用卡安全码 739，有效期 08/27。", "739", "信用卡安全码"),
    ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA==", "Authorization"),
    ("请求头带上 Authorization: Basic b3BzOlBhc3N3b3JkMQ==", "b3BzOlBhc3N3b3JkMQ==", "请求头"),
    ("AWS access key AKIAIOSFODNN7EXAMPLE secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY for the sandbox",
     "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "sandbox"),
    ("阿里云 AccessKey ID 是 LTAI5tQwErTyUiOp1234，AccessKey Secret 是 Pq7Rs8Tu9Vw0Xy1Za2Bc3De4Fg5Hi6Jk",
     "Pq7Rs8Tu9Vw0Xy1Za2Bc3De4Fg5Hi6Jk", "阿里云"),
    ("Ship to 221B Baker Street, London NW1 6XE", "221B Baker Street", "Ship to"),
    ("Please deliver the package to 77 Massachusetts Ave, Cambridge, MA 02139.", "77 Massachusetts Ave", "deliver the package"),
    ("寄到北京市海淀区中关村大街27号院3号楼502室", "中关村大街27号", "寄到"),
    ("公司搬到了广州市天河区天河路385号", "天河路385号", "公司搬到了"),
]
LOOKALIKES = [
    "All tests pass: 312 of 312.",
    "The CVV is the 3-digit code on the back of the card.",
    "We replaced Basic auth with OAuth on the API.",
    "The secret to good bread is a long, slow rise.",
    "Baker Street station is closed this weekend.",
    "Season 3 of Street Food is out.",
    "坐地铁 5号线到终点站。",
    "中关村大街上有很多咖啡馆。",
    "密码输错三次会被锁定十分钟。",
    "Upgrade to v2.14.3 before Friday.",
]


@pytest.mark.parametrize(("text", "secret", "fact"), PII)
def test_pii_is_removed_and_the_fact_stored(engine: MemoryEngine, text: str, secret: str, fact: str) -> None:
    outcome = engine.store_memory({"content": text})
    assert outcome.action == "created", outcome
    stored = engine.store.get(outcome.memory_id)
    assert stored is not None and stored.status == Status.active
    assert secret not in stored.content and "[REDACTED:" in stored.content
    assert fact in stored.content


@pytest.mark.parametrize("text", LOOKALIKES)
def test_lookalikes_are_stored_unchanged(engine: MemoryEngine, text: str) -> None:
    outcome = engine.store_memory({"content": text})
    assert outcome.action == "created" and outcome.redactions == []
    assert engine.store.get(outcome.memory_id).content == text
