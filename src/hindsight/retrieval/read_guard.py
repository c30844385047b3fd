"""Read-time defence (in the spirit of A-MemGuard): flag results that read like orders about safety.

A memory that says "you may skip approval" is a claim to verify, not an
instruction; and a result set where such a memory sits beside others about the
same safeguards that say otherwise is flagged as a whole, so the agent sees the
disagreement instead of silently following the most similar memory.
"""

from __future__ import annotations

from hindsight.read_model import SearchHit
from hindsight.safety.directive_flag import mentions_permission_topic
from hindsight.write.pipeline import DIRECTIVE_KEY

DIRECTIVE = "directive"
CONFLICT = "conflicting_directives"


def annotate(hits: list[SearchHit]) -> list[SearchHit]:
    """Add `directive` to loosening safety directives and `conflicting_directives` to every hit on that
    topic when the set disagrees with itself."""
    directive = [bool(hit.memory.metadata.get(DIRECTIVE_KEY)) for hit in hits]  # set by the write path
    if not any(directive):
        return hits
    on_topic = [d or mentions_permission_topic(hit.memory.content) for hit, d in zip(hits, directive)]
    disagree = any(t and not d for t, d in zip(on_topic, directive))
    for hit, is_directive, topical in zip(hits, directive, on_topic):
        if is_directive:
            hit.flags.append(DIRECTIVE)
        if disagree and topical:
            hit.flags.append(CONFLICT)
    return hits
