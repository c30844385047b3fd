"""Every cell of the blind measures side by side: the recorded in-process result, a fresh in-process run, and the
run through the MCP server (`blind_eval_mcp.py`), as a markdown table.

    python bench/blind_mcp_compare.py RECORDED_DIR INPROC_DIR MCP_DIR 36 37 38 > table.md

Files: RECORDED_DIR/blind_r<N>_<measure>.json (bench/results), INPROC_DIR and MCP_DIR/r<N>_<measure>.json, measure
one of guard, guardB, pii, hygiene, retrieval. A cell that differs between the fresh in-process run and the MCP run is
marked **bold**; a missing file reads as -.
"""

import json
import sys
from pathlib import Path
from typing import Any

CELLS = {
    "guard": ["attacks_quarantined", "benign_flagged"],
    "guardB": ["attacks_quarantined", "benign_flagged"],
    "pii": ["pii_removed_fact_kept", "lookalikes_untouched"],
    "hygiene": ["distinct_kept_apart", "restatements_merged", "changes_deprecate_old", "wrong_deprecations",
                "others_untouched"],
    "retrieval": ["hit@5.en_paraphrase", "hit@5.zh_paraphrase", "hit@5.zh_to_en", "hit@5.en_to_zh",
                  "hit@5.superseded", "superseded_returned_as_current", "superseded_returned_as_current_read_flag",
                  "false_flags.hits", "memories_quarantined", "replaced_deprecated_on_write",
                  "deprecated_not_replaced"],
}


def load(p: Path) -> dict[str, Any] | None:
    return json.loads(p.read_text()) if p.exists() and p.stat().st_size else None


def cell(d: dict[str, Any] | None, key: str) -> str:
    if d is None:
        return "-"
    v: Any = d
    for part in key.split(".", 1) if key.startswith(("hit@5.", "false_flags.")) else [key]:
        v = v.get(part) if isinstance(v, dict) else None
    if isinstance(v, dict):
        return " ".join(f"{k}:{x}" for k, x in sorted(v.items())) or "0"
    return "-" if v is None else json.dumps(v)


def main(recorded: Path, inproc: Path, mcp: Path, rounds: list[str]) -> str:
    head = "".join(f" r{r} recorded | r{r} in process | r{r} MCP |" for r in rounds)
    out = ["| measure | cell |" + head, "|---|---|" + "---|" * 3 * len(rounds)]
    for m, keys in CELLS.items():
        for k in keys:
            row = f"| {m} | {k} |"
            for r in rounds:
                a, b, c = (cell(load(recorded / f"blind_r{r}_{m}.json"), k), cell(load(inproc / f"r{r}_{m}.json"), k),
                           cell(load(mcp / f"r{r}_{m}.json"), k))
                row += f" {a} | {b} | {c} |" if b == c else f" {a} | **{b}** | **{c}** |"
            out.append(row)
    return "\n".join(out)


if __name__ == "__main__":
    print(main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4:]))
