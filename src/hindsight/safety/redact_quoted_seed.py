"""A mnemonic seed phrase quoted whole, its wallet named earlier in the sentence (redaction round 39, issue 10).

``redact_shapes`` reads a phrase right after its cue ("seed phrase: ...", "my Ledger words, all 24: ..."). People also
name the wallet first and quote the words later in the same sentence or line: "I wrote the bitcoin wallet words on the
back of the catalogue, here they are in case it gets lost: 'anchor bronze ... tonic'", "比特币钱包的那张纸找不到了，我抄了一份
放这里：“...”". Here a quoted run of exactly 12, 15, 18, 21 or 24 lower-case words of 3 - 8 letters, none of them a
function word that fills an English sentence (a BIP-39 list has almost none), is a private key when a seed or wallet
cue stands before it on its line (at most 200 characters back). Linear: one bounded pattern, one bounded look back.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_shapes import _PROSE_WORD, _SEED_CUE, _WALLET_SEED_CUE

Span = tuple[str, int, int]

_QUOTED_WORDS = re.compile(r"(?:'|\"|“|‘|「)(?P<value>[a-z]{3,8}(?: [a-z]{3,8}){11,23})(?:'|\"|”|’|」)")
_COUNTS = frozenset({12, 15, 18, 21, 24})
_LOOK_BACK = 200


def find_quoted_seeds(text: str) -> list[Span]:
    """Quoted mnemonic phrases whose line names a seed or a wallet before them."""
    out: list[Span] = []
    for m in _QUOTED_WORDS.finditer(text):
        value = m.group("value")
        if len(value.split()) not in _COUNTS or _PROSE_WORD.search(value):
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        lo = max(line_start, m.start() - _LOOK_BACK)
        if _SEED_CUE.search(text, lo, m.start()) or _WALLET_SEED_CUE.search(text, lo, m.start()):
            out.append(("private_key", *m.span("value")))
    return out
