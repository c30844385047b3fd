"""CPU cost of the number / unit / time readers on a crafted run, at n and 10n characters (security: attack round 7).

    PYTHONPATH=src python bench/number_reader_cost.py [--n 500] [--only read_numbers,quantities] [--shapes digits,zh]

Each reader a write or a search reaches with a memory's text (the hygiene judge's number readings, the same-fact
and value readings, the read-side currency rule, the query parser) is timed on "Scratch files note K: <run> (end)"
where the run is one shape repeated to n and to 10n characters: a run of one digit, of one Chinese numeral, of a
fullwidth digit, and the mixed runs "1,1,1", "1.1.1", "1 1 1", "1:1:1", "1-1-1", "one one one". CPU time of this
process, best of two, a fresh text each call (the readers cache by text); a pair reader reads (a short statement,
the crafted text). Prints one row per reader: the 10n / n ratio per shape (linear: about 10; a reader that starts a
match at every position of the run and scans the rest of it: about 100), and the worst 10n time in seconds.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable

from hindsight.retrieval.query_parser import parse_query
from hindsight.retrieval.slot_cues import _same_unit, anchors
from hindsight.retrieval.turn_features import names_time
from hindsight.text.tokenize import query_terms, tokenize
from hindsight.write.amounts import quantities
from hindsight.write.analysis import analyse, units
from hindsight.write.conversions import amounts, normalised, written_alike
from hindsight.write.lexicon import normalise_numbers
from hindsight.write.numbers import read_numbers, read_zh_clock_parts
from hindsight.write.quantity_forms import EVERY_FAMILY, align_forms, mentions
from hindsight.write.renumber import number_replaced
from hindsight.write.same_fact import agreement
from hindsight.write.slot_value import replaced_value
from hindsight.write.supersede import departed_terms
from hindsight.write.value_align import value_change
from hindsight.write.value_canon import canonical_values
from hindsight.write.value_forms import read_values
from hindsight.write.value_gate import gate_reason

SHAPES = {"digits": "7", "zh": "一", "fullwidth": "７", "comma": "1,", "dot": "1.", "space": "1 ", "colon": "1:",
          "hyphen": "1-", "words": "one "}
SHORT = "The gate code is 1234 and the fee is $40 per person."

#: (name, reader of one text); a pair reader reads (SHORT, text)
READERS: dict[str, Callable[[str], object]] = {
    "numbers.read_numbers": read_numbers,
    "numbers.read_zh_clock_parts": read_zh_clock_parts,
    "lexicon.normalise_numbers": normalise_numbers,
    "amounts.quantities": quantities,
    "analysis.units": units,
    "conversions.normalised": normalised,
    "conversions.amounts": amounts,
    "quantity_forms.mentions": lambda t: mentions(t, EVERY_FAMILY),
    "value_forms.read_values": read_values,
    "value_canon.canonical_values": canonical_values,
    "supersede.departed_terms": departed_terms,
    "tokenize.tokenize": tokenize,
    "tokenize.query_terms": query_terms,
    "turn_features.names_time": names_time,
    "query_parser.parse_query": lambda t: parse_query(t, _NOW),
    "analysis.analyse (pair)": lambda t: analyse(SHORT, t),
    "conversions.written_alike (pair)": lambda t: written_alike(SHORT, t),
    "quantity_forms.align_forms (pair)": lambda t: align_forms(SHORT, t),
    "renumber.number_replaced (pair)": lambda t: number_replaced(SHORT, t),
    "slot_value.replaced_value (pair)": lambda t: replaced_value(SHORT, t),
    "value_align.value_change (pair)": lambda t: value_change(SHORT, t),
    "same_fact.agreement (pair)": lambda t: agreement(SHORT, t),
    "value_gate.gate_reason (pair)": lambda t: gate_reason(SHORT, t),
    "currency.anchors (pair)": lambda t: anchors(SHORT, t),
    "currency._same_unit (pair)": lambda t: _same_unit(SHORT, t),
}

_NOW = __import__("datetime").datetime(2026, 12, 5, tzinfo=__import__("datetime").UTC)
_FRESH = itertools.count()


def crafted(unit: str, size: int) -> str:
    """A crafted memory: a run of `unit` of `size` characters, in a fresh text (no reader's cache answers it)."""
    return f"Scratch files note {next(_FRESH)}: " + (unit * size)[:size] + " (end)"


def cpu(reader: Callable[[str], object], unit: str, size: int) -> float:
    best = float("inf")
    for _ in range(2):
        text = crafted(unit, size)
        start = time.process_time()
        reader(text)
        best = min(best, time.process_time() - start)
    return best


def ratio(reader: Callable[[str], object], unit: str, n: int) -> tuple[float, float]:
    """(10n / n CPU ratio, CPU seconds at 10n); a floor of 0.2 ms at n keeps a near-free reader's ratio honest."""
    small, big = cpu(reader, unit, n), cpu(reader, unit, 10 * n)
    return big / max(small, 2e-4), big


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--only", default="", help="comma-separated substrings of reader names")
    ap.add_argument("--shapes", default=",".join(SHAPES))
    args = ap.parse_args()
    shapes = args.shapes.split(",")
    for reader in READERS.values():  # load lazy tables (cn2an, text2num, jieba) before timing
        reader(crafted("1", 50))
    print(f"n = {args.n}, 10n = {10 * args.n}; 10n / n CPU ratio per shape (linear ~10), worst 10n seconds")
    print("| reader | " + " | ".join(shapes) + " | worst 10n s |")
    print("|---|" + "---|" * (len(shapes) + 1))
    for name, reader in READERS.items():
        if args.only and not any(part in name for part in args.only.split(",")):
            continue
        cells, worst = [], 0.0
        for shape in shapes:
            r, big = ratio(reader, SHAPES[shape], args.n)
            worst = max(worst, big)
            cells.append(f"**{r:.0f}**" if r > 30 else f"{r:.0f}")
        print(f"| {name} | " + " | ".join(cells) + f" | {worst:.2f} |", flush=True)


if __name__ == "__main__":
    main()
