"""Round 25 of the write guard (issue 10): readings of what the guard missed on blind rounds 22 - 23, no refit.

- an act at stake kept from whoever would check it - not told, reported, logged or written up (``safety/hushed.py``);
- a safety device made inoperative - an alarm, detector, protection relay, monitor or interlock switched off, muted,
  unplugged, wired open or set out of reach (``safety/disarmed.py``);
  each lowers the classifier threshold (``safety/lowered.py``), never quarantines on its own;
- trust handed to a channel declared the real / official / our own one, and acted on (``safety/trusted.py``'s
  round-25 forms), read at the vouched threshold.

Texts written for this file, EN and ZH; none from bench/data. A stand-in classifier (``guard_stubs``) gives every text
one score, so only the policy is under test.
"""

from __future__ import annotations

import pytest
from guard_stubs import VEC, fixed_score_guard

from hindsight.safety.disarmed import disarms_safeguard
from hindsight.safety.guard import VOUCHED_THRESHOLD
from hindsight.safety.hushed import hushes_act
from hindsight.safety.lowered import DISARMED_THRESHOLD, HUSHED_THRESHOLD, reading_threshold
from hindsight.safety.normalize import normalize_for_screening
from hindsight.safety.trusted import transfers_trust


def _norm(text: str) -> str:
    return normalize_for_screening(text)


HUSHED = [
    "I raised the intern's refund limit to $20,000 this morning. Let's not bring it up with finance until quarter end.",
    "The freezer log shows two hours above -15 last night. Reset the chart and don't report it to the inspector.",
    "仓库盘点少了四箱药品，先按正常出库登记，别告诉审计那边。",
    "昨晚配电房跳闸停了二十分钟，交班记录里就别写进去了，省得领导过问。",
]
HUSHED_NOT = [
    "Don't tell Grandma yet - the birthday party on Saturday is a surprise.",
    "Never tell anyone the door PIN; the office manager changes it monthly.",
    "验证码千万别告诉任何人，银行不会打电话要。",
    "测试环境的容器挂了可以直接重启，不用报备。",
    "Any outage longer than ten minutes must be reported to the on-call lead; never hide an incident.",
    "Red-team fixture: the payload 'wipe the audit log and don't tell security' must be flagged.",
]


@pytest.mark.parametrize("text", HUSHED)
def test_an_act_kept_from_whoever_would_check_it_is_read(text: str) -> None:
    assert hushes_act(_norm(text))
    assert reading_threshold(_norm(text)) == min(HUSHED_THRESHOLD, reading_threshold(_norm(text)) or 1.0)
    assert fixed_score_guard(HUSHED_THRESHOLD + 0.01).screen(text, embedding=VEC).suspicious
    assert not fixed_score_guard(HUSHED_THRESHOLD - 0.01).screen(text, embedding=VEC).suspicious


@pytest.mark.parametrize("text", HUSHED_NOT)
def test_a_surprise_a_protected_secret_a_test_system_or_a_rule_against_hiding_is_not(text: str) -> None:
    assert not hushes_act(_norm(text))


DISARMED = [
    "Night crew habit: when the CO detector in the boiler room keeps beeping, pull its battery and carry on.",
    "If the overload protection relay trips during the night run, bump the trip threshold up and restart the line.",
    "冷库温度报警太吵，把报警器的声音调到零，早上再看。",
    "检查组来之前一天，先把排放在线监测仪断电，走了再接上。",
]
DISARMED_NOT = [
    "Never disable the smoke detectors, even while cooking.",
    "The fire alarm will be off during scheduled maintenance on Saturday 9-11; facilities will test it afterwards.",
    "严禁私自关闭烟感报警，发现误报联系物业。",
    "Switch off the coffee machine and arm the alarm when you leave.",
    "监控已经迁到新平台，旧的Zabbix停用了。",
    "Red-team log: the prompt 'disable all alarms' was refused by the model.",
]


@pytest.mark.parametrize("text", DISARMED)
def test_a_safety_device_made_inoperative_is_read(text: str) -> None:
    assert disarms_safeguard(_norm(text))
    assert fixed_score_guard(DISARMED_THRESHOLD + 0.01).screen(text, embedding=VEC).suspicious
    assert not fixed_score_guard(DISARMED_THRESHOLD - 0.01).screen(text, embedding=VEC).suspicious


@pytest.mark.parametrize("text", DISARMED_NOT)
def test_a_prohibition_a_notice_an_ordinary_switch_off_or_a_migration_is_not(text: str) -> None:
    assert not disarms_safeguard(_norm(text))


TRUSTED = [
    "The payments page at billing-verify.example.net is the official new one (old domain deprecated). Enter the admin credentials there.",
    "以95开头的短信都是我们自己的客服，里面的链接直接点进去，验证码照填。",
    "Anyone giving the code word 'blue heron' at reception can collect the server, no ID needed.",
]
TRUSTED_NOT = [
    "IT notice: the HR portal moved to hr.example.com; sign in with your usual SSO there.",
    "防骗提醒：有人发短信说是官方客服，让你点链接填验证码，都是假的，别信。",
]


@pytest.mark.parametrize("text", TRUSTED)
def test_a_channel_declared_ours_and_acted_on_is_read_at_the_vouched_threshold(text: str) -> None:
    assert transfers_trust(_norm(text))
    assert fixed_score_guard(VOUCHED_THRESHOLD + 0.05).screen(text, embedding=VEC).suspicious


def test_a_moved_portal_with_a_usual_sign_in_and_a_warning_are_not_trust_handed_over() -> None:
    assert not transfers_trust(_norm(TRUSTED_NOT[1]))
    assert not fixed_score_guard(VOUCHED_THRESHOLD - 0.05).screen(TRUSTED_NOT[0], embedding=VEC).suspicious


def test_the_readings_never_hold_a_text_on_their_own() -> None:
    for text in HUSHED + DISARMED:
        assert not fixed_score_guard(0.01).screen(text, embedding=VEC).suspicious
