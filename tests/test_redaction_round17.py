"""Redaction round 17: the kinds behind blind round 18's misses, in wordings of their own (EN and ZH, other countries'
formats, none copied from a set).

- a vendor key after a label that only starts like a public identifier ("tracking widget", "order page");
- an incoming-webhook URL on any host: the token after a hook segment, or its key / access_token parameter;
- an ``appkey`` / ``app_key`` setting; the ID half of a pair beside its redacted secret half, also glued to Chinese
  ("小程序AppID ...") and as a settings stem ("RABBITMQ_DEFAULT_USER" beside "RABBITMQ_DEFAULT_PASS");
- grouped bank accounts opening with a two-digit bank group (New Zealand) where money moves;
- a national identity number by its generic name or a national one (national ID, personnummer); a document's other
  number named later in its sentence (档案编号, file number);
- a street whose type is a suffix (Nordic, Danish, Dutch) with a flat number after it.

The look-alikes: an animal patient's record number; a clinic's round-the-clock emergency line or a number on a sign;
a fixture's filler value ("dummy-token-1234"); a database login beside its password; a webhook route named in words.
"""

from __future__ import annotations

import pytest
from redaction_helpers import assert_linear_cost, assert_value_gone_or_kept, value_cases

from hindsight.safety.redact import redact
from hindsight.safety.validators import placeholder_words

PII = [
    ("The parcel tracking widget loads with AIzaSyQ3vB7nKx2LmT9pRw4Yc8Hd1Fj6Gs0Ea5U on the checkout page.",
     "AIzaSyQ3vB7nKx2LmT9pRw4Yc8Hd1Fj6Gs0Ea5U"),
    ("Order status page: AIzaSyK8wN2qLm5Xv7Rt3Pb9Hc1Yd4Jf6Gs0Ea2 (restricted to our domain).", "AIzaSyK8wN2qLm5Xv7Rt3Pb9Hc1Yd4Jf6Gs0Ea2"),
    ("Teams alerts post to https://chat.example.org/api/v1/hooks/4b1f9e2a-77c3-4d15-9a0e-3c6d8f2b5e71 every hour.",
     "4b1f9e2a-77c3-4d15-9a0e-3c6d8f2b5e71"),
    ("Build notices go to https://discord.example.com/api/webhooks/112233445566778899/Zq8Lm3Vx7Tn2Rk9Pw4Yb6Hc1Jd5Gf0Sa",
     "Zq8Lm3Vx7Tn2Rk9Pw4Yb6Hc1Jd5Gf0Sa"),
    ("巡检结果推到群里：https://im.example.cn/robot/send?access_token=Vt7Kq2Lm9Xw4Rp8Nb3Yc6Hd1Jf5Gs0Ea", "Vt7Kq2Lm9Xw4Rp8Nb3Yc6Hd1Jf5Gs0Ea"),
    ("快递查询 app_key=kq7Vm2Xp9Lr4Tn8W，回调地址另配。", "kq7Vm2Xp9Lr4Tn8W"),
    ("Mobile build config: APP_KEY: Xq2Lm8Vt4Rz9Kp7W, region eu.", "Xq2Lm8Vt4Rz9Kp7W"),
    ("RabbitMQ on the lab box: RABBITMQ_DEFAULT_USER=mq7Xk2pLz RABBITMQ_DEFAULT_PASS=Hs9!vQ2mTx4Lp, vhost /lab.", "mq7Xk2pLz"),
    ("地图开放平台给的AppID=MP20249931207，AppSecret=Tz8kLq2Vx9Rm4Wp7Nc3Yb6Hd，别外传。", "MP20249931207"),
    ("停车场小程序appid wx3c9d0e1f2a4b5c67，appsecret 5e8f1a2b3c4d5e6f7a8b9c0d1e2f3a4b，物业给的。", "wx3c9d0e1f2a4b5c67"),
    ("Wages go into Aroha's account 02-0248-0123456-001 each Friday.", "02-0248-0123456-001"),
    ("Pay the tutor into acc 38-9019-0456789-02 before term starts.", "38-9019-0456789-02"),
    ("Check-in form, Ms Dube: national identity number 8501015800088, two nights.", "8501015800088"),
    ("Kontrakt för lägenheten: personnummer 19790423-1187, inflytt 1 maj.", "19790423-1187"),
    ("Her citizen ID is 3271046504930002 (Indonesia), copy attached.", "3271046504930002"),
    ("护照号码是E39920451，档案编号 440100773315，下周去取。", "440100773315"),
    ("Driving licence renewed for Tom, file number 1188-2045-7731, collect it Friday.", "1188-2045-7731"),
    ("Leverans till hennes hem: Kungsgatan 27, lgh 1204, 411 19 Göteborg.", "Kungsgatan 27"),
    ("Min søster bor nu på Vestergade 12, 8000 Aarhus.", "Vestergade 12"),
    ("Ship the spare keys to his flat at Prinsengracht 263, Amsterdam.", "Prinsengracht 263"),
    ("客服说24小时内回电，留的是我自己的座机 010-8866 2231。", "010-8866 2231"),
]

