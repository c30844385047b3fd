"""Public contacts stay, private ones go (redaction round 7; own EN/ZH hard pairs, none copied from a blind set).

Policy (docs/security.md, "Public contacts"): an organisation's published hotline, role mailbox or office /
venue address reaches an organisation, not a person, and is kept byte for byte; a person's mobile, personal
email or home address is redacted even when the same sentence also names a company. Cases come in pairs that
differ in who the contact reaches, so neither a "keep every landline" nor a "redact every landline" rule passes.
"""

from __future__ import annotations

import pytest
from redaction_helpers import assert_linear_cost, assert_removed_and_kept, assert_untouched

from hindsight.engine import MemoryEngine
from hindsight.safety.redact import redact

PUBLIC: list[str] = [
    # hotlines and switchboards, said before or after the number
    "For lost cards call the bank's 24-hour hotline, +44 20 3456 7890, then file a police report.",
    "The airline's customer service line is +1 (214) 792-3100; expect a long hold on Mondays.",
    "Zurich office, general enquiries: +41 44 668 1800 (listed on the contact page).",
    "Media relations at Brightwater can be reached on +1 212-849-2200, per the press kit on their website.",
    "The clinic's main number is (617) 726-2000; it is printed on every appointment letter.",
    "公司前台总机 0755-8376 5000，外地客户都打这个。",
    "医院的预约电话是 021-6437 0045，工作日早上八点开始放号。",
    "物业服务中心对外电话 010-8457 9900，报修、投诉都打这个。",
    "退货问题打商家官方客服 0571-8802 7000 就行，人工服务到晚上九点。",
    "车险理赔打保险公司的 0755-2213 6000 服务热线，报案号记下来。",
    # organisation mailboxes: a role local part, or a mailbox introduced as the organisation's
    "Questions about the conference go to events@pycon-nordic.org, the organisers' shared inbox.",
    "Recruiting inbox listed on the careers site: talent@brightpath.ai; CVs only as PDF.",
    "Data-protection requests: dpo@lumenbank.eu, as the privacy notice says.",
    "招聘邮箱 join@mintai-tech.cn，官网上写的，简历命名用姓名加岗位。",
    "他们公司的商务合作邮箱是 cooperation@huiyun.cn，报价单发这里。",
    "投稿邮箱是 tougao@dushu-weekly.cn，编辑部一周内回复。",
    # an organisation's or a public venue's address
    "The company's registered office is 1 Canada Square, London E14 5AB, per Companies House.",
    "Returns go to Northwind Outdoor, 2200 Commerce Park Dr, Reno, NV 89502 - the address on their returns page.",
    "Our Berlin branch moved: the store is at 14 Torstrasse Road, open 10-19.",
    "门店地址：杭州市上城区延安路 258 号，营业到晚上十点。",
    "公司注册地址在深圳市南山区高新南一道 9 号，合同上写这个。",
    "开票信息里的办公地址是上海市静安区南京西路 1266 号恒隆广场 35 层。",
    "公司在台北市信義區松仁路 100 號 12 樓，訪客請先到一樓登記。",
    "市图书馆地址：成都市青羊区蜀都大道 132 号，周一闭馆。",
    "组会改到 5 号楼 0302 会议室，周四下午三点。",
    # probe 3 (after the policy; its three misses fixed): a listing, 位于 after a venue, a refunds mailbox + help centre
    "Dentist office number (from their Google listing): (212) 555-7731.",
    "市政务服务中心位于杭州市上城区解放东路 18 号，工作日开放。",
    "For refunds write to refunds@shopmate.co.uk (their help centre says 5 days).",
    "深圳分公司地址：深圳市福田区福华三路 88 号财富大厦 20 层。",
    # batch 2 (written and measured once before its fixes: branch 6/10, main 2/10)
    "Call the museum's information line, +44 20 7323 8299, to check the opening hours.",
    'The ticket office switchboard is 0161 200 1000, open from nine.',
    'Customer care (on the back of the box): +1 866 704 2121.',
    '银行官方客服热线 0755-8319 5555，别打短信里的号码。',
    '打 021-6279 8800 总机转人事部，官网上有。',
    'Our office address for invoices is 40 Bank Street, Canary Wharf, London E14 5NR.',
    '请把样品寄到公司的办公地址：广州市天河区珠江新城花城大道 85 号 18 楼。',
    'For accessibility requests email access@citytheatre.org, as the venue page says.',
    '学校招生办邮箱 zsb@szu-highschool.cn，报名材料发这里。',
    'The consulate is at 1 Rue de la Paix, 75002 Paris; appointments only.',
]

