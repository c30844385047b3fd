"""Guard round 33: the held-out fold scores read at one T for every fold (a post-hoc curve; the lead's revert note in
docs/benchmarks.md "Guard, round 33").

    PYTHONPATH=src:scripts:bench .venv/bin/python scripts/guardfit33_tcurve.py
"""

from __future__ import annotations

import json
import pickle
import sys

import numpy as np

sys.path[:0] = ["scripts", "src", "bench"]
import guardfit33_eval  # noqa: E402
import guardfit33_read as gr  # noqa: E402


def main() -> None:
    sys.modules["__main__"].Harness = guardfit33_eval.Harness  # type: ignore[attr-defined]  (pickled by its __main__)
    with open("/tmp/gf33/harness.pkl", "rb") as fh:
        h = pickle.load(fh)
    in_rounds = np.isin(h.rounds, gr.ROUNDS)
    guard = np.array([w.startswith("blind-") for w in h.d.writers]) & in_rounds
    retr = np.array([w.startswith("retr-") for w in h.d.writers]) & in_rounds
    idx = np.flatnonzero(guard | retr)
    reading = gr.cached_reading([h.d.redacted[i] for i in idx], h.d.cache_dir, gr.VERDICTS)
    attack, rounds, lang = h.attack[idx], h.rounds[idx], h.lang[idx]
    g, rt = guard[idx], retr[idx]
    s = np.full(len(idx), np.nan)
    for path in ("/tmp/gf33/out/F1.npz", "/tmp/gf33/out/F2.npz", "/tmp/gf33/out/F3.npz"):
        part = np.load(path)["scores"][idx]
        s = np.where(np.isnan(part), s, part)
    for t in (0.5625, 0.60, 0.655, 0.70, 0.715, 0.72, 0.75):
        tab = gr.table(gr.verdicts(reading, s, t), attack, rounds, lang, g, rt)
        print(t, json.dumps(tab["pooled"]), json.dumps(tab.get("per_language", {})), "retrieval",
              tab.get("retrieval_quarantined"), flush=True)


if __name__ == "__main__":
    main()
