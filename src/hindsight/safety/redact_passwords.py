"""Passwords: a value after a password label (EN/ZH, with or without a separator word), a short label with an
explicit separator ("pw=x"), a login and its password written as a pair ("admin / x", "me@x.com / x"), a
well-known account name and a password-shaped value ("root/x"), and the password in a URL's user info.

Split out of :mod:`hindsight.safety.redact`, which runs `find_passwords` with its other finders and resolves
overlaps. A value that is prose about passwords ("the password is required"), a template placeholder or a
variable name stays.
"""

from __future__ import annotations

import re

from hindsight.safety.validators import PLACEHOLDER_VALUE, group_span

Span = tuple[str, int, int]

# Words that follow "password:"/"password is" in prose about passwords, not in a
# disclosure of one ("the password is required", "password: must be 12 chars").
# Round 47 switch: the URL user info reader stops at the end of the URL (measured: docs/benchmarks.md, round 47).
URL_AUTHORITY_ENDS = True

_PASSWORD_STOPWORDS = frozenset(
    ["a", "an", "the", "is", "are", "was", "were", "be", "been", "being", "must", "should", "shall", "will", "would", "can", "could", "may", "might", "need", "needs", "needed", "required", "optional", "mandatory", "reset", "resets", "changed", "change", "expired", "expires", "expiring", "stored", "saved", "hashed", "encrypted", "salted", "set", "not", "too", "very", "incorrect", "wrong", "correct", "invalid", "valid", "weak", "strong", "long", "short", "empty", "missing", "blank", "same", "different", "hidden", "visible", "protected", "case-sensitive", "sensitive", "in", "on", "at", "of", "for", "with", "from", "by", "to", "into", "now", "still", "also", "only", "never", "always", "your", "my", "our", "their", "its", "this", "that", "these", "those", "here", "there", "policy", "policies", "field", "fields", "rules", "requirements", "requirement", "length", "strength", "manager", "managers", "prompt", "prompts", "hint", "hints", "reuse", "reused", "rotation", "rotated", "updated", "update", "generated", "random", "secure", "insecure", "unknown", "forgotten", "forgot", "lost", "locked", "unchanged", "something", "nothing", "anything", "same-as", "shared", "sharing", "auth", "login", "authentication", "based", "less", "free", "protected", "what", "which", "who", "whatever", "how", "when", "where", "why", "it", "he", "she", "they", "we", "you", "i", "me", "him", "her", "them", "us", "yes", "no", "ok", "okay", "sent", "emailed", "texted", "stolen", "leaked", "compromised", "fine", "good", "simple", "easy", "obvious", "known", "public", "available", "literally", "just", "simply", "actually", "currently", "basically", "written", "attached", "below", "above", "printed", "see", "ask", "check", "contact", "none", "n/a", "read", "loaded", "pulled", "fetched", "taken", "kept", "injected", "provided", "supplied", "passed", "managed", "handled", "configured", "defined", "derived", "pulled", "rotating", "masked", "hidden", "filled", "inherited", "mounted", "sourced",
     # words a question or a request puts right after the noun
     "again", "please", "pls", "anyway", "anyways", "then", "later", "today", "tomorrow", "yet", "first", "ever", "though",
     "right", "lol", "haha"]
)


def _stopword(value: str) -> bool:
    """A stop word, read with a question or exclamation mark at its end stripped: "what's the POS admin password
    again?", "the password please!" name no value."""
    return value.lower().rstrip("?!") in _PASSWORD_STOPWORDS


