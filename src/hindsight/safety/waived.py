"""A verification waived: a call-back, a check or a confirmation declared unnecessary, skipped or excused (issue 10,
round 43b).

``mention.reports_handled_attack`` reads a reported message (a caller, a mail, someone posing as another) that the
note warns against as benign, and a verification word (核实, 回拨, "call back") counts as the warning. Payment-fraud and
trust-transfer attacks use the same words to *waive* the check - "直接办，不用视频核实", "电话在维修，不用打",
"回电核实这次就免了", "不用跟港务局核实", "no need to call back", "skip the call-back" - so the word that read as the
warning is the attack's own. This module is the grammar of that waiver over the verification verbs, EN and ZH:

- a waiving head (不用, 无需, 不必, 不需要, 用不着, 没必要, 甭, 免; no need, needn't, don't bother, skip, waive) then, in
  the same clause and within a few characters or words, a verification verb (核实, 核对, 确认, 验证, 回拨, 回电, 复核,
  视频 / 电话 / 打过去, 打 at a clause's end; call back, verify, confirm, check with);
- a verification noun or verb then, in the same clause, an excusing tail (免了, 省了, 省掉, 算了, 不用了, 就不必了, 跳过;
  "is / can be skipped, waived, not needed, unnecessary").

Not a waiver: 别 / 不要 + 回拨 ("别回拨短信里的号码" warns against calling the attacker), "don't call" (same), 不用担心,
别忘了. The check done anyway ("还是回拨了", "called the known number anyway") is :data:`INSISTED`: the reader keeps a
refused attack that was reported as benign.
"""

from __future__ import annotations

from hindsight.safety.rules import _alt, _c

#: A verification verb or noun (ZH).
_CHECK_ZH = _alt(
    r"核实", r"核对", r"核验", r"查证", r"确认", r"验证", r"复核", r"回拨", r"回电", r"致电", r"视频", r"打(?:个)?电话", r"打过去", r"打回去",
    r"打(?=[，。；！？,.;!?\s]|$)", r"问(?:一下|一声|问)", r"联系(?:一下|对方|核实)?",
)
#: A verification verb or noun (EN).
_CHECK_EN = _alt(
    r"call(?:ing)? (?:\w+ ){0,2}?back", r"call-?backs?", r"callbacks?", r"verif\w*", r"confirm\w*", r"check(?:ing)? with",
    r"(?:phone|voice|video) (?:check|call|verification)s?", r"ring(?:ing)? (?:\w+ )?back",
)
#: A waiving head, a gap of a few characters inside the clause, a verification (ZH). Not after 担心 / 忘 / 怕 / 客气.
_HEAD_ZH = r"(?:不用|不必|无需|无须|不需要|用不着|没必要|甭|免(?!费|得))"
_GAP_ZH = r"(?:(?!担心|忘|怕|客气|紧张)[^，。；！？,.;!?\n]){0,8}?"
#: An excusing tail after a verification, inside the clause (ZH).
_TAIL_ZH = r"(?:免了|免掉|省了|省掉|省去|算了|不用了|就不必了|不必了|不需要了|跳过|可以省|可以免)"
WAIVED = _c(_alt(
    _HEAD_ZH + _GAP_ZH + _CHECK_ZH,
    _CHECK_ZH + r"[^，。；！？,.;!?\n]{0,8}?" + _TAIL_ZH,
    r"跳过(?:了)?(?:这次的)?(?:核实|核对|确认|验证|回电|回拨|复核)",
    r"\b(?:no need|needn'?t|don'?t need|doesn'?t need|do not need|does not need|not necessary|unnecessary|no point|no reason) (?:to |for )?(?:a |the )?(?:\w+ ){0,2}?"
    + _CHECK_EN,
    r"\bdon'?t bother (?:to )?(?:\w+ ){0,1}?(?:call|calling|verify|verifying|check|checking|confirm|confirming)\b",
    r"\b(?:skip|skips|skipping|skipped|waive|waives|waived|waiving|drop|dropping) (?:the )?(?:usual )?(?:\w+ )?" + _CHECK_EN,
    _CHECK_EN + r" (?:\w+ ){0,2}?(?:is|are|was|can be|could be|will be|has been) (?:\w+ )?(?:skipped|waived|unnecessary|not needed|not required|optional|excused)\b",
))
#: The check done anyway, against the waiver: the report of a refused attack.
INSISTED = _c(_alt(
    r"(?:还是|仍然|依然|照样|坚持|照常)(?:按|用|打|给)?[^，。；！？\n]{0,10}?(?:回拨|回电|核实|核对|确认|打(?:了)?电话)",
    r"\b(?:called|phoned|rang|checked|verified|confirmed)\b[^.;!?\n]{0,40}\banyway\b", r"\bstill (?:called|phoned|rang|checked|verified|confirmed)\b",
))


def waives_check(normalised: str) -> bool:
    """Does the text declare a verification (a call-back, a check, a confirmation) unnecessary, skipped or excused?"""
    return bool(WAIVED.search(normalised))
