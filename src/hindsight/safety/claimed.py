"""Who claims authority for what: an approval claimed on a third party's word that loosens a safeguard or hands
something over (issue 10, round 36).

False authorisation and trust transfer are one framing, read here by its three parts rather than by their words:

- **the claim** - the licence is attributed to someone other than the writer: a party said, approved, authorised,
  confirmed, cleared, signed off or gave permission ("the regulator's liaison saying we're cleared to", "per Mr. Zhou at
  the firm", "Our Taobao account manager gave written permission", "民航局的人口头说了", "根据总部的授权",
  "厂家工程师说得到原厂授权"), or a party / channel is declared the genuine one ("is the official one now",
  "就是工行官方的", "是技术总监的小号");
- **the licence** - the text then *permits* rather than *requires*: can / may / is fine to / go ahead / as long as /
  no need / 可以 / 就行 / 放心 / 直接 / 照给 - an act is let through, not put behind a check;
- **what is let through** - a safeguard loosened (without a form, a vote, a check or consent; skipped, disabled,
  backdated, past a limit, faked: 不经, 免做, 关掉, 倒签, 超时, 刷好评) or something a check guards handed over
  (a password, a token, money, access, a door or gate code, records).

A rule that *tightens* has the same nouns in the other polarity: the approval is required, not claimed ("GitLab权限要
部门主管审批", "needs the CTO's sign-off", "only after Legal approves"), and the licence part is missing. A warning
(``vouched.WARNING``: a scam described, "even if", 冒充) is no order either.

What the guard does with it: :data:`guard.VOUCHED_THRESHOLD` (a lower classifier threshold, never a quarantine on its
own), as ``vouched.py`` and ``trusted.py``; the classifier's features are unchanged. EN and ZH, on the normalised text.
"""

from __future__ import annotations

import re

from hindsight.safety.rules import _alt, _c

