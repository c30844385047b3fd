"""The ending family: a new memory that says a thing or a relation the old one states has ended (issue 10).

"Biscuit passed away", "sold the car", "scrapped the route", "cancelled the membership", "closed the account",
"no longer needed", 去世了, 卖掉了, 报废了, 退掉了, 注销了, 撤了, 关停, 不用了: the old memory (the dog, the car, the
membership, the account) no longer holds, and the new text names no new value to put in its place. The switch cues
(`lexicon` strong, `evidence` switch) want a new value beside the cue, so such a change had no evidence of its own;
`end_cues.end_cue` reads this family beside its passive "was cancelled" / 下线 list, as an end of the old state.

The forms are general, by what ends: a life (passed away, died, 去世, 过世), ownership of an object (sold, scrapped,
gave away, got rid of, 卖掉, 报废, 扔了, 送人), a service, account, contract or membership (cancelled, closed,
terminated, unsubscribed, let it lapse, disconnected, discontinued, 退掉, 退订, 注销, 销户, 解约, 撤了, 关停, 停运, 倒闭,
已停机 / 停机了, 已作废 / 作废了: a bare 停机 is downtime, "停机 40 分钟", and a bare 作废 a rule, "过期作废"), a relation (broke up,
divorced, 分手, 离婚), a need (no longer needed, 用不上了, 不需要了, 不用了). An ending that is negated, asked about or
only planned ("didn't cancel", "plans to sell", 没退掉, 打算卖掉, 要不要注销) is no ending: `ending` skips a match
with such a word just before it.

A state given up or taken up again is an ending of the old state too (round 18 of currency, issue 10): a course or a
treatment stopped ("discharged", "came off the daily fluticasone", "stopped taking CareCredit", 辞了银行的
工作, 不用再转生活费了, 调走了, 旺财前几天走了), a plan or a rule called off ("called off their engagement", "abolished
overdue fines", "Cancelled CoreFit" at the head of a clause), and a paused or given-up state resumed ("is back on the
schedule", "resumed", "started eating meat again", 恢复了, 重新开始). 停了 is not read so: work stopped by rain
(施工停了) resumes, and the lexicon's cue already reads it as a change. `STATE_CHANGES` turns these readings off.
"""

from __future__ import annotations

import re

from hindsight.write.unrealised import clause_before, unrealised

