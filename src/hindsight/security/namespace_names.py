r"""Look-alike namespace names (attack round 11) and tags (attack round 17: `new_tag`, `tag_form`).

A namespace is a hard boundary and a token names the namespaces it may reach, so a name that *looks* like another
(``аlice`` with a Cyrillic ``а``, ``ａｌｉｃｅ`` in full width) lets a write land where an operator reading the list
believes it did not, or a token be granted for the wrong one. A new name is therefore refused, as an
``invalid_input`` naming ``namespace`` and the rule, when it:

* holds an invisible character (a zero-width joiner or non-joiner, a variation selector, the combining grapheme
  joiner, any format or control character: attack round 19, the schema's `\w` lets the joiners through);
* is not in NFKC form (full-width letters, ligatures, compatibility characters);
* mixes letters of Latin, Cyrillic and Greek (one script's letters per name; digits, punctuation and Han,
  kana or Hangul may join any of them, so ``团队-kb`` and ``kb/研发`` stay valid);
* is written only in Cyrillic or Greek letters that all have a Latin look-alike (``аlісе`` is ``alice`` to the eye);
  a real Cyrillic or Greek word keeps a letter of its own (``команда``, ``δοκιμή``).

Checked where a namespace is created: a memory written (``MemoryInput``) and a token granted (``TokenStore.create``).
Names stored before this check are still read and written. A token is also refused a name no memory can have
(``grant_problem``, attack round 12): ``--namespace alice,bob`` or ``team-*`` granted a name that reaches nothing.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

from pydantic import StringConstraints, TypeAdapter, ValidationError

#: the shape of a namespace name (MemoryInput and the MCP tools' `namespace` argument)
NAMESPACE_PATTERN = r"^[\w.\-:/@]+$"
MAX_NAMESPACE_CHARS = 128

#: Cyrillic and Greek letters (lower case after casefold) that look like a Latin letter.
_CYRILLIC_LIKE_LATIN = "аеорсухіјѕһԁԛԝӏвмнтк"
_GREEK_LIKE_LATIN = "αεοριυχνκτβημζ"
_LOOKALIKE = frozenset(_CYRILLIC_LIKE_LATIN + _GREEK_LIKE_LATIN)
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def _script(ch: str) -> str | None:
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    return next((s for s in _SCRIPTS if name.startswith(s)), None)


#: categories of characters that show nothing (format: zero-width joiners, bidi marks; control; unassigned ...)
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
#: marks that show nothing on their own: the combining grapheme joiner, variation selectors, Mongolian selectors
_INVISIBLE_MARKS = re.compile("[\u034f\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def _hidden(name: str) -> str | None:
    for i, ch in enumerate(name):
        if unicodedata.category(ch) in _HIDDEN_CATEGORIES or _INVISIBLE_MARKS.match(ch):
            return f"U+{ord(ch):04X} at position {i}"
    return None


def namespace_problem(name: str) -> str | None:
    """Why ``name`` may not be created as a namespace, or None when it may."""
    hidden = _hidden(name)
    if hidden:  # attack round 19: the schema's pattern (pydantic's regex) lets a zero-width joiner through as \w
        return (f"'{ascii(name)[1:-1]}' holds an invisible character ({hidden}); rule: a namespace name may not hold "
                "invisible, format or control characters (it would look like another name)")
    if unicodedata.normalize("NFKC", name) != name:
        return (f"'{ascii(name)[1:-1]}' is not in NFKC form (it would read as "
                f"'{unicodedata.normalize('NFKC', name)}'); rule: namespace names are NFKC-normalised")
    scripts = {s for s in map(_script, name) if s}
    if len(scripts) > 1:
        return (f"'{ascii(name)[1:-1]}' mixes {' and '.join(sorted(s.title() for s in scripts))} letters; rule: a "
                "namespace name uses the letters of one script (look-alike names are refused)")
    letters = [ch.casefold() for ch in name if _script(ch) in ("CYRILLIC", "GREEK")]
    if letters and all(ch in _LOOKALIKE for ch in letters) and len(letters) == sum(ch.isalpha() for ch in name):
        return (f"'{ascii(name)[1:-1]}' is written only in letters that look Latin; rule: a namespace name may "
                "not be a look-alike of a Latin name")
    return None


def check_namespace(name: str) -> str:
    """``name`` unchanged, or ValueError saying which rule it breaks (pydantic adds the field name)."""
    problem = namespace_problem(name)
    if problem:
        raise ValueError(problem)
    return name


#: the namespace pattern as pydantic's regex engine reads it (`MemoryInput`, the tools' `namespace` argument): its
#: `\w` holds every mark and connector punctuation and no `No` number, Python's the other way round, so a token was
#: refused `हिंदी` or `عَرَبِيّ` that memories had (attack round 20). Invisible marks are `namespace_problem`'s.
_NAME_SHAPE = TypeAdapter(Annotated[str, StringConstraints(pattern=NAMESPACE_PATTERN, min_length=1,
                                                           max_length=MAX_NAMESPACE_CHARS)])


def _has_name_shape(name: str) -> bool:
    try:
        _NAME_SHAPE.validate_python(name)
    except ValidationError:
        return False
    return True


def grant_problem(name: str) -> str | None:
    """Why a token may not be granted ``name`` (a name no memory can have, or a look-alike), or None."""
    if not _has_name_shape(name):
        return (f"'{ascii(name[:MAX_NAMESPACE_CHARS])[1:-1]}' is no namespace name (at most {MAX_NAMESPACE_CHARS} "
                "letters, digits and _ . - : / @; one --namespace per name, '*' for all); rule: a token is granted "
                "names a memory can have")
    return namespace_problem(name)


_WORD = re.compile(r"[^\W\d_]+")


def tag_form(tag: str) -> str:
    """A tag as a filter compares it: NFKC (full-width letters, ligatures and no-break spaces read as their plain
    forms), so ``ｐａｙｍｅｎｔｓ`` and ``payments`` are one tag (attack round 17: they were two)."""
    return unicodedata.normalize("NFKC", tag)


def new_tag(tag: str) -> str:
    """A tag as a write stores it (`tag_form`), or ValueError when one of its words mixes the letters of Latin,
    Cyrillic and Greek (``раyments`` with a Cyrillic ``р`` and ``а`` reads as ``payments`` in the console and
    matches no filter for it; attack round 17). Words in one script, any script, are kept: tags are not names."""
    form = tag_form(tag)
    for word in _WORD.findall(form):
        scripts = {s for s in map(_script, word) if s}
        if len(scripts) > 1:
            raise ValueError(f"tag '{ascii(form)[1:-1][:40]}' mixes {' and '.join(sorted(s.title() for s in scripts))} "
                             "letters in one word; rule: a tag's words use the letters of one script (look-alike "
                             "tags are refused)")
    return form