#: The claim: a licence attributed to a party other than the writer (reported approval, reported speech, a channel
#: declared genuine). "I / we approved" is the writer's own decision and is not read.
_AUTHORITY = (
    r"(?<!\bi\x20)(?<!\bwe\x20)\b(?:approved|authori[sz]ed|authori[sz]es|signed off|okay?(?:ed|'d)|waived|sanctioned|greenlit|vouched)\b",
    r"\bgave (?:\w+ ){0,3}(?:permission|approval|the go-?ahead|the green light|consent|the ok(?:ay)?|clearance|a waiver)\b",
    r"\b(?:said|says|saying|told (?:us|me|them)|confirmed|assured (?:us|me)|claims?)\b(?: \w+){0,4} (?:it'?s|it is|we'?re|we are|you'?re|we|you|they) "
    r"(?:(?:are |were )?cleared|fine|ok(?:ay)?|can|may|allowed|free|good)\b",
    # "we're cleared to": someone cleared us; "you're allowed to" is the writer's own grant (round 36, post hoc: r32)
    r"\b(?:we'?re|we are|they'?re) (?:now )?(?:cleared|authori[sz]ed|allowed|permitted|exempt(?:ed)?) to\b",
    r"\b(?:per|according to|on the (?:word|authority|say-?so) of|with the blessing of|on behalf of) (?:the |our |their |mr\.? |ms\.? |dr\.? )?[a-z]",
    r"\b(?:written|verbal|oral|informal|private) (?:permission|approval|ok(?:ay)?|consent|sign-?off)\b",
    r"\b(?:by|in a|via) (?:voice note|voice message|text|whatsapp|wechat|phone call)\b",
    r"\b(?:is|are) (?:the|our|their) (?:\w+ ){0,2}(?:official|real|genuine|own)\b(?! (?:policy|rule|procedure))",
    r"(?:根据|按照|依据|经过?|得到|获得|拿到|有)(?:了)?[^，。；,]{0,12}?(?:的)?(?:授权|批准|同意|许可|批示|指示|默许|首肯)",
    r"(?<![我要需须经先])(?:口头|书面|私下|语音|电话里|微信上)?(?:说了|说过|说|表示|同意|批了|批准了|授权了?|点头了?|认可了?|答应了?|放话|交代过|打过招呼|签字了)"
    r"(?:了)?[，,：:]?[^。；]{0,6}?(?:可以|不用|没问题|没事|行|就行|直接|先|免|不需要|无需|放心)",
    r"(?:说了|说过|同意了?|批了|批准了|授权了|点头了|认可了|答应了)[，,：:]", r"(?:口头|书面|私下|语音|电话里|微信上)(?:说|同意|批|授权|答应|认可)",
    r"(?:预先|提前|已经?)(?:批准|审批|授权|认证)(?:过)?的", r"\b(?:pre-?)?approved by\b",
    r"已经(?:同意|批了|批准|授权|签字|点头|认可)", r"(?:就|都)是[^，。；]{0,8}官方的?", r"是[^，。；]{1,10}的小号",
)
#: A party known only by its own word or its channel (trust transfer): whoever says / calls / wears, mail from a
#: domain, a number or a link declared the party's.
_TRUSTED_PARTY = (
    r"\b(?:whoever|anyone|anybody|someone|any(?:one)? \w+) (?:who )?(?:calls?|texts?|emails?|messages?|says?|claims?|claiming|saying|wearing|in (?:a|the))\b",
    r"\bif (?:a|an|any|someone|anyone) (?:[\w'-]+ ){0,4}(?:calls?|texts?|e-?mails?|messages?|dms?|says?|claims?)\b",
    r"\b(?:in|wearing) (?:the |a |an )?(?:[\w-]+ ){0,2}(?:vest|uniform|jacket|lanyard|overalls)\b", r"穿(?:着)?[^，。；]{0,8}(?:的人|背心|制服|工服)",
    r"\b(?:saying|claiming|says|claims) (?:they'?re|he'?s|she'?s|to be|they are|he is|she is)\b",
    r"\b(?:e-?mails?|calls?|texts?|links?|messages?|dms?) from\b", r"\bthe (?:\w+'?s? ){0,2}own\b",
    r"\bis (?:the|our|their) (?:\w+'?s? ){0,3}(?:hotline|line|number|account|page|site|domain|portal)\b", r"\b(?:that'?s|this is) the official\b",
    r"\btrust (?:\w+ ){0,3}(?:user|account|number|link|e-?mail|contact|caller|drives?|usb)",
    r"自称", r"说(?:是|自己是)", r"凡是", r"谁(?:发|打|说)", r"(?:就|都)是[^，。；]{0,12}(?:官方|后台|内部|自己人)", r"算[^，。；]{0,10}内部",
    r"是[^，。；]{1,12}的?新(?:服务)?(?:热线|号码|电话|链接|网址|地址)", r"(?:地址|网址|链接|登录页)(?:换成|改成)", r"(?:打来|发来)的",
)
CLAIM = _c(_alt(*_AUTHORITY, *_TRUSTED_PARTY))
TRUSTED_PARTY = _c(_alt(*_TRUSTED_PARTY))
#: The licence: the act is let through (permission), not put behind a check (obligation).
LICENCE = _c(_alt(
    r"\bcan\b", r"\bmay\b", r"\b(?:is|it'?s|are) (?:fine|ok(?:ay)?|allowed)\b", r"\bcleared to\b", r"\bgo ahead\b", r"\bas long as\b",
    r"\bno need\b", r"\bfreely\b", r"\bstraight\b", r"\bjust\b", r"\bpermission to\b", r"\bwithout\b", r"\btreat\b", r"\bgets?\b",
    r"\bskip", r"\bbackdat", r"\bdisabl", r"\bbeyond\b",
    r"\b(?:authori[sz]ed|allowed|permitted|whitelisted|cleared) (?:\w+ ){0,4}to\b", r"\bplug (?:\w+ ){0,2}in", r"\bgo ahead\b",
    r"\bgive\b", r"\bgets?\b", r"\blet (?:him|her|them)\b", r"\benter\b", r"\bsign in\b", r"\bread (?:them|it) out\b", r"\binstall\b",
    r"给(?:他|她|他们)", r"告诉(?:他|她|他们)", r"念给", r"就输", r"都(?:在|用)这个", r"让(?:他|她|他们)进", r"接走", r"照装", r"执行", r"视同", r"当成", r"都直接",
    r"可以", r"就行", r"就好", r"放心", r"直接", r"照给", r"照做", r"照办", r"不用", r"无需", r"不需要", r"免(?:做|检|签|审)?", r"不经", r"先(?:排|做|发|转|出|上)",
))
#: What is let through: a safeguard loosened, or something a check guards handed over.
AT_STAKE = _c(_alt(
    r"\bwithout (?:a |an |any |the |their |our )?(?:\w+ ){0,2}(?:forms?|consent|vote|check|review|approval|sign-?off|ticket|verif\w*|inspection|testing|badge|id)\b",
    r"\bno need to (?:file|report|check|verify|log|record|sign|ask|get)\b", r"\bskip(?:ping|ped)?\b", r"\bbackdat", r"\bdisabl", r"\bturn(?:ing)? off\b",
    r"\bbeyond (?:\w+ ){0,2}(?:limits?|caps?|hours)\b", r"\bover (?:the )?(?:limit|cap)\b", r"\bfake\b", r"\bhidden\b", r"\bexempt",
    r"\b(?:move|transfer|wire|pay|send)\b[^.;]{0,40}(?:\$|usd|eur|money|funds|k\b|\d{3,})", r"\b(?:password|token|credential|pin|gate code|door code|access|bank card|bank details|key)s?\b",
    r"\b(?:already )?verified\b", r"\binternal\b", r"\bcoming from\b", r"\binstructions\b", r"\badmin\b", r"\bremote\b", r"\bcodes?\b", r"\bpick (?:\w+ ){0,3}up\b",
    r"\bsign in\b", r"\blog ?in\b", r"\binstall",
    r"\bany (?:\w+ ){0,2}who\b", r"\bpublic(?:ly)?\b", r"\bdatabase\b", r"\bfull (?:\w+ )?(?:files?|records?|lists?|database)\b", r"\bid cards?\b",
    r"\bsingle-use\b", r"\bwhatever\b", r"\bwithout (?:the |a |an |any )?(?:\w+ ){1,2}(?:present|there|watching|on site|in the room)\b", r"不在场", r"\bon (?:their|his|her|the \w+'?s?) behalf\b", r"\bsign (?:\w+ ){0,3}for\b", r"替(?:他|她|他们|客户|对方)[^。；]{0,4}签", r"代签",
    r"不用再?(?:问|报|查|核|审)", r"公开", r"(?:分享|发|传)给[^。；]{0,4}(?:竞争|外部|对方|记者|第三方)", r"一次性[^。；]{0,12}重复使用",
    r"(?:全部|所有|整个)[^。；]{0,6}(?:卷宗|档案|资料|数据|病历|名单)", r"任何(?:人|记者|客户)", r"身份证",
    r"核实", r"内部", r"正式要求", r"接走", r"进[^。；]{0,4}库", r"固件", r"安装", r"登录", r"输密码", r"U盾",
    r"\bmedical histor", r"\brecords\b", r"\bpersonal data\b",
    r"不(?:经|签|走|报|做|用报|用签|用走|用审)", r"免(?:做|检|签|审)", r"关掉", r"关闭", r"倒签", r"超时", r"超(?:限|额|载|速)", r"刷(?:好评|单|量)", r"不公示", r"不用(?:报备|备案|查|核实)",
    r"转(?:账|款)?[^。；]{0,12}(?:万|元|美元|块)", r"密码", r"密钥", r"口令", r"门禁码", r"验证码", r"银行卡", r"病史", r"知情同意", r"权限", r"远程",
))
#: A claim described as a trick or answered by a check, or an order to verify it: a warning, not an order to act on it
#: (``vouched.WARNING``'s readings less "fake", which names what an attack permits as often as what a warning describes).
WARNING = _c(_alt(
    r"\bscam", r"\bfraud(?!\x20(?:team|department|desk|unit|prevention|line))", r"phishing", r"red flag", r"\bbec\b", r"impersonat", r"\bpretend",
    r"social engineering", r"\beven if\b", r"\bnever trust\b", r"(?:don'?t|do not) (?:trust|believe|act on)", r"\bsuspicious\b", r"call (?:them |it )?back",
    r"(?<!un)known number", r"number on file", r"verify (?:it|this|that|them|the)", r"\bconfirm (?:it|this|that) (?:with|by)\b", r"\bhang up\b",
    r"\breport (?:it|them|this|the)\b", r"\bcorrect (?:answer|response|way)\b",
    r"诈骗", r"骗子", r"骗局", r"冒充", r"钓鱼", r"假的", r"提防", r"警惕", r"小心", r"不要(?:相信|信)", r"别信", r"即使", r"就算", r"哪怕", r"挂(?:断|掉)", r"正确做法",
    r"(?:先|要|必须|务必|一定要)(?:打电话|回电|电话)?(?:核实|核对|确认)", r"回拨", r"原号码", r"(?:报告|上报|举报)",
))
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+")

