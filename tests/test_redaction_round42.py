"""Redaction round 42 (issue 10): a Chinese landline with its area code redacted the same in every written form.

miss41 found a landline stored as written in one form and redacted in another. Read on main, the ASCII forms
(0XX-XXXXXXXX, 0XXX-XXXXXXX, spaced, bracketed, +86) already read alike in the same sentence; the forms that do not
are full-width brackets ("（0472）5318800", usual in Chinese text), an en / em / full-width dash between the groups,
a bracketed area code followed by a hyphen ("(010)-62751234") and the 0086 prefix with no cue before it. Each of
them must read exactly as the bracketed form "(0472) 531 8800" reads in the same sentence: redacted where it is a
person's or a business's plain number, kept where the clause makes it a public line (that judgement is unchanged).
Examples are our own (none copied from a set).
"""

from __future__ import annotations

import pytest
from redaction_round import TAGGER, round_tests

from hindsight.safety.redact import redact

BRACKETED = "(0472) 531 8800"
FORMS = ["（0472）5318800", "（0472）531 8800", "（010）6275 1234", "0472–5318800", "0472—5318800", "010–6275–1234",
         "(010)-62751234", "0086 472 5318800", "0086-10-62751234", "（0755）8832-1234 转 123", "0472–5318800 ext. 12"]
# sentences where the bracketed form is a phone (a person's, a plain business number, a cue or a name before it)
PRIVATE = ["My aunt's landline is {}.", "Li Wei: {}", "老张 {}，周末找他。", "王医生的电话是{}。", "Call {} to get the safety office.",
           "他家座机：{}", "Dad — {}"]
# sentences where the bracketed form is a public line and stays (the public-line judgement is not changed)
PUBLIC = ["The museum's customer service hotline is {}.", "客服热线：{}"]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("sentence", PRIVATE)
@TAGGER
def test_landline_form_redacted_like_the_bracketed_form(form: str, sentence: str, tagger: bool) -> None:
    bracketed = redact(sentence.format(BRACKETED), tagger=tagger).text
    assert "[REDACTED:phone]" in bracketed and "531 8800" not in bracketed  # the reference reading on main
    out = redact(sentence.format(form), tagger=tagger).text
    digits = form.split(" 转")[0].split(" ext")[0]
    assert digits not in out and "[REDACTED:phone]" in out, out


@pytest.mark.parametrize("form", [f for f in FORMS if "转" not in f and "ext" not in f])
@pytest.mark.parametrize("sentence", PUBLIC)
def test_public_line_kept_in_every_form(form: str, sentence: str) -> None:
    assert BRACKETED in redact(sentence.format(BRACKETED)).text
    assert form in redact(sentence.format(form)).text


GONE = [
    ("店里座机（0471）6923308，找王姐。", ["（0471）6923308"], ["找王姐"]),
    ("Grandma's number in Hohhot is 0471–6923308, call after lunch.", ["0471–6923308"], ["call after lunch"]),
]
KEEP = [
    # numbers of another kind in the same punctuation: ranges, dates, order / model numbers, versions
    ("Order number 0472–5318800 shipped from the Baotou warehouse.", ["0472–5318800"]),
    ("Open 0900–1730 on weekdays, rooms 0101–0420.", ["0900–1730", "0101–0420"]),
    ("Invoices 2024–0315 and 2024–0316 are paid.", ["2024–0315"]),
    ("Release 10.0472–531.8800 notes are out.", ["10.0472–531.8800"]),
    ("共处理（0472）5318800次请求。", ["5318800"]),
]

test_secret_gone_fact_kept, test_lookalike_kept = round_tests(GONE, KEEP)
