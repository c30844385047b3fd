"""Redaction round 29 (issue 10): the label in front of a value decides what it is before the value's shape does - EN
and ZH, in wordings of our own (none copied from a released set).

A record's number (an application, a customs entry, a ticket, a claim, 申请单号 / 工单号 / 售后单号) is kept however
much it looks like a phone or a password; a host after a key label is where the key goes, not the key. A person's
document (a driving licence, a resident ID) or an account makes the value after it sensitive: an ID-shaped number
right after its label whatever its checksum, an account number of any grouping, a nested record's generic "number"
under its account's key.
"""

from __future__ import annotations

import pytest
from linear_cost import assert_not_superlinear

from hindsight.safety.redact import redact
from hindsight.safety.redact_cues import find_bank_accounts
from hindsight.safety.redact_labels import host_shaped, identifier_label
from hindsight.safety.redact_records import find_record_values
from hindsight.safety.redact_vet import declared_public

# (text, the value that stays)
KEEP = [
    ("宽带报修单号13907551234已经受理，师傅明天上门。", "13907551234"),
    ("我的工单号是 18611230987，麻烦帮忙催一下。", "18611230987"),
    ("售后单号 13567781290 客服已经登记，等退款。", "13567781290"),
    ("The RMA number 447-2291830-5 was approved, ship the router back by Friday.", "447-2291830-5"),
    ("Your claim number is 0412 5567 8890, keep it for the adjuster.", "0412 5567 8890"),
    ("The support ticket no. 0208 7741 3390 is still open with the ISP.", "0208 7741 3390"),
    ("Parcel API key: parcels.example.net/v3/labels, sent as X-Api-Key: Tq8Wm3Zr6Yp1Kd4Hs9Nb", "parcels.example.net/v3/labels"),
    ("接口密钥：open.example.cn/api/v1/orders，请求头 X-Api-Key: Tq8Wm3Zr6Yp1Kd4Hs9Nb", "open.example.cn/api/v1/orders"),
    ('{"order": {"number": "10482736", "status": "shipped"}}', "10482736"),
]

# (text, the value that goes, a fact that stays)
GONE = [
    ("驾驶证号210203198812045517，下周到期要换。", "210203198812045517", "下周到期"),
    ("司机老王的驾照号码：330106198507214412，车队登记用。", "330106198507214412", "车队登记用"),
    ("Learner driver Tom Ash, provisional licence number ASHTO 812033 TA7KX. Test on 3 May.", "ASHTO 812033 TA7KX", "Test on 3 May"),
    ("Intake: Mrs. Ruiz, Medicare number 7QW2-KD9-LM41, prefers afternoons.", "7QW2-KD9-LM41", "prefers afternoons"),
    ("KYC for the new tenant: resident ID 110105199003078816, lease starts in June.", "110105199003078816", "lease starts"),
    ("Refund the deposit to her account 7731-48-220915-3 at Nordbank before Friday.", "7731-48-220915-3", "Nordbank"),
    ("Wire the balance to account 4402 1187 3300 9912 045 (Bank of Lanzhou), ref PO-2231.", "4402 1187 3300 9912 045", "PO-2231"),
    ("Pay the plumber into his personal account 512-339017-204 (Hang Lung Bank).", "512-339017-204", "plumber"),
    ('{"payee": "Ana", "bank_account": {"bsb": "063-118", "number": "20571846"}, "amount": 120}', "20571846", "amount"),
    ('{"供应商": "丰源", "收款账户": {"户名": "王芳", "number": "6222020200112233445"}}', "6222020200112233445", "丰源"),
    ("payee:\n  name: Lina\n  account:\n    number: 778812340099\n  bank: Westpac\n", "778812340099", "Westpac"),
]

# A record's label never shields a person's number it does not name, and a document's archive number stays a secret.
STILL_GONE = [
    ("工单号 88213，报修人电话 13907551234。", "13907551234"),
    ("Ticket INC-4471: the caller's mobile is 07700 900 461.", "07700 900 461"),
    ("驾驶证档案编号 440300918273，下个月换证的时候要填。", "440300918273"),
]


@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
@pytest.mark.parametrize(("text", "value"), KEEP)
def test_labelled_identifier_kept(text: str, value: str, tagger: bool) -> None:
    assert value in redact(text, tagger=tagger).text


@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
@pytest.mark.parametrize(("text", "secret", "fact"), GONE)
def test_labelled_secret_gone(text: str, secret: str, fact: str, tagger: bool) -> None:
    out = redact(text, tagger=tagger).text
    assert secret not in out and fact in out, out


@pytest.mark.parametrize(("text", "value"), STILL_GONE)
def test_still_redacted(text: str, value: str) -> None:
    assert value not in redact(text).text


def test_label_and_host_readings() -> None:
    assert identifier_label("申请单号", 4) and identifier_label("customs entry no. ", 18)
    assert not identifier_label("驾驶证号", 4) and not identifier_label("account number ", 15)
    assert host_shaped("api.example.com/v2/shipments") and host_shaped("https://pay.internal:8443/")
    assert not host_shaped("Tq8Wm3Zr6Yp1Kd4Hs9Nb") and not host_shaped("qwe.ZJ_1987")


def _labels(text: str) -> object:
    return [declared_public(text, i + 11, i, "phone") for i in range(7, len(text), 40)]


@pytest.mark.parametrize(("run", "unit", "n"), [
    (_labels, "工单号 18611230987，售后单号 13567781290，Ticket no. 0208 7741 3390. ", 100),
    (find_record_values, '{"bank_account": {"number": "20571846"}, "order": {"number": "10482736"}}, ', 40),
    (find_bank_accounts, "Pay account 7731-48-220915-3 at Nordbank; ", 100),
], ids=["labels", "nested", "accounts"])
def test_linear_cost(run: object, unit: str, n: int) -> None:
    """Ten times the labels, nested objects or accounts cost about ten times as much (the readings alone)."""
    assert_not_superlinear(run, unit * n, unit * 10 * n, slack=0.05)  # type: ignore[arg-type]