PRIVATE: list[tuple[str, str, list[str], list[str]]] = [
    # the same kinds of sentences, but the contact reaches a person
    ("phone", "Call my dentist's receptionist Carla on her mobile, +44 7700 900 312, to move the cleaning.",
     ["+44 7700 900 312"], ["Carla"]),
    ("phone", "Jorge's direct line at the bank is +1 (305) 442-1180; he's our account manager.", ["+1 (305) 442-1180"], ["account manager"]),
    ("phone", "The support engineer gave me his own number, 415-302-7781, in case the ticket stalls.", ["415-302-7781"], ["support engineer"]),
    ("phone", "My home phone is +44 20 8123 4567, landline only, no texts.", ["+44 20 8123 4567"], ["landline only"]),
    ("phone", "Customer service escalated it; the supervisor's mobile is +49 151 4471 2290 if they call back.", ["+49 151 4471 2290"],
     ["Customer service escalated"]),
    ("phone", "客服小姐姐加了我微信，她的手机 139 0121 4477，说有进展再联系。", ["139 0121 4477"], ["客服小姐姐"]),
    ("phone", "李经理办公室座机 010-8457 2213 转 6021，找他签字。", ["010-8457 2213"], ["找他签字"]),
    ("phone", "我家座机 0571-8802 3316，白天没人接。", ["0571-8802 3316"], ["白天没人接"]),
    ("phone", "官方客服让我直接联系维修师傅，他的电话 0755-2613 8890。", ["0755-2613 8890"], ["维修师傅"]),
    ("email", "Email me at nina.kowalski@fabrikam.com instead of the support inbox.", ["nina.kowalski@fabrikam.com"], ["support inbox"]),
    ("email", "info@ is for customers; my own email is dana.whitfield@gmail.com.", ["dana.whitfield@gmail.com"], ["for customers"]),
    ("email", "Jenny in sales uses sales.jenny@acme-tools.com for her own deals.", ["sales.jenny@acme-tools.com"], ["Jenny in sales"]),
    ("email", "王老师的个人邮箱 wangli_edu@163.com，作业发这里，别发招聘邮箱。", ["wangli_edu@163.com"], ["作业发这里"]),
    ("email", "他把私人邮箱 zhaolei.work@outlook.com 留给了 HR。", ["zhaolei.work@outlook.com"], ["留给了 HR"]),
    ("address", "Her home address is 44 Wren Street, Leeds LS2 9JT - not the office.", ["44 Wren Street", "LS2 9JT"], ["not the office"]),
    ("address", "The office manager, Tom, lives at 12 Baker Road, Bath BA1 2AB.", ["12 Baker Road", "BA1 2AB"], ["office manager"]),
    ("address", "Our office is 500 Howard St, but mail the gift to Lena's flat: 71 Kestrel Lane, Apt 4, Oakland.",
     ["71 Kestrel Lane, Apt 4"], ["500 Howard St", "mail the gift"]),
    ("address", "租的房子在望花路 6 号院 2 号楼 1503，离公司近。", ["望花路 6 号院 2 号楼 1503"], ["离公司近"]),
    ("address", "公司地址是上海市静安区南京西路 1266 号，但是发票寄到我家：闵行区莘松路 380 弄 12 号 502 室。",
     ["莘松路 380 弄 12 号 502 室"], ["南京西路 1266 号"]),
    ("email", "客服邮箱 kefu.lina@163.com，其实是店主自己的邮箱。", ["kefu.lina@163.com"], ["店主"]),
    ("address", "我家位于杭州市上城区解放东路 18 号 3 栋 502，周末在家。", ["解放东路 18 号 3 栋 502"], ["周末在家"]),
    ("phone", "李总的办公室电话 021-6888 1234，有事打这个。", ["021-6888 1234"], ["有事打这个"]),
    # batch 2 (branch 11/11, main 11/11)
    ('phone', 'Front desk said to reach the night manager on his own phone, 020 7123 4488, if the alarm goes off.', ['020 7123 4488'], []),
    ('phone', "My sister's number in Toronto is 416-823-5571, she's expecting your call.", ['416-823-5571'], []),
    ('phone', '房东老陈的电话 0592-5538 2210，他白天在单位。', ['0592-5538 2210'], []),
    ('phone', '快递员说打他电话：18917726634，他在楼下。', ['18917726634'], []),
    ('phone', "Patient's callback number: (503) 844-2719, prefers afternoons.", ['(503) 844-2719'], []),
    ('email', 'Reply to the tenant at rosa.mendez.home@gmail.com about the deposit.', ['rosa.mendez.home@gmail.com'], []),
    ('email', '我表哥的邮箱 chenlei_88@126.com，照片发给他。', ['chenlei_88@126.com'], []),
    ('email', "The contractor's own email is b.okoro@okoro-builds.com; the office one bounces.", ['b.okoro@okoro-builds.com'], []),
    ('address', 'Please forward my mail to 77 Birch Hollow Road, Apt 9, Ithaca NY 14850 until June.', ['77 Birch Hollow Road, Apt 9'], []),
    ('address', '奶奶家在济南市历下区文化东路 56 号 3 号楼 2 单元 301，过节寄点东西。', ['文化东路 56 号 3 号楼 2 单元 301'], []),
    ('address', "I'm renting 4 Quarry Lane, flat 3, Sheffield S11 8FD now - send the keys there.", ['4 Quarry Lane, flat 3'], []),
    ("address", "外卖送到科技园南区 7 栋 1102，我住这儿，不是公司。", ["7 栋 1102"], ["不是公司"]),
]


