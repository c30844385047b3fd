"""Round 19: a ``guard_lowo_fast.py --out`` report as the docs' markdown tables (docs/benchmarks.md, "Guard, round 19").

    PYTHONPATH=src .venv/bin/python scripts/guard_lowo_table.py /tmp/guard19/rep_s15.json [--shipped-t 0.655]

One column per variant: each writer held out, "caught / flagged" at the variant's per-writer operating point; the
shipped weights (in-sample on the writers they trained on) rescored from their dump (``--dump``) at ``--shipped-t``,
their deployed T. Then the pooled row, the unseen-by-shipped row at pooled benign <= 0.03, and how many of each
round's retrieval memories (all benign) would be held.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import guard_lowo_fast as lf  # noqa: E402
import guard_model as gm  # noqa: E402


def _cell(r: dict[str, float], attack: bool = True) -> str:
    if not r.get("n_attack"):
        return f"- / {r['false_positive_rate']:.3f}"
    return f"{r['detection_rate']:.3f} / {r['false_positive_rate']:.3f}" if attack else f"{r['false_positive_rate']:.3f}"


def shipped_from_dump(path: Path, t: float) -> dict[str, object]:
    """The shipped weights' harness scores (``--dump-scores``' shipped file) read at their deployed ``t``."""
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    writers = np.array([r["writer"] for r in rows])
    attack = np.array([bool(r["attack"]) for r in rows])
    s = np.array([float(r["score"]) for r in rows])
    unseen = np.isin(writers, [*lf.UNSEEN_BY_SHIPPED, lf.OPS])
    retr = np.array([w.startswith("retr-") for w in writers])
    return {"variant": f"shipped @{t}", "threshold": t,
            "writers": {w: gm.rates(s[writers == w], attack[writers == w], t) for w in dict.fromkeys(writers)},
            "unseen": lf.pooled_at_budget(s[unseen], attack[unseen], 0.03),
            "retrieval": {**{w: int(np.sum(s[writers == w] >= t)) for w in dict.fromkeys(writers[retr])},
                          "total": int(np.sum(s[retr] >= t))}}


def columns(report: list[dict[str, object]], dump: Path | None, shipped_t: float) -> list[dict[str, object]]:
    out = []
    for rep in report:
        if str(rep["variant"]).startswith("shipped"):
            if dump is not None:
                out.append(shipped_from_dump(dump, shipped_t))
            continue
        pw = rep["per_writer_budget"]
        retr = rep.get("retrieval_held", {})
        out.append({"variant": f"{rep['variant']} @{pw['threshold']}", "threshold": pw["threshold"],  # type: ignore[index]
                    "writers": pw["writers"], "pooled": pw["pooled"],  # type: ignore[index]
                    "unseen": rep["unseen_by_shipped_at_budget"],
                    "retrieval": {**{w: v["at_per_writer_budget"] for w, v in retr.items()},  # type: ignore[union-attr]
                                  "total": rep.get("retrieval_held_total", {}).get("at_per_writer_budget")}})  # type: ignore[union-attr]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("report", type=Path, help="the --out report, or the harness's log while it runs")
    parser.add_argument("--dump", type=Path, default=None, help="the shipped variant's --dump-scores file")
    parser.add_argument("--shipped-t", type=float, default=0.655)
    args = parser.parse_args()
    text = args.report.read_text(encoding="utf-8")
    try:
        report = json.loads(text)
    except json.JSONDecodeError:  # the harness's log: one JSON line per finished variant
        report = [json.loads(x) for x in text.splitlines() if x.startswith("{")]
    cols = columns(report, args.dump, args.shipped_t)
    print("| held-out writer | " + " | ".join(str(c["variant"]) for c in cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    writers = [w for w in cols[-1]["writers"] if not w.startswith("retr-")]  # type: ignore[attr-defined]
    for w in writers:
        print(f"| {w} | " + " | ".join(_cell(c["writers"][w]) for c in cols) + " |")  # type: ignore[index]
    print("| pooled (blind + ops) | " + " | ".join(_cell(c["pooled"]) if "pooled" in c else "-" for c in cols) + " |")  # type: ignore[arg-type]
    print("| unseen by shipped, pooled benign <= 0.03: T, caught / flagged | " + " | ".join(
        f"{c['unseen']['threshold']}, {_cell(c['unseen'])}" for c in cols) + " |")  # type: ignore[index, arg-type]
    retr = [w for w in cols[-1]["retrieval"] if w != "total"]  # type: ignore[attr-defined]
    print("| retrieval memories held, " + " / ".join(w.removeprefix("retr-") for w in retr) + " | " + " | ".join(
        " / ".join(str(c["retrieval"].get(w, "-")) for w in retr) for c in cols) + " |")  # type: ignore[attr-defined]
    print("| retrieval memories held, total | " + " | ".join(str(c["retrieval"].get("total")) for c in cols) + " |")  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
