"""Names and the roles, places or groups other memories give them (issue 10, round 21).

A question often names by a role what a memory names by a name ("the GM's other half" / "Maya's partner Ruth"):
a second hop through the store, since another memory says "Maya Thornton (GM, Melbourne cafés)". `extract` reads
such pairs from one memory's text without a model - appositions ("Sophie, our designer in Paris", "Tom (CEO)",
"赵敏（产品经理）"), copulas ("Fitzroy is our flagship shop", "唐一帆是我们的灯光设计师") and a role before a name
("our head roaster Priya", "我们的店长小王"). `AliasMap` collects them over a store's memories (rebuilt when the
store's memory count changes, so it follows writes) and `AliasMap.expand` rewrites a question: a role word that
denotes one or two names (and is rare in the store: a place named in a third of the memories names nobody) gets
the names in brackets after it, and a name that has a role gets the role (the reverse direction). The search reads
the rewritten text in its channels (`RetrievalSettings.alias_expansion`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from hindsight.retrieval.understanding.names import _en_names, _zh_names
from hindsight.text.tokenize import jieba_module, query_terms

_CAP = r"[A-Z][\w'’\-]*[a-z0-9][\w'’\-]*|[A-Z]{2,}"
_EN_NAME = rf"(?:{_CAP})(?:\s+(?:&\s+)?(?:{_CAP})){{0,2}}"
_ROLE_STOP = re.compile(r"\s(?:who|which|that|and|but|since|because|so|says|said|will|has|had|is|was|wants|asks|in|at|"
                        r"from|for|on|with|to|until)\s|"
                        r"[,.;:!?()（）。，；：！？—–]")
_PREP = r"(?:in|at|from|for|of|on|with|to|and|or|is|are|was)\b"
_EN_PATTERNS = [
    # Maya Thornton (GM, Melbourne cafés) / Tom (CEO)
    re.compile(rf"(?P<name>{_EN_NAME})\s*[(（](?P<role>[^()（）]{{2,48}})[)）]"),
    # Sophie Laurent, our freelance designer in Paris
    re.compile(rf"(?P<name>{_EN_NAME}),\s+(?:our|the|their|his|her|my)\s+(?P<role>[^,.;:!?()]{{2,60}})"),
    # Fitzroy is our flagship Melbourne shop / Oliver Grant (Grant & Hale) is our outside accountant
    re.compile(rf"(?P<name>{_EN_NAME})(?:\s*\([^)]*\))?\s+(?:is|was|are|'s|’s)\s+(?:now\s+)?(?:our|the)\s+"
               rf"(?:new\s+)?(?P<role>[^,.;:!?()]{{2,60}})"),
    # our GM, Maya / our head roaster Priya
    re.compile(rf"\b[Oo]ur\s+(?P<role>(?:(?!{_PREP})[a-z][\w\-]*\s+){{0,3}}(?!{_PREP})[a-z][\w\-]*),?\s+"
               rf"(?P<name>{_EN_NAME})"),
]
_ZH_PATTERNS = [
    # 赵敏（产品经理）
    re.compile(r"(?P<head>[\u4e00-\u9fffA-Za-z]{2,12})[（(](?P<role>[^()（）]{2,24})[)）]"),
    # 唐一帆是我们的灯光设计师
    re.compile(r"(?P<head>[\u4e00-\u9fffA-Za-z]{2,12})是我们(?:的)?(?:新)?(?P<role>[\u4e00-\u9fffA-Za-z]{2,12})"),
]
# 我们的店长小王: a role and a name in one run
_ZH_OUR = re.compile(r"我们的(?P<run>[\u4e00-\u9fff]{3,12})")
_NOT_NAMES = frozenset(["the", "our", "we", "i", "a", "an", "this", "that", "it", "they", "he", "she", "new", "all",
                        "every", "each", "from", "on", "in", "at", "by", "for", "to", "and", "if", "when", "note",
                        "update", "reminder", "heads", "fyi", "ps"])
_MONTHS = frozenset(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
                     "january", "february", "march", "april", "june", "july", "august", "september", "october",
                     "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                     "sunday"])
_SPAN_MAX_TERMS = 5
#: a role word names nobody when it is in more than this share of the store's memories (a city, a product line)
RARE_SHARE = 0.05
#: ... or when more than this many names share it ("manager")
MAX_NAMES = 2
#: mode 3: a rare word held by at least this many memories, this share of which mention one name
MENTION_MIN = 3
MENTION_SHARE = 0.6
#: ... and that share at least this many times the share of all memories that mention the name (not a city)
MENTION_LIFT = 4.0


@dataclass(frozen=True)
class Alias:
    name: str
    role: tuple[str, ...]


def _role_terms(role: str) -> tuple[str, ...]:
    role = _ROLE_STOP.split(" " + role + " ", maxsplit=1)[0]
    terms = [t for t in query_terms(role) if not t.isdigit() and len(t) > 1]
    return tuple(terms[:_SPAN_MAX_TERMS])


def _reads_as_role(role: str) -> bool:
    """An English role has a lower-case word or an acronym ("GM", "CEO"); "Grant & Hale" is another name."""
    return bool(re.search(r"(?<![\w'’])(?:[a-z][a-z\-]+|[A-Z]{2,4})(?![\w'’])", role))


def _clean_en_name(name: str) -> str | None:
    words = [w for w in name.split() if w != "&"]
    while words and words[0].lower().strip("'’") in _NOT_NAMES:
        words = words[1:]
    if not words or any(w.lower() in _MONTHS for w in words):
        return None
    return " ".join(words)


def _zh_name_at_end(text: str) -> str | None:
    """The person name that ends a Chinese run (`names._zh_names`), or a Latin name that ends it."""
    latin = re.search(r"([A-Z][a-z]+)$", text)
    if latin:
        return latin.group(1)
    return next((n for n in _zh_names(text) if text.endswith(n)), None)


def _zh_role(role: str, name: str) -> tuple[str, ...]:
    """A Chinese role's terms: none when it names a person, tells something (ends in 的 / 了) or is Latin only."""
    if re.fullmatch(r"[A-Za-z0-9 .,&@\-]+", role) or role.endswith(("的", "了")) or _zh_names(role):
        return ()
    return tuple(t for t in _role_terms(role) if t not in set(query_terms(name)) and not name.startswith(t))


