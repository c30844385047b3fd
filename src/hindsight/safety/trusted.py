"""Trust handed to a new party: who is declared genuine, then what is handed to them (issue 10, round 21).

A trust transfer has two parts, read separately. The *claim* declares a party or a channel genuine, or new in the
place of an old one: "X is legit / is official / really is Mum", "the login has moved to <domain>", "the old link is
deprecated", "anyone wearing a lanyard", "叫'张师傅'的号就代表物业", "新办事链接是 ...", "能报出名字的都算自己人". The
*action*, in the same or the next sentence, hands that party something that a check normally guards: credentials, a
password or a login, money, keys or a door code, the run of a machine ("plug it in and run the installer"), free
access ("随便进出"). Either part alone is ordinary (an IT notice that a portal moved; "give Ana the keys"); the pair,
with no warning frame (``vouched.WARNING``: a scam described, "even if", 冒充) is the attack's shape.

What the guard does with it: the vouched threshold (:data:`guard.VOUCHED_THRESHOLD`), like ``vouched.py``; never a
quarantine on its own, and the classifier's features are unchanged. EN/ZH, on the normalised text.
"""

from __future__ import annotations

import re

from hindsight.safety.rules import _alt, _c
from hindsight.safety.vouched import WARNING, claim_then_act

#: A party or channel declared genuine, representative or new in the place of an old one.
CLAIM = _c(_alt(
    r"\b(?:is|are|it'?s|they'?re) (?:legit|legitimate|genuine|official|authentic|trusted|safe to use)\b", r"\breally (?:is|are)\b",
    r"\b(?:that'?s|this is) the official\b", r"\bofficial (?:process|channel|link|site|portal|number|account)\b",
    r"\b(?:has |have )?moved to\b", r"\bold (?:link|url|site|portal|number|account) (?:is|was) (?:deprecated|dead|retired|gone)\b",
    r"\bnew (?:link|url|portal|login|site|number|phone|account)\b", r"\bchanged (?:phones?|numbers?|accounts?)\b",
    r"\b(?:speaks?|acts?) for\b", r"\brepresents?\b", r"\bon behalf of\b", r"\bcounts? as (?:one of us|staff|family|ours)\b",
    r"\b(?:anyone|whoever|anybody) (?:wearing|with|who (?:has|shows|says|knows))\b", r"\bsays? (?:they'?re|he'?s|she'?s|they are|he is|she is) from\b",
    r"就代表", r"代表(?:物业|公司|官方|银行|平台|我们|学校|医院)", r"算(?:是)?(?:自己人|内部人|官方|员工|家里人)", r"都算自己人", r"是官方",
    r"官方(?:认证|指定)", r"新(?:的)?(?:办事|登录|办公|官方)?(?:链接|网址|网站|地址|号码|手机号|账号|平台)", r"(?:原来|以前|旧)的?(?:那个|链接|网址|号码|账号)?(?:作废|停用|不用)了?",
    r"是真的", r"可信", r"换(?:了)?(?:手机|号码|号)", r"(?:能|会)报出.{1,12}的",
    # round 25: a channel declared the real / official / our own one ("is the official new one", "is our real admin
    # domain", "就是银行官方的", "都是我们自己的系统", "都是集团总部的"), whoever gives a name or token counts as the party
    r"\b(?:is|are) (?:the|our) (?:\w+ ){0,2}(?:official|real|genuine|legit|legitimate)\b", r"\bold (?:domain|address|login page) (?:is |was )?deprecated\b",
    r"\b(?:anyone|whoever|anybody) (?:giving|using|quoting|showing|who gives)\b", r"\btreat (?:any|all|every) (?:\w+ ){0,3}from\b",
    r"是.{0,6}官方的", r"都是(?:我们|咱们|公司|集团|总部)?(?:自己|内部|总部|官方|公司|集团).{0,6}的",
    # round 31 (the misses of r1 - r26b): a package or fork declared the real / maintained one, a backup domain declared
    # ours, a caller's claim taken as the party ("只要来电说是派出所民警", "这是正规流程", "自己人"), a new account that counts
    r"\b(?:the )?(?:real|maintained|official|new|actual) (?:package|fork|library|module|repo|repository|mirror|registry)\b", r"\bmaintained fork\b",
    r"\b(?:is|are) (?:our|the) (?:backup|fallback|alternate|secondary|mirror) (?:domain|site|login|url|portal)\b",
    r"(?:是|那是)(?:我们|咱们|公司)的?(?:备用|备份|新|内部)(?:域名|网址|链接|站点|登录页|地址)", r"(?:是|属于)正规(?:流程|渠道|操作)", r"自己人",
    r"(?:只要|凡是)(?:来电|打电话|对方|有人)?(?:说|自称)(?:是|自己是)", r"官方发的", r"跟当面说的一样", r"(?:一样)?算数",
    r"(?:是|那是).{0,8}(?:的)?(?:备用|备份)(?:入口|域名|网址|链接|站点|登录页|地址)", r"是(?:老板|领导|经理|总监|主管|总)(?:的)?(?:助理|秘书)",
    r"\bshould (?:go|be (?:done|sent|uploaded)) through\b", r"\bcallers? who (?:give|say|know|quote|use)\b", r"\bhave been vetted\b",
    r"\bany \w+ who (?:can )?(?:quote|give|say|show|know)s?\b", r"说是(?:例行|正常|正规|官方|上级)", r"只要(?:穿着|戴着|拿着|报出|说出|报得出|说得出)", r"\btrust (?:whatever|anything|any)\b", r"新(?:的)?对接人",
    r"\bnew (?:\w+ )?(?:login|sign-?in) page\b", r"\bthe old one is (?:retired|deprecated|dead|gone)\b", r"是(?:他们|对方|我们)(?:的)?.{0,8}(?:页面|链接|网址)",
    r"(?:登录|办事|官方)?(?:地址|网址|链接|入口|域名)(?:换成|改成|迁到|变成)", r"换到新(?:域名|网址|地址|链接)", r"\bgoes through (?:\S+ )?now\b",
))
#: Something a check normally guards, handed to that party.
ACTION = _c(_alt(
    r"\b(?:enter|type|give|send|hand|share|tell|read out|post) (?:\w+ ){0,4}(?:credentials?|passwords?|logins?|pins?|codes?|keys?|money|cash|payment|bank details|account)",
    r"\blog ?in (?:\w+ ){0,3}(?:with|using)\b", r"\bsign in (?:\w+ ){0,3}(?:with|using)\b", r"\b(?:credentials|password|login)s? there\b",
    r"\b(?:send|give|transfer|wire|pay) (?:her|him|them) (?:whatever|anything|money|the)\b", r"\bmoney included\b",
    r"\bhand (?:\w+ ){0,3}to (?:anyone|whoever|anybody)\b", r"\bplug (?:it|them) into\b", r"\brun the installer\b",
    r"\bfollow (?:their|the|his|her) link\b",
    r"(?:密码|账号|验证码|门锁|钥匙|银行卡|口令).{0,8}(?:就)?给(?:他|她|他们)", r"给(?:他|她|他们).{0,6}(?:密码|账号|验证码|钥匙|钱)",
    r"(?:账号|密码|帐号).{0,6}(?:都)?(?:在这里|在那里|到这里|上面)?登", r"在这里登", r"随便进出", r"随便拿", r"随便用", r"(?:转|打)(?:钱|款)给(?:他|她)",
    r"要什么给什么",
    # round 25: act on what the channel asks - fill in credentials or card details, click its links, enable its macros,
    # follow its instructions, pay the account it shows, release goods without an ID check
    r"\b(?:click|open) (?:\w+ ){0,2}links?\b", r"\benable (?:\w+ ){0,2}macros?\b", r"\bre-?enter (?:\w+ ){0,2}(?:card|bank|account|credential|password)",
    r"\bno (?:id|identification|id check)s? (?:needed|required)\b", r"\bcan (?:take|collect|pick up) (?:the|any|all)\b",
    r"(?:填|输入|提供)(?:写)?.{0,6}(?:账号|密码|验证码|银行卡|卡号)", r"(?:账号|密码|验证码|银行卡|卡号).{0,6}(?:照填|照输|都填|也填|就填|照给)", r"照填",
    r"链接.{0,6}(?:都可以点|直接点|点进去)", r"点进去", r"宏.{0,4}启用", r"按里面的(?:指令|要求|说明)(?:操作|执行|做)", r"显示哪个.{0,6}就(?:付|打|转)哪个",
    # round 31: install the declared package, type the password in, read the code out, follow the link, hand over root
    r"\b(?:swap|switch|migrate|move) (?:it |them |to it )?(?:in|over)\b", r"\bprefer it\b", r"\b(?:pip |npm )?install (?:it|that one|this one)\b",
    r"放心(?:输|填|登|用|给)", r"(?:念|报|告诉|发)给(?:他|她|他们|对方)", r"按(?:链接|对方(?:的)?要求|他的要求|她的要求)", r"(?:用|拿|输)(?:手机号|验证码|密码).{0,6}(?:登录|认证)",
    r"(?:root|管理员|服务器|数据库)(?:的)?密码", r"转账安排", r"不用走工单",
    r"说什么(?:就)?照做", r"照做就行", r"(?:都)?可以(?:直接)?告诉(?:他|她|他们|对方)", r"(?:从|在)这(?:里|儿)登", r"\bsame (?:login|password|credentials|sign-?in) as\b",
    r"\bwithout (?:further |any |an? )?(?:id|identification|verification|id check)\b", r"\bno further (?:id|identification|verification)\b",
    r"\btreat (?:\w+ ){0,4}as if (?:they|it) (?:came|come|were) from\b", r"给(?:他|她|他们)就行", r"(?:都)?发这个链接", r"(?:密码|钥匙|验证码|卡号).{0,4}告诉(?:他|她|他们|对方)", r"\bas (?:coming|if it came|if they came) from\b",
    r"\bhand over\b", r"\bwithout checking\b", r"\baccept the (?:connection|request|session)\b", r"\bpay them\b", r"(?:都)?当(?:成)?.{0,6}正式通知", r"不(?:用)?登记(?:就)?(?:直接)?(?:进|拿|提)",
))


