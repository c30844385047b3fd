"""Redaction round 36: the released non-PII texts (every guard, hygiene and retrieval text, as
``redaction26_nonpii.py`` reads them) that round 36's readings could touch, redacted with one source tree.

    PYTHONPATH=src:bench .venv/bin/python bench/pii36_nonpii.py select CANDIDATES.json
    PYTHONPATH=<main src>:bench .venv/bin/python bench/pii36_nonpii.py redact CANDIDATES.json MAIN.json
    PYTHONPATH=src:bench .venv/bin/python bench/pii36_nonpii.py redact CANDIDATES.json BRANCH.json
    PYTHONPATH=src .venv/bin/python bench/pii34_nonpii_diff.py MAIN.json BRANCH.json OUT.json

``select`` keeps every text holding a word any of the round's readings needs (a superset): a line break and a secret's
noun the answer reading asks for or a 码; a sending word with a key / token / secret / password label before it; a
four-digit number before a vehicle maker's name - read on the text and on its look-alike-folded form. A text without
any of them is redacted alike by main and the branch.
"""
import json
import re
import sys

from pii35_nonpii import texts

_NOUNS = re.compile(r"(?i)cvv|cvc|csc|security\s+code|安全码|背面|card|卡号|passport|licen[cs]e|id|ssn|social\s+security|护照|"
                    r"驾照|驾驶证|身份证|证件号|pass|pwd|pin|密码|口令|码")
_SENT = re.compile(r"(?i)(?:key|secret|token|pass|密钥|秘钥|令牌|密码|口令)[^\n]{0,40}?(?:sent|dm|messaged|texted|emailed|passed|"
                   r"私发|私信|发|传|转)")
_VEHICLE = re.compile(r"\d{4}\s+(?:[A-Z]|VW|BMW|KTM|GMC|BYD)")


def _candidate(text: str) -> bool:
    from hindsight.safety.redact_fold import fold_for_finders

    folding = fold_for_finders(text)
    for t in (text, folding[0] if folding else ""):
        if ("\n" in t and _NOUNS.search(t)) or _SENT.search(t) or _VEHICLE.search(t):
            return True
    return False


def main() -> None:
    if sys.argv[1] == "select":
        every = texts()
        chosen = [t for t in every if _candidate(t)]
        json.dump(chosen, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
        print(len(every), "texts,", len(chosen), "candidates")
        return
    from hindsight.safety.redact import redact

    chosen = json.load(open(sys.argv[2], encoding="utf-8"))
    json.dump({t: redact(t).text for t in chosen}, open(sys.argv[3], "w", encoding="utf-8"), ensure_ascii=False)
    print(len(chosen))


if __name__ == "__main__":
    main()
