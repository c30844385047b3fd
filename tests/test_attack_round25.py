"""Attack round 25 (docs/security.md "Attack round 25"): what an outside attacker found on the running server.

- A value typed with look-alike characters was stored in clear: a card number in full-width digits (a Chinese IME in
  full-width mode), card groups separated by a no-break or thin space (copied from a web page), an SSN or a phone
  with a non-breaking hyphen, a mailbox in full-width letters (only its domain was redacted), a 身份证 number in
  full-width digits, digits of another script or mathematical bold. The finders read ASCII; redaction now reads the
  text folded (``safety/redact_fold``) and maps each finding back to the stored text.
"""

from __future__ import annotations

import pytest
from linear_cost import assert_not_superlinear

from hindsight.engine import MemoryEngine
from hindsight.safety.redact import find_sensitive, redact

# (text, the value's digits or letters that must not stay in clear, the kind it is redacted as)
LOOK_ALIKES = {
    "card-fullwidth": ("Refund went to the customer card ４１１１ １１１１ １１１１ １１１１, expiry 09/28.", "4111", "card"),
    "card-nbsp": ("Paid the invoice with my card 4111\u00a01111\u00a01111\u00a01111 today.", "4111", "card"),
    "card-thin-space": ("The card is 4111\u20091111\u20091111\u20091111, keep it on file.", "4111", "card"),
    "card-figure-space": ("The card is 4111\u20071111\u20071111\u20071111, keep it on file.", "4111", "card"),
    "card-ideographic-space": ("信用卡号 4111\u30001111\u30001111\u30001111，下月到期。", "4111", "card"),
    "card-math-bold": ("The card is 𝟒𝟏𝟏𝟏 𝟏𝟏𝟏𝟏 𝟏𝟏𝟏𝟏 𝟏𝟏𝟏𝟏, keep it on file.", "𝟏𝟏𝟏𝟏", "card"),
    "card-arabic-indic": ("The card is ٤١١١ ١١١١ ١١١١ ١١١١, keep it on file.", "١١١١", "card"),
    "card-unicode-hyphen": ("The card is 4111\u20101111\u20101111\u20101111, keep it on file.", "4111", "card"),
    "ssn-nb-hyphen": ("my ssn is 078\u201105\u20111120, for the tax form", "1120", "national_id"),
    "phone-nb-hyphen": ("my phone is 555\u2011867\u20115309 (call after 6)", "5309", "phone"),
    "email-fullwidth": ("Contact the tenant at ｌｉｎａ．ｗｅｉ＠ｇｍａｉｌ．ｃｏｍ about the lease.", "ｌｉｎａ", "email"),
    "zh-id-fullwidth": ("张三的身份证号 １１０１０５１９４９１２３１００２Ｘ，已登记。", "１１０１０５", "cn_id"),
    "api-secret-fullwidth": ("AWS key AKIAIOSFODNN7EXAMPLE secret ｗＪａｌｒＸＵｔｎＦＥＭＩ／Ｋ７ＭＤＥＮＧ／ｂＰｘＲｆｉＣＹＥＸＡＭＰＬＥＫＥＹ",
                             "ｗＪａｌｒ", "api_key"),
}


@pytest.mark.parametrize("case", list(LOOK_ALIKES))
def test_a_value_typed_with_look_alike_characters_is_redacted(case: str) -> None:
    text, value, kind = LOOK_ALIKES[case]
    redacted = redact(text)
    assert value not in redacted.text, redacted.text
    assert kind in redacted.kinds, redacted.kinds


def test_the_finding_covers_the_stored_characters_and_the_rest_of_the_text_stays() -> None:
    text = "付款卡：４１１１ １１１１ １１１１ １１１１，谢谢！"
    [finding] = find_sensitive(text, tagger=False)
    assert text[finding.start : finding.end] == "４１１１ １１１１ １１１１ １１１１"
    assert redact(text, tagger=False).text == "付款卡：[REDACTED:card]，谢谢！"  # the full-width punctuation stays


def test_look_alikes_outside_any_value_are_kept_as_written() -> None:
    for text in ("会议改到周三下午３点，在３楼大会议室。", "Ｗｉｎｄｏｗｓ　１１ ships\u00a0today; the build is 4\u2011core only.",
                 "版本号 ｖ２．３．１ 已发布！", "Room 12\u2009B, level ３ — see you there."):
        assert redact(text).text == text


def test_a_look_alike_value_is_not_stored_in_clear_through_the_engine(bag_engine: MemoryEngine) -> None:
    result = bag_engine.store_memory({"content": "Paid the invoice with my card 4111\u00a01111\u00a01111\u00a01111 today.",
                                      "tags": ["billing"], "metadata": {"card": "４１１１１１１１１１１１１１１１"}})
    memory = bag_engine.get(result.memory_id)
    assert "1111" not in memory.content and "１１１１" not in str(memory.metadata), (memory.content, memory.metadata)


def test_folding_stays_linear() -> None:
    unit = "Card ４１１１ １１１１ １１１１ １１１１ or 555\u2011867\u20115309, ｌｉｎａ＠ｑｑ．ｃｏｍ\u00a0ok. "
    assert_not_superlinear(lambda t: redact(t, tagger=False), unit * 10, unit * 100)
