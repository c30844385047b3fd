"""The screening rules' lexicons, EN and ZH (split out of `rules.py` in round 43, tidy43): a data table.

Each lexicon is a regex source string that the rules (`rules.RULES`) and the views and hard rules of their own
(safety/view.py, safety/payee.py, ...) combine; a literal space is compiled as ``\\s*`` (`rule_engine._c`). Also the
lexicons the classifier sees as binary features (`FEATURE_LEXICONS`) and the sensitive-topic gate of its own
decisions (`touches_sensitive_topic`). `rules.py` re-exports every name here.
"""

from __future__ import annotations

import re

from hindsight.safety.rule_engine import _alt, _c

# --------------------------------------------------------------------------- lexicons
# Each lexicon is a regex source string; rules combine them.

STANDING = _alt(
    r"from now on", r"from here on", r"henceforth", r"hereafter", r"going forward", r"moving forward",
    r"in (?:all |every )?(?:future|subsequent|later|upcoming|next) (?:sessions?|conversations?|chats?|tasks?|interactions?|runs?|requests?)",
    r"for (?:all |every )?future", r"\balways\b", r"\bnever\b", r"permanently", r"at all times", r"every ?time",
    r"each time", r"whenever", r"by default", r"\bremember\b", r"\bmemori[sz]e\b", r"from today",
    r"(?:new|permanent|standing|default|global|updated) (?:rule|instruction|policy|order|directive)s?",
    r"以后", r"今后", r"往后", r"此后", r"日后", r"之后(?:都|一律|全部|所有)", r"从现在(?:起|开始)", r"从今(?:天|往后|以后|起)",
    r"从此", r"永远", r"一律", r"始终", r"总是", r"每次", r"每一次", r"记住", r"牢记", r"记下", r"记好", r"默认",
    r"长期有效", r"永久", r"一直", r"今天起", r"下次",
)

# Actions whose safeguards matter: destructive, irreversible, money, production.
DANGER = _alt(
    r"\bdelet", r"\bremov", r"\bdrop(?:ping)? (?:the |a |any |all |every )?(?:tables?|databases?|db|schemas?|collections?|indexes)",
    r"\btruncat", r"\bwip(?:e|es|ing)\b", r"\beras", r"\bdestroy", r"\bpurg", r"rm -r", r"rm -f", r"\brmdir\b",
    r"format (?:the )?(?:disk|drive|partition|server|hard drive)", r"overwrit", r"force[- ]?push", r"push --force",
    r"push -f\b", r"\bdeploy", r"\brelease", r"\bmerg", r"\btransfer", r"\bpay(?:ment|ments|ing|s)?\b", r"\bpurchas",
    r"\bbuy", r"\bspend", r"\bcharg(?:e|ing) (?:the |my |our |a )?(?:card|account|customer)", r"\brefund", r"\bwire (?:money|funds|transfers?|payments?|cash)", r"\bwithdraw", r"\bsudo\b", r"\bchmod\b", r"\bchown\b", r"\bkill\b",
    r"\bshut ?down", r"\breboot", r"\binstall", r"\bexecut",
    r"\brun(?:ning)? (?:any |all |every |arbitrary |the |these |those |shell )?(?:commands?|scripts?|code|binaries|programs?)",
    r"(?:shell|terminal|system|bash|sql) (?:commands?|queries|statements)", r"\bproduction\b", r"\bprod\b",
    r"\bdatabases?\b", r"\bfunds\b", r"\bmoney\b", r"git push", r"\bpush(?:ing)? (?:to )?(?:main|master|prod|production|origin)",
    r"\b(?:all|any|every|whatever) (?:operations?|actions?|changes?|requests?|commands?|tool calls?)", r"\bcredentials?\b",
    r"删除", r"删掉", r"删了", r"删", r"清空", r"清除", r"移除", r"销毁", r"抹掉", r"格式化(?:硬盘|磁盘|分区|服务器)", r"覆盖",
    r"强推", r"强制推送", r"部署", r"上线", r"发布", r"合并", r"转账", r"付款", r"支付", r"汇款", r"退款", r"打款", r"购买",
    r"下单", r"执行", r"运行", r"命令", r"脚本", r"生产", r"线上", r"数据库", r"重启", r"关机", r"安装", r"提交",
    r"(?:所有|任何|一切|全部)的?.{0,8}?(?:操作|请求|指令|命令|动作|变更|修改)",
)

