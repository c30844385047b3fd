"""Round 10 redaction: values found by their shape with a cue in a window, the partner of a found key, card numbers
by their card word, one-time codes by cue and digit run, look-alikes kept by their own cues.

Own cases written for this repository from the kinds found in the round-10 failure table (docs/benchmarks.md,
"Redaction, round 10"), in wordings of their own - none is copied from a blind or training set. Each PII case passes
when every secret is gone and every keep survives; each look-alike must come out byte for byte.
"""

from __future__ import annotations

import pytest

from hindsight.safety.redact import redact
from hindsight.safety.redact_window import (
    find_card_numbers,
    find_pair_partners,
    find_unionpay_accounts,
    find_window_keys,
)

PII: list[tuple[str, list[str], list[str]]] = [
    # A key by its shape, the key word a few words before it (EN, ZH, an English cue glued to Chinese text).
    ("The Mapbox key for the store locator page: 8c2f4e6a1b3d5f7081a9c2e4b6d8f0a3", ["8c2f4e6a1b3d5f7081a9c2e4b6d8f0a3"],
     ["Mapbox", "store locator"]),
    ("高德地图 key：7be3c91d2f4a6e80b1c3d5e7f9a2b4c6（企业版，日调用 30 万次）", ["7be3c91d2f4a6e80b1c3d5e7f9a2b4c6"], ["高德地图", "企业版"]),
    ("地图服务的私钥写死在前端代码里了（原值 Qm7Xk2Lp9Vt4Rz8Nb3Wc），下周迁到网关。", ["Qm7Xk2Lp9Vt4Rz8Nb3Wc"], ["下周迁到网关"]),
    ("小程序统计用的AppKEY=e4a7c2b9d1f38e5a6c0b7d2f9e1a4c8b，别提交到仓库。", ["e4a7c2b9d1f38e5a6c0b7d2f9e1a4c8b"], ["别提交到仓库"]),
    # The ID half of a pair whose secret half was found, named by a label no earlier rule listed.
    ("The rclone remote for the backup bucket uses key wasabi-bk-93KZ and secret Xr7Lq2Mv9Tn4Wz8Pc1Kd, rotate in June.",
     ["wasabi-bk-93KZ", "Xr7Lq2Mv9Tn4Wz8Pc1Kd"], ["rclone remote", "rotate in June"]),
    ("七牛云那套：AK是QN7XK2M9P4RT8VW3ZL5B，SK是Hx8Ld3Qs6Vp1Ty9Wm4Nc7Rb2Kf5Jz0Ga，别和测试桶混用。",
     ["QN7XK2M9P4RT8VW3ZL5B", "Hx8Ld3Qs6Vp1Ty9Wm4Nc7Rb2Kf5Jz0Ga"], ["七牛云", "别和测试桶混用"]),
    ("讯飞开放平台 APP ID 20240611000912345，密钥 Zk4Wp8Lm2Qv7Rt1Xn5B，免费额度每天 500 次。",
     ["20240611000912345", "Zk4Wp8Lm2Qv7Rt1Xn5B"], ["讯飞开放平台", "每天 500 次"]),
    ("Storage HMAC pair rotated (id GOOG1QX7M2LZ9RP4NV8TK3BW6CY1DH0FJ5SE2A, secret cGFzc3dvcmRGb3JUZXN0aW5nT25seTEy).",
     ["GOOG1QX7M2LZ9RP4NV8TK3BW6CY1DH0FJ5SE2A", "cGFzc3dvcmRGb3JUZXN0aW5nT25seTEy"], ["Storage HMAC pair"]),
    # A card number after a bare "card" or a brand glued to Chinese text, with its expiry.
    ("Spotify keeps rejecting card 5412 7534 1298 6604 (expiry 08/2027); the bank flagged it.", ["5412 7534 1298 6604", "08/2027"],
     ["Spotify", "the bank flagged it"]),
    ("记一下这张Mastercard：5412753412986604，安全码 381，2027年8月到期。", ["5412753412986604", "381", "2027年8月"], ["Mastercard"]),
    # A UnionPay number with a bank or a transfer in its window.
    ("房租转到 6217001234567890127（建行），备注写门牌号。", ["6217001234567890127"], ["建行", "备注写门牌号"]),
]

