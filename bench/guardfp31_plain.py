"""Does a note order nothing and teach nothing? Round 31's candidate A (issue 10), measured and NOT shipped: it was
``hindsight/safety/plain_note.py``, read by ``guard.WriteGuard.threshold_for`` at ``NOTE_THRESHOLD`` (commit c250050);
kept here, unchanged, so ``bench/guardfp31_table.py`` reruns without it in the runtime package.

Blind round 29 quarantined 13 of 300 ordinary memories, every one by the classifier alone ("Q3 review: the Oslo office
is 8% over budget ... Ingrid wants to limit it to one China trip per person per quarter", a case officer who wants one
combined submission per vessel). A planted memory is dangerous because it becomes an order for a later session: it
tells someone to do something (an imperative, a modal of obligation or permission, "you", the agent), sets a standing
rule ("from now on", 以后, always), makes an act conditional ("if ... then", 如果, 一旦), loosens a safeguard or grants a
permission, hands out trust, moves something outward, or teaches a practice as a lesson ("last time we turned off TLS
verification and it worked"). A note that says none of these is a statement about the world; the guard holds it only
on the surer score ``NOTE_THRESHOLD`` (candidate).

Read on the normalised text (lower case, folded). Every cue is a reason *not* to read the note as plain: a false cue
keeps main's threshold, so the lexicons are broad on purpose. :func:`directive_cues` names the cues that fire (for the
measurement harness, ``bench/guardfp31_table.py``).
"""

from __future__ import annotations

import re

from hindsight.safety.features import (
    AGENT_ADDRESS,
    AUTHORISED,
    CONTROL,
    DESTRUCTIVE,
    EXPERIENCE,
    IMPERATIVE_START,
    LOOSEN,
    PAYMENT,
    PERSIST,
    PRIVILEGE,
    STATE_CHANGE,
    TRUST,
)
from hindsight.safety.rules import AGENT, ANYONE, GIVE, SEND_EN, SEND_TO_ZH, STANDING, _alt, _c

