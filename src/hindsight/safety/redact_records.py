"""Values judged by the key that names them, in any record syntax (round 12b).

Structured text - ``.env`` lines, YAML, JSON, INI/TOML, a SQL column list aligned to its ``VALUES`` tuple, a CSV
header aligned to its rows, ``-d key=value``, a form label (``卡号：``) - says what each value is by its key. This module
reads every syntax into one form, (key, value span), and judges the pair once:

- a key that names a secret (password/passwd/pwd/psk, secret/token/api_key/access_key, card/cvv, iban/account
  number, ssn, 密码/口令/密钥/令牌/卡号/身份证/账号...) makes its value a secret, when the value has the shape the key
  promises (a card or account number is digits, an IBAN passes mod 97, a Chinese ID a province and birth date, an SSN is issuable);
- a key that names a setting about the secret rather than the secret (``password_min_length``, ``token_ttl``,
  ``password_hash``, ``card_type``, 密码长度) names nothing secret;
- a key that names a public or non-secret thing (support, hotline, helpdesk, 客服, 热线; sha, checksum, digest, hash,
  version, build, commit, 版本, 校验) keeps its value: it is reported as kind ``public`` so no finder and no tagger
  redacts it (``redact_vet`` shields public ranges);
- a reference is never a secret: ``${DB_PASSWORD}``, ``$TOKEN``, ``<YOUR_KEY>``, ``:pw``, ``os.environ[...]``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hindsight.safety.redact_documents import document_key, document_number
from hindsight.safety.validators import PLACEHOLDER_VALUE, cn_id_shape, cn_id_valid, iban_valid, luhn_valid, ssn_valid

Span = tuple[str, int, int]
Pair = tuple[str, int, int]  # key, value start, value end

# --------------------------------------------------------------------------- reading records

_HAN = "\u4e00-\u9fff"
# key <sep> value, the value quoted or running to the next delimiter. ":" followed by "//" is a URL, not a separator.
_KV = re.compile(
    rf"(?<![\w{_HAN}.$-])[\"']?(?P<key>[A-Za-z{_HAN}][\w{_HAN}.-]{{0,39}})[\"']?[ \t]*(?:=>|:=|=|:(?!//)|：)[ \t]*"
    r"(?:\"(?P<v1>[^\"\n]{1,200})\"|'(?P<v2>[^'\n]{1,200})'|(?P<v3>(?!{)[^\s\"'`,;&}\])\[（）【】，。；]{1,200}))"
)
# A record item starts a line or follows a delimiter, a CLI flag or SQL's SET / WHERE / AND (quotes and spaces
# between); an unquoted value ends the line or meets a delimiter.
_ITEM_START = re.compile(
    r"(?:^|[\n{,;&?(\[|，；]|(?<![\w-])(?:-[dHF]|--data(?:-\w+)?|--header|--form|export|set|SET|where|WHERE|and|AND))[ \t\"']*\Z"
)
_ITEM_END = re.compile(r"[ \t]*(?:$|[\n,;&})\]，。；（#]|\.(?:\s|$)|(?:AND|OR|and|or|WHERE|where)\b)")
_INSERT = re.compile(
    rf"(?i)\binsert\s+into\s+[\w{_HAN}.`\"]+\s*\((?P<cols>[^()]{{1,400}})\)\s*values\s*\((?P<vals>[^;\n]{{1,2000}}?)\)\s*(?:[,;]|$)"
)
_SQL_LITERAL = re.compile(r"'(?P<q>(?:[^'\n]|'')*)'|(?P<b>[^\s,()']+)")
_CSV_LINE = re.compile(r"[^\n]+")
# curl / wget user info: "-u user:pass", "--user \"$USER:$PASS\"": the part after the colon is the password.
_CLI_USER = re.compile(r"(?<!\S)(?:-u|--user|--http-user)[ =]+([\"']?)[^\s:\"']+:(?P<value>[^\s\"']+)\1(?!\S)")


def _sql_pairs(text: str) -> Iterator[Pair]:
    for m in _INSERT.finditer(text):
        cols = [c.strip().strip("`\"") for c in m.group("cols").split(",")]
        vals = [(v.start("q"), v.end("q")) if v.group("q") is not None else v.span("b")
                for v in _SQL_LITERAL.finditer(text, m.start("vals"), m.end("vals"))]
        if len(cols) == len(vals):
            yield from ((c, a, b) for c, (a, b) in zip(cols, vals, strict=True))


def _field_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    out, pos = [], start
    for i in range(start, end + 1):
        if i == end or text[i] == ",":
            a, b = pos, i
            while a < b and text[a] in " \"'":
                a += 1
            while b > a and text[b - 1] in " \"'\r":
                b -= 1
            out.append((a, b))
            pos = i + 1
    return out


def _csv_pairs(text: str) -> Iterator[Pair]:
    """Rows aligned to a header: a line of two or more comma-separated names, then lines with as many fields."""
    if "," not in text or "\n" not in text:
        return
    header: list[str] | None = None
    for line in _CSV_LINE.finditer(text):
        fields = _field_spans(text, *line.span())
        names = [text[a:b] for a, b in fields]
        if header is not None and len(fields) == len(header):
            yield from ((k, a, b) for k, (a, b) in zip(header, fields, strict=True))
            continue
        header = names if len(names) >= 2 and all(re.fullmatch(rf"[A-Za-z{_HAN}][\w{_HAN} .-]{{0,39}}", n) for n in names) else None


def csv_row_heads(text: str) -> Iterator[tuple[int, int]]:
    """The first cell of each data row right after a header that ends in a secret's column ("user,password" then
    "nas-01,..."): a label-then-value reader takes the header's last name as a label and the next line's first cell
    as its value; here the cell's own column says what it is."""
    for m in re.finditer(r"(?m)^[^\n,]+(?:,[^\n,]*)+,[ \t\"']*(?P<last>[^\n,\"']+)[\"']?[ \t]*\n(?P<cell>[^\n,]+),", text):
        if key_class(m.group("last").strip()) in ("password", "api_key"):
            yield m.span("cell")


