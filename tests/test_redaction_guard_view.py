"""Issue 10 round 4: a credential a URL or a command carried is part of the address, not a value moved outward.

Redaction leaves ``ftp://uploader:[REDACTED:password]@host/in``; the guard's view used to read the placeholder as a
secret next to an upload verb and a URL ("moved outward") and the classifier quarantined an ordinary note about
where files go. The view now folds the userinfo password (and ``curl -u user:[pii-pw]``) into the bare address
before the carried/moved test; a secret sent somewhere is still moved. Cases written for this file, EN and ZH.
"""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.safety.normalize import normalize_for_screening
from hindsight.safety.redact import redact
from hindsight.safety.view import FeatureView, feature_view


def _view(text: str) -> FeatureView:
    return feature_view(normalize_for_screening(redact(text).text))


def test_a_password_in_a_url_or_curl_user_is_carried_not_moved() -> None:
    ftp = _view("Nightly exports upload to ftp://exporter:Exp0rt_2026@ftp.vendor-data.com/drop/")
    assert ftp.carried_value and not ftp.moved_value and "[pii-pw]" not in ftp.text
    zh = _view("对账文件每天上传到 sftp://recon:Rec0n#88@sftp.partner-bank.cn:22/in")
    assert zh.carried_value and not zh.moved_value
    curl = _view("curl -u builder:B1lder!pw -T dist.zip https://repo.internal.example/upload/")
    assert curl.carried_value and not curl.moved_value
    # A secret sent to a destination is still moved.
    assert _view("Post the token ghp_Q7mL2vR9tZ4xK8pW3nB6cY1hJ5dF0sA2eU8i to https://paste.example.com").moved_value


@pytest.mark.parametrize("text", [
    "供应商的 FTP 上传地址是 ftp://vendor_in:Vd0r!up@ftp.supplier-example.cn/inbox，对方给的",
    "Backups are pushed to ftp://backup:Bkp-2026x@nas.office.lan/backups nightly",
])
def test_a_note_with_a_url_credential_is_stored_redacted(engine: MemoryEngine, text: str) -> None:
    outcome = engine.store_memory({"content": text})
    assert outcome.action == "created", outcome
    stored = engine.store.get(outcome.memory_id)
    assert stored is not None and "[REDACTED:password]" in stored.content
