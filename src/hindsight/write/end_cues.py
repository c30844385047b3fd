"""Cues in a new memory that an old state ended or switched, and the thing that ended (read by `evidence.py`).

* end cues: removal, shutdown, stepping down ("was cancelled", "no longer", 下线, 离职), evidence on their own, and
  the ending family of `endings.py` ("passed away", "sold the car", 退掉了) - `end_cue`;
* switch cues ("moved to", "switched", 改用, 迁移到, 调去, 现在由), evidence only with a new value
  (`evidence.change_evidence`); a value moved ("slipped to", 延到, 放宽到: `moved_value`), evidence only where the
  old text states a value of the kind it moved to (round 24b);
* `ended_thing`: the words of the new text an ending is said of (what follows a transitive ending, else what
  precedes it in its clause, not its owner or its agent); `_as_a_rule`: an ending that is a rule or a habit
  ("过期的东西会被直接扔掉", "when ... closed"), not news.

Lexical only; no vectors.
"""

from __future__ import annotations

import re

from hindsight.write.analysis import units
from hindsight.write.cue_bounds import en_cues, zh_switch_negation
from hindsight.write.endings import ends_anew
from hindsight.write.value_canon import canonical_values

#: A plan or thing called off, told without the words above (hygiene round 30): "the Berlin trip is off" (the clause
#: ends there: not "off the table", "off sick", "is off the Amex"), "was cut from v1", and in
#: Chinese a thing stopped (褪黑素停了 - the clause ends there: not 停了三十分钟, 停了一次电) or an order to stop
#: (以后别发钉钉了, 别选汉庭了). Read as end cues and as end cues said of a thing (`THING_END_EN`, `THING_END_ZH`).
CALLED_OFF_EN = (r"\b(?:is|are|'s|was|were) (?:now )?off(?=\s*(?:[—–;:.!,]|\s-\s|$|for (?:now|good)\b))"
                 r"|\b(?:is|are|was|were|has been|have been|got) cut from\b")
CALLED_OFF_ZH = (r"停了(?=\s*(?:[，。,.;；！!]|$))"
                 r"|(?<!就)别(?!的|忘|弄|搞|错过|迟到|担心|着急|急)[^，。,.;；！!\s了]{1,6}了")
_CALLED_OFF = re.compile(CALLED_OFF_EN + "|" + CALLED_OFF_ZH)
#: A condition before a cue of `CALLED_OFF_*` in its clause: "unless the crusts are off", "when ... his SIM is off".
_CONDITION = re.compile(r"\b(?:unless|if|when|whenever|once|until)\b|的话|如果|要是")
#: Cues that the old state ended (removal, shutdown, stepping down): evidence on their own.
_END_EN = en_cues(
    r"\b(was|were|has been|have been|got|is|are) (removed|deleted|dropped|disabled|retired|decommissioned|"
    r"shut down|turned off|sunset|deprecated|cancell?ed|closed|taken down)\b"
    r"|\b(no longer|not any ?more|stepped down|quit|gave up|retired|(?:is|are|'s|'re|was|were) done with)\b"
    r"|" + CALLED_OFF_EN
)
_END_ZH = re.compile(r"(不再|别再|下线|停用|关闭|关掉|禁用|废弃|弃用|取消|卸任|离职|辞职|已经不|没有了|戒了|戒掉|退休了|已经退休|已退休|"
                     r"刚退休|先停了|停掉了|不学了|不上了|不做了|不搞了|不办了|搁置了)|" + CALLED_OFF_ZH)
#: The end cues said of a thing, not of a person (quit, retired, 离职, 退休): a cancellation or a decommissioning -
#: "the pollinator garden is cancelled", 周例会取消了 (round 28). `ended_here` reads what such a cue is said of as it
#: reads the ending family's. Not closed / 关闭 (a schedule: "is closed Mondays", 11 点以后关闭), nor removed / deleted /
#: disabled (a condition: "unless the crusts are removed"): measured through the engine, each retired another memory.
THING_END_EN = en_cues(r"\b(was|were|has been|have been|got|is|are) (cancell?ed|decommissioned)\b|" + CALLED_OFF_EN)
THING_END_ZH = re.compile(r"(取消|下线|停用|废弃|弃用)|" + CALLED_OFF_ZH)
#: Cues of a switch to another value: evidence only together with a new value in the new text.
_SWITCH_EN = en_cues(
    r"\b(these days|nowadays|from now on|handed (?:it )?over|left \w+|joined|switched|relocated|replaced|"
    r"renamed|migrated|moved (?:to|into|over)|now (?:is|are|uses?|runs?|lives?|works?)|is now|are now|"
    r"transferred to|reassigned to|"
    r"new \w+ is|rather \w+(?: \w+){0,5} than)\b|, not\b|\bnot \w+(?: \w+)?\.?$"
)
_SWITCH_ZH = re.compile(
    r"(改用|改成|改为|跳槽|改到|改在|换成|换了|已迁移|迁移到|迁到|搬到|搬去|移交|交给|接手|加入了|新领导|新上级|新负责人|"
    r"不是|" + zh_switch_negation() + r"|而不是|改名|更名|推迟|提前到|扩容|缩容|减少到|增加到|提高到|降低到|调成|调到|调整为|升级到|降级到|"
    r"调去|调往|调任|改由|现在由|现由|现在是\w{1,4}在管|搬来)"
)

#: A value moved to another of its kind: the verb, and the value it moved to right after it (read by `moved_value`);
#: a plan moved either way ("moved up to", "brought forward to", 挪到, 提前到: round 31d; not 推到, measured).
_MOVED = en_cues(r"\b(?:slipped|slid|pushed(?: back| out)?|delayed|postponed|moved (?:back|up|forward|out)|"
                    r"brought forward|bumped(?: up)?|raised|lowered|relaxed|tightened|extended|cut) to\b"
                    r"|(?<![递顺])延到|延期到|延后到|推迟到|挪到|提前到|放宽到|收紧到|缩短到|延长到|涨到|降到|"
                    r"升到|砍到|减到")


