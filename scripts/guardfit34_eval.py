"""Round 34: round 33's refit (``guardfit33_eval``) with the suite's round-34 sets in the ``train-suite`` writer and
blind r32 / r32b / retr-r32 kept out of every fit (issue 10; docs/benchmarks.md "Guard, round 34").

    E="env PYTHONPATH=src:scripts:bench OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python"
    $E scripts/guardfit34_eval.py embed --part 0/1 --name g34p0 --until 23:25   # new texts first, r32 never
    $E scripts/guardfit34_eval.py embed-suite g34s     # only the train-suite rows without vectors
    $E scripts/guardfit34_eval.py merge
    $E scripts/guardfit34_eval.py prepare --snapshot /tmp/gf34/harness.pkl
    $E scripts/guardfit34_eval.py folds --rounds r26,r27 --snapshot /tmp/gf34/harness.pkl --out /tmp/gf34/out/F1.npz
    $E scripts/guardfit34_eval.py full --snapshot /tmp/gf34/harness.pkl --save /tmp/gf34/out/full.npz

Every other mode and option is ``guardfit33_eval``'s; ``guardfit33_read`` / ``guardfit33_pinned`` read the dumps.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for sub in ("src", "scripts", "bench"):
    sys.path.insert(0, str(ROOT / sub))

import guard_dataset as ds  # noqa: E402
import guardfit32_embed as g32  # noqa: E402
import guardfit32_eval as ge  # noqa: E402
import guardfit33_embed as g33e  # noqa: E402
import guardfit33_eval as g33  # noqa: E402

#: released after round 33, never fitted here: the fresh check (docs, "Guard, round 34")
KEPT_OUT = ("r32",)
_encoded_only = g33.encoded_only


def kept_out(writer: str) -> bool:
    return ge.round_of(writer) in KEPT_OUT


def encoded_only(cache_dir: Path) -> Callable[[list[ds.GuardExample]], list[ds.GuardExample]]:
    keep = _encoded_only(cache_dir)

    def without_r32(examples: list[ds.GuardExample]) -> list[ds.GuardExample]:
        out = [e for e in examples if not kept_out(e.writer)]
        print(f"kept out (r32): {len(examples) - len(out)}", flush=True)
        return keep(out)

    return without_r32


def rank(writer: str) -> int:
    return 9 if kept_out(writer) else g33e.rank(writer)


g33.encoded_only = encoded_only
g32.rank = rank

def embed_suite(cache_dir: Path, name: str) -> None:
    """Only the ``train-suite`` writer's texts without vectors (the rows this round adds), as ``needed`` picks them."""
    import guard_lowo_fast as lf
    import guard_model as gm

    from hindsight.safety import guard as guard_module
    from hindsight.safety.long_text import is_long
    from hindsight.safety.normalize import normalize_for_screening, prepare

    examples = [e for e in lf.selected_examples(4, False, True) if e.writer == "train-suite"]
    redacted, normalised, _, _ = gm._prepared_cached([e.text for e in examples], cache_dir)
    own = lf.guard_embeds(examples)
    caches = {e: gm._load_cache(lf.cache_path(cache_dir, e)) for e in ("onnx", "c")}
    for part in cache_dir.glob("emb_*_*.json"):  # the part files not merged yet
        caches["onnx" if "_onnx_" in part.name else "c"].update(gm._load_cache(part.with_suffix(".npy")))
    todo: dict[str, list[str]] = {"onnx": [], "c": []}
    for i in range(len(examples)):
        items = [("c", normalize_for_screening(redacted[i]))] if prepare(redacted[i]).obfuscated or own[i] \
            else [("onnx", redacted[i])]
        if is_long(normalised[i]):
            items += [("c", normalize_for_screening(p)) for p in guard_module.long_text_windows(redacted[i])]
        for engine, text in items:
            if text not in caches[engine] and text not in todo[engine]:
                todo[engine].append(text)
    print("suite texts", len(examples), "to encode", {k: len(v) for k, v in todo.items()}, flush=True)
    for engine, texts in todo.items():
        if texts:
            lf.embed(texts, cache_dir / f"emb_{engine}_{name}.npy", engine)


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "embed-suite":
        embed_suite(g33.CACHE, sys.argv[2])
    elif mode in ("embed", "merge"):
        sys.argv = [sys.argv[0], *sys.argv[2:]]
        if mode == "merge":
            g33e.merge_all(g33.CACHE)
        else:
            g32.main()
    else:
        g33.main()