# A log line's key=value items (round 14): two or more, each glued, separated by spaces ("user=ana id_no=... seat=14C");
# each value ends at the next space, wherever the run starts ("订票系统日志 passenger_id_no=... seat=14C").
# A value ends at a space, a comma or a semicolon; a full stop or colon at its end closes the sentence.
_LOGFMT = re.compile(r"(?<![^\s{_HAN}])[A-Za-z_][\w.-]{0,39}=[^\s=\"',;]+(?:[ \t]+[A-Za-z_][\w.-]{0,39}=[^\s=\"',;]*)+"
                     .replace("{_HAN}", _HAN))
_GLUED = re.compile(r"(?P<key>[A-Za-z_][\w.-]{0,39})=(?P<value>[^\s=\"',;]*)")


def _logfmt_pairs(text: str) -> Iterator[Pair]:
    for run in _LOGFMT.finditer(text):
        for m in _GLUED.finditer(text, run.start(), run.end()):
            start = m.start("value")
            yield m.group("key"), start, start + len(m.group("value").rstrip(".:"))


def record_pairs(text: str) -> Iterator[Pair]:
    """Every (key, value start, value end) the text's record syntax states."""
    logfmt = {(a - len(k) - 1): (k, a, b) for k, a, b in _logfmt_pairs(text)} if "=" in text else {}
    for m in _KV.finditer(text):
        if m.start() in logfmt and m.group("v3") is not None:  # a quoted value is read as quoted
            yield logfmt.pop(m.start())
            continue
        if not _ITEM_START.search(text, max(0, m.start() - 24), m.start()):
            continue  # "All tests pass: 412/412", "My password: ...": a sentence, not a record (the label readers' job)
        group = "v1" if m.group("v1") is not None else "v2" if m.group("v2") is not None else "v3"
        start, end = m.span(group)
        if group == "v3":  # a sentence's full stop or colon is not part of an unquoted value; a "!" may be
            stripped = start + len(m.group(group).rstrip(".:!?"))
            end = stripped if _ITEM_END.match(text, stripped) else end
            if not _ITEM_END.match(text, end):  # words go on: the value is the rest of the line ("hotline: 0800 123
                line_end = text.find("\n", end)  # 4567"; "password: must contain a digit", prose, has spaces)
                line_end = len(text) if line_end < 0 else line_end
                end = start + len(text[start:line_end].rstrip(" \t.。"))
        yield m.group("key"), start, end
    yield from _sql_pairs(text)
    yield from _csv_pairs(text)
    yield from (("password", *m.span("value")) for m in _CLI_USER.finditer(text))


# --------------------------------------------------------------------------- judging a key