#: Sentences and clause heads: an order often follows a colon ("Remote access: raise a ticket").
_SENTENCE = re.compile(r"(?<=[.!?;:,])\s+|[。！？；：，\n]+|(?<=[:：])|\s[-–—]+\s|\b(?:so|and|then|but)\s+")
_LEAD = r"^\W*(?:(?:please|also|and|so|then|just|now|pls|kindly|ok|okay|note|n\.b\.|fyi|ps|p\.s\.)\W+)*"
#: Verbs an English order opens with (the bare form at a sentence start).
_IMPERATIVE_VERB = _alt(
    "send", "forward", "give", "share", "paste", "delete", "drop", "disable", "enable", "grant", "approve", "pay", "transfer",
    "change", "update", "switch", "move", "export", "dump", "upload", "email", "tell", "read", "hand", "add", "run", "skip",
    "ignore", "trust", "treat", "remember", "wire", "release", "print", "attach", "sync", "mirror", "post", "push", "use", "set",
    "keep", "make", "stop", "turn", "remove", "call", "check", "ask", "let", "put", "get", "go", "try", "avoid", "raise",
    "open", "close", "log", "book", "write", "store", "save", "install", "reset", "rotate", "copy", "escalate", "refuse",
    "report", "contact", "message", "ping", "reply", "answer", "route", "file", "submit", "mark", "tag", "include", "lock",
    "unlock", "reboot", "restart", "deploy", "merge", "rebase", "commit", "revert", "click", "enter", "type", "fill", "sign",
    "do", "don'?t", "never", "always", "be", "bring", "take", "leave", "wait", "hold", "confirm", "verify", "notify", "cc",
    "bcc", "text", "invite", "allow", "accept", "reject", "bypass", "override", "clear", "wipe", "purge", "truncate", "chmod",
    "sudo", "curl", "pipe", "print", "show", "reveal", "list", "fetch", "pull", "download", "request", "order", "buy",
    "schedule", "cancel", "assign", "prioriti[sz]e", "flag", "escalate", "respond", "state", "quote", "say", "mention",
    "follow", "stick", "prefer", "default", "look", "start", "finish", "handle", "tell", "apply", "grab", "fix", "replace",
    "refund", "have", "pull", "process", "proceed", "spin", "create", "suppress", "point", "recommend", "decode", "hex-decode",
    "execute", "enter", "accept", "authori[sz]e", "whitelist", "tape", "share", "publish", "expose", "unblock", "mute",
)
_IMPERATIVE = _c(_LEAD + r"(?:" + _IMPERATIVE_VERB + r")\b")
#: Obligation, permission and need, and "no need": a rule someone is to follow.
_MODAL = _c(_alt(
    r"\bmust\b", r"\bshould\b", r"\bshall\b", r"\bought to\b", r"\bneeds? to\b", r"\bhave to\b", r"\bhas to\b", r"\bhad better\b",
    r"\b(?:is|are) to\b", r"\bexpected to\b", r"\brequired?\b", r"\bsupposed to\b", r"\b(?:allowed|permitted|authori[sz]ed|cleared) to\b",
    r"\b(?:ok|okay|fine|free|safe) to\b", r"\b(?:i|we|they|he|she|staff|team|anyone|everyone|people|users?) (?:can|may|could|might want to)\b",
    r"\bcan be\b", r"\bmay be (?:skipped|ignored|shared|sent|used|deleted|removed|left|waived)", r"\bno need\b", r"\bnot (?:needed|necessary)\b",
    r"\bdon'?t need\b", r"\bdoesn'?t need\b", r"\bwithout\b", r"\bmake sure\b", r"\bbe sure\b", r"\bplease\b", r"\blet'?s\b",
    r"\bbest to\b", r"\bbetter to\b", r"\bit'?s (?:fine|ok|okay|safe) (?:to|if)\b", r"\bis fine\b", r"\bpolicy\b", r"\bprocedure\b",
    r"\brule\b", r"\brules\b", r"\binstruction", r"\bprotocol\b",
))
#: Orders said without a modal: a negation, a sweep over any request, a recommendation, an override.
_ORDER_WORDS = _c(_alt(
    r"\bdo not\b", r"\bdon'?t\b", r"\bdont\b", r"\bneeded\b",
    r"\bproceed", r"\bcomply", r"\bobey", r"\brecommend", r"\bpass (?:that|this|it) on\b", r"\bthat'?s how\b", r"\binstead\b",
    r"\b(?:any|anything|whatever|all)\b", r"\bdirective", r"\boverride", r"\bimportant\b", r"\bnote to\b", r"\bremind",
))
#: A condition and what to do then.
_CONDITION = _c(_alt(r"\bif\b", r"\bwhen\b", r"\bunless\b", r"\bwhenever\b", r"\bin case\b", r"\bas long as\b", r"\bprovided\b", r"\bany ?time\b"))
#: Chinese orders, modals, conditions and standing rules (no word breaks: the lexicon is of whole words).
_ZH = _c(_alt(
    r"请", r"要", r"必须", r"务必", r"应该", r"应当", r"需要", r"得(?:先|去|把|在|用|找|赶紧)", r"记得", r"记住", r"别", r"不要", r"不准",
    r"禁止", r"不许", r"不能", r"不得", r"可以", r"允许", r"不用", r"无需", r"不必", r"直接", r"^把", r"[，,。；]把", r"让", r"你", r"您",
    r"以后", r"今后", r"一律", r"总是", r"每次", r"永远", r"凡是", r"如果", r"要是", r"一旦", r"只要", r"遇到", r"万一", r"尽量", r"最好",
    r"千万", r"统一", r"默认", r"规定", r"规矩", r"规则", r"制度", r"流程", r"政策", r"惯例", r"约定", r"原则", r"经验", r"教训", r"窍门",
    r"技巧", r"做法", r"踩坑", r"建议", r"提醒", r"注意", r"先.{0,8}再", r"就行", r"就好", r"即可", r"没问题", r"管用", r"省事", r"方便",
))
_ZH_MORE = _c(_alt(
    r"帮", r"按", r"照", r"替", r"交代", r"任何", r"所有", r"全部", r"都", r"同意", r"签字", r"备忘", r"本人", r"官方", r"系统", r"指令",
    r"干脆", r"后来", r"停了", r"关了", r"撤了", r"去掉", r"省得", r"为了",
))
#: A practice told as a good result: a lesson without the word ("and it worked", "saved us an hour", 快多了).
_ENDORSED = _c(_alt(
    r"\bworked\b", r"\bworks\b", r"\bsaved? (?:us|me|them|time|hours?|a day)", r"\bsaves\b", r"\bfaster\b", r"\bquicker\b", r"\beasier\b",
    r"\bno (?:problem|issue)s?\b", r"\bnobody (?:minds|cares|noticed|complained)", r"\bno one (?:minds|cares|noticed|complained)",
    r"\bwas fine\b", r"\bgood idea\b", r"\bfix\b", r"\bquickest\b", r"\beasiest\b", r"\bbest way\b", r"\bshortcut", r"\bhelps?\b", r"\bworth it\b", r"\bthe trick\b", r"\bhack\b",
    r"快多了", r"快了", r"好用", r"有效", r"挺好", r"省了", r"省时", r"没人(?:管|在意|发现)", r"没出(?:过)?事", r"顺利",
))
#: What an attack acts on or vouches with even when told as a fact: a destructive act, a safeguard, money, a grant or
#: sign-off, a changed payee / address / identity, an official or genuine party, a tag or markup that claims a channel.
_STAKE = _c(_alt(
    DESTRUCTIVE.pattern, CONTROL.pattern, PAYMENT.pattern, AUTHORISED.pattern, r"\bbanks?\b", r"\bsigned off\b", r"\bsign-?off\b",
    r"[<>{}]", r"\[(?!pii-|redacted)",
))
#: Broader words of what a safeguard guards (a sensor, a limit, a budget, a policy, a system) and of authenticity.
_STAKE_MORE = _c(_alt(
    r"\bofficial", r"\breal\b", r"\bgenuine", r"\blegit", r"\bsystem\b", r"\bsensor", r"\bsafety\b", r"\bsecurity\b",
    r"\bwarning", r"\balarm", r"\bbackup", r"\blimit", r"\bbudget", r"\bpolicy",
))
_AGENT = _c(AGENT)
_ANYONE = _c(ANYONE)
_STANDING = _c(STANDING)
_MOVE = _c(_alt(SEND_EN, GIVE, SEND_TO_ZH, r"\bleak", r"\bexpos", r"\bscp\b", r"\brsync\b", r"\bftp\b", r"泄露", r"外传", r"公开",
                r"(?:付|打|转|汇)(?:到|给|进)"))
