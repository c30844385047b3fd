"""The wide search for the older version of a fact that a new memory says has changed.

Hygiene judges a new memory against its few nearest active neighbours (`HygieneChecker.candidates`). In a large
store the older version of a changed fact is often further back: other memories about the same project or person
crowd the top five, and across languages (an English update of a Chinese fact) the multilingual dense model ranks
same-language memories first. A stale version left `active` is then returned as current at read time.

So when the new text itself *says* something changed (a switch, end or change cue, EN/ZH: "moved to", "no longer",
"was cancelled", "改成", "推迟到", "已下线"; `change_signalled`), hygiene looks further, once per such write:

* dense: the `WIDE_DENSE` nearest active memories of the namespace;
* keyword: BM25 over the new text's terms (`WIDE_KEYWORD`), which finds a memory that shares a rare name, a
  product or a number (`SQ833`, `WireGuard`, `Marco`) whatever language the rest of it is in.

Every candidate still needs the judge's cosine floor and its *change* verdict (the same classifier and evidence as
for the near neighbours); a wide candidate is never merged or linked, only superseded, and one write supersedes
at most one memory (`HygieneChecker._fold`). A write without a cue costs one regular-expression scan.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from hindsight.model import MemoryRecord
from hindsight.retrieval.bilingual import name_keys, shared_meaning
from hindsight.retrieval.slot_cues import states_new_change
from hindsight.storage.base import MemoryStore, Scope
from hindsight.text.script import script_of
from hindsight.text.tokenize import query_terms
from hindsight.write.conflict import Verdict
from hindsight.write.end_cues import _END_EN, _END_ZH, _SWITCH_EN, _SWITCH_ZH
from hindsight.write.endings import ending
from hindsight.write.lexicon import _STRONG_EN, _STRONG_ZH
from hindsight.write.number_labels import labelled_apart
from hindsight.write.pair_features import anchor_terms
from hindsight.write.slot_align import _abbreviates

#: Nearest active memories looked at when the new text signals a change (the regular search looks at 5).
WIDE_DENSE = 40
#: BM25 candidates of the new text's terms looked at then.
WIDE_KEYWORD = 20
#: A term more than this many memories contain is left out of that BM25 search (where the store can count it:
#: SQLite's `frequent_terms`): FTS5 scores every memory an OR-term matches, so one common word made the search
#: linear in the store (100 ms at 100k memories; docs/benchmarks.md, "Write cost, ninth round"). A store that holds
#: fewer memories than this is searched as before.
WIDE_TERM_CAP = 4096
#: Of those (over the judge's cosine floor), how many are judged (`shortlist`).
WIDE_JUDGED = 3
_NUMBER = re.compile(r"[\d.,:/%-]+")
#: Shortlist score: cosine + TERM_BONUS per shared term, at most MAX_TERMS of them.
TERM_BONUS = 0.02
MAX_TERMS = 3
#: Shared words that rank change candidates (`retarget`).
MAX_RANK_TERMS = 8
#: A wide candidate that does not hold the value the new text leaves needs this many shared terms to be retired.
FAR_SHARED = 2

#: Change language the hygiene lexicons do not list as cues of their own (an announced change, a slip, a move of
#: a date, a call-off); only a gate for the wider search here, not evidence of a change.
_ANNOUNCED_EN = re.compile(
    r"\b(changed|change:|update:|updated|slips?|slipped|pushed|push(?:es)? (?:\w+ ){0,4}to|is off|are off|"
    r"called off|instead|renewed|ended|over now|out now|no more|now|new)\b"
)
_ANNOUNCED_ZH = re.compile(r"(改|换|调整|变更|更新|推迟|延期|取消|结束|下架|下线|到期|续约|现在|目前|如今|已经|不再|新的|最新)")


def explicit_change(text: str) -> bool:
    """Whether `text` carries a switch, end or change-of-state cue of the hygiene lexicons (EN/ZH)."""
    lowered = text.lower()
    return any(p.search(lowered) for p in (_STRONG_EN, _END_EN, _SWITCH_EN)) or any(
        p.search(text) for p in (_STRONG_ZH, _END_ZH, _SWITCH_ZH)) or ending(text) is not None


def change_signalled(text: str) -> bool:
    """Whether `text` says that something changed (EN/ZH cues, announced changes too): the gate of the wide search."""
    return explicit_change(text) or bool(_ANNOUNCED_EN.search(text.lower()) or _ANNOUNCED_ZH.search(text))


def wide_candidates(store: MemoryStore, scope: Scope, embedding: np.ndarray, text: str, seen: set[str],
                    floor: float) -> list[tuple[str, float]]:
    """(id, cosine to `embedding`) of at most `WIDE_JUDGED` active memories in `scope` beyond `seen`, from the dense
    and keyword channels, at or above `floor`, in the order of `shortlist`."""
    dense = {mid: float(sim) for mid, sim in store.dense_search(scope, embedding, WIDE_DENSE) if mid not in seen}
    terms = query_terms(text)
    frequent = getattr(store, "frequent_terms", None)
    if terms and callable(frequent):
        common = frequent(terms, WIDE_TERM_CAP)
        terms = [t for t in terms if t not in common]
    keyword = [mid for mid, _ in store.keyword_search(scope, terms, WIDE_KEYWORD) if mid not in seen
               and mid not in dense] if terms else []
    if keyword:
        vectors = store.get_embeddings(keyword)
        query = np.asarray(embedding, dtype=np.float32)
        query = query / max(1e-9, float(np.linalg.norm(query)))
        for mid, vector in vectors.items():
            v = np.asarray(vector, dtype=np.float32)
            dense[mid] = float(v @ query) / max(1e-9, float(np.linalg.norm(v)))
    close = {mid: sim for mid, sim in dense.items() if sim >= floor}
    if not close:
        return []
    contents = {mid: r.content for mid, r in store.get_many(list(close)).items()}
    return shortlist(text, [(mid, sim) for mid, sim in close.items() if mid in contents], contents)


def shared_terms(a: str, b: str) -> int:
    """How many content words, names and products two texts share, in any script. One script: their query terms
    (stopwords and bare numbers left out: "4" of April 4 and April 16 is no evidence). Across scripts: Latin
    words (`anchor_terms`), romanised Chinese names (`bilingual.name_keys`) and dictionary meaning."""
    za, zb = script_of(a) == "zh", script_of(b) == "zh"
    if za == zb:
        return len(_content_words(a) & _content_words(b))
    chinese, english = (a, b) if za else (b, a)
    shared = len({t for t in anchor_terms(a) & anchor_terms(b) if not _NUMBER.fullmatch(t)})
    shared += len(name_keys(chinese, latin=False) & name_keys(english, latin=True))
    return shared + len(shared_meaning(chinese, english))


@lru_cache(maxsize=4096)
def _content_words(text: str) -> frozenset[str]:
    """Kept per text: a write's text is compared with every candidate of the wide search and the retarget."""
    return frozenset(t for t in query_terms(text) if len(t) > 1 and not _NUMBER.fullmatch(t))