#: Round 38 (issue 10, "notes that carry a secret must be stored redacted, not quarantined"): a secret's own words - a
#: password, a code, a key, a token, a login, and the placeholder a redacted one leaves (``[pii-pw]``, ``[pii-key]``) -
#: are what a note that *carries* a secret says anyway ("the door code is [REDACTED:otp]", "用测试账号登录，密码是 ...").
#: Named alone they are not at stake: the secret is at stake when the note hands it over or sends it to someone
#: (``HANDED``), or when something else of ``AT_STAKE`` is loosened. ``False``: every word of ``AT_STAKE`` counts alone,
#: as in round 36. Switched OFF by the lead after blind round 37 (docs/benchmarks.md "Round 37"): on that unseen set it
#: stored one trust-transfer attack the round-36 reading held (a look-alike login page declared the real portal, "if
#: you get logged out, use it": the login itself hands the password to the page, and no word of ``HANDED`` says so)
#: and moved no benign text; its held-out gain had been one note of 9,145. Round 40 (claimed40): back ON with
#: ``DESTINATION_AT_STAKE`` - a secret's own words stay at stake beside a declared place to type it into; over every
#: released guard text and PII note (r1 - r37) no attack lost, r37b's row held, one benign note stored.
CARRIED_NOT_AT_STAKE = True
#: A secret's own words (and a redacted password's or key's placeholder): read as at stake only beside ``HANDED``.
SECRET_WORDS = _c(_alt(
    r"\b(?:password|passcode|passphrase|passwd|token|credential|pin|gate code|door code|key|code)s?\b", r"\bsign in\b", r"\blog ?in\b",
    r"\[pii-(?:pw|key)\]", r"输密码", r"密码", r"密钥", r"秘钥", r"口令", r"门禁码", r"验证码", r"登录",
))
#: A way out blocked - read as at stake with ``CARRIED_NOT_AT_STAKE``, since a key a note names ("as long as staff have
#: a key") no longer puts a locked exit at stake on its own.
EXIT_BLOCKED = _c(_alt(
    r"\b(?:exits?|stairwells?|fire doors?|escape routes?) (?:\w+ ){0,3}(?:locked|blocked|chained)\b",
    r"\b(?:lock|block|chain)(?:ed)? (?:\w+ ){0,3}(?:exits?|stairwells?|fire doors?)\b",
    r"(?:安全出口|消防通道|疏散通道|消防门|逃生)[^。；]{0,8}(?:锁|堵|封)",
))
#: The secret handed over or sent to someone: give / tell / send / share / read out / forward / hand over / paste / post
#: / reveal / provide, got by or asked for by a party, or made over to whoever asks; 给 / 告诉 / 发给 / 转给 / 念给 /
#: 提供 / 透露 / 分享 / 贴到 / 索要.
HANDED = _c(_alt(
    r"\b(?:give|gives|giving|gave|tell|tells|telling|told|send|sends|sending|sent|share|shares|sharing)\b(?! (?:us|me)\b)(?! (?:\w+ )?permission)",
    r"\bgiven\b(?! (?:that|the fact|how)\b)(?! (?:us|me)\b)(?! (?:\w+ )?permission)", r"\bshared with\b(?! (?:us|me)\b)", r"\b(?:forward|forwards|forwarded|reveal|reveals|revealed|disclose|discloses|disclosed)\b",
    r"\b(?:provide|provides|provided|paste|pastes|pasted|post|posts|posted) (?:it|them|the|this|that|a|an|our|their|its)\b",
    r"\bread (?:\w+ )?out\b", r"\b(?:hand|hands|handed|pass|passes|passed) (?:\w+ )?(?:over|on|along|to)\b",
    r"\b(?:e-?mail|text|dm|message|whatsapp|wechat|slack)(?:s|ed|ing)? (?:it|them|the|their|this|that)\b",
    r"\b(?:get|gets|got|receive|receives|received|obtain|obtains) (?:\w+ ){0,3}(?:password|passcode|code|key|token|credential|pin|login|wi-?fi)s?\b",
    r"\bask(?:s|ed)? (?:\w+ )?for\b", r"\bto (?:whoever|anyone|anybody|any \w+|them|him|her|the caller)\b",
    r"给(?:他|她|他们|她们|对方|任何|外|供应商|客户|快递|访客|来人|别人|其他人|第三方)", r"(?:发|转|念|报|交|递|贴|抄送|外发|发送|转发|提供)(?:给|到)",
    r"(?:可以|就|直接|都|照)给", r"告诉(?!(?:我|咱))", r"透露", r"分享", r"索要", r"索取", r"拿到",
    r"(?:问|要)(?:[^，。；,]{0,4})(?:门禁码|密码|验证码|口令|密钥|账号|\[pii-)", r"(?:有人|谁|对方)(?:来)?(?:问|要)",
))


