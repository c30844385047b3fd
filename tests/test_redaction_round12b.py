"""Round 12b redaction: secrets and look-alikes in structured text, judged by their key (docs/benchmarks.md,
"Redaction, round 12b: structured text").

Own cases in wordings of their own, EN and ZH - none is copied from a blind or training set or from the development
set tests/data/redact_structured_dev.jsonl. A PII case passes when every secret is gone and every keep survives; a
look-alike must come out byte for byte. Rules only (``tagger=False``) and with the shipped tagger.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hindsight.safety.redact import redact

PII: list[tuple[str, list[str], list[str]]] = [
    # A SQL column list aligned to its VALUES tuple: the column names the value.
    ("INSERT INTO vendors (vendor, account_no, bank) VALUES ('Kestrel Paper', '731200458812', 'Chase');",
     ["731200458812"], ["'Kestrel Paper'", "'Chase'"]),
    ("INSERT INTO 会员 (昵称, 银行卡号) VALUES ('阿杰', '6217002870015236497');", ["6217002870015236497"], ["'阿杰'"]),
    # A CSV header aligned to its rows.
    ("supplier,iban,terms\nNordlys AS,NO9386011117947,net 30", ["NO9386011117947"], ["Nordlys AS", "net 30"]),
    ("host,user,passwd\nnas-01,backup,Tern4-Ochre\nnas-02,backup,juniper77Kelp", ["Tern4-Ochre", "juniper77Kelp"],
     ["nas-01,backup", "nas-02,backup"]),
    ("员工,身份证号\n周航,110105198806150034", ["110105198806150034"], ["周航"]),
    # Keys in config syntax: a ZH label, a bare "account" in a bank section, an unquoted card under 卡号.
    ('{"门户账号": "zhouhang", "门户密码": "qiushui#2025"}', ["qiushui#2025"], ['"门户账号": "zhouhang"']),
    ('[payroll bank]\naccount = "55019034471"\nholder = "R. Mendes"', ["55019034471"], ['holder = "R. Mendes"']),
    ("报销信息\n收款卡号：6212260200012345678\n姓名：吴迪", ["6212260200012345678"], ["姓名：吴迪"]),
    # A number spelled out in a transcript is read as digits by the same finders.
    ("Voicemail transcript: hi it's Pat, the verification code is seven three one eight zero two, bye",
     ["seven three one eight zero two"], ["Voicemail transcript", "Pat"]),
    ("录音整理：她说身份证号是一一零一零五一九八八零六一五零零三四，明天带过来", ["一一零一零五一九八八零六一五零零三四"], ["录音整理", "明天带过来"]),
]

LOOKALIKES: list[str] = [
    # A key naming a public or non-secret thing keeps its value.
    '{"helpdesk_phone": "+1 646 555 0173", "status": "ok"}',
    "release:\n  sha512: 3a81oZ7c0e6f1b2d9c4a5e8f7b6d3c2a1e0f9d8c7b6a5e4d3c2b1a0f9e8d7c6b5a4\n  version: 2.0.4",
    "客服热线: 021-61234567\n营业时间: 9:00-21:00",
    # A reference is never a secret, under any key.
    "mail:\n  password: ${MAIL_PASSWORD}\n  username: ${MAIL_USER}",
    "SELECT * FROM accounts WHERE email = :email AND account_no = :acct;",
    '{"token": "<PASTE_TOKEN_HERE>", "retries": 3}',
    # A key about a secret, not the secret.
    "PASSWORD_MAX_AGE_DAYS=90\nCARD_BRAND=mastercard",
    # Spelled numbers that no finder would take as digits stay.
    "Transcript: we need one two three four volunteers for Saturday, then five six more on Sunday",
    "会议纪要：三三两两来了二三十人，一五一十地讲清楚了",
]


@pytest.mark.parametrize("tagger", [False, True])
@pytest.mark.parametrize(("text", "secrets", "keep"), PII)
def test_structured_secret_is_redacted(text: str, secrets: list[str], keep: list[str], tagger: bool) -> None:
    out = redact(text, tagger=tagger).text
    assert not [s for s in secrets if s in out], out
    assert all(k in out for k in keep), out


@pytest.mark.parametrize("tagger", [False, True])
@pytest.mark.parametrize("text", LOOKALIKES)
def test_structured_lookalike_is_kept(text: str, tagger: bool) -> None:
    assert redact(text, tagger=tagger).text == text


def test_sql_columns_align_to_values() -> None:
    from hindsight.safety.redact_records import record_pairs

    text = "INSERT INTO t (a, b, c) VALUES (1, 'x, y', NULL);"
    pairs = [(k, text[s:e]) for k, s, e in record_pairs(text)]
    assert ("a", "1") in pairs and ("b", "x, y") in pairs and ("c", "NULL") in pairs


def test_key_classes() -> None:
    from hindsight.safety.redact_records import key_class

    assert key_class("DB_PASSWORD") == "password"
    assert key_class("password_min_length") is None
    assert key_class("card_last4") is None
    assert key_class("support_email") == "public"
    assert key_class("登录密码") == "password"
    assert key_class("密码长度") is None
    assert key_class("account") is None and key_class("account", bank=True) == "bank_account"


def test_card_key_without_a_card_shape_is_not_redacted() -> None:
    assert redact("card_number: pending\ncard_holder: Ines Roy", tagger=False).text.count("REDACTED") == 0


def test_development_set_floor() -> None:
    """The round-12b development set (written before the change; main read 0.866 / 0.900 rules alone)."""
    rows = [json.loads(line) for line in (Path(__file__).parent / "data" / "redact_structured_dev.jsonl").read_text(encoding="utf-8").splitlines() if line]
    outs = [redact(r["text"], tagger=False).text for r in rows]
    pii = [not any(s in o for s in r["secrets"]) and all(k in o for k in r["keep"]) for r, o in zip(rows, outs, strict=True) if r["kind"] == "pii"]
    look = [o == r["text"] for r, o in zip(rows, outs, strict=True) if r["kind"] != "pii"]
    assert sum(pii) / len(pii) >= 0.95 and sum(look) / len(look) >= 0.90


def test_spelled_run_maps_back_to_the_words() -> None:
    from hindsight.safety.redact_spelled import spelled_findings

    text = "PIN is four four one nine, ok"
    found = spelled_findings(text, lambda t: [("password", t.index("4419"), t.index("4419") + 4)])
    assert [text[a:b] for _, a, b in found] == ["four four one nine"]


def test_spelled_reading_is_linear() -> None:
    from hindsight.safety.redact_spelled import spelled_findings

    calls: list[str] = []

    def digits(t: str) -> list[tuple[str, int, int]]:
        calls.append(t)
        return [("otp", m.start(), m.end()) for m in re.finditer(r"\d{4}", t)]

    found = spelled_findings("code one two three four. " * 500, digits)
    assert len(found) == 500 and len(calls) == 1  # one rewrite, one pass of the finders, however many runs


def test_record_reading_is_linear() -> None:
    from hindsight.safety.redact_records import find_record_values

    unit = "INSERT INTO p (name, iban) VALUES ('A', 'DE44500105175407324931');\nkey_password = Fjord-55x\n"
    small, large = find_record_values(unit * 50), find_record_values(unit * 500)
    assert len(large) == 10 * len(small) == 1000