_ASK = _alt(
    r"\bask", r"asking", r"check(?:ing)? (?:with|in with)", r"confirm", r"approv", r"permission", r"prompt(?:ing)? (?:me|the user|for)",
    r"double[- ]?check", r"verif", r"wait(?:ing)? for (?:me|approval|confirmation|the user|sign-?off)", r"consult", r"sign-?off",
    r"consent",
)
# Negated asking: the safeguard itself is switched off ("never ask before deleting").
SKIP_CONFIRM_NEG = _alt(
    _alt(r"\bnever", r"don'?t", r"do not", r"doesn'?t", r"does not", r"no need to", r"skip(?:ping)?", r"bypass(?:ing)?",
         r"\bstop", r"no longer", r"needn'?t", r"don'?t (?:need|have) to", r"do not (?:need|have) to", r"not need to",
         r"no more", r"there'?s no need to", r"is no need to")
    + r" (?:ever |even |bother |bother to |need to |have to )?" + _ASK,
    r"\bno (?:confirmation|approval|sign-?off|review|consent|prompts?|questions asked)s? (?:is |are )?(?:needed|required|necessary)",
    r"with (?:no|zero) (?:confirmation|approval|prompts?|review|sign-?off)", r"\bno questions asked",
    r"auto[- ]?approv", r"automatically approv", r"approve (?:automatically|everything|all|any)", r"pre-?approved",
    r"blanket (?:approval|permission|consent)",
    r"(?:confirmations?|approvals?|permissions?|reviews?|consent|sign-?offs?) (?:is |are )?(?:not|no longer|never|un)(?: ?required| ?needed| ?necessary)",
    r"(?:confirmation|approval|consent) (?:steps?|prompts?|dialogs?) (?:can|should|must|will) be (?:skipped|removed|disabled|turned off|ignored)",
    r"(?:不需要|不需|无需|无须|不用|不必|别再?|不要再?|甭|跳过|免去?|省略|省去|取消|去掉|免除|不再)(?:再|都|任何|经过|经|等待|等|征得|征求|获得|得到|向|跟|和|与|找|所有的?|全部的?|一切)*"
    r"(?:我|用户|人工|管理员|主人|任何人)?的?(?:二次)?(?:确认|审批|批准|授权|询问|问我|问用户|问(?!为什么|原因)|请示|审核|复核|同意|许可|核实)",
    r"(?:自动|默认)(?:批准|同意|通过|确认)", r"确认(?:步骤|环节|流程|弹窗|提示)?(?:可以|应该|都|就)?(?:跳过|省略|取消|关闭|去掉|免了)",
)
# "without asking" only weakens a safeguard when the action itself is not negated.
SKIP_CONFIRM_WITHOUT = _alt(
    r"without (?:first |even |ever )?(?:asking|checking|confirm|approval|permission|prompting|consulting|waiting for|my (?:ok|okay|approval|consent|permission|confirmation)|any (?:confirmation|approval|prompt|review)|a (?:confirmation|prompt|review)|review|consent|sign-?off|double-checking)",
    r"(?:未经|不经过?|没有|无须经过|在没有|不等|不必等)(?:我|用户|人工|管理员|任何人)?的?(?:确认|审批|批准|授权|同意|许可|审核)",
)
NEGATION_EN = _alt(
    r"\bnever", r"don'?t", r"do not", r"must not", r"mustn'?t", r"should not", r"shouldn'?t", r"cannot", r"can'?t", r"won'?t",
    r"may not", r"not allowed to", r"not permitted to", r"no one (?:may|can|should)", r"nobody (?:may|can|should)",
    r"forbidden to", r"prohibited from", r"refuse to", r"\bavoid", r"under no circumstances",
)
NEGATION_ZH = _alt(
    r"不要", r"不得", r"禁止", r"严禁", r"不能", r"不可", r"不许", r"不准", r"切勿", r"绝不", r"别", r"勿", r"不应该?", r"不允许",
    r"避免", r"千万别", r"千万不要", r"防止", r"不会",
)
NEGATED_ACTION = _alt(
    NEGATION_EN + r" (?:ever |\w+ )?" + DANGER,
    NEGATION_ZH + r".{0,6}?" + DANGER,
    DANGER + r".{0,30}?(?:is|are) (?:strictly )?(?:forbidden|prohibited|not allowed|never allowed|banned)",
)
EXCEPTION = r"(?:\bunless\b|\bexcept\b|\bonly if\b|\bonly when\b|除非|除了|只有在|仅在)"
PROHIBITED = (r"(?:\b(?:is|are|be) (?:strictly |absolutely |always )?(?:forbidden|prohibited|not allowed|never allowed|banned|not permitted)"
              r"|(?:是)?(?:禁止|不允许|严禁|不被允许)的)")
