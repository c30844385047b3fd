"""Redaction round 18: the kinds behind blind round 19's redaction misses, in wordings of their own (EN and ZH, none
copied from a set).

- a password written in the past tense after a short label ("pw was ...") and the value it was changed to;
- a DeepL API key (a UUID with the free plan's ``:fx``);
- both halves of a pair written "ID / secret" after a pair word in a credential note; the ID half beside a secret
  whose label is joined to the pair's prefix ("accessKeySecret", "clientSecret");
- a ``curl -u user:password`` (or a bare client pair) glued to Chinese, without swallowing the Chinese after it;
- a card's expiry written MM/YYYY beside the card;
- a company's second account named by its type (一般户, 专用户 after 基本户);
- a civil-status document's number (出生医学证明, 出生证, birth certificate) beside a person's ID.

The look-alikes: a dealer's stock vehicle's VIN (EN and ZH 车架号); an organisation's mailbox printed on what it sends out.
"""

from __future__ import annotations

import pytest
from redaction_helpers import assert_linear_cost, assert_value_gone_or_kept, value_cases

from hindsight.safety.redact import redact

PII = [
    ("Router admin pw was Falcon77, switched over last night.", "Falcon77"),
    ("The NAS pwd was Harbor2019 until Monday; the new one is in the vault.", "Harbor2019"),
    ("Glossary tool uses DeepL: 9b2c4d6e-1a3f-4b5c-8d7e-0f1a2b3c4d5e:fx (free plan).", "9b2c4d6e-1a3f-4b5c-8d7e-0f1a2b3c4d5e:fx"),
    ("翻译插件的 DeepL 密钥 3e5f7a9b-2c4d-4e6f-8a0b-1c2d3e4f5a6b:fx 已配置好。", "3e5f7a9b-2c4d-4e6f-8a0b-1c2d3e4f5a6b:fx"),
    ("Payroll API login is svc / Qm7!vR2xLp; the retired key pair PRX-7T2M-44QA / Lw9#kE3nZs8 must not be reused.",
     "PRX-7T2M-44QA"),
    ("Payroll API login is svc / Qm7!vR2xLp; the retired key pair PRX-7T2M-44QA / Lw9#kE3nZs8 must not be reused.",
     "Lw9#kE3nZs8"),
    ("短信网关换了新凭据：accessKeyId = GW5512KQ93，accessKeySecret = Tn4Pq8Zx2Lm6Vb9R，旧的作废。", "GW5512KQ93"),
    ("OAuth app for the portal: clientId = portal7731xq, clientSecret = Vq8Lm2Zx9Rt4Kp7W", "portal7731xq"),
    ("打印机上传脚本里用了curl -u printer:Pr7#Up2024，回头改掉。", "Pr7#Up2024"),
    ("备份任务直接curl --user backup:Bk9xLm2Qw拉取日志。", "Bk9xLm2Qw"),
    ("Fuel card for the vans: 4539578763621486, 11/2027, CVV 318.", "11/2027"),
    ("公司基本户 6222021001123456789，专用户 6222021001987654321，专款专用。", "6222021001987654321"),
    ("开户的基本存款户 110060149018800012345，一般存款户 110060149018800067890。", "110060149018800067890"),
    ("给女儿办护照：爸爸身份证 11010519850307281X，女儿出生证编号 N110105882。", "N110105882"),
    ("落户材料：户口本编号 310104556677，房产证复印件。", "310104556677"),
]

KEEP = [
    ("Lot inventory: VIN 2HGFC2F59JH512345, 2018 Civic, stock #C2210, priced to move.", "2HGFC2F59JH512345"),
    ("展厅在售：车架号LFV2A21K8M3123457，2021款速腾，库存号B-118。", "LFV2A21K8M3123457"),
    ("The council's rates mailbox rates@council.example.gov.uk is printed on every bill; point callers there.",
     "rates@council.example.gov.uk"),
    ("社保局咨询邮箱 zixun@hrss.example.gov.cn 印在每张缴费通知单上。", "zixun@hrss.example.gov.cn"),
    ("Release notes compare pairs 2024-05 / 2024-06 side by side.", "2024-05 / 2024-06"),
    ("The build box password is Kx8!pQ2m; release branches pair v2.3.1-rc / v2.3.1 for the diff.", "v2.3.1-rc / v2.3.1"),
]

CASES = value_cases(PII, KEEP)


@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
@pytest.mark.parametrize(("text", "value", "secret"), CASES)
def test_secret_gone_and_look_alike_kept(text: str, value: str, secret: bool, tagger: bool) -> None:
    """A PII case's value is gone from the output; a look-alike's value is still there."""
    assert_value_gone_or_kept(text, value, secret, tagger)


def test_a_command_glued_to_chinese_keeps_the_chinese_after_it() -> None:
    """The password ends where the Chinese begins: the words after it are the note's fact."""
    out = redact("同步脚本里写死了curl -u sync:Sy7#Nc2024，下次改成读环境变量。", tagger=False).text
    assert out == "同步脚本里写死了curl -u sync:[REDACTED:password]，下次改成读环境变量。", out
    out = redact("备份任务直接curl --user backup:Bk9xLm2Qw拉取日志。", tagger=False).text
    assert out == "备份任务直接curl --user backup:[REDACTED:password]拉取日志。", out


def test_a_person_s_vin_still_goes() -> None:
    """Without stock words the VIN names a person's car (an insurance quote, a loan)."""
    out = redact("VIN for my car loan: 2HGFC2F59JH512345, 2018 Civic.", tagger=False).text
    assert "2HGFC2F59JH512345" not in out, out


def test_an_expiry_needs_a_card() -> None:
    """MM/YYYY alone is a month."""
    text = "Invoice 11/2027 covers the van lease; payment due on the 5th."
    assert redact(text, tagger=False).text == text


def test_a_personal_mailbox_printed_somewhere_still_goes() -> None:
    out = redact("Her own address jane.doe88@gmail.com is printed on the invoice.", tagger=False).text
    assert "jane.doe88@gmail.com" not in out, out


@pytest.mark.parametrize("unit", ["curl -u a:Bb1#", "key pair AB12CD34 / ", "基本户 6222 ", "VIN 2HGFC2F59JH512345 stock ",
                                  "printed on "])
def test_round18_readers_are_linear(unit: str) -> None:
    assert_linear_cost(unit)
