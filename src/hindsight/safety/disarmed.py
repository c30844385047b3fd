"""A safety device made inoperative (issue 10, round 25).

Blind rounds 22 - 23 miss one shape across their writers' categories - a harmful lesson, an appended order, a false
authorisation, an injection: a device or function whose only job is to catch a hazard - an alarm, a detector, a
protection relay, a monitor, a camera, a suppression system, an interlock, a warning prompt - is switched off, muted,
unplugged, wired open, blocked or set so it no longer trips ("pull its battery", "keep the fusible link wired open",
"把报警音量调到零", "把振动保护阈值调高一倍", "废水在线监测仪断电", "防逆流装置关掉", "监控可以不开", "系统提示先屏蔽掉",
"解除 ... 停机锁"). The classifier knows the register of software safeguards (TLS, 2FA, hooks) and scores these
plant-floor ones 0.1 - 0.5.

Read per clause on the normalised text, EN and ZH: a safety device and an act that makes it inoperative in one
clause, that clause not forbidding the act ("never disable the alarm", "严禁关闭报警", "不得屏蔽") and not reporting it
as past trouble fixed ("the alarm had been muted, we turned it back on"), no warning frame (``vouched.WARNING``), and
not a scheduled notice (``features.NOTICE``: "will be off during maintenance"). What the guard does with it:
:data:`lowered.DISARMED_THRESHOLD`, a lower classifier threshold; never a quarantine on its own, the classifier's
features unchanged.
"""

from __future__ import annotations

import re

from hindsight.safety.hushed import _QUOTED, ABOUT
from hindsight.safety.rules import _alt, _c
from hindsight.safety.vouched import WARNING

#: A device or function that exists to catch a hazard.
DEVICE = _c(_alt(
    r"\balarms?\b(?! clock)", r"\bdetectors?\b", r"\bsensors?\b", r"\binterlocks?\b", r"\bprotection (?:relay|device|setting|system|trip)s?",
    r"\b(?:overload|vibration|surge|anti-?islanding|reverse[- ]power) (?:protection|relay|trip|limit)", r"\bsuppression\b", r"\bsprinklers?\b",
    r"\bsmoke (?:alarm|detector|head)s?", r"\bfusible link", r"\bcctv\b", r"\bsecurity cameras?\b", r"\bmonitoring\b", r"\bmonitors?\b",
    r"\be-?stop", r"\bemergency stop", r"\blimit switch", r"\bfail-?safe", r"\bwatchdog", r"\bcut-?off\b", r"\bsafety (?:valve|lock|switch|guard|check|cover|shield|interlock|prompt|warning)s?",
    r"\bwarning (?:prompt|light|popup|dialog)s?", r"\bbreakers?\b", r"\bgfci\b", r"\brcd\b",
    r"报警", r"告警", r"警报", r"探测器", r"传感器", r"烟感", r"联锁", r"连锁保护", r"保护(?:装置|阈值|定值|功能|开关)?", r"监控", r"监测", r"防逆流",
    r"喷淋", r"灭火(?:系统|装置)?", r"安全(?:阀|锁|开关|装置|出口|带|联锁|防护|罩)", r"急停", r"限位", r"系统提示", r"弹窗提示", r"提示音?", r"停机锁",
    r"熔断", r"漏保", r"漏电保护", r"空开",
))
#: An act that leaves it unable to trip: switched off, muted, unplugged, bypassed, blocked, set out of reach.
DISARM = _c(_alt(
    r"\bturn(?:ed|ing|s)? (?:\w+ ){0,3}off\b", r"\bswitch(?:ed|ing|es)? (?:\w+ ){0,3}off\b", r"\bshut(?:ting)? (?:\w+ ){0,3}off\b",
    r"\bdisabl", r"\bdeactivat", r"\bbypass", r"\bjumper", r"\bunplug", r"\bpull (?:its|the|their) (?:battery|batteries|fuse|plug)", r"\bpulled (?:its|the|their) (?:battery|batteries|fuse|plug)",
    r"\btake (?:out )?(?:its|the) (?:battery|batteries|fuse)", r"\bwired? (?:\w+ ){0,2}open\b", r"\btape (?:over|it)", r"\bcover (?:it|them|the) (?:up|over)",
    r"\bmute", r"\bsilenc", r"volume (?:down )?to (?:zero|0)", r"\bignore (?:it|them|the)\b", r"\bkeep (?:it|them) off\b",
    r"\b(?:raise|double|increase|bump) (?:the |its )?(?:\w+ ){0,2}(?:threshold|setpoint|limit|set point)",
    r"\bremote-?reset", r"\b(?:reset|re-?energi[sz]e) (?:it|them) (?:yourself|anyway)",
    r"关掉", r"关了", r"关闭", r"断电", r"断开", r"拔掉", r"拔了", r"拔下", r"拆掉", r"拆了", r"屏蔽", r"短接", r"跳线", r"旁路", r"静音", r"调到零", r"调成零", r"消音",
    r"(?:阈值|定值|门限).{0,6}调高", r"调高.{0,6}(?:阈值|定值|门限)", r"(?:可以|就|先)不开", r"别开", r"停用", r"禁用", r"解除.{0,4}锁", r"锁死", r"堵上", r"蒙上", r"捂住",
    r"(?:录像|视频)(?:都|全)?(?:清掉|删掉|删了|清空)", r"\b(?:delete|wipe|erase) (?:the )?(?:\w+ ){0,3}footage",
))
#: Round 45 (guard45, issue 10): a machine's physical guard is a safety device too, and taking it off an act that makes
#: it inoperative ("the saw blade guards clog with ice, so take them off for the rest of the season", "电锯护罩老被冰渣堵，
#: 干脆整季都拆掉"); a clause that opens with "just / simply" and the act (干脆 / 索性 / 直接 ... 拆掉) points back to the
#: device of the clause before. Read only while ``MACHINE_GUARD_ON`` (docs/benchmarks.md "Guard, round 45b").
MACHINE_GUARD_ON = True
_DEVICE45 = _c(_alt(
    r"\b(?:blade|saw|machine|belt|chain|chuck|fan|guillotine|press|grinder|wheel|pto|spindle) guards?\b", r"\bguard rails?\b",
    r"护罩", r"防护(?:罩|栏|网|门|板)",
))
_DISARM45 = _c(_alt(r"\b(?:take|took|taking|takes) (?:them|it|the \w+(?: \w+)?) off\b", r"\b(?:remove|removed|removing) (?:them|it)\b"))
_NOT_AN_ORDER45 = _c(r"\b(?:never|don'?t|do not|must not|mustn'?t|not allowed to|no one may|nobody may) (?:\w+ ){0,2}(?:take|remove)")
_OPENS_ACT = re.compile(r"^\s*(?:干脆|索性|直接|(?:just|simply)\b)")