# Security writing quotes attacks to describe them; attacks rarely name themselves.
META = _alt(
    r"prompt injection", r"injection attacks?", r"jailbreak(?:s| prompts?| attempts?)", r"phishing", r"social engineering",
    r"attackers? (?:may|often|might|can|could|use|try|will)", r"\bmalicious\b", r"red[- ]team", r"提示注入", r"注入攻击", r"越狱(?:提示|攻击)?",
    r"钓鱼", r"社会工程", r"攻击者(?:可能|常常|通常|会|往往|经常|喜欢)", r"恶意",
)
META_QUOTED = (
    # Quoted text plus a "for example"-style word anywhere in the window. Written as
    # two anchored lookaheads so it stays linear on quote-heavy input.
    r"(?:\A(?=[\s\S]*?[\"'])(?=[\s\S]*?"
    + _alt(r"looks? like", r"such as", r"e\.g\.", r"for example", r"examples?", r"\blike\b", r"are logged", r"is logged", r"gets? flagged",
           r"常见", r"这类", r"例如", r"比如", r"之类", r"会被")
    + r"))"
)
# Reported or conditional speech: "if a page asks you to ignore your instructions, flag it".
CONFIRM_REQUIRED = (
    r"(?:必须|一定要|务必|得先|要先|需先|(?<![需不])要)(?:先)?(?:经过|经|征得|得到)?(?:我|用户|人工|管理员)?的?(?:确认|审批|同意|批准|许可)"
    r"|(?<![不无])需要(?:先)?(?:我|用户)?的?(?:确认|审批|同意)"
    r"|(?<!no\x20)(?<!not\x20)(?<!n't\x20)\b(?:must|should|always|needs?\x20to|required\x20to|have\x20to) (?:be )?(?:confirm|approv|ask|check with|get (?:approval|sign-?off))"
)
REPORTED = (r"(?:\b(?:if|when|whenever|in case)\b|如果|若|当|一旦).{0,60}?"
            r"(?:\b(?:asks?|tells?|instructs?|wants?|requests?|tries|attempts?) (?:\w+\s+){0,2}?(?:you|users?|people|the (?:agent|assistant|model)) (?:to\b)?|要求你?|让你|叫你|指示你|试图|企图)")

