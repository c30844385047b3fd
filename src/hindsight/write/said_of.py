"""What a switch or contrast cue of a new memory is said of (hygiene round 29, issue 10).

A contrast ("X, not Y", "rather ... than Y", "prefers X over Y", 不是 Y) retires the old memory only when it is said
of what the old memory states. Two readings give positive evidence that it is said of something else,
so the pair is kept and linked (`evidence.change_evidence` reads them on its switch path only):

* `other_part` - the new statement is about a part or an attribute of an owner the old text names, a part the old
  text does not name: "Willowbend Veterinary's front desk number is ..., not Dr. Raman's line" of "Dr. Raman at
  Willowbend Veterinary ... her direct line is ...", "The rate limiter's load-test results are in the perf dashboard,
  not in Drive" of "Design doc for the rate limiter is in Google Drive", Orion 的缓存层用的是 Redis，不是 Postgres of
  "Project Orion uses PostgreSQL";
* `other_condition` - the new statement opens with a scope the old text does not name: "For personal stuff I'd
  rather get a text than an email" of "I prefer email for work communication", "For legal documents, wants the full
  text quoted rather than summarized" of "Wants meeting notes summarized ...", 对于 / 至于 X，..., X 的话，....

A third reads a value changed with no cue (`evidence.change_evidence`'s structural path):

* `other_period` - both texts date what they state, to different periods, and a measured value differs besides:
  two readings at two times, not one value replaced ("My fasting glucose in January was 104 mg/dL" / "Fasting
  glucose in July: 97 mg/dL", 3月份电费 280 元 / 4月份电费 310 元).

Lexical only; no fitted parameter. `ON` switches the first two, `PERIODS` the third (replays).
"""

from __future__ import annotations

import re
import unicodedata

from hindsight.text.script import script_of
from hindsight.write.analysis import units

ON = True
PERIODS = True

#: The first clause of a text: up to a clause break.
_CLAUSE = re.compile(r"[，。；！？,.;!?：:—–()（）\n]|\s-\s")
#: "<owner>'s <thing> is / are ...": an owner and the thing of it a statement is about.
_OWNED_EN = re.compile(r"^\W*(?:the |our |my |their |his |her )?(?P<owner>[^,;:]{2,40}?)['’]s "
                       r"(?P<thing>[^,;:]{2,40}?) (?:is|are|was|were|has|have|will|can|lives?|sits?|goes|go)\b",
                       re.IGNORECASE)
_OWNED_ZH = re.compile(r"^(?P<owner>[^，。；：,.;:的]{1,12}?)\s*的\s*(?P<thing>[^，。；：,.;:的\s]{1,8}?)(?:用的是|现在是|是|用|在|由|改|换)")
#: A scope a statement is said under, at its start: "For X, ...", "For X I'd ...", 对于 X，, X 的话，.
_SCOPE_EN = re.compile(r"^\W*(?:for|when it comes to|as for|with) (?P<scope>[^,;:]{2,40}?)"
                       r"(?:,|\s+(?=(?:i|i'd|i'm|we|we'd|she|he|they|you|wants?|prefers?)\b))", re.IGNORECASE)
_SCOPE_ZH = re.compile(r"^(?:对于|至于|关于)(?P<scope>[^，。；：,.;:]{1,10}?)(?:来说|方面|的话)?[，,]"
                       r"|^(?P<scope2>[^，。；：,.;:]{1,8}?)的话[，,]")


def _content(text: str) -> list[str]:
    """Content words of a stretch; one Han character (事, 层) names nothing by itself."""
    return [u.text for u in units(text) if not u.stop and not u.number and not (u.cjk and len(u.text) < 2)]


def _named_in(words: list[str], old: str) -> list[str]:
    """The words (content units) of a stretch the old text names: as a unit of it, or, for Han text, inside it."""
    old_units = set(_content(old))
    return [w for w in words if w in old_units or (len(w) >= 2 and re.search(r"[\u3400-\u9fff]", w) and w in old)]


def other_part(old: str, new: str) -> str | None:
    """The new text's first clause is about a thing of an owner the old text names, a thing the old text does not
    name (no content word of it in the old text)."""
    text = unicodedata.normalize("NFKC", new).strip()
    text = _CLAUSE.split(text, maxsplit=1)[0]  # the first clause: "Typo earlier — Jess's email is ..." names no part
    found = _OWNED_EN.match(text) or _OWNED_ZH.match(text)
    if found is None:
        return None
    owner, thing = _content(found.group("owner")), _content(found.group("thing"))
    if not owner or not thing or not _named_in(owner, old) or _named_in(thing, old):
        return None
    return f"another part of {found.group('owner').strip()} ({found.group('thing').strip()})"


