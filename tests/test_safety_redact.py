"""Redaction of secrets and personal data, and the look-alikes that must survive."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hindsight.safety.redact import (
    KINDS,
    RedactionResult,
    card_valid,
    cn_id_checksum,
    cn_id_valid,
    luhn_valid,
    redact,
    redactor,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))  # the guard set lives with the scripts
import guard_dataset as ds  # noqa: E402


def _assert_redacted(text: str, value: str, kind: str) -> RedactionResult:
    result = redact(text)
    assert value not in result.text, (text, result)
    assert f"[REDACTED:{kind}]" in result.text, (text, result)
    assert kind in result.kinds
    start = text.index(value)
    assert any(f.kind == kind and f.start <= start and f.end >= start + len(value) for f in result.findings)
    return result


# --------------------------------------------------------------------------- validators


def test_luhn_and_card_validation() -> None:
    assert luhn_valid("4111111111111111")
    assert not luhn_valid("4111111111111112")
    assert card_valid("378282246310005")  # Amex test number
    assert card_valid("6212345678901232") == luhn_valid("6212345678901232")
    assert not card_valid("1234567812345670")  # Luhn-valid, but no issuer starts with 1
    assert not card_valid("4444444444444448") or luhn_valid("4444444444444448")


def test_cn_id_checksum_and_date() -> None:
    assert cn_id_checksum("11010519491231002") == "X"
    assert cn_id_valid("11010519491231002X")
    assert cn_id_valid("11010519491231002x")
    assert not cn_id_valid("110105194912310021")  # wrong check digit
    assert not cn_id_valid("110105199002301234")  # 30 February
    assert not cn_id_valid("99010519491231002X")  # no such province


# --------------------------------------------------------------------------- each kind

EMAILS = [
    ("Reach me at wei.zhang@example.cn tomorrow.", "wei.zhang@example.cn"),
    ("我的邮箱是lina_88@163.com，谢谢。", "lina_88@163.com"),
    ("cc: dev+alerts@mail.example.org", "dev+alerts@mail.example.org"),
]
PHONES = [
    ("电话13812345678", "13812345678"),
    ("Call 138-1234-5678 after lunch.", "138-1234-5678"),
    ("手机：138 1234 5678", "138 1234 5678"),
    ("WeChat/phone +86 139 8765 4321", "+86 139 8765 4321"),
    ("Office: +1 415 555 0100", "+1 415 555 0100"),
    ("UK desk +44 20 7946 0958 ext. 2", "+44 20 7946 0958"),
    ("Her cell is (415) 555-0123.", "(415) 555-0123"),
    ("座机 010-62345678", "010-62345678"),  # a switchboard ("总机") is a public contact: tests/test_redaction_public.py
]
CN_IDS = [
    ("身份证号：11010519491231002X", "11010519491231002X"),
    ("ID 440305199003071236 on file", "440305199003071236"),
]
CARDS = [
    ("Visa 4111 1111 1111 1111 exp 12/27", "4111 1111 1111 1111"),
    ("卡号4111-1111-1111-1111", "4111-1111-1111-1111"),
    ("Amex 3782 822463 10005", "3782 822463 10005"),
    ("card=5555555555554444", "5555555555554444"),
]
API_KEYS = [
    ("key is sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f", "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f"),
    ("OPENAI_API_KEY=sk-Zq8mN3kL9pX2vB7cR4tY6uW1eH5jA0sD", "sk-Zq8mN3kL9pX2vB7cR4tY6uW1eH5jA0sD"),
    ("token ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ", "ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ"),
    (
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012",
    ),
    ("aws key AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    (
        "slack xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    ),
    ("maps AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW", "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"),
    (
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    ),
    ("Authorization: Bearer 8f4b2c9e1a7d3f6b0c5e8a2d4f7b1c9e", "8f4b2c9e1a7d3f6b0c5e8a2d4f7b1c9e"),
    ("client_secret = 'q8W2e4R6t8Y0u2I4o6P8a0S2'", "q8W2e4R6t8Y0u2I4o6P8a0S2"),
    ("访问令牌：Zx81Kq0Lm29Vb47Nc56Xd", "Zx81Kq0Lm29Vb47Nc56Xd"),
]
PASSWORDS = [
    ("password: hunter2", "hunter2"),
    ("My password is Tr0ub4dor&3.", "Tr0ub4dor&3"),
    ("pwd=S3cr3t!x", "S3cr3t!x"),
    ("密码是abc12345", "abc12345"),
    ("密码：Qwe!2024，别告诉别人", "Qwe!2024"),
    ("DB_PASSWORD=pg_Pa55word", "pg_Pa55word"),
    ("postgres://app:s3cretPg@db:5432/prod", "s3cretPg"),
]


@pytest.mark.parametrize(("text", "value"), EMAILS)
def test_email(text: str, value: str) -> None:
    _assert_redacted(text, value, "email")


@pytest.mark.parametrize(("text", "value"), PHONES)
def test_phone(text: str, value: str) -> None:
    _assert_redacted(text, value, "phone")


@pytest.mark.parametrize(("text", "value"), CN_IDS)
def test_cn_id(text: str, value: str) -> None:
    _assert_redacted(text, value, "cn_id")


@pytest.mark.parametrize(("text", "value"), CARDS)
def test_card(text: str, value: str) -> None:
    _assert_redacted(text, value, "card")


@pytest.mark.parametrize(("text", "value"), API_KEYS)
def test_api_key(text: str, value: str) -> None:
    _assert_redacted(text, value, "api_key")


@pytest.mark.parametrize(("text", "value"), PASSWORDS)
def test_password_value_only(text: str, value: str) -> None:
    result = _assert_redacted(text, value, "password")
    label = "密码" if "密码" in text else text[: text.index(value)].strip()[:4]
    assert label in result.text  # the label stays, only the value goes


def test_private_key_block() -> None:
    text = (
        "key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\nthanks"
    )
    result = redact(text)
    assert result.text == "key:\n[REDACTED:private_key]\nthanks"


def test_offsets_point_into_the_original_and_several_kinds_mix() -> None:
    text = "客户：邮箱 amy@example.com，手机 13912345678，身份证 11010519491231002X。"
    result = redact(text)
    assert result.kinds == ["email", "cn_id", "phone"]
    assert [text[f.start : f.end] for f in result.findings] == ["amy@example.com", "13912345678", "11010519491231002X"]
    assert result.text == "客户：邮箱 [REDACTED:email]，手机 [REDACTED:phone]，身份证 [REDACTED:cn_id]。"


def test_kinds_filter_and_pipeline_adapter() -> None:
    text = "mail bob@example.com, call 13812345678"
    assert redact(text, kinds=["email"]).text == "mail [REDACTED:email], call 13812345678"
    new_text, kinds = redactor(text)
    assert kinds == ["email", "phone"] and "[REDACTED:phone]" in new_text
    assert set(KINDS) >= {"email", "phone", "cn_id", "card", "api_key", "password"}


# --------------------------------------------------------------------------- look-alikes

LOOK_ALIKES = [
    "Order #20240315123456 shipped.",
    "订单号 202403151234567890 已发货",
    "Upgrade to 1.2.3, then 10.4.12.",
    "commit 3f2a9c1b8e7d6f5a4b3c2d1e0f9a8b7c6d5e4f3a",
    "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "ts=1717171717171 and epoch 1700000000",
    "2024-05-01 12:30:00 / 2024年5月1日",
    "Total $1,299.99 (¥9,380.00)",
    "身份证号 110105194912310021 的校验位是错的",
    "Test card 4111 1111 1111 1112 fails Luhn.",
    "UUID 550e8400-e29b-41d4-a716-446655440000",
    "IP 192.168.100.200, port 8080",
    "git@github.com:org/repo.git",
    "I forgot my password yesterday.",
    "The password is required and must be 12+ characters.",
    "密码是多少？",
    "api_key = os.environ['API_KEY']",
    "token: ${GITHUB_TOKEN}",
    "Bearer tokens go in the Authorization header.",
    "Use a password manager.",
    "Serial 138123456789012",
    "Call extension 5678 or room 1305.",
    "ISBN 978-3-16-148410-0",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_survive(text: str) -> None:
    result = redact(text)
    assert result.text == text, result
    assert result.findings == []


# --------------------------------------------------------------------------- labelled set


def test_pii_set_recall_and_precision() -> None:
    records = list(ds.load_pii_set())
    positives = [r for r in records if r["pii"]]
    negatives = [r for r in records if not r["pii"]]
    assert len(positives) >= 150 and len(negatives) >= 100
    assert {r["lang"] for r in positives} >= {"en", "zh"}
    values = hits = 0
    for record in positives:
        text = str(record["text"])
        result = redact(text)
        for item in record["pii"]:  # type: ignore[union-attr]
            values += 1
            start = text.index(item["value"])
            end = start + len(item["value"])
            hits += any(f.kind == item["kind"] and f.start <= start and f.end >= end for f in result.findings)
    assert hits / values >= 0.99
    flagged = sum(bool(redact(str(r["text"])).findings) for r in negatives)
    assert flagged / len(negatives) <= 0.02
