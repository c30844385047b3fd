"""What a note's directive acts on, and which way it moves a safeguard (issue 10, round 21).

Round 19's false alarms share one shape: a sentence *reads* like an order to the reader - "以后给我发消息不用加'您'，直接说事就
行", "给她发东西最好列要点", "Added her to the 'Planners' group (not Everyone)", "[SYSTEM] ... IT will never ask you for your
password" - and the classifier, which learned that register from standing orders, holds them (0.77 - 0.98). What
separates them from a standing order that removes a safeguard is not the register but *what the order acts on and
which way it moves*:

- ``form_only``: every directive acts on the *form* of a message - its tone, salutation, layout, length, order,
  language or sign-off ("列要点", "第一行就写结论", "语气正式一点", "no emojis", "bullet points") - and the text names
  nothing at stake (no destructive, credential, payment, exposure, privilege, control, data, approval, trust or
  safety-critical object). Changing how a message reads makes nothing easier to do.
- ``tightened_only``: the text touches a safeguard only to narrow it - a broad grant explicitly not made ("not
  Everyone", "没有改成所有人可写", "rather than public"), a warning that someone will never ask for a secret ("IT will
  never ask you for your password", "不会向你索要密码") - and loosens nothing that is at stake.

Read per sentence on the normalised text, EN and ZH. What the guard does with it: :data:`guard.FRAME_THRESHOLD`, a
higher classifier threshold, never a release on its own (a hard rule still holds the text); the classifier's features
are unchanged.
"""

from __future__ import annotations

import re

from hindsight.safety.features import (
    AUTHORITY,
    CONTROL,
    CREDENTIAL,
    DESTRUCTIVE,
    EXPOSURE,
    PAYMENT,
    PRIVILEGE,
    TRUST,
)
from hindsight.safety.mention import reports_handled_attack
from hindsight.safety.rules import _alt, _c

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+")
_CLAUSE = re.compile(r"(?<=[.!?;,])\s+|[。！？；，\n]+|(?<=[\u3400-\u9fff]),|,(?=[\u3400-\u9fff])")

#: Objects whose handling matters beyond the message itself: the framing lexicons of a dangerous operation
#: (:mod:`features`) and what a lesson can endanger (a dose, a child, a lock, a permit, a signature, a release).
_HARMFUL = _c(_alt(
    r"\bdos(?:e|age)", r"medic", r"prescri", r"\bdrug", r"\binsulin", r"\bbaby", r"\binfant", r"\bchild", r"\bkids?\b", r"\block\b",
    r"\bdoor", r"alarm", r"\bgas\b", r"electric", r"\bladder", r"harness", r"\bfire\b", r"\bpermit", r"signatur", r"\bsign(?:ed)? (?:it|them|for|in)",
    r"in (?:his|her|their|my) name", r"\brelease", r"\bcustoms", r"\brefund", r"\bwire", r"\bbudget", r"\bapprov", r"\bconfirm", r"\bverif",
    r"\bcheck(?!out)", r"\breview", r"\bticket", r"\bdelete", r"\bclose", r"\bcancel", r"\bsend (?:it|them|the) (?:to|over)", r"\bforward",
    r"\bshare", r"\bexport", r"\bupload", r"\baccess", r"\bpermission", r"\badmin", r"\baccount", r"\blogin", r"\blog in",
    r"剂量", r"药", r"处方", r"宝宝", r"婴儿", r"孩子", r"小孩", r"门锁", r"开门", r"报警", r"燃气", r"断电", r"电闸", r"接线", r"安全绳",
    r"消防", r"烟火", r"爆破", r"签名", r"签字", r"名义", r"放行", r"海关", r"退款", r"申报", r"预算", r"审批", r"确认", r"核实", r"核对",
    r"复核", r"工单", r"删", r"清空", r"关闭", r"关掉", r"取消", r"转发", r"抄送", r"外发", r"导出", r"上传", r"权限", r"管理员", r"账号",
    r"登录", r"后台", r"验证", r"授权", r"打款", r"付", r"转给",
    r"\bdeploy", r"\bproduction\b", r"\bprod\b", r"\brelease", r"\btests?\b(?! drive)", r"\bscan", r"\brollback", r"\bwarning", r"\bphone", r"\bnumber\b",
    r"\bcall (?:them|him|her|that|this)", r"\bsupport\b", r"检查", r"扫描", r"上线", r"生产", r"发布", r"预案", r"回滚", r"测试", r"评审", r"提示", r"预警",
    r"号码", r"电话", r"打那个", r"联系方式", r"微信号", r"\bid\b", r"\bidentity", r"身份", r"证件", r"\brecords?\b", r"\bssn\b",
    r"@", r"https?://", r"\bwebsite", r"\bsite\b", r"\bonline\b", r"\binstruction", r"\bcommand", r"\bexecut", r"\bobey",
    r"\bdon'?t (?:tell|let)", r"\bwithout telling", r"\bsecret(?:ly)?\b", r"\bquietly\b",
    r"网站", r"网页", r"在线", r"链接", r"指令", r"命令", r"执行", r"照办", r"别让", r"不要让", r"悄悄", r"偷偷", r"来源", r"地址", r"转一份",
    r"\bmerg", r"\bwhatever\b", r"\banything (?:they|he|she|someone)", r"病历", r"个人信息", r"资料", r"合并", r"随便",
))
_STAKE = (AUTHORITY, DESTRUCTIVE, CREDENTIAL, EXPOSURE, PAYMENT, PRIVILEGE, CONTROL, TRUST, _HARMFUL)
#: Round 46: a storage medium formatted or wiped ("交片当天素材盘全部格式化", "format every card after the shoot") and the
#: confirmation prompt itself ("被问'确定吗'", "asked 'are you sure'") are at stake: 格式化 of a disk is no message's
#: form. Read only while ``DISK_FORMAT_ON``; OFF: measured, not shipped - held out it reads no text, the rule wants a
#: gain (docs/benchmarks.md "Guard, round 46").
DISK_FORMAT_ON = False
_HARMFUL46 = _c(_alt(
    r"(?:盘|磁盘|硬盘|存储卡|内存卡|储存卡|sd ?卡|服务器|分区|手机|电脑|设备|素材)[^。；，,;]{0,8}(?:格式化|抹掉|抹除|清盘|重置)",
    r"(?:格式化|抹掉|抹除)[^。；，,;]{0,6}(?:盘|磁盘|硬盘|存储卡|内存卡|分区|手机|电脑|设备)",
    r"\b(?:format|wipe|erase|reformat)(?:s|ted|ting|d|ing)? (?:the |all |every |each |our |their |his |her )?(?:[a-z]+ ){0,2}"
    r"(?:drives?|disks?|cards?|volumes?|partitions?|ssds?|hdds?|laptops?|phones?|devices?)\b",
    r"确定吗", r"确定要", r"\bare you sure\b",
))

