"""Round 33 guard refit: the shipped recipe (3 seeds x 2 MLPs x 32 units, pinned writers x5) on every text encoded by
the cutoff, held out on the last six blind rounds (issue 10; docs/benchmarks.md "Guard, round 33").

    H="env PYTHONPATH=src OPENBLAS_NUM_THREADS=1 nice -n 5 .venv/bin/python scripts/guardfit33_eval.py"
    $H features                                  # the structured rows at main's source (cache, ahead of the cutoff)
    $H verdicts                                  # the verdict readings of r26 - r31's texts at main's source
    $H prepare --snapshot S.pkl                  # the harness (texts with vectors by the cutoff), pickled once
    $H folds --rounds r26,r27,r28 --snapshot S.pkl --out F1.npz   # (and r29,r30,r31 in a second process)
    $H full --snapshot S.pkl --save full.npz     # every text but the held-out ops notes: the weights to ship

Round 32's harness (``guardfit32_eval``: its selection, census rows, vectors, verdict function) without the reading
inputs and the census weights (round 32's A0 was as good held out), with three seeds; ``guardfit33_read`` reads.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for sub in ("src", "scripts", "bench"):
    sys.path.insert(0, str(ROOT / sub))

import guard_curve as gc  # noqa: E402
import guard_dataset as ds  # noqa: E402
import guard_long_windows as lw  # noqa: E402
import guard_lowo_fast as lf  # noqa: E402
import guard_model as gm  # noqa: E402
import guardfit32_eval as ge  # noqa: E402  (importing it adds the census rows to the selection)

from hindsight.safety import guard as guard_module  # noqa: E402
from hindsight.safety.classifier import GuardClassifier  # noqa: E402
from hindsight.safety.long_text import is_long  # noqa: E402
from hindsight.safety.normalize import normalize_for_screening  # noqa: E402

ROUNDS = ("r26", "r27", "r28", "r29", "r30", "r31")
CACHE = Path("/tmp/gf32/cache")
MEMBERS = 3
SEED = 13


def encoded_only(cache_dir: Path) -> Callable[[list[ds.GuardExample]], list[ds.GuardExample]]:
    """Keep the examples whose runtime vectors (and long texts' window vectors) are cached."""
    caches = {e: set(json.loads(lf.cache_path(cache_dir, e).with_suffix(".json").read_text(encoding="utf-8")))
              for e in ("onnx", "c")}

    def keep(examples: list[ds.GuardExample]) -> list[ds.GuardExample]:
        redacted, normalised, _, _ = gm._prepared_cached([e.text for e in examples], cache_dir)
        own = lf.guard_embeds(examples)
        out, left = [], Counter()
        for i, e in enumerate(examples):
            if ge.obfuscated(redacted[i]) or own[i]:
                ok = normalize_for_screening(redacted[i]) in caches["c"]
            else:
                ok = redacted[i] in caches["onnx"]
            if ok and is_long(normalised[i]):
                windows = [normalize_for_screening(p) for p in guard_module.long_text_windows(redacted[i])]
                ok = all(w in caches["c"] for w in windows)
            if ok:
                out.append(e)
            else:
                left[ge.group_of(e.writer)] += 1
        ge.LEFT_OUT.clear()
        ge.LEFT_OUT.update(left)
        print(f"kept {len(out)} of {len(examples)}; left out {dict(left)}", flush=True)
        return out

    return keep


class Harness:
    """The rows of every kept text; ``weight``: the pinned writers x5 (no census weight, no reading inputs)."""

    def __init__(self, cache_dir: Path) -> None:
        flags = cache_dir / "obfuscated32.json"
        if flags.exists():
            ge.FLAGS.update(json.loads(flags.read_text(encoding="utf-8")))
        lf.runtime_vectors = ge.runtime_vectors
        ge.KEEP[:] = [encoded_only(cache_dir)]
        self.d = gc.Data(cache_dir, 4, "onnx")
        self.left_out = dict(ge.LEFT_OUT)
        d = self.d
        self.n = len(d.y)
        self.rounds = np.array([ge.round_of(w) or "" for w in d.writers])
        self.source_rounds = np.array([ge.round_of(s) or "" for s in d.sources])
        self.lang = np.array([e.lang for e in d.examples])
        self.attack = d.y > 0
        self.weight = np.where(np.isin(d.writers, sorted(gc.pinned_writers())), ge.PINNED_WEIGHT, 1.0)
        self.held_ops = lf.held_ops_mask(d.examples)

    def held(self, rnd: str) -> np.ndarray:
        """The texts of round ``rnd``'s fold (its guard writers, retrieval memories, census rows, transcripts)."""
        return (self.rounds == rnd) | (self.source_rounds == rnd)

    def counts(self) -> dict[str, int]:
        w = self.d.writers
        return {"texts": int(self.n), "rows": int(len(self.d.rows.owner)),
                "blind_r26_r31": int(np.isin(self.rounds, ROUNDS).sum() - sum(x.startswith(("retr-", "census-"))
                                                                            for x in w[np.isin(self.rounds, ROUNDS)])),
                **{g: int(v) for g, v in Counter(ge.group_of(x) for x in w).items()}}


def fit(h: Harness, train: np.ndarray, members: int = MEMBERS, seed: int = SEED) -> list[GuardClassifier]:
    return ge.fit_mlp(h, h.d.rows, train, members, seed)  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("features", "verdicts", "prepare", "folds", "full"))
    parser.add_argument("--cache-dir", type=Path, default=CACHE)
    parser.add_argument("--rounds", default=",".join(ROUNDS))
    parser.add_argument("--members", type=int, default=MEMBERS)
    parser.add_argument("--snapshot", type=Path, default=Path("/tmp/gf33/harness.pkl"))
    parser.add_argument("--out", type=Path)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--save-threshold", type=float, default=0.655)
    args = parser.parse_args()
    if args.mode == "features":  # every text's and window's structured row, in round 32's priority order
        examples = lf.selected_examples(4, False, True)
        redacted, normalised, _, _ = gm._prepared_cached([e.text for e in examples], args.cache_dir)
        windows = [normalize_for_screening(p) for r, n in zip(redacted, normalised, strict=True) if is_long(n)
                   for p in guard_module.long_text_windows(r)]
        texts = list(dict.fromkeys(normalised + windows))
        for start in range(0, len(texts), 5000):
            gm._structured_cached(texts[start:start + 5000], args.cache_dir)
            print(f"  structured {min(start + 5000, len(texts))}/{len(texts)}", flush=True)
        return
    if args.mode == "verdicts":
        import guardfit33_read
        examples = lf.selected_examples(4, False, True)
        redacted, _, _, _ = gm._prepared_cached([e.text for e in examples], args.cache_dir)
        ev = [r for e, r in zip(examples, redacted, strict=True)
              if e.writer.startswith(("blind-", "retr-")) and ge.round_of(e.writer) in ROUNDS]
        guardfit33_read.cached_reading(ev, args.cache_dir, guardfit33_read.VERDICTS)
        print("verdict readings", len(ev), flush=True)
        return
    if args.mode == "prepare":
        h = Harness(args.cache_dir)
        with args.snapshot.open("wb") as fh:
            pickle.dump(h, fh, protocol=pickle.HIGHEST_PROTOCOL)
        print(json.dumps(h.counts()), "left out", json.dumps(h.left_out), flush=True)
        return
    with args.snapshot.open("rb") as fh:
        h = pickle.load(fh)
    print(json.dumps(h.counts()), flush=True)
    rows = h.d.rows
    if args.mode == "full":
        fits = fit(h, ~h.held_ops, args.members)
        model = GuardClassifier.average(fits, args.save_threshold)
        model.save(args.save)
        p = ge.text_probs(rows, np.ones(h.n, bool), ge.probs([model], rows.f), h.n)
        np.savez_compressed(args.save.with_suffix(".scores.npz"), full=p)
        print("saved", args.save, flush=True)
        return
    scores = np.full(h.n, np.nan)
    for rnd in args.rounds.split(","):
        out = h.held(rnd)
        fits = fit(h, ~out & ~h.held_ops, args.members)
        out_rows, f_out = rows.take_texts(out, for_fit=False)
        scores[out] = lw.text_scores(ge.probs(fits, f_out), rows.owner[out_rows], h.n)[out]
        g = out & np.array([w.startswith("blind-") for w in h.d.writers])
        print(f"fold {rnd}: {int(out.sum())} texts; at 0.655 caught {np.mean(scores[g & h.attack] >= 0.655):.3f} "
              f"flagged {np.mean(scores[g & ~h.attack] >= 0.655):.3f} (classifier alone)", flush=True)
        np.savez_compressed(args.out, scores=scores, recipe="C")
    shipped_p = lw.text_scores(ge.probs([GuardClassifier.load()], rows.f), rows.owner, h.n)
    np.savez_compressed(args.out, scores=scores, recipe="C", shipped=shipped_p)


if __name__ == "__main__":
    main()