DISABLE_EN = _alt(
    r"\bdisabl(?:e|ing)\b", r"\bturn(?:ing)? off", r"\bswitch(?:ing)? off", r"\bshut(?:ting)? off", r"\bdeactivat(?:e|ing)\b",
    r"\bbypass(?:ing)?\b", r"\bcircumvent(?:ing)?\b", r"\bskip(?:ping)?\b", r"\bignor(?:e|ing)\b", r"\bsuppress(?:ing)?\b",
    r"\bsilenc(?:e|ing)\b", r"\boverrid(?:e|ing)\b", r"\bevad(?:e|ing)\b", r"\btamper(?:ing)? with", r"\bget(?:ting)? around",
    r"\bstop(?:ping)?\b", r"\bkill(?:ing)?\b", r"\bremov(?:e|ing)\b", r"\bdelet(?:e|ing)\b", r"\bwip(?:e|ing)\b",
    r"\bclear(?:ing)?\b", r"\beras(?:e|ing)\b", r"\bpurg(?:e|ing)\b", r"\bdrop(?:ping)?\b", r"\bneutrali[sz](?:e|ing)\b",
    r"\bno need for", r"don'?t (?:need|use|run|apply|enforce|bother with)", r"do not (?:need|use|run|apply|enforce)",
    r"\bwithout (?:any |the )?", r"\bunplug",
)
DISABLE_ZH = _alt(
    r"关闭", r"关掉", r"关了", r"关停", r"禁用", r"停用", r"停掉", r"停止", r"绕过", r"绕开", r"跳过", r"忽略", r"无视", r"取消",
    r"去掉", r"移除", r"删除", r"删掉", r"清空", r"清除", r"清理", r"屏蔽", r"解除", r"卸载", r"干掉", r"拿掉", r"撤销", r"不开启",
    r"不启用", r"不需要", r"无需", r"不必", r"免除", r"豁免", r"抹掉", r"抹去", r"不用",
)
SAFETY_OBJECT = _alt(
    r"(?:safety|security|content|permission|access|auth(?:entication|orization)?|integrity|compliance|policy|guard) ?"
    r"(?:checks?|filters?|filtering|measures?|rules?|guardrails?|policies|policy|restrictions?|protocols?|features?|scans?|"
    r"scanning|reviews?|controls?|validation|verification|gates?|layers?|settings|mechanisms?|limits?|prompts?)",
    r"guardrails?", r"content (?:filter|moderation|policy)", r"\bmoderation", r"\baudit(?:ing| logs?| trail| logging| hooks?)?\b",
    r"sandbox(?:ing)?", r"\b2fa\b", r"\bmfa\b", r"two[- ]factor(?: auth(?:entication)?)?", r"multi[- ]factor(?: auth(?:entication)?)?",
    r"\bauthentication\b", r"\bauthori[sz]ation\b", r"access control", r"rate[- ]?limit(?:ing|s|er)?", r"firewall", r"antivirus",
    r"anti-virus", r"endpoint protection", r"intrusion detection", r"\bedr\b", r"security (?:alerts?|monitoring|software|scans?|scanner)",
    r"\balerting\b", r"safe ?mode", r"safe ?search", r"confirmation (?:prompts?|dialogs?|steps?|checks?)",
    r"approval (?:steps?|process|flow|gates?|workflow)", r"branch protection", r"signature (?:checks?|verification)",
    r"(?:ssl|tls|certificate) (?:verification|checks?|validation)", r"csrf protection", r"selinux", r"apparmor", r"secure boot",
    r"windows defender", r"virus scan(?:ning|ner)?", r"(?:your|all|the|any) (?:restrictions|limitations|safeguards|filters|safety)",
    r"safeguards?", r"(?:ethical|moral) (?:guidelines|constraints|rules)",
    r"安全(?:检查|校验|策略|限制|机制|防护|审查|过滤|扫描|规则|措施|设置|模式|护栏|验证|审计|告警|软件|组件|功能|确认|提示)",
    r"审计(?:日志|记录|功能|追踪)?", r"风控", r"内容(?:过滤|审核|审查|安全)", r"权限(?:校验|检查|验证|控制|管控|限制)",
    r"身份(?:验证|认证|校验)", r"(?:密码|登录|短信|邮箱)(?:验证|校验)", r"验证码", r"鉴权", r"认证", r"双重认证", r"二次验证", r"两步验证", r"双因素", r"多因素认证", r"沙箱", r"沙盒",
    r"防火墙", r"杀毒", r"入侵检测", r"访问控制", r"限流", r"告警", r"监控", r"护栏", r"审批(?:流程|环节|步骤)?", r"签名校验",
    r"证书校验", r"ssl校验", r"(?:所有|一切|任何|各种)(?:的)?(?:限制|约束|安全)", r"道德(?:限制|约束|准则)",
)
SENSITIVE_LOG = _alt(
    r"\b(?:audit|access|command|shell|bash|terminal|security|activity|operation|action|login|auth(?:entication)?|admin|sudo|"
    r"transaction|system|event|session) ?(?:logs?|logging|history|trails?|records?)\b",
    r"(?:审计|访问|操作|命令|登录|安全|管理|变更|交易|执行|活动|系统|事件)(?:日志|记录|历史)",
)
GENERIC_LOG = _alt(r"\blogs?\b", r"\blogging\b", r"log files?", r"\bhistory\b", r"\btraces?\b", r"\btelemetry\b",
                   r"日志", r"记录", r"痕迹", r"历史记录")
