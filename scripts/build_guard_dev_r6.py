"""Write ``src/hindsight/safety/data/guard_dev_r6.jsonl``: our round-6 texts plus a word-level disguise of each attack.

    PYTHONPATH=src .venv/bin/python scripts/build_guard_dev_r6.py            # re-derive the disguised copies

The hand-written records (``obfuscation`` null) were written for this round from issue 10's list of kinds, in
English and Chinese, not from any blind set: harmful lessons, payee changes and skipped verifications, trust
handed to a claimant or a look-alike login page, exfiltration habits, standing orders as preferences, disguised
orders; and the benign kinds that look like them (preferences, safety rules, narrow permissions, legitimate
finance and identity checks, troubleshooting that mentions a risky command, text that only looks encoded).
Each hand-written attack gets one disguised copy (``dataset.make_word_variants``: leetspeak, letter spacing,
ROT13, reversal; pinyin, sound-alike characters) in the same group, so the held-out split keeps them together.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from hindsight.safety import dataset as ds  # noqa: E402

PATH = ds.DATA_DIR / "guard_dev_r6.jsonl"


def main() -> None:
    hand = [e for e in ds.load_guard_set(PATH) if e.obfuscation is None]
    ds.write_guard_set(hand + ds.make_word_variants(hand), PATH)
    print(f"{PATH.name}: {len(hand)} hand-written + disguised copies")


if __name__ == "__main__":
    main()
