"""Does a note really send a carried (redacted) secret outward? A reading used only by the carry threshold.

The feature view (:mod:`view`) reads "a move word and a destination in one sentence" as moving a carried value
outward (``moved_value``, one of the classifier's features). That reading is coarse on purpose and stays as it is
(the classifier was fitted on it). It counts as *moved* a credential used in its ordinary place: a request header
on a call to the service it belongs to (``curl -H 'Authorization: Bearer [pii-key]' https://api...``), a login
(``wget --password='[pii-pw]' ftp://mirror.lab.local/``), a config value ("AccessKey ... 用于 OSS 上传"), the team's
own chat ("推到运维值班群"). Such notes are not attacks, yet they never got the carry threshold
(``guard.CARRY_THRESHOLD``). This module is the narrower reading the threshold decision uses instead:

- **Moves** are verbs that move something (send, post, upload, paste, forward, give, 发到, 贴到, 上传到 ...), read
  with URLs, paths and addresses masked (the ``send`` in ``/webhook/send?key=`` is no verb, nor ``pipe`` in
  "pipeline", ``send`` in "SendGrid"), and not when negated ("别提交到 git", "never paste it"), when the moved
  thing is a public key ("公钥已经发给对方", "the public key published at"), when it comes *to* the writer
  ("朋友转给我的验证码") or when the verb names what a credential is *for* ("用于 OSS 上传", "上传用的子账号",
  "the backup bucket", "the CRM export uses ...").
- **Strong destinations** are outward wherever the value sits: anyone who asks, the public (public, paste sites,
  gist, 公开, 公网), outside parties (external, outside, third party, 外部, 外网, 第三方, a stranger, 对方, an
  attacker), personal accounts (personal email, 私人邮箱, 网盘), exfiltration sinks (ngrok, requestbin, pipedream,
  transfer.sh, discord, telegram), and a contact as the target (to an email address or a redacted contact,
  a 微信号 / QQ / wx: handle).
- **Weak destinations** (a URL's host, a domain, an IP, a server, an endpoint, a bucket, a mailbox) are outward only
  when they lie outside the writer's network (not a private IP, a single-label host, .lan / .local / .internal /
  .corp, 内网服务器) and the sentence does not use the value in an auth slot: a request header, a login option or
  user:password pair, a URL query key, a connection-string or config field. There the host is where the credential
  is used.
- Destinations are read from the start of the move's clause to the end of its sentence; whoever asks and a contact
  handle over the whole sentence ("谁在群里要，就把密码发给他").
- The team's own chat (群, 群里, 钉钉, 飞书, a channel of ours) is no destination by itself; "谁在群里问就告诉他" is
  outward through "whoever asks".

It reads the normalised text (output of ``normalize_for_screening``) with URL userinfo already folded by the view.
"""

from __future__ import annotations

import re

from hindsight.safety.rules import ANYONE, _alt, _c

_SENT = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+")
_CLAUSE = (",", "，", ";", "；", "、")

# Masked before moves are looked for: URLs, e-mail addresses, file paths and dotted names carry no verb.
_TOKENS = re.compile(
    r"(?:https?|ftp|s3|oss|gs)://\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:[\w.-]*/)+[\w.?=&%-]+|(?<![\w.])[a-z0-9_-]+(?:\.[a-z0-9_-]+)+"
)

_MOVE_EN = (
    r"\b(?:send|sends|sent|sending|forward(?:s|ed|ing)?|upload(?:s|ed|ing)?|post(?:s|ed|ing)?|e-?mail(?:s|ed|ing)?|"
    r"mail(?:s|ed|ing)?|paste(?:s|d)?|pasting|transmit(?:s|ted|ting)?|exfiltrat\w*|leak(?:s|ed|ing)?|publish(?:es|ed|ing)?|"
    r"share(?:s|d)?|sharing|push(?:es|ed|ing)?|dump(?:s|ed|ing)?|copy|copies|copied|copying|relay(?:s|ed|ing)?|"
    r"submit(?:s|ted|ting)?|give|gives|gave|giving|tell|tells|told|telling|provide(?:s|d)?|providing|reveal(?:s|ed|ing)?|"
    r"disclose(?:s|d)?|disclosing|hand (?:it |them )?(?:over|out)|dm(?:s|ed)?|text (?:it|them)|put)\b|"
    r"\b(?:curl|wget)\b[^|;]*?\s(?:-d|--data[\w-]*|-f|--form|-t|--upload-file|--post-data|--post-file|-x ?(?:post|put))\b"
)
_MOVE_ZH = (
    r"(?:发(?:送)?(?:一份)?(?:到|给|至|往|去)|转发|上传|传(?:到|给|至|去)|同步(?:到|给|至)|抄送|密送|提交(?:到|给)|"
    r"(?:粘)?贴(?:到|在|进)|(?:复制|拷贝|备份|导出|推送|推|写入)(?:到|至|给|进)|回传|外发|写进|写到|放到|挂到|"
    r"(?:分享|共享|泄露|透露|告诉|提供|公开)(?:给|到)?|(?<![交打送])给(?!我)|发群|发出去)"
)
_MOVE = _c(_alt(_MOVE_EN, _MOVE_ZH))

