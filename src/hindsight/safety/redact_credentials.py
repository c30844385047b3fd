"""Credentials in the shapes the label-then-value patterns of :mod:`hindsight.safety.redact` miss.

Each finder pairs a *structural* cue with a test of the value, never a list of known texts:

- the value before its label ("uses 'letmein24' as his password", "'Xy9!' 是密码");
- a label with a qualifier before its separator ("password for the NAS: x", "Mot de passe du routeur : x",
  "密码（测试环境）：x", "pass - x"), and environment names that end in a credential word (PGPASSWORD=x);
- basic auth given as code or a command: ``auth=('user', 'pw')``, ``HTTPBasicAuth(...)``,
  ``htpasswd -b file user pw``, ``docker login -p pw``, ``credentials are user:pw``;
- Oracle's ``user/pw@host`` (sqlplus, expdp ...);
- the secret half of a key pair shorter than the generic 30-character rule, when a secret label names it;
- a key, token or 密钥 separated from its value by a few Chinese words ("key 我放这了：<hex>").

A value must look like a secret (a digit or a symbol among letters, or random by entropy and character
classes); placeholders (``<password>``, ``${PASS}``, ``PASSWORD``, ``****``) and variable names stay.
"""

from __future__ import annotations

import base64
import re

from hindsight.safety.validators import looks_random, shannon_entropy

Span = tuple[str, int, int]

_PW_WORD = (r"(?:password|passwd|passphrase|passcode|pass|pwd|pw|pin(?: code)?|mot de passe|passwort|contraseña|senha|密码|口令|"
            r"(?:network|wi-?fi|wpa2?|wpa3|wlan|wireless|security)\s+key|pre-?shared\s+key|\bpsk)")
_VALUE = r"(?P<value>[^\s\"'`,;，。；)）]{3,64})"
_QVALUE = r"(?:'(?P<q1>[^'\s]{3,64})'|\"(?P<q2>[^\"\s]{3,64})\"|“(?P<q3>[^”\s]{3,64})”|`(?P<q4>[^`\s]{3,64})`)"