def shortlist(text: str, candidates: list[tuple[str, float]], contents: dict[str, str]) -> list[tuple[str, float]]:
    """The `WIDE_JUDGED` candidates most likely to be the older version: those holding a value the new text leaves
    first, then by cosine plus `TERM_BONUS` for each shared word, name, product or (across languages) dictionary
    meaning, up to `MAX_TERMS` of them.

    Judging a pair costs two query-side encodings (the pair model reads their cosine), so only a few are judged."""
    departed = departed_terms(text)
    score = {mid: sim + TERM_BONUS * min(MAX_TERMS, shared_terms(contents[mid], text))
             + float(departed_in(contents[mid], departed) > 0) for mid, sim in candidates}
    return sorted(candidates, key=lambda c: -score[c[0]])[:WIDE_JUDGED]


# --------------------------------------------------------------------------- which memory a change retires
#: A value the new text says it leaves: "from X to", "no longer X", "instead of X", "replaced X", "X, not Y" (Y),
#: "X is retired / was cancelled"; 从X换成, 不再用X, 而不是X, 不是X, X已下线/停用/取消.
_LEFT_EN = re.compile(
    r"\b(?:no longer (?:use[sd]?|using|on|at|with|in)?|instead of|replac(?:ed|es|ing)|rather than|not|dropp(?:ed|ing)|"
    r"switched away from|moved (?:off|away from)|left|quit|cancell?ed|retired|decommissioned)\s+"
    r"((?:(?!(?:to|into|and|with|in|on|at|for|since|because|after|last|this|next)\b)[\w.@:/+#-]+[ ]?){1,3})"
)
#: (up to three words, a space between two: a word split in pieces, as `(?:word[ ]?){1,3}` allowed, reaches no other
#: end, and the backtracking over those splits was cubic in a long word after "from")
_FROM_TO_EN = re.compile(r"\bfrom\s+((?!(?:to|into)\b)[\w.@:/+#$€£%-]+(?:[ ](?!(?:to|into)\b)[\w.@:/+#$€£%-]+){0,2}[ ]?)"
                         r"\s*(?:to|into|->|→)")