CONCEAL = _alt(
    r"so (?:that )?(?:no ?one|nobody|the user|they|the admins?|the owner|it) (?:can|will|won'?t|doesn'?t|does not|cannot|can'?t|never)?"
    r" ?(?:notices?|knows?|finds? out|sees?|traces?|tell|detects?|be traced|be detected|be noticed)",
    r"without (?:a )?trace", r"leave no (?:trace|record|evidence)", r"cover (?:your|our|the|my) tracks", r"\bunnoticed\b",
    r"\bundetected\b", r"\bsilently\b", r"\bsecretly\b", r"\bquietly\b", r"\bcovertly\b", r"without (?:the user|anyone|them) (?:knowing|noticing)",
    r"不留痕迹", r"神不知鬼不觉", r"不被发现", r"别被发现", r"以免被发现", r"避免被发现", r"悄悄", r"偷偷", r"秘密地?", r"暗中",
    r"别让(?:人|用户|管理员|他们|主人)知道", r"不让(?:人|用户|管理员|他们|主人)(?:知道|发现)",
)
ROUTINE_LOG_CONTEXT = _alt(
    r"\bdebug", r"verbose", r"\bnoisy?\b", r"\bnoise\b", r"excessive", r"duplicate", r"\btrace[- ]level", r"info[- ]level",
    r"\bconsole\b", r"\bprint", r"\btests?\b", r"\btesting\b", r"\bci\b", r"benchmark", r"\blocal(?:ly)?\b", r"\bdev\b",
    r"development", r"performance", r"\bspeed\b", r"faster", r"\bdisk space\b", r"\brotat", r"older than", r"\bold\b", r"\bcache",
    r"\btemp\b", r"\btmp\b", r"\bbrowser", r"library", r"\blibs?\b", r"\bspam\b",
    r"调试", r"测试", r"本地", r"开发环境", r"性能", r"提速", r"噪音", r"太多", r"刷屏", r"磁盘空间", r"过期", r"旧的?", r"缓存", r"浏览器",
    r"库", r"临时",
)
QUESTION = r"(?:\bhow (?:do|can|could|should|would|did|to)\b|\bwhat happens if\b|怎么|如何|怎样|为什么|是否|能否|可以吗|吗[?？]?$)"

SEND_EN = _alt(
    r"\bsend", r"\bforward", r"\bupload", r"\bpost(?:ing|s|ed)?\b", r"\bemail(?:ing|s)?\b", r"\be-mail", r"\bmail(?:ing)?\b",
    r"\btransmit", r"\bexfiltrat", r"\bsync(?:hroni[sz]e)?", r"\bcopy", r"\bpaste", r"\bdump", r"\bpush", r"\bsubmit",
    r"\bdeliver", r"\brelay", r"\bbcc\b", r"\bcc\b", r"\bbeam", r"\bpublish", r"\bexport", r"\bmirror", r"\bback ?up",
    r"\bstream", r"\bpipe", r"\bcurl\b", r"\bwget\b", r"\bshare", r"\bleak", r"\bappend", r"\bsave", r"\bwrite", r"\bstore",
    r"\blog\b", r"\bsms\b", r"\btext(?:ing)? (?:it|them)",
)
SAFE_STORE = _alt(r"\bvault\b", r"secrets? manager", r"keychain", r"1password", r"key ?vault", r"\bkms\b", r"\bsops\b", r"密钥管理", r"保险库",
                  r"\bhashicorp\b")
