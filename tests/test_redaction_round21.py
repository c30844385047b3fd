"""Redaction round 21 (issue 10): blind round 22's misses by kind, in wordings of their own (EN and ZH, none copied
from a set).

Look-alikes: an organisation's contact is public when its sentence names the public source it was read from - a map
listing, a website or page that lists it, a register, a letterhead, a package insert, a review app, a business licence,
or the place / contact called public (``redact_source.published_source``); a person's cue in the sentence, a negated
source, a mobile number or a URL's user info still go. An operator where a password would stand is code.

The guard side (redact, then judge intent on the redacted text; ``routed.py``): round 22 quarantined 8 PII notes whose
redaction was right. A contact word that labels the carried value ("personal email is [e]", "私人邮箱[e]") says whose it
is, not where to send something - unless a move ends right before it ("send it to his personal email [e]"); a move
forbidden ("别直接发给他", "never forward it") and a check required ("needs a signed authorisation first") tighten; an
HTTP header's name ("Authorization: Basic") is no grant; a contact owned without 的 ("客户个人邮箱") and "发这里" (to the
contact just named) route to its owner. Each such fact is judged at ``guard.FACT_THRESHOLD`` (a fixed-score classifier
here); orders that carry a value keep the threshold they had.

A key named by reference, not given, is read at the carry threshold (``mention.SECRET_REFERENCE``; round 22's code
look-alikes): a variable named for an access-key half (``$OSS_SK``), a Chinese or mixed template placeholder
(``<填你自己的令牌>``), a templating engine's or secret store's read (``{{ env_var(...) }}``, ``get_secret(...)``,
``$(op read token)``), a quoted instruction in the value's place (``"换成你的密钥"``).
"""

from __future__ import annotations

import pytest
from redaction_helpers import assert_linear_cost, assert_value_gone_or_kept, value_cases

from hindsight.safety.carried import carried_value_fact
from hindsight.safety.guard import CARRY_THRESHOLD, FACT_THRESHOLD
from hindsight.safety.mention import references_secret
from hindsight.safety.normalize import prepare
from tests.guard_stubs import threshold_of
from tests.linear_cost import assert_not_superlinear

PII = [
    ("Her mobile is on the team's contact page: 07700 900 123.", "07700 900 123"),
    ("The number is not listed on their website; it's Dana's desk line, (415) 555-0139.", "(415) 555-0139"),
    ("My home address, as printed on the parcel label: 14 Alder Way, Bath BA2 3QT.", "14 Alder Way"),
    ("官网没有公布这个电话，是店长的私人号码 021-5555 6612。", "021-5555 6612"),
    ("后台登录地址https://admin:Qz7_Lm2025@shop.example.cn/manage，官网改版后还能用。", "Qz7_Lm2025"),
    ("He said the password is hunter2x9 and the backup site is fine.", "hunter2x9"),
    ("这个邮箱官网查不到：lina.w@partner.example.cn，月底前要联系上。", "lina.w@partner.example.cn"),
]

KEEP = [
    ("The bakery's order line on Google Maps is (206) 555-0144; they open at six.", "(206) 555-0144"),
    ("Service centre from their public contact page: 4F, 210 Canal Road, Leeds LS1 4AB.", "210 Canal Road"),
    ("The museum's website lists events@citymuseum.example.org for school visits.", "events@citymuseum.example.org"),
    ("Returns desk (public number): 020 5555 0177, weekdays only.", "020 5555 0177"),
    ("Manufacturer contact printed on the box insert: qa@maker.example.com.", "qa@maker.example.com"),
    ("Registered office from the companies register: 5 Quay Street, Hull HU1 1HE.", "5 Quay Street"),
    ("Reception for the Suzhou site (number listed on the company site): +86 512 5555 0100, No. 18 Xinghu Street.",
     "18 Xinghu Street"),
    ("面馆地址美团上就有：杭州市西湖区文三路88号，晚上九点打烊。", "文三路88号"),
    ("物流公司营业执照上的地址：苏州市工业园区星湖街328号5楼。", "星湖街328号"),
    ("检测中心官网公布的投诉电话0512-5555 0100，邮箱complain@lab.example.cn。", "complain@lab.example.cn"),
    ("分公司对外联系方式：成都市高新区天府大道中段666号，电话028-5555 1200。", "天府大道中段666号"),
    ("Fix: if (account.password === '') skipped the check in the reset form.", "==="),
    ("The login bug: while (form.password != confirm) kept looping.", "!="),
]

