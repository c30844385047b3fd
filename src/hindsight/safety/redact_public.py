"""Public contacts: an organisation's published hotline, mailbox or office address stays; a person's does not.

Policy (docs/security.md, "Public contacts"): a contact is kept byte for byte when it reaches an organisation
rather than a person -

- by shape: a role mailbox at any domain (support@, security@, hr@, kefu@ ...; see ``redact_contacts``), a
  toll-free or shared-cost service line (1-800/8xx, 400/800, 0800/0808) or a short service number (95588,
  12345, 10086: five digits or fewer are never phones);
- by context: a landline or an international number introduced in its clause as a public line (hotline,
  helpline, customer service, switchboard, newsroom line, reservations line, 客服热线, 服务电话, 总机, 官方,
  "listed on the website", a business listing, 官网) or followed by one ("400-820-6688 服务热线", "as the
  venue page says"); an email introduced as an organisation's mailbox (招聘邮箱, 投稿邮箱, 招生办邮箱, shared
  inbox, general enquiries) or published after it, never a non-role mailbox at consumer webmail; an address
  announced as an organisation's or a public venue's (HQ, registered office, 注册地址, 门店地址, 公司在, "that's
  the HQ address in their website footer", "官网公布的", "3 Pine Road conference centre").

A Chinese office's plain number (办公室电话, 公司座机) without a public-line cue stays redacted, as does any number
followed by an extension (it reaches a desk, often a person's); in English an office's own line named as the office's
("the safety office phone number is") is the organisation's, as a clinic's (``_ORG``; round 43 measured redacting it
and left that out: docs/security.md).

A personal cue in the same clause wins over a public one: my/his/her, personal/private, mobile/cell,
WhatsApp, home, 私人, 个人, 手机, 家, 住. A mobile number (by its numbering plan: CN 1[3-9]x, UK 07, DE
+49 15-17, FR 06/07, AU 04 in ten digits - round 25: Dalian's landline 0411-8555 0101 is not one) is always a
person's, whatever the clause says. Clauses end at a sentence stop, a semicolon or a line break; the personal cue is
looked for in the segment since the last comma or contact.
"""

from __future__ import annotations

import bisect
import re

from hindsight.safety.redact_advert import advertised
from hindsight.safety.redact_contacts import is_public_contact
from hindsight.safety.redact_listing import listed_with_hours
from hindsight.safety.redact_source import in_url, published_source

Span = tuple[str, int, int]

