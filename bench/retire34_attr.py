"""retire34 (issue 10): an attribute reading of a memory pair - (subject, slot, value) of both texts, EN and ZH -
measured as a veto on the write path's retirements and as a retirement the engine misses (bench only; docs
"Hygiene, round 34").

Rule-based over the project's readings: subjects are codes (IP-500, HW-20, E45), names (`understanding.names`)
and the Han lead; slots are attribute classes of a hand-written lexicon (`SLOTS`, EN and ZH regexes,
written reading only the pairs of r26 - r32); the changed slot of the new text is the slots of its clauses that
carry a change cue (`supersede.change_signalled`; the whole text when none does); values are `value_canon`.
No package beyond the project's: an off-the-shelf parser (spaCy, HanLP, LTP) gives heads and arguments but not
which attribute of a business note a head is, and those that would need a model download the machine does not
have offline - the slot classes are the part that carries the reading, so they are written here by hand.
"""
from __future__ import annotations

import re
from functools import lru_cache

from hindsight.retrieval.understanding.names import _zh_names
from hindsight.write.supersede import change_signalled
from hindsight.write.value_align import clauses
from hindsight.write.value_canon import value_match

# slot id -> (English pattern, Chinese pattern); written reading the pairs of r26 - r32 only
_S: dict[str, tuple[str, str]] = {
    "price": (r"price|pricing|quote[ds]?|per unit|per seat|per vessel|hourly rate|\brates?\b|\bfees?\b|tariff|\brent\b|"
              r"R\$|\b(?:USD|EUR|NOK|RMB|CNY)\b|[$€£¥]\s?\d|discount|% off",
              r"价格|价|费用|收费|租金|\d+(?:\.\d+)?\s*(?:元|块|欧元|美元|万元)|折扣"),
    "budget": (r"budget", r"预算|总价"),
    "payment": (r"payment terms|\bnet \d+|invoice|late payments?|reimburs|expense", r"账期|付款|结算|月结|到账|报销|发票"),
    "approval": (r"approv|sign-?off|signs? off", r"审批|批准|签字|批就行"),
    "warranty": (r"warrant|guarantee", r"质保|保修"),
    "contract": (r"contract|agreement|\blease|renew|letter of intent|\bLOI\b|firm(?:ed)? up|\bsigned\b|exclusiv|territory",
                 r"合同|协议|租约|续约|签约|续期|承包|独家"),
    "supplier": (r"supplier|vendor|distributor|dealer|broker|integrator|manufacturer|\bCRO\b|sourced? from|second source|caterer|"
                 r"operator\b|\bcomes? from",
                 r"供应商|供货|厂家|经销商|代理商|分销|报关行|报关|承包|餐饮|团餐"),
    "owner": (r"\bowner|\bowns?\b|ownership|\bin charge\b|responsible|contact|goes to|go to|handles|\bcovers?\b|take[s]? over|"
              r"coordinator|assigned|monitor|\bCRA\b|\blead[s]?\b|manager|chairs?|point of contact|questions go|person to talk",
              r"负责|对接|接手|接任|厂长|站长|组长|队长|主任|联系人|助理|归她管|归他管|都找|找[\u4e00-\u9fff]{1,3}(?:开|批|确认|登记|报名|下单|说)|"
              r"在跑|在管|转给|兼"),
    "role": (r"promot|\bjoin(?:ed|s)?\b|\bhire[ds]?\b|resign|retired\b|leaving|stepp(?:ed|ing) down|backfill|new hire|\brole\b",
             r"调去|调回|调到|入职|离职|退休|调岗|新来的|新招|人事"),
    "meeting": (r"meeting|\bsync\b|\bcalls?\b|stand-?up|\b1:1\b|one-on-one", r"例会|周会|会议|开会|的会|年会"),
    "audit": (r"audit|inspection|assessment|walkthrough", r"审核|验收|来料检验|巡检"),
    "review": (r"\breview\b|gate review", r"评审"),
    "demo": (r"\bdemo|\bshows?\b|expo|exhibition|trade fair|\bstand\b|\bbooth", r"展会|演示|展位|展台"),
    "test": (r"\btests?\b|testing|\btrials?\b|flex test|first flight|maiden", r"测试|试验|试产|试航|试飞|首飞|实验|补考|考试"),
    "submission": (r"submi|filing|\bfile\b|dossier|application|registration|register", r"递交|提交|申报|申请|注册|备案|报名|登记|送审"),
    "launch": (r"go-?live|launch|rollout|cutover|releas(?:e[ds]?|ing)\b|migrat|\bonto\b|switch(?:es|ed|ing)? to", r"上线|发布|切换|迁"),
    "production": (r"mass production|\bSOP\b|production start|ramp-?up", r"量产|投产"),
    "delivery": (r"\bship(?:s|ped|ping|ment|ments)?\b|deliver|\bETA\b|arriv|container|\bsail|freight|lead time|logistics|customs",
                 r"交付|交期|发货|到港|到货|出厂|运输|船期|物流|快递|寄"),
    "travel": (r"\btrip\b|travel|\bvisit|business trip", r"出差|行程|拜访|团建"),
    "leave": (r"\bleave\b|vacation|holiday|\boff \d|parental|maternity|wedding", r"产假|休假|请假|婚假|轮休|休息"),
    "place": (r"\boffice\b|\bsite\b|address|located|\bbased\b|relocat|studio|premises|\bmoves? to\b|workshop|\bunit next|"
              r"warehouse|venue|location|hotel|accommodation",
              r"办公室|地址|搬|总部|工位|厂区|地点|场地|仓库|备件库|酒店|住宿|定在.{0,6}(?:办|开)"),
    "hours": (r"\bhours\b|opens?\b|closes?\b|opening|\bshuttle|\bbus\b|\broute|\bschedule|full-?time|part-?time|days a week|"
              r"\boff every|office hours|in the office by",
              r"营业|上班|下班|班车|发车|线路|改线|作息|到公司|准时走|几点|点到"),
    "tool": (r"\btool|platform|\bsystem\b|software|\bapp\b|channel|Jira|Teams|WhatsApp|Slack|e-?mail|\bVPN\b|remote access|"
             r"gateway|\bclient\b|\bbot\b|authenticator|\bUI\b",
             r"飞书|系统|平台|软件|工具|微信|邮件|看板|机器人|VPN|远程|客户端"),
    "spec": (r"\bspec|payload|\breach\b|weight|capacity|dimension|\bbeam\b|draught|\bkg\b|\bkW\b|size|\brange\b|\bpower\b|"
             r"Bluetooth|\bradio\b|\d+\s?(?:MHz|GHz|kHz|W|m)\b",
             r"规格|负载|臂展|载药量|重量|尺寸|容量|参数|功率|续航|量程|蓝牙|射频"),
    "component": (r"\bchip|\bdrives?\b|\bboard\b|motor|module|\bparts?\b|inlet|nozzle|reducer|servo|cable|adapter|\bmould|\bmold|"
                  r"seat(?:s|ing)|transducer|pump|glass|window",
                  r"芯片|驱动|电机|模组|零件|部件|喷头|减速机|伺服|电缆|适配器|模具|电池|玻璃|座椅|水泵|配件"),
    "version": (r"firmware|version|\bv\d|hotfix|patch|software \d", r"固件|版本|升级"),
    "count": (r"volume|quantity|enrol?lment|headcount|\bunits\b|how many|\border(?:s|ed)?\b", r"产量|数量|采购量|台数|人数|一共|订单|下单|订了"),
    "quality": (r"\byield|pass rate|defect|complaint", r"良率|合格率|不良|投诉"),
    "subsidy": (r"subsid", r"补贴"),
    "license": (r"licen[cs]e|certificat|permit|homologation|wheelmark", r"合格证|证书|认证|许可|资质|牌照|核准|持证|拿证"),
    "phone": (r"phone|mobile|extension|\bnumber\b", r"手机|电话|座机|分机|号码"),
    "account": (r"\baccount\b|login|password|sign in|single sign-on", r"账号|账户|密码|开通"),
    "rule": (r"\brule\b|policy|procedure|process|restriction|requirement|threshold|turnaround|\bSLA\b",
             r"规定|规程|流程|制度|要求|门槛|承诺|时效"),
    "report": (r"\breports?\b|\bdoc\b|document", r"报告|报表|文档|周报"),
    "status": (r"on hold|cancel|postpon|dropp(?:ed|ing)|closed|shelved|back in service|\bretired\b|settled|decision|decided",
               r"取消|暂停|搁置|推迟|不做了|决定|定了"),
    "schedule_date": (r"deadline|\bdue\b|target date|\bdate\b", r"截止|日期|定在"),
}
SLOTS: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    k: (re.compile(en, re.IGNORECASE), re.compile(zh)) for k, (en, zh) in _S.items()}

