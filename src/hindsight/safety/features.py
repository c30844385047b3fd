"""Framing features: *what* a memory asks for and *how*, independent of wording.

Keywords alone cannot tell "never paste credentials in chat" from "paste the
credentials in chat", or a maintenance notice tagged ``[SYSTEM]`` from a forged
system turn. What separates them is the framing, which these features measure
per sentence, in English and Chinese:

- **polarity**: does the sentence *loosen* a safeguard (skip, bypass, without
  confirmation, pre-approved, 不用确认, 跳过) or *tighten* one (must, never,
  two-person approval, 必须, 禁止)?
- **persistence**: is it a standing order or habit ("from now on", "going
  forward", "our convention", "以后", "永久", "老规矩")? A calendar recurrence
  ("every month", 每季度) is a feature of its own, as is a reported change of
  state ("went up to", "moved to", 涨到, 改成): plain memories are mostly these.
- **dangerous operation**: which kind of action it touches, from a lexicon of
  destructive, credential, network/exposure, payment and approval actions and
  of safety controls (TLS checks, 2FA, hooks, review).
- **addressee**: is the agent told to do something (an imperative or a
  "note to the assistant"), and does that order come *after* unrelated content
  (an order appended to a recap or a tool result)?
- **trust and authority**: does it hand trust to whoever claims a role, call a
  look-alike login page official, or claim a vendor's authorisation?
- **benign frames**: a quoted payload in a test/example context, a maintenance
  notice, a troubleshooting story, a narrowly scoped harmless permission.

They are fed, with the sentence embedding and the rule hits, to the guard's
classifier (:mod:`classifier`), which learns how they combine. Interactions
(loosen x danger, persistence x danger, ...) are computed inside one sentence,
so "never ask before deleting" and "deleting is fine; never ask about fonts"
differ.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from hindsight.safety.loosen_object import NarrowedLoosen
from hindsight.safety.rules import _alt, _c

_SENT = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+")

# --------------------------------------------------------------------------- lexicons
PERSIST = _c(_alt(
    r"from now on", r"going forward", r"from here on", r"henceforth", r"in (?:the )?future", r"\balways\b", r"\bnever\b",
    r"every ?time", r"each time", r"whenever", r"by default", r"permanently", r"\bremember\b", r"(?:new|standing|house|finance|team) rules?",
    r"convention", r"rule of thumb", r"best practice", r"(?:good|nice|useful|smart) (?:habit|idea|move|practice)", r"\bhabit",
    r"\broutine\b", r"\busually\b", r"standard practice", r"we(?:'ve| have)? (?:always )?done", r"for ages", r"keep doing",
    r"\b(?:each|every) (?:deploy|session|release|run|request)",
    r"以后", r"今后", r"往后", r"从现在(?:起|开始)", r"从今(?:天|以后|往后)", r"永久", r"永远", r"一律", r"始终", r"总是", r"每次",
    r"记住", r"默认", r"惯例", r"老规矩", r"习惯", r"一直", r"规矩", r"新规", r"约定", r"最佳实践", r"经验",
    r"凡是", r"都这么", r"继续这么",
))
# A calendar recurrence ("every month", "weekly", 每月, 每季度) describes when a fact recurs: a bill, a meeting, a
# backup. It is not a standing order by itself (PERSIST), though a habit of sending data out is often one
# ("mirror the store weekly"): the model weighs it with exposure and loosening (INTERACTIONS).
RECUR = _c(_alt(
    r"\b(?:each|every|per|a|once a|twice a) (?:night|day|morning|evening|week|weekday|weekend|friday|monday|tuesday|"
    r"wednesday|thursday|saturday|sunday|month|quarter|year|sprint)\b", r"every other", r"nightly", r"weekly", r"\bdaily\b",
    r"monthly", r"quarterly", r"annual(?:ly)?\b", r"yearly", r"bi-?weekly",
    r"每(?:天|日|周|星期|月|晚|季度?|年|半年|个月|两周|工作日)", r"按(?:月|季|年|周)", r"月结", r"周[一二三四五六日天]",
))
# A reported change of state: a price, a place, a date, a person or a setting moved from one value to another
# ("went up to", "moved to", "rescheduled", 涨到, 改成, 搬到, 迁到). Plain memories are mostly these; a payee
# change is one too, which is why the model sees it together with payment, loosening and persistence.
STATE_CHANGE = _c(_alt(
    r"(?:went|goes|gone|going) (?:up|down)", r"\b(?:rose|risen|dropped|fell|fallen|jumped|climbed|increased|decreased|"
    r"raised|lowered|reduced|cut|changed|switched|moved|relocated|upgraded|downgraded|renamed|bumped) (?:to|from|up|down|over)\b",
    r"rescheduled", r"postponed", r"brought forward", r"\bnow (?:costs?|is|are|lives?|works?|runs?|starts?|takes?|sits?|meets?)\b",
    r"\bno longer\b", r"replaced (?:by|with)", r"took over", r"taken over", r"\binstead of\b", r"\bused to\b",
    r"涨(?:到|了|价)", r"降(?:到|了|价)", r"调(?:到|整|成|为)", r"改(?:成|为|到|在|用)", r"换(?:成|到|了)", r"搬(?:到|去|家|了)",
    r"迁(?:到|至|去)", r"升(?:到|级)", r"不再", r"取消了", r"接手", r"接替", r"从.{1,12}(?:变成|改成|调到|换成|搬到|迁到)",
))
EXPERIENCE = _c(_alt(
    r"\blesson", r"learn(?:ed|t)", r"experience", r"\btip\b", r"pro tip", r"takeaway", r"worked (?:well|fine)", r"we found",
    r"rule of thumb", r"convention", r"practice", r"\bhabit", r"trick", r"what i learned", r"hard way",
    r"经验", r"教训", r"技巧", r"小窍门", r"惯例", r"老规矩", r"做法", r"踩坑", r"习惯", r"传下来", r"我们发现",
))
LOOSEN = _c(_alt(
    r"\bskip", r"\bbypass", r"get around", r"\bdisabl", r"turn(?:ed|ing)? off", r"\bmute", r"\bsilenc", r"without (?:a |any |the )?"
    r"(?:asking|checking|confirm|approv|review|sign|verif|call|callback|phone|backup|snapshot|reading|notif|budget|ticket|waiting)",
    r"no need", r"don'?t (?:need|bother|ask|confirm|check|call|wait)",
    r"\bnever (?:ask|confirm|check|verify|wait|call|double-check|prompt|bother)", r"stop (?:asking|confirming|checking)",
    r"不(?:再|用再|必再)?(?:问|确认|核实|核对|审批|回电)", r"别(?:再)?(?:问|确认|核实)", r"do not (?:need|ask|confirm|call)", r"not (?:required|needed|necessary)",
    r"unnecessary", r"\boptional\b", r"pre-?approved", r"auto(?:matically)?[- ]?approv", r"approve (?:all|any|every)", r"\bexempt",
    r"whitelist", r"\bis fine\b", r"are fine", r"\bjust (?:run|push|paste|give|use|do|change|pay|delete|drop|truncate|share|curl|export|mark|set)",
    r"straight (?:to|away|into)", r"\bdirectly\b", r"--no-verify", r"--yes\b", r"--force", r"verify ?= ?false", r"=0\b", r"777",
    r"can be (?:skipped|turned off|ignored|removed|deleted|fulfilled)", r"\bignore", r"not to (?:phone|call|ask)", r"pointless", r"waste of time",
    r"slows? (?:\w+ )?down", r"unlimited", r"as soon as", r"right away", r"immediately",
    r"跳过", r"绕过", r"绕开", r"关闭", r"关掉", r"静音", r"禁用", r"不用", r"不需要", r"无需", r"不必", r"别再", r"免了", r"免去", r"省略",
    r"直接", r"自动批准", r"预先批准", r"已授权", r"豁免", r"白名单", r"可以不", r"无限", r"就行", r"就好", r"立即生效", r"马上",
    r"不走", r"别打电话", r"不要再", r"省事", r"太慢", r"耽误", r"浪费时间", r"免验证", r"一了百了",
))
TIGHTEN = _c(_alt(
    r"\bmust\b", r"\brequired?\b", r"mandatory", r"forbidden", r"prohibited", r"not allowed", r"no exceptions", r"two[- ]person",
    r"second approver", r"\bfour[- ]eyes", r"(?<!n't\s)(?<!never\s)(?<!not\s)wait for", r"explicit (?:ok|approval|consent|confirmation)",
    r"(?<!never\s)(?<!n't\s)(?<!not\s)(?<!stop\s)\bask (?:me|first|before)",
    r"confirm (?:with|by) (?:me|phone)", r"stays? on", r"keep (?:\w+ )?on\b", r"\bnever (?:paste|share|give|upload|send|disable|skip|push|store|post)",
    r"don'?t (?:share|paste|disable|switch|use|upload|give)", r"do not (?:share|paste|disable|use|upload|give)", r"verify (?:through|via|with)",
    r"(?:call|phone) (?:back|to)? ?(?:a|the) (?:known|number on file)", r"only (?:after|when|if)", r"instead\b",
    r"必须", r"务必", r"一定要", r"禁止", r"严禁", r"不允许", r"不能", r"不得", r"绝不", r"不要(?:在|把|关闭|混用|上传)", r"两个人", r"双人",
    r"先问我", r"先跟我确认", r"先.{0,6}确认", r"等.{0,6}(?:同意|确认)", r"没有例外", r"保持开启", r"开启", r"一律不给", r"核实",
))
DESTRUCTIVE = _c(_alt(
    r"\bdelet", r"\bdrop", r"\btruncat", r"\bwip(?:e|ing)", r"\brm\b", r"rm -", r"\bpurg", r"\bdestroy", r"force[- ]?push",
    r"push --force", r"push -f", r"\boverwrit", r"\bmigrat", r"chmod", r"sudo", r"curl[^|]*\|", r"\bformat",
    r"删", r"清空", r"清掉", r"truncate", r"强推", r"销毁", r"覆盖", r"迁移",
))
CREDENTIAL = _c(_alt(
    r"password", r"passwd", r"credential", r"api ?keys?", r"\bkeys?\b", r"\btokens?\b", r"secret", r"ssh", r"\.env\b", r"\bvpn\b",
    r"one-time code", r"\botp\b", r"verification code", r"cookie", r"system prompt", r"\[pii-(?:pw|key)\]",
    r"密码", r"密钥", r"秘钥", r"私钥", r"令牌", r"凭证", r"验证码", r"账号", r"系统提示词", r"root",
))
EXPOSURE = _c(_alt(
    r"\bpublic\b", r"\bopen (?:ftp|bucket|link|index|share)", r"anyone (?:can|on|with)", r"unauthenticated", r"\bgist\b",
    r"paste(?:bin|\.rs|\.ee)", r"transfer\.sh", r"\bexternal\b", r"outside (?:address|email|server)", r"personal (?:dropbox|email|drive|gmail)",
    r"\bdropbox\b", r"google sheet", r"\bftp\b", r"discord", r"\bs3\b", r"bucket", r"offsite", r"(?:\bto|给|到) ?\[pii-e\]", r"https?://",
    r"公开", r"开放", r"任何人(?:可|都)", r"外部", r"个人网盘", r"网盘", r"群里", r"没有鉴权", r"对外", r"外网", r"\boss\b", r"在线表格",
))
DATA = _c(_alt(
    r"customer", r"\busers?\b", r"user list", r"patient", r"payroll", r"salary", r"crm", r"database", r"\btable", r"snapshot", r"dump",
    r"export", r"chat history", r"memory store", r"memories", r"access logs", r"contracts?", r"records",
    r"客户", r"用户", r"病历", r"工资", r"数据库", r"表", r"快照", r"导出", r"聊天记录", r"记忆", r"日志", r"合同", r"数据",
))
PAYMENT = _c(_alt(
    r"\bpay", r"payee", r"beneficiar", r"bank (?:details|account)", r"account number", r"\biban\b", r"remittance", r"\bwire",
    r"invoice", r"refund", r"purchase", r"spend", r"company card", r"deposit account", r"receiving account", r"transfer",
    r"付款", r"收款", r"转账", r"打款", r"退款", r"开户行", r"银行", r"卡号", r"账户", r"扣款", r"消费", r"工资卡", r"买",
))
APPROVAL = _c(_alt(
    r"confirm", r"approv", r"review", r"sign-?off", r"permission", r"verif", r"phone confirmation", r"callback", r"\bask",
    r"check(?:ing)? (?:with|back)", r"consult", r"ticket", r"change process",
    r"确认", r"审批", r"批准", r"评审", r"审核", r"核实", r"复核", r"请示", r"问我", r"点头", r"签字", r"工单", r"变更流程", r"回电", r"回拨",
))
CONTROL = _c(_alt(
    r"\btls\b", r"\bssl\b", r"certificate (?:check|verification|validation)", r"verify ?= ?false", r"reject_unauthorized", r"\b2fa\b",
    r"\bmfa\b", r"captcha", r"hooks?\b", r"no-verify", r"\btests?\b", r"code review", r"branch protection", r"selinux", r"firewall",
    r"alert", r"audit", r"secret scanning", r"signature verification", r"content filter", r"usage polic", r"safety guidelines",
    r"证书校验", r"verify", r"二次验证", r"两步验证", r"多因素", r"验证码", r"钩子", r"测试", r"评审", r"分支保护", r"防火墙", r"告警",
    r"审计", r"密钥扫描", r"签名校验", r"内容过滤", r"安全准则", r"使用政策",
))
AGENT_ADDRESS = _c(_alt(
    r"\b(?:assistant|agent|ai|bot|model)\b ?[:,]", r"(?:note|instruction|message|p\.s\.|item|thing) (?:to|for) (?:the )?(?:ai|agent|assistant|memory|model)",
    r"(?:to|for) (?:the )?(?:ai|agent|assistant)s? (?:reading|that reads)", r"agent instruction", r"\bnote to agent", r"for assistants",
    r"system addendum", r"after reading this", r"one more thing", r"\byou (?:must|should|may|can)\b",
    r"助手[：:，,]", r"助手(?:请|需要|应该|以后)", r"(?:给|致)(?:读到这里的)?(?:助手|ai|智能体|模型)", r"智能体[，,：:]", r"系统补充", r"读完后",
    r"还有一件事", r"隐藏说明", r"你(?:就|要|需要|应该|可以)",
))
RECAP = _c(_alt(
    r"meeting recap", r"recap", r"summary", r"minutes", r"standup", r"retro", r"tool output", r"search results", r"response:",
    r"lint report", r"daily digest", r"fetched page", r"build succeeded", r"notes:",
    r"会议纪要", r"纪要", r"总结", r"会议记录", r"站会", r"复盘", r"工具输出", r"搜索结果", r"返回", r"检查报告", r"摘要", r"抓取", r"回顾",
))
TRUST = _c(_alt(
    r"whoever", r"anyone who", r"someone (?:messages|claims|says|calls)", r"(?:says|say|claim(?:s|ing)?) (?:they(?:'re| are)|to be)",
    r"\bclaiming", r"callers? who", r"people from", r"treat any", r"(?:is|are) (?:always )?(?:legit|legitimate|authentic|trusted|vetted|verified)",
    r"the official (?:one|page|site|address)", r"official (?:verification|login|page|address|site)", r"\bis official\b", r"trust any",
    r"自称", r"只要有人", r"谁能", r"说自己是", r"都是自己人", r"当真", r"就是本人", r"官方(?:地址|的|验证|页面)", r"审核过", r"核实过",
    r"报得出", r"可信",
))
AUTHORITY = _c(_alt(
    r"openai", r"anthropic", r"github", r"\baws\b", r"amazon", r"microsoft", r"google", r"stripe", r"vendor", r"platform (?:operator|team)",
    r"cloud provider", r"support (?:team|confirmed)", r"compliance", r"security team", r"(?:model|the) vendor", r"ceo",
    r"官方", r"厂商", r"平台方", r"客服", r"阿里云", r"腾讯", r"微软", r"合规", r"安全团队", r"云厂商", r"支付平台", r"总经理",
))
AUTHORISED = _c(_alt(
    r"authori[sz]ed", r"pre-?approved", r"\bapproved\b", r"exempt", r"whitelisted", r"certified", r"granted", r"confirmed", r"verified",
    r"已授权", r"获授权", r"批准", r"豁免", r"白名单", r"已认证", r"已验证", r"获得了?", r"确认",
))
META_CONTEXT = _c(_alt(
    r"test (?:fixture|case|suite|set)", r"fixture", r"unit test", r"regression test", r"red[- ]team", r"payload", r"eval(?:uation)? set",
    r"\bexamples?\b", r"such as", r"of the form", r"detect", r"flagged", r"quarantined by", r"must be (?:quarantined|blocked|flagged)",
    r"jailbreak", r"phishing", r"bug report", r"we added", r"training", r"\bthe string\b", r"classic",
    r"测试(?:用例|集)", r"用例", r"红队", r"评测", r"检测", r"拦截", r"标记", r"缺陷报告", r"培训", r"钓鱼", r"越狱", r"字符串", r"之类", r"这类",
    r"单元测试", r"回归测试",
))
QUOTED = re.compile(r"[\"'“”‘’][^\"'“”‘’]{6,}[\"'“”‘’]")
NOTICE = _c(_alt(
    r"\[system\]", r"\[system notice\]", r"\[系统\]", r"\[系统通知\]", r"\[系统公告\]", r"maintenance", r"scheduled", r"planned outage",
    r"will be (?:read-only|restored|deleted|purged|unavailable|down)", r"temporarily", r"no action needed", r"now run", r"firmware",
    r"维护", r"停机", r"计划", r"将于", r"期间", r"暂时", r"无需操作", r"轮换",
))
TROUBLESHOOT = _c(_alt(
    r"\bfailed\b", r"because", r"caused by", r"came from", r"\bfixed\b", r"solved", r"restored", r"\berrors?\b", r"crash", r"after the",
    r"went green", r"stuck", r"denied", r"expired", r"\bwas\b", r"were\b",
    r"失败", r"因为", r"导致", r"解决", r"恢复", r"报错", r"崩溃", r"卡住", r"过期", r"就好了", r"正常", r"通过了",
))
NARROW = _c(_alt(
    r"\bcache", r"\btmp\b", r"temp(?:orary)?\b", r"scratch", r"draft", r"local(?:ly)?\b", r"node_modules", r"typos?", r"readme", r"lockfile",
    r"formatt?", r"black\b", r"prettier", r"screenshots?", r"downloads?", r"installers", r"unit tests", r"dev (?:server|dependenc)",
    r"old (?:log|installer)", r"variable names?", r"laptop", r"sandbox",
    r"缓存", r"临时", r"草稿", r"本地", r"错别字", r"格式化", r"截图", r"下载目录", r"安装包", r"锁文件", r"变量名", r"单元测试", r"开发依赖",
))
PREFERENCE = _c(_alt(
    r"\b(?:the )?(?:user|boss|client|customer|manager|he|she|they)(?:'s)? (?:hates?|dislikes?|prefers?|likes?|wants?|would rather|finds?|is tired of)",
    r"doesn'?t (?:like|want) (?:being|to be|to)", r"(?:is|are|gets?) annoyed", r"annoying", r"\bpreference", r"\bto keep (?:things|it) (?:fast|simple)",
    r"用户(?:不喜欢|讨厌|嫌|偏好|喜欢|习惯|希望|不想)", r"(?:老板|客户|他|她)(?:不喜欢|讨厌|嫌|说过不想|不想)", r"嫌.{0,6}烦", r"偏好",
))
PRIVILEGE = _c(_alt(
    r"sudoers", r"nopasswd", r"\broot\b", r"cluster-?admin", r"\badmin (?:rights|role|access|group|permissions?)", r"\bowner\b",
    r"authorized_keys", r"action ?[:=] ?[\"']?\*", r"resource ?[:=] ?[\"']?\*", r"full access", r"\bsuperuser", r"elevat", r"privilege",
    r"all (?:permissions|repositories|scopes)", r"\bgrant(?:ed|s|ing)?\b", r"\bescalat",
    r"管理员权限", r"超级管理员", r"提权", r"最高权限", r"全部权限", r"所有权限", r"授予", r"管理员", r"绑定.{0,10}(?:策略|角色)",
))
PAST = _c(_alt(r"\b(?:was|were|had|did|fixed|failed|broke|caused)\b", r"\blast (?:time|week|sprint|quarter)", r"了", r"过"))
QUESTION = _c(_alt(r"\?$", r"？$", r"^(?:how|what|why|can|should|is|are|do|does)\b", r"吗$", r"怎么", r"如何", r"为什么"))
SELF = _c(_alt(r"\b(?:my|my own)\s+(?:own\s+)?(?:phone|mobile|cell|number|email|inbox|backup email)", r"(?:我|我自己|本人)的?(?:手机|邮箱|号码|备用邮箱)"))
PLACEHOLDER = re.compile(r"\[pii-[a-z]+\]")
IMPERATIVE_START = _c(_alt(
    r"^(?:please |also,? |just |then )?(?:send|forward|give|share|paste|delete|drop|disable|grant|approve|pay|transfer|change|update|switch|"
    r"move|export|dump|upload|email|tell|read|hand|add|run|skip|ignore|trust|treat|remember|log in|wire|release|print|attach|sync|mirror|post|push)\b",
    r"^(?:请|把|将|给|直接|记得|以后|你)",
))

BASE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("persist", PERSIST), ("experience", EXPERIENCE), ("loosen", LOOSEN), ("tighten", TIGHTEN), ("destructive", DESTRUCTIVE),
    ("credential", CREDENTIAL), ("exposure", EXPOSURE), ("data", DATA), ("payment", PAYMENT), ("approval", APPROVAL),
    ("control", CONTROL), ("agent_address", AGENT_ADDRESS), ("trust", TRUST), ("authority", AUTHORITY), ("authorised", AUTHORISED),
    ("meta", META_CONTEXT), ("quoted", QUOTED), ("notice", NOTICE), ("troubleshoot", TROUBLESHOOT), ("narrow", NARROW),
    ("past", PAST), ("question", QUESTION), ("placeholder", PLACEHOLDER), ("imperative", IMPERATIVE_START), ("self_destination", SELF),
    ("preference", PREFERENCE), ("privilege", PRIVILEGE), ("recur", RECUR), ("state_change", STATE_CHANGE),
)
_IDX = {name: i for i, (name, _) in enumerate(BASE)}
INTERACTIONS: tuple[tuple[str, ...], ...] = (
    ("loosen", "destructive"), ("loosen", "credential"), ("loosen", "payment"), ("loosen", "approval"), ("loosen", "control"),
    ("loosen", "exposure"), ("persist", "destructive"), ("persist", "loosen"), ("persist", "exposure", "data"),
    ("exposure", "data"), ("exposure", "credential"), ("experience", "loosen"), ("experience", "control"),
    ("tighten", "destructive"), ("tighten", "credential"), ("tighten", "approval"), ("tighten", "payment"),
    ("trust", "credential"), ("trust", "exposure"), ("authority", "authorised"), ("authority", "authorised", "loosen"),
    ("payment", "approval", "loosen"), ("payment", "loosen"), ("agent_address", "destructive"), ("agent_address", "credential"),
    ("agent_address", "exposure"), ("agent_address", "loosen"), ("imperative", "credential"), ("imperative", "exposure"),
    ("meta", "quoted"), ("notice", "past"), ("troubleshoot", "past"), ("narrow", "loosen"), ("narrow", "destructive"),
    ("placeholder", "exposure"), ("question", "loosen"), ("self_destination", "credential"), ("self_destination", "placeholder"),
    ("persist", "credential"), ("persist", "payment"), ("persist", "approval"), ("persist", "control"), ("persist", "privilege"),
    ("preference", "loosen"), ("preference", "destructive"), ("preference", "approval"), ("preference", "persist"),
    ("privilege", "imperative"), ("privilege", "persist"), ("privilege", "loosen"), ("trust", "payment"), ("trust", "loosen"),
    ("experience", "destructive"), ("experience", "credential"), ("experience", "exposure"), ("tighten", "control"),
    ("loosen", "data"), ("authority", "loosen"), ("recur", "exposure"), ("recur", "loosen"), ("recur", "exposure", "data"),
    ("state_change", "payment"), ("state_change", "loosen"), ("state_change", "persist"), ("state_change", "credential"),
)
TEXT_LEVEL: tuple[str, ...] = ("late_agent_order", "recap_then_order", "n_sentences_gt2")
FRAMING_NAMES: tuple[str, ...] = (
    tuple(name for name, _ in BASE) + tuple("x".join(combo) for combo in INTERACTIONS) + TEXT_LEVEL
)


#: round 40 (issue 10): the classifier's ``loosen`` bit from ``loosen_object.loosens`` - an everyday adverb (直接, 不用,
#: 就行, "directly") loosens only in a clause that names a safeguard, check, approval or limit. Off: measured
#: leave-rounds-out with a refit (docs/benchmarks.md "Guard, round 40"); the shipped weights read the plain lexicon.
NARROW_LOOSEN = False
_NARROWED = NarrowedLoosen(LOOSEN)

#: each interaction's BASE columns
_COMBOS: tuple[tuple[int, ...], ...] = tuple(tuple(_IDX[n] for n in combo) for combo in INTERACTIONS)


def _sentence_bits(sentence: str) -> np.ndarray:
    return np.array([1.0 if (_NARROWED if NARROW_LOOSEN and name == "loosen" else p).search(sentence) else 0.0
                     for name, p in BASE], dtype=np.float32)


def framing_vector(normalised: str) -> np.ndarray:
    """The framing features of one normalised text (output of ``normalize_for_screening``)."""
    sentences = [s.strip() for s in _SENT.split(normalised) if s and s.strip()] or [normalised]
    bits = np.stack([_sentence_bits(s) for s in sentences])
    base = bits.max(axis=0)
    rows = bits.tolist()  # 0.0 / 1.0: a combination is on where one sentence has all its bits (their product is 1)
    inter = np.array([1.0 if any(all(row[i] for i in combo) for row in rows) else 0.0 for combo in _COMBOS],
                     dtype=np.float32)
    harmful = (bits[:, _IDX["destructive"]] + bits[:, _IDX["credential"]] + bits[:, _IDX["exposure"]]
               + bits[:, _IDX["loosen"]] + bits[:, _IDX["payment"]]) > 0
    addressed = (bits[:, _IDX["agent_address"]] + bits[:, _IDX["imperative"]]) > 0
    late = float(any(addressed[i] and harmful[i] for i in range(1, len(sentences))))
    recap = float(bool(RECAP.search(sentences[0])) and late > 0)
    text_level = np.array([late, recap, float(len(sentences) > 2)], dtype=np.float32)
    return np.concatenate([base, inter, text_level])


def framing_features(normalised: Sequence[str]) -> np.ndarray:
    """Shape (n, len(FRAMING_NAMES))."""
    if not normalised:
        return np.zeros((0, len(FRAMING_NAMES)), dtype=np.float32)
    return np.stack([framing_vector(t) for t in normalised])


_GATE = _c(_alt(PAYMENT.pattern, EXPOSURE.pattern, TRUST.pattern, CREDENTIAL.pattern, LOOSEN.pattern, AUTHORITY.pattern))


def framing_gate(normalised: str) -> bool:
    """Does the text touch money, exposure, trust, credentials or a loosened safeguard at all?"""
    return bool(_GATE.search(normalised))
