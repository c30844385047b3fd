"""Which released texts a round-22 reading fires on (the only texts whose verdict the readings can move).

    PYTHONPATH=src .venv/bin/python bench/guard22_fires.py --cache-dir /tmp/guard22 --out /tmp/guard22/fires.jsonl

Every text of ``bench/guard22_scan.py`` (redacted as the harness redacts, from its ``prepared_*.json`` cache), with
``spoken``, ``tail``, ``hiding`` (the signs), ``polarity`` and ``part_polarity`` (a marked part read as adding a check:
the only way a reading moves a part's threshold, which is never below ``segments.PART_THRESHOLD``). A text where none
fires has main's threshold by construction. Feed the firing texts to ``guard22_scan.py --only``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guard22"))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "scripts"))
    sys.path.insert(1, str(ROOT / "bench"))
    import guard_lowo_fast as lf
    import guard_model as gm

    from hindsight.safety.hiding import hides_wording
    from hindsight.safety.normalize import fold, prepare
    from hindsight.safety.polarity import adds_check
    from hindsight.safety.segments import marked_parts
    from hindsight.safety.spoken import spoken_waiver
    from hindsight.safety.tail import appended_loosening

    rows = [(e.writer, e.is_attack, e.text, e.kind or "") for e in lf.selected_examples(4, pii=True, retrieval=True)]
    fixed = json.loads((ROOT / "tests" / "data" / "guard_benign_fixed.json").read_text(encoding="utf-8"))
    rows += [("fixed", False, str(item["content"]), "fixed") for item in fixed]
    redacted, _, _, _ = gm._prepared_cached([r[2] for r in rows], args.cache_dir)
    fired = 0
    with args.out.open("w", encoding="utf-8") as out:
        for (writer, attack, text, kind), red in zip(rows, redacted, strict=True):
            p = prepare(red)
            f = {"spoken": spoken_waiver(p.text), "tail": appended_loosening(p.text), "hiding": hides_wording(red, p),
                 "polarity": adds_check(p.text), "part_polarity": any(adds_check(x) for x in marked_parts(fold(red)))}
            fired += any(f.values())
            out.write(json.dumps({"writer": writer, "attack": attack, "kind": kind, "text": text, "fires": any(f.values()), **f},
                                 ensure_ascii=False) + "\n")
    print(f"{fired} of {len(rows)} texts read by a round-22 reading")


if __name__ == "__main__":
    main()