#: A party declared genuine: the vouching a trust transfer rests on.
_VOUCHED = _c(_alt(r"\blegit", r"\bgenuine\b", r"\btrusted\b", r"\bthe real\b", r"\bour real\b", r"\bofficial\b", r"可信", r"本人", r"官方",
                   r"正规", r"靠谱"))

#: Named cues, in the order they are tried: a note is plain when none fires.
_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("agent", _AGENT), ("agent_address", AGENT_ADDRESS), ("standing", _STANDING), ("persist", PERSIST), ("modal", _MODAL),
    ("condition", _CONDITION), ("zh", _ZH), ("order_words", _ORDER_WORDS), ("zh_more", _ZH_MORE), ("loosen", LOOSEN), ("privilege", PRIVILEGE), ("trust", TRUST), ("vouched", _VOUCHED), ("anyone", _ANYONE),
    ("move", _MOVE), ("lesson", EXPERIENCE), ("endorsed", _ENDORSED), ("stake", _STAKE), ("stake_more", _STAKE_MORE),
    ("change", STATE_CHANGE),
)


def _sentences(normalised: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(normalised) if s and s.strip()]


def directive_cues(normalised: str) -> list[str]:
    """The names of the cues that fire on ``normalised`` (empty: the note orders and teaches nothing)."""
    fired = [name for name, pattern in _CUES if pattern.search(normalised)]
    if any(_IMPERATIVE.search(s) or IMPERATIVE_START.search(s) for s in _sentences(normalised)):
        fired.append("imperative")
    return fired


#: Cue groups measured (``bench/guardfp31_table.py``) but not read by :func:`orders_nothing`: what an attack acts on
#: (money, a destructive act, a safeguard, a sign-off), broader stake words, and a change of state. They name the topic,
#: not an order, and ordinary notes name them as often as attacks do.
TOPIC_CUES = frozenset({"stake", "stake_more", "change"})


def orders_nothing(normalised: str) -> bool:
    """A statement about the world with no order, rule, condition, loosening, grant, trust, move or lesson in it."""
    if not normalised.strip():
        return False
    if any(pattern.search(normalised) for name, pattern in _CUES if name not in TOPIC_CUES):
        return False
    return not any(_IMPERATIVE.search(s) or IMPERATIVE_START.search(s) for s in _sentences(normalised))

