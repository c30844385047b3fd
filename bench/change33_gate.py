"""change33 (issue 10): a gate on the change verdict - does the new text state a new value of the attribute the
older memory states? - read as clause alignment (measured in bench only; `docs/benchmarks.md` "Hygiene, round 33b").

A retirement stands when the new text names a value the older one holds and says it leaves it
(`supersede.departed_terms` held by the older text), or when a clause of the new text that carries a change cue
(`CUES`) shares at least `min_shared` attribute words with the older text (`shared_attribute.shared`: words besides
the subject's name and the dates). It is gated (kept and linked) when the new text's change cues all sit in clauses
about something else. A new text with no change cue in any clause is not gated (the judge's own reading stands).
`unit`: the new text's clauses (`value_align.clauses`) or also each two neighbouring ones (`value_align.spans`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from hindsight.retrieval.currency import states_change
from hindsight.write.clause_split import clauses, spans
from hindsight.write.shared_attribute import shared
from hindsight.write.supersede import change_signalled, departed_in, departed_terms, explicit_change

CUES: dict[str, Callable[[str], bool]] = {"signalled": change_signalled, "explicit": explicit_change,
                                          "states": states_change}
UNITS: dict[str, Callable[[str], tuple[str, ...]]] = {"clause": clauses, "span": spans}


@dataclass(frozen=True)
class Gate:
    cue: str
    unit: str
    min_shared: int

    @property
    def name(self) -> str:
        return f"{self.cue}/{self.unit}/{self.min_shared}"


VARIANTS = [Gate(c, u, k) for c in CUES for u in UNITS for k in (1, 2)]


@lru_cache(maxsize=200_000)
def reading(old: str, new: str, cue: str, unit: str, min_shared: int) -> str:
    """"held" (the new text leaves a value the old one holds), "nocue", "same" (a cue clause shares the old text's
    attribute) or "other" (every cue clause is about something else)."""
    if departed_in(old, departed_terms(new)):
        return "held"
    cued = [s for s in UNITS[unit](new) if CUES[cue](s)]
    if not cued:
        return "nocue"
    return "same" if any(len(shared(old, s)) >= min_shared for s in cued) else "other"


def gated(gate: Gate | None, old: str, new: str) -> bool:
    """Whether `gate` keeps `old` (a change verdict's retirement is undone); None: main, nothing gated."""
    return gate is not None and reading(old, new, gate.cue, gate.unit, gate.min_shared) == "other"