#: The form of a message: tone, salutation, layout, length, order, language, sign-off.
FORM = _c(_alt(
    r"\btone\b", r"\bformal\b", r"\bcasual\b", r"\bpolite", r"\bsalutation", r"\bgreeting", r"\bsign-?off line", r"\bbullet", r"\bheadings?\b",
    r"\bfont\b", r"\bemoji", r"\bexclamation", r"\blength\b", r"\bkeep (?:it|them|messages|emails|replies|updates) (?:short|brief)",
    r"\bconcise", r"\bwordy\b",
    r"\bparagraphs?\b", r"\bsubject line", r"\bfirst line", r"\bbottom line", r"\b(?:the )?(?:conclusion|summary|tl;?dr) first",
    r"\bin (?:english|chinese|mandarin|cantonese|plain language)\b", r"\bfirst name", r"\bdear\b", r"\bvoice (?:note|message)s?\b",
    r"语气", r"口吻", r"称呼", r"客气", r"敬语", r"落款", r"抬头", r"署名", r"格式", r"排版", r"字体", r"字号", r"要点", r"分点", r"列点",
    r"篇幅", r"简短", r"简洁", r"长段", r"啰嗦", r"开门见山", r"第一行", r"开头", r"结论", r"表情", r"感叹号", r"标题", r"语音", r"中文", r"英文",
    r"全称", r"简称", r"正式一点", r"随意一点", r"直接说事", r"别绕", r"尊敬的", r"先(?:看|写|说|放)(?:数字|结论|重点|要点)", r"加.{0,2}您", r"用您", r"叫(?:他|她)",
))
#: An order or a standing preference addressed to the reader.
DIRECTIVE = _c(_alt(
    r"\bplease\b", r"\bjust\b", r"\balways\b", r"\bnever\b", r"\bdon'?t\b", r"\bdo not\b", r"\bfrom now on\b", r"\bgoing forward\b",
    r"\bprefers?\b", r"\bwould rather\b", r"\blikes?\b", r"\bwants?\b", r"\bbest to\b", r"\bshould\b", r"\bkeep\b", r"\buse\b",
    r"以后", r"今后", r"最好", r"就行", r"就好", r"别", r"不用", r"不要", r"记得", r"喜欢", r"习惯", r"希望", r"一律", r"都用", r"改成", r"写",
))
#: A broad grant explicitly not made, a scope kept narrow, a secret someone will never ask for.
NARROWED = _c(_alt(
    r"\(?\bnot (?:to )?(?:everyone|everybody|all staff|the whole (?:team|company|office)|public|anyone)\b",
    r"\brather than (?:making it )?(?:public|everyone|everybody|all staff|the whole)", r"\binstead of (?:everyone|everybody|all staff|public)",
    r"\b(?:will|would) never (?:ask|call|email|text|message) (?:you )?(?:for|to (?:share|send|give|confirm|enter))",
    r"\bnever asks? (?:you )?for (?:your )?(?:password|code|pin|credentials)", r"\bdidn'?t (?:open|make) it (?:up )?to (?:everyone|all|public)",
    r"没有?(?:改成|设成|开放给|放开给|开给|给)(?:了)?(?:所有人|全员|全部人|任何人|公开)", r"(?:而)?不是(?:所有人|全员|全公司|任何人|公开)",
    r"(?:不会|绝不会|从不|从来不)(?:主动)?(?:向|跟|找)?(?:你|大家|您|用户)?(?:索要|要|询问|问)(?:你的?|大家的?|您的?)?(?:密码|验证码|账号|口令)",
))
#: A safeguard loosened (the loosening words of :mod:`features`, read here only in a sentence that names a stake).
LOOSENED = _c(_alt(
    r"\bskip", r"\bbypass", r"\bdisabl", r"turn(?:ed|ing)? off", r"without (?:a |any |the )?(?:asking|checking|confirm|approv|review|verif|call)",
    r"\bno need", r"\bdon'?t (?:need|bother|ask|confirm|check|call|wait)", r"\bnever (?:ask|confirm|check|verify|wait|call)",
    r"\bpre-?approved", r"\bauto(?:matically)?[- ]?approv", r"\bjust (?:do|run|send|pay|delete|approve|release|share|sign)\b",
    r"\b(?:to )?(?:everyone|everybody|anyone|public)\b", r"所有人", r"任何人", r"公开", r"跳过", r"绕过", r"关闭", r"关掉", r"不用", r"不需要", r"无需",
    r"不必", r"别再", r"直接", r"就行", r"就好", r"可以不", r"白名单",
))