# A public line, said before the number ("the IRS help line listed on irs.gov is", "总机", "客服热线：").
_PUBLIC_PHONE_BEFORE = re.compile(
    r"(?i)(?:\b(?:hot\s?line|help\s?line|help\s?desk|service\s+(?:line|desk|number|centre|center)|support\s+(?:line|number|desk)|"
    r"customer\s+(?:service|care|support|hotline|line)|call\s+cent(?:er|re)|switchboard|main\s+(?:line|number|office)|"
    r"general\s+(?:line|enquiries|inquiries)|newsroom|press\s+(?:line|office)|media\s+(?:line|relations)|"
    r"reservations?\s+(?:line|desk|number)|booking\s+(?:line|number)|information\s+line|toll[- ]free|freephone|"
    r"official(?:\s+\w+){0,2}|publi(?:c|shed)(?:\s+\w+){0,2}|listed\s+(?:on|in)|(?:on|from)\s+(?:the|their|its|our)\s+"
    r"(?:\w+\s+)?(?:website|site|web\s?page|contact\s+page|homepage|media\s+page)|contact\s+us|poison\s+control|"
    r"(?:google|maps|business)\s+listing|listings?|non-emergency(?:\s+(?:line|number))?|reception(?:\s+(?:line|desk|number))?|"
    r"front\s+desk|visitor\s+(?:line|desk|cent(?:er|re))|(?:box|ticket)\s+office|ticketing(?:\s+(?:line|desk))?|information\s+desk)\b|"
    r"售票处|票务|问讯处|咨询台|客服|热线|服务电话|咨询电话|问询电话|问讯电话|投诉电话|报修电话|售后电话|预约电话|订票电话|订餐电话|服务台|前台|接待处|总机|官方|官网|公开|对外|"
    r"联系我们|营业厅|服务中心|政务|市民|"
    # round 17: a line open round the clock or for emergencies is a service's, not a person's ("宠物医院24小时急诊电话",
    # "the 24-hour emergency line"); "24小时内" (within a day) is a deadline, not a line
    r"(?:24|二十四)\s*小时(?!内)|全天候|(?:急诊|急救|救援)热?(?:电话|专线)|(?<![A-Za-z])(?:24/7|24[- ]hour|round[- ]the[- ]clock|emergency\s+(?:line|number|hotline))(?![A-Za-z]))"
)
_SWITCHBOARD = re.compile(r"(?i)\b(?:switchboard|main\s+(?:line|number)|hotline|customer\s+service)\b|总机|热线|客服")
# A public line named right after the number ("400-820-6688 服务热线", "12345 市民服务热线", "(customer service)").
_PUBLIC_PHONE_AFTER = re.compile(
    r"(?i)\s*[（(]?\s*(?:\b(?:hot\s?line|help\s?line|customer\s+service|support\s+line|switchboard|toll[- ]free)\b|"
    r"[\u4e00-\u9fff]{0,4}(?:热线|客服|总机|服务电话|服务台))"
)
# A person's number: possessives, personal words, mobile words, relations (the clause's own segment only).
# (round 37: 这家 / 那家 / 哪家 / 每家 count a shop, "这家眼镜店"; 这家人 is a family)
_PERSONAL = re.compile(
    r"(?i)(?:\b(?:my|me|mine|his|her|hers|personal|private|mobile|cell(?:phone)?|whatsapp(?!\s+business)|signal|telegram|wechat|home|"
    r"direct(?:\s+(?:line|dial|number))?|ext(?:ension)?|landlord|wife|husband|mom|mum|dad|mother|father|sister|brother|"
    r"son|daughter|friend|babysitter|nanny|driver|tenant|lives?|living|dr|mr|mrs|ms|prof)\b|"
    r"私人|个人|手机|我(?!们)|他(?!们)|她(?!们)|(?<![厂商店国大专卖买行东这那哪每])家(?![具电])|(?<=[这那哪每])家(?=人)|住(?!证|院)|本人|师傅|阿姨|老师|先生|女士|小姐|老婆|老公|妈|爸|朋友|同事)"
)
_MOBILE = re.compile(
    r"^(?:(?:\+|00)?86[\s-]?)?1[3-9]\d(?:[\s.-]?\d){8}$|^(?:(?:\+|00)44[\s-]?|0)7\d{3}|^(?:\+|00)49[\s-]?1[5-7]\d|"
    r"^(?:(?:\+|00)33[\s-]?|0)[67](?:[\s.]?\d{2}){4}$|^(?:(?:\+|00)61[\s-]?|0)4\d{2}[\s.-]?\d{3}[\s.-]?\d{3}$"
)
_CLAUSE_END = re.compile(r"[。！？；;!?\n]|\.\s|[.]$")
_SEGMENT_END = re.compile(r"[，,、(（]|\bor\b|\band\b|或|和|[\w.+-]+@[\w.-]+|\d{3,}")

# An organisation's mailbox, said before the address ("招聘邮箱", "the PR team's shared inbox:", "general enquiries").
_PUBLIC_MAILBOX_BEFORE = re.compile(
    r"(?i)(?:(?:\b(?:shared|team|group|role|department(?:al)?|general|public|official|company|corporate)\s+(?:inbox|mailbox|address|email|e-mail)|"
    r"(?:press|media|support|sales|careers?|jobs|recruiting|enquiries|inquiries|help\s?desk|customer\s+service)\s+(?:inbox|mailbox|email|e-mail|address)|"
    r"general\s+(?:enquiries|inquiries)|contact\s+us|(?:mailing|mail|discussion|developer|user)\s+list|"
    # round 20: a newsroom's tip line, and what is printed on everything an organisation publishes
    r"(?:news\s?)?tips?\s+(?:line|inbox|desk|address)|printed\s+(?:on|in|under|below|at\s+the\s+(?:foot|bottom)\s+of)\s+(?:every|each|all)\s+\w+)\b|邮件列表|邮件组|"
    r"(?:招聘|投稿|商务合作|商务|合作|客服|官方|公共|公用|部门|对外|投诉|售后|财务共享|人事|市场|媒体|新闻|招生|"
    r"[\u4e00-\u9fff]{1,6}(?:办|(?<![外内全局])部|处|中心|办公室|委员会|协会|学院|学校|公司|团队|平台|编辑部))(?:的)?(?:邮箱|信箱|邮件地址))"
)

