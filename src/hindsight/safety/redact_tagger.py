"""A learned second opinion for redaction: a per-token logistic regression over shape and context.

The rules in ``redact*.py`` name each format they know; a new writer brings formats nobody wrote a rule
for ("Steam Guard code Y7K2P", "新值 xT9k...", "(qa / gr33nTomato)"). This tagger looks at every
*candidate value* the rules left alone (a token with a digit, mixed case or a symbol, or a run of digit
groups) and scores it from what it looks like (character classes, shape, length, entropy, digit/letter
mix) and where it sits (the words and Chinese characters before and after it, cue words in EN/ZH, the
separator before it - ":" "=" "是" "为" -, quotes, a ``KEY=`` name). A candidate above the threshold is
redacted with a typed placeholder chosen from its shape and cue (:func:`kind_of`).

Look-alikes stay untouched two ways: the model was trained on them (versions, hashes, ids, prices, public
hotlines, placeholders, from the released blind rounds and ``scripts/redact_synth.py``), and a few shapes
are never candidates at all (placeholders like ``${DB_PASSWORD}``, versions, URLs, emails, what the rules
already took). Weights: ``safety/data/redact_tagger.json``, written by ``scripts/train_redact_tagger.py``
(seeded); inference is pure Python (a dict look-up per feature).
"""

from __future__ import annotations

import bisect
import itertools
import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hindsight.safety.redact_contacts import is_public_contact
from hindsight.safety.redact_cues import NOT_SECRET_CODE
from hindsight.safety.redact_phones import is_quantity
from hindsight.safety.validators import cn_id_valid, iban_valid, looks_random, luhn_valid, shannon_entropy

Span = tuple[str, int, int]

WEIGHTS = Path(__file__).parent / "data" / "redact_tagger.json"

