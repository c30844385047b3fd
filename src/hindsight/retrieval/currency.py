"""Read-time currency: when two active memories in a result state the same slot, the newer one is current.

Write-time hygiene deprecates a memory when a newer one changes the fact, but it can miss a change (the
pair written far apart, in two languages, or worded too differently for its analysis). A search that
returns both must still not present the older value as current. `mark_outdated` looks at the best hits
of one search: an older active memory and a newer active one are taken to state the same slot when

* their embeddings are close for their script pair (`SAME_SLOT`: about the similarity of a memory to its
  nearest unrelated neighbour, so only near-restatements pass), and
* they share an anchor (`anchors`: an entity, number or content word besides generic ones, lightly stemmed) -
  three of them when both are in one script (`SAME_SCRIPT_ANCHORS`: two texts in one script share a name or a
  topic word on any common subject; round 7 prep measured the false flags this removes), and
* the newer one reads like a change (`CHANGE_CUE`: "now", "moved to", "upgraded", "no longer"; 现在、
  已经、改成、升级、不再、从…到…), and
* each is the other's nearest neighbour *in the store* among the memories of the other's script group
  (`neighbours_of`: one vector lookup per side, only for a pair that passed the checks above, so a search
  with no candidate pair pays nothing). Round 5 measured this on the released blind rounds (every pair of
  their 900 memories): near-restatements that pass the similarity, anchor and cue checks and are each
  other's nearest neighbour are a replacement 79 times and not 30 times; with rivals looked for only among
  the search's own hits (the old rule), a memory on the same subject (the office days, the office address)
  was flagged by an unrelated newer one whenever the true neighbour was not in the result.

A warning or a dated episode is never flagged (`lasting`): it records what happened, not a current value -
unless the episode was a plan and the newer memory says that plan moved or ended and repeats much of it
(`replans`: "booked LH 455 on March 14" / "her flight changed: now UA 58 on March 13"). Newer memories are taken
oldest first, and an older hit flagged in this search is no rival of the next pair, so a chain of three versions
ends with the newest current (the middle one's closest neighbour is the oldest, which it outdated).
Across scripts a romanised name is an anchor too ("Lin Kai" / 林凯, `bilingual.name_keys`).

The older one is then flagged `outdated` with `current: false` (`why.outdated_by` names the newer one),
and ranked right below the newer one (the newer one moves up into the results when it was just outside
them). Nothing stored changes: this is a reading, hygiene owns the write.

A newer memory without a change word can still restate the slot with another value ("刘洋的签证批下来了" after
"…还在审", "bring Tom's Q3 number down to $380k" after "Tom's Q3 quota: $420k"). `SlotRule.restated` holds the
bars of that second tier (round 11; measured leave-one-round-out and **off** in `RULE`: docs/benchmarks.md,
"Currency, round 11"): the same checks with its own cosine per script pair and anchor count, and three more
guards - the newer text does not
say it adds (`ADDITIVE`), the two do not name different owners (`other_owners`: "Anna's extension" / "Ben's
extension"), and the newer one names the older one's subject (`subject_kept`: "the design review" / "the
security review"). The older hit is then flagged `possibly_outdated` (`why.outdated_change` false), also
`current: false` and ranked below the newer one; it is never dropped (a question about history needs it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from hindsight.model import MemoryType, Status
from hindsight.read_model import SearchHit
from hindsight.retrieval.bilingual import name_keys, shared_meaning, stem
from hindsight.retrieval.crosslingual import bias_group
from hindsight.text.tokenize import query_terms
from hindsight.write.renumber import number_replaced

#: Search-hit flag of an active memory that a newer hit in the same result restates with another value.
OUTDATED = "outdated"

#: minimum cosine of two memories stating the same slot, per (older, newer) script group pair
#: (multilingual-e5-small compresses Chinese pairs higher than English ones, and across scripts lower)
SAME_SLOT: dict[frozenset[str], float] = {
    frozenset({"zh"}): 0.93,
    frozenset({"en"}): 0.88,
    frozenset({"zh", "en"}): 0.80,
}

CHANGE_CUE = re.compile(
    # English: a value that moved ("moved to", "went up to", "cut to", "goes to"), a state that ended or was
    # renewed ("no longer", "was retired", "has left", "renewed"), a new holder of a slot ("new main contact
    # is", "took over"), a start of validity ("from September", "since May", "starting", "as of")
    r"\b(?:now|no longer|any ?more|moved|migrated|switched|replaced|upgraded|downgraded|bumped|raised|lowered|"
    r"increased|decreased|reduced|extended|shortened|postponed|changed|took over|taken over|instead|since|"
    r"has been|have been|was split|from \S+ to|"
    r"changes? to|went (?:up|down)|goes? (?:up |down )?to|cut to|(?:has|have) left|renewed|rebuilt|retired|"
    r"cancell?ed|discontinued|revised|adjusted|starting|as of|effective|new \w+(?: \w+)? (?:is|are|policy|rule)|"
    r"from (?:next|this|january|february|march|april|may|june|july|august|september|october|november|december)|"
    # a date or plan that moved or ended ("slipped to", "pushed back", "rescheduled", "is off", "called off"), a
    # new holder ("promoted", "quit", "rebooked"), an announced revision ("update:", "updated", "again")
    r"slip(?:s|ped)?|delayed|rescheduled|re-?booked|pushed (?:back|out)|called off|(?:is|are|was|were) off|"
    r"promoted|decommissioned|quit|resigned|updated?|again|not \w+ any ?more)\b"
    # Chinese: the same kinds (改成/升到/搬到: moved; 取消/停用/下线: ended; 接手/换成: new holder; …起/从…开始:
    # from when the new value holds; 上调/调整/又调: revised)
    r"|现在|目前已|已经|已从|已改|改成|改为|改用|换成|换到|迁到|迁至|迁移|升级|降级|提高|降低|缩短|延长|提前|推迟|"
    r"不再|停用|下线|上线|调整|转正|接手|以后|变成|变为|涨到|降到|压回|改到|挪到|从.{1,20}?(?:到|为)|"
    r"升到|提到|搬到|搬去|上调|下调|又调|调了|取消|[年月周]起|今年起|明年起|从.{1,12}?开始|"
    # Chinese, the same additions: 延期/顺延/延后/改签/改计划/改去/改在 (a plan moved), 换人/换了/离职/不干了/新来的
    # (a new holder), 更新/重新 (a revision)
    r"延期|顺延|延后|改签|改计划|改去|改在|不去了|换人|换了|离职|不干了|新来的|更新|重新",
    re.IGNORECASE,
)


#: A dated episode ("DR drill on 2024-04-18 took 47 minutes", "3 月 2 日凌晨证书过期") is what happened that day
#: and a warning what failed: a newer memory never makes either outdated. (Episodic is also the default type of
#: an untyped write, so an undated episodic memory is still compared: "the standup is at 9:30".) On the released
#: rounds every flag on such a memory was wrong, and no replaced memory was one.
_DAY = re.compile(
    r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b"
    r"|\b\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\d{1,2}\s*月\s*\d{1,2}\s*[日号]",
    re.IGNORECASE,
)


def lasting(kind: MemoryType, content: str) -> bool:
    """A memory no newer one makes outdated: a warning, or an episode that names its day."""
    return kind == MemoryType.warning or (kind == MemoryType.episodic and _DAY.search(content) is not None)


#: a newer memory that says a plan moved or ended ("postponed", "rescheduled", "is off", 推迟, 改签, 取消)
PLAN_CHANGE = re.compile(
    r"\b(?:moved|moves|postponed|slip(?:s|ped)?|delayed|rescheduled|re-?booked|changed|is off|called off|"
    r"cancell?ed|pushed (?:back|out)|brought forward)\b|推迟|延期|改签|改计划|改期|取消|挪到|改到|改成|提前到|顺延|改去|不去",
    re.IGNORECASE,
)

#: the share of the shorter text's content terms a plan change must repeat to make a dated episode outdated
REPLAN_OVERLAP = 0.3


@lru_cache(maxsize=4096)
def _terms(text: str) -> frozenset[str]:
    """A text's search terms, English ones lightly stemmed ("Tuesdays" / "Tuesday"); kept per text, as a search
    compares each hit with several others."""
    return frozenset(stem(t) for t in query_terms(text))


def overlap(old: str, new: str) -> float:
    """The share of the shorter text's content terms (2+ characters, not generic) that the other one has too."""
    a, b = _terms(old), _terms(new)
    return len({t for t in a & b if len(t) >= 2 and t not in GENERIC}) / (min(len(a), len(b)) or 1)