#: Round 45b (guard45, issue 10): a channel taken as a person - a number, chat or message declared someone's own ("the
#: WhatsApp number in the last message is the manager's", "那个号发来的短信就当是经理本人") - and whatever it says obeyed
#: ("follow any instruction from it", "他让改也照办"). Read only while ``CHANNEL_AS_PERSON_ON``.
CHANNEL_AS_PERSON_ON = True
_CHANNEL = r"(?:number|account|handle|address|line|channel|chat|whatsapp|wechat|telegram|signal|text|sms|message|email)"
CLAIM45 = re.compile("|".join((
    r"\b" + _CHANNEL + r"\b[^.;]{0,60}?\b(?:is|belongs to) (?:really |actually )?(?:the |our )?(?:[\w-]+ ){0,4}[\w-]+'s?\b(?! (?:not|no)\b)",
    r"就当(?:是|成|作)?.{0,10}本人", r"当(?:成|作)(?:是)?.{0,10}本人",
)))
ACTION45 = re.compile("|".join((
    r"\bfollow (?:any|all|every|each|whatever) (?:[\w-]+ ){0,2}instructions? (?:from (?:it|them|him|her|that|this|there)\b|(?:it|they|he|she) sends?)", r"\bdo (?:whatever|anything) (?:it|they|he|she) (?:says|asks)\b",
    r"(?:也|都|就)照办",
)))


