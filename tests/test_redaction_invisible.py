"""A character that renders as nothing inside a value does not keep it out of redaction.

Redaction reads the text with Unicode's default-ignorable characters (``safety/normalize.INVISIBLE_CHARS``, the
guard's fold) removed and maps each span back to the stored text, so the whole value, invisible characters
included, is replaced; an invisible character outside any value stays where it was.
"""
from __future__ import annotations

import pytest
from linear_cost import assert_not_superlinear

from hindsight.safety.redact import find_sensitive, redact

MARKS = {"zero-width-space": "\u200b", "zero-width-joiner": "\u200d", "hangul-filler": "\u3164",
         "soft-hyphen": "\u00ad", "word-joiner": "\u2060"}

# (text with {m} where the mark goes, the value that must not stay in clear once the mark is removed)
CASES = {
    "email": ("Billing contact is alice{m}.smith@example.com, thanks.", "alice.smith@example.com"),
    "card": ("The card is 4111 11{m}11 1111 1111, expiring soon.", "4111 1111 1111 1111"),
    "phone": ("Call me at 415-555-{m}0134 after six.", "555-0134"),
    "password": ("The vault password: Tr0ub4{m}dor&3x, keep it safe.", "Tr0ub4dor&3x"),
    "zh-id": ("我的身份证号是11010519{m}9003077578，请登记。", "110105199003077578"),
    "zh-phone": ("联系电话 139{m}1234 5678，晚上打。", "1391234"),
    "zh-email": ("邮箱是 wang.wei{m}@qq.com，有事联系。", "wang.wei@qq.com"),
}


def _visible(text: str) -> str:
    return "".join(c for c in text if c not in set(MARKS.values()))


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("mark", list(MARKS))
def test_an_invisible_character_inside_a_value_does_not_keep_it_in_clear(case: str, mark: str) -> None:
    text, value = CASES[case]
    plain = redact(text.format(m=""), tagger=False)
    assert value not in _visible(plain.text), "the value without a mark is redacted"
    marked = redact(text.format(m=MARKS[mark]), tagger=False)
    assert value not in _visible(marked.text).replace(" ", "").replace("-", ""), marked.text
    assert MARKS[mark] not in marked.text, "the mark inside the value went with it"
    assert marked.kinds == plain.kinds


def test_findings_point_into_the_stored_text() -> None:
    text = "mail alice\u200b.smith@example.com now"
    [finding] = find_sensitive(text, tagger=False)
    assert text[finding.start : finding.end] == "alice\u200b.smith@example.com"
    assert redact(text, tagger=False).text == "mail [REDACTED:email] now"


def test_an_invisible_character_outside_any_value_stays_and_other_text_is_unchanged() -> None:
    text = "Hel\u200blo \u3164team, the build is green.\u2060 Mail alice@example.com\u00ad."
    assert redact(text, tagger=False).text == "Hel\u200blo \u3164team, the build is green.\u2060 Mail [REDACTED:email]\u00ad."
    assert redact("\u200b\u200b", tagger=False).text == "\u200b\u200b"
    assert find_sensitive("\u200b\u3164", tagger=False) == []


def test_cost_stays_linear_with_many_invisible_characters() -> None:
    unit = "Mail bob\u200b@example.com or call 415-555-\u20600134; nothing\u3164 else. "
    assert_not_superlinear(lambda t: redact(t, tagger=False), unit * 20, unit * 200)
