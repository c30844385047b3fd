"""One person or thing, another written name: positive evidence that lifts "a name on one side only".

`evidence.merge_blocker` keeps a pair apart when a name of one side is absent from the other, also as a run of
letters, an abbreviation or capitalised initials (`evidence._uncovered_names`). Two forms it misses (hygiene round 19,
the released restatements main keeps on this blocker):

* an acronym spelled by the initials of consecutive words in lower case: "PII" / "personally identifiable info",
  "ALB" / "application load balancer" (three letters or more: two-letter initials match by chance);
* a Chinese form of address around one surname: 老周 / 周哥, 小吴 / 吴姐, 王总 / 老王 - the surname with 老, 小 or 阿
  before it, or 哥, 姐 or 总 after it, on both sides (the same surname with another form of address is the same
  person as far as the text can tell; a full name on the other side is not asked).

`LIFTS` switches either reading off for replays.
"""

from __future__ import annotations

import re

#: Which readings may lift the name blocker ("acronym", "address").
LIFTS: frozenset[str] = frozenset({"acronym", "address"})

_ADDRESS = re.compile(r"^(?:[老小阿]([\u4e00-\u9fff])|([\u4e00-\u9fff])[哥姐总])$")


def _surname(name: str) -> str | None:
    m = _ADDRESS.match(name)
    return (m.group(1) or m.group(2)) if m else None


def addressed_alike(name: str, other: str) -> bool:
    """`name` is a surname with a form of address (老周, 周哥) that the other text gives with another one."""
    if "address" not in LIFTS:
        return False
    x = _surname(name)
    return x is not None and re.search(rf"[老小阿]{x}|{x}[哥姐总]", other) is not None


def spelled_by_words(name: str, other: str) -> bool:
    """`name` (letters only, 3-5) is the initials of that many consecutive words of the other text, any case."""
    if "acronym" not in LIFTS:
        return False
    key = name.lower()
    if not (3 <= len(key) <= 5 and key.isalpha() and key.isascii()):
        return False
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", other)]
    return any("".join(w[0] for w in words[i:i + len(key)]) == key for i in range(len(words) - len(key) + 1))