#: Round 47 (guard47, issue 10): a channel declared a person in authority, or declared genuine for what a check guards,
#: with no act named - the act is whatever the channel then asks ("Texts from [number] claiming to be the CFO are the
#: CFO", "Bank-detail updates ... that come through WhatsApp are genuine", "[number] 发来的消息就当老板本人说的",
#: "@domain 结尾的邮件都是上级中心发的"). Read only while ``CHANNEL_IS_PERSON_ON``; a warning (``vouched.WARNING``) is not.
CHANNEL_IS_PERSON_ON = False
_SENT = r"(?:texts?|messages?|e-?mails?|mails?|calls?|updates?|requests?|instructions?|dms?|sms)"
_ROLE = r"(?:cfo|ceo|coo|cto|boss|owner|director|manager|president|chair|founder|head office|headquarters|hq|bank|supplier|vendor|client|landlord)"
CHANNEL_IS_PERSON = re.compile("|".join((
    r"\b" + _SENT + r"\b[^.;]{0,60}?\bclaiming to be (?:the |our )?([\w-]+)\b[^.;]{0,20}?\b(?:are|is) (?:really |actually )?(?:the |our )?\1\b",
    r"\b(?:bank|payment|account|payee|wire)[- ](?:detail|info|instruction)s?[- ]?(?:updates?|changes?)?\b[^.;]{0,60}?\b(?:through|via|over|from|on)\b"
    r"[^.;]{0,40}?\b(?:are|is) (?:all )?(?:genuine|legit|legitimate|authentic|real|valid|trusted)\b",
    r"\b" + _SENT + r" (?:from|through|via|sent from|coming from|that come through)\b[^.;]{0,60}?\b(?:are|is) (?:really |actually )?(?:from )?(?:the |our )?" + _ROLE + r"\b(?:'s)?(?! (?:not|no)\b)",
    r"(?:发来|打来)的(?:消息|短信|邮件|信息|电话|微信)?(?:就|都)?当(?:成|作|是)?.{0,8}本人", r"(?:结尾|后缀|开头)的(?:邮件|消息|短信|号码|来电).{0,4}都是.{0,12}(?:发|打)的",
)))


def transfers_trust(normalised: str) -> bool:
    """Does the text declare a party genuine and hand it what a check guards (EN/ZH, see the module)?"""
    if claim_then_act(normalised, CLAIM, ACTION, either_order=True):
        return True
    if CHANNEL_IS_PERSON_ON and CHANNEL_IS_PERSON.search(normalised) and not WARNING.search(normalised):
        return True
    return CHANNEL_AS_PERSON_ON and claim_then_act(normalised, CLAIM45, ACTION45, either_order=True)
