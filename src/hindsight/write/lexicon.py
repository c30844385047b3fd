"""Word tables of the write-time judge: numbers, function words, synonyms, verbs, switch cues (EN and ZH).

Data, not logic: `analysis` turns text into normalised units with these tables, `conflict` and `judge`
read the cues. Extending a table changes what the judge can see; bench/hygiene.py --set measures it.
"""

from __future__ import annotations

import re

from hindsight.text.tokenize import EN_STOPWORDS, ZH_STOPWORDS
from hindsight.write.cue_bounds import en_cues, zh_negation_cues
from hindsight.write.numbers import ZH_NUM_CHARS, read_numbers, read_zh_clock_parts, zh_digit_string, zh_numeral

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RE = re.compile(f"[{_CJK}]")


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
_ZH_NUM_CHARS = ZH_NUM_CHARS
# A Chinese numeral counts as a number only before a measure word / unit or after 第/东西南北/周/星期:
# that keeps 统一, 一起, 一下, 一直 and friends as words.
_ZH_MEASURE = "个次天周月年点台人位杯分秒时号日岁倍层条份元块区遍名家辆套张本只项核级版期轮届"
_ZH_NUM_RE = re.compile(
    rf"(?:(?<=[第东西南北])|(?<=周)|(?<=星期)|(?<=礼拜))[{_ZH_NUM_CHARS}日天]+"
    rf"|(?<![{_ZH_NUM_CHARS}])[{_ZH_NUM_CHARS}]+(?=[{_ZH_MEASURE}]|小时|公里|公斤|厘米|毫升|毫克)"
)


_UNITS = {"s": "seconds", "sec": "seconds", "secs": "seconds", "ms": "milliseconds", "min": "minutes",
          "mins": "minutes", "h": "hours", "hr": "hours", "hrs": "hours", "d": "days", "k": "000"}
_UNIT_RE = re.compile(r"(?<![A-Za-z_])(\d)\s?(s|secs?|ms|mins?|hrs?|h|d|k)\b", re.IGNORECASE)


def _zh_numeral(text: str) -> int | None:
    return 7 if text in ("日", "天") else zh_numeral(text)  # 周日 / 星期天


def normalise_numbers(text: str) -> str:
    """English number words and Chinese numerals before measure words become digits (`numbers`)."""

    def zh(match: re.Match[str]) -> str:
        year = zh_digit_string(match.group(0)) if match.string.startswith("年", match.end()) else None
        if year is not None:  # 一七年 / 九〇年 / 二〇二四年: digit by digit
            return f" {year} "
        value = _zh_numeral(match.group(0))
        return match.group(0) if value is None else f" {value} "

    text = read_numbers(text)
    text = re.sub(r"(?<![第每这那前后])一天", "每天", text)  # "一天喝两杯" is "a day", not the number one
    text = read_zh_clock_parts(_ZH_NUM_RE.sub(zh, text))
    text = _ORDINAL_RE.sub(r"\1", text)
    text = _UNIT_RE.sub(lambda m: f"{m.group(1)} {_UNITS[m.group(2).lower()]}", text)
    return _EN_NUM_RE.sub(lambda m: f" {_EN_NUMBERS[m.group(1).lower()]} ", text)


