"""Text normalisation for screening, not for storage.

An attacker who wants a planted instruction to survive a keyword screen writes
it so that a human (or an LLM reading it later) still understands it while a
naive regex does not: full-width letters, zero-width joiners, Cyrillic look-alikes,
"i g n o r e", traditional characters, an HTML comment or a base64 blob. This
module folds all of those back onto one canonical lowercase form so that the
rules in :mod:`hindsight.safety.rules` are written once, against plain text.

The result is only ever *read* by the screen; what is stored is the caller's text.
Because it is screening-only, the folding is deliberately lossy (homoglyphs are
mapped even inside genuine Russian or Greek words, for instance).
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import unicodedata
from dataclasses import dataclass, field
from urllib.parse import unquote_plus

from hindsight.safety.decode import decode_all

# Characters that render as nothing: Unicode's Default_Ignorable_Code_Point set - ZWSP..RLM, word joiner and
# friends, BOM, soft hyphen, Mongolian vowel separator and free variation selectors, bidi embeddings / isolates and
# the Arabic letter mark, Hangul fillers (U+3164, U+FFA0, U+115F-1160), combining grapheme joiner, Khmer inherent
# vowels, variation selectors, tag characters, shorthand and musical format controls. Attack round 21: the round-9
# set missed the Hangul filler, tags, variation selectors and the rest, so "dis\u3164able" split a word the rules
# read, and the guard read two words.
INVISIBLE_CHARS = ("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
                   "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
                   "\U000e0000-\U000e0fff")
_INVISIBLE = re.compile(f"[{INVISIBLE_CHARS}]")

# Cyrillic / Greek / other letters that render like Latin ones. NFKC already folds
# mathematical alphanumerics and full-width forms, so only true homoglyphs are here.
_HOMOGLYPH_FROM = (
    "авеёкмнорстухѕіїјԁӏһԛԝɡьпгАВЕЁКМНОРСТУХЅ"
    "ІЇЈԀӀҺԚԜαβγεηικνορτυχωςΑΒΕΖΗΙΚΜΝΟΡΤΥΧıȷℓꞇɑǀⅼ"
    "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ"  # small capitals (NFKC leaves them)
)
_HOMOGLYPH_TO = (
    "abeekmhopctyxsiijdlhqwgbnrABEEKMHOPCTYXS"
    "IIJDIHQWabyenikvoptuxwsABEZHIKMNOPTYXijltall"
    "abcdefghijklmnoprstuvwyz"
)
_HOMOGLYPH_TABLE = str.maketrans(_HOMOGLYPH_FROM, _HOMOGLYPH_TO)

# Traditional -> simplified for the characters the Chinese rules are written with.
# A full converter (OpenCC) is a heavy dependency; writing an attack in traditional
# script only needs these to be folded for the rules to see it.
_TRAD_TO_SIMP = str.maketrans(
    "記後刪確認須權鑰碼發傳給憑證無視從現開關閉誌錄審計應該這個對話們讓統設級員執運轉賬帳號郵網鏈務處繞過檢驗絕許濾護監啟啓當時問詢請準復複規則條訊據數庫憶歷聯絡繫係匯報總頭寫讀變機說聽隱獲賦與為幫體層衛鎖雙動態將並麼滅銷毀",
    "记后删确认须权钥码发传给凭证无视从现开关闭志录审计应该这个对话们让统设级员执运转账账号邮网链务处绕过检验绝许滤护监启启当时问询请准复复规则条讯据数库忆历联络系系汇报总头写读变机说听隐获赋与为帮体层卫锁双动态将并么灭销毁",
)

# Runs of single letters separated by one space, dot, dash, underscore or star:
# "i g n o r e", "i.g.n.o.r.e". Two or more spaces are kept as a word break.
_SPACED_LETTERS = re.compile(r"(?<![^\W\d_])(?:[^\W\d_][.\-_*·]){2,}[^\W\d_](?![^\W\d_])")
# Any single visible characters separated by exactly one space: "h t t p : / / 1 9 8".
_SPACED_CHARS = re.compile(r"(?<![^ \n])(?:[^\s] ){2,}[^\s](?![^ \n])")
_SPACE_BETWEEN_CJK = re.compile(r"(?<=[\u3400-\u9fff])[ \t.\-_*·]+(?=[\u3400-\u9fff])")
# Single characters split by a slash or bar, three or more in a row ("收/款/账/户"); "是/否" stays.
_SLASHED_CJK = re.compile(r"(?<![/|])(?:[\u3400-\u9fff][/|]){2,}[\u3400-\u9fff](?![/|])")
# Single Han characters split by one symbol repeated, three characters or more ("删✦除", "关★闭★防★火★墙"): not
# ASCII or CJK punctuation (a list "甲、乙、丙", "是,否"), not a letter or digit. Round 21.
_SYMBOL_SPLIT_CJK = re.compile(
    r"[\u3400-\u9fff]([^\w\s,;:!?()\[\]{}\"'<>/|.\-_*·\u3000-\u303f\uff00-\uffef])(?:[\u3400-\u9fff]\1)+[\u3400-\u9fff]")
# One pictographic symbol (a dingbat, a star, a geometric shape; not an emoji) between two Han characters ("删✦除"):
# nothing Chinese is written so; arrows ("北京→上海") are left.
_PICTOGRAPH_IN_CJK = re.compile(r"(?<=[\u3400-\u9fff])[\u25a0-\u27bf\u2b00-\u2bff]+(?=[\u3400-\u9fff])")
# A dotted run of single letters and digits with at least two letters and a digit ("2.f.a" for 2fa): the letters-only
# runs are ``_SPACED_LETTERS``'s; a version or an address (digits only) is left.
_DOTTED_MIXED = re.compile(r"(?<![\w.])(?=(?:\w\.)*\d)(?=(?:\w\.)*[^\W\d_](?:\.\w)*\.[^\W\d_])(?:\w\.){2,}\w(?![\w.])")
#: Round 47 (guard47, issue 10): in a text that already spells words letter by letter with a dot or an underscore
#: ("f.o.r.w.a.r.d c.l.i.e.n.t a.d.d.r.e.s.s.e.s t.o ...", "i_n_f_l_a_t_e ... b_y 2_0_%"), the two-character words
#: spelled the same way ("t.o", "n.o", "b_y", "2_0_") are joined too. Read only while ``SHORT_RUNS_ON``.
SHORT_RUNS_ON = False
_SHORT_RUN = re.compile(r"(?<![\w.])[^\W_]([._])[^\W_](?:\1[^\W_])*\1?(?![^\W_])")
_WS = re.compile(r"[ \t\r\f\v]+")
_NEWLINES = re.compile(r"\s*\n\s*")

_HTML_COMMENT = re.compile(r"<!--(.*?)(?:-->|$)", re.DOTALL)
# `[^\S\n]*` (blanks but a line break), not `\s*`, before the bracket: `\s*` ran over every following blank line from each line start (quadratic).
_MD_COMMENT = re.compile(r"^[^\S\n]*\[(?:[^\]]*)\]:\s*(?:<>|#|\S+)\s*[(\"'](.*?)[)\"']\s*$", re.MULTILINE)
_MD_LINK_TITLE = re.compile(r"\]\(\s*[^\s)]{1,2000}\s+[\"'(]([^\n]{1,300}?)[\"')]\s*\)")
_MD_IMAGE_ALT = re.compile(r"!\[([^\]]{3,})\]\(")
_HTML_HIDDEN_ATTR = re.compile(r"""(?:title|alt|aria-label|data-[\w-]+)\s*=\s*["']([^"']{8,})["']""", re.IGNORECASE)
_TAG = re.compile(r"</?[a-zA-Z][^>]{0,200}>")

# '=' may precede a blob ("policy=<base64>"); the blob itself never starts with one.
_B64_CANDIDATE = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_-])")
_HEX_CANDIDATE = re.compile(r"(?<![0-9A-Za-z])(?:0x)?((?:[0-9A-Fa-f]{2}){8,})(?![0-9A-Za-z])")
# Bytes written as spaced hex pairs: "72 6d 20 2d 72 66 20 2f" (a MAC address decodes to unprintable bytes).
_SPACED_HEX = re.compile(r"(?<![0-9A-Za-z])(?:[0-9A-Fa-f]{2}[ ,:]){5,}[0-9A-Fa-f]{2}(?![0-9A-Za-z])")
_HEX_ESCAPES = re.compile(r"(?:\\x[0-9A-Fa-f]{2}){4,}")
_UNICODE_ESCAPES = re.compile(r"(?:\\u[0-9A-Fa-f]{4}){3,}")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")

MAX_DECODED_PIECES = 16
MIN_ENCODED_LEN = 16


@dataclass(frozen=True)
class ScreeningText:
    """The folded text plus what was found hidden in it.

    ``text`` is what rules run on (visible text first, then each hidden or decoded
    piece on its own line); ``hidden`` lists the kind of each extracted piece
    (``html_comment``, ``base64`` ...) so a verdict can say *how* it was hidden.
    """

    text: str
    hidden: tuple[str, ...] = field(default_factory=tuple)
    hidden_texts: tuple[str, ...] = field(default_factory=tuple)
    altered: bool = False

    @property
    def obfuscated(self) -> bool:
        """Something beyond case/width/spacing was undone or uncovered.

        Then an embedding of the raw text does not represent what is screened,
        so the classifier must embed the folded text itself.
        """
        return self.altered or bool(self.hidden)


def _printable_ratio(text: str) -> float:
    if not text:
        return 0.0
    good = sum(1 for ch in text if ch.isprintable() or ch in "\n\t")
    return good / len(text)


def _looks_like_text(data: bytes) -> str | None:
    """Decoded bytes count as hidden text only if they are mostly printable words.

    Random bytes (a git hash or an opaque token read as base64) fail this, which is
    what keeps ordinary identifiers from being "decoded" into noise.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 4 or _printable_ratio(text) < 0.9:
        return None
    letters = sum(1 for ch in text if ch.isalpha())
    if letters < max(3, len(text) * 0.5):
        return None
    if " " not in text and not re.search(r"[\u3400-\u9fff]", text) and len(text) > 12:
        # A long token with no spaces and no CJK is more likely an identifier.
        return None
    return text


