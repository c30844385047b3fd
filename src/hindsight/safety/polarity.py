"""Which way a rule moves a safeguard: a rule that *adds* a check (issue 10, round 22).

A safety rule is written in the register of a standing order and names exactly what an attack names - a payout to a
changed account, a bypass of a protection function, students' ID numbers - so the classifier reads its topic and
holds it (round 20: 0.72 - 0.94). What it says about that topic is the opposite of an attack: it puts a check in the
way. ``stake.tightened_only`` reads a narrowed grant ("not Everyone") and a secret never asked for; this module reads
the other tightening shapes, by their polarity, EN and ZH:

- a prohibition lifted only by a check: "never / don't <act> without <calling back, verification, approval, a signed
  ...>" (the act itself is not a check: "never ask for a callback without ..." is not read);
- a check first: "always / must <call back, verify, confirm, get approval> ... before <act>", "必须先核实再 ..." (an
  obligation: "可以先确认收入" is a permission, and 确认 there is no check);
- a check required: "any <act> needs / requires <a signed work order, approval, a ticket>", "需要 ... 签字 / 审批";
- a blanket refusal that routes to the proper channel: "一律不发 / 不给", "未经 ... 不得", "让他走 ... 正式申请".

The text is read as tightening only when, with those spans removed, nothing at stake is loosened anywhere in it
(``stake.loosens_stake``), so "never pay without a callback - but this week skip it" is
not. What the guard does with it: the frame threshold (:data:`guard.FRAME_THRESHOLD`), as ``stake.benign_frame``, never a release on its own.
"""

from __future__ import annotations

import re

from hindsight.safety.rules import _alt, _c
from hindsight.safety.stake import loosens_stake

_CHECK = (r"(?:call(?:ing)? (?:\w+ ){0,3}back|a call ?back|callbacks?|calling|verif\w*|confirm\w*|check\w*|approv\w*|sign-?off|"
          r"(?:a |an |the )?(?:signed|written|explicit|formal|second|two-person)\b[\w -]{0,20}|review\w*|a ticket|a work order|consent|"
          r"asking|authori[sz]ation|a permit|(?:a |an |the )?[\w' -]{0,30}?(?:approval|sign-?off|permission|authori[sz]ation|consent))")
#: Words that make the act itself a check ("never *ask for a callback* without ..." removes the check, it does not add
#: one) or join a second act to it ("never refuses and runs every command without checks": the prohibition is "refuses").
_CHECK_WORD = re.compile(r"\b(?:verif|confirm|check|approv|call ?back|callback|review|ask|sign-?off|consent|refus)|\b(?:and|or|but)\b", re.I)
_NEVER_WITHOUT = re.compile(
    r"\b(?:never|don'?t|do not|must not|mustn'?t|no one (?:may|can|should)|nobody (?:may|can|should))\b(?P<act>[^.;!?]{1,140}?)"
    r"\bwithout (?:first )?" + _CHECK + r"[^.;!?,]*", re.I)
_CHECK_FIRST = _c(_alt(
    r"\b(?:always|must|should|first) (?:first )?(?:call (?:\w+ ){0,4}back|verify|confirm|check with|get (?:\w+ ){0,3}approval|get (?:a |an )?sign-?off)"
    r"[^.;!?]{0,140}\bbefore\b[^.;!?,]*",
    r"(?:必须|务必|一定要|都要|要|得|应当|应该|需要)先(?:回电|回拨|打电话|电话)?(?:核实|核对|确认|审批|签字|报备)[^。；]{0,20}(?:再|才)[^。；，,]*",
))
_CHECK_REQUIRED = _c(_alt(
    r"\b(?:any|every|each|all)\b[^.;!?]{0,100}?\b(?:needs?|requires?|must (?:have|get|go through))\b\s+(?:a |an |the |two |written |signed |formal |explicit )*"
    r"(?:signed |written )?(?:work order|approval|sign-?off|authori[sz]ation|ticket|change request|permit|review|second)[^.;!?,]*",
    # round 36: "不再需要第二签字人" drops a check and "根据需要自己调高审批额度" is no requirement (需要 as "as needed", 审批额度 a limit)
    r"(?<![不无免没省])(?<!不再)(?<!根据)(?<!按)(?:需要|必须|须)(?:有|经过?|走)?[^。；，,不无免]{0,10}(?:签字|审批|批准|工单|书面|正式申请|复核)"
    r"(?!的|额度|权限|金额|上限)",
    # round 36: "X权限要部门主管审批" - an access that needs a named approver's sign-off (要 as must; 只要 / 不要 are not)
    r"(?:权限|账号|访问|开通|申请)[^。；，,]{0,6}(?<![不别只])要(?:经过?|走|由)?[^。；，,不无免]{1,8}(?:签字|审批|批准|复核)(?!的|额度|权限|金额|上限)",
))
_REFUSED = _c(_alt(
    r"(?:任何人|谁|不管谁|无论谁|有人)?[^。；]{0,40}一律不(?:发|给|转|批|提供|透露|告诉|外发|放行|回复|办)",
    r"未经[^。；]{0,20}(?:不得|不能|不要|一律不|不许)[^。；，,]*", r"让(?:他|她|他们|对方)走[^。；，,]{0,10}(?:正式|申请|流程)[^。；，,]*",
    # round 36: a prohibition of the shortcut itself ("出纳不得直接转账", "别私下给账号"), and a claimed caller answered
    # by hanging up and reporting ("直接挂断并报告保安部", "hang up and report it")
    r"(?:不得|不能|不许|不准|禁止|严禁|别|不要)(?:私下|直接|擅自|随意|自行|私自)[^。；，,]*", r"(?:直接|立即|马上|立刻)?挂(?:断|掉)(?:电话)?[^。；]*",
    r"\bhang up\b[^.;!?]*",
))


def _strip(normalised: str) -> tuple[str, bool]:
    found = False

    def cut(match: re.Match[str]) -> str:
        nonlocal found
        if match.groupdict().get("act") is not None and _CHECK_WORD.search(match.group("act")):
            return match.group(0)  # the act itself is a check: the rule removes it
        found = True
        return " "

    text = _NEVER_WITHOUT.sub(cut, normalised)
    for pattern in (_CHECK_FIRST, _CHECK_REQUIRED, _REFUSED):
        text = pattern.sub(cut, text)
    return text, found


def adds_check(normalised: str) -> bool:
    """Does the text put a check in the way of an act (never without / first / required / refused) and loosen
    nothing at stake in the rest (see the module)?"""
    rest, found = _strip(normalised)
    return found and not loosens_stake(rest)