_LEFT_BEFORE_EN = re.compile(
    r"((?:[\w.@:/+#-]{1,64}\s+){1,3})(?:is|are|was|were|has been|have been)\s+(?:now\s+)?(?:gone|retired|removed|"
    r"decommissioned|cancell?ed|shut down|turned off|deprecated|off|over|dropped|closed)\b"
)
_LEFT_ZH = re.compile(
    r"(?:从(?!今天|明天|现在|下周|本周|这周|今年|明年|下个?月|本月|即日|此|\s*\d)|不再用?|不用|而不是|不是|取代了?|替换了?|"
    r"换掉了?)([\u4e00-\u9fffA-Za-z0-9.@:/+#\- ]{1,16}?)"
    r"(?=换|改|迁|切|转|搬|到|了|，|,|。|；|;|$|的)"
)
_LEFT_BEFORE_ZH = re.compile(r"([\u4e00-\u9fffA-Za-z0-9.@:/+#\- ]{2,24}?)(?:已经|已|都)?(?:下线|停用|取消|废弃|弃用|关闭|注销|作废|不用了)")
_WORD = re.compile(r"[a-z0-9][a-z0-9.@:/+#-]*[a-z0-9]|[a-z0-9]|[\u4e00-\u9fff]{2,}")
_LEFT_STOP = frozenset({"the", "a", "an", "our", "my", "their", "his", "her", "its", "this", "that", "to", "on", "in",
                        "at", "and", "of", "for", "with", "it", "them", "be", "now", "just", "any", "anymore", "more",
                        "only", "all", "yet", "sure", "too", "so", "very", "much", "really", "always", "used",
                        "已经", "现在", "目前", "那套", "这套", "那个", "这个", "全面", "我们", "他们", "以后"})


def departed_terms(text: str) -> frozenset[str]:
    """Words of the values `text` says it leaves behind (lower-cased; Chinese runs of 2+ characters)."""
    lowered = text.lower()
    found: list[str] = [m.group(1) for m in _LEFT_EN.finditer(lowered)]
    found += [m.group(1) for m in _LEFT_BEFORE_EN.finditer(lowered)] + [m.group(1) for m in _FROM_TO_EN.finditer(lowered)]
    found += [m.group(1) for m in _LEFT_ZH.finditer(text)] + [m.group(1) for m in _LEFT_BEFORE_ZH.finditer(text)]
    terms = {w for phrase in found for w in _WORD.findall(phrase.lower())}
    # a bare number is too common to point at one memory ("from 14 to 35 days" vs "14 of 20 policies done")
    return frozenset(w for w in terms - _LEFT_STOP if len(w) > 1 and not _NUMBER.fullmatch(w))


def departed_in(old_text: str, departed: frozenset[str]) -> int:
    """How many of the values the new memory leaves the older one holds (it is the version that changed)."""
    lowered = old_text.lower()
    return sum(bool(_term_pattern(term).search(lowered)) for term in departed)


def _term_pattern(term: str) -> re.Pattern[str]:
    """A departed term as it may appear in the older text: Chinese as is; an English word whole, or from its first
    five letters on in any inflection ("rotation" meets "rotated", "password" meets "passwords")."""
    if not term.isascii():
        return re.compile(re.escape(term))
    if len(term) >= 5 and term.isalpha():
        return re.compile(rf"(?<![a-z0-9]){re.escape(term[:5])}[a-z]*")
    return re.compile(rf"(?<![a-z0-9]){re.escape(term)}(?:s|es)?(?![a-z0-9])")


#: A contrast that names the value set aside: "X, not Y", "rather (A) than Y", "instead of Y", 而不是 Y, 不是 Y 而是 X.
CONTRAST = re.compile(r"[,;，；]\s*not\b|\brather\b|\binstead of\b|而不是|不是.{1,20}而是")
#: Whether a contrast of the new text retires only a candidate that holds the value it sets aside (round 18)
CONTRAST_HELD = True


def contrasted(text: str) -> bool:
    """The text sets a value aside by contrast (`CONTRAST`)."""
    return CONTRAST.search(text.lower()) is not None


_REDACTED = re.compile(r"\[redacted:", re.IGNORECASE)