# A quoted value may hold spaces: "passphrase 'blue whale 42'".
_QUOTED = r"(?:'(?P<q1>[^'\n]{3,64})'|\"(?P<q2>[^\"\n]{3,64})\"|“(?P<q3>[^”\n]{3,64})”|‘(?P<q4>[^’\n]{3,64})’|`(?P<q5>[^`\n]{3,64})`)"
_PASSWORD_EN = re.compile(
    r"(?i)(?<![A-Za-z0-9_])(?:[A-Za-z0-9]+_)*(?:password|passwd|passphrase|passcode|requirepass|pwd|pin(?: code)?|(?:unlock|master|secret|vault|recovery) phrase)[\"']?"
    r"(?:\s+(?:for|of|on|to)\s+(?:the\s+|my\s+|our\s+|your\s+)?[\w.@/-]{1,40}(?:\s+[\w.@/-]{1,20})?(?=\s+(?:is|was|are)\s))?"
    r"(?P<sep>\s*(?:[:=]|=>|：)\s*|\s+(?:was changed to|is changed to|changed to|was set to|is set to|set to|is now|is|was|to|are|"
    r"has been changed to|has been set to|got changed to|updated to|was updated to|is updated to|reset to|was reset to|has been reset to|"
    r"rotated to|now set to)(?:\s+(?:literally|just|simply|still|actually|currently|basically|now|always)(?=\s))?+\s*:?\s+|\s*(?:设置成了?|设成了?|改成了?|改为|设为|设置为|更新为|更新成了?|修改为|修改成了?|"
    r"重置为|重置成了?|变成了?|变为|是|为|换成了?)\s*|\s+)(?:" + _QUOTED + r"|"
    r"[\"'`“]?(?P<value>[^\s\"'`,;，。；”]{3,64}))"
)
# "pass: x", "pw=x", "login admin / x": short labels only count with an explicit separator.
_PASSWORD_SHORT = re.compile(
    r"(?i)(?<![A-Za-z0-9_])(?:[A-Za-z0-9]+_)*(?:pass|pw|pwd|passwort|mot de passe)(?P<ssep>\s*(?:[:=]|：)|(?<!pass)\s+(?:is|was)(?:\s+(?:changed|set|reset|updated)\s+to)?(?=\s)|(?<=pw)\s+|(?<=pwd)\s+|\s+(?=[`\"']))\s*[\"'`]?(?P<value>[^\s\"'`,;，。；]{3,64})"
)
_USER_SLASH_PASS = re.compile(
    r"(?i)(?:\b(?:login|account|credentials|creds|user(?:name)?)|账号|帐号|登录)\s*[:：]?\s*[\w.@+-]{2,40}\s*(?:/|\s\|\s)\s*(?P<value>[^\s/\"'`,;，。；]{4,64})"
)
# "qa.tester@example.com / Winter2024!": a login and its password written as a pair.
# "Grafana login for the team: admin / velvet-Moon7": a labelled "user / password" pair (spaced slash).
_LABELLED_PAIR = re.compile(r"[：:]\s*[\w.+-]{2,40}\s+/\s+(?P<value>[^\s/\"'`,;，。；]{4,64})")
_EMAIL_SLASH_PASS = re.compile(r"(?<![\w.+-])[\w.+-]++@[\w-]+(?:\.[\w-]+)+\s*(?:/|\s\|\s)\s*(?P<value>[^\s/\"'`,;，。；]{4,64})")
_PASSWORD_ZH = re.compile(
    r"(?i)(?:密码|口令|登录密码|支付密码|开机密码|wifi ?密码|(?-i:PIN)码?|取款密码)(?:我|他|她|已经|已|被|都|也|现在|就|还|仍然|一直|其实|应该|默认|统一|暂时|先|又){0,2}(?P<sep>\s*(?:是|为|:|：|=|改成了?|改为|设置为|设置成|设成了?|设为|"
    r"换成了?|更新为|更新成了?|修改为|修改成了?|重置为|重置成了?|变成了?|变为|是：|是:)\s*(?:[\u4e00-\u9fff]{1,6}?(?:的|那个|这个|那串|这串|那组)\s*)?|\s+|(?<=[码令])(?=[!-~]))(?:" + _QUOTED + r"|[\"'“]?(?P<value>[!-~]{3,64}))"
)
# "reads creds from auth.txt, which has two lines:\nr.hendricks\nWinterM00n$tack": after a credential word, a line holding
# only a login and the next line holding only a password-shaped value (OpenVPN's auth-user-pass file, a .netrc-like note).
_LINE_PAIR = re.compile(
    r"(?i)(?:\b(?:creds|credentials|login|log-?in\s+details|username\s+and\s+password|auth-user-pass)\b|账号密码|用户名和密码|登录信息|凭据|凭证)"
    r"[^\n]{0,80}\n[ \t]*[\w.@+-]{2,40}[ \t]*\n[ \t]*(?P<value>[^\s\"'`]{6,64})[ \t]*(?=\n|$)"
)
# scheme://user:password@host: the password runs to the *last* "@" before the host, so one with an
# unescaped "@" inside ("p@ss@db") is still removed whole; %-escapes are part of it. Round 47 (blind r41): the
# authority ends where the URL does - at "/", "?", a space, a Han character or a full-width mark (a "#" may be in a password: it stays in) - so an "@"
# in the prose after the URL ("...@print.shelter.lan，其中%40就是@符号") never pulls the host into the password.
_URL_END = r"/\s?\u3000-\u303f\u4e00-\u9fff\uff00-\uffef" if URL_AUTHORITY_ENDS else r"/\s?"
_URL_CREDENTIALS = re.compile(
    r"(?i)(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*+://[^/\s:@?#]*:([^" + _URL_END + r"]{3,200})@(?=[\w.\[-])"
)
# ";databaseName=Payroll;user=svc": JDBC / ADO.NET parameters after the host; the password key among them is read by the
# labelled readers, and an "@" in its value is no user-info separator.
_PARAMETER_LIST = re.compile(r";\s*[A-Za-z_][\w.-]*=")
# A DSN without a scheme: Go's "user:pass@tcp(host:3306)/db", "user:pass@10.0.0.5:6379", "u:p@db.internal:5432".
_DSN_CREDENTIALS = re.compile(
    r"(?<![\w.:/@-])[\w.-]{1,64}:(?P<value>[^\s/:@\"'`]{3,200})@(?=(?:tcp|udp|unix)\(|(?:\d{1,3}\.){3}\d{1,3}(?::\d{2,5})?(?![\w.])|"
    r"[\w-]+(?:\.[\w-]+)+:\d{2,5}(?!\d))"
)
# "root/Mysql_root_x9", "admin:Adm1n#2024": a well-known account name and a password-shaped value.
_ADMIN_PAIR = re.compile(
    r"(?i)(?<![\w/.@:-])(?:root|admin|administrator|sa|postgres|ubuntu|ec2-user|pi|oracle|guest|sysadmin|superuser)"
    r"\s*[/:]\s*(?P<value>[^\s/\"'`,;，。；:]{6,64})(?![/\w])"
)