def other_condition(old: str, new: str) -> str | None:
    """The new text opens with a scope ("For X, ...", 对于 X，) the old text names no word of."""
    text = unicodedata.normalize("NFKC", new).strip()
    found = _SCOPE_EN.match(text) or _SCOPE_ZH.match(text)
    if found is None:
        return None
    scope = next(g for g in found.groups() if g)
    words = _content(scope)
    if not words or _named_in(words, old):
        return None
    return f"said under another condition ({scope.strip()})"


#: Words that say the state itself changed ("is now", 现在是): a contrast beside them is a change, whatever it names.
_NOW = re.compile(r"\b(?:now|these days|nowadays|from now on|any ?more|no longer)\b|现在|如今|目前|以后|不再|改[用成为]", re.IGNORECASE)


#: The switch cues that contrast two things rather than say one changed (`end_cues._SWITCH_EN` / `_SWITCH_ZH`, the
#: strong cues): ", not", "rather ... than", "prefers X over", 不是, 而不是. A switch verb (换成, "moved to") says a change.
CONTRAST = re.compile(r",\s*not\b|\bnot\b|\brather\b|\bthan\b|\bover\b|\binstead\b|不是|而非", re.IGNORECASE)


def said_of_another(old: str, new: str, cue: str | None = None) -> str | None:
    """Positive evidence that the new text's contrast (`cue`, when given, must be one: `CONTRAST`) is said of another
    thing than the old text states; one script (across scripts the words cannot be compared), and not where the new
    text says the state changed now ("Orion 的数据库现在是 MySQL，不是 PostgreSQL")."""
    if not ON or _NOW.search(new) or (cue is not None and not CONTRAST.search(cue)):
        return None
    if script_of(old) != script_of(new):
        return None
    return other_part(old, new) or other_condition(old, new)


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
#: A period a statement is dated to: a month, a year, a quarter, a relative month / year / quarter; ZH N月(份), N年.
_PERIOD_EN = re.compile(r"(?<!\d)(?<!\d\s)(?<!\d(?:st|nd|rd|th)\s)\b(?:(?P<month>january|february|march|april|may|june|july|august|september|october|november|"
                        r"december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b(?!\s*\d)"
                        r"|(?P<year>(?:19|20)\d\d)\b|(?P<q>q[1-4])\b|(?P<rel>(?:last|this|next) (?:month|year|quarter)))",
                        re.IGNORECASE)
_PERIOD_ZH = re.compile(r"(?P<zmonth>[0-9一二三四五六七八九十]{1,3})月(?:份|里|中)?(?![0-9一二三四五六七八九十]{1,3}[日号])"
                        r"|(?P<zyear>(?:19|20)\d\d)年|(?P<zrel>去年|今年|明年|上个?月|这个?月|本月|下个?月|上季度|本季度)")
#: A period a change takes effect from: "from / starting / as of January", 4月起, 从下个月开始.
_ONSET = re.compile(r"\b(?:from|starting|since|as of|effective|beginning)\s+(?:in\s+)?(?:the\s+)?\w+|起|开始|以后|之后",
                    re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _periods(text: str) -> tuple[set[str], str]:
    """The periods a text is dated to (normalised), and the text with them blanked."""
    found: set[str] = set()

    def blank(m: re.Match[str]) -> str:
        key = next((f"{k}:{v.lower()[:3] if k == 'month' else v.lower()}" for k, v in m.groupdict().items() if v), "")
        found.add(key)
        return " "
    rest = _PERIOD_ZH.sub(blank, _PERIOD_EN.sub(blank, unicodedata.normalize("NFKC", text)))
    return found, rest


def other_period(old: str, new: str) -> str | None:
    """Both texts are dated to periods, different ones, and each states a number besides, the numbers differ: two
    readings at two times. Not a date of the month ("March 3", "19 Nov": a day, maybe the value itself)."""
    if not PERIODS:
        return None
    (a, a_rest), (b, b_rest) = _periods(old), _periods(new)
    kinds = {k.split(":")[0].lstrip("z") for k in a} & {k.split(":")[0].lstrip("z") for k in b}
    if not kinds or a & b or _ONSET.search(new):
        return None  # a year and a month do not contradict; "from January", 4月起: a change's onset
    na, nb = set(_NUMBER.findall(a_rest)), set(_NUMBER.findall(b_rest))
    if not na or not nb or na == nb:
        return None
    return f"dated to another period ({', '.join(sorted(a))} / {', '.join(sorted(b))})"