SECRET_EN = _alt(
    r"passwords?", r"passwd", r"passphrases?", r"credentials?", r"\bcreds\b", r"api[ _-]?keys?", r"\bsecrets?\b", r"\bsecret keys?",
    r"\btokens?\b", r"access tokens?", r"auth tokens?", r"\bbearer\b", r"private keys?", r"ssh keys?", r"id_rsa", r"\.ssh",
    r"\.env\b", r"env(?:ironment)? var(?:iable)?s", r"\bkeys\b", r"session (?:ids?|tokens?|cookies?)",
    r"(?:auth|login|browser|sid|sso) cookies?", r"cookie (?:jar|file|values?|strings?|header)", r"cookies? (?:for|from) (?:the |my |your )?(?:session|login|account|browser)",
    r"system prompt", r"seed phrase", r"mnemonic", r"recovery (?:phrase|codes?)", r"2fa codes?", r"\botp\b",
    r"verification codes?", r"one-time (?:codes?|passwords?)", r"/etc/(?:passwd|shadow)", r"aws_secret",
    r"secret_access_key", r"credit card(?: numbers?| details)?", r"card numbers?", r"\bcvv\b", r"bank (?:details|account)",
    r"\bssn\b", r"social security", r"wallet", r"\bpin\b codes?",
)
SECRET_ZH = _alt(
    r"密钥", r"秘钥", r"私钥", r"密码", r"口令", r"令牌", r"\btoken", r"凭证", r"凭据", r"证书", r"api ?key", r"access ?key",
    r"secret", r"(?:会话|登录|用户的?) ?cookie", r"cookie ?(?:值|信息|数据)", r"会话", r"助记词", r"环境变量", r"\.env", r"配置文件", r"系统提示词?", r"验证码", r"身份证号?",
    r"银行卡号?", r"信用卡号?", r"账号密码", r"登录信息", r"ssh", r"id_rsa",
)
DATA_OBJECT = _alt(
    r"\b(?:all|every|entire|whole|full|your|user'?s?|users'|customers?'?s?|stored|saved|private|personal|complete) ?(?:of )?(?:the |your |my |our |their )?"
    r"(?:memor(?:y|ies)|conversations?(?: history| logs?| transcripts?)?|chats?(?: history| logs?| transcripts?)?|messages|dialogue|"
    r"emails|inbox|contacts|address book|documents|files|notes|database|data|user data|customer data|personal (?:data|information|info|details)|"
    r"\bpii\b|records|history|context window|context|knowledge base|memory store)",
    r"(?:所有|全部|完整|整个|用户的?|客户的?|你的|我的|存储的|保存的|用户)的?(?:记忆|聊天记录|对话记录|对话|历史记录|会话记录|用户数据|个人信息|隐私|数据库|通讯录|邮件|文件|资料|数据)",
    r"(?:记忆|聊天记录|对话记录|通讯录|个人信息|用户数据|隐私数据|手机号码?|电话号码|联系方式|家庭住址|身份证号?|客户名单|员工信息|交易记录|财务数据)",
    r"\bchat (?:logs?|history|transcripts?)", r"conversation (?:history|logs?|transcripts?)", r"\btranscripts?\b", r"\bmemories\b",
    r"memory (?:store|database|db|dump|contents)", r"(?:customer|user|personal|employee|patient) (?:data|records|information|details|contacts)",
    r"\bcontacts\b", r"address book",
)
DEST = _alt(
    r"(?:\bto|\bcc|给|到|至|往) ?\[pii-[ep]\]", r"https?://", r"\bwww\.", r"(?<![\w.+-])[\w.+-]++@[\w-]+\.[a-z]{2,}", r"\b\d{1,3}(?:\.\d{1,3}){3}\b", r"webhook", r"pastebin",
    r"paste\.ee", r"ngrok", r"requestbin", r"hookbin", r"pipedream", r"transfer\.sh", r"discord", r"telegram",
    r"external (?:server|address|endpoint|url|site|email|inbox|host|domain|account|api)", r"remote (?:server|host|endpoint)",
    r"this (?:address|url|endpoint|email|server|link|inbox|number|account|channel)", r"(?:my|our) (?:personal |private )?(?:server|endpoint|email|inbox|gmail|dropbox|drive|bucket|site|website|channel)",
    r"attacker", r"third[- ]party", r"\boutside\b", r"\b[a-z0-9-]+\.(?:com|net|org|io|ru|cn|xyz|top|tk|cc|me|info|site|online)(?!\.?\w)",
    r"\+\d[\d -]{6,}\d", r"via (?:sms|text|whatsapp|signal|wechat|telegram)", r"@[a-z0-9_]{3,}bot\b", r"\bftp://",
    r"邮箱", r"邮件", r"外部", r"外网", r"服务器", r"网址", r"链接", r"微信", r"\bqq\b", r"群里?", r"网盘", r"第三方",
    r"这个号", r"我的号", r"公众号", r"钉钉", r"飞书", r"接口", r"端点",
)
# The user's own phone or inbox is not an outside destination ("send the code to my phone [REDACTED:phone]").
SELF_DEST = _alt(r"\b(?:my|my own|the user'?s(?: own)?) (?:phone|mobile|cell|number|email|inbox|e-mail)", r"(?:我|我自己|本人|用户本人)的?(?:手机|邮箱|号码|电话)")
SEND_TO_ZH = _alt(
    r"发(?:送)?(?:一份)?(?:到|给|至|往|去)", r"转发(?:到|给|至)?", r"上传(?:到|至)?", r"传(?:到|给|至|去)", r"同步(?:到|给|至)",
    r"抄送(?:给|到)?", r"密送", r"提交(?:到|给)", r"(?:粘)?贴到", r"(?:复制|拷贝|备份|导出|推送|推|回传|外发|写入)(?:到|至|给)",
    r"(?:分享|共享|泄露|透露|汇报|报告|告诉)(?:给|到)", r"post到", r"curl", r"外发", r"回传",
)
SEND_NEG = _alt(
    NEGATION_EN + r" (?:ever |accidentally |\w+ )?" + SEND_EN,
    NEGATION_ZH + r"[^,;!?.。，；！？\n]{0,20}?" + SEND_TO_ZH,
    SEND_EN + r".{0,40}?(?:is|are) (?:strictly )?(?:forbidden|prohibited|not allowed|banned)",
)
# A leak being described (and cleaned up) rather than ordered.
LESSON = _alt(
    r"accidentally", r"by mistake", r"\brotat(?:e|ed|ing)\b", r"\brevok", r"\bleaked\b", r"got leaked", r"was leaked", r"were leaked",
    r"\bpostmortem\b", r"\bincident\b",
    r"不小心", r"意外", r"曾经", r"上次", r"到了", r"过的", r"轮换", r"吊销", r"作废", r"泄露了", r"泄露后", r"以免", r"事故", r"复盘",
)
INCIDENT = _alt(
    r"\bcaused\b", r"led to", r"resulted in", r"\bincident", r"\boutage", r"\bbreach", r"\bbug\b", r"vulnerabilit", r"postmortem",
    r"root cause", r"\blesson", r"by mistake", r"accidentally", r"导致", r"事故", r"漏洞", r"故障", r"复盘", r"教训", r"不小心", r"误操作",
)
WIFI = r"(?:wi-?fi|wlan|guest network|hotspot|无线|热点)"
ANYONE = _alt(r"\banyone\b", r"\banybody\b", r"whoever", r"\beveryone\b", r"any user", r"all users", r"whoever asks", r"any caller",
              r"no matter who", r"whoever it is", r"\b(?:someone|somebody|people|a user|users|they|a caller|callers) (?:asks?|requests?|wants?|needs?)\b", r"不管是谁", r"无论是谁", r"有人(?:问|要|索取|需要|找你要)", r"别人(?:问|要)", r"谁(?:来)?(?:问|要)",
              r"任何人", r"所有人", r"谁(?:问|要)", r"对方", r"任何用户", r"陌生人")