def _password_value(m: re.Match[str]) -> tuple[str, str]:
    """The captured value and the name of its group (a quoted alternative or the bare ``value``)."""
    for name in ("q1", "q2", "q3", "q4", "q5", "value"):
        if m.group(name) is not None:
            return m.group(name), name
    return "", "value"


# Digits and a symbol or an upper-case letter: what a password looks like when nothing else says so.
_STRONG = re.compile(r"(?=.*\d)(?=.*[^\w\s]|.*[A-Z])")
_CJK = re.compile(r"[\u4e00-\u9fff]")
# A variable or attribute named like a secret, passed on in code: password, self.password, cfg.db_pwd.
_VARIABLE = re.compile(r"(?:[a-z_][a-z0-9_]*\.)*[a-z_]*(?:pass(?:word|wd)?|pwd|secret|token)[a-z0-9_]*\)?")
_QUERY_REST = re.compile(r"&[A-Za-z_]\w*=.*\Z", re.DOTALL)  # "password=x&useSSL=false": the value ends before the next parameter
# "password to X" names a value only after a verb that sets one ("set / change / reset the password to X"); after
# "send / give / forward the password to X", X is where it goes (attack round 29: the recipient was redacted as the
# password, and the guard then judged an order to send a credential out as a note that merely carries one).
_SETS_VALUE = re.compile(r"(?i)\b(?:set|sets|setting|change[sd]?|changing|reset|resets|resetting|update[sd]?|updating|rotate[sd]?|"
                         r"rotating|switch(?:ed|es|ing)?|make|made|put)\b[^.;!?\n]{0,40}\Z")


