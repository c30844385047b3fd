"""Redaction round 45 (issue 10): blind r40's misses and attack45's over-redactions, each read as a rule family (EN +
ZH), in our own wordings.

- A secret told as what a login / password is now, in the sentence after the one that reset it ("Reset the kiosk login
  this morning. It's X now.", "把收银机的登录改了，现在是 X").
- A key named by its short name before its value ("ak是X", "sk: X", "appkey=X").
- "N of M" is a count, never a house number, and an English gerund ("Storing", "During") is no German "-ring" street.
- A code read out digit by digit after a request to read it ("六位数念给我 ... 2 7 4 8 1 9", "read out the digits").
- A key's value never crosses a line break into a statement ("if not password:\\n    raise ValueError(...)").
- A capitalised name and a number ("Tomas-2014") is no password without a password cue before it (measured, OFF:
  ``redact_vet.NAME_NUMBER_KEPT``; its tests switch it on).
Examples are our own (none copied from a set); each failed on main f2ad5341.
"""

from __future__ import annotations

import pytest
from redaction_round import round_tests

from hindsight.safety import redact_vet

GONE = [
    ("Reset the kiosk login this morning. It's Harbor-Lamp-2291 now.", ["Harbor-Lamp-2291"], ["kiosk login"]),
    ("We rotated the sign-in for the lab printer; it is now Quartz*5512.", ["Quartz*5512"], ["lab printer"]),
    ("I changed my PIN on the alarm panel. The new one is 7391#x", ["7391#x"], ["alarm panel"]),
    ("sk是 Tq9Lm2Zx8Rk3Vn7Pw4Hb6Yc5，ak是 Ab3Cd9Ef2Gh8Ij7Kl", ["Tq9Lm2Zx8Rk3Vn7Pw4Hb6Yc5", "Ab3Cd9Ef2Gh8Ij7Kl"], []),
    ("导航用的ak是Wq3Zp8Lm2Rt7Xc4Vb9Nh6Ky，别外传。", ["Wq3Zp8Lm2Rt7Xc4Vb9Nh6Ky"], ["导航"]),
    ("Can you read out the six digits? ... ok so 5 8 1 3 0 6.", ["5 8 1 3 0 6"], ["six digits"]),
    ("奶奶您把短信里的六位数念给我，对，就是 3 9 0 4 7 2 那串。", ["3 9 0 4 7 2"], ["六位数"]),
]
KEEP = [
    ("Storing 2 of 16 backup codes in the drawer.", ["Storing 2 of 16"]),
    ("Monitoring 3 of 12 servers now.", ["Monitoring 3 of 12"]),
    ("During 3 weeks the team met daily.", ["During 3 weeks"]),
    ("if not password:\n    raise ValueError(\"password is required\")", ["raise ValueError"]),
    ("password = request.form.get(\"password\")\nif not password:\n    abort(400)", ["abort(400)"]),
    ("I reset the login for the portal. It's working now.", ["working"]),
    ("ak是什么意思？sk是私钥吗", ["ak是什么"]),
]

test_secret_gone_fact_kept, test_lookalike_kept = round_tests(GONE, KEEP)


def test_a_value_on_its_own_line_still_goes() -> None:
    """Only a statement is code: a password on the line under its label is still a password."""
    from hindsight.safety.redact import redact
    from hindsight.safety.redact_credentials import code_statement

    assert "Hunter2!x" not in redact("Password:\n    Hunter2!x").text
    assert not code_statement("Password:\n    Hunter2!x", 14, 23)


@pytest.mark.parametrize("text", ["Her handle is Tomas-2014 on the forum.", "Sign in as Fatima-10003 to see the refund.",
                                  "账号是 Tomas-2014，登录后改资料。"])
def test_a_name_and_number_is_no_password_when_switched_on(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Measured, OFF (``redact_vet.NAME_NUMBER_KEPT``): switched on, a name + number with no cue is kept."""
    from hindsight.safety.redact import redact

    monkeypatch.setattr(redact_vet, "NAME_NUMBER_KEPT", True)
    assert text == redact(text).text


def test_a_name_and_number_with_a_cue_still_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    from hindsight.safety.redact import redact

    monkeypatch.setattr(redact_vet, "NAME_NUMBER_KEPT", True)

    assert "Tomas-2014" not in redact("Login for Tomas: password Tomas-2014").text
    assert "Tomas-2014" not in redact("admin:Tomas-2014@10.0.0.5").text
    assert "Tomas-2014" not in redact("I reset the login. It's Tomas-2014 now.").text


def test_a_real_ring_street_is_still_an_address() -> None:
    from hindsight.safety.redact import redact

    assert "Kaiserring 12" not in redact("Lives at Kaiserring 12, Mannheim.").text


def test_the_brackets_around_a_told_value_stay_and_a_passwd_file_is_a_cue(monkeypatch: pytest.MonkeyPatch) -> None:
    from hindsight.safety.redact import redact

    monkeypatch.setattr(redact_vet, "NAME_NUMBER_KEPT", True)

    out = redact("ok changed the gate login, it's (Gt#4410qz) now, SSID stays the same").text
    assert "([REDACTED:password])" in out, out
    out = redact("The .htpasswd line is ops:Zq7!pLm2, and in plain it is Walker2019! for now.").text
    assert "Walker2019" not in out, out