# An organisation's or public venue's address, said before it ("营业执照上的注册地址是", "the museum is at").
_PUBLIC_ADDRESS_BEFORE = re.compile(
    r"(?i)(?:\b(?:(?:listed|published|public|official|advertised)\s+(?:street\s+)?(?:address|location)(?:\s+is)?|registered\s+(?:office|address)|head\s+office|headquarters|hq|office\s+address|company\s+address|"
    r"business\s+address|store|shop|branch|showroom|museum|library|gallery|stadium|venue|embassy|consulate|city\s+hall|"
    r"town\s+hall|station|airport|hospital|clinic|campus|university|school|"
    # round 37 (blind r35): more public venues - an auction centre, a market, a theatre, a hotel, an aquarium ...
    r"(?:auction|community|sports|leisure|visitor|exhibition|convention|shopping|service)\s+(?:cent(?:re|er)|hall|house)|"
    r"market|mall|theat(?:re|er)|cinema|church|temple|mosque|zoo|aquarium|hotel|restaurant|caf[eé]|pharmacy|post\s+office|"
    r"depot|terminal|pier|arena|bakery|supermarket)(?:'s)?(?:\s+(?:address|is|are|located|at|on|in)){0,3}"
    r"(?:\s+for\s+[a-z]+(?:\s+[a-z]+)?\s+(?:is|are))?|"
    r"(?:注册|办公|经营|营业|公司|总部|门店|店铺|分店|分行|支行|营业厅|服务中心|展厅|医院|学校|博物馆|图书馆|体育馆|"
    r"大使馆|领事馆|政务服务中心|派出所|车管所|[\u4e00-\u9fff]{0,4}大厅|官网公布的?|官网上的?|官方|对外[\u4e00-\u9fff]{0,2})(?:前台|总台|展位|会场)?(?:的)?(?:地址|地点|所在地|位于|在)"
    r"(?:填写?|写)?(?:是|为|在|：|:)?|"
    # round 37 (blind r35): a public venue named by its kind, then its address: "二手车拍卖中心地址：", "高铁站地址：",
    # "这家眼镜店地址是", "陶艺体验馆的地址在", "拍卖行地址：" (a home's words - 家, 住, 宿舍, 公寓, 小区 - name no venue);
    # round 43: an institution named by its 院 ("故宫博物院地址：", 研究院, 法院; not a bare 院: 家属院 is a home)
    r"[\u4e00-\u9fff]{0,6}(?:店|馆|站|中心|厅|剧院|影院|博物院|研究院|学院|法院|检察院|画院|拍卖行|银行|市场|商场|超市|广场|公园|动物园|码头|机场|寺|庙|教堂|酒店|宾馆|"
    r"景区|营业部|驿站)(?:的)?(?:地址|地点|位置)(?:是|为|在|：|:)?|"
    # A public venue named and then its address after a colon: "去市民中心：...", "办事大厅:", "政务服务网点：".
    r"[\u4e00-\u9fff]{0,6}(?:中心|大厅|医院|政务|办事处|营业厅|派出所|车管所|银行|支行|学校|大学|博物馆|图书馆|体育馆|车站|机场|"
    r"商场|超市|市场|网点|窗口|法院|税务局|社保局|公安局|街道办|居委会|门诊|仓库|仓|物流园|工厂|厂区|总部|分公司|办公室|门店|分店|营业部)(?:的)?\s*[:：])"
    r"\s*[:：,，]?\s*$"
)
# ... or after it, in the same clause: "- that's the HQ address in their website footer", "(官网公布的)".
_PUBLIC_ADDRESS_AFTER = re.compile(
    r"(?i)(?:\b(?:hq|head\s+office|headquarters|registered|office|company|store|branch|business)\s+address\b|"
    r"\b(?:website|web\s?site|footer|contact\s+page|listed\s+on|published\s+on|returns\s+page|google\s+maps)\b|"
    r"\bprinted\s+on\b|官网|公布|营业执照|注册地址|办公地址|公司地址|门店地址)"
)
# Where the address was published, said before it: "HQ address from the company website:", "mailing address from the
# website footer:", "售后服务中心地址（官网可查）：".
_PUBLISHED_BEFORE = re.compile(
    r"(?i)\b(?:from|on|in|per)\s+(?:the\s+|their\s+|its\s+|our\s+)?(?:company(?:'s)?\s+|official\s+|corporate\s+)?"
    r"(?:website|web\s?site|site|footer|contact\s+page|google\s+maps|letterhead)\b|官网|网站上|可查|主页上?|网页上|公布的|公示的"
)
_NEGATED = re.compile(r"(?i)\b(?:not|isn't|never|unlisted|private)\b|不|没|未|别")
# A province / city / district right before the street: the cue comes before the region.
ZH_REGION_BEFORE = re.compile(r"(?:(?:(?![是为在到址：位于])[\u4e00-\u9fff]){2,7}(?:省|自治区|市|区|县))+\s*$")
# A published contact, said after it in its clause: "as the venue page says", "listed on their site", "官网上有".
_PUBLISHED_AFTER = re.compile(
    r"(?i)\b(?:website|web\s?site|web\s?page|(?:venue|contact|media|press|support|help|returns|careers|pricing|status)\s+page|footer|"
    r"listed\s+(?:on|in)|published\s+(?:on|in)|press\s+kit|security\.txt|help\s+cent(?:re|er)|faq|"
    # round 17: posted where passers-by read it - a sign, the door, the shopfront ("挂在门口招牌上", "on the sign outside")
    r"(?:sign(?:board)?|shop\s?front|storefront|noticeboard|notice\s+board)s?|posted\s+(?:on|at|outside)|on\s+the\s+(?:door|window|van)|"
    # round 18: printed on what an organisation sends out (notices, letters, letterhead, packaging, receipts)
    r"printed\s+(?:on|in)|印在[^，。；,;\n]{0,10}?(?:上|里|背面|封面))\b|"
    r"官网|公布|公开的|网站上|招牌|门头|告示|公告栏|(?:挂|贴|印|写)在(?:门口|门上|店门|橱窗|车身|招牌)"
)
# A venue named right after the address: "3 Pine Road conference centre", "88 High St library".
_VENUE_AFTER = re.compile(
    r"(?i)\s*(?:(?:conference|convention|community|leisure|sports|medical|shopping|business|visitor|service)\s+cent(?:re|er)|"
    r"hotel|stadium|arena|town\s+hall|city\s+hall|library|museum|gallery|station|campus|offices?|hq|headquarters|branch|store|"
    r"mall|hospital|clinic|church|school|theatre|theater|cinema)\b"
)
_HOME = re.compile(r"(?i)\b(?:home|house|flat|apartment|lives?|living|stay(?:s|ing)?)\b|家|住")
_NOT = re.compile(r"(?i)\b(?:not|isn't|never)\b|不是|并非|而不是")


