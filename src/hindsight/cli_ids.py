"""Ids as people read and type them in the CLI: shortest unique prefixes in narrow tables, prefixes accepted back.

A memory id is `mem_` and 32 hex digits (36 characters); beside it a table of five to seven columns cannot fit an
80-column terminal (rich squeezed every other column to a few letters, or cut the id). So below `WHOLE_IDS_FROM`
columns a table shows each id as its shortest prefix that names only that id in the scope a command resolves it in
(like git's abbreviated hashes: at least `MIN_DIGITS` digits after the `mem_` / `prop_` kind, more when another id
shares them); `--json` and wide terminals show whole ids. Every command that takes an id resolves such a prefix:
the memory commands through `MemoryEngine.resolve_id`, review through `ReviewService.resolve_id`, `token revoke`
and `quarantine release` here; an ambiguous prefix or one that names nothing is a typed error naming the field.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence

from rich.console import Console

from hindsight.errors import InvalidInputError, ambiguous_prefix

#: at this width and over, tables show whole ids
WHOLE_IDS_FROM = 120
#: hex digits after the kind (`mem_`) an abbreviated id keeps at least (git shows 7)
MIN_DIGITS = 8

Matches = Callable[[str], Sequence[str]]


def abbreviate(console: Console) -> bool:
    """Whether tables printed on `console` show id prefixes (a narrow terminal) instead of whole ids."""
    return console.width < WHOLE_IDS_FROM


def unique_prefix(full: str, matches: Matches) -> str:
    """The shortest prefix of `full` (kind plus at least MIN_DIGITS characters) that `matches` answers with `full`
    alone; `full` itself when it is not in the scope `matches` reads (nothing shorter would resolve to it).

    `matches(prefix)` returns up to two ids of the scope that start with `prefix` (`Store.ids_with_prefix`)."""
    if list(matches(full)) != [full]:
        return full
    start = full.find("_") + 1 + MIN_DIGITS
    for end in range(start, len(full)):
        if list(matches(full[:end])) == [full]:
            return full[:end]
    return full


def among(ids: Iterable[str]) -> Matches:
    """`matches` over a known set of ids (proposals, tokens): up to two ids starting with the prefix."""
    ordered = sorted(set(ids))

    def matches(prefix: str) -> list[str]:
        at = bisect_left(ordered, prefix)
        return [i for i in ordered[at:at + 2] if i.startswith(prefix)]

    return matches


def shown_id(full: str, matches: Matches, console: Console) -> str:
    """The id as a table cell: its unique prefix on a narrow console, whole otherwise."""
    return unique_prefix(full, matches) if abbreviate(console) else full


def resolve_among(given: str, ids: Iterable[str], field: str, kind: str) -> str:
    """A whole id of `ids`, or the one id starting with `given`; none or several raise InvalidInputError naming
    `field` (for ids the CLI lists in full before resolving: tokens)."""
    wanted = given.strip()
    if not wanted:
        raise InvalidInputError(f"{field}: must be a non-empty string")
    known = sorted(set(ids))
    if wanted in known:
        return wanted
    found = [i for i in known if i.startswith(wanted)]
    if len(found) == 1:
        return found[0]
    if not found:
        raise InvalidInputError(f"{field}: '{wanted}' was not found (neither a {kind}'s id nor the start of one)")
    raise ambiguous_prefix(field, wanted, found, f"{kind}s")
