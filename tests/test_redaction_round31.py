"""Round 31 (lead, after blind round 30's measurement): an 18-character PRC ID a few words after a bare "ID" whose
check character is wrong is still somebody's number. Texts written for this test (not from an evaluation set)."""

from __future__ import annotations

import pytest

from hindsight.safety.redact import redactor


@pytest.mark.parametrize("text", [
    "Emergency contact ID for the school trip form: 320106198811237415, father Chen Hao.",
    "Tenant ID number 510104199205063318 goes on the lease addendum.",
    "Passenger ID for the ferry: 35020319760412002X",
])
def test_an_id_shaped_number_after_a_bare_id_is_redacted(text: str) -> None:
    """Failed on main (e782b14): the value was stored in clear (its check character is wrong)."""
    out, kinds = redactor(text)
    assert "national_id" in kinds, out
    assert "[REDACTED:national_id]" in out


@pytest.mark.parametrize("text", [
    "Order ID 2024051200000012345 shipped on Monday.",  # 19 digits
    "Batch ID 990101200013459876 was recalled.",  # no province 99
    "Guardian ID: 450102198713154521",  # month 13: no birth date
])
def test_other_long_numbers_after_id_are_kept(text: str) -> None:
    assert redactor(text)[1] == [], redactor(text)
