"""Redaction round 26 (issue 10): values read by their role in the sentence (``safety/redact_roles.py``), EN and ZH, in
wordings of our own (none copied from a released set).

PII: a value assigned to a secret-bearing noun in any phrasing ("now uses", "came through as", "设置成了", "更新为",
quoted or not, a few words between the noun and the verb); the value a password replaced ("旧的 X 作废", "the previous
one, X"); a code said to a person in chat (a turn asks, the next is a bare number); a header that names codes and one
code a line; the rest of a list of codes; an identifier after its document word (ID card, PPS number, a check character
in brackets). Look-alikes: a pagination cursor ("next_token:"), a place's landline in the sentence of its public
address, a variable named for a secret, a version after a key word, a ratio after "pass", a masked or invalid ID, a
password field's name inside a URL template, a person's own number beside an organisation's line.
"""

from __future__ import annotations

import pytest
from linear_cost import assert_not_superlinear
from redaction_helpers import assert_value_gone_or_kept, value_cases

from hindsight.safety.redact_roles import find_role_values
from hindsight.safety.redact_vet import vet

PII = [
    ("The staff Wi-Fi password now uses 'lantern-Fig-73' since the router swap.", "lantern-Fig-73"),
    ("pass for the night-desk shared inbox is now Vq8!mLz42, keep it off Slack", "Vq8!mLz42"),
    ("The kiosk PIN code was reset to K4x9Q yesterday.", "K4x9Q"),
    ("会议室平板的登录密码昨天设置成了 Pad#6620，别外传。", "Pad#6620"),
    ("前台电脑密码已更新为Desk2026xy，旧的desk2025ab也作废了。", "desk2025ab"),
    ("The lockers' password changed to Orchid77x; the previous one, tulip55x, no longer opens them.", "tulip55x"),
    ("Needed the freight portal OTP for the order; it came through as 63 20 81.", "63 20 81"),
    ("Her bank's SMS code came through as 418 207 after two tries.", "418 207"),
    ("药房系统验证码是六位的，张护士手机收到630218，输入后就能结算。", "630218"),
    ("[08:40] mia: door code pls\n[08:41] raj: 5821", "5821"),
    ("老周：快递柜取件码发我一下\n小林：7 3 0 9", "7 3 0 9"),
    ("Recovery codes for the clinic's admin login, the first two are 5120 7783 and 9034 1126.", "9034 1126"),
    ("Backup codes for the payroll mailbox 2FA:\n7720-4419\n3306-9182\n5514-2277", "3306-9182"),
    ("Lease file: the tenant's ID card YK72210QD was copied at signing.", "YK72210QD"),
    ("Visa application needs her PPS number, 6618203KA, by Friday.", "6618203KA"),
    ("请把澳门居民身份证 5215299(3) 的复印件交给前台。", "5215299(3)"),
    ("Renewal form: passport number 48TR22719, issued in Lyon.", "48TR22719"),
    ("Webhook for the build alerts: the app key is hk7Q2m9xT4 and the app secret 2f9c1be04d7a8e3f5a6b.", "hk7Q2m9xT4"),
]

KEEP = [
    ("GET /orders?limit=100 answered next_token: QUFBQmNkZWZnaGlqa2xtbm9w, pass it back for page two.", "QUFBQmNkZWZnaGlqa2xtbm9w"),
    ("分页接口返回的游标 next_cursor=ZXlKcFpDSTZNVEl6ZlE，下一页带上它。", "ZXlKcFpDSTZNVEl6ZlE"),
    ("家具城展厅地址：苏州市吴中区宝带西路1200号，电话0512-6588-7700，周一闭馆。", "0512-6588-7700"),
    ("The bakery's shop address is 14 Mill Lane, Bath BA1 1AA, phone 01225 480 112 for orders.", "01225 480 112"),
    ("settings.py reads the password = os.environ['SMTP_PASSWORD'] at start-up.", "os.environ['SMTP_PASSWORD']"),
    ("Terraform passes password = var.smtp_password to the module.", "var.smtp_password"),
    ("Base image for the api key service: v3.4.1-slim2.0 since Monday.", "v3.4.1-slim2.0"),
    ("Nightly suite: all checks pass: 388/388.", "388/388"),
    ("身份证 320102********123X 已经脱敏显示。", "320102********123X"),
    ("这个身份证号 110105194912310021 校验位不对，是示例数据。", "110105194912310021"),
    ("The docs show the DSN as mysql://user:password@db.local:3306/shop.", "3306/shop"),
    ("Error code is 5003 again after the deploy.", "5003"),
    ("The code is 4000 lines long and needs a review.", "4000"),
    ("Pin pandas==2.2.3 until the parquet fix lands.", "2.2.3"),
    ("The password manager uses AES256 for the vault.", "AES256"),
    ("Ask the locksmith for the firmware fingerprint: the key fingerprint is 7F3A 91C2 4D0B.", "7F3A 91C2 4D0B"),
]

CASES = value_cases(PII, KEEP)


@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
@pytest.mark.parametrize(("text", "value", "secret"), CASES)
def test_secret_gone_and_look_alike_kept(text: str, value: str, secret: bool, tagger: bool) -> None:
    """A PII case's value is gone from the output; a look-alike's value is still there."""
    assert_value_gone_or_kept(text, value, secret, tagger)


def test_personal_number_beside_a_public_line_stays_redacted() -> None:
    """A place's contacts travel together, but not a number labelled as a person's own in the same sentence."""
    text = "Text the groomer's personal number 512-730-4418 if he is late; the salon's toll-free line is 1-800-555-0142."
    assert_value_gone_or_kept(text, "512-730-4418", True, True)
    assert_value_gone_or_kept(text, "1-800-555-0142", False, True)


@pytest.mark.parametrize("unit", [
    "the password for the old shared desk inbox was later quietly set to Aa1!xyz9 ",
    "旧的 abc12345 ",
    "recovery codes for the vault, the first are 1234 5678 and 2345 6789 and ",
    "a: code pls\nb: 4821\n",
    "Backup codes:\n4410-2291\n",
    "ID card YK72210QD, passport 48TR22719, ",
])
def test_round26_readers_are_linear(unit: str) -> None:
    """Every reading is a bounded pattern or a bounded scan: ten times the text costs about ten times as much."""
    assert_not_superlinear(find_role_values, unit * 40, unit * 400, slack=0.02)


def test_same_place_is_linear() -> None:
    """Each phone looks only at the public ranges within reach of it (bisection), not at every one in the text."""
    unit = "Shop address 14 Mill Lane, phone 01225 480 112. "

    def run(text: str) -> object:
        spans = []
        for i in range(0, len(text), len(unit)):
            spans += [("public", i + 13, i + 25), ("phone", i + 33, i + 46)]
        return vet(text, spans)

    assert_not_superlinear(run, unit * 20, unit * 200, slack=0.02)