@pytest.mark.parametrize("text", PUBLIC)
def test_public_contact_kept(text: str) -> None:
    assert_untouched(text)


@pytest.mark.parametrize(("category", "text", "secrets", "keep"), PRIVATE)
def test_private_contact_redacted(category: str, text: str, secrets: list[str], keep: list[str]) -> None:
    assert_removed_and_kept(category, text, secrets, keep)


def test_one_text_keeps_the_hotline_and_redacts_the_mobile() -> None:
    text = "Vendor hotline (on their site) is +1 (646) 555-2300; their rep Ana's cell is +1 (646) 903-4471."
    out = redact(text).text
    assert "+1 (646) 555-2300" in out and "+1 (646) 903-4471" not in out, out
    zh = "售后服务热线 021-6188 2000，上门师傅的手机 138 1762 0091。"
    out = redact(zh).text
    assert "021-6188 2000" in out and "138 1762 0091" not in out, out


def test_public_contact_stored_unchanged_through_the_engine(engine: MemoryEngine) -> None:
    text = "客户投诉请打官网公布的服务热线 010-5896 7700，或写信到 service@lanhu-ai.com。"
    stored = engine.store_memory({"content": text, "namespace": "pub"})
    assert stored.action != "quarantined"
    assert engine.get(stored.memory_id, "pub").content == text


def test_public_context_cost_is_linear() -> None:
    assert_linear_cost("客服热线 010-5896 7700，my cell +1 (415) 903-4471; HQ address 1 Main Street, Leeds LS1 4AB. ")