def moved_value(old: str, new: str) -> str | None:
    """A verb of the new text that moves a value to another ("slipped to 2 June", 放宽到 2 米, 延到 22:30) where the old
    text states a value of the kind the new one moves to (a date for a date, a time for a time, an amount for an
    amount: `value_canon` kinds) and does not say the verb itself: the old memory's value, moved. Positive evidence
    only: "the bakery order slipped to 2 June" says nothing of a price."""
    found = _MOVED.search(new.lower())
    if not found or _MOVED.search(old.lower()):
        return None
    after = new[found.end():found.end() + 24]
    moved_to = {v.split(":")[0] for mention in canonical_values(after)[:1] for v in mention}
    had = {v.split(":")[0] for mention in canonical_values(old) for v in mention}
    return found.group(0) if moved_to & had else None


def end_cue(old: str, new: str, patterns: tuple[re.Pattern[str], re.Pattern[str]] | None = None) -> str | None:
    """A cue in the new text (absent from the old one) that the old state ended: by default the passive end
    cues above ("was cancelled", 下线) or the ending family (`endings`: "passed away", "sold the car", 退掉了);
    with `patterns` (English, Chinese), only those."""
    en, zh = patterns or (_END_EN, _END_ZH)
    for pattern, a, b in ((en, old.lower(), new.lower()), (zh, old, new)):
        found = pattern.search(b)
        if found and _conditional(b, found):
            found = None
        if found and not pattern.search(a):
            return found.group(0).strip()
    if patterns or en.search(old.lower()) or zh.search(old):
        return None  # the old text states an ending already ("was cancelled" / "had been scrapped"): no new one
    return ends_anew(old, new)


def _conditional(text: str, found: re.Match[str]) -> bool:
    """A cue of `CALLED_OFF_*` said under a condition in its clause ("unless the crusts are off"): no news."""
    if not _CALLED_OFF.fullmatch(found.group(0)):
        return False
    start = max((m.end() for m in _CLAUSE.finditer(text, 0, found.start())), default=0)
    return bool(_CONDITION.search(text[start:found.start()]))


def thing_ended(old: str, new: str) -> str | None:
    """An end cue said of a thing (`THING_END_EN`, `THING_END_ZH`: "was cancelled", 取消, 下线) in the new text and
    not in the old one: besides the ending family's (`endings.ends_anew`), a cue `evidence.ended_here` reads what
    was ended at."""
    return end_cue(old, new, (THING_END_EN, THING_END_ZH))


#: Clause breaks of a new text: the ending's clause is what the ending is said of.
_CLAUSE = re.compile(r"[，。；！？,.;!?：:—–()（）\n]|\s-\s")
#: Endings whose object follows them ("sold the", "cancelled our", "got rid of"): what ended is after the cue.
_TRANSITIVE_EN = re.compile(r"\b(?:the|it|them|his|her|my|our|their|that|this|its|rid of|gave away|traded in|"
                            r"threw (?:out|away)|sold off)$")
#: An owner before the thing owned (陈静的 / "Maya's"), and a speaker before what is said (物业说).
_OWNER = re.compile(r"[的说]|['’]s\b|\bsaid\b|\bsays\b")
#: A modal or a duty before an ending, or a condition right after it: a rule, not news that something ended.
_RULE_BEFORE = re.compile(r"会|要|需|须|得|负责|应该|可以|一律|统一|每|\b(?:must|should|has to|have to|needs? to|every|"
                          r"whenever|when|once|after|if)\b")
_RULE_AFTER = re.compile(r"\s*(?:了)?\s*(?:后|之后|以后|时|的时候|的话)")
#: Words after a transitive ending read as what ended.
ENDED_WORDS = 4


def ended_thing(text: str, cue: str) -> str:
    """The words of `text` that say what ended at the ending `cue`: what follows a transitive ending ("sold the
    Civic", "cancelled our recurring 1:1", what stands after 把 in 把年卡退掉), else what comes before it in its
    clause ("Juno passed away", 雅阁卖了, 那台群晖上周处理掉了) - not the agent of a transitive ending ("Maya" in
    "Maya cancelled the Singapore trip", 小王 in 小王把健身房的年卡退掉了)."""
    at = text.lower().find(cue.lower())
    if at < 0:
        return ""
    start = max((m.end() for m in _CLAUSE.finditer(text, 0, at)), default=0)
    stop = _CLAUSE.search(text, at + len(cue))
    before, after = text[start:at], text[at + len(cue) : stop.start() if stop else len(text)]
    if _TRANSITIVE_EN.search(cue.lower()):
        return " ".join(after.split()[:ENDED_WORDS])
    if "把" in before:
        before = before[before.rindex("把") + 1 :]
    before = _OWNER.split(before)[-1]  # 陈静的港澳通行证 / "Maya's passport": the thing, not its owner
    return before if [u for u in units(before) if not u.stop] else after


def _as_a_rule(text: str, cue: str) -> bool:
    """The ending is a rule or a habit, not news: a modal or a duty before it in its clause (会, 要, 负责, must, has
    to: "过期的东西会被直接扔掉", "Priya负责把GitHub权限撤掉") or a condition after it (注销后 90 天内, "when ... closed")."""
    at = text.lower().find(cue.lower())
    start = max((m.end() for m in _CLAUSE.finditer(text, 0, max(at, 0))), default=0)
    return bool(_RULE_BEFORE.search(text[start:max(at, 0)].lower()) or _RULE_AFTER.match(text, at + len(cue)))