_KEY_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_PASSWORD_WORDS = {"password", "passwd", "pwd", "pass", "passphrase", "passcode", "psk", "pin"}
_SECRET_WORDS = {"secret", "token", "apikey", "credential", "credentials"}
_SECRET_PAIRS = ({"api", "key"}, {"access", "key"}, {"secret", "key"}, {"private", "key"}, {"signing", "key"})
# Words that turn a secret's key into a setting, a code name or a derived value (password_min_length, token_ttl,
# password_hash, card_type, card_last4, password_field, key_file): the value is not the secret.
_SETTING_WORDS = {
    "min", "max", "length", "len", "policy", "ttl", "expiry", "expires", "expiration", "lifetime", "timeout", "rounds",
    "type", "last", "last4", "field", "header", "name", "file", "path", "algo", "algorithm", "format", "changed", "at",
    "required", "require", "strength", "hash", "hashed", "digest", "salt", "id", "url", "uri", "endpoint", "label",
    "enabled", "count", "attempts", "mode", "prefix", "hint", "reset", "brand", "network", "holder", "issuer", "bin",
}
_SETTING_HAN = re.compile(r"长度|要求|提示|示例|类型|有效期|位数|规则|格式|后四位|尾号|持卡人|户名|开户行")
# Words saying the value itself is public (a hash, a checksum, a fingerprint, git's signingkey ID): public under any
# other word (password_hash). Words saying the value belongs to a public thing (a support line, a build, a version):
# public unless the key also names a secret (build_token, support_password).
_HASH_WORDS = {"sha", "sha1", "sha256", "sha512", "md5", "checksum", "digest", "crc", "hash", "hashed", "etag",
               "fingerprint", "signingkey"}
_PUBLIC_WORDS = {"support", "hotline", "helpdesk", "version", "build", "commit", "revision", "rev"}
# In a record that lists a support contact, an address key is the organisation's (a store's, a help desk's).
_CONTACT_WORDS = {"support", "hotline", "helpdesk", "phone", "email", "mail", "tel", "line", "number", "desk", "help"}
_CONTACT_VALUE = re.compile(r"\+?[\d\s().-]{6,30}")
_ADDRESS_KEY = re.compile(r"(?i)^(?:address|addr|地址|门店地址|office[_ ]address)$")
# A Han key is public when it ends in the public word (客服电话, 热线, 版本号, 校验和); "银行客服换号了" is prose, and a
# 校验码 is a one-time code, not a checksum.
_PUBLIC_HAN = re.compile(r"(?:客服|热线|售后|服务)(?:电话|热线|邮箱|号码|手机)?$|(?:版本|构建)号?$|校验(?:和|值)$|哈希值?$|摘要$|指纹$|提交$")
_ID_HAN = re.compile(r"身份证")
_ID_NUMBER_HAN = re.compile(r"证件号")
_CARD_HAN = re.compile(r"卡号")
_ACCOUNT_HAN = re.compile(r"银行账号|银行帐号|收款账号|账号|帐号|账户")
_PASSWORD_HAN = re.compile(r"密码|口令")
_SECRET_HAN = re.compile(r"密钥|秘钥|私钥|令牌")


def _words(key: str) -> set[str]:
    return {w.lower() for w in _KEY_WORDS.findall(key)}


def key_class(key: str, bank: bool = False) -> str | None:
    """What a key names: ``public``, ``password``, ``api_key``, ``card``, ``cvv``, ``bank_account``, ``national_id``,
    ``document`` (an identity document's number), or None (nothing either way). ``bank``: the text names a bank, so a bare ``account`` key is a bank account's."""
    words = _words(key)
    secret = words & (_PASSWORD_WORDS | _SECRET_WORDS) or any(p <= words for p in _SECRET_PAIRS) \
        or _PASSWORD_HAN.search(key) or _SECRET_HAN.search(key)
    if words & _HASH_WORDS or (words & _PUBLIC_WORDS or _PUBLIC_HAN.search(key)) and not secret:
        return "public"
    settings = words & _SETTING_WORDS
    # An identity document's number (round 14): id_no, idNumber, passenger_id_no, id_card, 证件号 - "id" alone is a row's.
    id_number = words & {"id", "identity"} and words & {"no", "number", "num", "card"} or _ID_NUMBER_HAN.search(key)
    if settings - ({"id"} if id_number else set()) or _SETTING_HAN.search(key):
        return None
    if _ID_HAN.search(key) or id_number or words & {"ssn"} or {"social", "security"} <= words:
        return "national_id"
    if document_key(key):
        return "document"  # round 38: "dni", "passport_no", "nie", "回乡证" - an identity document's number
    if words & {"cvv", "cvc", "cvn", "cvv2", "cvc2", "csc"}:
        return "cvv"
    if _CARD_HAN.search(key) or "card" in words and (len(words) == 1 or words & {"number", "no", "num"}):
        return "card"
    if "iban" in words or {"account", "number"} <= words or words == {"account"} and bank or {"account", "no"} <= words or _ACCOUNT_HAN.search(key) \
            or words & {"acct", "routing", "sort", "bsb"} and len(words) <= 2 and not words & {"user", "name"}:
        return "bank_account"
    if words & _PASSWORD_WORDS or _PASSWORD_HAN.search(key):
        return "password"
    if words & _SECRET_WORDS or any(p <= words for p in _SECRET_PAIRS) or _SECRET_HAN.search(key):
        return "api_key"
    return None


