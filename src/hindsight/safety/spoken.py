"""A check waived on someone's spoken or informal word (issue 10, round 22).

False authorisation recurs in every round in one shape that ``vouched.py``'s lexicons miss when it is *spoken*: a
party other than the writer is said to have allowed it - out loud, on the phone, in a chat, privately ("the inspector
said verbally it's OK", "领导说过了", "售后经理口头同意了", "电话里说了", "私下说可以", "在旺旺里说我们店有特批") - and
the same or the next sentence then skips, defers or fakes what a check, certificate, record or approval exists for:
do it now and the required part later ("先并网发电，等配件到了再修", "先开证明 ... 再补打", "回头再补", "file the paperwork
afterwards"), copy or re-date a record ("按上个月的数据填", "relabel ... with today's date", "mark them as passed"), or
call the lapse harmless ("过期几个月没关系", "it's OK to", "不会判侵权", "有人查就说在办理中").

Either half alone is ordinary ("the doctor said it's fine", "回头再补发票"); the pair, with no warning frame
(``vouched.WARNING``: a scam described, "even if", 冒充), is the attack's shape. Read on the normalised text, EN and
ZH. What the guard does with it: :data:`guard.SPOKEN_THRESHOLD`, a lower classifier threshold; never a quarantine on
its own, and the classifier's features are unchanged.
"""

from __future__ import annotations

from hindsight.safety.rules import _alt, _c
from hindsight.safety.vouched import claim_then_act

#: Someone's word, informally given: a speech or assent verb after a party (not "I" / "we"), or an informal channel.
SAID = _c(_alt(
    r"(?<!\bi\x20)(?<!\bwe\x20)\b(?:said|says|told (?:us|me|them)|mentioned|agreed|okayed|ok'd|promised|confirmed)\b(?! (?:no|not)\b)",
    r"\bverbal(?:ly)?\b", r"\binformal(?:ly)?\b", r"\bunofficial(?:ly)?\b", r"\boff the record\b", r"\b(?:on|over) the phone\b",
    r"\bprivately\b", r"\bin (?:a|the) (?:chat|dm|text|call|group)\b", r"\bgave (?:us |me )?(?:the |a )?(?:nod|go-?ahead|green light|verbal)",
    r"(?<![我们])(?:说过|说了|讲过|讲了|说可以|说没事|说没问题|说不用|说不要紧|答应了|答应过|同意了|点过头|点头了|默许了?|打过招呼|交代过|批了|特批)",
    r"(?<![我们])(?:已经|已)(?:同意|批准|批复|认可|放行)", r"(?:员|官|主任|经理|老板|领导)说[，,:：]", r"口头", r"私下", r"(?:电话|微信|旺旺|钉钉|群|短信|语音)里(?:说|讲|答应|同意|回)", r"打了招呼",
))
#: What a check exists for, skipped, deferred, faked or called harmless.
WAIVED = _c(_alt(
    # done now, the required part later
    r"先[^。；]{1,30}(?:回头|等|以后|事后|之后|到时|过后)[^。；]{0,20}再(?:补|修|做|办|打|交|报|签|弄|查|处理|换|检|测)", r"(?:回头|事后|以后|过后)再补",
    r"后补", r"补办", r"补打", r"补签", r"补录", r"\b(?:later|afterwards|after the fact|retroactive(?:ly)?)\b", r"\bbackdat", r"\bcatch up on the paperwork",
    # skipped or harmless
    r"跳过", r"先不(?:做|报|查|走|检|测|办|交)", r"没关系", r"不要紧", r"没事的?", r"不会(?:判|查|罚|管|追究|有人查)", r"不用(?:做|报|查|走|等|检|测|办|交|管)",
    r"出事.{0,4}担着", r"\bit'?s (?:ok|okay|fine|alright|all right) (?:to|if)\b", r"\bno problem (?:to|if|with)\b", r"\bskip", r"\bwaive",
    r"\b(?:don'?t|do not|no need to) (?:need to )?(?:wait for|bother with|file|log|report|record)\b", r"\bas long as\b",
    # the record made to say what did not happen
    r"(?:按|照|用|拿)(?:上|前|之前|以前|去年|旧|别的|别家)[^，,。；]{0,6}(?:数据|数字|记录|结果|报告|样品)?(?:来)?(?:填|写|报|抄|交|顶)", r"照(?:抄|搬|正常的?)", r"补上日期", r"改.{0,4}(?:标签|日期|记录|数据)",
    r"就说(?:在|已|是)", r"开.{0,6}证明", r"\brelabel", r"\bre-?date", r"\btoday'?s date\b", r"\b(?:mark|record|log) (?:\w+ ){0,4}as (?:passed|done|complete|clean|normal)",
    r"\bcopy (?:\w+ ){0,3}(?:last|previous) (?:month|week|year)'?s?\b",
    # round 31 (the misses of r1 - r26b): the act called within the rules, the approval said to be on its way, a control
    # the word lets go of ("不算违规", "批文还在走流程", "明文存", "paperwork is still in progress")
    r"不算(?:违规|违法|违约|刷单)", r"不违规", r"(?:批文|手续|审批|流程|文件)(?:还)?在走", r"还在走流程", r"明文(?:存|保存|存储|记录)",
    r"\b(?:paperwork|approval|sign-?off) (?:is )?(?:still )?(?:in progress|pending|on its way|coming)\b", r"\bin plain ?text\b", r"\binstead of waiting for\b", r"\bignore (?:the |their )?(?:\w+ ){0,2}request for\b",
    r"\bdoesn'?t need (?:a |an |the )?(?:\w+ ){0,3}(?:certificate|permit|inspection|licen[cs]e|check)", r"抽查(?:代替|放行|就行)", r"先.{0,8}放行", r"\bback-?fill", r"\bplausible (?:dates|values|numbers|readings)\b", r"没(?:拿到|有|办).{0,8}也可以", r"日期写成当时", r"照模板补", r"\bnot (?:a )?(?:violation|against (?:the )?(?:rules|policy|tos))\b",
))


def spoken_waiver(normalised: str) -> bool:
    """Does the text skip, defer or fake a check on someone's spoken or informal word (EN/ZH, see the module)?"""
    return claim_then_act(normalised, SAID, WAIVED, either_order=True)