def replans(old: str, new: str, least: float = REPLAN_OVERLAP) -> bool:
    """A dated episode that was a plan ("booked LH 455 on March 14", "4 月 15 日上线") is outdated when a newer
    memory in its own script says the plan moved or ended and repeats much of it (`REPLAN_OVERLAP`). A past event
    ("the restore drill on March 3 took 40 minutes") is not: "restores now take 15 minutes" names no plan change."""
    return PLAN_CHANGE.search(new) is not None and overlap(old, new) >= least


#: the most hits compared pairwise in one result
MAX_WINDOW = 20

#: anchors a same-script pair must share: two texts in one script share a word or two on any common topic
#: ("Priya", "disk"); across scripts one shared meaning or name is already rare
SAME_SCRIPT_ANCHORS = 3

#: words that say whose fact it is, not which fact: sharing only these is no anchor
GENERIC = frozenset({"user", "users", "用户", "team", "团队", "我们", "公司", "the", "our",
                     # units of time: "per month" and 每月 say how often, not what
                     "month", "months", "day", "days", "week", "weeks", "year", "years", "每月", "每天", "每周", "每年"})


@lru_cache(maxsize=4096)
def anchors(old: str, new: str) -> frozenset[str]:
    """Content terms both texts mention (an entity, a number, a word), not counting change cues or generic words;
    across scripts also the English words of one that the dictionary gives for the other's Chinese words
    (房租 / "rent", 航班 / "flight": `bilingual.shared_meaning`)."""
    shared = _terms(old) & _terms(new)
    found = {t for t in shared if len(t) >= 2 and t not in GENERIC and not CHANGE_CUE.fullmatch(t)}
    groups = bias_group(old), bias_group(new)
    if not found and groups[0] != groups[1]:  # the dictionary only when no word is shared
        chinese, english = (old, new) if groups[0] == "zh" else (new, old)
        # a change cue is no anchor: "不再" and "no longer" say that something changed, not what
        found |= {w for w in shared_meaning(CHANGE_CUE.sub(" ", chinese), CHANGE_CUE.sub(" ", english))
                  if w not in GENERIC}
        found |= name_keys(english, latin=True) & name_keys(chinese, latin=False)
    return frozenset(found)