def _decode_base64(candidate: str) -> str | None:
    raw = candidate.rstrip("=")
    if len(raw) < MIN_ENCODED_LEN:
        return None
    # All-hex strings (hashes) are handled by the hex decoder.
    if re.fullmatch(r"[0-9A-Fa-f]+", raw):
        return None
    padded = raw + "=" * (-len(raw) % 4)
    for decoder in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            data = decoder(padded)
        except (binascii.Error, ValueError):
            continue
        text = _looks_like_text(data)
        if text is not None:
            return text
    return None


def _decode_hex(candidate: str) -> str | None:
    try:
        return _looks_like_text(bytes.fromhex(candidate))
    except ValueError:
        return None


def extract_hidden(text: str) -> list[tuple[str, str]]:
    """Return ``(kind, content)`` for content a reader would not see or read directly.

    Comments and link titles are invisible once markdown/HTML is rendered; encoded
    payloads are unreadable to a person but trivially decoded by an LLM. All of it
    is screened as if it were written in the clear.
    """
    found: list[tuple[str, str]] = []

    def add(kind: str, content: str) -> None:
        content = content.strip()
        if content and len(found) < MAX_DECODED_PIECES:
            found.append((kind, content))

    for m in _HTML_COMMENT.finditer(text):
        add("html_comment", m.group(1))
    for m in _MD_COMMENT.finditer(text):
        add("markdown_comment", m.group(1))
    for m in _MD_LINK_TITLE.finditer(text):
        add("link_title", m.group(1))
    for m in _MD_IMAGE_ALT.finditer(text):
        add("image_alt", m.group(1))
    for m in _HTML_HIDDEN_ATTR.finditer(text):
        add("html_attribute", m.group(1))
    if _TAG.search(text):
        # "ig<b></b>nore": the text as rendered, tags dropped. The tags themselves stay
        # in the main text because fake "<system>" turns are a signal of their own.
        add("html_stripped", _TAG.sub("", text))

    layer = [text]
    for _depth in range(2):  # base64 of base64 is common enough; deeper is not
        next_layer: list[str] = []
        for chunk in layer:
            for m in _B64_CANDIDATE.finditer(chunk):
                decoded = _decode_base64(m.group(0))
                if decoded:
                    add("base64", decoded)
                    next_layer.append(decoded)
            for m in _HEX_CANDIDATE.finditer(chunk):
                decoded = _decode_hex(m.group(1))
                if decoded:
                    add("hex", decoded)
                    next_layer.append(decoded)
            for m in _SPACED_HEX.finditer(chunk):
                decoded = _decode_hex(re.sub(r"[ ,:]", "", m.group(0)))
                if decoded:
                    add("hex", decoded)
                    next_layer.append(decoded)
            for m in _HEX_ESCAPES.finditer(chunk):
                decoded = _decode_hex(m.group(0).replace("\\x", ""))
                if decoded:
                    add("hex", decoded)
                    next_layer.append(decoded)
            for m in _UNICODE_ESCAPES.finditer(chunk):
                try:
                    decoded = m.group(0).encode("ascii").decode("unicode_escape")
                except (UnicodeDecodeError, UnicodeEncodeError):
                    continue
                add("unicode_escape", decoded)
            if len(_PERCENT.findall(chunk)) >= 2:
                decoded = unquote_plus(chunk)
                if decoded != chunk:
                    add("url_encoded", decoded)
                    next_layer.append(decoded)
            if "&#" in chunk or "&lt;" in chunk:
                decoded = html.unescape(chunk)
                if decoded != chunk:
                    add("html_entities", decoded)
                    next_layer.append(decoded)
        if not next_layer:
            break
        layer = next_layer
    return found