#: Round 40 (issue 10, after blind round 37): a place a secret is typed into - using a sign-in page hands it the
#: password, which no word of ``HANDED`` says. With ``CARRIED_NOT_AT_STAKE`` a secret's own words stay at stake where
#: the scope names such a place (``declares_destination``). ``False``: secret38's candidate A as measured on round 37.
DESTINATION_AT_STAKE = True
#: A web address: a URL, www., or a host name with a public suffix.
WEB_ADDRESS = _c(_alt(
    r"\b[a-z][a-z0-9+.-]{1,20}://\S", r"\bwww\.[a-z0-9-]",
    r"\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|cn|co|app|site|online|info|biz|me|top|xyz|vip|cc|uk|hk|tw|us|de|eu|live|cloud|"
    r"link|page|support|help|services?|pro|tech|store|shop|ai|dev|work|club|ltd|group|one|global|space|website|portal|login)\b",
))
#: A place to sign in, pay, verify or download, named as such (the page or its address).
SIGN_IN_PLACE = _c(_alt(
    r"\b(?:log-?in|log-?on|sign-?in|sign-?on|sso|payment|pay|billing|checkout|verification|verify|download|update|account|"
    r"password(?:-reset)?|reset) (?:page|portal|link|site|url|address|screen|form|website|domain|entry|app|mirror)s?\b",
    r"\bportal\b", r"\bwebsite\b", r"\bweb ?address\b",
    r"(?:登录|登陆|支付|付款|缴费|验证|认证|核验|下载|更新|重置密码)(?:页面?|入口|链接|地址|网址|网站|网页|平台|二维码)", r"官网",
))
#: A place declared the real, official, genuine, new or only one.
DECLARED_PLACE = _c(_alt(
    r"\b(?:official|real|genuine|legit(?:imate)?|authentic|correct|right|actual|updated|new|only|proper|true) (?:[\w.-]+ ){0,2}"
    r"(?:portal|site|website|link|page|url|(?:web|log-?in|sign-?in) address|domain|app|login|sign-?in|mirror)s?\b",
    r"\bthe (?:\w+ )?one to (?:use|log in|sign in)\b",
    r"(?:官方|正版|正规|真正|唯一|新)的?[^,，。；;]{0,6}(?:网址|链接|网站|域名|网页|页面|入口|登录页|平台|小程序|app)",
    r"(?:网址|链接|入口|域名|登录地址|登录页|网站)(?:换成|改成|改为|迁到|变成|换了)",
))
#: A place moved to or named the one to use - declared only beside a web address or a sign-in place.
DECLARED_USE = _c(_alt(
    r"\b(?:moved|changed|switched|migrated|redirected) to\b", r"\bonly (?:use|log in|sign in|pay)\b", r"\b(?:official|real|genuine|legit)\b",
    r"官方", r"认准", r"唯一", r"(?:以后|今后|从今天起|从现在起)(?:都|就|只)?(?:在|用|走|去|从)",
))
#: What is done there with the secret: log in / sign in, pay, verify, download / install, enter or type it.
DESTINATION_ACT = _c(_alt(
    r"\b(?:log(?:s|ged|ging)? ?(?:in|on|out)|sign(?:s|ed|ing)? ?(?:in|on)|pay|pays|paid|paying|payment|verify|verified|verification|confirm your|"
    r"download|install|enter|type|re-?enter|authenticat\w*|update your|use (?:it|this|that|them|the (?:link|page|site|portal)))\b",
    r"登录|登陆|支付|付款|缴费|转账|验证|认证|核验|下载|安装|输入|填写|填入|走这个|用这个",
))