def states_change(text: str) -> bool:
    return CHANGE_CUE.search(text) is not None


#: read time only, when `SlotRule.value_moved` (round 21, off; the write side keeps `CHANGE_CUE`): a value moved to
#: a number - a Chinese verb and 到 before a number or 每 (放宽到1分45秒, 推到12月, 扩到每期8个人) - or a date from which it holds ("From 1 September
#: Fitzroy opens at 6:30am"; `CHANGE_CUE` reads "from September", not a day before the month)
VALUE_MOVED = re.compile(
    r"[\u4e00-\u9fff]到\s*(?:每.{0,2})?[\d一二两三四五六七八九十百]"
    r"|\bfrom (?:\d{1,2}(?:st|nd|rd|th)? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,2}(?:st|nd|rd|th)?)\b",
    re.IGNORECASE,
)


def states_change_read(text: str) -> bool:
    """A change the read-time rule takes: `CHANGE_CUE`, or a value moved to a number or from a day (`VALUE_MOVED`)."""
    return states_change(text) or VALUE_MOVED.search(text) is not None


def states_new_change(old: str, new: str) -> bool:
    """`new` states a change (`CHANGE_CUE`) in words `old` does not use: a cue both share is part of their common
    topic ("code changes to", "the flight was delayed", 提前一天报备), not news of a change."""
    found = {m.group(0).lower() for m in CHANGE_CUE.finditer(new)}
    return bool(found - {m.group(0).lower() for m in CHANGE_CUE.finditer(old)})


