"""A mnemonic seed phrase quoted or bounded whole, its wallet named earlier in the line (redaction rounds 39 - 40).

``redact_shapes`` reads a phrase right after its cue ("seed phrase: ...", "my Ledger words, all 24: ..."). People also
name the wallet first and quote the words later in the same sentence or line: "I wrote the bitcoin wallet words on the
back of the catalogue, here they are in case it gets lost: 'anchor bronze ... tonic'", "比特币钱包的那张纸找不到了，我抄了一份
放这里：“...”". Here a quoted run of exactly 12, 15, 18, 21 or 24 lower-case words of 3 - 8 letters, none of them a
function word that fills an English sentence (a BIP-39 list has almost none), is a private key when a seed or wallet
cue stands before it on its line (at most 200 characters back). Round 40: the run written without quotes counts too
when it stands bounded as a whole (after a colon, "is", 是 or alone on its line, ending its sentence or line); a run
alone on its line may have its cue on the line before. Round 44 (blind r39): the run numbered word by word ("It reads: 1
marble 2 wheat ... 12 blossom"), the numbers counting 1, 2, 3 ... up to a phrase's length, is the phrase wherever it
stands in its line. Linear: three bounded patterns, one bounded look back each.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_shapes import _PROSE_WORD, _SEED_CUE, _WALLET_SEED_CUE

Span = tuple[str, int, int]

_QUOTED_WORDS = re.compile(r"(?:'|\"|“|‘|「)(?P<value>[a-z]{3,8}(?: [a-z]{3,8}){11,23})(?:'|\"|”|’|」)")
# Round 40: the same run written without quotes, bounded as a whole - after a colon, "is" / "are" / 是 or at a line's
# start, and ending the sentence or the line - with the cue on its line or the line before.
_BARE_WORDS = re.compile(r"(?:[:：]|\b(?:is|are)\b|是|^)[ \t]*(?P<value>[a-z]{3,8}(?: [a-z]{3,8}){11,23})"
                         r"(?=[ \t]*(?:$|[.,;!，。；！]))", re.MULTILINE)
# Round 44: each word after its number ("1 marble 2 wheat", "1. marble, 2. wheat", "1) marble"); the numbers are checked.
_NUMBERED_WORDS = re.compile(r"(?<![\w.])(?P<value>1[.):]?[ \t]+[a-z]{3,8}(?:[ \t]*+(?:[,;][ \t]*+)?(?:\n[ \t]*+)?\d{1,2}[.):]?[ \t]++[a-z]{3,8}+){11,23})"
                             r"(?![a-z]|[ \t]*+\d)")
_COUNTS = frozenset({12, 15, 18, 21, 24})


def _counts_up(value: str) -> bool:
    """The numbers before the words run 1, 2, 3 ... and there are as many as a phrase has words."""
    numbers = [int(n) for n in re.findall(r"\d+", value)]
    return len(numbers) in _COUNTS and numbers == list(range(1, len(numbers) + 1))
_LOOK_BACK = 200


def find_quoted_seeds(text: str) -> list[Span]:
    """Mnemonic phrases, quoted or bounded whole, whose line names a seed or a wallet before them."""
    out: list[Span] = []
    numbered = [(False, n) for n in _NUMBERED_WORDS.finditer(text) if _counts_up(n.group("value"))]
    for bare, m in [(False, q) for q in _QUOTED_WORDS.finditer(text)] + [(True, b) for b in _BARE_WORDS.finditer(text)] + numbered:
        value = re.sub(r"\d+[.):]?", " ", m.group("value"))
        if len(value.split()) not in _COUNTS or _PROSE_WORD.search(value):
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        if bare and not text[line_start : m.start("value")].strip():  # a phrase on a line of its own: its cue before
            line_start = text.rfind("\n", 0, max(0, line_start - 1)) + 1
        lo = max(line_start, m.start() - _LOOK_BACK)
        if _SEED_CUE.search(text, lo, m.start()) or _WALLET_SEED_CUE.search(text, lo, m.start()):
            out.append(("private_key", *m.span("value")))
    return out