#: Attack round 40b (docs/benchmarks.md "Attack round 40b"): notes that ride ``CARRIED_NOT_AT_STAKE`` pair a secret
#: with a loosening or an exposure in words ``AT_STAKE`` lacks, or hand a place to a party known only by its uniform or
#: its word. With ``CARRIED_NOT_AT_STAKE`` a secret's own words stay at stake where the scope says so (``EXPOSED``) or
#: trusts such a party (``TRUSTED_PARTY``); never more than the round-36 reading. ``False``: claimed40's A40.
EXPOSED_AT_STAKE = True
#: A safeguard loosened, data sent out of the organisation, or the secret left where others read it.
EXPOSED = _c(_alt(
    r"\b(?:unset|unreviewed|unchecked|unattended|unlocked|unsupervised|unescorted)\b", r"\bprop(?:s|ped|ping)? (?:\w+ ){0,4}open\b",
    r"\b(?:stay|stays|left|leave|keep) (?:\w+ ){0,3}open\b", r"\blet (?:\w+ ){0,3}through\b", r"\b(?:bypass|override|dismiss)",
    r"\bpersonal (?:dropbox|g?mail|e-?mail|drive|account|phone|laptop|cloud)\b", r"\b(?:gmail|dropbox|icloud|google drive|wetransfer|pastebin)\b",
    r"(?<!\.)\b(?:sync|mirror|upload|cc|bcc)\b(?!\.)", r"\b(?:whiteboard|notice ?board|sticky note|channel|group chat|wiki|shared (?:drive|folder|sheet|doc))s?\b",
    r"私人(?:网盘|邮箱|账号|电脑|手机)", r"网盘", r"同步到", r"自由(?:访问|进出)", r"随便(?:进|看|拿)", r"谁都",
    r"(?:挂|贴|钉|放|写|发)在[^，。；]{0,8}(?:群|白板|公告|共享|墙上|门上)", r"群(?:里|公告|文件)", r"共享(?:盘|文档|文件夹)", r"白板",
))


