"""Person names: capitalised English names, and Chinese names (surname + given name, jieba `nr` tags)."""

from __future__ import annotations

import re
from functools import lru_cache

from hindsight.text.script import HAN

_NAME_RE = re.compile(
    r"(?<![A-Za-z0-9_'’])([A-Z][a-z]+(?:[-'][A-Z][a-z]+)?(?:\s+[A-Z][a-z]+(?:[-'][A-Z][a-z]+)?)*)(?:['’]s)?(?![A-Za-z0-9_])"
)
_SENTENCE_START_RE = re.compile(r"(?:^|[.!?。！？]\s*|[\"“「(（]\s*)$")
# Verbs and other words that commonly start a request; only checked at sentence start.
_STARTERS = frozenset(
    ["migrate", "deploy", "fix", "update", "add", "remove", "meet", "create", "delete", "install", "run", "use", "write", "read", "make", "set", "compare", "summarise", "summarize", "suggest", "help", "find", "open", "close", "start", "stop", "build", "test", "debug", "review", "plan", "draft", "what", "who", "which", "whose", "why", "how", "where", "when"]
)
_NOT_NAMES = frozenset(
    ["i", "a", "an", "the", "and", "or", "but", "if", "so", "then", "also", "what", "when", "where", "who", "whom", "whose", "which", "why", "how", "did", "do", "does", "is", "are", "was", "were", "be", "been", "have", "has", "had", "can", "could", "would", "should", "will", "shall", "may", "might", "must", "tell", "show", "list", "find", "give", "get", "remember", "recall", "summarize", "summarise", "describe", "explain", "please", "let", "check", "look", "search", "any", "some", "all", "every", "each", "no", "not", "yes", "ok", "okay", "hey", "hi", "hello", "thanks", "thank", "in", "on", "at", "during", "since", "after", "before", "until", "from", "to", "for", "of", "with", "about", "by", "as", "into", "over", "my", "our", "your", "his", "her", "their", "its", "we", "you", "he", "she", "they", "it", "this", "that", "these", "those", "there", "here", "today", "yesterday", "tomorrow", "tonight", "recently", "lately", "last", "next", "this", "past", "earlier", "later", "now", "then", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "lesson", "lessons", "pitfall", "pitfalls", "mistake", "mistakes", "warning", "warnings", "note", "notes", "error", "errors", "bug", "bugs", "issue", "issues"]
)
_ZH_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
_ZH_COMPOUND_SURNAMES = ("欧阳", "司马", "诸葛", "上官", "东方", "慕容", "令狐", "皇甫")
_ZH_NAME_FUNCTION_CHARS = frozenset("的了是在和与也都就还又把被给让对从到为着过吗呢吧啊么个些这那说讲做写提问要")
_ZH_NAME_SKIP = frozenset(["上周", "本周", "今年", "去年", "前年", "最近", "今天", "昨天", "前天", "周末", "周一", "周二", "周三", "周四", "周五", "周六", "周日"])



def _en_names(text: str, blocked: list[tuple[int, int]]) -> list[str]:
    """Capitalised words (and runs of them) that are not common words.

    A capitalised word at the start of a sentence is ambiguous ("Melanie
    painted" vs "Painted"), so there it only counts when it is not in the
    common-word list; elsewhere it counts unless it is in that list. Time words
    and months are always excluded.
    """
    names: list[str] = []
    for m in _NAME_RE.finditer(text):
        s = m.start(1)
        if any(s < be and m.end(1) > bs for bs, be in blocked):
            continue
        words = m.group(1).split()
        at_start = bool(_SENTENCE_START_RE.search(text[max(0, s - 3) : s]))
        # Drop leading common words: "Did Caroline" -> "Caroline".
        while words and words[0].lower() in _NOT_NAMES:
            words = words[1:]
            at_start = False
        while words and words[-1].lower() in _NOT_NAMES:
            words = words[:-1]
        if words and at_start:
            first = words[0].lower()
            if first in _STARTERS or first.endswith(("ed", "ing", "ly")):
                words = words[1:]
        if words:
            names.append(" ".join(words))
    return list(dict.fromkeys(names))


_CJK_RUN_RE = re.compile(f"[{HAN}]{{2,}}")


@lru_cache(maxsize=2048)
def _zh_names_in_run(run: str) -> tuple[str, ...]:
    """Chinese person names in one Han run (heuristic, cached).

    Not jieba ``posseg``: its Viterbi over ~250 POS states costs ~0.3 ms on a
    short query and seconds on runs of rare characters. Instead the ordinary
    (cheap) segmentation is used and a word counts as a name when it is
    (a) out of the dictionary and starts with a common surname (张伟, 王芳,
    刘洋; also 小王/老李), or (b) a dictionary word tagged as a name: ``nrt``
    (卡罗琳), or ``nr`` with a surname and 3+ characters (周杰伦).
    """
    from hindsight.text.tokenize import _jieba

    jieba = _jieba()
    freq = jieba.dt.FREQ  # 0 marks a mere prefix, i.e. not a word
    tags = _zh_word_tags()
    out: list[str] = []
    for word in jieba.cut(run, HMM=True):
        word = word.lstrip("和与跟同及的")
        if not 2 <= len(word) <= 4 or word in _ZH_NAME_SKIP:
            continue
        if any(ch in _ZH_NAME_FUNCTION_CHARS for ch in word[1:]):
            continue
        surname = word[0] in _ZH_SURNAMES or word.startswith(_ZH_COMPOUND_SURNAMES)
        if not freq.get(word):
            # Out of the dictionary: the HMM glued an unknown word, often a name.
            nickname = len(word) == 2 and word[0] in "小老阿" and word[1] in _ZH_SURNAMES
            if nickname or (surname and (len(word) <= 3 or word.startswith(_ZH_COMPOUND_SURNAMES))):
                out.append(word)
        else:
            # In the dictionary with a name tag. Two-character "names" there are
            # mostly ordinary words (陈述, 高明, 田野) and some tags are noise
            # (连接池 is "nr"), so demand a surname and 3+ characters, except for
            # transliterated names (nrt: 卡罗琳).
            tag = tags.get(word)
            if tag == "nrt" or (tag in ("nr", "nrfg") and surname and len(word) >= 3):
                out.append(word)
    return tuple(out)


@lru_cache(maxsize=1)
def _zh_word_tags() -> dict[str, str]:
    """jieba's dictionary POS tags (loaded with ``jieba.posseg``, a plain dict lookup)."""
    import jieba.posseg as pseg

    return pseg.dt.word_tag_tab  # type: ignore[no-any-return]


def _zh_names(text: str) -> list[str]:
    """Chinese person names, run by run (see :func:`_zh_names_in_run`)."""
    names: list[str] = []
    for m in _CJK_RUN_RE.finditer(text):
        names.extend(_zh_names_in_run(m.group(0)))
    return names
