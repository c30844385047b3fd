"""Round 26 guard: the shipped ensemble blended with a refit (issue 10; docs/benchmarks.md "Guard, round 26").

    PYTHONPATH=src .venv/bin/python scripts/guard_blend.py weights --out blend.npz A.npz B.npz
    PYTHONPATH=src .venv/bin/python scripts/guard_blend.py heldout --cache-dir C --shipped shipped.npz \
        --candidate candidate.npz --out blend.json --dump blend_scores.npz [--save-from B.npz --save blend.npz]

``weights``: one ``GuardClassifier`` whose probabilities are the mean of every member of ``A`` and ``B`` (3 + 3
members: half each). The runtime scales every member's input the same way (one ``mu`` / ``sd`` / ``lex_scale`` /
``emb_scale``), so ``B``'s first layer is rewritten on ``A``'s scaling: the blend's probabilities equal the mean of
the two files' (``blend``; tests/test_guard_blend.py).

``heldout``: the blend's held-out scores are the mean of ``guard_curve.py shipped``'s scores and ``candidate``'s
held-out scores (the gate and the hard rules are the same for both, so the mean of the guard's scores is the guard's
score of the mean). The shipped ensemble (round 18) saw blind r1 - r16b, so the blend is held out only on the
writers it never saw (``guard_curve.UNSEEN``: r17 - r24b) and on the retrieval memories of r8 on; its threshold is
``pick_threshold_per_writer`` over those guard writers alone (benign <= 0.03 averaged), never set by hand.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

from hindsight.safety.classifier import GuardClassifier  # noqa: E402

#: retrieval memories the shipped ensemble fitted (round 18: r1 - r7's memories were plain facts)
SHIPPED_RETRIEVAL = ("retr-r1", "retr-r2", "retr-r4", "retr-r5", "retr-r6", "retr-r7")


def _stacked(c: GuardClassifier) -> tuple[tuple[int, ...], np.ndarray]:
    """The member widths and one bias row per member (a single fit is one member)."""
    if c.W1 is None or c.b1 is None:
        raise ValueError("blend: each classifier needs a hidden layer")
    if c.members:
        return c.members, np.atleast_2d(c.b)
    return (int(c.W.shape[0]),), np.atleast_2d(c.b)


def blend(a: GuardClassifier, b: GuardClassifier, threshold: float) -> GuardClassifier:
    """Every member of ``a`` and of ``b`` averaged as equals, on ``a``'s input scaling (exact: ``b``'s embedding
    standardisation and scales are folded into its first layer)."""
    if a.classes != b.classes or a.lexicons != b.lexicons:
        raise ValueError("blend: the classes and the lexicons must agree")
    assert a.W1 is not None and a.b1 is not None and b.W1 is not None and b.b1 is not None
    d = a.mu.shape[0]
    # a's input row: [ea * (e - mu_a) / sd_a, la * s]; b's member wants [eb * (e - mu_b) / sd_b, lb * s]
    emb_gain = (b.emb_scale / a.emb_scale) * (a.sd / b.sd)
    shift = b.emb_scale * (a.mu - b.mu) / b.sd
    W1b = np.vstack([b.W1[:d] * emb_gain[:, None], b.W1[d:] * (b.lex_scale / a.lex_scale)])
    b1b = b.b1 + shift @ b.W1[:d]
    ma, ba = _stacked(a)
    mb, bb = _stacked(b)
    return GuardClassifier(W=np.vstack([a.W, b.W]), b=np.vstack([ba, bb]), mu=a.mu, sd=a.sd, lex_scale=a.lex_scale,
                           threshold=threshold, classes=a.classes, lexicons=a.lexicons, emb_scale=a.emb_scale,
                           W1=np.hstack([a.W1, W1b]).astype(np.float32), b1=np.concatenate([a.b1, b1b]).astype(np.float32),
                           members=ma + mb)


def heldout(args: argparse.Namespace) -> None:
    import guard_curve as gc
    import guard_lowo_fast as lf

    d = gc.Data(args.cache_dir, args.plain_stride, args.engine)
    s = (np.load(args.shipped)["shipped"] + np.load(args.candidate)["candidate"]) / 2.0
    unseen_retr = [w for g in lf.RETRIEVAL_GROUPS for w in g if w not in SHIPPED_RETRIEVAL]
    s[~np.isin(d.writers, list(gc.UNSEEN) + unseen_retr)] = np.nan  # in-sample for the shipped half
    guard = np.isin(d.writers, gc.UNSEEN) & ~np.isnan(s)
    t = lf.pick_threshold_per_writer(s[guard], d.y[guard] > 0, d.writers[guard], 0.03)
    rep = {"run": "blend: shipped (round 18) + candidate, members averaged as equals", "per_writer_T": t,
           "at_per_writer_T": gc.report(d, s, t), **gc.report(d, s)}
    print(json.dumps({k: v for k, v in rep["at_per_writer_T"].items() if not k.startswith(("writers", "kinds"))}))
    args.out.write_text(json.dumps([rep], indent=1) + "\n", encoding="utf-8")
    if args.dump:
        np.savez_compressed(args.dump, blend=s)
    if args.save:
        blend(GuardClassifier.load(), GuardClassifier.load(args.save_from), t).save(args.save)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("weights", "heldout"))
    parser.add_argument("files", type=Path, nargs="*", help="weights: A.npz B.npz")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--threshold", type=float, default=None, help="weights: the blend's T (default: A's)")
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guard_curve"))
    parser.add_argument("--plain-stride", type=int, default=4)
    parser.add_argument("--engine", default="onnx")
    parser.add_argument("--shipped", type=Path, help="heldout: guard_curve.py shipped --dump")
    parser.add_argument("--candidate", type=Path, help="heldout: guard_curve.py candidate --dump")
    parser.add_argument("--dump", type=Path, default=None)
    parser.add_argument("--save-from", type=Path, default=None, help="heldout: the candidate's full fit (--save)")
    parser.add_argument("--save", type=Path, default=None, help="heldout: the blend's weights at its T")
    parser.add_argument("--parity26", action="store_true", help="the round-26 EN/ZH lexicon additions (guard_parity26)")
    args = parser.parse_args()
    if args.parity26:  # the same prepared / structured caches (and gate) as guard_curve.py --parity26 read
        import guard_parity26
        guard_parity26.patch()
    if args.mode == "weights":
        a, b = (GuardClassifier.load(p) for p in args.files)
        blend(a, b, a.threshold if args.threshold is None else args.threshold).save(args.out)
    else:
        heldout(args)


if __name__ == "__main__":
    main()