def _clause_before(text: str, start: int, reach: int = 80) -> str:
    window = text[max(0, start - reach) : start]
    ends = list(_CLAUSE_END.finditer(window))
    return window[ends[-1].end() :] if ends else window


def _segment(clause: str) -> str:
    """The part of the clause since its last comma, conjunction or earlier contact."""
    ends = list(_SEGMENT_END.finditer(clause))
    return clause[ends[-1].end() :] if ends else clause


def _clause_after(text: str, end: int, reach: int = 80) -> str:
    window = text[end : end + reach]
    stop = _CLAUSE_END.search(window)
    return window[: stop.start()] if stop else window


def is_mobile(value: str) -> bool:
    return bool(_MOBILE.search(value.strip()))


# Round 19: the contact is named as an organisation's or a public place's own line or address, the owner right before
# the contact word ("The animal hospital's after-hours number is ...", "The school office phone is ...", "The lab's
# mailing address for samples is ...", "医院挂号电话 ...", "餐厅的订座电话是 ..."). An organisation merely named in the
# clause is not enough ("The pharmacy said to call back at ...", "Contact number for school pickup": the writers' PII),
# and the clause must carry no personal cue at all (not only since its last comma) and, for an address, no home word.
_ORG = (r"(?:clinic|hospital|practice|surgery|school|college|university|library|church|temple|mosque|pharmacy|restaurant|"
        r"caf[eé]|bakery|museum|gallery|dmv|council|court(?:house)?|department|agency|bureau|embassy|consulate|shelter|charity|"
        r"station|depot|warehouse|branch|store|shop|showroom|dealership|hotel|hostel|motel|gym|salon|lab|laboratory|vet|"
        r"dentist|utility|airline|airport|office)")