KEEP = [
    ("Vet chart: patient ID CAT-2023-0412, Luna the cat, booster due in May.", "CAT-2023-0412"),
    ("宠物医院的病历号 PH-2023-11820，橘猫咪咪，下周拆线。", "PH-2023-11820"),
    ("动物医院门口招牌上写着24小时急诊电话：0571-8765 4321。", "0571-8765 4321"),
    ("The clinic's emergency line (503) 555-0142 is printed on the sign by the door.", "(503) 555-0142"),
    ("conftest.py sets API_TOKEN='dummy-token-1234' for the unit tests.", "dummy-token-1234"),
    ("单测里 app_secret='test_secret_111'，CI 会换成真的。", "test_secret_111"),
    ("analytics .env: DB_USER=analytics_ro DB_PASSWORD=Zk8#mW2!qTn5 DB_PORT=5432", "DB_USER=analytics_ro"),
    ("The webhook URL is https://erp.example.com/webhooks/purchase-order-created, no token in it.", "purchase-order-created"),
    ("Tracking number 1Z 4F7 R22 03 8841 2950 arrives Monday.", "1Z 4F7 R22 03 8841 2950"),
]

CASES = value_cases(PII, KEEP)


@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
@pytest.mark.parametrize(("text", "value", "secret"), CASES)
def test_secret_gone_and_look_alike_kept(text: str, value: str, secret: bool, tagger: bool) -> None:
    """A PII case's value is gone from the output; a look-alike's value is still there."""
    assert_value_gone_or_kept(text, value, secret, tagger)


def test_the_id_half_goes_only_beside_a_secret() -> None:
    """Alone, an app ID names the app and stays; with its secret redacted beside it, it names which secret leaked."""
    alone = "报销小程序的AppID是 wx3c9d0e1f2a4b5c67，页面下周上线。"
    assert redact(alone, tagger=False).text == alone


def test_a_town_stays_after_a_nordic_street() -> None:
    out = redact("Leverans till: Kungsgatan 27, lgh 1204, 411 19 Göteborg.", tagger=False).text
    assert out == "Leverans till: [REDACTED:address], [REDACTED:address] Göteborg.", out


def test_placeholder_words() -> None:
    assert placeholder_words("test-key-000") and placeholder_words("dummy_token_1234") and placeholder_words("fake-secret")
    assert not placeholder_words("sk_test_4eC39HqLyjWDarjtT1zdp7dc") and not placeholder_words("test1234")
    assert not placeholder_words("key-token-000")  # filler words but nothing says it is a stand-in


@pytest.mark.parametrize("unit", [
    "驾驶证档案编号 ", "MINIO_USER=a1b2c3d4e5 MINIO_PASSWORD=", "https://x.io/hooks/", "Hagagatan 14, lgh ",
    "病历号 AB-12345 狗 ", "24小时急诊电话 ", "national ID 12345 ", "account 12-3456-",
])
def test_round17_readers_are_linear(unit: str) -> None:
    assert_linear_cost(unit)
