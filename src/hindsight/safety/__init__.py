"""hindsight.safety: write-time memory guard and PII/secret redaction.

- :class:`WriteGuard` screens a memory before it is stored and says whether it
  should be quarantined (planted instructions, privilege escalation, exfiltration).
- :func:`flag_directive` marks search results that read like permission/safety
  directives, so an agent treats them as claims to verify rather than orders.
- :func:`redact` replaces emails, phone numbers, PRC resident IDs, card numbers,
  API keys/tokens and passwords with ``[REDACTED:<kind>]`` placeholders.

Both English and Chinese are handled throughout.
"""

from hindsight.safety.guard import GuardVerdict, WriteGuard, flag_directive, screen
from hindsight.safety.normalize import normalize_for_screening
from hindsight.safety.redact import Finding, RedactionResult, redact, redactor

__all__ = [
    "Finding",
    "GuardVerdict",
    "RedactionResult",
    "WriteGuard",
    "flag_directive",
    "normalize_for_screening",
    "redact",
    "redactor",
    "screen",
]
