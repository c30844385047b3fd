"""Hygiene round 36: inside the rules' "shares the subject, adds or changes" keep, a new value of the same slot is
told from an addition (a second entity, attribute, document, child or account), EN and ZH (`write.slot_value_change`);
the keep decision reads a change there only with that reading (`keep_decision.SLOT_CHANGES`). Round 37: the reading
needs shared content (`shared_content`: store pairs that share one word are not one slot), and the side reads the
merge blockers' keep only with `SLOT_BLOCKERS`."""
from __future__ import annotations

import numpy as np
import pytest

from hindsight.write import keep_decision
from hindsight.write.conflict import SHARES_SUBJECT, Verdict
from hindsight.write.slot_value_change import addition, same_slot_change, shared_content, value_swapped

CHANGES = [
    ("The team standup is at 9:30 every morning.", "The standup moved from 9:30 to 10:00 starting next week."),
    ("Our office router is a Netgear Nighthawk.", "Swapped the Netgear for an Eero mesh; the old router is gone."),
    ("Check-out at the lodge is noon.", "Check-out at the lodge is 10:30."),
    ("Helen takes 5 mg of amlodipine every morning.", "Helen's doctor took her off amlodipine last month."),
    ("我爸住在城西的老房子里。", "我爸已经搬到我们小区来住了，老房子租出去了。"),
    ("仓库管理员是老孙。", "仓库管理员是小何。"),
    ("王阿姨的手机号是 139 5550 0123。", "王阿姨换号了，新号 139 5550 8870，旧的停机了。"),
]

ADDITIONS = [
    ("My daughter Lily is allergic to peanuts.", "My son Max is allergic to eggs, so no omelettes for him."),
    ("Priya's passport expires in March 2027.", "Priya's visa for Japan expires in June now that it was renewed."),
    ("Our account rep at Brightline is Carla Mendes.", "Brightline also gave us a second contact, Omar, for customs."),
    ("The front end of the portal is built with React.", "The back end of the portal now runs on Go."),
    ("大宝吃面喜欢加醋。", "二宝现在吃面不能放葱。"),
    ("老张的手机是 555-0140。", "老张办公室座机 555-0141，上班时间打座机更容易找到他。"),
    ("林伯家那棵黑松有六十多年了。", "林伯最近又收了一棵五针松，还在养坯。"),
    ("陈医生在村里开兽医站快二十年了。", "陈医生的儿子也学了兽医，现在在县畜牧局上班。"),
    ("港澳通行证还剩两次签注。", "台湾通行证已经过期了。"),
    ("Ana's Irish passport is valid until 2031.", "Ana's British passport has now expired."),
    # another attribute of the same subject: only the subject is kept (v3)
    ("新房预算二十万。", "新房进度：水电已经做完了。"),
    ("The book club meets for two hours at most.", "Book club moved to Thursdays from now on."),
]


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_new_value_of_the_same_slot_is_read(old: str, new: str) -> None:
    assert same_slot_change(old, new) is not None


@pytest.mark.parametrize(("old", "new"), ADDITIONS)
def test_an_addition_keeps_both(old: str, new: str) -> None:
    assert same_slot_change(old, new) is None

#: (kept, written later) memories of the released retrieval stores that share one word - 用, 已经, 换, again - and that
#: round 36's reading (v3) read as a new value of the same slot (docs/benchmarks.md "Hygiene, round 36": the stores).
ONE_WORD_SHARED = [
    ("办公室WiFi：员工用Ferrule-Staff，访客用Ferrule-Guest，密码贴在前台。", "黄博习惯VS Code + PlatformIO，不用Keil。"),
    ("黄博习惯VS Code + PlatformIO，不用Keil。",
     "公司VPN已经全部切到Tailscale了，旧的vpn.ferrule.io月底下线。新人直接用公司Google账号登录Tailscale就行。"),
    ("内网GitLab地址 git.sz.ferrule.internal，登录用企业微信扫码。",
     "监控已经迁到Prometheus+Grafana，面板地址 grafana.sz.ferrule.internal，Zabbix停用了。"),
    ("代码规范：Go 用 golangci-lint，Python 用 ruff，提交时 pre-commit 会自动跑。",
     "前端国内版打包时记得把 Google Fonts 换成本地字体，不然国内加载慢得要死。"),
    ("Daniel is a hard no on Jira. We're staying on Linear.",
     "Heads up: Maya has started eating fish again, so she's pescatarian now. Still no meat."),
]


@pytest.mark.parametrize(("old", "new"), ONE_WORD_SHARED)
def test_memories_sharing_one_word_are_not_one_slot(old: str, new: str) -> None:
    assert not shared_content(old, new)
    assert same_slot_change(old, new) is None


def test_shared_content_is_a_third_of_a_side_or_the_old_subject_kept() -> None:
    assert all(shared_content(old, new) for old, new in CHANGES)
    # the floor's cost: a change whose subject is said shorter (团队站会 / 站会) and shares under a third is lost
    assert not shared_content("团队站会每天早上九点半开。", "站会改到十点了，从下周一开始。")
    # the store's one right flip of round 36 keeps its subject (Felix): still read
    old = "Felix has shoulder physio every Wednesday 8–9am; don't book him before 9:30 that day."
    new = "Felix got discharged from physio last week! Shoulder's fine, so his Wednesday mornings are open again."
    assert shared_content(old, new) and same_slot_change(old, new) is not None
    # a who-word alone is not a kept subject
    assert not shared_content("我每天早上六点起床跑步，周末睡到八点。", "我已经换了新工作，在滨江那边上班。")