# --------------------------------------------------------------------------- judging a value

_REFERENCE = re.compile(r"^(?:\$\w+(?::\$\w+)?|:\w+|\?|%s|_{2,}.*|\*{2,}.*|请.*|示例.*|.*getenv.*|.*environ.*)$", re.IGNORECASE)
# Under any key: a variable, a template slot or a bound parameter, never a value ("${DB_PASS}", "<user>", ":email").
_STRICT_REFERENCE = re.compile(r"^(?:\$\{[^}]*\}\}?|\$\(.*\)|\$[A-Za-z_]\w*(?::\$[A-Za-z_]\w*)?|<[A-Za-z_ -]+>|:[a-z_]\w*|"
                               r"\{\{.*\}\}|%\w+%|(?:os\.environ|process\.env|os\.getenv|getenv)\b.*)$")
_CODE_VALUE = re.compile(r"(?i)^(?:pass(?:word|wd)?|pwd|secret|token|api_?key|(?-i:[a-z_]\w*(?:\.[A-Za-z_]\w*)+)|.*[()].*)$")
# Code where a secret's value would stand: a call (crypt(:pw, ...), getpass()), an attribute (var.db_password), the
# key's own name (password=password). Kept as public under a secret's key, so no label reader takes it either.
# Lower-case words only: "qwe.ZJ_1987" is a password and "eyJ...eyJ..." a token, though both are dotted.
_CALL_VALUE = re.compile(r"(?i)^(?:pass(?:word|wd)?|pwd|secret|token|api_?key|(?-i:[a-z_][a-z_.]{2,}\(.*|[a-z_]+(?:\.[a-z_]+)+))$")
_BANK = re.compile(r"(?i)\bbank|\biban\b|\bsort[_ ]code|\bbsb\b|\brouting|银行")


def _reference(value: str) -> bool:
    return bool(PLACEHOLDER_VALUE.match(value) or _REFERENCE.match(value) or value.lower() in {"replace_me", "changeme", "n/a"})


def _digits(value: str) -> str:
    return re.sub(r"[ -]", "", value)


def _judge(kind: str, value: str) -> str | None:
    """The kind to redact ``value`` as under a key of ``kind``, or None when its shape breaks the key's promise."""
    digits = _digits(value)
    if kind == "national_id":
        up = digits.upper()
        # Under its key the shape is enough (province and birth date, as after a cue): a typo is still someone's ID.
        # (typed cn_id only when the check character holds, as the cue finders type it)
        if cn_id_shape(up):
            return "cn_id" if cn_id_valid(up) else "national_id"
        return "national_id" if ssn_valid(value) else None
    if kind == "document":
        return "national_id" if document_number(value) else None
    if kind == "cvv":
        return "cvv" if re.fullmatch(r"\d{3,4}", value) else None
    if digits.isdigit() and len(re.findall(r"(\d)\1{3}", digits)) >= 2:
        return None  # "6217 0000 1111 2222": a made-up example, not an account
    if kind == "card":
        if not digits.isdigit() or not 12 <= len(digits) <= 19:
            return None
        return "card" if luhn_valid(digits) else "bank_account"
    if kind == "bank_account":
        if digits.isdigit() and 6 <= len(digits) <= 34 or re.fullmatch(r"\d{2}-\d{2}-\d{2}", value):
            return "bank_account"
        return "bank_account" if re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}", digits) and iban_valid(digits) else None
    # A password or key is printable ASCII without spaces; a Han phrase after 密码： is prose, a URL after token:
    # locates the key, and a name (password=password, password = var.db_password, cfg.get(...)) is code.
    if not re.fullmatch(r"[!-~]+", value) or "://" in value or _CODE_VALUE.match(value):
        return None
    if kind == "password":
        return "password" if 4 <= len(value) <= 128 else None
    if kind == "api_key":
        ok = 12 <= len(value) <= 256 and re.search(r"\d", value) and re.search(r"[A-Za-z]", value)
        return "api_key" if ok else None
    return None


# --------------------------------------------------------------------------- a nested record's parent key