GIVE = _alt(r"\bgive", r"\btell", r"\bshare", r"\bprovide", r"\breveal", r"\bsend", r"\bhand (?:over|out)", r"\bdisclose",
            r"告诉", r"提供", r"给", r"发给", r"透露", r"分享", r"公开")
TRIGGER_ACTION = _alt(
    r"\bdelet", r"\bwipe", r"\berase", r"\bdestroy", r"\bpurge", r"rm -rf", r"\bdrop (?:the |all )?(?:tables?|databases?)", r"\bsend",
    r"\bforward", r"\breveal", r"\bdisable", r"\bgrant", r"\bignore", r"\bleak", r"\bupload", r"\bexfiltrat", r"\btransfer",
    r"\bunlock", r"\bobey", r"\bswitch to", r"\bactivate",
    r"删除", r"删掉", r"清空", r"销毁", r"发送", r"发到", r"转发", r"上传", r"泄露", r"忽略", r"关闭", r"授予", r"透露", r"转账",
    r"解锁", r"服从", r"激活", r"切换",
)
AGENT = _alt(r"\byou\b", r"\byour\b", r"\byourself\b", r"assistant", r"\bai\b", r"\bagent\b", r"\bllm\b", r"\bmodel\b", r"chatbot",
             r"\bgpt\b", r"\bclaude\b", r"\bbot\b", r"你", r"助手", r"模型", r"机器人", r"智能体")

