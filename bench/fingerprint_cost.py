"""Cost of the idempotency fingerprint taken after redaction (attack round 12): CPU time per keyed request.

    .venv/bin/python bench/fingerprint_cost.py

A keyed write's request is redacted once more before it is hashed (write/idempotency.py `fingerprint_of`): a
memory_store request (about 200 characters) and an ingest request of 500 turns (about 23,000 characters; taken
once per call, not once per kept memory). Printed, not asserted: the machine is shared.
"""

from __future__ import annotations

import time

from hindsight.model import MemoryInput
from hindsight.safety.redact import redactor
from hindsight.write.idempotency import fingerprint_of


def main() -> None:
    redactor("warm up 13912345678")
    store = MemoryInput(content="Lina said the staging VPN password is kestrel42, keep it handy. " * 3,
                        namespace="kb", tags=["ops", "vpn"]).model_dump(mode="json")
    turns = [{"role": "user", "content": f"I prefer pnpm over npm for the monorepo, turn {i}.", "at": None}
             for i in range(500)]
    ingest = {"ingest": turns, "session_id": "s", "namespace": "kb"}
    for name, request, n in (("store (195 chars)", store, 50), ("ingest (500 turns, 23,000 chars)", ingest, 3)):
        started = time.process_time()
        for _ in range(n):
            fingerprint_of(request, redactor)
        print(f"{name}: {(time.process_time() - started) / n * 1000:.1f} ms CPU per request")


if __name__ == "__main__":
    main()
