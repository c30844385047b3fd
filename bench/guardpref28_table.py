"""Tables of round 28's preference census (issue 10): what the write path quarantines of the released retrieval
memories, per round and language, and which classifier-gate lexicon rows fired for the flagged ones; the same rows for
the standing-order-as-preference attacks; and the rows the preference reading moved (main vs branch).

    PYTHONPATH=src .venv/bin/python bench/guardpref28_table.py --scan /tmp/guardpref28/dev.jsonl /tmp/guardpref28/r27.jsonl \
        --attacks /tmp/guardpref28/sop.jsonl --main /tmp/guardpref28/read_main.jsonl --branch /tmp/guardpref28/read_branch.jsonl \
        --json bench/results/guardpref28.json

``--scan`` / ``--attacks``: ``bench/guardpref28_scan.py`` outputs (main's code); ``--main`` / ``--branch``: the rows the
reading reads (``preference.states_preference`` on the normalised text), screened by ``bench/guardfp28_scan.py scan
--only`` with main's and this branch's code.
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path
from typing import Any

from hindsight.safety import features as f
from hindsight.safety.guard import HARD_RULE_IDS
from hindsight.safety.normalize import normalize_for_screening

LEXICONS = {"destructive": f.DESTRUCTIVE, "credential": f.CREDENTIAL, "exposure": f.EXPOSURE, "payment": f.PAYMENT,
            "loosen": f.LOOSEN, "approval": f.APPROVAL, "trust": f.TRUST, "authority": f.AUTHORITY,
            "preference": f.PREFERENCE, "persist": f.PERSIST}
GATE = ("payment", "exposure", "trust", "credential", "loosen", "authority")


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _cause(r: dict[str, Any]) -> str:
    if r["hard"]:
        return "hard"
    return "part" if any("part:" in x for x in r["reasons"]) else "classifier"


def _lexicons(rows: list[dict[str, Any]]) -> dict[str, int]:
    out: collections.Counter[str] = collections.Counter()
    for r in rows:
        t = normalize_for_screening(r["red"])
        hit = [n for n, p in LEXICONS.items() if p.search(t)]
        out.update(hit)
        out["gate (any of " + "/".join(GATE) + ")"] += any(n in GATE for n in hit)
        out["none of the 7 (destructive..trust)"] += not any(n in hit for n in list(LEXICONS)[:7])
        out["rule votes"] += bool(set(r["rules"]) - HARD_RULE_IDS)
    return dict(sorted(out.items()))


def census(scan: list[dict[str, Any]]) -> dict[str, Any]:
    per: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    lang: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for r in scan:
        per[r["round"]][0] += int(r["flag"])
        per[r["round"]][1] += 1
        lang[r["lang"]][0] += int(r["flag"])
        lang[r["lang"]][1] += 1
    flagged = [r for r in scan if r["flag"]]
    return {"per_round": dict(per), "per_lang": dict(lang),
            "causes": dict(collections.Counter(_cause(r) for r in flagged)),
            "scores": sorted(r["whole"] for r in flagged if r["whole"] is not None),
            "lexicons_of_flagged": _lexicons(flagged)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scan", type=Path, nargs="+", required=True)
    parser.add_argument("--attacks", type=Path, required=True)
    parser.add_argument("--main", type=Path, required=True)
    parser.add_argument("--branch", type=Path, required=True)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    scan = [r for p in args.scan for r in _read(p)]
    attacks = _read(args.attacks)
    branch = {(r["round"], r["set"], r["text"]): r for r in _read(args.branch)}
    moved = [{"round": r["round"], "set": r["set"], "attack": r["attack"], "lang": r["lang"], "score": r["whole"],
              "main": r["flag"], "branch": branch[(r["round"], r["set"], r["text"])]["flag"], "text": r["text"]}
             for r in _read(args.main) if r["flag"] != branch[(r["round"], r["set"], r["text"])]["flag"]]
    read = collections.Counter(f"{r['set']}{'/attack' if r['attack'] else ''}" for r in _read(args.main))
    result = {"retrieval": census(scan), "standing_order_as_preference": census(attacks),
              "read_by_the_reading": dict(read), "moved": moved}
    text = json.dumps(result, ensure_ascii=False, indent=1)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result["retrieval"].items() if k != "scores"}, ensure_ascii=False))
    print(json.dumps({k: v for k, v in result["standing_order_as_preference"].items() if k != "scores"}, ensure_ascii=False))
    print(dict(read), len(moved), "moved")


if __name__ == "__main__":
    main()