_ORG_OWNED = re.compile(
    r"(?i)(?:\b" + _ORG + r"(?:['’]s)?\s+(?:[a-z][\w-]*\s+){0,2}?(?:number|phone|line|address|location)(?:\s+for\s+[a-z]+)?"
    r"(?:\s+(?:is|was))?|\bits\s+(?:[a-z][\w-]*\s+)?(?:number|phone|line|address|location)(?:\s+(?:is|was))?|(?:医院|诊所|卫生院|门诊|学校|幼儿园|图书馆|博物馆|派出所|车管所|营业厅|驿站|银行|药店|药房|餐厅|饭店|酒店|宾馆|门店)"
    r"(?:的)?[\u4e00-\u9fff]{0,3}?(?:电话|热线|地址)(?:是|为)?)\s*[:：]?\s*$"
)


def _org_owned(text: str, start: int, home: bool) -> bool:
    clause = _clause_before(text, start, 70)
    owned = _ORG_OWNED.search(clause)  # "its address is" needs the organisation named earlier in the clause
    if not owned or owned.group(0).lower().startswith("its") and not re.search(r"(?i)\b" + _ORG + r"\b", clause[: owned.start()]):
        return False
    if _PERSONAL.search(clause) or _NOT.search(clause):
        return False
    return not (home and _HOME.search(clause + _clause_after(text, start, 60)))


def public_phone(text: str, start: int, end: int) -> bool:
    """A landline or service number introduced as an organisation's public line, and no person's cue near it."""
    value = text[start:end]
    clause = _clause_before(text, start)
    ext = re.match(r"(?i)\s*(?:ext\.?|x|转|分机)\s*(\d+)", text[end : end + 12])
    if is_mobile(value) or (ext and not (len(ext.group(1)) <= 2 and _SWITCHBOARD.search(clause))):
        return False  # a mobile is a person's; an extension reaches a desk (a switchboard's menu choice "转 8" does not)
    segment = _segment(clause)
    if _PERSONAL.search(segment):
        return False
    cues = list(_PUBLIC_PHONE_BEFORE.finditer(clause))
    if cues and _PERSONAL.search(clause, cues[-1].end()):
        return False  # "Front desk said to reach the manager on his own phone, ...": a person named after the public cue
    return bool(cues or _beside_role_mailbox(clause) or _PUBLIC_PHONE_AFTER.match(text, end) or _published_after(text, end)
                or _org_owned(text, start, False) or published_source(text, start, end, _PERSONAL) or advertised(text, start, end, _PERSONAL))


