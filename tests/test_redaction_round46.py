"""Redaction round 46 (issue 10, phone46): phones in national forms no hand-written reader took, read by
libphonenumber's plans (``redact_phonelib``: a country's plan accepts the number and writes it with the text's exact
grouping; measured, OFF - its tests switch it on); a person's phone said in English digit words (``redact_spoken_phones``); an order / invoice noun before a
number in a phone's shape; and ``redact.py`` split by job (keys and tokens in ``redact_secrets``).
Examples are our own (none copied from a set); on main 6109627a every GROUPED case, two of the three SPOKEN and
the "Commande n°" look-alike fail. All three readings are measured, OFF (held out each moved a released row or text; docs/benchmarks.md);
their tests switch them on.
"""

from __future__ import annotations

import importlib.util

import pytest
from redaction_round import TAGGER, round_tests

from hindsight.safety import redact_phonelib, redact_spoken_phones
from hindsight.safety.redact import redact

LIB = pytest.mark.skipif(importlib.util.find_spec("phonenumbers") is None,
                         reason="phonenumbers (a dependency since round 46) is not installed here")

GROUPED = [
    ("Ingrid left her number, 040 / 3318 2290, for the removal men.", ["3318 2290"], ["Ingrid", "removal men"]),
    ("Pablo, el fontanero, está en el 654 21 87 30 por las tardes.", ["654 21 87 30"], ["Pablo", "tardes"]),
    ("Our babysitter Lotte: 0470 12 34 56, evenings only.", ["0470 12 34 56"], ["Lotte", "evenings"]),
    ("Camila mora em São Paulo, o celular dela é (11) 98765-4321.", ["98765-4321"], ["Camila", "São Paulo"]),
    ("Erik skrev upp sitt nummer: 08-123 45 67.", ["123 45 67"], ["Erik"]),
    ("Minsu's home line in Seoul is 02-312-4567, call after dinner.", ["312-4567"], ["Minsu", "dinner"]),
    ("Herr Vogel, 0171 / 552 8817, hat den Schlüssel.", ["552 8817"], ["Vogel", "Schlüssel"]),
]
SPOKEN = [
    ("Write it down, my number is oh seven seven zero zero, nine double zero, four six one.",
     ["oh seven seven zero zero, nine double zero, four six one"], ["Write it down"]),
    ("Her cell is four one five, seven two eight, three three nine one - she said it twice.",
     ["four one five, seven two eight, three three nine one"], ["said it twice"]),
    ("Text me on zero four one two three three nine eight seven zero tomorrow.",
     ["zero four one two three three nine eight seven zero"], ["tomorrow"]),
]
KEEP = [
    ("Order 7731-2204-5518 left the depot this morning.", ["7731-2204-5518"]),
    ("ISBN 978-3-16-148410-0 is the German edition.", ["978-3-16-148410-0"]),
    ("Opening hours 0830-1745, Saturdays 0900-1300.", ["0830-1745", "0900-1300"]),
    ("The router answers on 192.168.178.1 and runs 7.57.1204.", ["192.168.178.1", "7.57.1204"]),
    ("Due 31.12.2025, total 2 480,50 EUR.", ["31.12.2025", "2 480,50"]),
    ("We read 48.1374, 11.5755 off the map.", ["48.1374, 11.5755"]),
    ("The clinic reads its number out as six one seven, five five five, zero one nine nine.",
     ["six one seven, five five five, zero one nine nine"]),
    ("Build 0171.552.8817 broke the nightly job.", ["0171.552.8817"]),
]

test_secret_gone_fact_kept, test_lookalike_kept = round_tests(SPOKEN, KEEP)


@pytest.fixture(autouse=True)
def _spoken_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Measured, OFF (``redact_spoken_phones.ON``); this file's cases read it switched on."""
    monkeypatch.setattr(redact_spoken_phones, "ON", True)


def test_every_reading_of_the_round_ships_off() -> None:
    assert (redact_phonelib.ON, redact_phonelib.ID_NOUN_VETO) == (False, False)
    text = "Her cell is four one five, seven two eight, three three nine one."
    redact_spoken_phones.ON = False
    try:
        assert redact(text).text == text
    finally:
        redact_spoken_phones.ON = True


@LIB
@pytest.mark.parametrize(("text", "secrets", "facts"), GROUPED)
@TAGGER
def test_a_phone_in_its_countrys_own_grouping_goes(text: str, secrets: list[str], facts: list[str], tagger: bool,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Measured, OFF (``redact_phonelib.ON``: held out it moved two released rows down); switched on here."""
    monkeypatch.setattr(redact_phonelib, "ON", True)
    out = redact(text, tagger=tagger).text
    assert all(s not in out for s in secrets) and all(f in out for f in facts), out
    assert "[REDACTED:phone]" in out, out


@LIB
@pytest.mark.parametrize(("text", "secrets", "facts"), GROUPED[:2])
def test_the_grouped_reader_switched_off_reads_as_main(text: str, secrets: list[str], facts: list[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redact_phonelib, "ON", False)
    assert any(s in redact(text, tagger=False).text for s in secrets)


def test_a_spoken_number_without_an_owner_is_no_phone(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "Tell Dana to call me on oh seven seven zero zero nine double zero one two three."
    assert "double zero" not in redact(text).text
    monkeypatch.setattr(redact_spoken_phones, "ON", False)
    assert redact_spoken_phones.find_spoken_phones(text) == []
    assert redact_spoken_phones.find_spoken_phones("Call the desk on six one seven, five five five, zero one nine nine.") == []


def test_an_order_noun_before_a_phone_shape_keeps_it_and_a_phone_word_between_does_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Measured, OFF (``redact_phonelib.ID_NOUN_VETO``); switched on here."""
    monkeypatch.setattr(redact_phonelib, "ID_NOUN_VETO", True)
    assert "04 18 22 63 91 B" in redact("Commande n° 04 18 22 63 91 B livrée mardi.").text
    assert redact_phonelib.numbered_as_id("Bestellnummer 030 1234 5678", 14)
    assert redact_phonelib.numbered_as_id("Commande n° 06 71 24 93 58", 12)
    assert not redact_phonelib.numbered_as_id("Ref: my mobile 0161 496 0732", 15)
    assert "0161 496 0732" not in redact("Ref: my mobile 0161 496 0732").text


def test_keys_and_tokens_are_found_by_their_own_module() -> None:
    from hindsight.safety.redact_secrets import find_secrets

    text = "deploy with ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    assert [s[0] for s in find_secrets(text)] == ["api_key"]
    assert "[REDACTED:api_key]" in redact(text).text
