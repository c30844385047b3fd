"""Round 32 guard refit: the readings as inputs, the census's false alarms as weighted benign rows, held out on the
last five blind rounds (issue 10; docs/benchmarks.md "Guard, round 32").

    H="env PYTHONPATH=src OPENBLAS_NUM_THREADS=1 nice -n 5 .venv/bin/python scripts/guardfit32_eval.py --cache-dir C"
    $H folds --recipe A --out A.npz        # five folds (r26 - r30, each with its b writer and retrieval memories)
    $H folds --recipe B --out B.npz        # the gradient-boosted head over the shipped score (cheap)
    $H full --recipe A --save A_full.npz   # every text (the held-out ops notes excepted): the weights to ship
    $H read --dump A.npz --dump B.npz --out result.json   # T by the rule, the verdicts, the table

The harness is ``guard_curve.Data`` (ONNX document vectors, long texts as windows); the verdict is
``guardfit32_verdict`` (hard rules, gate, ``threshold_for``). Ship rule: docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
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
from guard_reading_inputs import READING_NAMES, reading_features  # noqa: E402
from train_guard import CONFIGS  # noqa: E402

from hindsight.safety import guard as guard_module  # noqa: E402
from hindsight.safety.classifier import STRUCTURED_NAMES, GuardClassifier  # noqa: E402
from hindsight.safety.long_text import is_long  # noqa: E402
from hindsight.safety.normalize import normalize_for_screening, prepare  # noqa: E402

ROUNDS = ("r26", "r27", "r28", "r29", "r30")
CENSUS = ROOT / "bench" / "results" / "guardfp31_census_flagged.json"
CENSUS_WEIGHT = 3.0
PINNED_WEIGHT = 5.0
SHIPPED_T = 0.655


def census_rows() -> list[dict[str, str]]:
    return list(json.loads(CENSUS.read_text(encoding="utf-8"))["rows"])


def census_examples() -> list[ds.GuardExample]:
    """The census's PII notes (not harness writers otherwise) as benign rows of writer ``census-<round>``."""
    out = []
    for r in census_rows():
        if r["set"] == "pii":
            rnd = str(r["round"]).rstrip("b")
            out.append(ds.GuardExample(text=r["red"], label="benign", category=None, lang=r["lang"],
                                       group=f"census-{rnd}:{ds.group_id(r['red'])}", kind="census:pii",
                                       writer=f"census-{rnd}"))
    return out


_select = lf.selected_examples
#: ``Harness(only_encoded=True)``: the selection keeps the texts whose vectors the caches hold (``guardfit32_embed``)
KEEP: list[Callable[[list[ds.GuardExample]], list[ds.GuardExample]]] = []


def _selected(stride: int, pii: bool = False, retrieval: bool = False) -> list[ds.GuardExample]:
    examples = _select(stride, pii, retrieval) + census_examples()
    return KEEP[0](examples) if KEEP else examples


lf.selected_examples = _selected


def encoded_only(cache_dir: Path) -> Callable[[list[ds.GuardExample]], list[ds.GuardExample]]:
    """A filter keeping the examples whose runtime vectors (and long texts' window vectors) are cached."""
    caches = {e: set(json.loads(lf.cache_path(cache_dir, e).with_suffix(".json").read_text(encoding="utf-8")))
              for e in ("onnx", "c")}
    featured = set(json.loads(structured_path(cache_dir).with_suffix(".json").read_text(encoding="utf-8")))
    featured &= set(json.loads((cache_dir / "readings32.json").read_text(encoding="utf-8")))

    def keep(examples: list[ds.GuardExample]) -> list[ds.GuardExample]:
        redacted, normalised, _, _ = gm._prepared_cached([e.text for e in examples], cache_dir)
        own = lf.guard_embeds(examples)
        out, left = [], Counter()
        for i, e in enumerate(examples):
            if obfuscated(redacted[i]) or own[i]:
                ok = normalize_for_screening(redacted[i]) in caches["c"]
            else:
                ok = redacted[i] in caches["onnx"]
            ok = ok and normalised[i] in featured
            if ok and is_long(normalised[i]):
                windows = [normalize_for_screening(p) for p in guard_module.long_text_windows(redacted[i])]
                ok = all(w in caches["c"] and w in featured for w in windows)
            if ok:
                out.append(e)
            else:
                left[group_of(e.writer)] += 1
        LEFT_OUT.clear()
        LEFT_OUT.update(left)
        print(f"kept {len(out)} of {len(examples)}; left out {dict(left)}", flush=True)
        return out

    return keep


