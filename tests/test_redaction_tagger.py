"""Issue 10 round 5: the learned second opinion (hindsight.safety.redact_tagger) and the round-5 rules.

Every case was written for this file (none is copied from a blind set or from scripts/redact_synth.py's templates):
secrets in free EN/ZH sentences that no rule names, look-alikes of the same shapes that must stay byte for byte,
and the rule changes from the round-4 analysis (key-ID halves, card expiry in Chinese, public organisation
addresses and role mailboxes, the street line without the town).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from redaction_helpers import assert_linear_cost, assert_removed_and_kept, assert_untouched

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.safety.redact import redact
from hindsight.safety.redact_tagger import WEIGHTS, candidates, features, load_model

ROOT = Path(__file__).resolve().parents[1]

# (text, must not survive, must survive): the rules alone leave each secret in place (checked below).
TAGGED: list[tuple[str, list[str], list[str]]] = [
    ("Mum's tablet unlocks with Kestrel#4471, she keeps forgetting it.", ["Kestrel#4471"], ["Mum's tablet"]),
    ("grandma's router admin page: admin with Br1ght!Morning55", ["Br1ght!Morning55"], ["router admin page"]),
    ("Discord bot token rotated: MTE5ODc2NTQzMjEwOTg3NjU0.Gx7kPq.z9Lm2Xv7Rb4Nw8Yc1Hd6Js3Fg0KeUaTi", ["Gx7kPq.z9Lm2Xv7"], ["Discord bot"]),
    ("企业微信的 corpsecret 刷新了，新值 Tq9Lm2Xv7Rb4Nw8Yc1Hd6Js3，旧的作废", ["Tq9Lm2Xv7Rb4Nw8Yc1Hd6Js3"], ["企业微信", "旧的作废"]),
    ("小程序后台换了 appsecret，现在是 Wq8Zr3Lp6Xm1Tv9Ky4Nb7Hc2，旧的已失效", ["Wq8Zr3Lp6Xm1Tv9Ky4Nb7Hc2"], ["小程序后台", "旧的已失效"]),
]

# Rules added in round 5 (fail on main before this change).
RULES: list[tuple[str, list[str], list[str]]] = [
    ("Object storage for the photo backups: access key ID Lq7Zp2Vx9Rt4Mw8N, secret 4hGk9Lq2Wx7Zp3Vt8Rm1Ns6Yb5Cd0Fe",
     ["Lq7Zp2Vx9Rt4Mw8N", "4hGk9Lq2Wx7Zp3Vt8Rm1Ns6Yb5Cd0Fe"], ["photo backups"]),
    ("短信平台 SecretId Hx8Kq2Lm7Pz4Rt9Vw3N，SecretKey Fz2Kp9Lq4Wx7Rt3Vm8Ns1Yb6Cd5Ge0Hj，只开了发送权限",
     ["Hx8Kq2Lm7Pz4Rt9Vw3N", "Fz2Kp9Lq4Wx7Rt3Vm8Ns1Yb6Cd5Ge0Hj"], ["只开了发送权限"]),
    ("Pager alerts go out through the SMS vendor, auth token 5be0c8a17d3f42e9b6a1c0d7e2f8a4b3.",
     ["5be0c8a17d3f42e9b6a1c0d7e2f8a4b3"], ["Pager alerts"]),
    ("那张招行信用卡 4392 2600 1234 5676，2029 年 11 月到期，背面安全码 731", ["2029 年 11 月", "731", "4392 2600 1234 5676"], ["到期"]),
    ("Card on file 4111 1111 1111 1111, 11/29, CVV 208, for the hosting bill", ["11/29", "208"], ["hosting bill"]),
    ("Battle.net guard code R4T8K arrived, typing it now", ["R4T8K"], ["Battle.net"]),
    ("Her flat is 17 Elmwood Road, Apt 3, Bristol BS6 5TT; the office is in town", ["17 Elmwood Road", "BS6 5TT"], ["Bristol"]),
    ("我家在杭州市拱墅区湖墅南路 88 号 2 幢 503，周末在家", ["湖墅南路 88 号 2 幢 503"], ["杭州市拱墅区", "周末在家"]),
]

LOOKALIKES: list[str] = [
    "Bumped lodash from 4.17.20 to 4.17.21 and rebuilt image web:2.3.1-slim",
    "Release checksum (sha256) 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 matches the mirror",
    "Order A7-3391-KX shipped; tracking 1Z999AA10123456784",
    "The plan costs $1,299.00 per year, 20% off until May",
    "Set DB_PASSWORD=${DB_PASSWORD} in compose; never hardcode it",
    "Put the key in Vault at secret/data/payments and read it with VAULT_TOKEN from the env",
    "The token expiry is 3600 seconds and the refresh window is 86400",
    "Coupon code SPRING25 knocks 10% off the first order",
    "The icon is inlined as iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAQ0lEQVR4nGNgGAWjYBSMglEwCkbBKBgF",
    "Ticket OPS-4821 tracks the flaky Kafka consumer; PR #3392 fixes it",
    "请求 ID 7f3a9c2e-1b4d-4e8f-9a6b-2c5d8e1f3a7b 对应那次超时",
    "版本号改成 v3.12.0-rc2，构建号 20931",
    "提交 a1b2c3d 修了登录超时",
    "发票号码 04418237，金额 1288 元",
    "客服热线 400-880-9090，投稿请发 editor@jrnl-press.cn",
    # round-5 rules: organisation addresses, an empty BEGIN/END pair, mysql -p before Chinese punctuation
    "Head office: 250 Queen Street, Level 9, Brisbane QLD 4000. Deliveries via the loading dock.",
    "公司地址：上海市徐汇区漕溪北路 398 号汇智大厦 12 层，前台在一楼。",
    "把 -----BEGIN RSA PRIVATE KEY----- 和 -----END RSA PRIVATE KEY----- 之间的内容贴进密钥管理系统即可。",
    "连库统一写 mysql -u app -p，回车后再输入密码。",
    "PGP key ID 0x5C1B3A9F7E2D4068 is on the keyserver.",
]


def test_rules_alone_miss_what_the_tagger_catches() -> None:
    """The tagger cases are ones no rule covers, so they measure the second opinion."""
    for text, secrets, _ in TAGGED:
        if "Br1ght!" in text:
            continue  # a four-class password in a clause about a login: a rule since round 8 (redact_structure)
        assert any(s in redact(text, tagger=False).text for s in secrets), text


@pytest.mark.parametrize(("text", "secrets", "keep"), TAGGED + RULES)
def test_secret_removed_and_fact_kept(text: str, secrets: list[str], keep: list[str]) -> None:
    assert_removed_and_kept("round5", text, secrets, keep)


@pytest.mark.parametrize("text", LOOKALIKES)
def test_lookalike_untouched(text: str) -> None:
    assert_untouched(text)


def test_tagged_values_get_typed_placeholders() -> None:
    out = redact("grandma's router admin page: admin with Br1ght!Morning55")
    assert out.text == "grandma's router admin page: admin with [REDACTED:password]"
    assert redact(TAGGED[2][0]).kinds == ["api_key"]


def test_tagger_off_or_missing_weights_is_rules_only(tmp_path: Path) -> None:
    text = TAGGED[0][0]
    assert redact(text, tagger=False).text == text
    assert load_model(tmp_path / "absent.json") is None


def test_placeholders_and_algorithm_named_hashes_are_never_candidates() -> None:
    text = "use ${API_TOKEN} or <your-token>, integrity sha512-Qx8Lm2Rt7Vb4Nw9Yp1Hc3Jd6 and bcrypt $2b$12$Kq9Lm2Xv7Rb4"
    assert [c.value for c in candidates(text)] == []


def test_shipped_weights_are_small_and_documented() -> None:
    data = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert 0.5 <= data["threshold"] < 1 and data["meta"]["seed"] == 7
    assert WEIGHTS.stat().st_size < 200_000
    model = load_model()
    assert model is not None and model.threshold == data["threshold"]
    assert all(isinstance(f, str) for f in features("key: Zx9!", candidates("key: Zx9!abc")[0]))


def test_training_is_reproducible() -> None:
    pytest.importorskip("sklearn")
    sys.path.insert(0, str(ROOT / "scripts"))
    from redact_synth import generate
    from train_redact_tagger import train

    rows = generate(240, 3)
    assert train(rows, seed=3) == train(generate(240, 3), seed=3)


@pytest.mark.parametrize("unit", ["key Br1ght!Morning55, ", "新值 Tq9Lm2Xv7Rb4Nw8Yc1Hd6Js3，", "a1-" * 5, "MIIBIBAA"])
def test_cost_grows_linearly(unit: str) -> None:
    assert_linear_cost(unit)


def test_the_write_path_stores_the_tagged_value_redacted(engine: MemoryEngine) -> None:
    """Through MemoryEngine (real SQLite, real embedder): the stored note carries the placeholder, not the value."""
    outcome = engine.store_memory({"content": TAGGED[3][0]})
    assert outcome.action == "created", outcome
    stored = engine.store.get(outcome.memory_id)
    assert stored is not None and stored.status == Status.active
    assert "Tq9Lm2Xv7Rb4Nw8Yc1Hd6Js3" not in stored.content and "[REDACTED:api_key]" in stored.content
    assert "api_key" in outcome.redactions
