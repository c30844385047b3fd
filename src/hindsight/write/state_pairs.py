"""Paired states: a state and its completion or reversal, EN and ZH (issue 10, hygiene round 31b).

A new memory can say that the old one's state completed or turned round without any change word: 尾款还没收到 ->
昨天到账了, 停机 -> 恢复运行, "can't ride" -> "cleared to ride", "on sick leave" -> "back at work", 待审批 -> 已批准,
"is open and assigned" -> "closed". Each entry of `PAIRS` is one pair of states - the first side (`before`) read in
the old text, the second (`after`) in the new one; `state_change.reversed_state` asks for both sides of the same
pair and for the subject shared (`state_change._shared_thing`, `_names_differ`), so "the pump is down" / "the pump
is back in service" is a change and "the pump is down" / "the fan was repaired" is not.

The pairs are general, by what turns:

* `pending`: a payment, an approval, a delivery or a signature still to come -> received, paid, approved, signed;
* `stopped`: a machine, a line or a service down, stopped, tripped -> running, restored, repaired, back in service;
* `blocked`: barred from an action -> cleared, allowed, able to again (the action itself must be named on both
  sides: `ACTION_AFTER`);
* `off`: off a thing and back on it, the same thing ("off the ergs" / "back on the erg");
* `away`: on leave, off sick, in hospital -> back at work, returned, discharged;
* `open`: a ticket or an issue still open -> closed, resolved, fixed;
* `ill`: recovering, injured, ill -> healed, recovered, better.

Lexical only; no vectors and no fitted parameter. `REVERSED_STATES` turns the reading off.
"""

from __future__ import annotations

import re
from typing import NamedTuple

#: Whether `state_change.reversed_state` reads paired states (off: main before round 31b).
REVERSED_STATES = True


class StatePair(NamedTuple):
    """One pair of states: the first side in the old text, the second in the new one."""

    name: str
    before: re.Pattern[str]
    after: re.Pattern[str]
    #: Whether the action after the first side must be named after the second too ("can't ride" / "cleared to ride").
    same_action: bool = False


def _rx(en: str, zh: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{en})\b|{zh}")