#: (memory id, content, cosine) of the `depth` stored memories nearest a vector, best first; the content only of
#: those closer than `floor` (the others' is "", never read), so a lookup reads few records
Neighbours = Callable[[np.ndarray, int, float], list[tuple[str, str, float]]]

#: how many stored neighbours are looked at for a rival of a candidate pair, then (undecided) once more
NEIGHBOUR_DEPTH = 30
DEEP_NEIGHBOUR_DEPTH = 150


#: a newer memory that says it adds ("now also signs", 另外, 同时) supplements the older one, it does not restate it
ADDITIVE = re.compile(r"\b(?:also|as well|in addition|additionally)\b|另外|此外|同时|也会|也要|也在|也是|还会|还要",
                      re.IGNORECASE)

#: whose fact a text states: an English possessive ("Anna's", "Tom's") or the two Han characters before 的 (张伟的)
_OWNER = re.compile(r"\b([A-Z][a-z]+)['’]s\b|([\u4e00-\u9fff]{2})的")


def other_owners(old: str, new: str) -> bool:
    """Each text names an owner the other does not mention ("Anna's extension" / "Ben's extension", 张伟的手机 /
    李娜的手机): two people's facts, not two versions of one."""
    def owners(text: str) -> set[str]:
        return {a or b for a, b in _OWNER.findall(text)}
    return any(o not in new for o in owners(old)) and any(o not in old for o in owners(new))


def subject_kept(old: str, new: str) -> bool:
    """The older text's first content term (its subject: "Tom", 刘洋, "design" of "the design review") is among the
    newer one's terms: without a change word, a newer text that does not name the older one's subject is about
    something else ("the design review" / "the security review", both in room Bern on the billing page)."""
    first = next((t for t in query_terms(old) if len(t) >= 2 and t not in GENERIC and not t.isdigit()), None)
    return first is None or stem(first) in _terms(new)


#: Search-hit flag of an active memory that a newer hit restates without a change word: possibly outdated
POSSIBLY_OUTDATED = "possibly_outdated"


@dataclass(frozen=True)
class SlotRule:
    """When an older and a newer hit state one slot (see module doc); the defaults are the shipped setting.

    `same_slot` and `anchors_*` apply when the newer text states a change (`CHANGE_CUE`). `restated` gives the
    bars of a newer text without a change word ("刘洋的签证批下来了", "bring Tom's Q3 number down to $380k"), per
    script group pair (a pair absent: never), with `restated_anchors` shared terms and no `ADDITIVE` wording;
    such an older hit is flagged `possibly_outdated`. `replan_overlap`: see `replans`."""

    same_slot: Mapping[frozenset[str], float] = field(default_factory=lambda: dict(SAME_SLOT))
    anchors_same_script: int = SAME_SCRIPT_ANCHORS
    anchors_cross_script: int = 1
    restated: Mapping[frozenset[str], float] = field(default_factory=dict)
    restated_anchors: int = SAME_SCRIPT_ANCHORS
    replan_overlap: float = REPLAN_OVERLAP
    #: round 21: a value moved to a number or from a day also reads as a change (`VALUE_MOVED`); off: measured on
    #: 17 released stores, held out -1 stale memory read as current against +3 false flags (docs/benchmarks.md)
    value_moved: bool = False
    #: round 19 (currency): a newer hit without a change word that gives a number of one kind in place of the older
    #: one's (`renumber.number_replaced`, one gone) is read as a change under the change tier's bars ("grow the demo
    #: fleet to 18 bikes" after "12 bikes in total", 新租金每月 19,500 元 after 租金每月 18,000 元)
    values: bool = True

    def bar(self, groups: frozenset[str], cue: bool) -> tuple[float, int] | None:
        """(least cosine, least shared anchors) for a pair of these script groups, None when never."""
        cos = (self.same_slot if cue else self.restated).get(groups)
        if cos is None:
            return None
        if len(groups) > 1:
            return cos, self.anchors_cross_script
        return cos, self.anchors_same_script if cue else self.restated_anchors


#: the shipped rule: the change tier as in round 7; the restated tier off (docs/benchmarks.md, "Currency, round 11":
#: leave-one-round-out, no held-out round read one stale memory less with it, and flags on distinct facts grew)
RULE = SlotRule()


