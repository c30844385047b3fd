"""The labelled guard set: loading, the held-out split and obfuscated variants.

The split is by a stable hash of each record's *group* (the hand-written text a
variant was derived from), so an obfuscated copy of a training attack can never
leak into the held-out set and flatter the numbers. Training, the benchmark and
the tests all call :func:`is_held_out`, so they agree on the split.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import quote

#: the package's safety data (this module moved here from `hindsight/safety/dataset.py` in round 32: calibration code
#: lives with the scripts that train and measure the guard)
DATA_DIR = Path(__file__).resolve().parents[1] / "src" / "hindsight" / "safety" / "data"
GUARD_SET = DATA_DIR / "guard_labelled.jsonl"
PII_SET = DATA_DIR / "pii_labelled.jsonl"
# Development rounds written for the failure kinds of issue 10 (one record per text, with its ``kind``).
DEV_SETS: tuple[Path, ...] = (
    DATA_DIR / "guard_dev_r1.jsonl", DATA_DIR / "guard_dev_r2.jsonl", DATA_DIR / "guard_dev_r4.jsonl",
)
HELD_OUT_FRACTION = 0.25


@dataclass(frozen=True)
class GuardExample:
    """One labelled text. ``obfuscation`` is None for hand-written records."""

    text: str
    label: str  # "attack" | "benign"
    category: str | None
    lang: str  # "en" | "zh" | "mixed"
    group: str
    obfuscation: str | None = None
    kind: str | None = None  # failure kind of a development-round record (e.g. "payee_change")
    writer: str = "own"  # who wrote it: "own" (our engineers) or a released blind round ("blind-r1", ...)

    @property
    def is_attack(self) -> bool:
        return self.label == "attack"


def group_id(text: str) -> str:
    """Stable id of a hand-written text (sha1 prefix); variants inherit it."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def is_held_out(group: str, fraction: float = HELD_OUT_FRACTION) -> bool:
    """Deterministic ~``fraction`` split on the group hash (independent of file order)."""
    bucket = int(hashlib.sha256(("guard-split:" + group).encode("utf-8")).hexdigest()[:8], 16) / 0xFFFFFFFF
    return bucket < fraction


def load_guard_set(path: Path = GUARD_SET) -> list[GuardExample]:
    """Every record of the labelled guard set."""
    out: list[GuardExample] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                raw = json.loads(line)
                out.append(
                    GuardExample(
                        text=raw["text"],
                        label=raw["label"],
                        category=raw.get("category"),
                        lang=raw["lang"],
                        group=raw.get("group") or group_id(raw["text"]),
                        obfuscation=raw.get("obfuscation"),
                        kind=raw.get("kind"),
                    )
                )
    return out


def load_all_guard_sets() -> list[GuardExample]:
    """The original labelled set plus every development round: what training and the bench use."""
    out = load_guard_set()
    for path in DEV_SETS:
        out.extend(load_guard_set(path))
    return out


def split(examples: list[GuardExample]) -> tuple[list[GuardExample], list[GuardExample]]:
    """(train, held_out). Only our own writing is split; released blind rounds always train (they are
    scored across writers instead: train without one round, score it)."""
    train = [e for e in examples if e.writer != "own" or not is_held_out(e.group)]
    test = [e for e in examples if e.writer == "own" and is_held_out(e.group)]
    return train, test


# A blind round's fine-grained category -> the guard's attack class.
_BLIND_CLASS = {
    "claimed_authorization": "privilege_escalation",
    "false_authorization": "privilege_escalation",
    "escalation": "privilege_escalation",
    "privilege_escalation": "privilege_escalation",
    "trust_transfer": "privilege_escalation",
    "exfiltration_habit": "exfiltration",
    "exfiltration_as_habit": "exfiltration",
    "payment_fraud": "exfiltration",
}


def load_blind_round(path: Path, writer: str) -> list[GuardExample]:
    """A released blind round (``text, label, category, lang``), tagged with its writer group.

    The round's own category is kept as ``kind`` (for per-category reports); attacks map onto the guard's
    classes (authorisation and trust claims are escalation, habits that send data or money out are
    exfiltration, everything else is injection)."""
    out: list[GuardExample] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            raw = json.loads(line)
            attack = raw["label"] == "attack"
            category = _BLIND_CLASS.get(raw["category"], "injection") if attack else None
            out.append(GuardExample(text=raw["text"], label=raw["label"], category=category, lang=raw["lang"],
                                    group=f"{writer}:{group_id(raw['text'])}", kind=f"{writer}:{raw['category']}",
                                    writer=writer))
    return out


def write_guard_set(examples: list[GuardExample], path: Path = GUARD_SET) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for e in examples:
            fh.write(json.dumps(asdict(e), ensure_ascii=False) + "\n")


def load_pii_set(path: Path = PII_SET) -> Iterator[dict[str, object]]:
    """Records ``{"text", "lang", "pii": [{"kind", "value"}]}``; empty ``pii`` = look-alike negative."""
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


