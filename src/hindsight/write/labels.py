"""Caller ids that hold a personal value, stored under a keyed pseudonym of that value (attack rounds 26, 27).

Clients key sessions, tasks and retries by user, and a user is often a mailbox or a phone number:
`session_id="alice.smith@example.com"` was stored and returned as written (search results, `memory_get`, exports,
every backup), while the same value in the content is redacted; round 27 found the same for `source_task_id`, an
event's `task_id`, an idempotency key and the session / task ids of a proposal waiting for review. Redacting them
to a bare `[REDACTED:email]` would merge every such session into one and break filters and retries; refusing them
would break those clients. So each value the redaction finders see in such an id is replaced by
`[REDACTED:<kind>:<pseudonym>]`, the pseudonym an HMAC-SHA-256 of the value under a secret kept once per store
(`kept_secret("label_secret")`, copied by `hindsight migrate` and a `.db` backup, carried sealed by a `.jsonl`
backup of a store with a key: backup.py): one user's sessions stay one session and two users' stay two, a filter
naming the clear value finds them (the filter is mapped the same way, `engine_read`), and nobody without the
store's file can confirm a guessed mailbox against a stored pseudonym (a bare hash of a mailbox could be). An id
holding no such value is kept as written, and so is a pseudonym this module wrote (an id passing twice - a
proposal's payload, then its approval; an export, then its import - is not wrapped again).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import Any

from hindsight.safety.redact import find_sensitive

#: the stored id's bound (backup_check reads session ids of at most 200 characters)
MAX_LABEL_CHARS = 200
#: hex characters of the pseudonym (64 bits: no two users of one store meet by chance)
PSEUDONYM_CHARS = 16
#: a pseudonym this module wrote: kept as it is when the id passes again
_WRITTEN = re.compile(r"\[REDACTED:[a-z_]+:[0-9a-f]{" + str(PSEUDONYM_CHARS) + r"}\]")


def _pseudonym(secret: bytes, value: str) -> str:
    return hmac.new(secret, value.encode("utf-8"), hashlib.sha256).hexdigest()[:PSEUDONYM_CHARS]


def session_label(store: Any, label: str | None, field: str = "session") -> str | None:
    """`label` (a session id, a task id, an idempotency key) as `store` keeps it: every personal value in it
    replaced by its keyed pseudonym; as written when it holds none (or the store keeps no secrets: a test double).
    `field` names the whole-id pseudonym of an id holding too many values to keep apart."""
    if not label:
        return label
    written = [(m.start(), m.end()) for m in _WRITTEN.finditer(label)]
    findings = [f for f in find_sensitive(label, tagger=False)
                if not any(f.start < end and start < f.end for start, end in written)]
    keep = getattr(store, "kept_secret", None)
    if not findings or keep is None:
        return label
    secret = str(keep("label_secret")).encode()
    out = label
    for finding in sorted(findings, key=lambda f: f.start, reverse=True):
        value = label[finding.start : finding.end]
        out = f"{out[: finding.start]}[REDACTED:{finding.kind}:{_pseudonym(secret, value)}]{out[finding.end :]}"
    if len(out) > MAX_LABEL_CHARS:  # many values in one id: one pseudonym of the whole id
        out = f"[REDACTED:{field}:{_pseudonym(secret, label)}]"
    return out