def _device(text: str) -> bool:
    return bool(DEVICE.search(text) or (MACHINE_GUARD_ON and _DEVICE45.search(text)))


def _disarm(text: str) -> bool:
    return bool(DISARM.search(text) or (MACHINE_GUARD_ON and _DISARM45.search(text)))


#: The act forbidden, or reported as past trouble put right.
_NOT_AN_ORDER = _c(_alt(
    r"\b(?:never|don'?t|do not|must not|mustn'?t|not allowed to|no one may|nobody may) (?:\w+ ){0,2}(?:turn|switch|disable|bypass|mute|silence|unplug|pull|tape|cover|jumper)",
    r"\b(?:turned|switched) (?:it |them )?back on\b", r"\barm (?:the )?(?:alarm|system)", r"\bset (?:the )?alarm\b", r"\brestored\b", r"\bre-?enabled\b",
    r"(?:严禁|禁止|不得|不准|不许|不能|不要|别|绝不|千万别)(?:私自|擅自|随意|随便|直接)?(?:关|断|拔|拆|屏蔽|短接|跳线|旁路|静音|停用|禁用|解除|锁)",
    r"恢复了", r"重新(?:打开|开启|启用)", r"已(?:经)?恢复", r"抑制", r"\bsuppress(?!ion)", r"迁(?:到|移|至)", r"换成", r"改为", r"\bmigrat", r"\breplaced (?:by|with)\b", r"必须", r"务必", r"\bmust\b", r"\brequired?\b",
))
#: A scheduled notice: the device is off for planned work, and back on after it.
_SCHEDULED = _c(_alt(r"\[system", r"系统通知", r"公告", r"【通知】", r"\bmaintenance\b", r"\bscheduled\b", r"\bplanned\b", r"\bwill be\b", r"维护", r"将于", r"期间", r"计划"))
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+")
_CLAUSE = re.compile(r"(?<=[,:])\s+|[，：、,]")
#: The act's object named by a pronoun ("pull its battery", "keep it wired open") or the clause opening with the act
#: ("..., bump the trip threshold up"): the device is in the clause before.
_BACK = _c(_alt(r"\b(?:it|its|them|their)\b", r"它"))


def disarms_safeguard(normalised: str) -> bool:
    """Does a clause of the text make a safety device inoperative, as an order or a habit (EN/ZH, see the module)?"""
    said = _QUOTED.sub(" ", normalised)  # a quoted message is reported, not given
    if not _device(said) or not _disarm(said) or WARNING.search(normalised) or ABOUT.search(normalised) or _SCHEDULED.search(normalised):
        return False
    for sentence in _SENTENCE.split(said):
        if _NOT_AN_ORDER.search(sentence) or (MACHINE_GUARD_ON and _NOT_AN_ORDER45.search(sentence)):
            continue
        clauses = [c for c in _CLAUSE.split(sentence) if c.strip()]
        for i, clause in enumerate(clauses):
            if _disarm(clause) and (_device(clause) or (i and _device(clauses[i - 1]) and _points_back(clause))):
                return True
    return False


def _points_back(clause: str) -> bool:
    """The clause names its object by a pronoun or opens with the act (round 45: or with "just" / 干脆 and the act)."""
    if _BACK.search(clause) or DISARM.match(clause.strip()):
        return True
    return MACHINE_GUARD_ON and bool(_OPENS_ACT.search(clause))