def test_the_addition_names_why() -> None:
    assert addition("My daughter Lily is allergic to peanuts.", "My son Max is allergic to eggs.") == \
        "another of one kind (daughter / son)"
    assert addition("团队站会每天早上九点半开。", "站会改到十点了。") is None


def test_the_value_after_the_attribute_is_the_slot() -> None:
    assert value_swapped("Check-out at the lodge is noon.", "Check-out at the lodge is 10:30.") == ("noon", "10 : 30")
    assert value_swapped("仓库管理员是老孙。", "仓库管理员是小何。") == ("老孙", "小何")
    # the subject swapped, the value kept: another person's fact, not a new value
    assert value_swapped("Anna's seat is 14C.", "Ben's seat is 14C.") is None
    assert value_swapped("The seat is 14C.", "The seat is 14C, an aisle.") is None  # an addition, not a swap


class _Ensemble:
    def __init__(self, p_change: float) -> None:
        self.q = np.asarray([1.0 - p_change, 0.0, p_change])

    def decide(self, row: np.ndarray, changes: bool = True) -> tuple[str, np.ndarray]:
        return "keep", self.q


@pytest.fixture()
def stub_decision(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(keep_decision, "back_merge_p", lambda *a, **k: 0.0)
    monkeypatch.setattr(keep_decision, "decision_features", lambda *a, **k: np.zeros(3))
    monkeypatch.setattr(keep_decision, "ON", True)

    def run(old: str, new: str, reason: str, p_change: float, on: bool, blockers: bool = False) -> Verdict | None:
        monkeypatch.setattr(keep_decision, "shipped", lambda: _Ensemble(p_change))
        monkeypatch.setattr(keep_decision, "SLOT_CHANGES", on)
        monkeypatch.setattr(keep_decision, "SLOT_BLOCKERS", blockers)
        rules = Verdict("supplement", reason)
        return keep_decision.decide(None, (old, new), old, new, np.zeros(3), rules,  # type: ignore[arg-type]
                                    np.asarray([0.5, 0.2, 0.3]), 0.9, None)
    return run


def test_the_keep_decision_reads_the_slot_change_only_inside_that_keep(stub_decision) -> None:  # type: ignore[no-untyped-def]
    old, new = "我爸住在城西的老房子里。", "我爸已经搬到我们小区来住了，老房子租出去了。"
    shares = f"{SHARES_SUBJECT} (搬, 小区) (cosine 0.910)"
    assert stub_decision(old, new, shares, 0.995, on=False) is None  # off: main's keep stands
    verdict = stub_decision(old, new, shares, 0.995, on=True)
    assert verdict is not None and verdict.label == "override" and "same slot" in verdict.reason
    assert stub_decision(old, new, shares, keep_decision.SLOT_T - 0.01, on=True) is None  # the model not sure enough
    assert stub_decision(old, new, "adds detail (10) (cosine 0.910)", 0.995, on=True) is None  # another keep
    sister = ("My daughter Lily is allergic to peanuts.", "My son Max is allergic to eggs now.")
    assert stub_decision(*sister, shares, 0.999, on=True) is None  # an addition: both kept


def test_the_merge_blockers_keep_is_read_only_with_slot_blockers(stub_decision) -> None:  # type: ignore[no-untyped-def]
    old, new = "国庆带孩子去西双版纳。", "版纳不去了，国庆改去大理。"
    blocked = "kept and linked, not a restatement: another person (孩子) (cosine 0.931)"
    assert stub_decision(old, new, blocked, 0.95, on=True) is None  # round 36's side: the shares-the-subject keep only
    verdict = stub_decision(old, new, blocked, 0.95, on=True, blockers=True)
    assert verdict is not None and verdict.label == "override" and "same slot" in verdict.reason
    assert stub_decision(old, new, blocked, 0.95, on=False, blockers=True) is None  # the switch off: nothing


def test_an_amounts_differ_blocker_is_not_read_even_with_slot_blockers(stub_decision) -> None:  # type: ignore[no-untyped-def]
    # round 38's candidate Bp: hyg37's blockers' side lost "amounts differ" pairs (a first payment, a share, another
    # phase read as the new value), so that blocker's keep stays whatever the ensemble says; the others are read
    old, new = "仓库管理员是老孙。", "仓库管理员是小何。"  # a new value of the slot (the reason is the stub's)
    amounts = "kept and linked, not a restatement: amounts differ (6000 / 6500) (cosine 0.931)"
    person = "kept and linked, not a restatement: another person (小何) (cosine 0.931)"
    assert keep_decision.SLOT_BLOCKER_SKIP == ("amounts differ",)
    assert stub_decision(old, new, amounts, 0.99, on=True, blockers=True) is None
    verdict = stub_decision(old, new, person, 0.99, on=True, blockers=True)
    assert verdict is not None and verdict.label == "override"


def test_slot_blocker_skip_empty_reads_every_blocker_as_round_37(stub_decision, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(keep_decision, "SLOT_BLOCKER_SKIP", ())
    old, new = "仓库管理员是老孙。", "仓库管理员是小何。"  # a new value of the slot (the reason is the stub's)
    amounts = "kept and linked, not a restatement: amounts differ (6000 / 6500) (cosine 0.931)"
    verdict = stub_decision(old, new, amounts, 0.99, on=True, blockers=True)
    assert verdict is not None and verdict.label == "override"
