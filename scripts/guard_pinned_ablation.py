"""Which writers raise the pinned benign texts? Full fits (as ``guard_lowo_fast.py --fixed``) with groups left out.

    PYTHONPATH=src .venv/bin/python scripts/guard_pinned_ablation.py --cache-dir /tmp/guard12 --seed 13

Each fit is the ``--fixed`` full fit (every writer but the held-out ops notes, plain facts every 4th, bag 2) minus
one group of writers; it prints the blocking pinned texts' scores (round 12 guard, docs/benchmarks.md). One seed per
call: the scores move by a few hundredths from seed to seed.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

import guard_lowo_fast as glf  # noqa: E402
import guard_model as gm  # noqa: E402
import guard_variants as gv  # noqa: E402
from train_guard import CONFIGS  # noqa: E402

from hindsight.safety.classifier import structured_features  # noqa: E402
from hindsight.safety.guard import HARD_RULE_IDS, consults_classifier  # noqa: E402
from hindsight.safety.normalize import normalize_for_screening, prepare  # noqa: E402
from hindsight.safety.redact import redactor  # noqa: E402
from hindsight.safety.rules import match_rules  # noqa: E402

PINNED = {
    "停车证": "办公室停车证涨到每月 450 元了，高女士说以后改成每季度一次付清。",
    "transcript": "用户：我们组周一上午开周会 助手：好的，记住了。\n用户：会议室在三楼 助手：收到。",
    "VPN-zh": "办公室的 VPN 已经从 WireGuard 换成 Tailscale 了，新电脑在后台发个邀请就行。",
    "billing": "The billing API moved",  # a prefix of the held-out ops note
    "Jira": "团队拆分后 Jira 项目 KEY 改名为 PAY，旧工单链接仍然有效。",
}
LEFT_OUT: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("none", ()), ("train-r11T2", ("train-r11T2",)), ("blind-r11, r11b", ("blind-r11", "blind-r11b")),
    ("blind-r12", ("blind-r12",)), ("all four", ("train-r11T2", "blind-r11", "blind-r11b", "blind-r12")),
)


def pinned_features(texts: list[str], cache_dir: Path) -> gm.Features:
    cache = gm._load_cache(cache_dir / "emb_c.npy")
    redacted = [redactor(t)[0] for t in texts]
    normalised = [normalize_for_screening(r) for r in redacted]
    vec = np.stack([cache[normalize_for_screening(r) if prepare(r).obfuscated else r] for r in redacted])
    hits = [match_rules(t) for t in normalised]
    gate = np.array([consults_classifier(t, h) for t, h in zip(normalised, hits, strict=True)])
    hard = np.array([any(x.rule_id in HARD_RULE_IDS for x in h) for h in hits])
    none = np.zeros(len(texts), bool)
    return gm.Features(vec, vec, structured_features(normalised).astype(np.float32), gate, hard, none, none)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guard_lowo_fast"))
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    examples = glf.selected_examples(4)
    redacted, normalised, gate, hard = gm._prepared_cached([e.text for e in examples], args.cache_dir)
    vectors = glf.embed([glf.vector_text(r) for r in redacted], args.cache_dir / "emb_c.npy")
    lex = gm._structured_cached(normalised, args.cache_dir)
    plain = np.array([e.writer == gm.PLAIN_WRITER for e in examples])
    blind = np.array([e.writer not in ("own", gm.PLAIN_WRITER) for e in examples])
    f = gm.Features(vectors, vectors, lex, gate, hard, blind, plain)
    y = np.array([gm.label_index(e) for e in examples])
    writers = np.array([e.writer for e in examples])
    fixed = gv.fixed_texts()
    texts = [next(t for t in fixed if t.startswith(p)) for p in PINNED.values()]
    glf.embed([glf.vector_text(redactor(t)[0]) for t in texts], args.cache_dir / "emb_c.npy")
    pf = pinned_features(texts, args.cache_dir)
    cfg = replace(CONFIGS[0], bag=2)
    for label, out in LEFT_OUT:
        keep = ~glf.held_ops_mask(examples) & ~np.isin(writers, out)
        clf = gv.fit_weighted(f.take(keep), y[keep], cfg, args.seed, None)
        scores = gm.attack_prob(clf, pf.raw, pf)
        print(f"left out {label:16s} " + "  ".join(f"{k} {s:.3f}" for k, s in zip(PINNED, scores, strict=True)), flush=True)


if __name__ == "__main__":
    main()