def encoded_payloads(text: str) -> list[str]:
    """What the base64 and hex blobs of ``text`` decode to (as :func:`extract_hidden` finds them).

    Redaction replaces a long blob with a placeholder before the guard reads the text, so the write path
    reads these from the caller's text first and screens the ones the redaction removed.
    """
    base = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    return [content for kind, content in extract_hidden(base) if kind in ("base64", "hex")]


def _collapse_spaced(match: re.Match[str]) -> str:
    chunk = match.group(0)
    if " " in chunk:
        return chunk.replace(" ", "")
    return re.sub(r"[.\-_*·]", "", chunk)


_QUOTES = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201b": "'",
        "\u2032": "'",
        "`": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u300c": '"',
        "\u300d": '"',
        "\u300e": '"',
        "\u300f": '"',
        "\u3010": "[",
        "\u3011": "]",
        "\u2014": "-",
        "\u2013": "-",
    }
)


# Redaction placeholders become short opaque tokens, so the word inside "[REDACTED:email]" or
# "[REDACTED:api_key]" is not read as the verb "email" or a mention of an API key. Rules and
# features that care (a destination, a secret value) match the token itself.
_PLACEHOLDER = re.compile(r"\[redacted:([a-z_]+)\]")
_PLACEHOLDER_CODE = {"email": "e", "phone": "p", "password": "pw", "api_key": "key", "private_key": "key", "card": "card",
                     "cvv": "card", "cn_id": "id", "address": "addr", "otp": "pw", "national_id": "id",
                     "bank_account": "card", "card_expiry": "card", "ip_address": "e"}