LEFT_OUT: Counter[str] = Counter()
#: ``guardfit32_embed --flags``: each redacted text's ``prepare(...).obfuscated`` (computed once for every process)
FLAGS: dict[str, bool] = {}


def obfuscated(redacted: str) -> bool:
    flag = FLAGS.get(redacted)
    return bool(prepare(redacted).obfuscated) if flag is None else flag


def runtime_vectors(redacted: list[str], cache_dir: Path, engine: str, own: list[bool] | None = None) -> np.ndarray:
    """``guard_lowo_fast.runtime_vectors`` with the cached obfuscation flags."""
    ob = [obfuscated(r) or bool(own and own[i]) for i, r in enumerate(redacted)]
    mine = [normalize_for_screening(r) for r, o in zip(redacted, ob, strict=True) if o]
    plain = [r for r, o in zip(redacted, ob, strict=True) if not o]
    out = np.zeros((len(redacted), 384), dtype=np.float32)
    if mine:
        out[np.array(ob)] = lf.embed(mine, lf.cache_path(cache_dir, "c"), "c")
    if plain:
        out[~np.array(ob)] = lf.embed(plain, lf.cache_path(cache_dir, engine), engine)
    return out


def group_of(writer: str) -> str:
    return "blind" if writer.startswith("blind-") else writer.split("-")[0]


def round_of(writer: str) -> str | None:
    """The blind round a writer belongs to (blind-r27b -> r27, retr-r27 -> r27, census-r27 -> r27)."""
    for prefix in ("blind-", "retr-", "census-"):
        if writer.startswith(prefix):
            return writer[len(prefix):].rstrip("b")
    return None


def structured_path(cache_dir: Path) -> Path:
    """The file ``guard_model._structured_cached`` reads (keyed by the source of the feature modules)."""
    import hashlib

    import hindsight.safety as safety

    src = Path(safety.__file__).parent
    digest = hashlib.sha1(gm.DIGEST_SALT.encode() + b"".join((src / n).read_bytes() for n in sorted(
        ("features.py", "view.py", "rules.py", "classifier.py", "normalize.py", "decode.py")))).hexdigest()[:12]
    return cache_dir / f"structured_{digest}.npy"


def readings_cached(normalised: list[str], cache_dir: Path) -> np.ndarray:
    """``reading_features`` with a cache keyed by the text (the readings' source is this branch's, fixed)."""
    path = cache_dir / "readings32.npy"
    cache = gm._load_cache(path)
    todo = sorted({t for t in normalised if t not in cache})
    for i in range(0, len(todo), 2000):
        chunk = todo[i:i + 2000]
        cache.update(zip(chunk, reading_features(chunk), strict=True))
        gm._save_cache(cache, path)
    if not normalised:
        return np.zeros((0, len(READING_NAMES)), np.float32)
    return np.stack([cache[t] for t in normalised]).astype(np.float32)


def features_only(cache_dir: Path) -> None:
    """Fill the structured and reading caches of every text and long-text window (no vector needed)."""
    examples = lf.selected_examples(4, False, True)
    redacted, normalised, _, _ = gm._prepared_cached([e.text for e in examples], cache_dir)
    windows = [normalize_for_screening(p) for r, n in zip(redacted, normalised, strict=True) if is_long(n)
               for p in guard_module.long_text_windows(r)]
    print(f"{len(normalised)} texts, {len(windows)} windows", flush=True)
    gm._structured_cached(normalised + windows, cache_dir)
    print("structured done", flush=True)
    readings_cached(normalised + windows, cache_dir)
    print("readings done", flush=True)