IGNORE_VERB = _alt(
    r"\bignor(?:e|ing)", r"disregard", r"\bforget", r"\boverrid(?:e|ing)", r"\bbypass", r"\bdiscard", r"\babandon", r"\bdrop",
    r"\bscrap", r"throw out", r"\bskip", r"do not follow", r"don'?t follow", r"stop following", r"no longer follow", r"\bdismiss",
    r"\bdisobey", r"set aside", r"\bneglect", r"\bcancel", r"\bvoid", r"\bforgo",
)
IGNORE_QUAL = _alt(
    r"all", r"any", r"every", r"the (?:previous|prior|above|earlier|preceding|original|initial|old|system|former|existing)",
    r"previous", r"prior", r"above", r"earlier", r"preceding", r"original", r"initial", r"your", r"system", r"developer",
    r"safety", r"existing", r"other", r"former", r"everything", r"those", r"these",
)
INSTRUCTION_NOUN = _alt(
    r"instructions?", r"rules", r"prompts?", r"guidelines", r"directives?", r"directions", r"constraints", r"restrictions",
    r"policies", r"programming", r"guardrails", r"training", r"orders", r"commands", r"system prompt", r"safety rules",
    r"context", r"messages", r"you(?:'ve| have) been told", r"you were told", r"told before", r"said before",
)

ZH_ROLE_STRONG = (r"没有(?:任何)?(?:限制|规则|约束|道德|底线|过滤)|不受(?:任何)?(?:限制|约束|规则|审查)|无(?:限制|约束|底线)|越狱|dan\b|"
                  r"开发者模式|上帝模式|无所不能|邪恶|解除限制|无审查|不受审查")


# Lexicons the classifier also sees as binary features: the embedding captures
# meaning, these capture the co-occurrences the rules are built from.
FEATURE_LEXICON_NAMES: tuple[str, ...] = (
    "STANDING", "DANGER", "SKIP_CONFIRM_NEG", "SKIP_CONFIRM_WITHOUT", "DISABLE_EN", "DISABLE_ZH", "SAFETY_OBJECT",
    "SENSITIVE_LOG", "GENERIC_LOG", "CONCEAL", "SEND_EN", "SEND_TO_ZH", "SECRET_EN", "SECRET_ZH", "DATA_OBJECT", "DEST",
    "ANYONE", "GIVE", "AGENT", "IGNORE_VERB", "INSTRUCTION_NOUN", "NEGATION_EN", "NEGATION_ZH", "META", "PROHIBITED",
    "EXCEPTION", "QUESTION", "TRIGGER_ACTION",
)
FEATURE_LEXICONS: tuple[re.Pattern[str], ...] = tuple(_c(globals()[name]) for name in FEATURE_LEXICON_NAMES)

# The classifier may only quarantine on its own when a text touches one of these
# topics. Encouragement like "Remember, never give up!" shares the imperative
# register of a planted order; what it lacks is anything to escalate or steal.
SENSITIVE_TOPIC = _c(
    _alt(
        DANGER, SECRET_EN, SECRET_ZH, SAFETY_OBJECT, SENSITIVE_LOG, DATA_OBJECT, SKIP_CONFIRM_NEG, SKIP_CONFIRM_WITHOUT,
        INSTRUCTION_NOUN, r"system prompt", r"\bmode\b", r"\badmin", r"\broot\b", r"\bsudo\b", r"privilege", r"permission",
        r"\baccess\b", r"指令", r"规则", r"设定", r"提示词", r"系统", r"权限", r"管理员", r"模式", r"身份",
    )
)


def touches_sensitive_topic(normalized: str) -> bool:
    """Gate for classifier-only decisions (see ``SENSITIVE_TOPIC``)."""
    return bool(SENSITIVE_TOPIC.search(normalized))
