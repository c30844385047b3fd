"""Chinese numerals: 三 / 十二 / 两 / 二十八 -> int, and counts with vague forms (几, 好几, 两三)."""

from __future__ import annotations

from functools import lru_cache

_ZH_DIGITS = "一二三四五六七八九"
#: vague counts: 几 "a few" (2-5), 好几 "several" (3-7)
_ZH_VAGUE = {"几": (2, 5), "好几": (3, 7)}


@lru_cache(maxsize=512)
def zh_count(s: str) -> tuple[int, int, bool] | None:
    """Chinese or Arabic count -> (lo, hi, vague); "两三" style pairs are vague ranges."""
    if s.isdigit():
        return (int(s), int(s), False)
    if s in _ZH_VAGUE:
        lo, hi = _ZH_VAGUE[s]
        return (lo, hi, True)
    t = s.replace("两", "二")
    if len(t) == 2 and t[0] in _ZH_DIGITS and t[1] in _ZH_DIGITS:
        a, b = _ZH_DIGITS.index(t[0]) + 1, _ZH_DIGITS.index(t[1]) + 1
        if b == a + 1:
            return (a, b, True)
    value = zh_int(s)
    return None if value is None else (value, value, False)


@lru_cache(maxsize=512)
def zh_int(s: str) -> int | None:
    """Chinese numeral (三, 十二, 两, 二十八) -> int via cn2an, imported lazily."""
    if s.isdigit():
        return int(s)
    import cn2an  # lazy: ~0.1 s import, only needed for Chinese numerals

    try:
        value = cn2an.cn2an(s, "smart")
    except (ValueError, KeyError, IndexError):
        return None
    return int(value) if float(value).is_integer() else None
