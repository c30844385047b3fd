"""Round 26 guard: the shipped ensemble's scores of some writers' texts under one source tree's lexicons, and the
comparison of two such readings (docs/benchmarks.md, "Guard, round 26"; ``guard_parity26``).

    python scripts/guard_parity26_reading.py score TREE CACHE OUT.npz WRITER,WRITER,...   # or a texts .npz
    python scripts/guard_parity26_reading.py compare MAIN.npz PARITY.npz OUT.json

``score`` imports ``TREE``'s ``src`` (main's checkout, or one whose ``features.py`` carries ``guard_parity26.ADD``):
the runtime vectors (``guard_lowo_fast.runtime_vectors``, shared caches), ``TREE``'s prepared and structured rows
(cached by its source digest), long texts on windows, the shipped weights' score. ``compare`` reads both at the
shipped T: rates per writer and pooled, and every text that crosses T.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

T = 0.655


def score(root: Path, cache: Path, out: Path, which: str) -> None:
    sys.path.insert(0, str(root / "scripts"))
    sys.path.insert(0, str(root / "bench"))
    import guard_long_windows as lw
    import guard_lowo_fast as lf  # puts root/src first
    import guard_model as gm

    from hindsight.safety.classifier import GuardClassifier

    ex = lf.selected_examples(4, False, True)
    redacted, normalised, gate, hard = gm._prepared_cached([e.text for e in ex], cache)
    own = lf.guard_embeds(ex)
    if which.endswith(".npz"):
        keep = set(np.load(which)["texts"].tolist())
        idx = np.array([i for i, e in enumerate(ex) if e.text in keep])
    else:
        writers = set(which.split(","))
        idx = np.array([i for i, e in enumerate(ex) if e.writer in writers])
    red, norm = [redacted[i] for i in idx], [normalised[i] for i in idx]
    vec = lf.runtime_vectors(red, cache, "onnx", [own[i] for i in idx])
    lex = gm._structured_cached(norm, cache)
    y = np.array([gm.label_index(ex[i]) for i in idx])
    none = np.zeros(len(idx), dtype=bool)
    rows = lw.expand(red, norm, gm.Features(vec, vec, lex, gate[idx], hard[idx], none, none), y, cache)
    s = lw.text_scores(gm.attack_prob(GuardClassifier.load(), rows.f.raw, rows.f), rows.owner, len(idx))
    np.savez_compressed(out, scores=s, writers=np.array([ex[i].writer for i in idx]), y=y,
                        texts=np.array([ex[i].text for i in idx]), lex=lex, gate=gate[idx])


def compare(old_path: Path, new_path: Path, out: Path) -> None:
    old, new = np.load(old_path), np.load(new_path)
    assert (old["texts"] == new["texts"]).all()
    w, y, so, sn = new["writers"], new["y"] > 0, old["scores"], new["scores"]

    def rates(m: np.ndarray, s: np.ndarray) -> dict[str, object]:
        return {"caught": round(float(np.mean(s[m & y] >= T)), 4) if (m & y).any() else None,
                "flagged": round(float(np.mean(s[m & ~y] >= T)), 4) if (m & ~y).any() else None,
                "n_attack": int((m & y).sum()), "n_benign": int((m & ~y).sum())}

    every = np.ones_like(y)
    res: dict[str, object] = {
        "T": T, "pooled": {"main": rates(every, so), "parity": rates(every, sn)},
        "writers": {n: {"main": rates(w == n, so), "parity": rates(w == n, sn)} for n in dict.fromkeys(w.tolist())},
        "moved_across_T": [(str(w[i]), "attack" if y[i] else "benign", round(float(so[i]), 3), round(float(sn[i]), 3),
                            str(new["texts"][i])[:140]) for i in np.flatnonzero((so >= T) != (sn >= T))],
        "rows_changed": int(((np.abs(old["lex"] - new["lex"]).sum(1) > 0) | (old["gate"] != new["gate"])).sum()),
        "score_changed": int((np.abs(so - sn) > 1e-6).sum()),
    }
    out.write_text(json.dumps(res, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(res["pooled"]), "rows changed", res["rows_changed"])


if __name__ == "__main__":
    if sys.argv[1] == "score":
        score(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]), sys.argv[5])
    else:
        compare(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))