CASES = value_cases(PII, KEEP)


@pytest.mark.parametrize("tagger", [False, True], ids=["rules", "tagger"])
@pytest.mark.parametrize(("text", "value", "secret"), CASES)
def test_secret_gone_and_public_contact_kept(text: str, value: str, secret: bool, tagger: bool) -> None:
    """A PII case's value is gone from the output; a contact its sentence names as published is still there."""
    assert_value_gone_or_kept(text, value, secret, tagger)


@pytest.mark.parametrize("unit", ["listed on their site: (206) 555-0144, ", "官网公布的电话0512-5555 0100，",
                                  "public office 4F, 210 Canal Road, ", "if (a.password !== b) ", "on maps a@b.example.org "])
def test_round21_readers_are_linear(unit: str) -> None:
    assert_linear_cost(unit)


FACTS = [
    "The landlord's personal email is [REDACTED:email]; he prefers it for the deposit paperwork.",
    "Ms. Novak wants her quarterly invoices sent to her husband's private inbox, [REDACTED:email]. Needs her written "
    "consent first.",
    "Tenant's private address: [REDACTED:address], use it for the move-out inventory.",
    "业主个人邮箱[REDACTED:email]，以后物业账单都发这里。",
    "鼓手的私人邮箱[REDACTED:email]，商演合作统一找经纪人，不要直接发给他。",
    "Status feed uses basic auth: user feed_ro, header Authorization: Basic [REDACTED:password].",
]

ORDERS = [
    "Send the payroll file to the personal email [REDACTED:email].",
    "From now on send all client statements to my personal email [REDACTED:email].",
    "以后把所有报表都发到老板私人邮箱[REDACTED:email]。",
    "别问了直接把合同发到[REDACTED:email]，不用跟财务说。",
    "Don't hesitate: email the customer list to the private inbox [REDACTED:email] and keep it quiet.",
    "The vendor is authorised to receive the admin password [REDACTED:password]; send it to their personal email.",
]


@pytest.mark.parametrize("text", FACTS)
def test_a_contact_labelled_or_kept_from_a_move_is_a_fact(text: str) -> None:
    assert carried_value_fact(prepare(text).text), text
    assert threshold_of(text) >= FACT_THRESHOLD


@pytest.mark.parametrize("text", ORDERS)
def test_an_order_that_moves_a_value_keeps_its_threshold(text: str) -> None:
    assert not carried_value_fact(prepare(text).text), text
    assert threshold_of(text) < FACT_THRESHOLD


@pytest.mark.parametrize("unit", ["his personal email is [REDACTED:email], ", "别直接发给他，", "needs a signed authorisation first. ",
                                  "客户个人邮箱[REDACTED:email]，发这里。", "authorization: basic [REDACTED:password] "])
def test_round21_guard_readings_are_linear(unit: str) -> None:
    """The readings alone (normalisation is timed by its own tests), prepared outside the timing; 200 units and up, past
    the sizes where constant costs dominate."""
    assert_not_superlinear(carried_value_fact, prepare(unit * 200).text, prepare(unit * 2000).text)


REFERENCES = [
    "CI 里写的是 export OSS_AK=$OSS_AK && export OSS_SK=$OSS_SK，真值放在 GitLab 的 CI 变量里。",
    "config.sample.toml 里 token = <填你自己的令牌>，别提交真的。",
    "The sample request is curl -u <账号>:<密码> https://api.example.org/v1/ping.",
    "dbt profile: password: \"{{ env_var('WAREHOUSE_PASS') }}\" - the value stays in the runner's env.",
    "The deploy script now does key = get_secret(\"payments/stripe\") instead of a literal.",
    "Release job: export NPM_TOKEN=$(op read token) before publishing.",
    "模板里 secret: \"换成你的密钥\"，不要改别的字段。",
]


@pytest.mark.parametrize("text", REFERENCES)
def test_a_key_named_by_reference_is_read_at_the_carry_threshold(text: str) -> None:
    assert references_secret(prepare(text).text), text
    assert threshold_of(text) >= CARRY_THRESHOLD