# "'letmein2024' as his password", "\"Xy9!\" is the wifi password", "「abc123」是密码".
_VALUE_FIRST = re.compile(
    _QVALUE + r"\s*(?:(?:as|is|was|for)\s+(?:the\s+|my\s+|his\s+|her\s+|our\s+|their\s+|your\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?:password|passphrase|passcode|pin)\b|(?:就)?(?:是|作为|当)[\u4e00-\u9fff]{0,6}?(?:密码|口令))",
    re.IGNORECASE,
)
# A label, a short qualifier, then an explicit separator: "password for the NAS: x", "密码（测试环境）：x", "pass - x".
_QUALIFIED = re.compile(
    r"(?i)(?<![A-Za-z0-9_])(?P<word>" + _PW_WORD + r")(?![A-Za-z])(?P<qual>[^\n:：=\"'`@/]{0,30}?)\s*(?P<sep>[:：=]|\s[-–—]\s|\s(?:is|was)\s)\s*[\"'`“]?" + _VALUE
)
# Environment names ending in a credential word: PGPASSWORD=x, MYSQL_PWD=x, REDISCLI_AUTH=x.
_ENV_NAME = re.compile(
    r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*(?:PASSWORD|PASSWD|PASS|PWD|_AUTH|SECRET|TOKEN|APIKEY|_KEY)\s*[:=]\s*[\"']?" + _VALUE
)
_BASIC_CODE = re.compile(
    r"(?:\bauth\s*=\s*[(\[]|HTTPBasicAuth\s*\(|BasicAuth\s*\(|\.basic_auth\s*\(|\bwithBasicAuth\s*\(|setBasicAuth\s*\()"
    r"\s*['\"][^'\"\n]{1,40}['\"]\s*,\s*['\"](?P<value>[^'\"\n]{3,64})['\"]"
)
_CLI = re.compile(
    r"(?:\bhtpasswd\s+-\w*b\w*\s+(?:-\w+\s+)*\S+\s+[\w.@-]{1,40}\s+(?P<v1>[^\s'\"]{3,64})|"
    r"\b(?:docker|podman|nerdctl|buildah|helm|oras|skopeo|crane|twine|npm|cf|oc)\b[^\n|;]{0,80}?\s(?:-p|--password)(?:=|\s+)['\"]?(?P<v2>[^\s'\"]{3,64})|"
    r"\b(?:sqlplus|rman|expdp|impdp|exp|imp|sqlldr|dgmgrl)\s+(?:-\w+\s+)*[\w$.-]{1,30}/(?P<v3>[^\s@/]{3,64})@|"
    r"(?<![\w/.])[\w$.-]{1,30}/(?P<v4>[^\s@/]{3,64})@//[\w.-]+|"
    r"(?<![\w:])[\w.-]{1,60}:\d{2,5}:[\w*-]{1,40}:[\w.*-]{1,40}:(?P<v5>[^\s:]{3,64})(?!\S)|"  # a .pgpass line
    r"\b(?:http|https|httpie|ab)\s+(?:-\S+\s+)*(?:-a|--auth|-A)\s+[\w.@-]{1,40}:(?P<v6>[^\s'\"]{3,64})|"
    r"\bAUTH\s+(?:[\w-]{1,30}\s+)?(?P<v7>(?=\S*\d)[^\s'\"]{6,64}))"
)
# "credentials are preview:Pr3view", "basic auth 用 ops:Ops@2024", "登录 admin:Adm1n!".
_CUE_PAIR = re.compile(
    r"(?i)(?:\bcredentials?|\bcreds|\blogin|\bbasic[ _-]?auth|\bsign[ -]?in|\bu/p|\buser(?:name)?/pass(?:word)?|账号密码|用户名密码|账密|登录|认证)"
    r"[^\n:：]{0,24}?(?:\s(?:are|is|as|with|of|用|是)\s*|[:：]\s*|\s)(?<![/\w])[\w.@+-]{1,40}(?::|\s?/\s?)"
    r"(?P<value>[^\s:/@\"'`,;，。；)）]{3,64})(?![/\w])"
)
# "user dev_ro / pass Tm9!staging", "login: ops, pw: x": a user and a short password label written as a pair (a label
# glued to more word characters, "password_field" or "pwd_hash", is a code identifier).
_USER_PASS = re.compile(
    r"(?i)\b(?:user(?:name)?|login|acct|account)\s*[:=]?\s*[\w.@+-]{2,40}\s*[/,;|]\s*(?:pass(?:word)?|pw|pwd)(?![A-Za-z0-9_])\s*[:=]?\s*[\"'`]?" + _VALUE
)
# The secret half of a key pair, shorter than the 30-character generic rule: "secret key Lq8Zp3Rt6Yw2", "SK：...".
_SECRET_HALF = re.compile(
    r"(?i)(?:\bsecret[ _-]?(?:access[ _-]?)?key|\bapp[ _-]?secret|\bclient[ _-]?secret|\bsecret|\bSK\b|密钥|秘钥|私钥)"
    r"[\"']?(?:\s*\[[^\]\n]{0,12}\])?\s*(?:[:=：]|\bis\b|是|为)?\s*[\"'“]?(?P<value>[A-Za-z0-9/+=_-]{10,64})(?![A-Za-z0-9/+=_-])"
)
# "高德地图的 key 我放这了：<hex>": a key word, a few Chinese words, then the separator and a random value.
_KEY_AFTER_WORDS = re.compile(
    r"(?i)(?:\b(?:api[ _-]?)?key|\btoken|\bsecret|密钥|秘钥|令牌)[\u4e00-\u9fff ]{1,10}[:：]\s*[\"'“]?(?P<value>[A-Za-z0-9_\-./+=~]{16,})"
)
_PLACEHOLDER = re.compile(
    r"(?i)^(?:<.*|\$.*|\{.*|%\w+%|x{3,}|\*{3,}|\.{3,}|your[_-].*|my[_-].*|changeme|example.*|placeholder|"
    r"redacted|\[redacted.*|null|none|undefined|true|false|todo|tbd|env\..*|os\.environ.*|process\.env.*|secrets?\..*|settings\..*|"
    r"password|passwd|pass|secret|token|username|user|pwd)$"
)
_VARIABLE = re.compile(r"(?:[a-z_][a-z0-9_]*\.)+[a-z_][a-z0-9_]*|[a-z]+(?:_[a-z]+)+|[A-Z]+(?:_[A-Z]+)+")
_PROSE = re.compile(r"(?i)^(?:is|was|are|the|a|an|to|for|and|or|not|must|should|will|can|be|been|being|same|reset|required|"
                    r"policy|field|manager|change|changed|expired|at|in|on|of|with|from|by|here|there|below|above|none|empty)$")


def _secret_like(value: str, min_len: int = 6) -> bool:
    """Digits or symbols among letters, or an all-digit code of 6+: what a chosen password looks like."""
    if len(value) < min_len or _PLACEHOLDER.match(value) or _PROSE.match(value) or re.search(r"[\u4e00-\u9fff]", value):
        return False
    if "://" in value or value.startswith("[REDACTED") or re.fullmatch(r"\d{1,2}:\d{2}(?::\d{2})?", value) or re.match(r"(?:~|\.{1,2})?/", value):
        return False  # a URL, a time, a path ("pwd prints the working directory: /home/ops/app")
    has_alpha = bool(re.search(r"[A-Za-z]", value))
    has_other = bool(re.search(r"[\d\W_]", value))
    return (has_alpha and has_other and not _VARIABLE.fullmatch(value)) or (value.isdigit() and len(value) >= 6)


def _trim(m: re.Match[str], group: str) -> tuple[int, int]:
    start, end = m.span(group)
    value = m.group(group)
    stripped = re.sub(r"&[A-Za-z_]\w*=.*\Z", "", value).rstrip(".,;:)]}>\"'”。，；")
    return start, end - (len(value) - len(stripped))


def _quoted(m: re.Match[str]) -> str | None:
    return next((g for g in ("q1", "q2", "q3", "q4") if m.group(g) is not None), None)


_B64 = re.compile(r"(?<![A-Za-z0-9+/=])(?=[A-Za-z0-9+/]*[0-9+/A-Z])[A-Za-z0-9+/]{8,120}={0,2}(?![A-Za-z0-9+/=])")
_AUTH_CUE = re.compile(r"(?i)\bauth|\bbasic\b|\bheader|\bcredential|\bcreds\b|\blogin\b|认证|鉴权|凭证|请求头|账号")
_PAIR = re.compile(r"[\x21-\x7e]{1,64}:[\x20-\x7e]{1,64}")


def _basic_pair(value: str) -> bool:
    """Base64 that decodes to ``user:password`` (printable, one colon at least): a Basic credential."""
    if len(value) % 4:
        return False
    try:
        decoded = base64.b64decode(value, validate=True).decode("ascii")
    except (ValueError, UnicodeDecodeError):
        return False
    return bool(_PAIR.fullmatch(decoded))


# A long random token in a sentence that names a key, token or secret, whatever its shape ("the Figma token for
# CI lives here: figd_...", "凭证 ATATT3x..."), unless the sentence is about a hash, a commit or a public address.
_TOKEN_CUE = re.compile(r"(?i)\b(?:api|key|keys|token|tokens|secret|secrets|credential|credentials|bearer|pat|webhook)\b|"
                        r"密钥|秘钥|令牌|凭证|凭据|访问码")
_NOT_SECRET = re.compile(r"(?i)\b(?:sha\d*|md5|hash|checksum|digest|integrity|commit|cid|ipfs|wallet address|address|tx|txid|"
                         r"transaction|public[ _-]?key|fingerprint|request[ _-]?id|trace[ _-]?id|authorized_keys|known_hosts)\b|"
                         r"\bssh-(?:rsa|ed25519|dss)\b|\becdsa-sha2|公钥|哈希|校验|摘要|地址|指纹")
_LONG_TOKEN = re.compile(r"(?<![\w/+.-])(?=[\w-]*[A-Z])(?=[\w-]*[a-z])(?=[\w-]*\d)[A-Za-z0-9][\w-]{23,}(?![\w/+.-])")
_SENTENCE_END = re.compile(r"[.!?]\s|[。！？\n]")


def _sentence(text: str, start: int, end: int) -> str:
    left = max((m.end() for m in _SENTENCE_END.finditer(text, max(0, start - 160), start)), default=max(0, start - 160))
    right = _SENTENCE_END.search(text, end, end + 120)
    return text[left:start] + " " + text[end:right.start() if right else min(len(text), end + 120)]


def find_credentials(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _B64.finditer(text):
        if _basic_pair(m.group(0)) and _AUTH_CUE.search(_sentence(text, m.start(), m.end())):
            out.append(("password", m.start(), m.end()))
    for m in _LONG_TOKEN.finditer(text):
        value = m.group(0)
        around = _sentence(text, m.start(), m.end())
        if (_TOKEN_CUE.search(around) and not _NOT_SECRET.search(around) and looks_random(value, 24)
                and shannon_entropy(value) >= 3.5 and not _VARIABLE.fullmatch(value) and not value.startswith("AAAA")):
            out.append(("api_key", m.start(), m.end()))
    for m in _VALUE_FIRST.finditer(text):
        group = _quoted(m)
        if group and _secret_like(m.group(group), 4):
            out.append(("password", *m.span(group)))
    for m in _QUALIFIED.finditer(text):
        qual = m.group("qual")
        if re.search(r"(?i)\b(?:is|was|must|should|policy|field|length|manager|reset|hint|rules?)\b|要求|长度|策略|规则|重置|找回", qual):
            continue  # "password policy: ...", "password must ...: ..." talk about passwords
        start, end = _trim(m, "value")
        value = text[start:end]
        word = m.group("word").lower()
        sep = m.group("sep").strip()
        if sep in ("is", "was") and not re.search(r"key|psk", word):
            continue  # "password ... is x" belongs to redact.py's own patterns; here only for Wi-Fi keys
        numeric_pin = word.startswith(("pin", "passcode", "密码")) and value.isdigit() and 4 <= len(value) <= 12
        if word.startswith("pin") and not numeric_pin:
            continue  # "pin the image by digest: ...": the verb; a PIN is a number
        if (_secret_like(value) or numeric_pin) and not (sep in "-–—" and not re.search(r"\d", value)):
            out.append(("password", start, end))
    for m in _ENV_NAME.finditer(text):
        start, end = _trim(m, "value")
        value = text[start:end]
        name = m.group(0).split("=")[0].split(":")[0].strip()
        is_password = bool(re.search(r"PASS|PWD|AUTH$", name))
        if is_password and _secret_like(value, 4) or (not is_password and looks_random(value) and not _PLACEHOLDER.match(value)):
            out.append(("password" if is_password else "api_key", start, end))
    for m in _BASIC_CODE.finditer(text):
        if _secret_like(m.group("value"), 4):
            out.append(("password", *m.span("value")))
    for m in _CLI.finditer(text):
        group = next(g for g in ("v1", "v2", "v3", "v4", "v5", "v6", "v7") if m.group(g) is not None)
        if group == "v7" and not re.search(r"(?i)redis|valkey|keydb", text):
            continue  # AUTH <password> is the Redis command
        if not _PLACEHOLDER.match(m.group(group)) and not m.group(group).startswith("$"):
            out.append(("password", *_trim(m, group)))
    for m in _CUE_PAIR.finditer(text):
        start, end = _trim(m, "value")
        value = text[start:end]
        if _secret_like(value) and not value.isdigit():  # "login host:8080" is a port
            out.append(("password", start, end))
    for m in _USER_PASS.finditer(text):
        start, end = _trim(m, "value")
        if _secret_like(text[start:end]):
            out.append(("password", start, end))
    for m in _SECRET_HALF.finditer(text):
        value = m.group("value")
        mixed = bool(re.search(r"[a-z]", value) and re.search(r"[A-Z]", value) and re.search(r"\d", value))
        hexy = bool(re.fullmatch(r"[0-9a-f]{16,64}|[0-9A-F]{16,64}", value)) and len(set(value.lower())) >= 8
        if (mixed or hexy) and not _PLACEHOLDER.match(value) and not _VARIABLE.fullmatch(value):
            out.append(("api_key", *m.span("value")))
    for m in _KEY_AFTER_WORDS.finditer(text):
        value = m.group("value").rstrip(".,;:")
        hexy = bool(re.fullmatch(r"[0-9a-fA-F]{32,64}", value)) and len(set(value.lower())) >= 8
        if hexy or looks_random(value, 20):
            out.append(("api_key", m.start("value"), m.start("value") + len(value)))
    return out


# The ID half of an access-key pair ("Access Key ID 8f3c...", "SecretId AKID...", "AK 是 AKLT...", "Account SID AC7f...",
# "keyID 0052..."): redacted only in a note that also carries a credential (see redact.find_sensitive), where it
# names which key leaked. Alone, a key ID is an identifier and stays.
_KEY_ID = re.compile(
    # Round 17: a label glued to Chinese ("报关平台开放接口给的appId=", "小程序AppID wx...") has no \b before it (Han
    # characters are word characters), so the label's edges are ASCII look-arounds.
    r"(?i)(?:access[ _-]?key(?:[ _-]?id)?|access[ _-]?id|accesskeyid|(?<![A-Za-z0-9_])key[ _-]?id|secret[ _-]?id|(?-i:(?<![A-Za-z0-9_])AK(?![A-Za-z0-9_]))|"
    r"account[ _-]?sid|(?-i:(?<![A-Za-z0-9_])AppKey(?![A-Za-z0-9_]))|client[ _-]?id|(?<![A-Za-z0-9_])app[ _-]?id)"
    r"\s*[\"']?\s*(?:[:=：]|\bis\b|是|为)?\s*[\"']?(?P<value>[A-Za-z0-9_-]{12,64})(?![A-Za-z0-9_-])"
)
# Round 17: the ID half of a pair of settings that share a stem ("MINIO_ROOT_USER=... MINIO_ROOT_PASSWORD=...",
# "FOO_ACCESS_KEY=... FOO_SECRET_KEY=..."): the user / access-key setting whose sibling password or secret setting is in
# the same note. Only a generated value goes (letters mixed with digits, 8+ characters, no word-joined name): a database
# login such as DB_USER=billing_rw names an account and stays, as the writers keep it.
_STEM_ID = re.compile(
    r"(?<![A-Za-z0-9_])(?P<stem>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*?)_(?:USER(?:NAME)?|ACCESS_KEY(?:_ID)?|KEY_ID|CLIENT_ID|APP_ID)"
    r"\s*[=:]\s*[\"']?(?P<value>[A-Za-z0-9_.-]{8,64})(?![A-Za-z0-9_.-])"
)
_STEM_SECRET = r"_(?:PASSWORD|PASSWD|PASS|PWD|SECRET(?:_ACCESS)?(?:_KEY)?|CLIENT_SECRET|APP_SECRET)\s*[=:]"


# Round 18: a pair written "ID / secret" after a pair word ("Old pair DLR-3K1P-06MM / xY7#cF2hJ9pS is revoked", "旧密钥对
# AK7731QX / Zp9!rT2m 已停用"): in a credential note both halves go (a revoked pair still names what leaked).
_SLASH_PAIR = re.compile(
    r"(?i)(?:(?<![A-Za-z])(?:pair|keys?|creds?|credentials?)(?![A-Za-z])|密钥对|密钥|凭据|凭证)[^\n.;。；:：]{0,24}?(?<![A-Za-z0-9_-])"
    r"(?P<id>[A-Za-z0-9_-]{8,64})\s*/\s*(?P<secret>[^\s/,;，。；\u4e00-\u9fff]{8,64})(?![^\s/,;，。；\u4e00-\u9fff])"
)


def _slash_pairs(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _SLASH_PAIR.finditer(text):
        ident, secret = m.group("id"), m.group("secret").rstrip(".,)")
        if _generated(ident) and re.search(r"\d", secret) and re.search(r"[A-Za-z]", secret) and shannon_entropy(secret) >= 3.0:
            out += [("api_key", *m.span("id")), ("password", m.start("secret"), m.start("secret") + len(secret))]
    return out


def _generated(value: str) -> bool:
    """Letters and digits mixed in one run ("seqadm5rAa", "labadmin7731x"), not words joined by "_" / "-" ("billing_rw")."""
    parts = [p for p in re.split(r"[-_.]+", value) if p]
    mixed = [p for p in parts if re.search(r"\d", p) and re.search(r"[A-Za-z]", p)]
    return bool(mixed) and sum(map(len, mixed)) >= 0.6 * sum(map(len, parts)) and shannon_entropy(value) >= 3.0


# A hex secret after a compound credential label ("Auth Token 9c4e...", "app secret: 5f1a..."): hex alone is a hash,
# but a label that names a credential says otherwise.
_LABELLED_HEX = re.compile(
    r"(?i)(?:\b(?:auth|access|api|app|bot|refresh|session|client|signing|webhook|master|license|licence)[ _-]?(?:token|key|secret|code)|"
    r"\bapp[ _-]?id(?=\s*=))"  # "?appid=<hex>": a query parameter that carries the key itself
    r"\s*[\"']?\s*(?:[:=：]|\bis\b|是|为)?\s*[\"']?(?P<value>[0-9a-f]{32,64})(?![0-9a-z])|"
    # "the vendor emailed our key: <hex>": a key someone owns or was given; not a cache / partition / primary key
    r"\b(?:our|my|your|their|his|her|its|the)\s+(?:(?!cache|idempotency|partition|primary|foreign|sort|row|object|dedup|lookup|hash|"
    r"routing|shard|public|gpg|pgp|ssh|host|cdn|s3|map|dict)[a-z-]{2,20}\s+)?key\s*(?:[:=：]|\bis\b)\s*[\"']?(?P<v2>[0-9a-f]{32,64})(?![0-9a-z])|"
    # "the vendor gave us key <hex>": a key handed over needs no separator
    r"\b(?:gave|sent|issued|emailed|shared|assigned)\s+(?:us|me|him|her|them|you)\s+(?:(?:a|an|the|our|their|new|api|access)\s+){0,3}key\s+"
    r"(?P<v3>[0-9a-f]{32,64})(?![0-9a-z])"
)
# What says a labelled hex is a digest, not a key.
_DIGEST_NEAR = re.compile(r"(?i)\b(?:md5|sha-?\d*|checksum|digest|hash(?:ed)?|fingerprint|etag|commit|cache)\b|校验|哈希|指纹|摘要")


# Code, not a value: a dotted path of identifiers with no digit ("var.aws_secret_key", "localStorage.getItem",
# "config.auth.token") or any identifier path called as a function ("getToken(").
_CODE_PATH = re.compile(r"(?:[A-Za-z_$][A-Za-z_$]*\.)+[A-Za-z_$][A-Za-z_$]*")


def code_expression(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is a code path or a called name where a secret's value would stand."""
    value = text[start:end]
    return bool(_CODE_PATH.fullmatch(value) or (text[end : end + 1] == "(" and re.fullmatch(r"[\w$.]+", value)))


# Round 45 (blind r40): a statement keyword of common languages. A value never crosses a line break into code:
# "if not password:\n    raise ValueError(...)" names no password, its next line is the branch's body.
_STATEMENT_WORDS = frozenset(
    "raise return throw if elif else for while print pass break continue def class const let var await assert try except "
    "catch finally yield import from with del async func fn go defer panic echo exit switch case default".split()
)
_CALL_AFTER = re.compile(r"[ \t]+[A-Za-z_][\w.]*\(|\(")


def code_statement(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` opens a line under a line break and reads as a statement there (a keyword, or a call
    ``raise ValueError(`` / ``print(``): code, not a value the line above announced."""
    i = start
    while i > 0 and text[i - 1] != "\n" and text[i - 1].isspace():  # only the blanks before it (linear over all findings: the runs are apart)
        i -= 1
    if i == 0 or text[i - 1] != "\n":
        return False
    value = text[start:end]
    if value in _STATEMENT_WORDS or re.match(r"[A-Za-z_][\w.]*\(", value):
        return True  # "raise", "abort(400)"
    return bool(re.fullmatch(r"[A-Za-z_]\w*", value) and _CALL_AFTER.match(text, end))


def looks_like_hash(value: str) -> bool:
    return bool(re.fullmatch(r"[0-9a-fA-F]{16,}", value))


def find_labelled_hex(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _LABELLED_HEX.finditer(text):
        if m.group("value"):
            out.append(("api_key", *m.span("value")))
        elif not _DIGEST_NEAR.search(text, max(0, m.start() - 60), min(len(text), m.end() + 40)):
            out.append(("api_key", *m.span("v2" if m.group("v2") else "v3")))
    return out


def find_key_ids(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _KEY_ID.finditer(text):
        value = m.group("value")
        if value[:2].lower() != "0x" and re.search(r"\d", value) and re.search(r"[A-Za-z]", value) and shannon_entropy(value) >= 3.0:
            out.append(("api_key", *m.span("value")))
    for m in _STEM_ID.finditer(text):
        sibling = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(m.group("stem")) + _STEM_SECRET)
        if _generated(m.group("value")) and sibling.search(text):
            out.append(("api_key", *m.span("value")))
    return out + _slash_pairs(text)


# Command lines: "mysql -uroot -pS3cret", "sshpass -p S3cret", "redis-cli -a S3cret". Round 18: the command's left edge
# is an ASCII look-around, so a command glued to Chinese ("脚本里写死了curl -u ...") is still read (Han characters are
# word characters: \w and \b never see the edge).
_CLI_PASSWORD = re.compile(
    r"(?<![A-Za-z0-9_-])(?:(?:mysql|mysqldump|mysqladmin)\b[^\n|;]{0,60}?\s-p(?:'(?P<v7>[^'\n]{3,64})'|\"(?P<v8>[^\"\n]{3,64})\"|(?P<v1>[^\s'\"，。；、]{3,64}))|"
    r"sshpass\s+-p\s*(?P<v2>\S{3,64})|"
    r"redis-cli\b[^\n|;]{0,60}?\s-a\s+(?P<v3>\S{3,64})|"
    r"curl\b[^\n|;]{0,80}?\s(?:-u|--user)\s*[\"']?[^\s:\"']{1,40}:(?P<v4>[^\s\"'，。；、\u4e00-\u9fff]{3,64})|"
    r"(?i:identified\s+by(?:\s+password)?)\s+['\"](?P<v5>[^'\"\n]{3,64})['\"]|"
    r"jdbc:oracle:[a-z]+:[\w$.-]{1,40}/(?P<v6>[^\s@/]{3,64})@)"
)


# "我用 elastic:Es9pQ2xLm7 直接 curl 了 ...": a bare user:password pair in a clause that uses it against a service
# (never an image tag such as python:3.12-Slim, a hex digest or a host:port).
_CLIENT_PAIR = re.compile(
    r"(?<![\w/.@:-])[a-z][\w.-]{1,31}:(?P<value>(?=[^\s:@/]*\d)(?=[^\s:@/]*[A-Z])(?=[^\s:@/]*[a-z])[^\s:@/\"'`,;，。；()（）\u4e00-\u9fff]{6,64})(?![A-Za-z0-9_/@:.-])"
)
_CLIENT_CUE = re.compile(r"(?i)(?<![A-Za-z0-9_])(?:curl|wget|httpie|postman|basic|auth|login|log\s+in|sign\s+in|credentials?|ssh|ftp|mysql|psql|redis-cli)(?![A-Za-z0-9_])|"
                         r"https?://|登录|登陆|认证|账号|凭据|用户名")


def find_cli_passwords(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _CLIENT_PAIR.finditer(text):
        clause = text[max(0, m.start() - 40) : m.end() + 60]
        if _CLIENT_CUE.search(clause) and not looks_like_hash(m.group("value")) and not re.match(r"\d+\.\d", m.group("value")):
            out.append(("password", *m.span("value")))
    for m in _CLI_PASSWORD.finditer(text):
        group = next(g for g in ("v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8") if m.group(g) is not None)
        out.append(("password", *m.span(group)))
    return out