def _placeholder(match: re.Match[str]) -> str:
    return f"[pii-{_PLACEHOLDER_CODE.get(match.group(1), 'x')}]"


def fold(text: str) -> str:
    """Canonical form of one piece of text: the character-level tricks undone."""
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", text)
    text = text.translate(_HOMOGLYPH_TABLE).translate(_TRAD_TO_SIMP).translate(_QUOTES)
    text = _SPACED_CHARS.sub(_collapse_spaced, text)
    text = _DOTTED_MIXED.sub(lambda m: m.group(0).replace(".", ""), text)
    spelled = [m.group(0)[1] for m in _SPACED_LETTERS.finditer(text) if m.group(0)[1] in "._"]
    text = _SPACED_LETTERS.sub(_collapse_spaced, text)
    if SHORT_RUNS_ON and len(spelled) >= 2:
        text = _SHORT_RUN.sub(lambda m: m.group(0).replace(m.group(1), "") if m.group(1) in spelled else m.group(0), text)
    text = _SPACE_BETWEEN_CJK.sub("", text)
    text = _SLASHED_CJK.sub(lambda m: re.sub("[/|]", "", m.group(0)), text)
    text = _SYMBOL_SPLIT_CJK.sub(lambda m: m.group(0).replace(m.group(1), ""), text)
    text = _PICTOGRAPH_IN_CJK.sub("", text)
    text = _PLACEHOLDER.sub(_placeholder, text.lower())
    text = _WS.sub(" ", text)
    text = _NEWLINES.sub("\n", text)
    return text.strip()


def basic_fold(text: str) -> str:
    """Only the harmless folds (NFKC, case, whitespace): the baseline for "was it obfuscated?"."""
    text = _PLACEHOLDER.sub(_placeholder, unicodedata.normalize("NFKC", text).translate(_QUOTES).lower())
    text = _WS.sub(" ", text)
    return _NEWLINES.sub("\n", text).strip()


def prepare(text: str) -> ScreeningText:
    """Fold ``text`` and append every hidden or encoded piece, folded the same way."""
    base = unicodedata.normalize("NFKC", text)
    base = _INVISIBLE.sub("", base)
    hidden = extract_hidden(base)
    main = fold(text)
    hidden += decode_all(main)
    parts = [main] + [fold(content) for _kind, content in hidden]
    return ScreeningText(
        text="\n".join(p for p in parts if p),
        hidden=tuple(kind for kind, _ in hidden),
        hidden_texts=tuple(content for _, content in hidden),
        altered=main != basic_fold(text),
    )


def normalize_for_screening(text: str) -> str:
    """The canonical lowercase text the guard screens, hidden content appended.

    >>> normalize_for_screening("ＩＧＮＯＲＥ previous")
    'ignore previous'
    """
    return prepare(text).text