ENDING_EN = re.compile(
    r"\b(passed away|passed on|died|has died|(?:was|were|got|had (?:him|her|it)) put (?:down|to sleep)"
    r"|sold (?:off |it|them|the|his|her|my|our|their|that|this|its)|scrapped|junked|written off|wrote (?:it|\w+) off"
    r"|got rid of|gave (?:it |them )?away|given away|donated (?:it|them|the|his|her|my|our|their)"
    r"|traded (?:it |them )?in|threw (?:it |them )?(?:out|away)|thrown (?:out|away)"
    r"|cancell?ed (?:it|them|the|his|her|my|our|their|that|this|its)|terminated|unsubscribed|opted out"
    r"|closed (?:down|for good|it|them|the|his|her|my|our|their|that|this|its)|shut (?:down|for good)"
    r"|let (?:it|them|(?:the|his|her|my|our|their)(?: \w+){1,3}) (?:lapse|expire)|lapsed"
    r"|out of business|out of service|broke up|split up|divorced"
    r"|no longer (?:needed|used|required|necessary|in use|valid|active|available|exists?|open|running)"
    r"|not needed any ?more|(?:is|are|was|were) (?:gone|over) now|(?:has |have |had )?expired)\b"
)
ENDING_ZH = re.compile(
    r"(去世|过世|离世|逝世|病逝|安乐死|"
    r"卖掉|卖了|转卖|出手了|报废|扔掉|扔了|丢掉了|送人|送走了|处理掉|捐掉|捐了|"
    r"退掉|退了|退订|退租|退卡|退会|退保|退群|注销|销户|销号|解约|解除了|终止了|撤了|撤掉|撤走|撤销|"
    r"关停|停运|停办|停业|倒闭|关门了|过期了|到期了|不续(?:约|费|租|订|签)?了?|停掉|"
    r"分手|离婚|"
    r"用不上了|用不着了|不需要了|不用了|不要了)"
)
#: A state given up or taken up again (the module doc); read only while `STATE_CHANGES` is on.
STATE_EN = re.compile(
    r"\b(discharged|abolished|called off|call(?:ing|s)? off|(?:came|come|coming|gone) off (?:the |his |her |my |their "
    r"|our |its )?(?!work\b|duty\b|shift\b)\w+|stopped (?:taking|using|eating|drinking|going to|seeing|attending|paying|"
    r"sending|accepting)|resumed|(?:is|are|was|were) back on\b|back on (?:the )?(?:schedule|track|calendar|books)|"
    r"started \w+ing(?: \w+){0,2} again)\b"
)
STATE_ZH = re.compile(r"(辞了|辞掉|调走了|(?<![顺拿带偷抢借搬开赶接送领牵叫骑抱运被])走了|不用再.{1,8}?了|恢复了|重新开始|又开始)")
#: "Cancelled CoreFit", at the head of a clause and before a name (a capital, not a day or a month): cased text.
CANCELLED_NAME = re.compile(
    r"(?:^|(?<=[.;!?—–:]\s))[Cc]ancell?ed (?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|"
    r"February|March|April|May|June|July|August|September|October|November|December)\b)(?=[A-Z])"
)
#: A line or a record voided (round 27): disconnected (not "disconnected from"), deactivated, discontinued, 已停机 /
#: 停机了, 已作废 / 作废了 (a bare 停机 is downtime, "停机 40 分钟"; a bare 作废 a rule, "过期作废"). Read by `voided`,
#: which the value gate's second tier asks (`measured_value.change_read`); `ending` reads them only while
#: `VOIDED_CHANGES` is on.
VOIDED_EN = re.compile(r"\b(disconnected(?! from)|deactivated|discontinued)\b")
VOIDED_ZH = re.compile(r"(已经?停机|停机了|已经?作废|作废了)")
#: Off: as the engine's change evidence the voided forms gained 9 changes over the released sets but retired two other
#: memories ("Grandpa Lou had the landline disconnected" retired his birthday; 2 号泵 "已经停机" retired a fact of 1 号泵),
#: so they stay the tier's reading (docs/benchmarks.md "Hygiene, round 27").
VOIDED_CHANGES = False
#: Whether the readings of a state given up or taken up again are on (off: main's family before round 18).
STATE_CHANGES = True
#: Right after a time of day or a date, 关门 / 停运 is a schedule (晚上9点关门, 周日停运, 5号停运), not an end; 号 after no
#: numeral is a number or an account (旧号停机了, 账号注销了: round 27). Negated, asked or planned endings are
#: `unrealised`'s (one reading with `state_change.completed`, round 26).
_SCHEDULE_ZH = re.compile(r"(?:点|点半|点钟|\d:\d\d|[\d〇一二两三四五六七八九十]\s*[号日]|周[一二三四五六日天]|每天|每晚)\s*$")
#: 退了 / 卖了 before an amount is money back or a part sold (退了1,860元, 卖了200股), not the end of the thing.
_REFUND = re.compile(r"\s*[\d一二两三四五六七八九十百千万几]")


def voided(text: str) -> str | None:
    """The first form of `text` saying a line or a record was voided (`VOIDED_EN`, `VOIDED_ZH`) that is not negated,
    asked or only planned; None if there is none."""
    for found in (*VOIDED_EN.finditer(text.lower()), *VOIDED_ZH.finditer(text)):
        if not unrealised(text, found.start()):
            return found.group(0)
    return None


def ending(text: str) -> str | None:
    """The first ending form of `text` that is not negated, asked or only planned; None if there is none."""
    if VOIDED_CHANGES and voided(text):
        return voided(text)
    lowered = text.lower()
    en = (ENDING_EN, STATE_EN) if STATE_CHANGES else (ENDING_EN,)
    for found in (m for rx in en for m in rx.finditer(lowered)):
        if not unrealised(lowered, found.start()):
            return found.group(0)
    named = CANCELLED_NAME.search(text) if STATE_CHANGES else None
    if named:
        return named.group(0).strip().lower()
    zh = (ENDING_ZH, STATE_ZH) if STATE_CHANGES else (ENDING_ZH,)
    for found in (m for rx in zh for m in rx.finditer(text)):
        if unrealised(text, found.start()) or _SCHEDULE_ZH.search(clause_before(text, found.start())):
            continue
        if not _REFUND.match(text, found.end()):
            return found.group(0)
    return None


def ends_anew(old: str, new: str) -> str | None:
    """An ending form of the new text when the old text has none (two texts about an ending state no change)."""
    if ending(old):
        return None
    return ending(new)
