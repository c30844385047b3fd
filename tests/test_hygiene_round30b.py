"""Hygiene round 30b (issue 10): the change cues of the hygiene lexicons (`supersede.explicit_change`). The
change-sentence rank this round measured (`change_scope.scope_terms`, `supersede.SCOPE_RANK`) shipped off and was
removed in round 32 (docs/benchmarks.md "Hygiene, round 30b")."""
from __future__ import annotations

from hindsight.write.supersede import explicit_change


def test_explicit_change_still_reads_the_lexicons() -> None:
    assert explicit_change("会议取消了") and not explicit_change("The office printer is on floor 2.")