class Harness:
    def __init__(self, cache_dir: Path) -> None:
        flags = cache_dir / "obfuscated32.json"
        if flags.exists():
            FLAGS.update(json.loads(flags.read_text(encoding="utf-8")))
        lf.runtime_vectors = runtime_vectors
        KEEP[:] = [encoded_only(cache_dir)]
        self.d = gc.Data(cache_dir, 4, "onnx")
        self.left_out = dict(LEFT_OUT)
        d = self.d
        self.n = len(d.y)
        self.rounds = np.array([round_of(w) or "" for w in d.writers])
        self.source_rounds = np.array([round_of(s) or "" for s in d.sources])
        self.lang = np.array([e.lang for e in d.examples])
        self.attack = d.y > 0
        red = {r["red"] for r in census_rows()}
        self.census = np.array([t in red for t in d.redacted]) | np.array([w.startswith("census-") for w in d.writers])
        pinned = np.isin(d.writers, sorted(gc.pinned_writers()))
        self.weight = np.where(pinned, PINNED_WEIGHT, 1.0) * np.where(self.census, CENSUS_WEIGHT, 1.0)
        self.row_texts = self._row_texts()
        self.readings = readings_cached(self.row_texts, cache_dir)
        self.lex_plus = np.hstack([d.rows.f.lex, self.readings]).astype(np.float32)

    def _row_texts(self) -> list[str]:
        """The normalised text of each row: a short text's own, a long text's windows (as ``lw.expand``)."""
        d = self.d
        counts = np.bincount(d.rows.owner, minlength=self.n)
        out: list[str] = []
        for i in range(self.n):
            if counts[i] == 1:
                out.append(d.normalised[i])
            else:
                out.extend(normalize_for_screening(p) for p in guard_module.long_text_windows(d.redacted[i]))
        assert len(out) == len(d.rows.owner), (len(out), len(d.rows.owner))
        return out

    def held(self, rnd: str) -> np.ndarray:
        """The texts of round ``rnd``'s fold (its guard writers, retrieval memories, census rows)."""
        return (self.rounds == rnd) | (self.source_rounds == rnd)

    def rows_with(self, lex: np.ndarray) -> lw.Rows:
        r = self.d.rows
        f = gm.Features(r.f.raw, r.f.norm, lex, r.f.gate, r.f.hard, r.f.blind, r.f.plain)
        return lw.Rows(r.owner, f, r.fit, r.weight)


def probs(clfs: list[GuardClassifier], f: gm.Features) -> np.ndarray:
    """P(attack) without the gate (the verdict applies it), mean over the ensemble's fits."""
    return np.mean([1.0 - c.probabilities_from(c.combine(f.raw, f.lex))[:, 0] for c in clfs], axis=0)


def fit_mlp(h: Harness, rows: lw.Rows, train: np.ndarray, members: int, seed: int) -> list[GuardClassifier]:
    cfg = replace(CONFIGS[0], bag=2)
    fit_rows, f_fit = rows.take_texts(train, for_fit=True)
    w = rows.weight[fit_rows] * h.weight[rows.owner[fit_rows]]
    y = h.d.y[rows.owner[fit_rows]]
    return [gm.fit(f_fit, y, cfg, seed + 100 * m, sample_weight=w) for m in range(members)]


def text_probs(rows: lw.Rows, mask: np.ndarray, row_p: np.ndarray, n: int) -> np.ndarray:
    out_rows, _ = rows.take_texts(mask, for_fit=False)
    return lw.text_scores(row_p, rows.owner[out_rows], n)


#: B: texts the shipped ensemble (round 18) never fitted, so its score is an out-of-sample input
def unseen_by_shipped(w: str) -> bool:
    if w.startswith(("blind-r", "retr-r", "census-r")):
        return int((round_of(w) or "r0")[1:]) >= (8 if w.startswith("retr-") else 17)
    return w.startswith(("train-r21T", "train-r22T", "train-r23T"))


def head_inputs(h: Harness, shipped_row_p: np.ndarray) -> np.ndarray:
    return np.hstack([shipped_row_p[:, None], h.readings, h.d.rows.f.lex]).astype(np.float32)


