"""Round 11b redaction: the kinds blind round 11 missed (docs/benchmarks.md, "Redaction, round 11b").

Own cases in wordings of their own, EN and ZH - none is copied from a blind or training set. A PII case passes when
every secret is gone and every keep survives; a look-alike must come out byte for byte. Rules only (``tagger=False``)
and with the shipped tagger.
"""

from __future__ import annotations

import pytest

from hindsight.safety.redact import redact

PII: list[tuple[str, list[str], list[str]]] = [
    # A PRC ID written in groups after its cue: shape (province, birth date) is enough there, as for 18 plain digits;
    # both have a wrong check character (writers make numbers up; a right one was already found without a cue).
    ("我的身份证号码是 3101 0419 8804 1235 42，别外传。", ["3101 0419 8804 1235 42"], ["别外传"]),
    ("Her national ID number is 110102 19750308 6122 - needed for the visa form.", ["110102 19750308 6122"],
     ["visa form"]),
    # An authenticator seed (base32) named by an OTP / 2FA cue.
    ("Backup of the 2FA secret for the shared ops mailbox, in case the phone dies: KRSX G5CT MVRX EZLU NBQW 4ZLT",
     ["KRSX G5CT MVRX EZLU NBQW 4ZLT"], ["shared ops mailbox", "phone dies"]),
    ("财务系统两步验证的种子 MFRG GZDF MZTW Q2LK，换手机后要重新扫码。", ["MFRG GZDF MZTW Q2LK"], ["财务系统", "换手机"]),
    # The ID half of a pair named by a bare "access" / 账号 before its secret.
    ("Backup bucket: access bkp-writer-5510, secret Hq7Lm2Np9Rt4Vx6Zb3Cd8Fg. Rotate in March.",
     ["bkp-writer-5510", "Hq7Lm2Np9Rt4Vx6Zb3Cd8Fg"], ["Backup bucket", "Rotate in March"]),
    ("对象存储用的访问账号 oss-sync-3307，密钥 Tb4Wn8Kq2Xc6Vm9Lp3Rd7Hs，别外传。", ["oss-sync-3307", "Tb4Wn8Kq2Xc6Vm9Lp3Rd7Hs"],
     ["对象存储", "别外传"]),
    # A card's expiry after 截止 / 有效至 / "valid to".
    ("出差订房用公司卡 4556 7375 8689 9855，截止 2027/03，背面安全码 415。", ["4556 7375 8689 9855", "2027/03", "415"],
     ["出差订房", "公司卡"]),
    ("Team card 4556 7375 8689 9855 valid to 2028-10, CVC 733, for the offsite only.", ["4556 7375 8689 9855", "2028-10", "733"],
     ["Team card", "offsite only"]),
]

LOOKALIKES: list[str] = [
    # A code identifier and a numeric setting: code, not a password.
    "In signup.vue the password_input is checked against maxLength=64 and minLength=10.",
    "登录页 login.ts 里 password_field 的规则是 minLength=12，提交前校验。",
    # An organisation's seat with its address in brackets is a public contact.
    "Deliveries for Northwind Ltd HQ (88 Harbor Road, Suite 4, Portland) go to the loading dock.",
    "星河科技总部地址（深圳市南山区科苑路 88 号）每周五对外开放参观。",
    # A base32-shaped value in a 2FA note that says it is a sample; a deadline that is no card's expiry.
    "两步验证的接入文档里，测试用的种子是 MFRGGZDFMZTWQ2LK。",
    "报名截止 2026/09，名额有限。",
]


@pytest.mark.parametrize("tagger", [False, True])
@pytest.mark.parametrize(("text", "secrets", "keep"), PII)
def test_pii_removed_fact_kept(text: str, secrets: list[str], keep: list[str], tagger: bool) -> None:
    out = redact(text, tagger=tagger).text
    assert not [s for s in secrets if s in out], out
    assert not [k for k in keep if k not in out], out


@pytest.mark.parametrize("tagger", [False, True])
@pytest.mark.parametrize("text", LOOKALIKES)
def test_lookalike_untouched(text: str, tagger: bool) -> None:
    assert redact(text, tagger=tagger).text == text


def test_grouped_digits_after_an_id_cue_need_an_id_shape() -> None:
    # no province / birth date: a grouped number after the cue is not an ID
    assert redact("身份证复印件的快递单 9988 7766 5544 3322 11 明天到。", tagger=False).text.count("REDACTED") == 0


def test_otp_seed_needs_base32_and_a_cue() -> None:
    from hindsight.safety.redact_window import find_otp_seeds

    assert find_otp_seeds("TOTP seed: JBSWY3DPEHPK3PXP") == [("otp", 11, 27)]
    assert find_otp_seeds("Shipment JBSWY3DPEHPK3PXP left the depot") == []  # no cue
    assert find_otp_seeds("2FA for the wiki: ABCDEFGHIJKLMNOPQRST") == []  # no 2-7 digit: a word in capitals
    assert find_otp_seeds("MFA seed: JBSWY3DPEHPK3PX1") == []  # 1 is no base32 digit


def test_otp_seed_is_linear() -> None:
    from hindsight.safety.redact_window import find_otp_seeds

    unit = "2FA seed: JBSWY3DPEHPK3PXP. "
    assert len(find_otp_seeds(unit * 500)) == 500