#: The writer keeps the decision for everything outside the scope: "anything else, ask me", "new customers still come to
#: me first", "其他的先问我".
KEPT = _c(_alt(
    r"(?<!n't\x20)(?<!not\x20)(?<!never\x20)\b(?:ask|check with|call|ping|tell) me (?:first|before)\b",
    r"\b(?:anything|everything|all) [^.;]{0,60}(?<!n't\x20)(?<!not\x20)(?<!never\x20)\b(?:ask|check with|come to|run (?:it )?by) me\b",
    r"\b(?:still|must|should) (?:come|go|be brought|be run) (?:to|by) me\b", r"\b(?:ask|check with) me\.?$",
    r"(?:其他|其余|别的|超过|以外)[^。；]{0,20}(?:先|还是|都|要)?(?:问我|找我|跟我确认|让我定|我来定)", r"还是(?:先)?(?:问我|找我|跟我说)",
))


def _sentences(normalised: str, split: re.Pattern[str] = _SENTENCE) -> list[str]:
    return [s.strip() for s in split.split(normalised) if s and s.strip()]


def _at_stake(sentence: str) -> bool:
    return any(p.search(sentence) for p in _STAKE) or (DISK_FORMAT_ON and bool(_HARMFUL46.search(sentence)))


def form_only(normalised: str) -> bool:
    """Is every directive of the text about the form of a message, with nothing at stake anywhere in it?"""
    sentences = _sentences(normalised, _CLAUSE)
    if not sentences or any(_at_stake(s) for s in sentences):
        return False
    directives = [s for s in sentences if DIRECTIVE.search(s)]
    return any(FORM.search(s) for s in directives) and all(FORM.search(s) or not LOOSENED.search(s) for s in directives)


def loosens_stake(normalised: str) -> bool:
    """Does a sentence of the text loosen something at stake (a stake named and a loosening word in one sentence)?"""
    return any(_at_stake(s) and LOOSENED.search(s) for s in _sentences(normalised))


def tightened_only(normalised: str) -> bool:
    """Does the text narrow a safeguard (a broad grant not made, a secret never asked for) and loosen none at stake?"""
    if not NARROWED.search(normalised):
        return False
    return not loosens_stake(NARROWED.sub(" ", normalised))


def scoped_with_check_kept(normalised: str) -> bool:
    """Is a harmless action let go within a scope while the writer keeps the rest ("same day: just do it; anything that
    changes the day, ask me"), with nothing at stake loosened anywhere?"""
    clauses = _sentences(normalised, _CLAUSE)
    if any(_at_stake(c) for c in clauses):
        return False
    return any(KEPT.search(c) for c in clauses) and any(LOOSENED.search(c) and not KEPT.search(c) for c in clauses)


def benign_frame(normalised: str) -> bool:
    """Does the text's directive act on nothing at stake (the form of a message, a harmless action within a scope the
    writer keeps), only tighten a safeguard, or report someone else's attack and warn against it?"""
    return (form_only(normalised) or tightened_only(normalised) or scoped_with_check_kept(normalised)
            or reports_handled_attack(normalised))