_CODE = re.compile(r"(?<![A-Za-z0-9])([A-Z][A-Za-z]{0,4}-?\d{1,5}[A-Z]?)(?![A-Za-z0-9])")
_CAP = re.compile(r"(?<![A-Za-z0-9])([A-Z][a-z\u00e0-\u00ff]{2,})")
_START = re.compile(r"(?:^|[.!?:;\u2014]\s*|[\"\u201c(]\s*)$")
_HAN = re.compile(r"[\u4e00-\u9fff]+")
_NOT_SUBJ = frozenset("The This That Our We Good New Most First Second Heads Call Change Reversal Swap Outcome "
                      "Backfill Finance Weekly Standard Signed Field Container Retrofit Warranty Charging".split())


@lru_cache(maxsize=100_000)
def slots(text: str) -> frozenset[str]:
    """The attribute classes `text` names."""
    return frozenset(k for k, (en, zh) in SLOTS.items() if en.search(text) or zh.search(text))


@lru_cache(maxsize=100_000)
def changed_slots(text: str) -> frozenset[str]:
    """The attribute classes of the clauses that carry a change cue (all of the text's when none does)."""
    cued = [c for c in clauses(text) if change_signalled(c)]
    if not cued:
        return slots(text)
    return frozenset().union(*(slots(c) for c in cued)) or slots(text)