# --------------------------------------------------------------------------- words
# Function words beyond the BM25 lists: they carry no fact in a memory sentence.
_EN_EXTRA_STOP = frozenset(
    ["user", "user's", "users", "we", "our", "ours", "us", "team's", "very", "really", "always", "usually", "currently", "still", "about", "around", "roughly", "approximately", "nearly", "almost", "some", "per", "each", "every", "a", "an", "there", "thing", "things", "get", "gets", "got", "one", "ones", "way", "note", "notes", "fyi", "btw", "reminder", "ps", "update", "happen", "happens", "happened", "occur", "occurs", "occurred"]
)
_ZH_EXTRA_STOP = frozenset(
    ["的", "了", "是", "在", "会", "被", "把", "都", "也", "就", "还", "很", "要", "着", "过", "地", "得", "之", "其", "又", "再", "呢", "吧", "啊", "呀", "嘛", "么", "个", "用户", "我们", "咱们", "大约", "大概", "差不多", "左右", "约", "大致", "一下", "一些", "目前", "所在", "这个", "那个", "进行", "由", "为", "正在", "最近", "一直", "经常", "通常", "总是", "每", "每个", "每位", "次", "位", "只", "台", "条", "份", "件", "种", "些", "备注", "提醒", "提醒一下", "记住", "注意", "顺便", "补充", "说明", "有关", "关于"]
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
    "live": "live lives lived living reside resides based located home 住 居住 住在 定居 位于 家",
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
    "weekly": "weekly 每周 星期 礼拜",
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
    if word in _NEGATION_STEMS:  # "note" / "notes" / "noted" must not become the negation "not"
        word += "e"
    return word


_NEGATION_STEMS = frozenset({"not", "nor"})


# Common English verbs (stemmed below). A value change swaps a value - a name, number, noun or
# adjective -; a swapped *verb* ("uses" / "powers", "reach" / "access") is a rewording.
_EN_VERB_WORDS = ["be", "have", "do", "say", "get", "make", "go", "know", "take", "see", "come", "think", "look", "want", "give", "use", "find", "tell", "ask", "work", "seem", "feel", "try", "leave", "call", "hold", "keep", "run", "serve", "host", "happen", "occur", "put", "bring", "begin", "start", "stop", "show", "hear", "play", "move", "live", "believe", "provide", "sit", "stand", "lose", "pay", "meet", "include", "continue", "set", "learn", "change", "lead", "understand", "watch", "follow", "create", "speak", "read", "allow", "add", "spend", "grow", "open", "walk", "win", "offer", "remember", "consider", "appear", "buy", "wait", "send", "expect", "build", "stay", "fall", "cut", "reach", "remain", "suggest", "raise", "pass", "sell", "require", "report", "decide", "pull", "return", "explain", "hope", "develop", "carry", "break", "receive", "agree", "support", "hit", "produce", "eat", "cover", "catch", "draw", "choose", "cause", "point", "listen", "place", "close", "involve", "increase", "own", "handle", "manage", "store", "schedule", "power", "process", "accept", "apply", "approve", "deploy", "release", "ship", "fix", "sign", "commute", "travel", "drive", "ride", "prefer", "like", "love", "enjoy", "need", "belong", "contain", "mean", "plan", "publish", "push", "merge", "review", "test", "write", "edit", "format", "respond", "reply", "answer", "assign", "locate", "base", "connect", "access", "link", "reference", "generate", "remove", "delete", "clean", "save", "freeze", "terminate", "happen", "take", "hold", "guarantee", "cache", "cover", "mention", "note", "handle", "route", "send", "get"]
_EN_VERBS = frozenset(_stem(w) for w in _EN_VERB_WORDS) | frozenset(_EN_VERB_WORDS)
_VERB_CANON = frozenset({
    "prefer", "use", "live", "learn", "need", "keep", "own", "deploy", "host", "access", "link", "do", "save",
    "commute", "read", "contact", "remove", "generate", "start", "freeze", "terminate", "build", "merge",
})



# --------------------------------------------------------------------------- cues
_STRONG_EN = en_cues(
    r"\b(no longer|not \w+ any ?more|any ?more|no more|instead of|rather than|switch(?:ed|es|ing)? (?:to|from|over)"
    r"|switched|swapped|moved|migrat(?:ed|es|ing)|moved (?:from|to|out|over|away|into|up)|replac(?:ed|es|ing)"
    r"|changed (?:from|to)|rewr(?:ote|itten)|used to|formerly|previously|stopped|stops|dropped"
    r"|deprecated|upgraded|downgraded|lowered|raised|increased|decreased|reduced|extended|shortened"
    r"|bumped|cut (?:to|down)|turned (?:off|on)|was (?:changed|updated|moved|set)|updated to|is now|are now"
    # change-of-state verbs: something ended, was rescheduled, grew or shrank, changed hands
    r"|cancell?ed|quit|quitted|gave up|has left|have left|left the|resigned|retired|dropped out"
    r"|revoked|expired|suspended|discontinued|unsubscribed|closed (?:the|their|his|her|my|our|its) \w+|sold"
    r"|rescheduled|postponed|pushed (?:back|out|to)|brought forward|moved up|delayed"
    r"|went (?:up|down)|goes (?:up|down)|rose to|fell to|dropped to|grew to|shrank to|scaled (?:up|down|back|out|to)"
    r"|doubled|halved|renamed|ported|converted|transitioned|transferred|relocated|reassigned|took over|handed over"
    r"|became|has become|is down to|is up to|come to prefer|came to prefer|(?:prefers?|likes?) \w+(?: \w+)? over|adjusted|revised"
    r"|not \w+ but|correction|actually|resized|relicensed|lifted)\b|[,;] not\b"
)
_WEAK_EN = en_cues(
    r"\b(now|nowadays|these days|lately|recently|from now on|going forward|latest|after|just|only|new|anymore)\b"
)
_STRONG_ZH = re.compile(
    r"(不再|别再|跳槽|不是.{0,20}而是|而不是|改成|改为|改用|改到|换成|换为|换用|换了|改了|变成|变为|变了|迁移到|迁到|迁移|迁至|"
    r"升级到|升级为|升级了|降级|调整为|调整到|调整成|调整了|调到|调成|更新为|更新成|弃用|废弃|取消|停用|停止|"
    + zh_negation_cues() + r"|替换|取代|代替|延长|缩短|提高到|降低到|降到|提到|增加到|减少到|重写|从.{1,20}(?:改|换|迁|转|变|切)|"
    r"已经不|关掉了|去掉了|不再用|"
    # 状态变化：结束、改期、增减、转移
    r"戒了|戒掉|戒烟|戒酒|戒糖|退了|退出|辞职|离职|停掉|停了|关了|注销|吊销|作废|过期了|到期了|退订|退租|卖掉|卖了|"
    r"改签|改期|推迟|延期|提前到|挪到|挪至|改在|改(?:喝|吃|走|坐|住|去|由|穿|学|玩|听|看|骑|开)|"
    r"涨到|涨了|降了|跌到|扩容|缩容|扩到|减到|加到|增至|降至|减至|翻倍|减半|"
    r"切到|切换到|切换为|切换成|转到|转学|转岗|调岗|搬到|搬去|搬家|转网|更名|改名|接手|接管|移交)"
)
_WEAK_ZH = re.compile(r"(现在|如今|目前|已经|以后|今后|之后|最新|新的|更|只需|只要|只有|最近|近来|越来越)")
_CONTRAST_OLD = re.compile(r"\b(not|instead of|rather than|never)\b|n't|(不要|而不是|不是|不用|别用)")

_ZH_NEGATION_CHARS = "不没未别无非"
_ZH_NOT_NEGATION = ("不错", "不同", "不少", "不断", "不过", "不仅", "不久", "不管", "无论", "别人", "别的", "无线",
                    "非常", "除非", "不得不", "没准", "差不多", "不一定", "无法估量",
                    # a negation character inside a word that does not negate (especially, respectively, difference,
                    # villa, the future ...): read as "not" they flipped a clause's polarity
                    "特别", "分别", "区别", "差别", "类别", "级别", "性别", "个别", "告别", "识别", "辨别", "鉴别",
                    "别墅", "别名", "别处", "未来", "无人机", "非洲")



_CUE_UNITS = frozenset(
    ["now", "nowadays", "lately", "recent", "recently", "new", "latest", "since", "instead", "rather", "longer", "anymore", "any", "more", "switch", "migrat", "mov", "replac", "chang", "rewr", "rewritten", "formerly", "previously", "stopp", "dropp", "deprecat", "upgrad", "downgrad", "lower", "rais", "increas", "decreas", "reduc", "extend", "shorten", "bump", "turn", "updat", "actual", "correction", "again", "back", "just", "only", "after", "aft", "现在", "如今", "已经", "以后", "今后", "之后", "最新", "新", "改成", "改为", "改用", "换成", "换为", "换用", "换", "改", "变成", "变为", "变", "迁移", "迁", "升级", "降级", "调整", "更新", "弃用", "废弃", "取消", "停用", "停止", "替换", "取代", "代替", "延长", "缩短", "提高", "降低", "增加", "减少", "重写", "从", "到", "了", "也", "不再", "更", "只", "只要", "只有"]
)