# A run of digit groups ("7559 3618 2047 0501", "+86 186-0213-7795", "336 071") or one value-shaped token.
_CANDIDATE = re.compile(
    r"\+?\d{1,5}(?:[ -]\d{2,5}){1,5}(?![\w])|(?:[A-Za-z0-9_\-.+!#$%*~/@^?]|&(?![A-Za-z_]\w*=))+(?:==?(?![A-Za-z0-9]))?"
)  # "&name=" ends a value: a query string's parameters are separate candidates
_URL = re.compile(r"(?i)(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,30}+://[^\s\"'<>，。；）]+|\bwww\.[^\s\"'<>，。；）]+")
# A crypt-format password hash ($argon2id$v=19$m=...,t=3,p=4$salt$hash, $2b$12$..., $6$salt$hash): commas split it into
# tokens, so the whole hash is blocked like a URL.
_CRYPT_HASH = re.compile(r"\$(?:argon2\w*|2[abxy]?|[156]|scrypt|pbkdf2[-\w]*)\$[^\s\"'，。；]+")
_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_DATE_TIME = re.compile(r"^(?:19|20)\d{2}[-/.](?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])(?:[ T]\d{1,2})?$")  # "2024-03-15 08"
_VERSION = re.compile(r"(?i)^v?\d+(?:\.\d+){1,3}(?:[-+.~_][0-9a-z]+(?:\.[0-9a-z]+)*)*$")  # 6.5.0-35, 1.9.3-alpine3.19
# Never candidates: placeholders (${DB_PASSWORD}, your-key, changeme), hashes that name their algorithm
# (sha512-..., sha256:..., bcrypt $2b$...), base64 of a PNG/JPEG/GIF/ZIP/PDF file, file names.
_NOT_A_VALUE = re.compile(
    r"(?i)^(?:\$\{?\w+\}?|%\w+%|x{3,}|(\d)\1{3,}|\*{3,}|\.{3,}|your[_-].*|changeme|redacted.*|example.*|dummy.*|"
    r"(?:sha|md)\d*[-:].*|0x[0-9a-f]{40}|(?-i:iVBORw0KGgo|/9j/|R0lGOD|UEsDB|JVBERi).*|\$2[abxy]?\$.*|\$argon2.*|[\w.-]+\.(?:txt|json|ya?ml|toml|ini|cfg|conf|env|md|csv|log|py|js|ts|go|rs|java|"
    r"sh|sql|xml|html?|pdf|docx?|xlsx?|png|jpe?g|gz|tgz|zip|tar|xz|deb|rpm|whl|jar|exe|dmg|iso|pem|crt|key|lock))$"
)
_CJK = re.compile(r"[\u4e00-\u9fff]")
# A hyphenated compound of words with no digit: "SMS-forwarding", "read-only", "API-based", "e-mail".
_WORD_COMPOUND = re.compile(r"^(?:[A-Z]{2,5}|[a-z]+)(?:-[a-z]+){1,3}[.,;:!?]?$")
# A model or product name: an acronym, a version, a variant ("GPT-4o-mini", "GPT-3.5-turbo", "RTX-4090Ti" stays a
# candidate only without the acronym head). "Summer-2024" (a word and a year) stays a candidate.
_MODEL_NAME = re.compile(r"^[A-Z]{2,6}-\d+(?:\.\d+)?(?:[a-z]{1,2}(?:-[a-z]+)*|(?:-[a-z]+)+)$")
_SINGLE_CASE_HEX = re.compile(r"[0-9a-f]{16,}|[0-9A-F]{16,}")
# Values whose kind the rules own and validate (an ID or card number failing its checksum stays), public keys,
# and codes that are not secrets by name ("area code 415", "promo code", "error code").
_OWNED_BEFORE = re.compile(
    r"(?i)(?:身份证|证件号|id card|卡号|card (?:number|no\.?)|public key|公钥|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-\S+|"
    r"会议号|会议\s?id|meeting\s+(?:id|number|no\.?)|webinar\s+id|"  # a meeting ID joins a call; its passcode is the secret
    r"\b(?:ean|upc|gtin|isbn|barcode)\b|条形码|条码|商品码|"  # product numbers
    r"\b(?:git\s+)?(?:tag|branch)(?:\s+(?:is|name|named))?\s*[:=]?|"  # a tag or branch name
    r"(?:会员|积分|公交|交通|饭|校园|门禁|健身|图书|借书|员工|学生|考勤)卡号?|\b(?:loyalty|membership|library|transit|rewards?)\s+card|"
    r"\b(?:" + "|".join(sorted(NOT_SECRET_CODE)) + r")\s+codes?)[^\n，。,;；]{0,12}$"
)
# An identifier a service prints for support and logs, announced a little further back: "the CloudFront request ID
# from the error page: Xk3v...", "trace_id=...", "请求 ID：..." - it names one request, it opens nothing.
_REQUEST_ID_BEFORE = re.compile(
    r"(?i)(?:\b(?:request|trace|correlation|span|execution|event|incident|message|cf-ray|ray|transaction|operation)[ _-]?ids?\b|"
    r"\btracking\s+(?:number|no\.?|#|id|code)|运单号|快递单号|物流单号|"
    r"请求\s?id|追踪\s?id|链路\s?id|请求号|流水号)[^\n。;；]{0,40}$"
)
# A payment processor's object ID ("ch_3OqK...", "pi_3OqK...", "cus_N8x..."): a reference to a charge, intent or customer,
# not a credential (its secret keys are sk_/rk_ and a client secret carries "_secret_").
_OBJECT_ID = re.compile(r"^(?:ch|pi|py|cus|in|ii|sub|si|re|txn|evt|prod|price|acct|pm|po|tr|src|seti|cs|dp|du|ba|card|tok|plan|"
                        r"coupon|promo|ipi|pyr|sched|cbtxn|file|link)_[A-Za-z0-9]{10,40}$")
# A Wi-Fi network's name, which people keep with its password (skipped by find_tagged, kept as a training negative): "Wi-Fi at the cabin is 'PineCone-42', password is ...",
# "network name is X", "SSID X", "WiFi 叫 X", "名称 X" - no password word between the cue and the value.
_NETWORK_NAME_BEFORE = re.compile(
    r"(?i)(?:\b(?:ssid|network(?:\s+name)?)|wi-?fi(?:(?:(?!pass|pw\b|key|密码)[^\n,，。;；:：]){0,30}?\b(?:is|named|called)|\s*(?:名称?|名字|叫)))"
    r"(?:\s*(?:is|[:：]|是|为|还是))?\s*[\"'“‘「]?$|(?:名称|名字还是|名字是?|名叫)\s*[:：]?\s*[\"'“‘「]?$"
)
# A public key announced a little further back: "Public key (for verifying releases): RWQf6...".
_PUBLIC_BEFORE = re.compile(r"(?i)(?:public[ _-]?key|pubkey|公钥)[^\n。;；]{0,44}$")
_UNIT_AFTER = re.compile(r"(?i)\s*(?:%|ms\b|s\b|secs?\b|seconds?\b|min(?:ute)?s?\b|h(?:ou)?rs?\b|days?\b|weeks?\b|years?\b|[kmgt]i?b\b|"
                         r"px\b|rpm\b|qps\b|x\b|秒|毫秒|分钟|小时|天|周|年|个月|次|倍|元|块|人|台|行|条|张)")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