@lru_cache(maxsize=100_000)
def subjects(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(every, codes): codes, capitalised words and Chinese person names of `text` (lower-cased, hyphens out), and
    the codes alone (a product or part code names a subject; a person is often the value: an owner replaced)."""
    codes = {m.replace("-", "").lower() for m in _CODE.findall(text)}
    caps = [(m.group(1), bool(_START.search(text[:m.start()]))) for m in _CAP.finditer(text)
            if m.group(1) not in _NOT_SUBJ]
    zh = set(_zh_names(text))
    every = codes | {w.lower() for w, _ in caps} | zh
    return frozenset(every), frozenset(codes)


def _han_lead(text: str) -> set[str]:
    run = "".join(_HAN.findall(text))[:6]
    return {run[i:i + 2] for i in range(len(run) - 1)}


def same_subject(old: str, new: str) -> bool | None:
    """True when the two share a code, a name or a Han lead word; False when both name codes and share nothing;
    None otherwise."""
    (a, sa), (b, sb) = subjects(old), subjects(new)
    if a & b or _han_lead(old) & _han_lead(new):
        return True
    if sa and sb:
        return False
    return None


def reading(old: str, new: str, whole: bool = False) -> str:
    """"same" (the new text's changed slot meets the old text's), "other" (both read, disjoint), "unread"."""
    so = slots(old)
    sn = slots(new) if whole else changed_slots(new)
    if not so or not sn:
        return "unread"
    return "same" if so & sn else "other"


def veto(old: str, new: str, whole: bool = False) -> bool:
    """V: a retirement is undone when the two speak of other slots (or, both naming subjects, of other subjects)."""
    return reading(old, new, whole) == "other" or same_subject(old, new) is False


def replaces(old: str, new: str) -> bool:
    """R: the new text states a new value of the old text's slot of one subject."""
    if not change_signalled(new) or same_subject(old, new) is not True or reading(old, new) != "same":
        return False
    return not value_match(old, new).equal
