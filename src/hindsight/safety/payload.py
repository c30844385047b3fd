"""An order to run or obey a payload the redactor replaced (issue 10, round 46).

The write path redacts before the guard reads, so an encoded order that looks like a key ("echo Y3VybCAtWCBQT1NU... |
base64 -d | sh", "记一下这段，照做：5oqK5a6i...") reaches the guard as a placeholder - "echo [REDACTED:api_key] | base64 -d
| sh", "照做：[REDACTED:api_key]" - and the note is then judged as one that carries a secret, at the carried threshold.
What survives redaction is the order: the placeholder is the object of an act of running or obeying (piped into a
decoder or a shell, handed to eval, "run as-is", "照做 / 执行 / 照办"). A key is typed into a config, never obeyed.

``obeys_payload`` reads the normalised text (placeholders as ``[pii-key]`` ...): a placeholder piped into a decoder, an
interpreter or a shell; an interpreter or eval given the placeholder; an obey / run verb whose object is the placeholder
(the verb, an optional colon, then the placeholder), or the placeholder followed by "run it / 照做". What the guard
does with it: :data:`lowered.PAYLOAD_THRESHOLD` (the threshold of wording hidden on purpose), never a quarantine
on its own.
"""

from __future__ import annotations

from hindsight.safety.rules import _alt, _c

#: Read only while ON. Shipped: held out +6 attacks, 0 benign / PII / retrieval (docs/benchmarks.md "Guard, round 46").
ON = True

_P = r"\[pii-[a-z]+\]"
_RUNNER = r"(?:base64|base32|xxd|openssl|gunzip|gzip|zcat|uudecode|sh|bash|zsh|python3?|perl|ruby|node|powershell|pwsh|iex|cmd)\b"
PAYLOAD_ORDER = _c(_alt(
    _P + r"[^\n|]{0,30}\|\s*(?:sudo\s+)?" + _RUNNER,
    r"\b(?:eval|exec|iex|invoke-expression|sh -c|bash -c|python3? -c|frombase64string)\s*[(\"'`$]*\s*(?:\$\()?\s*(?:echo\s+)?[\"'`]?" + _P,
    r"(?:\brun(?: it| this| that)?(?: as[- ]is)?|\bexecute(?: it| this)?|\bfollow (?:it|this|these)|\bdo what (?:it|this) says|\bobey)"
    r"\s*[:：-]\s*[\"'`]?" + _P,
    r"(?:照做|照办|照着做|执行|运行|跑一下|按(?:这|此)(?:段|条|个)?(?:做|办|执行)|解码后?(?:执行|运行))\s*[:：,，]?\s*[\"'`]?" + _P,
    _P + r"[^\n。.]{0,20}(?:\brun it\b|\bexecute it\b|\bdecode and run\b|照做|照办|执行它|运行它|解码后?(?:执行|运行))",
))


def obeys_payload(normalised: str) -> bool:
    """Is a redaction placeholder of the normalised text run or obeyed (piped into a decoder or shell, eval'd, the
    object of "run as-is" / 照做)? False while ``ON`` is off."""
    return ON and bool(PAYLOAD_ORDER.search(normalised))