def extract(text: str) -> list[Alias]:
    """The (name, role terms) pairs one memory's text states."""
    out: list[Alias] = []
    for pat in _EN_PATTERNS:
        for m in pat.finditer(text):
            name = _clean_en_name(m.group("name"))
            role = _role_terms(m.group("role")) if _reads_as_role(m.group("role")) else ()
            if name and role:
                name_terms = set(query_terms(name))
                role = tuple(t for t in role if t not in name_terms)
                if role:
                    out.append(Alias(name, role))
    for pat in _ZH_PATTERNS:
        for m in pat.finditer(text):
            name = _zh_name_at_end(m.group("head"))
            role = _zh_role(m.group("role"), name) if name else ()
            if name and role:
                out.append(Alias(name, role))
    for m in _ZH_OUR.finditer(text):
        run = m.group("run")
        for name in _zh_names(run):
            at = run.find(name)
            role = _zh_role(run[:at], name) if at >= 2 else ()
            if role:
                out.append(Alias(name, role))
    return out


@dataclass
class AliasMap:
    """Role terms -> the names they denote, and names -> their role terms, over a set of memories."""

    names_for: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    roles_for: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    doc_freq: Counter[str] = field(default_factory=Counter)
    #: term -> the names mentioned in the memories that hold it
    mentions: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    name_freq: Counter[str] = field(default_factory=Counter)
    #: (head term, name) -> the whole roles stated ("structural consultant" is not "heritage consultant")
    full_roles: dict[tuple[str, str], set[tuple[str, ...]]] = field(default_factory=lambda: defaultdict(set))
    size: int = 0

    @classmethod
    def build(cls, texts: Iterable[str]) -> AliasMap:
        amap = cls()
        for text in texts:
            amap.add(text)
        return amap

    def add(self, text: str) -> None:
        """Read one memory: its aliases and its terms' document frequency."""
        self.size += 1
        terms = set(query_terms(text))
        self.doc_freq.update(terms)
        names = set(_en_names(text, [])) | set(_zh_names(text))
        named = {t for n in names for t in query_terms(n)}
        self.name_freq.update(names)
        for term in terms - named:
            self.mentions[term].update(names)
        for alias in extract(text):
            head = alias.role[-1]  # "freelance designer" is found by "designer", "上海培训主管" by 主管
            self.names_for[head][alias.name] += 1
            self.roles_for[alias.name][head] += 1
            self.full_roles[(head, alias.name)].add(alias.role)

    def _rare(self, term: str) -> bool:
        return self.doc_freq[term] <= max(2.0, RARE_SHARE * self.size)

    def denoted(self, terms: list[str]) -> dict[str, list[str]]:
        """Role term of the question -> the names it denotes (not already named in the question)."""
        asked = set(terms)
        found: dict[str, list[str]] = {}
        for term in terms:
            names = self.names_for.get(term)
            if not names or len(names) > MAX_NAMES or not self._rare(term):
                continue
            new = [n for n in names if not set(query_terms(n)) & asked
                   and any(set(role) <= asked for role in self.full_roles[(term, n)])]
            if new:
                found[term] = new
        return found

    def mentioned(self, terms: list[str]) -> dict[str, list[str]]:
        """Rare term of the question -> the one name most of its memories mention (not named in the question)."""
        asked = set(terms)
        found: dict[str, list[str]] = {}
        for term in terms:
            df = self.doc_freq[term]
            names = self.mentions.get(term)
            if not names or df < MENTION_MIN or not self._rare(term) or any(term in t and term != t for t in terms):
                continue
            name, n = names.most_common(1)[0]
            lift = (n / df) / max(self.name_freq[name] / max(self.size, 1), 1e-9)
            if n >= MENTION_SHARE * df and lift >= MENTION_LIFT and not set(query_terms(name)) & asked:
                found[term] = [name]
        return found

    def roles(self, text: str, terms: list[str]) -> dict[str, list[str]]:
        """Name in the question -> its rare role terms that the question does not hold (the reverse hop)."""
        asked = set(terms)
        found: dict[str, list[str]] = {}
        for name, roles in self.roles_for.items():
            if name not in text:
                continue
            extra = [r for r in roles if r not in asked and self._rare(r)
                     and len(self.names_for.get(r, ())) <= MAX_NAMES]
            if extra:
                found[name] = extra[:3]
        return found

    def expand(self, text: str, mode: int = 1) -> str:
        """`text` with each role word followed by the names it denotes in brackets (mode 2: also each name followed
        by its roles; 3: also a rare word by the one name its memories mostly mention); the text itself when nothing
        applies."""
        terms = query_terms(text)
        inserts: list[tuple[int, str]] = []
        denoted = self.denoted(terms)
        if mode >= 3:
            denoted = {**self.mentioned(terms), **denoted}
        for term, names in denoted.items():
            inserts.append((_end_of(text, term), " (" + ", ".join(names) + ")"))
        if mode >= 2:
            for name, roles in self.roles(text, terms).items():
                inserts.append((_end_of(text, name), " (" + " ".join(roles) + ")"))
        for at, add in sorted(inserts, key=lambda item: -item[0]):
            text = text[:at] + add + text[at:]
        return text


def _end_of(text: str, word: str) -> int:
    """Where to insert after `word` in `text` (after a possessive 's too); the end when it is not found."""
    if re.fullmatch(r"[\w\- ]+", word) and word.isascii():
        m = re.search(rf"(?<![\w]){re.escape(word)}(?:['’]s)?(?![\w])", text, re.IGNORECASE)
    else:
        m = re.search(re.escape(word), text, re.IGNORECASE)
    if not m:
        return len(text.rstrip("?？!！。. "))
    at = 0
    for piece in jieba_module().lcut(text, HMM=True):  # never inside a Chinese word ("服务" of 服务器)
        at += len(piece)
        if at >= m.end():
            return at
    return m.end()