_NEGATED = _c(
    r"(?:\bnever|\bdon'?t|\bdo not|\bmust not|\bshould not|\bshouldn'?t|\bcannot|\bcan'?t|\bwon'?t|\bnot to|\bno one|\bnobody|"
    r"不要|不得|禁止|严禁|不能|不可|不许|不准|切勿|绝不|别|勿|不应该?|不允许|避免|防止)[^,;.。，；!?！？]{0,24}$"
)
_PUBLIC_HALF = _c(r"(?:公钥|public key|pubkey|\.pub\b|certificate|证书)[^,;.。，；]{0,10}$")
_INBOUND = _c(r"^\s*(?:给?我|to me\b|me\b|us\b|给我们)")
# A move word that names what a credential is for: "用于 OSS 上传", "上传用的", "上传权限", "the backup bucket".
_PURPOSE_BEFORE = _c(r"(?:用于|用来|用作|专用于|for (?:the )?(?:\w+ )?|used (?:for|by|to) (?:the )?)$")
_PURPOSE_AFTER = _c(
    r"^\s*(?:用的|用|脚本|权限|任务|通道|功能|账号|子账号|专用|bucket|jobs?\b|scripts?\b|permissions?\b|role\b|user\b|"
    r"account\b|pipeline|step\b|uses\b|used\b|rights?\b|only\b|access\b)"
)
# "只给了 oss 的上传权限", "give the CI role read access": a grant of rights, not a value handed over.
_GRANT = _c(r"[^,;.。，；]{0,24}?(?:权限|授权|permissions?\b|access\b|rights\b)")

