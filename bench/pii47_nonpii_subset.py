"""Redaction round 47 (pii47): the non-PII texts (bench/redaction26_nonpii.py's set, no round held back) that the four
readers this round changed can touch, redacted by one source tree. Each changed reader needs its trigger in the text
as the finders see it (the stored text, its folded form - full-width letters and digits read as ASCII - or a spoken
number read as digits): ``redact_passwords._URL_CREDENTIALS`` a "://"; ``redact_phones._INTL_FORM`` a "00" or a
bracket before digits; ``redact_window._NAMED_LONG`` 卡 / card and a run of 13 or more digits; ``redact_documents.
_NAMED_NUMBER`` a document cue (``redact_cues.DOC_CUE``). A text with none of them takes main's path in every finder.
Spoken numbers are taken whole: any run of three English digit words or four Chinese numerals joins the subset.

    PYTHONPATH=<src> .venv/bin/python bench/pii47_nonpii_subset.py OUT.json
"""
import json
import re
import sys

from pii35_nonpii import texts as all_texts

from hindsight.safety.redact import redact
from hindsight.safety.redact_cues import DOC_CUE
from hindsight.safety.redact_fold import fold_for_finders

_SPOKEN = re.compile(r"(?i)\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|double|triple)\b"
                     r"(?:[\s,-]+(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|double|triple)\b){2,}|"
                     r"[零〇一二三四五六七八九幺两]{4,}")
_DOC = re.compile(DOC_CUE)
_CARD = re.compile(r"(?i)卡|card")


def touched(text: str) -> bool:
    folding = fold_for_finders(text)
    for t in (text, folding[0] if folding else text):
        if "://" in t or re.search(r"00\d|\(\+?\d", t) or _DOC.search(t):
            return True
        if _CARD.search(t) and re.search(r"\d{13}", t):
            return True
    return bool(_SPOKEN.search(text))


def main() -> None:
    texts = all_texts()  # the non-PII texts as redaction26_nonpii.py reads them
    subset = [t for t in texts if touched(t)]
    print(len(texts), "texts,", len(subset), "in the subset", file=sys.stderr)
    json.dump({t: redact(t).text for t in subset}, open(sys.argv[1], "w"), ensure_ascii=False)


if __name__ == "__main__":
    main()