def declares_destination(scope: str) -> bool:
    """The scope names a place to type a secret into: a sign-in / pay / download place declared the real, official,
    new or only one, or a web address or sign-in place beside such a declaration or an act of logging in, paying,
    verifying or downloading there."""
    if DECLARED_PLACE.search(scope):
        return True
    return bool((WEB_ADDRESS.search(scope) or SIGN_IN_PLACE.search(scope)) and (DECLARED_USE.search(scope) or DESTINATION_ACT.search(scope)))


def _at_stake(scope: str) -> bool:
    """What is let through (``AT_STAKE``); with ``CARRIED_NOT_AT_STAKE`` a secret's own words count only where the
    scope hands the secret over or sends it (``HANDED``), names a place to type it into (``declares_destination``),
    or loosens, exposes or trusts (``EXPOSED``, ``TRUSTED_PARTY``)."""
    if not CARRIED_NOT_AT_STAKE:
        return bool(AT_STAKE.search(scope))
    if EXIT_BLOCKED.search(scope):
        return True
    if DESTINATION_AT_STAKE and declares_destination(scope):
        return bool(AT_STAKE.search(scope))
    if EXPOSED_AT_STAKE and (EXPOSED.search(scope) or TRUSTED_PARTY.search(scope)):
        return bool(AT_STAKE.search(scope))
    return bool(AT_STAKE.search(scope if HANDED.search(scope) else SECRET_WORDS.sub(" ", scope)))


def claimed_loosening(normalised: str) -> bool:
    """An approval claimed on a third party's word (``CLAIM``) and, in the same or the next sentence, an act let
    through (``LICENCE``) that loosens a safeguard or hands something guarded over (``AT_STAKE``, read by
    ``_at_stake``); no warning frame."""
    if not CLAIM.search(normalised) or WARNING.search(normalised):
        return False
    sentences = [s for s in _SENTENCE.split(normalised) if s.strip()]
    for i, s in enumerate(sentences):
        if not CLAIM.search(s):
            continue
        scope = " ".join(sentences[i:i + 2])
        if LICENCE.search(scope) and _at_stake(scope):
            return True
    return False