def may_hold(old_text: str, departed: frozenset[str]) -> bool:
    """Whether the older text may hold a value set aside in a form `departed_in` does not read: a word of it (mid-March
    / March 15), a short form or a spelled-out one (Mon / Monday, JS / JavaScript: `slot_align._abbreviates`), or a redacted
    value it cannot read."""
    if _REDACTED.search(old_text):
        return True
    words = set(re.findall(r"[a-z0-9]+", old_text.lower()))
    parts = {p for term in departed if term.isascii() for p in re.findall(r"[a-z0-9]+", term)}
    return (any(len(p) > 2 and p in words for p in parts)
            or any(_abbreviates(p, w) or _abbreviates(w, p) for p in parts for w in words))


#: How far a judged candidate is (`retarget`): one of the near neighbours, a near neighbour that is an event a
#: day or more earlier (a plan that may have changed), or a candidate of the wide search.
NEAR, EARLIER_EVENT, WIDE = 0, 1, 2


def retarget(new_text: str, judged: list[tuple[MemoryRecord, Verdict, int]]) -> list[tuple[MemoryRecord, Verdict]]:
    """Order the judged candidates (record, verdict, NEAR / EARLIER_EVENT / WIDE) for `HygieneChecker._fold`, which
    merges into at most one and supersedes at most one, the first of each kind in this order.

    A change verdict says the new memory changes *a* fact; which one is a question of its own (a same-topic
    memory next to the changed one gets a high change probability too). So among the changes:

    * when the new text names the value it leaves ("from WireGuard", "不再用舒利迭", `departed_terms`) and a
      candidate holds it, that candidate is the older version; a change candidate that does not hold it is
      linked, not retired (a near neighbour keeps its change when no candidate holds it: the extraction is a
      pattern, not a parse) - unless the new text says it by contrast ("email, not Slack", "rather than Y",
      "instead of Y", 而不是: `CONTRAST`): a contrast names the value it sets aside, so a candidate that does not hold
      it states another fact ("Harlow Foods wants invoices as PDF attachments" / "... status updates by email, not
      Slack"), near or far (round 18);
    * two numbered things ("note 1" / "note 2", "Ticket #41" / "#42", 第三章 / 第四章: `number_labels.labelled_apart`)
      are not one fact changed: the change is linked, not retired (a label is not a value of an attribute), unless
      the new text states a change in words the older one does not use (`currency.states_new_change`:
      "db-analytics-02 is the primary now");
    * a candidate from the wide search or an earlier event must hold the value left, or share `FAR_SHARED`
      names, products or dictionary meanings (`shared_terms`): far back, similarity and a cue alone are not
      evidence of the same fact;
    * then more shared words (up to `MAX_RANK_TERMS`; the pair model gives most same-topic pairs with a cue a
      change probability near 1, so it cannot tell them apart), then the surer verdict, first.
    A candidate of the wide search that is not retired is dropped (never linked from afar).
    Merges keep the order of their confidence.
    """
    departed = departed_terms(new_text)
    holds = {old.id: departed_in(old.content, departed) for old, v, _ in judged if v.label == "override"}
    targeted = any(holds.values())
    contrast = CONTRAST_HELD and contrasted(new_text)
    out: list[tuple[tuple[float, ...], MemoryRecord, Verdict]] = []
    for old, verdict, far in judged:
        shared = shared_terms(old.content, new_text)
        if verdict.label == "override":
            # "note 1" / "note 2": two things, whichever decider read a change - unless the new text says one
            # changed ("db-analytics-02 is the primary now": the label is the value that moved)
            why = "" if states_new_change(old.content, new_text) else labelled_apart(old.content, new_text)
            if not why and far != NEAR and not holds[old.id] and shared < FAR_SHARED:
                why = "far back and no shared name or value left"
            elif not why and departed and not holds[old.id] and (
                    targeted or far != NEAR or (contrast and not may_hold(old.content, departed))):
                why = f"the new memory leaves {', '.join(sorted(departed))}, which this one does not hold"
            if why and far == WIDE:
                continue
            if why:
                verdict = Verdict("supplement", f"kept and linked: {why} ({verdict.reason})")
        key = (-float(holds.get(old.id, 0)), -float(min(MAX_RANK_TERMS, shared)), -round(verdict.confidence, 2))
        out.append((key, old, verdict))
    out.sort(key=lambda item: item[0])
    return [(old, verdict) for _, old, verdict in out]