PAIRS: tuple[StatePair, ...] = (
    StatePair(
        "pending",
        _rx(r"not (?:yet )?(?:been )?(?:received|paid|approved|signed|arrived|cleared|settled)|"
            r"(?:hasn't|haven't|has not|have not) (?:yet )?(?:been )?(?:received|paid|approved|signed|arrived|come "
            r"(?:in|through)|cleared|settled)|unpaid|(?:is|still|remains) outstanding|awaiting (?:approval|payment|sign-off|signature)|"
            r"pending (?:approval|payment|sign-off|review)|waiting (?:for|on) (?:the )?(?:approval|payment|visa|"
            r"permit|sign-off|signature|refund|deposit)",
            r"还欠|欠着|还没结|还没(?:有)?(?:收到|到账|到|付|支付|交|批|签|发|下来|回款|退)|尚未(?:收到|到账|付|支付|批|签|结清)|"
            r"未(?:收到|到账|付款|支付|结清|审批|批准|签)|待(?:审批|审核|付款|支付|收款|批|确认|签)|审批中|审核中"),
        _rx(r"received|(?:been |got |was |were )?paid|cleared|approved|signed|came (?:in|through)|went through|"
            r"arrived|granted|settled|landed in",
            r"到账|收到了|已收到|付了|已付|付清|结清|已结|批了|批准|已批|批下来|审批通过|审核通过|通过了|签了|已签|下来了|退回来了"),
    ),
    StatePair(
        "stopped",
        _rx(r"(?:is|are|was|were|'s|has been|have been) (?:down|offline|out of (?:service|action|order))|"
            r"down for (?:repairs?|maintenance)|broke down|broken down|stopped working|not working|tripped|"
            r"(?:is|are|was|were) (?:shut|switched) off|(?:is|are|was|were) suspended|(?:is|was|put) on hold",
            r"停机|停运|宕机|跳闸|坏了|停摆|停工|停产|停诊|停课|断网|断电|停水|停电|暂停"),
        _rx(r"back (?:up|online|in (?:service|operation|action)|to normal|on ?line)|(?:running|working|operating|"
            r"open|active) again|restored|repaired|fixed|resumed|reopened|up and running|back running|(?:is|'s) back on",
            r"恢复运行|恢复正常|恢复了|恢复供|恢复营业|恢复上课|恢复服务|重新上线|修好了|已修复|修复了|复工|复产|重新开放|"
            r"重新开业|来电了|来水了|通网了|正常运行|重新启动|重启了"),
    ),
    StatePair(
        "blocked",
        _rx(r"can't|cannot|can not|(?:isn't|aren't|is not|are not|not) (?:allowed|permitted|cleared) to|"
            r"(?:is|are|was|were) (?:banned|barred) from|forbidden to|no(?= \w+ing\b)",
            r"不能|不可以|不允许|不准|不让|禁止"),
        _rx(r"cleared (?:\w+ )?to|(?:is|are|'s|'re|was|were) (?:now )?(?:allowed|permitted|cleared|free) to|"
            r"can now|can (?:\w+ ){1,3}again|(?:ban|restriction) (?:was |has been |is )?lifted|okayed (?:\w+ )?to",
            r"可以|能够|允许|解禁|放开了"),
        same_action=True,
    ),
    StatePair(
        "off",
        _rx(r"(?:is|are|'s|'re|was|were) off (?:the |his |her |their |my |our )?(?=[a-z])", r"(?!)"),
        _rx(r"back on (?:the |his |her |their |my |our )?", r"(?!)"),
        same_action=True,
    ),
    StatePair(
        "away",
        _rx(r"on (?:sick|medical|maternity|paternity|parental|annual|study|compassionate) leave|out sick|off sick|"
            r"off work|signed off|in (?:the )?hospital|hospitali[sz]ed|admitted to",
            r"病假|产假|休假中|在休假|请假在家|住院|歇病假"),
        _rx(r"back (?:at|to|in) (?:work|the office|school|class|training)|returned to (?:work|the office|school)|"
            r"back from (?:leave|hospital|sick leave)|home from (?:the )?hospital|discharged",
            r"回来上班|回去上班|复工|返岗|销假|上班了|出院|回公司了|恢复上班"),
    ),
    StatePair(
        "open",
        _rx(r"still open|remains open|(?:is|are) open and|unresolved|unfixed|outstanding (?:bug|issue|ticket)|"
            r"open (?:ticket|issue|bug|case|incident)",
            r"未解决|待解决|未修复|待修复|待处理|未关闭|还开着|还没解决|还没修"),
        _rx(r"closed|resolved|fixed|settled|patched",
            r"解决了|已解决|修复了|已修复|关闭了|已关闭|结案|关单|闭环"),
    ),
    StatePair(
        "ill",
        _rx(r"recovering from|out injured|(?:is|are|was|were) (?:injured|ill|sick)|broken (?:arm|leg|wrist|ankle|collarbone|"
            r"foot|hand|rib)|sprained|has (?:the )?(?:flu|covid|a cold|pneumonia)",
            r"骨折|受伤了|扭伤|生病了|发烧|感冒了|在养伤|养病"),
        _rx(r"healed|recovered|fully fit|back to (?:full )?(?:health|fitness)|all clear|off crutches|better now",
            r"痊愈|康复了|已康复|伤好了|病好了|感冒好了|烧退了|已经好了|好利索"),
    ),
)

#: What stands after a cue of a `same_action` pair: the action, its first word or Han characters.
ACTION_AFTER = re.compile(r"\s*(?:be |to |get |go |do )?([a-z][a-z'’-]+|[\u4e00-\u9fff]{2,4})")
#: Another thing of the same kind named in the new text ("another keeper", 另一个门将): not the old one's state.
ANOTHER = re.compile(r"\b(?:another|the other|a second)\b|另一|另外一|别的")
#: An ordinal ("第 7 张" / "第 8 张"): two of the kind when the two texts number them differently.
ORDINAL = re.compile(r"第\s*([\d一二两三四五六七八九十]+)")
