"""What the redactor left as an opaque token, read by the classifier as its type (round 45, issue 10).

The write path redacts first, then judges intent on the redacted text. A public identifier the redactor rightly
leaves in place - a payment intent ``pi_3NkQ2L2eZvKYlo2C1a9XbR4T``, a customer ``cus_Pq8Lm2Xz9Vb4Np``, a chain
transaction hash ``0x7f3e...``, a UUID - is a long run of random characters, and the sentence vector of a note that
holds one sits nearer the encoded payloads of attacks: blind r39's Stripe note scores 0.79 as written and 0.21 with
the ids shortened, its hash note 0.61 and 0.40 (docs/benchmarks.md "Guard, round 45"). ``model_text`` gives the
classifier the text with each such token written as ``STAND_IN``; rules, readings and thresholds read the text as
written. ``ON = False``: the classifier reads the text as written (main before round 45) - measured, NOT shipped: held
out it stores 11 look-alikes but quarantines 4 others and stores 3 released attacks (two hex-encoded orders, a
look-alike domain), and the rule allows no attack lost.
"""

from __future__ import annotations

import re

from hindsight.safety.validators import looks_random

ON = False
#: what an opaque token reads as (chosen on blind r39 among ``[id]``, ``<id>``, ``pi_…``, ``ID``)
STAND_IN = "ID"
#: a run of >= 16 identifier characters, or a 0x hex string of >= 24 hex digits, not inside a longer word
_TOKEN = re.compile(r"(?<![A-Za-z0-9_\-])(?:0x[0-9a-fA-F]{24,}|[A-Za-z0-9_\-]{16,})(?![A-Za-z0-9_\-])")
_HEX = re.compile(r"0x[0-9a-fA-F]{24,}")


def _opaque(token: str) -> bool:
    """A hex string, or a random-looking run with at least three letters and three digits (not a hyphenated name)."""
    if _HEX.fullmatch(token):
        return True
    digits = sum(ch.isdigit() for ch in token)
    letters = sum(ch.isalpha() for ch in token)
    return digits >= 3 and letters >= 3 and looks_random(token, 16)


def opaque_tokens(text: str) -> list[str]:
    """The opaque tokens of ``text``, in order."""
    return [m.group(0) for m in _TOKEN.finditer(text) if _opaque(m.group(0))]


def model_text(text: str) -> str:
    """``text`` with each opaque token written as ``STAND_IN`` (the text itself when it holds none)."""
    return _TOKEN.sub(lambda m: STAND_IN if _opaque(m.group(0)) else m.group(0), text)