_MAILBOX = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def _beside_role_mailbox(clause: str) -> bool:
    """Offered in one clause with an organisation's role mailbox ("help@fest.example or the desk, (312) 555-0143",
    "售后邮箱 service@… 或 021-…") and no person named after it: the organisation's line (round 14)."""
    boxes = [m for m in _MAILBOX.finditer(clause) if is_public_contact(m.group(0))]
    return bool(boxes) and not _PERSONAL.search(clause, boxes[-1].end())


def _published_after(text: str, end: int) -> bool:
    after = _clause_after(text, end, 60)
    cue = _PUBLISHED_AFTER.search(after)
    return bool(cue and not _NOT.search(after[: cue.start()]) and not _PERSONAL.search(after[: cue.start()]))


# Consumer webmail: a non-role mailbox there is a person's, whatever the sentence calls it ("客服邮箱 lina@163.com").
_WEBMAIL = re.compile(
    r"(?i)[@＠](?:gmail|googlemail|outlook|hotmail|live|msn|yahoo|ymail|icloud|me|mac|aol|proton(?:mail)?|pm|gmx|web|mail|yandex|"
    r"zoho|qq|vip\.qq|foxmail|163|126|yeah|sina|sohu|aliyun|139|189|tom|21cn)\.[a-z.]{2,9}$"
)


def public_email(text: str, start: int, end: int) -> bool:
    """An address introduced as an organisation's mailbox ("招聘邮箱 join@...", "the team's shared inbox")."""
    if _WEBMAIL.search(text[start:end]) or in_url(text, start):
        return False  # round 21: a URL's user info ("https://admin:pw@host ... 官网") is no organisation's mailbox
    clause = _clause_before(text, start, 50)
    segment = _segment(clause)
    if _PERSONAL.search(segment):
        return False
    return bool(_PUBLIC_MAILBOX_BEFORE.search(segment) or _published_after(text, end) or published_source(text, start, end, _PERSONAL)
                or _unit_mailbox(text, start, end) or advertised(text, start, end, _PERSONAL))


# Round 28: a unit's or a ward's shared mailbox, named so by its local part ("renal-unit@", "ward7b.nursing@",
# "pathology-lab@"): it reaches whoever staffs the unit, not a person. Never beside a login (a shared mailbox's
# password makes it an account) and never a name's mailbox ("li.unit@": the unit word after a dot or a name alone).
_UNIT_LOCAL = re.compile(
    r"(?i)[a-z0-9]{2,}(?:[-_.][a-z0-9]+)*[-_](?:unit|ward|clinic|lab|laboratory|pharmacy|theatres?|nursing|icu|nicu|radiology|"
    r"pathology|outpatients)|"
    r"(?:ward|unit)[-_.]?\d{1,3}[a-z]?(?:[-_.][a-z]+)?"
)
_LOGIN_NEAR = re.compile(r"(?i)\b(?:log\s?in|sign[\s-]?in|passwords?|passcodes?|pwd|pw|credentials?|username)\b|登录|登陆|密码|口令|账号")


def _unit_mailbox(text: str, start: int, end: int) -> bool:
    local = text[start:end].split("@", 1)[0]
    return bool(_UNIT_LOCAL.fullmatch(local)) and not _LOGIN_NEAR.search(text, max(0, start - 80), min(len(text), end + 80))


def is_public_span(text: str, kind: str, start: int, end: int) -> bool:
    """A phone or email finding that reaches an organisation (by its shape or its clause)."""
    if kind == "phone":
        return is_public_contact(text[start:end]) or public_phone(text, start, end)
    if kind == "email":
        return is_public_contact(text[start:end]) or public_email(text, start, end)
    if kind == "other_id":
        return service_handle(text, start, end)
    return False


# Round 27: a messaging handle named as an organisation's service account ("公众号客服微信号 X，官网首页也挂着", "the
# shop's official WeChat: X") is its public contact; a person's cue in the clause wins ("客服小王的私人微信").
_SERVICE_HANDLE_BEFORE = re.compile(
    r"(?i)(?:客服|官方|公众号|服务号)(?:的)?(?:微信|wechat|whatsapp|line|telegram|qq)(?:号|账号|id)?\s*(?:是|为|[:：])?\s*$|"
    r"\b(?:official|customer[- ]service)\s+(?:wechat|whatsapp(?:\s+business)?|line|telegram)(?:\s+(?:id|account|handle))?\s*(?:is|[:：])?\s*$"
)
# (the label right before the handle: "前台小美的微信号" is a person's, 企业微信 is a product, "官方客服改用微信号 X" a claim)