def mark_outdated(hits: list[SearchHit], top_k: int,
                  embeddings_of: Callable[[list[str]], Mapping[str, np.ndarray]],
                  neighbours_of: Neighbours | None = None, rule: SlotRule | None = None,
                  depth: int | None = None) -> list[SearchHit]:
    """Flag and re-rank older active hits restated by a newer hit among the best 2 x top_k (or the best `depth`
    when given: the search's one internal depth), at most `MAX_WINDOW` (see module doc); the pairwise checks stay
    cheap whatever top_k asks for. Without `neighbours_of`, rivals are looked for among the window's hits only;
    without `rule`, `RULE`."""
    rule = RULE if rule is None else rule
    size = min(2 * top_k if depth is None else depth, MAX_WINDOW)
    window = [h for h in hits[:size] if h.memory.status == Status.active]
    moved = states_change_read if rule.value_moved else states_change
    cue = {h.memory.id: moved(h.memory.content) for h in window}
    if len(window) < 2 or not (any(cue.values()) or rule.restated or rule.values):
        return hits
    vectors = embeddings_of([h.memory.id for h in window])
    if neighbours_of is not None:
        neighbours_of = _remembered(neighbours_of)  # a hit in several candidate pairs is looked up once
    window = [h for h in window if h.memory.id in vectors]
    group = {h.memory.id: bias_group(h.memory.content) for h in window}
    out = list(hits)
    outdated: set[str] = set()  # flagged in this search: an older version is no rival of the next one
    for new in sorted(window, key=lambda h: (h.memory.reference_time, h.memory.created_at)):
        changed = cue[new.memory.id]
        if not changed and ADDITIVE.search(new.memory.content):
            continue
        for old in window:
            if old is new or not old.current or old.memory.reference_time >= new.memory.reference_time:
                continue
            groups = frozenset({group[old.memory.id], group[new.memory.id]})
            cos = float(np.dot(vectors[old.memory.id], vectors[new.memory.id]))
            valued = not changed and rule.values and _new_value(old.memory.content, new.memory.content, cos,
                                                                rule.bar(groups, True))
            bar = rule.bar(groups, changed or valued)
            if bar is None or cos < bar[0]:
                continue  # the vectors first: most pairs end here, before any text is read
            if not changed and (other_owners(old.memory.content, new.memory.content)
                                or not subject_kept(old.memory.content, new.memory.content)):
                continue
            if (lasting(old.memory.type, old.memory.content)
                    and not replans(old.memory.content, new.memory.content, rule.replan_overlap)):
                continue
            if not _same_slot(old, new, window, vectors, group, bar, neighbours_of, outdated):
                continue
            old.current = False
            old.why.outdated_by = new.memory.id
            old.why.outdated_change = changed or valued
            outdated.add(old.memory.id)
            flag = OUTDATED if changed or valued else POSSIBLY_OUTDATED
            if flag not in old.flags:
                old.flags.append(flag)
            i, j = out.index(old), out.index(new)
            if i < j:  # the newer value first, the older one right after it
                out.remove(new)
                out.insert(i, new)
                new.score = new.why.final = max(new.score, old.score)
    return out


def _new_value(old: str, new: str, cos: float, bar: tuple[float, int] | None) -> bool:
    """The newer text gives a number of one kind in place of the older one's (`renumber.number_replaced`, one of them
    gone), the pair already close enough for the change tier (`bar`); read only then, so most pairs read no text."""
    return (bar is not None and cos >= bar[0] and len(old) <= _VALUE_CHARS and len(new) <= _VALUE_CHARS
            and bool(number_replaced(old, new, every=False)) and _same_unit(old, new))


#: a figure given another value is a short statement; longer texts are not read for one (the number readings are not
#: linear in a crafted run of digits: attack round 7's search over 20,000-character memories)
_VALUE_CHARS = 2_000