# Whoever asks, or a contact handle to reach: read over the whole sentence ("谁在群里要，就把密码发给他", "if anyone
# asks, give them ...", "微信号 X 联系我们，他们要的信息照实提供").
_ASKER = _c(_alt(
    ANYONE, r"谁[^,;.。，；]{0,8}(?:问|要)", r"要什么(?:信息)?都给", r"(?:他们|他|她|它)(?:问|要)(?:的|什么)",
    r"whatever (?:they|he|she|it) (?:asks?|wants?)", r"(?:微信号?|\bwx|\bqq号?|\bvx)\s*[:：]?\s*(?:\[pii-|[a-z0-9_-]{5,})",
))
_STRONG = _c(_alt(
    r"\bpublic(?:ly)?\b", r"paste(?:bin|\.rs|\.ee)", r"\bgist\b", r"公开", r"公网", r"对外", r"外网", r"外部", r"第三方",
    r"\bexternal\b", r"\boutside\b", r"third[- ]part", r"attacker", r"stranger", r"陌生人",
    r"(?:personal|private) (?:e-?mail|inbox|gmail|dropbox|drive|account|server|address)", r"(?:私人|个人)(?:邮箱|网盘|账号|服务器)",
    r"网盘", r"\bdropbox\b", r"google (?:drive|sheet)", r"ngrok", r"requestbin", r"hookbin", r"pipedream", r"transfer\.sh",
    r"webhook\.site", r"discord", r"telegram", r"whatsapp", r"@[a-z0-9_]{3,}bot\b",
    r"(?:\bto|\bcc|给|到|至|往) ?\[pii-[ep]\]", r"(?:\bto|\bcc|给|到|至|往) ?[\w.+-]+@[\w-]+\.[a-z]{2,}",
    r"this (?:address|url|endpoint|email|server|link|inbox|number|account)", r"via (?:sms|text|whatsapp|signal|wechat|telegram)",
))
_WEAK = _c(_alt(
    r"(?:https?|ftp)://[^/\s:'\"?]+", r"\bwww\.[^/\s:'\"?]+", r"(?<![\w.+-])[\w.+-]+@[\w-]+\.[a-z]{2,}", r"\b\d{1,3}(?:\.\d{1,3}){3}\b",
    r"\b[a-z0-9-]+\.(?:com|net|org|io|ru|cn|xyz|top|tk|cc|me|info|site|online|dev|app)(?!\.?\w)",
    r"webhook", r"(?:内网|内部|internal|intranet|our|the team'?s) ?(?:server|host|box|machine|endpoint)s?\b", r"\bserver\b",
    r"\bendpoint", r"\bhost\b", r"\bbucket", r"\bs3\b", r"\boss\b", r"\bftp\b", r"\binbox", r"\be-?mail", r"邮箱", r"邮件",
    r"(?:内网|内部)?服务器", r"网址", r"链接", r"接口", r"端点", r"微信", r"\bqq\b",
))
# A destination inside the writer's own network: a private or single-label host, .lan / .local / .internal / .corp,
# an "internal server", 内网服务器. The value stays where it is used.
_INTERNAL = _c(
    r"^(?:(?:https?|ftp)://)?(?:localhost|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(?:1[6-9]|2\d|3[01])\.\d+\.\d+|"
    r"[\w.-]+\.(?:lan|local|internal|intra|corp|home))$|^(?:https?|ftp)://[a-z0-9-]+$|^(?:内网|内部|internal|intranet|our|the team'?s)"
)
_SELF = _c(_alt(
    r"\b(?:my|my own|our own|the user'?s(?: own)?|his own|her own) (?:phone|mobile|cell|number|email|inbox|e-mail)",
    r"(?:我|我自己|自己|本人|用户本人)的?(?:手机|邮箱|号码|电话)", r"\bvault\b", r"secrets? manager", r"keychain", r"1password",
    r"key ?vault", r"\bkms\b", r"\bsops\b", r"密钥管理", r"保险库",
))
# Round 18: a move whose destination is where the writer keeps its own secrets ("放到服务器环境变量里", "put it in the
# CI secrets", "moved both to 1Password"): the value is stored, not sent (read right after the move word).
_STORE = _c(_alt(
    r"环境变量", r"配置(?:文件|中心)", r"密钥管理", r"保险库", r"\benv(?:ironment)?[ _-]?var", r"\.env\b", r"\bsecrets? (?:store|manager)",
    r"\b(?:ci|ci/cd|repo(?:sitory)?|actions|pipeline|github|gitlab) (?:secrets?|variables?)", r"\bvault\b", r"keychain", r"1password",
    r"bitwarden", r"\bkms\b", r"\bsops\b",
))
# The value sits where a credential is used: a request header, a login option or user:password pair, a URL query
# key, a connection-string / config field.
_PH = r"['\"]?\[pii-(?:pw|key|card|id|x)\]"
_AUTH_SLOT = _c(_alt(
    r"(?:authorization|x-[a-z0-9-]+|api[-_]?key|private-token|cookie|token)\s*:\s*(?:basic |bearer |token |apikey )?" + _PH,
    r"--?(?:password|passwd|pass|http-password|ftp-password|proxy-password|token|api-key|key|secret)\s*[= ]?\s*" + _PH,
    r"\s-p\s*" + _PH, r"(?<![\w.-])(?!(?:password|passwd|pass|pwd|secret|token|key|api_?key)\b)[a-z0-9_.-]+:\[pii-(?:pw|key)\]",
    r"[?&](?:key|api_?key|apikey|token|access_token|auth|sig|signature)=?\[pii-",
    r"(?:password|pwd|accountkey|sharedaccesskey|secret|private_key|client_secret)[\"']?\s*[:=]?\s*" + _PH + r"['\"]?\s*[;,\\]",
    r"basic auth", r"\blog ?in with", r"\bauthenticat", r"登录", r"认证",
))


def _real_moves(sentence: str) -> list[int]:
    """Where the moves that really move something (not negated, inbound, a purpose or a public key) start."""
    masked = _TOKENS.sub(lambda t: " " * len(t.group(0)), sentence)  # same length: positions stay the sentence's
    starts = []
    for m in _MOVE.finditer(masked):
        before, after = masked[max(0, m.start() - 40):m.start()], masked[m.end():m.end() + 12]
        if _NEGATED.search(before) or _PUBLIC_HALF.search(before) or _INBOUND.search(after):
            continue
        if _PURPOSE_BEFORE.search(before) or _PURPOSE_AFTER.search(after) or _GRANT.match(masked, m.end()):
            continue
        starts.append(m.start())
    return starts


def sends_outward(normalised: str) -> bool:
    """Does some move really send a value outward: a strong destination, or a weak one outside the writer's network
    while the sentence uses no value in an auth slot? Destinations are read from the move's clause to the sentence end.
    """
    for sentence in _SENT.split(normalised):
        starts = _real_moves(sentence) if sentence.strip() else []
        if not starts:
            continue
        if _ASKER.search(sentence):
            return True
        slot = bool(_AUTH_SLOT.search(sentence))
        for start in starts:
            if _STORE.search(sentence, start, start + 24):
                continue  # stored where the writer keeps its secrets, not sent
            clause = max(sentence.rfind(c, 0, start) for c in _CLAUSE) + 1
            rest = _SELF.sub(" ", sentence[clause:])
            if _STRONG.search(rest):
                return True
            if not slot and any(not _INTERNAL.search(m.group(0).strip()) for m in _WEAK.finditer(rest)):
                return True
    return False
