"""Is there anything for the guard's classifier to judge (split out of ``guard.py``, write cost round 37)?

``consults_classifier`` is the guard's cheap text gate: a rule vote, a sensitive topic (:mod:`rules`), the framing
gate (:mod:`features`) or a sentence's worth of words (a listing of pinned package versions is not one). A text it
leaves shut is stored without an embedding read. ``long_text_windows`` is which windows of a long text are scored
(:mod:`long_text`), for the runtime and the training harness alike.
"""

from __future__ import annotations

import re

from hindsight.safety.features import framing_gate
from hindsight.safety.long_text import windows
from hindsight.safety.normalize import prepare
from hindsight.safety.rules import RuleHit, touches_sensitive_topic

#: Texts of at least this many words (a CJK character counts half) always reach the classifier: a topic
#: lexicon cannot list every wording of a harmful lesson (captcha solving, ``Action: *``, pinyin), and the
#: classifier is what generalises. Shorter ones (tags, labels, one-liners) need a rule vote or a sensitive topic.
OPEN_GATE_WORDS = 6
_WORD = re.compile(r"[a-z0-9]+|[\u3400-\u9fff]")


def _words(normalised: str) -> float:
    return sum(0.5 if len(w) == 1 and w >= "\u3400" else 1.0 for w in _WORD.findall(normalised))


def _window_gate(normalised: str) -> bool:
    """Is a window of a long text worth its own score beyond the evenly spaced ones (attack round 21)? The cheap
    text gate of ``consults_classifier`` without its length clause (every window has a sentence's worth of words)."""
    return touches_sensitive_topic(normalised) or framing_gate(normalised)


def long_text_windows(text: str) -> list[str]:
    """The windows the guard scores of a long text (``long_text.windows`` with ``_window_gate``): what the runtime
    reads, for the training harness (``scripts/guard_long_windows.py``) to read the same."""
    return windows(text, lambda window: _window_gate(prepare(window).text))


#: Round 32: a listing of pinned package versions under a short label ("pip freeze: requests==2.31.0, urllib3==1.26.18",
#: "requirements: numpy>=1.26.4", "npm ls: react@18.2.0 vue@3.4.21") is no sentence: its version parts are not words.
_PIN_LABEL = re.compile(r"(?:[\w.-]+\s+){0,3}[\w.-]+\s*[:：]")
_PIN = re.compile(r"@?[a-z][\w./-]{0,60}(?:===?|>=|<=|~=|!=|@)v?\d{1,6}(?:\.\w{1,12}){1,4}")
_PIN_LIST_MAX = 400


def consults_classifier(normalised: str, hits: list[RuleHit]) -> bool:
    """Is there anything for the classifier to judge? A rule vote, a sensitive topic, or a sentence's worth of text
    (a listing of pinned versions is not one: ``_pin_list``).

    Encouragement like "Remember, never give up!" shares the imperative register of a planted order; what it
    lacks is anything to escalate, expose or pay, and the classifier (not the gate) decides that.
    """
    return (bool(hits) or touches_sensitive_topic(normalised) or framing_gate(normalised)
            or (_words(normalised) >= OPEN_GATE_WORDS and not _pin_list(normalised)))


def _pin_list(normalised: str) -> bool:
    """A short label and then nothing but two or more pinned versions (``_PIN``), each item read on its own."""
    label = _PIN_LABEL.match(normalised.strip()) if len(normalised) <= _PIN_LIST_MAX else None
    if label is None:
        return False
    items = [item for item in re.split(r"[,;，；\s]+", normalised.strip()[label.end():]) if item]
    return len(items) >= 2 and all(_PIN.fullmatch(item) for item in items)