LOOKALIKES: list[str] = [
    # Key-shaped values whose window names what they are: a digest, a commit, a public key body.
    "The sha256 checksum for the installer key bundle: 4be1c9a07d2e3f5a6b8c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a",
    "Release key tag points at commit 3f9e2d1c0b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e in the mono repo.",
    "Authorised key for CI: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJq8Lm2Xv7Tn4Wp9Rk3 ci@build",
    # A bank-looking number with neither a bank nor a transfer near it; a library card.
    "物流单号 6200345678901234567 还没更新。",
    "My library card 2938 4756 1029 3847 expires in May.",
    # Markup and calls where a password would stand.
    'Signup form: <input name="pw" type="password" autocomplete="new-password"> keeps browsers from reusing one.',
    "In the e2e test, `pwd_box = page.get_by_label(\"Password\")` fails on the new layout.",
    # Published lines and addresses, named by their own cues.
    "Museum reception line 020 7946 0188 for group bookings.",
    "Hotel front desk: +1 (415) 555-0142, open all night.",
    "Visitors check in at HQ, 500 Harbor Point Drive, Building B; badges at the lobby.",
    "客服中心对外办公地址：上海市徐汇区漕溪北路 88 号 5 楼。",
    "报销发票抬头写公司全称，注册地址填：杭州市西湖区文三路 90 号 7 层。",
]


@pytest.mark.parametrize(("text", "secrets", "keep"), PII)
def test_round10_secret_removed_fact_kept(text: str, secrets: list[str], keep: list[str]) -> None:
    out = redact(text).text
    assert not [s for s in secrets if s in out], out
    assert not [k for k in keep if k not in out], out


@pytest.mark.parametrize("text", LOOKALIKES)
def test_round10_lookalike_untouched(text: str) -> None:
    assert redact(text).text == text


def test_window_key_needs_a_cue_in_the_same_sentence() -> None:
    text = "Rotate the key today. 8c2f4e6a1b3d5f7081a9c2e4b6d8f0a3 is the build digest."
    assert find_window_keys(text) == []
    assert find_window_keys("The weather key: 8c2f4e6a1b3d5f7081a9c2e4b6d8f0a3")


def test_partner_only_next_to_a_labelled_secret() -> None:
    text = "key ops-nas-7Q2X and secret Tz5Yx1Vb7Nc3Md9Kf4Hg6"
    start = text.index("Tz5")
    assert [text[a:b] for _, a, b in find_pair_partners(text, [(start, len(text))])] == ["ops-nas-7Q2X"]
    # A far-away ID and a secret with no label of its own: no partner.
    far = "APPID 2021004123456789，应用私钥另发邮件，这里先记加密密钥 q2Lz8TpW0vR4mXc7NkB1sA=="
    assert find_pair_partners(far, [(far.index("q2Lz"), len(far))]) == []
    plain = "id GOOG1EQ7LM2XRZ9PN4VT8KB3, Tz5Yx1Vb7Nc3Md9Kf4Hg6"
    assert find_pair_partners(plain, [(plain.index("Tz5"), len(plain))]) == []


def test_card_word_and_unionpay_need_their_cues() -> None:
    assert find_card_numbers("card 5412 7534 1298 6604")
    assert find_card_numbers("staff card 5412 7534 1298 6604") == []
    assert find_card_numbers("card 1111 1111 1111 1111") == []
    assert find_unionpay_accounts("转账到 6217001234567890127")
    assert find_unionpay_accounts("批次号 6217001234567890127") == []


def test_many_pairs_in_one_text_all_found() -> None:
    """A long text of repeated pairs: every key and every partner is found (each window is bounded and local)."""
    text = "key: Qm7Xk2Lp9Vt4Rz8Nb3Wc and secret Hx8Ld3Qs6Vp1Ty9Wm4Nc7R. " * 400
    found = redact(text).findings
    assert len(found) >= 800


def test_base64_basic_auth_is_not_markup() -> None:
    """A markup attribute's name is never a password, but base64 padding before a quote or the text's end is a value."""
    for text in ("curl -H 'Authorization: Basic c3ZjOlBhc3MtOTk4MQ=='", "Authorization: Basic c3ZjOlBhc3MtOTk4MQ=="):
        assert "c3ZjOlBhc3MtOTk4MQ==" not in redact(text, tagger=False).text
