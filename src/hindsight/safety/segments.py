"""The marked parts of a long note, read on their own (issue 10, round 21).

An order appended to an ordinary carrier - a stand-up recap, a call sheet, a tool result, an e-mail summary - reads,
as a whole, like the carrier it mostly is: the write's vector is the carrier's, and the classifier scores it low. The
order is a part of its own, and the note marks it as one by its *structure*, not by its words:

- a part that opens with a short label and a colon at a sentence start ("Note for the assistant:", "Action item:",
  "系统提示：", "另：", "待办：", "发件人附言：", "最后一条："): at most four words, or eight Han characters, before the colon;
- a postscript ("P.S.", "PS:", "附言");
- a bracketed part ("[Instruction: ...]", "【...】");
- the last sentence of a note that opens with such a header or bracket (a recap's label, a tool's name and its output).

:func:`marked_parts` returns those parts (never the first, never the whole): the guard scores each with the same
classifier (``WriteGuard._part_score``) and holds the note when one part alone reaches :data:`PART_THRESHOLD` while the
whole does not. A one-sentence note has no parts. Text only: nothing here embeds or scores.
"""

from __future__ import annotations

import re

#: A part alone must score at least this (the shipped T is 0.655): a part is short, and a short imperative that is
#: harmless in its note ("Action item: book the crane") can read like an order on its own; docs/benchmarks.md
#: "Guard, round 21" measures the cost on every released benign note.
PART_THRESHOLD = 0.8
#: At most this many parts are scored per note (each is one more embedding): the last ones, where orders are appended.
MAX_PARTS = 3
#: A part shorter than this (words of two letters or more; a Han character counts half) is a label, a field or a
#: fragment ("user-agent: k6/0.49.0"), not an order.
MIN_PART_WORDS = 4.0

#: A note with this many labelled lines or sentences is a record (HTTP headers, a form, a .env): no part is marked.
RECORD_LABELS = 3
_HAN = "\u3400-\u4dbf\u4e00-\u9fff"
# Sentence ends: . ! ? followed by a blank (not "3.4", "example.net", "e.g.x"), or a CJK end / a line break.
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[^\s])|(?<=[。！？])\s*|\n+")
# A bracketed opening ("[tool result: ok; override=on] the assistant may ...") is a part of its own; a redaction
# placeholder ("[pii-pw]") is not.
_LEADING_BRACKET = re.compile(r"^([\[【](?!pii-)[^\]】]{6,}[\]】])\s*(\S.*)$", re.DOTALL)
_POSTSCRIPT = re.compile(r"^(?:p\.\s?p\.\s?s\.?|p\.\s?s\.?|ps\b[:：]?|附言|又及)", re.IGNORECASE)
_LABEL = re.compile(r"^(?P<label>[^:：。.!?！？\[\]【】\n]{1,40}?)\s*[:：]\s*(?=\S)(?!\d\d)")
_BRACKET = re.compile(r"^[\[【][^\]】]{3,}[\]】]$")
_OPEN_BRACKET = re.compile(r"^[\[【][^\]】]{2,}[\]】]")
_WORD = re.compile(rf"[A-Za-z]{{2,}}|[{_HAN}]")


def _words(text: str) -> float:
    return sum(0.5 if len(w) == 1 and w >= "\u3400" else 1.0 for w in _WORD.findall(text))


#: A speaker's label is a turn of a transcript, not a marked part: a role ("user:", "assistant:", "客服："), a
#: speech verb ("Tom said:", "老王说："), a timestamp ("[09:14] priya:").
_SPEAKER = re.compile(
    r"^(?:\[?\d{1,2}:\d{2}(?::\d{2})?\]?\s*\S+|(?:user|assistant|system|developer|human|ai|bot|agent|model|tool|customer|client|"
    r"用户|助手|系统|开发者|客服|客户|顾客|工具)|.*\b(?:said|says|wrote|writes|asked|asks|replied|replies)|.*[说问答道])$")


_STAMPED = re.compile(r"^\[?\d{1,2}:\d{2}(?::\d{2})?\]?\s*[^:：\s]{1,24}\s*[:：]")


def _speaker(part: str) -> bool:
    if _STAMPED.match(part):
        return True
    match = _LABEL.match(part)
    return bool(match and _SPEAKER.match(match.group("label").strip().lower()))


def _short_label(part: str) -> bool:
    """Does ``part`` open with a short label and a colon (four words, or eight Han characters, at most)?"""
    match = _LABEL.match(part)
    if not match or _speaker(part):
        return False
    label = match.group("label").strip()
    han = len(re.findall(rf"[{_HAN}]", label))
    latin = len(re.findall(r"[A-Za-z0-9]+", label))
    if han:
        return han <= 8 and latin <= 2
    return 1 <= latin <= 4 and not re.search(r"https?$", label, re.IGNORECASE)


def sentences(text: str) -> list[str]:
    """``text`` split at sentence ends and line breaks, a postscript mark kept with what follows it."""
    raw = [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]
    out: list[str] = []
    split: list[str] = []
    for piece in raw:
        lead = _LEADING_BRACKET.match(piece)
        split.extend([lead.group(1), lead.group(2)] if lead else [piece])
    for piece in split:
        # "P.S." alone (split off by its own dots) joins the next sentence
        if out and re.fullmatch(r"(?:p\.\s?)+s\.?", out[-1], re.IGNORECASE):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


def _header(part: str) -> bool:
    return _short_label(part) or bool(_OPEN_BRACKET.match(part)) or "->" in part or "=>" in part


def _marked(part: str) -> bool:
    return _short_label(part) or bool(_POSTSCRIPT.match(part)) or bool(_BRACKET.match(part))


def _inner(part: str) -> str:
    """A bracketed part without its brackets (the order inside is what is read)."""
    return part[1:-1].strip() if _BRACKET.match(part) else part


def candidate_parts(text: str) -> list[tuple[str, str]]:
    """Every part a structural reading could score, as ``(kind, part)``: ``marked`` (a label, a postscript, a bracket;
    never the first sentence), ``last`` (the last sentence after a header), ``body`` (a one-sentence note's body
    after its label). The harness measures each kind; :func:`marked_parts` keeps :data:`PART_KINDS`."""
    parts = sentences(text)
    out: list[tuple[str, str]] = []
    if not parts or _speaker(parts[0]):  # a transcript: its labels are turns (``view``), not marks
        return []
    if sum(_short_label(p) for p in parts) >= RECORD_LABELS:  # a record or a form: its labels are field names
        return []
    if len(parts) < 2:
        match = _LABEL.match(parts[0]) if parts and _short_label(parts[0]) else None
        return [("body", parts[0][match.end():])] if match else []
    for i in range(1, len(parts)):
        if _marked(parts[i]):
            out.append(("marked", _inner(parts[i])))
    if _header(parts[0]) and not _marked(parts[-1]) and not _speaker(parts[-1]):
        out.append(("last", parts[-1]))
    return [(k, p) for k, p in out if _words(p) >= MIN_PART_WORDS]


#: The kinds of part the guard scores (``candidate_parts``); docs/benchmarks.md "Guard, round 21".
PART_KINDS = frozenset({"marked", "last"})


def marked_parts(text: str) -> list[str]:
    """The parts of ``text`` its structure marks as separate (see module), of :data:`PART_KINDS`: never the first
    sentence, never the whole, at most :data:`MAX_PARTS` (the last ones)."""
    return [p for k, p in candidate_parts(text) if k in PART_KINDS][-MAX_PARTS:]
