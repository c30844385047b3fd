"""A bare 64-hex private key, read by its sentence (moved out of ``redact_shapes``, round 41).

A 64-hex number (``0x`` or not) is a private key when its sentence names a wallet, a private key, a seed or an export,
and no hash word (hash, tx, block, address, public key, 哈希, 交易, 地址 ...) stands in it - unless that word comes
only after the value and a private key is named before it: "private key for the payout wallet: 0x... (the address
itself is public: 0x...)" - the address is another value's (round 41, blind r38).
"""

from __future__ import annotations

import re

Span = tuple[str, int, int]

_HEX64 = re.compile(r"(?<![0-9A-Za-z])(?:0x)?(?P<value>[0-9a-fA-F]{64})(?![0-9A-Za-z])")
_WALLET_CUE = re.compile(r"(?i)private[ _-]?key|\bprivkey|\bwallet\b|metamask|\bexport|\bsecret\b|\bseed\b|私钥|钱包|助记|导出|密钥")
_HASH_CUE = re.compile(r"(?i)\b(?:sha-?\d*|md5|hash|checksum|digest|commit|tx|txid|txn|transaction|block|oid|etag|integrity|"
                       r"fingerprint|public[ _-]?key|pubkey|address)\b|哈希|校验|摘要|交易(?!所)|区块|公钥|地址|指纹")
_PRIVATE_BEFORE = re.compile(r"(?i)private[ _-]?key|\bprivkey|私钥")


def _sentence_parts(text: str, start: int, end: int) -> tuple[str, str]:
    """The value's sentence before it (up to 120 characters) and after it (up to 80)."""
    left = max(text.rfind(c, 0, start) for c in "。！？\n") + 1
    dot = text.rfind(". ", 0, start)
    left = max(left, dot + 2 if dot >= 0 else 0)
    # round 34: an English full stop ends it on the right as on the left (a contract address or a hash word in the next
    # sentence is another value's)
    right = min((i for i in (text.find(c, end) for c in ("。", "！", "？", "\n", ". ")) if i >= 0), default=len(text))
    return text[max(left, start - 120) : start], text[end : min(right, end + 80)]


def _hashed(before: str, after: str) -> bool:
    """A hash word in the value's sentence, unless only after it with a private key named before it (round 41: "private
    key for the payout wallet: 0x... (the address itself is public: 0x...)" - the address is another value's)."""
    return bool(_HASH_CUE.search(before) or _HASH_CUE.search(after) and not _PRIVATE_BEFORE.search(before))


def find_hex_keys(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _HEX64.finditer(text):
        before, after = _sentence_parts(text, m.start(), m.end())
        if (_WALLET_CUE.search(before + " " + after) and not _hashed(before, after)
                and len(set(m.group("value").lower())) >= 10):
            out.append(("private_key", *m.span("value")))
    return out