def service_handle(text: str, start: int, end: int) -> bool:
    """A messaging handle named right before it as an organisation's service account, no person's cue in its clause."""
    clause = _clause_before(text, start, 40)
    return bool(_SERVICE_HANDLE_BEFORE.search(clause)) and not _PERSONAL.search(clause + _clause_after(text, end, 40))


# An organisation or a public place named, then (its own name and) its address (round 13): "Orchard Lane Ltd, Unit 5
# Mill Yard", "Returns Dept., Fulfillment Center 7, 4500 Commerce Pkwy", "the consulate's visa section is at",
# "Conference venue: Moscone Center West, 800 Howard St".
_ORG_BEFORE = re.compile(
    r"(?i)\b(?:ltd|limited|llc|inc|corp|gmbh|plc|dept|department|(?:fulfil{1,2}ment|distribution|conference|convention|visitor|"
    r"exhibition|service|data|logistics|sorting)\s+cent(?:er|re)|(?:distribution|logistics)\s+hub|warehouse|depot|venue|consulate|embassy|hotel|hostel|restaurant|theatre|theater|"
    r"returns?\s+(?:label|address|department))\b\.?(?:'s)?(?:\s+[a-z][\w'-]*){0,3}?"
    r"\s*(?:\bis\s+(?:at|located\s+at)|\bat|[:,：])\s*(?:(?-i:[A-Z0-9][\w'.-]*)(?:\s+(?-i:[A-Z0-9][\w'.-]*)){0,3}\s*,\s*)*"
    r"(?:(?:unit|suite|building|bldg)\s*)?$"
)


# An organisation or public place named earlier in the clause, then a bare address label (round 14): "公司前台
# 0571-8802 1100，地址是...", "Front desk +44 20 7946 0000, address: ...", "退货仓库电话 ...，地址：...".
_ORG_NAMED = re.compile(
    r"(?i)\b(?:company|firm|office|front\s+desk|reception|store|shop|restaurant|caf[eé]|hotel|hostel|clinic|practice|"
    r"warehouse|depot|venue|studio|gym|salon|branch|showroom|factory)\b|"
    r"公司|前台|总台|店|总部|办公室|医院|诊所|学校|餐厅|宾馆|银行|营业厅|工厂|仓库|物流|商场|超市|展厅|会场"
)
_ADDRESS_LABEL_END = re.compile(r"(?i)(?:\baddress(?:\s+is)?|(?:的)?(?:地址|地点)(?:是|为|在)?)\s*[:：]?\s*$")


# A workplace named only to rule it out: "not the warehouse", "rather than the office", "instead of our store", "不是公司".
RULED_OUT = re.compile(r"(?i)(?:\b(?:not|rather\s+than|instead\s+of)\s+(?:to\s+|at\s+)?(?:the|my|our|your|his|her|their)?\s*|"
                       r"(?:不是|别寄到?|不要寄到?|而不是)\s*)\Z")
_RULED_OUT_HAN = re.compile(r"而?不是|别寄到?|不要寄到?")


