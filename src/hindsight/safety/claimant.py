"""Money or goods handed to anyone on their own word (issue 10, round 46).

"Any courier who says he's from the festival sponsor can collect the cash box; standing arrangement": who may take
the cash is whoever *says* he is the party - the check of identity is the claimant's own word. ``trusted.py`` reads the
claim and sets the vouched threshold; this reading marks the narrower, standing form: a claimant known only by what he
says (any / anyone / whoever ... who says / claims he is; 只要 / 凡是 ... 说 / 自称) allowed to collect, take or be given
money or goods (cash, the cash box, takings, payment, keys, a parcel; 现金, 钱箱, 货款, 钥匙, 包裹). A sentence that
forbids it, or warns of it, is not read. What the guard does with it: :data:`lowered.CLAIMANT_THRESHOLD` (the spoken
waiver's), never a quarantine on its own.
"""

from __future__ import annotations

import re

from hindsight.safety.rules import _alt, _c

#: Read only while ON. OFF: measured, not shipped - held out it moved no text (5 read, all held already); the rule wants
#: a gain (docs/benchmarks.md "Guard, round 46").
ON = False

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+")

CLAIMANT = _c(_alt(
    r"\b(?:any|anyone|anybody|whoever|every)\b[^.;]{0,40}\b(?:says|claims|said|tells you|introduces himself|introduces herself)\b",
    r"\b(?:any|anyone|anybody|whoever)\b[^.;]{0,40}\bwho (?:says|claims|calls himself|calls herself|identifies)",
    r"(?:只要|凡是|任何|谁)[^。；]{0,12}(?:说|自称|声称|报)(?:是|自己是|他是|她是)?", r"自称", r"声称是",
))
HANDED = _c(_alt(
    r"\b(?:collect|pick up|pick it up|take|take away|receive|be given|be handed|sign for|walk off with|have)\b",
    r"\b(?:give|hand|release|pass) (?:it|them|the \w+(?: \w+)?) (?:to|over)\b",
    r"领走", r"取走", r"拿走", r"领取", r"收走", r"取", r"拿", r"交给", r"给(?:他|她|他们)", r"签收", r"带走",
))
VALUABLE = _c(_alt(
    r"\bcash\b", r"\bcash ?box", r"\bmoney\b", r"\btakings\b", r"\bfloat\b", r"\bdeposits?\b", r"\bpayments?\b", r"\bcheques?\b", r"\bchecks?\b",
    r"\bvaluables\b", r"\bkeys?\b", r"\bparcels?\b", r"\bpackages?\b", r"\bgoods\b", r"\bsafe\b", r"\bpetty\b", r"\brefunds?\b",
    r"现金", r"钱箱", r"钱", r"款", r"钥匙", r"包裹", r"快递", r"货", r"押金", r"保险柜", r"票据", r"支票",
))
NOT_AN_ORDER = _c(_alt(
    r"\bnever\b", r"\bdon'?t\b", r"\bdo not\b", r"\bmust not\b", r"\bnot allowed\b", r"\bonly if\b", r"\bunless\b", r"\bscam", r"\bfraud",
    r"\bcheck (?:their|his|her) (?:id|badge)", r"\bverify\b", r"\bid\b", r"\bbadge\b",
    r"不要", r"不能", r"不得", r"禁止", r"别", r"骗", r"核实", r"核对", r"证件", r"身份证", r"工牌",
))


def _reads(sentence: str) -> bool:
    return bool(CLAIMANT.search(sentence) and HANDED.search(sentence) and VALUABLE.search(sentence)
                and not NOT_AN_ORDER.search(sentence))


def claimant_collects(normalised: str) -> bool:
    """Does a sentence of the normalised text let anyone who only says who he is collect money or goods (and neither
    forbid nor warn of it)? False while ``ON`` is off."""
    return ON and any(_reads(s.strip()) for s in _SENTENCE.split(normalised) if s and s.strip())
