"""Round 13 guard: the transcript-aware view, measured as a variant and now the runtime view.

The variant (this file at commit fed7007: ``transcript_view``, ``transcript_loosen``, ``shipped_transcript`` of
``guard_lowo_fast.py``) patched ``view._turns`` so that the features read what a transcript, an acknowledgement or
a forwarded message asserts. It moved into the runtime (``hindsight.safety.asserted``, read by ``view._turns``;
docs/benchmarks.md, round 13 guard), so the patch is now a no-op: on this tree ``transcript_view`` is ``base`` and
``shipped_transcript`` is ``shipped``. Rerun the round's measurements from fed7007.
"""

from __future__ import annotations


def transcript_view() -> None:
    """No-op: the runtime view reads what is asserted (``hindsight.safety.asserted``)."""