# Round 29: a nested object's generic key ("number", "no", "value") names nothing alone; the key that holds the object
# says what it is ("bank_account": {"bsb": ..., "number": "10482736"}; YAML "card:" then an indented "number:").
_GENERIC_KEYS = {"number", "no", "num", "nr", "value", "digits"}
_JSON_PARENT = re.compile(rf"[\"']?(?P<key>[A-Za-z{_HAN}][\w{_HAN}.-]{{0,39}})[\"']?[ \t]*[:=][ \t]*$")
_YAML_PARENT = re.compile(rf"(?:- )?(?P<key>[A-Za-z{_HAN}][\w{_HAN}.-]{{0,39}}):[ \t]*")
_LINE = re.compile(r"(?m)^(?P<lead>[ \t]*)(?P<body>[^\n]*)")
_BRACE = re.compile(r'["{}]')


def _parent_ranges(text: str) -> list[tuple[int, int, str]]:
    """(start, end, parent key) of every JSON object that is a keyed value and every YAML block under a bare key.
    One pass over the quotes and braces, one over the lines (an indentation stack): linear in the text."""
    out: list[tuple[int, int, str]] = []
    stack: list[tuple[int, str | None]] = []
    quoted = False
    for m in _BRACE.finditer(text):
        i, ch = m.start(), m.group(0)
        if ch == '"':
            if i == 0 or text[i - 1] != "\\":  # an escaped quote inside a string changes nothing
                quoted = not quoted
        elif quoted:
            continue
        elif ch == "{":
            key = _JSON_PARENT.search(text, max(0, i - 48), i)
            stack.append((i, key.group("key") if key else None))
        elif stack:
            start, name = stack.pop()
            if name:
                out.append((start, i, name))
    blocks: list[tuple[int, int, str]] = []  # (indent, start, key) of the YAML blocks still open
    for line in _LINE.finditer(text):
        if not line.group("body").strip():
            continue
        indent = len(line.group("lead"))
        while blocks and blocks[-1][0] >= indent:
            _, start, name = blocks.pop()
            out.append((start, line.start(), name))
        bare = _YAML_PARENT.fullmatch(line.group("body"))
        if bare:
            blocks.append((indent, line.end(), bare.group("key")))
    out += [(start, len(text), name) for _, start, name in blocks]
    return sorted(out)


def _with_parents(text: str, pairs: list[Pair]) -> list[Pair]:
    """Each generic key joined to the key of the object that holds it ("bank_account number"); other keys unchanged.
    One sweep: the ranges nest, so the innermost open one is on top of the stack."""
    if not any(k.lower() in _GENERIC_KEYS for k, _, _ in pairs):
        return pairs
    ranges = _parent_ranges(text)
    out, stack, j = [], [], 0
    for key, start, end in sorted(pairs, key=lambda p: p[1]):
        while j < len(ranges) and ranges[j][0] <= start:
            stack.append(ranges[j])
            j += 1
        while stack and stack[-1][1] <= start:
            stack.pop()
        nested = key.lower() in _GENERIC_KEYS and stack and stack[-1][0] <= start < stack[-1][1]
        out.append((f"{stack[-1][2]} {key}" if nested else key, start, end))
    return out


def find_record_values(text: str) -> list[Span]:
    """Secrets named by their key, and (kind ``public``) values a public or non-secret key keeps."""
    out: list[Span] = []
    bank: bool | None = None
    pairs = _with_parents(text, list(record_pairs(text)))
    support = any(_words(k) <= _CONTACT_WORDS and _words(k) & {"support", "hotline", "helpdesk"} or _PUBLIC_HAN.search(k)
                  and re.search(r"客服|热线|售后", k) for k, _, _ in pairs)
    for key, start, end in pairs:
        value = text[start:end].strip()
        if not value:
            continue
        if _STRICT_REFERENCE.match(value):
            out.append(("public", start, end))
            continue
        if bank is None and key.lower() == "account":
            bank = bool(_BANK.search(text))  # once per text
        kind = key_class(key, bool(bank))
        if support and _ADDRESS_KEY.match(key):
            kind = "public"
        if kind is None:
            continue
        if kind == "public" and " " in value and not _ADDRESS_KEY.match(key) and not _CONTACT_VALUE.fullmatch(value):
            continue  # "Support: my cell is ...": a sentence under a public key shields nothing
        if kind == "public" or _reference(value) or kind in ("password", "api_key") and _CALL_VALUE.match(value):
            out.append(("public", start, end))
            continue
        judged = _judge(kind, value)
        if judged is not None:
            out.append((judged, start, end))
    if "," in text:
        heads = {(a, b) for _, a, b in _csv_pairs(text)}
        out += [("public", a, b) for a, b in csv_row_heads(text) if (a, b) in heads and (a, b) not in {s[1:] for s in out}]
    return out