#: a number and the word right after it (its unit or the thing counted: "12 bikes", "18,000 元", "1分45秒", "7am")
_NUMBER_NEXT = re.compile(r"(\d[\d,.:]*)\s*([A-Za-z]+|[\u4e00-\u9fff])")
#: words beside a number that name no thing ("is 4" / "is 3", "at 10" / "at 11")
_NOT_A_UNIT = frozenset(["i", "is", "are", "was", "were", "be", "at", "to", "of", "on", "in", "for", "by", "about",
                         "around", "the", "a", "an", "from", "until", "till", "and", "or", "only", "now", "it", "its",
                         "than", "over", "under", "up", "down", "after", "before", "with", "per", "x", "是", "在",
                         "为", "到", "和", "或", "约", "共", "第"])


def _same_unit(old: str, new: str) -> bool:
    """A number of the older text the newer one lacks and a number of the newer one the older lacks share the word
    right after them: the same thing counted or measured ("12 bikes" / "18 bikes", 600公斤 / 450公斤, 7am / 6:30am),
    not another figure of the same topic ("before 10:00 on Sundays" / "24 hours before any call"; a currency or a
    month before two numbers is no such word: "CAD 249" / "CAD 219" were two products)."""
    def marks(text: str) -> set[tuple[str, str]]:
        return {(m.group(1).replace(",", ""), m.group(2).lower().rstrip("s")) for m in _NUMBER_NEXT.finditer(text)}
    a, b = marks(old), marks(new)
    gone = {w for n, w in a if n not in {x for x, _ in b}}
    came = {w for n, w in b if n not in {x for x, _ in a}}
    return bool((gone & came) - _NOT_A_UNIT)


def _same_slot(old: SearchHit, new: SearchHit, window: list[SearchHit], vectors: Mapping[str, np.ndarray],
               group: Mapping[str, str], bar: tuple[float, int], neighbours_of: Neighbours | None = None,
               outdated: Collection[str] = ()) -> bool:
    """Close enough for their script pair (`bar`: least cosine, least shared anchors), and each the other's
    nearest neighbour among the window's hits of its script group, and among the store's memories when
    `neighbours_of` is given (scale-free: two memories on one topic that merely share words rarely are)."""
    a, b = old.memory.id, new.memory.id
    cos = float(np.dot(vectors[a], vectors[b]))
    if cos < bar[0]:
        return False
    shared = anchors(old.memory.content, new.memory.content)
    if len(shared) < bar[1]:
        return False
    for x, y in ((a, b), (b, a)):
        rivals = [h.memory.id for h in window if h.memory.id not in (a, b, *outdated) and group[h.memory.id] == group[y]]
        if any(float(np.dot(vectors[x], vectors[r])) > cos for r in rivals):
            return False
    if neighbours_of is not None:
        return all(_nearest_in_store(vectors[x], (a, b, *outdated), group[y], cos, neighbours_of)
                   for x, y in ((a, b), (b, a)))
    return True


def _remembered(neighbours_of: Neighbours) -> Neighbours:
    """`neighbours_of` with its answers kept for the rest of one `mark_outdated` call."""
    seen: dict[tuple[bytes, int, float], list[tuple[str, str, float]]] = {}

    def lookup(vector: np.ndarray, depth: int, floor: float) -> list[tuple[str, str, float]]:
        key = (vector.tobytes(), depth, floor)
        if key not in seen:
            seen[key] = neighbours_of(vector, depth, floor)
        return seen[key]
    return lookup


def _nearest_in_store(vector: np.ndarray, pair: tuple[str, ...], wanted: str, cos: float,
                      neighbours_of: Neighbours) -> bool:
    """No stored memory of script group `wanted`, besides the pair (and the hits outdated in this search), is
    closer to `vector` than `cos`. From a
    Chinese memory the nearest English ones can lie below dozens of Chinese ones, all closer than a
    cross-script pair: the lookup then deepens once (`DEEP_NEIGHBOUR_DEPTH`), and a question still
    undecided counts as a rival (no flag)."""
    for depth in (NEIGHBOUR_DEPTH, DEEP_NEIGHBOUR_DEPTH):
        found = neighbours_of(vector, depth, cos)
        for mid, content, score in found:
            if score <= cos:
                return True
            if mid not in pair and bias_group(content) == wanted:
                return False
        if len(found) < depth:
            return True  # the whole store is closer than the pair, and none of it a rival
    return False
