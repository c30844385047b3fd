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

from hindsight.safety.rules import _alt, _c
from hindsight.safety.vouched import claim_then_act

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
))


def transfers_trust(normalised: str) -> bool:
    """Does the text declare a party genuine and hand it what a check guards (EN/ZH, see the module)?"""
    return claim_then_act(normalised, CLAIM, ACTION, either_order=True)
