"""Redaction round 29: the label right in front of a value says what the value is, before its shape does.

A number's shape is weak evidence: an application's number can look like a phone, a customs entry's grouped number
like a password, an API's host like a key. The label the writer put in front of it is strong evidence, in both
directions, and is read first:

- ``identifier_label``: the value is named, right before it, as the number of a record that is no secret - an order,
  application, entry / declaration, case, ticket, claim, booking, invoice, shipment, waybill, transaction, batch
  (EN), 申请单号 / 工单号 / 报关单号 / 运单号 / 流水号 / 案号 / 受理号 / 申请编号 ... (ZH; any ``...单号`` is a form's
  number). ``redact_vet.declared_public`` keeps such a value whichever finder or the tagger took it. A label naming a
  person's document (licence, passport, ID, 档案编号) or an account / card is never an identifier label here: those
  make a value sensitive (``redact_roles._documents``, ``redact_cues``, ``redact_records``).
- ``host_shaped``: a host name or a URL path (``api.example.com/v2/shipments``) is where a key is sent, never the key
  or a password, whatever label is before it.

Each reading is one anchored pattern over a bounded look-back (40 characters), so a text costs linear time.
"""

from __future__ import annotations

import re

_SEP = r"\s*(?:[:：#=]|\bis\b|\bwas\b|是|为)?\s*"
# EN: a record's noun and its number word ("Entry number", "claim no.", "booking ref", "work order #", "PO:").
_ID_LABEL_EN = (
    r"\b(?:(?:customs|import|export)\s+)?(?:order|application|entry|declaration|case|ticket|waybill|work\s+order|job|claim|"
    r"booking|reservation|invoice|receipt|transaction|shipment|consignment|tracking|batch|lot|incident|complaint|"
    r"request|refund|return|rma|purchase\s+order|quote|quotation|enquiry|inquiry|docket|manifest|report)"
    r"\s*(?:no\.?|number|num|#|id|ref(?:erence)?)"
)
# ZH: a form's number (any ...单号 / 单编号: 申请单号, 报关单号, 工单号, 运单号, 保单号), a record's 编号 / 号 after its noun,
# a serial (流水号), a case number (案号, 报案号, 受理号), a batch (批号).
_ID_LABEL_ZH = (
    r"单(?:号码?|编号)|(?:申请|案件|受理|合同|订单|工单|项目|批次|报案|投诉|预约|交易|业务|报关|登记表|回执)(?:编号|号码?)|"
    r"流水号|案号|批号|排队号|取号"
)
_ID_LABEL = re.compile(rf"(?i)(?:{_ID_LABEL_EN}|{_ID_LABEL_ZH}){_SEP}$")
# A person's document or an account named inside the label makes it no identifier label ("驾驶证档案编号",
# "account reference", "银行卡交易流水号" stays an identifier: only the label's own head is read).
_PERSONAL_HEAD = re.compile(r"(?i)(?:passport|licen[cs]e|\bid\s+card|account|身份证|驾驶证|驾照|护照|账户|账号|卡)\s*$")


def identifier_label(text: str, start: int) -> bool:
    """Is the value starting at ``start`` named, right before it, as a record's number (an order, an application, a
    customs entry, a ticket, 申请单号, 报关单号, 流水号) rather than a secret or a person's number?"""
    m = _ID_LABEL.search(text, max(0, start - 40), start)
    if m is None:
        return False
    return not _PERSONAL_HEAD.search(text, max(0, m.start() - 12), m.start())


_TLD = (r"com|net|org|io|dev|app|cloud|co|cn|uk|de|fr|jp|kr|hk|sg|au|in|us|eu|info|biz|ai|gov|edu|local|internal|"
        r"example|test|invalid|localhost|corp|lan")
_HOST = re.compile(
    rf"(?P<scheme>https?://)?(?P<host>(?:[a-z0-9](?:[a-z0-9-]{{0,61}}[a-z0-9])?\.)+(?:{_TLD}))(?P<port>:\d{{1,5}})?"
    r"(?P<path>(?:/[a-z0-9._~%-]{0,40})*/?)"
)
# A path segment that looks generated (a webhook's token, a signed link's secret) makes the URL a credential itself.
_GENERATED_SEGMENT = re.compile(r"(?=[^/]*\d)[a-z0-9]{16,}")


def host_shaped(value: str) -> bool:
    """A lower-case host name with a known top-level domain and two dots, a scheme, a port or a plain path after it
    ("api.example.com/v2/shipments", "https://pay.internal:8443/"): where a credential goes, not the credential. A
    path segment that looks generated ("hooks.slack.com/services/T04.../Ju7zus...") is no plain path."""
    m = _HOST.fullmatch(value.rstrip(".,;"))
    if m is None or _GENERATED_SEGMENT.search(m.group("path")):
        return False
    return bool(m.group("scheme") or m.group("port") or m.group("path") or m.group("host").count(".") >= 2)