def fit_head(h: Harness, X: np.ndarray, train: np.ndarray, seed: int):  # type: ignore[no-untyped-def]
    from sklearn.ensemble import HistGradientBoostingClassifier

    rows = h.d.rows
    fit_rows = train[rows.owner] & rows.fit
    y = h.attack[rows.owner[fit_rows]]
    w = rows.weight[fit_rows] * h.weight[rows.owner[fit_rows]]
    w = w * np.where(y, 0.5 / w[y].sum(), 0.5 / w[~y].sum()) * len(w)  # the two classes weigh the same
    head = HistGradientBoostingClassifier(max_iter=300, learning_rate=0.05, max_leaf_nodes=15, min_samples_leaf=20,
                                          l2_regularization=1.0, random_state=seed)
    return head.fit(X[fit_rows], y, sample_weight=w)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("folds", "full", "read", "prepare", "features", "verdicts"))
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/gf32/cache"))
    parser.add_argument("--recipe", choices=("A", "A0", "B"), default="A")
    parser.add_argument("--rounds", default=",".join(ROUNDS))
    parser.add_argument("--members", type=int, default=1)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--save-threshold", type=float, default=SHIPPED_T)
    parser.add_argument("--dump", type=Path, action="append", default=[])
    parser.add_argument("--snapshot", type=Path, default=None, help="a pickled harness (written by prepare)")
    args = parser.parse_args()
    if args.mode == "features":
        features_only(args.cache_dir)
        return
    if args.mode == "verdicts":  # the verdict readings of the held-out rounds' texts, ahead of the fits
        import guardfit32_read
        examples = lf.selected_examples(4, False, True)
        redacted, _, _, _ = gm._prepared_cached([e.text for e in examples], args.cache_dir)
        ev = [r for e, r in zip(examples, redacted, strict=True)
              if e.writer.startswith(("blind-", "retr-")) and round_of(e.writer) in ROUNDS]
        guardfit32_read.cached_reading(ev, args.cache_dir)
        print("verdict readings", len(ev), flush=True)
        return
    if args.snapshot is not None and args.snapshot.exists() and args.mode != "prepare":
        import pickle  # the harness as built once (``prepare --snapshot``): every fold process reads the same rows
        with args.snapshot.open("rb") as fh:
            h = pickle.load(fh)
    else:
        h = Harness(args.cache_dir)
        if args.snapshot is not None:
            import pickle
            with args.snapshot.open("wb") as fh:
                pickle.dump(h, fh, protocol=pickle.HIGHEST_PROTOCOL)
        print(f"left out (no vector or features by the cutoff): {dict(LEFT_OUT)}", flush=True)
    print(f"{h.n} texts, {len(h.d.rows.owner)} rows, census {int(h.census.sum())}, readings "
          f"{h.readings.sum(0).astype(int).tolist()}", flush=True)
    if args.mode == "prepare":
        return
    if args.mode == "read":
        import guardfit32_read
        guardfit32_read.read(h, args.dump, args.out)
        return
    a0 = args.recipe == "A0"
    if a0:  # without the reading inputs and the census weights
        h.weight = np.where(np.isin(h.d.writers, sorted(gc.pinned_writers())), PINNED_WEIGHT, 1.0)
    rows = h.rows_with(h.d.rows.f.lex if a0 else h.lex_plus)
    if args.mode == "full":
        keep = ~lf.held_ops_mask(h.d.examples)
        fits = fit_mlp(h, rows, keep, args.members, args.seed)
        model = GuardClassifier.average(fits, args.save_threshold)
        if not a0:  # the inputs as the runtime names them once wired (classifier.STRUCTURED_NAMES + READING_NAMES)
            base = tuple(n for n in STRUCTURED_NAMES if not n.startswith("reading:"))
            model = replace(model, lexicons=base + READING_NAMES)
        model.save(args.save)
        p = text_probs(rows, np.ones(h.n, bool), probs([model], rows.f), h.n)
        np.savez_compressed(args.save.with_suffix(".scores.npz"), full=p)
        print("saved", args.save, flush=True)
        return
    scores = np.full(h.n, np.nan)
    shipped = GuardClassifier.load()
    base_rows = h.rows_with(h.d.rows.f.lex)
    shipped_row_p = probs([shipped], base_rows.f)
    if args.recipe == "B":
        X = head_inputs(h, shipped_row_p)
        unseen = np.array([unseen_by_shipped(w) for w in h.d.writers])
    for rnd in args.rounds.split(","):
        out = h.held(rnd)
        if args.recipe == "B":
            head = fit_head(h, X, unseen & ~out, args.seed)
            row_p = head.predict_proba(X)[:, 1]
            scores[out] = lw.text_scores(row_p, h.d.rows.owner, h.n)[out]
        else:
            fits = fit_mlp(h, rows, ~out, args.members, args.seed)
            out_rows, f_out = rows.take_texts(out, for_fit=False)
            scores[out] = lw.text_scores(probs(fits, f_out), rows.owner[out_rows], h.n)[out]
        g = out & np.array([w.startswith("blind-") for w in h.d.writers])
        print(f"fold {rnd}: {int(out.sum())} texts; at 0.655 caught {np.mean(scores[g & h.attack] >= 0.655):.3f} "
              f"flagged {np.mean(scores[g & ~h.attack] >= 0.655):.3f} (classifier alone)", flush=True)
        np.savez_compressed(args.out, scores=scores, recipe=args.recipe)
    shipped_p = lw.text_scores(shipped_row_p, h.d.rows.owner, h.n)
    np.savez_compressed(args.out, scores=scores, recipe=args.recipe, shipped=shipped_p)
    if args.recipe == "B":  # in sample: the head fitted on every unseen text, the held-out rounds included
        head = fit_head(h, X, unseen, args.seed)
        full = lw.text_scores(head.predict_proba(X)[:, 1], h.d.rows.owner, h.n)
        np.savez_compressed(args.out.with_name("B_full.scores.npz"), full=full)
        print("B in sample saved", flush=True)


if __name__ == "__main__":
    main()