def find_passwords(text: str) -> list[Span]:
    """Password findings (kind, start, end) in ``text``, before overlaps with other kinds are resolved."""
    out: list[Span] = []
    for m in _PASSWORD_EN.finditer(text):
        raw, group = _password_value(m)
        value = _QUERY_REST.sub("", raw).rstrip(".,;:)]}\"'")
        if len(value) < 3 or _stopword(value) or PLACEHOLDER_VALUE.match(value) or raw.startswith("("):
            continue  # "Password (optional): ..." annotates the field
        if "=" in m.group("sep") and "\n" in m.group("sep"):
            continue  # round 39: "DB_PASSWORD=" then a line break: an empty value, the next line is another setting
        if group == "value" and m.group("sep").isspace() and not re.search(r"[\d\W_]", value):
            continue  # "password manager", "pin the tab": bare word after the label is prose
        if m.group("sep").strip().lower().rstrip(":").strip() == "to" and not _SETS_VALUE.search(text, 0, m.start()):
            continue  # "send the password to ops@x": a recipient, not the password
        if m.group(0)[:3].lower() == "pin" and not value.isdigit():
            continue  # a PIN is a number; "pin numpy==1.26.4" pins a version
        if group != "value" and len(value.split()) > (8 if "phrase" in m.group(0).lower() else 4):
            continue  # a quoted sentence about the password, not the password (a passphrase may run to 8 words)
        if _CJK.search(value) or _VARIABLE.fullmatch(value):
            continue  # "db.password 改成从环境变量": prose; "password=password", "pwd=self.password": a variable
        start, _ = m.span(group)
        out.append(("password", start, start + len(value)))
    for m in _PASSWORD_ZH.finditer(text):
        value, group = _password_value(m)
        if PLACEHOLDER_VALUE.match(value) or (m.group(0).startswith("PIN") and not value.isdigit()):
            continue
        # "密码88886666hz": a value glued to the label is judged like one after a bare space (password-shaped only).
        if (group == "value" and not m.group("sep").strip() and not (re.search(r"\d", value) and re.search(r"[A-Za-z\W_]", value))
                and not (value.isdigit() and len(value) >= (4 if m.group(0).startswith("PIN") else 6))):
            continue  # "密码 reset" / "密码 123": only password-shaped values without a separator word
        out.append(("password", *group_span(m, group)))
    for pattern in (_PASSWORD_SHORT, _USER_SLASH_PASS, _EMAIL_SLASH_PASS, _LABELLED_PAIR, _ADMIN_PAIR):
        for m in pattern.finditer(text):
            value = m.group("value").rstrip(".,;:)]}\"'")
            if (len(value) < 3 or _stopword(value) or PLACEHOLDER_VALUE.match(value)
                    or _VARIABLE.fullmatch(value)):
                continue
            if pattern is not _PASSWORD_SHORT and not (re.search(r"\d", value) and re.search(r"[A-Za-z]", value)):
                continue  # "user / admin" is a role pair, not a password
            if (value.isdigit() and len(value) < 6) or (re.fullmatch(r"[\d./%:-]+", value) and not value.isdigit()):
                continue  # "tests pass: 312 of 312", "pass: 412/412", "pass: 97.5%"
            if pattern is _PASSWORD_SHORT and m.group("ssep").isspace() and not _STRONG.search(value):
                continue  # "pw" and a bare space: only a value shaped like a password
            out.append(("password", *group_span(m, "value")))
    for m in _LINE_PAIR.finditer(text):
        value = m.group("value")
        if _STRONG.search(value) and re.search(r"[a-z]", value) and not PLACEHOLDER_VALUE.match(value):
            out.append(("password", *m.span("value")))
    for m in _URL_CREDENTIALS.finditer(text):
        if PLACEHOLDER_VALUE.match(m.group(1)) or m.group(1).lower() in ("password", "passwd", "pass", "pwd", "secret", "pw"):
            continue  # "postgres://USER:PASSWORD@HOST/DB" documents the format
        if _PARAMETER_LIST.search(m.group(1)):
            continue  # "jdbc:sqlserver://host:1433;user=u;password=p@ss": a "@" inside a parameter list, not user info
        out.append(("password", *m.span(1)))
    for m in _DSN_CREDENTIALS.finditer(text):
        value = m.group("value")
        if not (PLACEHOLDER_VALUE.match(value) or _stopword(value)
                or value.lower() in ("password", "passwd", "pass", "pwd", "secret", "pw") or value.startswith(("$", "%", "{", "<"))):
            out.append(("password", *m.span("value")))
    return out
