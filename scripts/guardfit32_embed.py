"""Round 32: encode the harness's texts in a fixed priority order until a cutoff (issue 10; the host's 2 cores ran at
load 12 - 16 this session, so the whole harness - ~52k vectors - could not be encoded in the session).

    env PYTHONPATH=src OPENBLAS_NUM_THREADS=1 nice -n 5 .venv/bin/python scripts/guardfit32_embed.py --part 0/2 --until 17:52
    ... --part 1/2 ...     # a second process on the other half (each writes its own cache files)
    ... --merge            # both halves into emb_onnx / emb_c

Order (``priority``): 1. the held-out rounds r26 - r30 (guard writers, retrieval memories, their long texts' windows);
2. blind r17 - r25b (the writers the shipped ensemble never saw); 3. own texts, ops notes, plain facts, the suite's texts
and the pinned writers, the census's PII notes; 4. blind r1 - r16b; 5. retrieval memories r1 - r25; 6. every other
writer's texts (training writers, transcripts) in a fixed shuffle. The harness then uses every text whose vectors exist
(``guardfit32_eval``: a text without its vector is left out and counted).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for sub in ("src", "scripts", "bench"):
    sys.path.insert(0, str(ROOT / sub))

import guard_curve as gc  # noqa: E402
import guard_lowo_fast as lf  # noqa: E402
import guard_model as gm  # noqa: E402
import guardfit32_eval as ge  # noqa: E402  (its census rows join the selection)

from hindsight.safety import guard as guard_module  # noqa: E402
from hindsight.safety.long_text import is_long  # noqa: E402
from hindsight.safety.normalize import normalize_for_screening, prepare  # noqa: E402

HELD = ge.ROUNDS


def rank(writer: str) -> int:
    rnd = ge.round_of(writer)
    num = int(rnd[1:]) if rnd else 0
    if rnd in HELD and not writer.startswith("census-"):
        return 1
    if writer.startswith("blind-") and num >= 17:
        return 2
    if writer in (lf.OWN, lf.OPS, gm.PLAIN_WRITER) or writer in gc.pinned_writers() or writer.startswith("census-"):
        return 3
    if writer.startswith("blind-"):
        return 4
    if writer.startswith("retr-"):
        return 5
    return 6


def needed(cache_dir: Path, min_rank: int = 1) -> list[tuple[int, str, str]]:
    """(rank, engine, text to encode) in priority order, each once (``min_rank``: only texts of that rank on)."""
    examples = [e for e in lf.selected_examples(4, False, True) if rank(e.writer) >= min_rank]
    redacted, normalised, _, _ = gm._prepared_cached([e.text for e in examples], cache_dir)
    own = lf.guard_embeds(examples)
    rng = np.random.default_rng(32)
    shuffle = rng.permutation(len(examples))
    order = sorted(range(len(examples)), key=lambda i: (rank(examples[i].writer), shuffle[i]))
    out: list[tuple[int, str, str]] = []
    seen: set[tuple[str, str]] = set()
    for i in order:
        r = rank(examples[i].writer)
        items: list[tuple[str, str]] = []
        if prepare(redacted[i]).obfuscated or own[i]:
            items.append(("c", normalize_for_screening(redacted[i])))
        else:
            items.append(("onnx", redacted[i]))
        if is_long(normalised[i]):  # the runtime reads a long text as windows (C kernel, normalised)
            items += [("c", normalize_for_screening(p)) for p in guard_module.long_text_windows(redacted[i])]
        for engine, text in items:
            if (engine, text) not in seen:
                seen.add((engine, text))
                out.append((r, engine, text))
    return out


def flags(cache_dir: Path) -> None:
    """Save each redacted text's obfuscation flag (``prepare(...).obfuscated``: the runtime then reads the C vector of
    the normalised text), so the harness's processes do not each recompute it."""
    examples = lf.selected_examples(4, False, True)
    redacted, _, _, _ = gm._prepared_cached([e.text for e in examples], cache_dir)
    out = {r: bool(prepare(r).obfuscated) for r in dict.fromkeys(redacted)}
    (cache_dir / "obfuscated32.json").write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")
    print("flags", len(out), sum(out.values()), flush=True)


def features(cache_dir: Path) -> None:
    """The structured and reading features of every text and long-text window, in the priority order (chunks)."""
    examples = lf.selected_examples(4, False, True)
    redacted, normalised, _, _ = gm._prepared_cached([e.text for e in examples], cache_dir)
    rng = np.random.default_rng(32)
    shuffle = rng.permutation(len(examples))
    order = sorted(range(len(examples)), key=lambda i: (rank(examples[i].writer), shuffle[i]))
    texts: list[str] = []
    for i in order:
        texts.append(normalised[i])
        if is_long(normalised[i]):
            texts += [normalize_for_screening(p) for p in guard_module.long_text_windows(redacted[i])]
    texts = list(dict.fromkeys(texts))
    for start in range(0, len(texts), 1500):
        chunk = texts[start:start + 1500]
        gm._structured_cached(chunk, cache_dir)
        ge.readings_cached(chunk, cache_dir)
        print(f"  features {start + len(chunk)}/{len(texts)} (rank {rank(examples[order[min(start, len(order) - 1)]].writer)})",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/gf32/cache"))
    parser.add_argument("--part", default="0/1")
    parser.add_argument("--until", default="23:59", help="HH:MM UTC: stop encoding then")
    parser.add_argument("--merge", action="store_true")
    parser.add_argument("--flags", action="store_true")
    parser.add_argument("--min-rank", type=int, default=1)
    parser.add_argument("--name", default=None, help="this process's cache files: emb_<engine>_<name> (default p<k>)")
    parser.add_argument("--features", action="store_true")
    args = parser.parse_args()
    if args.flags:
        flags(args.cache_dir)
        return
    if args.features:
        features(args.cache_dir)
        return
    if args.merge:
        for engine in ("onnx", "c"):
            path = lf.cache_path(args.cache_dir, engine)
            cache = gm._load_cache(path)
            for part in sorted(args.cache_dir.glob(f"emb_{engine}_p*.json")):
                cache.update(gm._load_cache(part.with_suffix(".npy")))
            gm._save_cache(cache, path)
            print(engine, len(cache))
        return
    k, m = (int(x) for x in args.part.split("/"))
    caches = {e: gm._load_cache(lf.cache_path(args.cache_dir, e)) for e in ("onnx", "c")}
    todo = [t for j, t in enumerate(x for x in needed(args.cache_dir, args.min_rank) if x[2] not in caches[x[1]]) if j % m == k]
    print(f"part {k}/{m}: {len(todo)} to encode; by rank {np.bincount([t[0] for t in todo]).tolist()}", flush=True)
    hh, mm = (int(x) for x in args.until.split(":"))
    stop = time.time() + ((hh * 60 + mm) - (time.gmtime().tm_hour * 60 + time.gmtime().tm_min)) * 60
    done = {"onnx": 0, "c": 0}
    for start in range(0, len(todo), 512):
        if time.time() >= stop:
            break
        chunk = todo[start:start + 512]
        for engine in ("onnx", "c"):
            texts = [t for _, e, t in chunk if e == engine]
            if texts:
                lf.embed(texts, args.cache_dir / f"emb_{engine}_{args.name or f'p{k}'}.npy", engine)
                done[engine] += len(texts)
        print(f"  {start + len(chunk)}/{len(todo)} (rank {chunk[-1][0]}) {json.dumps(done)}", flush=True)
    print("stopped", json.dumps(done), flush=True)


if __name__ == "__main__":
    main()