def public_address(text: str, start: int, end: int) -> bool:
    """An address announced as an organisation's or a public venue's, before it or after it in its clause."""
    clause = _clause_before(text, start, 60)
    region = ZH_REGION_BEFORE.search(clause)
    clause = clause[: region.start()] if region else clause
    org = _ORG_BEFORE.search(clause)
    org = None if org is None or RULED_OUT.search(clause, 0, org.start()) else org  # round 39: "not the warehouse:"
    venue = _PUBLIC_ADDRESS_BEFORE.search(clause)
    if venue is not None and (RULED_OUT.search(clause, 0, venue.start()) or _RULED_OUT_HAN.match(venue.group(0))):
        venue = None  # round 40: "home, not the store: ...", "寄到我家，不是门店：..." (the venue's words took 不是 along)
    if (venue or org) and not _PERSONAL.search(_segment(clause)):
        return True
    if _PUBLISHED_BEFORE.search(clause) and not _PERSONAL.search(clause) and not _NEGATED.search(clause):
        return True
    if _ADDRESS_LABEL_END.search(clause) and _ORG_NAMED.search(clause) and not _PERSONAL.search(clause):
        return True
    if _VENUE_AFTER.match(text, end) and not _HOME.search(clause) or _org_owned(text, start, True):
        return True
    after = _clause_after(text, end, 100)
    cue = _PUBLIC_ADDRESS_AFTER.search(after)
    if cue and not _NOT.search(after[: cue.start()]) and not _PERSONAL.search(after[: cue.start()]):
        return True
    return (published_source(text, start, end, _PERSONAL) or advertised(text, start, end, _PERSONAL, address=True)  # round 33: an ad's text
            or listed_with_hours(text, start, end))  # round 34: a business listing with its opening hours


# Round 26: a place's contacts travel together. A landline or a mailbox in the sentence of an address (or a line) already
# judged the organisation's ("公司展厅地址：...，电话 021-...", "Our restaurant's published address: ..., phone 0532-...")
# is the same place's, unless a person is named between them or the number is a mobile / the mailbox consumer webmail.
_PLACE_CONTACT = re.compile(r"(?i)@|\d[\d\s()-]{6,}\d|\d.*\b(?:road|rd|street|st|lane|ln|avenue|ave|way|drive|dr|square|place|"
                            r"parkway|pkwy|boulevard|blvd|terrace|court|ct|highway|hwy)\b|[路街道巷弄]|\d+号")
_SENTENCE_STOP = re.compile(r"[。！？；;\n]|[.!?](?=\s)")


# Round 27: a listing goes on past a full stop with a verbless field ("...address: 21 Donghai West Road, Qingdao. Open
# 11:00-22:00, phone ..."): the next sentence opens with opening hours or a contact field and holds nothing else.
_RECORD_FIELD = re.compile(r"(?i)^\s*(?:(?:open(?:ing)?|business|office)?\s*hours?\b|open\b|tel\b|phone\b|fax\b|e-?mail\b|"
                           r"营业时间|电话|传真|邮箱)[^.!?。！？;；\n]{0,48}$")


def _record_goes_on(between: str) -> bool:
    stops = list(_SENTENCE_STOP.finditer(between))
    return len(stops) == 1 and bool(_RECORD_FIELD.match(between[stops[0].end() :]))


def same_place(text: str, kind: str, start: int, end: int, public: list[tuple[int, int]]) -> bool:
    """Does a public range (``public``: sorted by start) share this phone's or email's sentence, with no person's cue
    between them?"""
    if kind not in ("phone", "email") or (kind == "phone" and is_mobile(text[start:end])):
        return False
    if kind == "email" and (_WEBMAIL.search(text[start:end]) or in_url(text, start)):
        return False
    if _PERSONAL.search(_clause_before(text, start, 40)):
        return False  # "text her personal number ..., or the clinic's line ...": labelled as a person's own
    # Only the ranges within reach of the span (``public`` sorted by start): linear however many contacts the text has.
    lo_i = bisect.bisect_left(public, (start - 400, -1))
    hi_i = bisect.bisect_right(public, (end + 120, len(text) + 1))
    for a, b in public[lo_i:hi_i]:
        if not _PLACE_CONTACT.search(text, a, b) or text[a : a + 1] in "{$<%":
            continue  # a public range that is no contact or address (a template's "{{all_memories}}", a subject)
        lo, hi = (b, start) if b <= start else (end, a) if a >= end else (start, start)
        if hi - lo > 120 or hi < lo:
            continue
        between = text[lo:hi]
        if _SENTENCE_STOP.search(between) and not _record_goes_on(between) or _PERSONAL.search(between) or _NOT.search(between):
            continue
        return True
    return False