# A record's key, not its value: an identifier followed by ":" or "=" and a quoted value ('s3.secretKey: "h7Gs..."',
# '"db.password": "..."'); the value after it is the candidate.
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[.-][A-Za-z0-9_]+)*")
_KEY_AFTER = re.compile(r"[\"']?\s*(?:=>|[:=])\s*[\"'`\[{]")
_SPLIT_NAME = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")

# Cue lexicon, EN and ZH: what a value near these words tends to be. Classes, not keywords: the model weighs them.
_CUES: dict[str, re.Pattern[str]] = {
    "pw": re.compile(r"(?i)pass(?:word|wd|phrase|code)?\b|\bpwd\b|\bpw\b|\bpin\b|login|credential|creds|sign in|"
                     r"密码|口令|登录|账号|帐号|用户名|解锁"),
    "key": re.compile(r"(?i)key|token|secret|\bsid\b|\bak\b|\bsk\b|auth|bearer|api|signing|webhook|"
                      r"密钥|秘钥|私钥|令牌|凭证|凭据|签名|授权"),
    "code": re.compile(r"(?i)\bcodes?\b|otp|2fa|mfa|verif|one[- ]time|guard|magic|"
                       r"验证码|动态|校验码|口令|取件码|门禁"),
    "card": re.compile(r"(?i)\bcard\b|visa|master|amex|jcb|\bcvv|\bcvc|security code|expir|valid thru|exp\b|"
                       r"信用卡|银行卡|卡号|安全码|有效期|到期|过期"),
    "acct": re.compile(r"(?i)account|iban|sort code|routing|swift|\bbic\b|wire|transfer|bank|"
                       r"账户|账号|帐户|开户|银行|支行|对公|转账|汇款"),
    "phone": re.compile(r"(?i)phone|mobile|cell|call|tel\b|whatsapp|text me|sms|"
                        r"手机|电话|微信|联系"),
    "new": re.compile(r"(?i)\bnew\b|changed|rotated|reset|now\b|set to|"
                      r"新值|新的|改成|改为|换成|重置|设置为|设置成|更新"),
    "public": re.compile(r"(?i)support|hotline|helpdesk|service|official|public|toll[- ]free|customer|reception|"
                         r"客服|热线|官方|前台|公开|总机|服务"),
    "hash": re.compile(r"(?i)sha\d*|md5|hash|checksum|digest|commit|\bgit\b|fingerprint|etag|crc|"
                       r"哈希|校验和|摘要|提交|指纹"),
    "id": re.compile(r"(?i)order|ticket|invoice|issue|\bpr\b|build|job|request|trace|tracking|sku|case|run|"
                     r"\bref|uuid|\bid\b|part|model|serial|\bno\.|charge|isbn|issn|\bean\b|upc|gtin|asin|doi|订单|工单|单号|编号|编码|料号|型号|发票|批次|流水|运单|序列号|商户号"),
    "ver": re.compile(r"(?i)version|release|\bv\d|upgrade|bump|pin(?:ned)?\b|==|版本|升级|发布"),
    "money": re.compile(r"(?i)price|cost|\$|€|¥|usd|eur|rmb|budget|salary|fee|元|价格|费用|预算|万"),
    "shop": re.compile(r"(?i)checkout|discount|coupon|promo|voucher|% off|\bsale\b|cart|优惠|折扣|满减|下单|券"),
    "fake": re.compile(r"(?i)example|placeholder|dummy|sample|fake|test|mock|template|env|environ|"
                       r"示例|样例|占位|模板|测试|环境变量"),
}
_FEATURE_CHARS = str.maketrans({c: "A" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
                               | {c: "a" for c in "abcdefghijklmnopqrstuvwxyz"}
                               | {c: "9" for c in "0123456789"})


@dataclass(frozen=True)
class Candidate:
    start: int
    end: int
    value: str


def candidates(text: str, skip: Iterable[tuple[int, int]] = ()) -> list[Candidate]:
    """Value-shaped tokens of ``text`` outside ``skip`` spans, URLs and emails."""
    blocked = sorted([*skip, *(m.span() for m in _URL.finditer(text)), *(m.span() for m in _CRYPT_HASH.finditer(text))])
    reach = list(itertools.accumulate((e for _, e in blocked), max))  # the furthest end among the first i spans
    starts = [s for s, _ in blocked]
    out: list[Candidate] = []
    for m in _CANDIDATE.finditer(text):
        start, end = m.span()
        value = m.group(0)
        trimmed = value.rstrip(".,;:?)]}>\"'")
        end -= len(value) - len(trimmed)
        value = trimmed.lstrip("([{<\"'")
        start = end - len(value)
        i = bisect.bisect_left(starts, end)  # spans starting before the candidate's end; one overlaps if it reaches past start
        if len(value) < 3 or (i and reach[i - 1] > start):
            continue
        digits = sum(c.isdigit() for c in value)
        letters = sum(c.isalpha() for c in value)
        if digits == 0:
            inner = value[1:]
            if not (any(c.isupper() for c in inner) and any(c.islower() for c in value)) and letters == len(value):
                continue  # a plain word ("Netflix", "hello", "ICBC")
            if letters >= len(value) - 1 and not any(c.isupper() for c in inner):
                continue  # "re-run", "e.g."
        elif digits < 3 and letters == 0:
            continue  # "12", "4B." short numbers
        if (_EMAIL.match(value) or _VERSION.match(value) or _NOT_A_VALUE.match(value) or _DATE_TIME.match(value)
                or _WORD_COMPOUND.match(value) or _MODEL_NAME.match(value)):
            continue
        if (text[start - 1 : start], text[end : end + 1]) in (("<", ">"), ("{", "}")):
            continue  # <base64-encoded>, <your-token>, ${API_TOKEN}, {{ secret }}
        if _IDENTIFIER.fullmatch(value) and _KEY_AFTER.match(text, end):
            continue  # a record key ("s3.secretKey": "...")
        if (_SINGLE_CASE_HEX.fullmatch(value) or _OWNED_BEFORE.search(text, max(0, start - 28), start)
                or _PUBLIC_BEFORE.search(text, max(0, start - 60), start) or _OBJECT_ID.match(value)
                or _REQUEST_ID_BEFORE.search(text, max(0, start - 60), start)):
            continue  # a hex digest is a hash unless a rule's credential label says otherwise; see _OWNED_BEFORE
        if letters == 0 and re.search(r"\d[,.]$", text[max(0, start - 2) : start]):
            continue  # "3,450": the tail of a number with a thousands separator
        if letters == 0 and (is_quantity(text, start, end) or is_public_contact(value) or _UNIT_AFTER.match(text, end)):
            continue  # "3600 秒", "total events: 13872645019", a 400 / toll-free service line
        out.append(Candidate(start, end, value))
    return out


def _shape(value: str) -> str:
    s = value.translate(_FEATURE_CHARS)
    s = re.sub(r"[^Aa9]", "#", s)
    return re.sub(r"(.)\1+", r"\1", s)[:8]


def _bucket(x: float, edges: tuple[float, ...]) -> int:
    return next((i for i, e in enumerate(edges) if x < e), len(edges))


CueIndex = dict[str, tuple[list[int], list[int]]]


def cue_index(text: str) -> CueIndex:
    """Every cue match of ``text``, per class (starts, ends): computed once per text, so a long text with many
    candidates costs one pass per cue class, not one search per candidate and window."""
    out: CueIndex = {}
    for name, pat in _CUES.items():
        spans = [m.span() for m in pat.finditer(text)]
        out[name] = ([a for a, _ in spans], [b for _, b in spans])
    return out


def _cues(index: CueIndex, lo: int, hi: int, prefix: str) -> list[str]:
    """The cue classes with a match inside text[lo:hi]."""
    found = []
    for name, (starts, ends) in index.items():
        i = bisect.bisect_left(starts, lo)
        while i < len(starts) and starts[i] < hi:
            if ends[i] <= hi:
                found.append(prefix + name)
                break
            i += 1
    return found


def features(text: str, c: Candidate, index: CueIndex | None = None) -> list[str]:
    """Feature names for one candidate (binary features; the model is a sum of their weights).
    ``index``: :func:`cue_index` of ``text``, when several candidates of one text are scored."""
    index = index if index is not None else cue_index(text)
    v = c.value
    f = ["bias"]
    up, lo = sum(ch.isupper() for ch in v), sum(ch.islower() for ch in v)
    dg = sum(ch.isdigit() for ch in v)
    sy = len(v) - up - lo - dg
    n = len(v)
    f.append("cls=" + "".join("1" if x else "0" for x in (up, lo, dg, sy)))
    f.append(f"len={_bucket(n, (4, 5, 6, 7, 9, 13, 17, 25, 41))}")
    f.append(f"dig={_bucket(dg / n, (0.01, 0.3, 0.6, 0.99))}")
    f.append(f"ent={_bucket(shannon_entropy(v), (2.0, 2.5, 3.0, 3.5, 4.0, 4.5))}")
    shape = _shape(v)
    f.append("shape=" + shape)
    f.append(f"shape_len={shape}/{min(n, 20)}")
    if looks_random(v, 12):
        f.append("random")
    if re.fullmatch(r"[0-9a-fA-F]+", v) and n >= 16:
        f.append(f"hex{n if n in (32, 40, 64) else ''}")
    f.extend(_validity(v))
    if re.fullmatch(r"[\d +-]+", v):
        groups = re.split(r"[ -]", v.lstrip("+"))
        f.append(f"digits={len(re.sub(r'[^0-9]', '', v))}/{len(groups)}")
        if v.startswith("+"):
            f.append("plus")
    if re.fullmatch(r"\d{1,4}[-/.]\d{1,2}(?:[-/.]\d{1,4})?", v):
        f.append("datelike")
    if re.fullmatch(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+", v):
        f.append("envname")
    if re.fullmatch(r"[a-z]+(?:[_.-][a-z0-9]+)+", v):
        f.append("snake")
    if "@" in v:
        f.append("at")
    lead = re.match(r"[A-Za-z]{2,5}(?=[^A-Za-z]|$)", v)
    if lead:
        f.append("lead=" + lead.group(0).lower())
    before = text[max(0, c.start - 48) : c.start]
    after = text[c.end : c.end + 24]
    # The separator right before the value: ":" "=" "是" "为" "（" a quote, "/", or a space after a word.
    sep = re.search(r"(\S{0,2})\s*$", before)
    sep_text = sep.group(1) if sep else ""
    f.append("sep=" + (sep_text[-1] if sep_text and not sep_text[-1].isalnum() else ("cjk" if _CJK.search(sep_text) else "w")))
    if sep_text and _CJK.search(sep_text[-1]):
        f.append("prevzh1=" + sep_text[-1])
    zh = "".join(_CJK.findall(before[-12:]))
    if len(zh) >= 2:
        f.append("prevzh2=" + zh[-2:])
    if len(zh) >= 3:
        f.append("prevzh3=" + zh[-3:])
    f.extend("zhbi=" + zh[i : i + 2] for i in range(max(0, len(zh) - 8), len(zh) - 1))
    words = [w.lower() for w in _WORD.findall(before[-40:])]
    for i, w in enumerate(reversed(words[-3:])):
        f.append(f"w-{i + 1}={w}")
        f.append("wb=" + w)
    kv = re.search(r"([A-Za-z][\w.-]*)[\"']?\s*(?:=|:|=>)\s*[\"']?$", before)
    if kv:
        f.extend("kv=" + p.lower() for p in _SPLIT_NAME.findall(kv.group(1))[-3:])
    nxt = _WORD.match(after.lstrip(" \"'"))
    if nxt:
        f.append("n1=" + nxt.group(0).lower())
    zh_after = "".join(_CJK.findall(after[:6]))
    if zh_after:
        f.append("nextzh=" + zh_after[:2])
    if re.match(r"\s*[/|]\s*\S", after) or re.search(r"\S\s*/\s*$", before):
        f.append("slashpair")
    if re.search(r"[\"'`“‘]$", before) or re.match(r"^[\"'`”’]", after):
        f.append("quoted")
    if re.search(r"[(（]\s*$", before[-3:]) or re.search(r"[(（][^)）]{0,30}$", before):
        f.append("inparen")
    f.extend(_cues(index, max(0, c.start - 16), c.start, "cue1="))
    f.extend(_cues(index, max(0, c.start - 48), c.start, "cue="))
    f.extend(_cues(index, c.end, c.end + 24, "cuen="))
    return f


def _validity(v: str) -> list[str]:
    """What the value's own structure says: a check digit that verifies (Luhn, ISO 7064 for a Chinese ID, IBAN
    mod-97), a UnionPay prefix, a UUID, an EVM address (public), a four-class password shape."""
    out = []
    joined = re.sub(r"[ -]", "", v)
    if joined.isdigit() and 13 <= len(joined) <= 19:
        out.append("luhn" if luhn_valid(joined) else "noluhn")
        if joined.startswith("62") and len(joined) >= 16:
            out.append("unionpay")
    if len(joined) == 18 and cn_id_valid(joined.upper()):
        out.append("cnid")
    if re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}", joined) and iban_valid(joined):
        out.append("iban")
    if re.fullmatch(r"(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", v):
        out.append("uuid")
    if re.fullmatch(r"0x[0-9a-fA-F]{40}", v):
        out.append("evm_address")
    if len(v) >= 8 and all(any(p(ch) for ch in v) for p in (str.isupper, str.islower, str.isdigit)) and re.search(r"[^\w]|_", v):
        out.append("four_classes")
    return out


@dataclass(frozen=True)
class TaggerModel:
    """``threshold`` for values of 10+ characters; a short value (a code, a build tag, a PIN-like number) is where
    look-alikes crowd, so it needs ``short_threshold``."""

    weights: dict[str, float]
    threshold: float
    short_threshold: float = 0.0

    def needed(self, value: str) -> float:
        return max(self.threshold, self.short_threshold) if len(value) < 10 else self.threshold

    def score(self, feats: list[str]) -> float:
        z = sum(self.weights.get(x, 0.0) for x in feats)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def load_model(path: Path | str | None = None) -> TaggerModel | None:
    """The shipped weights (or those at ``path``); None when the file is absent (redaction is then rules only)."""
    return _load(str(Path(path or WEIGHTS)))


@lru_cache(maxsize=4)
def _load(path: str) -> TaggerModel | None:
    p = Path(path)
    if not p.exists():
        return None
    data = json.loads(p.read_text(encoding="utf-8"))
    return TaggerModel(dict(data["weights"]), float(data["threshold"]), float(data.get("short_threshold", 0.0)))


_CVV_CUE = re.compile(r"(?i)cvv|cvc|cid\b|security code|\bcode\b|安全码|校验码|背面")
_EXPIRY = re.compile(r"^(?:0[1-9]|1[0-2])\s*/\s*(?:\d{2}|20\d{2})$")
_OTP_CUE = _CUES["code"]
_IM_CUE = re.compile(r"(?i)微信|wechat|weixin|\bQQ\b|telegram|whatsapp|\bline\s+id|signal")


def kind_of(text: str, c: Candidate) -> str:
    """The placeholder kind for a tagged value, from its shape and the cue before it."""
    v = c.value
    before = text[max(0, c.start - 24) : c.start]
    digits = re.sub(r"\D", "", v)
    only_digits = bool(re.fullmatch(r"[\d +-]+", v))
    if _EXPIRY.match(v):
        return "card_expiry"
    if only_digits and len(digits) in (3, 4) and _CVV_CUE.search(before) and _CUES["card"].search(text):
        return "cvv"
    if len(v) <= 10 and _OTP_CUE.search(before) and not _CUES["pw"].search(before[-12:]):
        return "otp"
    if only_digits and (v.startswith("+") or _CUES["phone"].search(before)) and 7 <= len(digits) <= 15:
        return "phone"
    if only_digits and len(digits) >= 8 and _CUES["acct"].search(before):
        return "bank_account"
    if _IM_CUE.search(before[-12:]) and not _CUES["pw"].search(before[-12:]):
        return "other_id"  # a messaging handle ("微信：zhanglawyer88") is a contact, not a password
    if _CUES["pw"].search(before):
        return "password"
    if len(v) >= 16 and (_CUES["key"].search(before) or (looks_random(v, 16) and re.fullmatch(r"[\w./+=-]+", v))):
        return "api_key"
    return "password"


def find_tagged(text: str, taken: Iterable[tuple[int, int]] = (), model: TaggerModel | None = None) -> list[Span]:
    """Spans the model calls secret among the candidates outside ``taken`` (the rules' findings)."""
    m = model or load_model()
    if m is None or not text:
        return []
    out: list[Span] = []
    found = candidates(text, taken)
    index = cue_index(text) if found else {}
    for c in found:
        if _NETWORK_NAME_BEFORE.search(text, max(0, c.start - 48), c.start):
            continue  # a network name: a training negative (writers keep it), never redacted
        if m.score(features(text, c, index)) >= m.needed(c.value):
            out.append((kind_of(text, c), c.start, c.end))
    return out
