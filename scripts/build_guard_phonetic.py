"""Build the guard's sound table (``src/hindsight/safety/data/guard_phonetic.json``) from CC-CEDICT.

    PYTHONPATH=src .venv/bin/python scripts/build_guard_phonetic.py

An attacker who writes a risky Chinese word in pinyin ("shan chu ri zhi", "yǐhòu") or with characters that sound
like it (删醋, 蜜码, 确仁) keeps it readable for a person or an LLM while a keyword screen misses it. The guard
undoes both (``hindsight.safety.phonetic``) for the words its Chinese lexicons react to, so the table holds:

- ``readings``: every simplified character -> its toneless pinyin readings (CC-CEDICT one-character entries),
  which is how a sound-alike spelling is read;
- ``words``: the words pinyin is read back to -> their toneless pinyin, syllables joined by spaces (the word's own
  CC-CEDICT entry when there is one, so a polyphone such as 行 is read as in that word): every run of 2-4 Han
  characters in the source of the guard's lexicons (``safety/features.py``, ``safety/rules.py``), ``RISKY`` below
  and a few function words;
- ``risk``: ``RISKY``, the risky actions and objects sound-alike characters are read back to (a narrow list: the
  wider lexicon vocabulary holds everyday words, and sound-alikes of those are everywhere in ordinary text);
- ``legit``: real words (CC-CEDICT headwords) that sound like a risky word - 全线 sounds like 权限 but is a word
  of its own, so it is never "decoded".

Nothing here is learned from evaluation sets; the word list is the guard's own lexicon source.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from hindsight.retrieval import bilingual  # noqa: E402
from hindsight.safety.phonetic import FUNCTION_WORDS, TABLE_PATH  # noqa: E402

SOURCES = (ROOT / "src/hindsight/safety/features.py", ROOT / "src/hindsight/safety/rules.py")
#: Risky actions and objects (sound-alikes of these are read back).
RISKY = (
    "删除", "删库", "清空", "数据库", "生产库", "生产环境", "备份", "密码", "密钥", "私钥", "令牌", "验证码", "账号", "账户", "口令",
    "确认", "审批", "批准", "复核", "核实", "核对", "回电", "回拨", "电话", "跳过", "绕过", "关闭", "禁用", "忽略", "无视",
    "以后", "今后", "永久", "默认", "每次", "直接", "不用", "不要", "不必", "无需", "不需要", "转账", "付款", "汇款", "打款",
    "收款", "收款人", "银行", "新账户", "新账号", "发送", "转发", "上传", "导出", "外部", "邮箱", "网盘", "公开", "权限",
    "管理员", "超级管理员", "授权", "提权", "日志", "审计", "告警", "防火墙", "证书", "校验", "强制推送", "推送", "主分支",
    "评审", "测试", "钩子", "指令", "规则", "提示词", "自称", "登录", "供应商", "财务", "泄露", "外传", "越狱",
)
_RUN = re.compile(r"[\u4e00-\u9fff]{2,4}")
_ANY_RUN = re.compile(r"[\u4e00-\u9fff]+")


def risk_words() -> list[str]:
    words: set[str] = set(RISKY)
    for path in SOURCES:
        for run in _ANY_RUN.findall(path.read_text(encoding="utf-8")):
            if 2 <= len(run) <= 4:
                words.add(run)
    return sorted(words)


def word_pinyin(word: str, entries: dict[str, str], readings: dict[str, tuple[str, ...]]) -> str | None:
    if word in entries:
        return entries[word]
    syllables = [readings.get(ch, ("",))[0] for ch in word]
    return " ".join(syllables) if all(syllables) else None


def main() -> None:
    raw = bilingual.gzip.decompress(
        bilingual.importlib.resources.files(bilingual._DATA[0]).joinpath(bilingual._DATA[1]).read_bytes()
    ).decode("utf-8")
    readings = bilingual.parse_readings(raw)
    entries: dict[str, str] = {}  # simplified headword -> toneless pinyin "shan chu" (first entry wins)
    for line in raw.splitlines():
        head, sep, _ = line.partition(" /")
        parts = head.split(" ", 2)
        if line.startswith("#") or not sep or len(parts) < 3 or len(parts[1]) < 2:
            continue
        syllables = [re.sub(r"[^a-z]", "", s.replace("u:", "v")) for s in parts[2].strip("[]").lower().split()]
        if len(syllables) == len(parts[1]) and all(syllables) and parts[1] not in entries:
            entries[parts[1]] = " ".join(syllables)
    words = {w: p for w in risk_words() if (p := word_pinyin(w, entries, readings))}
    for word, reading in FUNCTION_WORDS.items():
        words.setdefault(word, reading)
    risk = sorted(w for w in RISKY if w in words)
    keys = {words[w] for w in risk}
    legit = sorted(w for w, p in entries.items() if w not in words and p in keys)
    han = {ch: list(r) for ch, r in readings.items() if "\u4e00" <= ch <= "\u9fff"}
    TABLE_PATH.write_text(json.dumps({"readings": han, "words": words, "risk": risk, "legit": legit},
                                     ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    print(f"{TABLE_PATH}: {len(han)} characters, {len(words)} words, {len(risk)} risky, {len(legit)} real sound-alikes")


if __name__ == "__main__":
    main()
