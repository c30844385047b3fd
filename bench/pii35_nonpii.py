"""Redaction round 35: the released non-PII texts (every guard, hygiene and retrieval text, as
``redaction26_nonpii.py`` reads them) that round 35's readings could touch, redacted with one source tree.

    PYTHONPATH=src .venv/bin/python bench/pii35_nonpii.py select CANDIDATES.json
    PYTHONPATH=<main src> .venv/bin/python bench/pii35_nonpii.py redact CANDIDATES.json MAIN.json
    PYTHONPATH=src .venv/bin/python bench/pii35_nonpii.py redact CANDIDATES.json BRANCH.json
    PYTHONPATH=src .venv/bin/python bench/pii34_nonpii_diff.py MAIN.json BRANCH.json OUT.json

``select`` keeps every text holding a word any of the round's readings needs (a superset: a password word, a secret
half's label on a text with a line break, an ID card's cue, a unit / building word or a home label, a Wi-Fi word, a
VIN's cue or a 17-character VIN shape), read on the text and on its look-alike-folded form. A text without any of them
is redacted alike by main and the branch, so the two side-by-side runs need only the candidates (the machine was
shared by ~8 jobs; the full 92,712-text run takes about an hour a side there).
"""
import glob
import json
import re
import sys

_WORDS = re.compile(
    r"(?i)密码|口令|password|passcode|passphrase|passwd|身份证|身分|证件号|\bid\s+card|national\s+id|resident\s+id|"
    r"\b(?:room|rm|flat|apt|apartment|unit|suite|building|bldg|block|blk|tower)\b|home\s+address|residential\s+address|"
    r"residence|\blives?\s+at|living\s+at|resides\s+at|wi-?fi|wlan|hotspot|无线|热点|\bvin\b|车架号|车辆识别|"
    r"(?<![A-Za-z0-9])[A-HJ-NPR-Z0-9]{17}(?![A-Za-z0-9])"
)
_LINES = re.compile(r"(?i)secret|\bsk\b|密钥|秘钥")


def texts() -> list[str]:
    out = []
    for f in sorted(glob.glob("bench/data/blind/*/guard/set.jsonl") + glob.glob("bench/data/train/*/guard/set.jsonl")
                    + glob.glob("bench/data/blind/*/hygiene/set.jsonl") + glob.glob("bench/data/train/*/hygiene/set.jsonl")
                    + glob.glob("bench/data/blind/*/retrieval/memories.jsonl")):
        for line in open(f, encoding="utf-8"):
            if not line.strip():
                continue
            r = json.loads(line)
            for k in ("text", "content", "old", "new", "a", "b", "existing"):
                if isinstance(r.get(k), str):
                    out.append(r[k])
            out.extend(o for o in r.get("others", []) or [] if isinstance(o, str))
    return sorted(set(out))


def _candidate(text: str) -> bool:
    from hindsight.safety.redact_fold import fold_for_finders

    folding = fold_for_finders(text)
    for t in (text, folding[0] if folding else ""):
        if _WORDS.search(t) or ("\n" in t and _LINES.search(t)):
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
