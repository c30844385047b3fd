"""The released hygiene rows whose texts hold a Chinese clock hour the number reader now reads as a clock time
(round 14b: 10点 / 下午3点 -> 10:00 / 下午3:00): any text of the row (`others`, `existing`, `new`) that
`lexicon.normalise_numbers` writes differently with the hour reading (`numbers._ZH_HOUR`) on and off.

    PYTHONPATH=src:bench python bench/currency14b_rows.py rows.json      # then: bench/hygiene_rows.py rows.json OUT.json, main and branch
"""
import json
import re
import sys

from currency14_rows import released_rows

from hindsight.write import numbers
from hindsight.write.lexicon import normalise_numbers


def reads(texts: list[str]) -> bool:
    on = [normalise_numbers(t) for t in texts]
    saved, numbers._ZH_HOUR = numbers._ZH_HOUR, re.compile(r"(?!x)x")
    try:
        return on != [normalise_numbers(t) for t in texts]
    finally:
        numbers._ZH_HOUR = saved


sel = [[f, i] for f, i, texts in released_rows() if reads(texts)]
json.dump(sel, open(sys.argv[1], "w"))
print(len(sel), "rows")
