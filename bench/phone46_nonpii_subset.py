"""Redaction round 46 (phone46): the non-PII texts (bench/redaction26_nonpii.py's set, no round held back) that the two
pieces shipped ON can touch, redacted by one source tree. A text outside the subset takes the same path as on main:
``redact_spoken_phones`` finds nothing without a run of English digit words, and ``redact_phonelib.ID_NOUN_VETO``
drops a phone only after an order / invoice / build noun or "Nr." / "n°" / "#" (``_ID_NOUN`` / ``_NUMBER_SIGN``);
with ``redact_phonelib.ON`` False nothing else differs from the split tree (its own full run).

    PYTHONPATH=<src> .venv/bin/python bench/phone46_nonpii_subset.py OUT.json
"""
import json
import re
import sys

from pii35_nonpii import texts as all_texts

from hindsight.safety.redact import redact

_SPOKEN = re.compile(r"(?i)\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b"
                     r"(?:(?:\s*[,-]\s*|\s+)(?:(?:double|triple)\s+)?(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b){2,}")
_NOUN = re.compile(r"(?i)order|invoice|inv\b|ref|tracking|serial|build|version|release|ticket|case|booking|confirmation|"
                   r"policy|isbn|issn|sku|item|receipt|transaction|txn|bestell|rechnung|auftrag|kunden|commande|facture|"
                   r"pedido|factura|ordine|fattura|patch|kb|no\.|nr|n[°º]|#|订单|单号|发票|编号|型号|版本|序列号|批次|流水号|工单")


def main() -> None:
    texts = all_texts()  # pii35_nonpii's reader: every released guard / hygiene / retrieval text, once
    subset = [t for t in texts if _SPOKEN.search(t) or (_NOUN.search(t) and re.search(r"\d", t))]
    print(len(texts), "texts,", len(subset), "in the subset", file=sys.stderr)
    json.dump({t: redact(t).text for t in subset}, open(sys.argv[1], "w"), ensure_ascii=False)


if __name__ == "__main__":
    main()