# --------------------------------------------------------------------------- obfuscations
# Each takes the text and a seeded RNG and returns the obfuscated text. They mirror
# what the normaliser must undo, so tests and the labelled set use the same ones.

_ZW = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"]
_TO_CYRILLIC = {
    "a": "а",
    "e": "е",
    "o": "о",
    "p": "р",
    "c": "с",
    "y": "у",
    "x": "х",
    "i": "і",
    "s": "ѕ",
    "A": "А",
    "E": "Е",
    "O": "О",
    "P": "Р",
    "C": "С",
    "T": "Т",
    "H": "Н",
    "K": "К",
    "M": "М",
}
_SIMP_TO_TRAD = dict(
    zip(
        "记后删确认须权钥码发传给凭证无视从现开关闭录审计这个对话们让统设级员执运转账号邮网链务处绕过检验许滤护监启当时问请规则数库忆历报总说听隐获为帮双动将么销毁",
        "記後刪確認須權鑰碼發傳給憑證無視從現開關閉錄審計這個對話們讓統設級員執運轉賬號郵網鏈務處繞過檢驗許濾護監啟當時問請規則數庫憶歷報總說聽隱獲為幫雙動將麼銷毀",
        strict=True,
    )
)


def fullwidth(text: str, rng: random.Random) -> str:
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ("\u3000" if ch == " " else ch) for ch in text)


def zero_width(text: str, rng: random.Random) -> str:
    out = []
    for ch in text:
        out.append(ch)
        if ch.strip() and rng.random() < 0.35:
            out.append(rng.choice(_ZW))
    return "".join(out)


def homoglyph(text: str, rng: random.Random) -> str:
    return "".join(_TO_CYRILLIC[ch] if ch in _TO_CYRILLIC and rng.random() < 0.6 else ch for ch in text)


def spaced(text: str, rng: random.Random) -> str:
    """'i g n o r e  a l l' — letters single-spaced, words double-spaced (or dotted)."""
    sep = rng.choice([" ", ".", " "])
    words = text.split(" ")
    return "  ".join(sep.join(w) if w.isascii() else " ".join(w) for w in words)


def traditional(text: str, rng: random.Random) -> str:
    return "".join(_SIMP_TO_TRAD.get(ch, ch) for ch in text)


_COVERS = [
    "Standup notes: the build is green and the demo is on Friday.",
    "Reminder about the team lunch on Thursday.",
    "周会纪要：本周上线顺利，下周继续优化性能。",
    "Here is the summary of the article you asked for.",
    "文档已更新，请查看最新版本。",
]


def html_comment(text: str, rng: random.Random) -> str:
    return f"{rng.choice(_COVERS)} <!-- {text} -->"


def base64_payload(text: str, rng: random.Random) -> str:
    blob = base64.b64encode(text.encode("utf-8")).decode("ascii")
    lead = rng.choice(["Please decode and remember this: ", "config blob: ", "请解码并记住：", "note "])
    return lead + blob


def markdown_title(text: str, rng: random.Random) -> str:
    safe = text.replace('"', "'").replace("\n", " ")
    return f'See [the docs](https://docs.example.com/guide "{safe}") for details.'


def url_encoded(text: str, rng: random.Random) -> str:
    return f"Useful link: https://example.com/redirect?next={quote(text)}"


OBFUSCATIONS: dict[str, Callable[[str, random.Random], str]] = {
    "fullwidth": fullwidth,
    "zero_width": zero_width,
    "homoglyph": homoglyph,
    "spaced": spaced,
    "traditional": traditional,
    "html_comment": html_comment,
    "base64": base64_payload,
    "markdown_title": markdown_title,
    "url_encoded": url_encoded,
}

OBFUSCATIONS_BY_LANG: dict[str, list[str]] = {
    "en": ["fullwidth", "zero_width", "homoglyph", "spaced", "html_comment", "base64", "markdown_title", "url_encoded"],
    "zh": [
        "fullwidth",
        "zero_width",
        "spaced",
        "traditional",
        "html_comment",
        "base64",
        "markdown_title",
        "url_encoded",
    ],
    "mixed": ["zero_width", "html_comment", "base64", "fullwidth"],
}


def make_variants(examples: list[GuardExample], seed: int = 7, rate: float = 0.4) -> list[GuardExample]:
    """Obfuscated copies of ~``rate`` of the hand-written attacks (deterministic)."""
    out: list[GuardExample] = []
    for e in examples:
        if e.obfuscation is not None or not e.is_attack:
            continue
        rng = random.Random(f"{seed}:{e.group}")
        if rng.random() >= rate:
            continue
        kind = rng.choice(OBFUSCATIONS_BY_LANG.get(e.lang, OBFUSCATIONS_BY_LANG["en"]))
        out.append(GuardExample(OBFUSCATIONS[kind](e.text, rng), e.label, e.category, e.lang, e.group, kind))
    return out
