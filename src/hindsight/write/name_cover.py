"""Is a name of one text found in the other (split out of `evidence.py`, write cost round 37)?

`_uncovered_names` keeps the names a text names that the other text lacks - also as a run of letters (Wi-Fi / wifi),
an abbreviation either way (PG / PostgreSQL) or initials either way (AWS / Amazon Web Services); `_read_as_name` is
which units the merge blocker counts as names. Read by `evidence.merge_blocker` / `change_evidence` and the pair
model's row (`pair_features`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from hindsight.write.analysis import Unit
from hindsight.write.name_reading import common_word
from hindsight.write.slot_align import _abbreviates


def _squash(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _initials(text: str) -> str:
    return "".join(w[0] for w in re.findall(r"[A-Za-z0-9]+", text) if w[:1].isupper()).lower()


def _acronyms(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"\b[A-Z][A-Z0-9]{1,4}\b", text)}


@lru_cache(maxsize=4096)
def _name_forms(text: str) -> tuple[str, dict[str, tuple[str, ...]], str, frozenset[str]]:
    """What `_uncovered_names` reads of a text, once per text: its letters squashed, its words of two characters
    and more (lowercased) by first character, its initials and its acronyms. `_abbreviates` holds only for two
    words with the same first character, so a name is compared with those words alone (the same answer)."""
    by_first: dict[str, list[str]] = {}
    for word in {w.lower() for w in re.findall(r"[A-Za-z0-9]+", text) if len(w) >= 2}:
        by_first.setdefault(word[0], []).append(word)
    return (_squash(text), {k: tuple(v) for k, v in by_first.items()}, _initials(text),
            frozenset(_acronyms(text)))


def _uncovered_names(units: list[Unit], other: str, own: str = "") -> list[Unit]:
    """Names absent from the other text, also as a run of letters (Wi-Fi / wifi), an abbreviation either
    way (PG / PostgreSQL) or initials either way (AWS / Amazon Web Services)."""
    if not units:
        return []
    squashed, words, initials, acronyms = _name_forms(other)
    own_initials = _name_forms(own)[2]
    spelled_out = any(a in own_initials for a in acronyms)  # the other side's acronym spells ours
    out = []
    for u in units:
        key = _squash(u.text)
        if len(key) >= 2 and (key in squashed or key in initials or spelled_out
                              or any(_abbreviates(key, w) or _abbreviates(w, key) for w in words.get(key[0], ()))):
            continue
        out.append(u)
    return out


def _read_as_name(u: Unit) -> bool:
    """A unit the name blocker counts: an entity, not a number, not an ordinary Chinese word that jieba
    tagged as a name (`name_reading.common_word`)."""
    return u.entity and not u.number and not (u.cjk and common_word(u.text))
