"""Redaction round 38 (issue 10): blind round 36's misses and over-redactions by kind, in wordings of our own (none
copied from a set).

Misses: a mnemonic seed phrase whose cue ("my Trezor words, all 12:") is followed by a few words before the colon, or
whose words carry accents (a Spanish or French list); an identity document's number in a record - JSON, a Python dict,
YAML - under a key that names the document ("dni", "nie", "passport_no", "回乡证"); a document's number given in the
sentence right after the one that names it ("wants my passport number again. it's K8TR2M4P7"), in chat lines too; a
Home Return Permit (回乡证), a residence permit or a travel permit named by its document word. Look-alikes that stay:
a content identifier (an IPFS CID, v0 or v1, a content address), a record number the text calls internal ("只是诊所内部
编号", "just the clinic's internal reference"), a document word followed by a sentence that gives no number.
"""

from __future__ import annotations

import pytest
from linear_cost import assert_not_superlinear
from redaction_round import round_tests

from hindsight.safety.redact import redact

_TREZOR_12 = "orbit velvet canyon mirror lunar bridge tonic harvest pledge quartz ember alpine"
_WORDS_24 = ("sponsor lizard marble velvet canoe hybrid orbit ripple tunnel pledge spice anchor "
             "mango cradle fiber nephew kiwi glacier timber noodle lunar bubble zebra hollow")
_SPANISH_12 = "ábaco abdomen abeja abierto abogado abono aborto abrazo abrir abuelo abuso acabar"

# (text, the values that go, the facts that stay)
GONE = [
    # a seed phrase: a few words between the cue and the colon, a lead word, accented words, a ZH wallet
    (f"Backing up my Trezor words, all 12: {_TREZOR_12}. The Trezor is in the safe.", ["orbit", "quartz", "alpine"],
     ["The Trezor is in the safe"]),
    (f"my recovery words (all 24): {_WORDS_24} - keep this off the cloud", ["sponsor", "glacier", "hollow"],
     ["keep this off the cloud"]),
    (f"The cold wallet's words are: {_TREZOR_12}. Don't photograph them.", ["orbit", "alpine"], ["Don't photograph them"]),
    (f"Seed phrase was {_TREZOR_12}, written on the steel plate.", ["orbit", "alpine"], ["written on the steel plate"]),
    (f"Ledger backup, every one of the 24 words: {_WORDS_24}. Drawer two.", ["sponsor", "hollow"], ["Drawer two"]),
    (f"wallet words: {_SPANISH_12}", ["ábaco", "acabar"], ["wallet words"]),
    ("冷钱包的12个词：山 水 风 火 木 金 土 日 月 星 云 雷，抄在纸上了。", ["山 水 风 火"], ["抄在纸上了"]),
    # an identity document's number in a record, under a key that names the document
    ('applicant: {"name": "Lucía Gómez", "nie": "X1234567L", "course": "B2"}', ["X1234567L"], ["B2", "Lucía Gómez"]),
    ('{"passport_no": "E48213977", "nationality": "CN", "seat": "14C"}', ["E48213977"], ["14C"]),
    ("passenger = {'passportNumber': 'PA7731942', 'meal': 'veg'}", ["PA7731942"], ["veg"]),
    ('{"姓名": "李娜", "回乡证": "H1234567801", "航班": "CX368"}', ["H1234567801"], ["CX368"]),
    ('{"dni_number": "71234568Z", "talla": "M"}', ["71234568Z"], ["talla"]),
    ("guest:\n  name: Ana\n  dni: 12345678Z\n  room: 204", ["12345678Z"], ["204"]),
    ('{"港澳通行证号": "C12345678", "团号": "GD0615"}', ["C12345678"], ["GD0615"]),
    ('{"name": "Tom", "dni": "52963418J", "weight_kg": 81}', ["52963418J"], ["81"]),
    # a document's number given in the sentence after the one that names it, and in a chat line
    ("ugh, the visa office wants my passport number again. it's K8TR2M4P7, same as before", ["K8TR2M4P7"],
     ["same as before"]),
    ("Bank asked for my DNI. It's 53829174H, they'll call back.", ["53829174H"], ["they'll call back"]),
    ("The hotel needs Mum's passport number — it's 529871034, she's arriving Friday.", ["529871034"], ["arriving Friday"]),
    ("她又问我护照号码。是 E39182734，跟上次一样。", ["E39182734"], ["跟上次一样"]),
    ("回乡证号码又要了，就是 M12345678。", ["M12345678"], ["又要了"]),
    ("Agent: I need your passport number please\nMe: it's C7XK2P9R4, issued in Berlin", ["C7XK2P9R4"], ["issued in Berlin"]),
    ("客服：请提供一下护照号\n我：EJ4829173，谢谢", ["EJ4829173"], ["谢谢"]),
    # a permit named by its document word
    ("表哥的回乡证号码 H0921734561，周末过关用。", ["H0921734561"], ["周末过关用"]),
    ("陈老师的回乡证是M08213947，下周来上课。", ["M08213947"], ["下周来上课"]),
    ("Her Home Return Permit number is H1029384756, she crosses at Lo Wu.", ["H1029384756"], ["she crosses at Lo Wu"]),
    ("Residence permit no. RP2048817, renewal due in May.", ["RP2048817"], ["renewal due in May"]),
    ("往来港澳通行证 C23456781，签注还剩两次。", ["C23456781"], ["签注还剩两次"]),
    # controls: a record number that is nobody's internal number, a person's MRN
    ("病历号P-2024-009912，复诊时报给护士。", ["P-2024-009912"], ["复诊时报给护士"]),
    ("MRN 00482911 - needed at check-in for the scan.", ["00482911"], ["needed at check-in"]),
]

# (text, the values that stay)
KEEP = [
    # a content identifier: an IPFS CID (v0, v1), a content address
    ("图册放在IPFS上，内容地址QmT5NvUtoM5nWFfrQdVrFtvGfKFmG7AHE8P34isapyhCxX，谁都能下载。",
     ["QmT5NvUtoM5nWFfrQdVrFtvGfKFmG7AHE8P34isapyhCxX"]),
    ("The zine is pinned on IPFS: bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi, anyone can fetch it.",
     ["bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi"]),
    ("Mirror: ipfs://QmXoypizjW3WknFiJnKLwHCnL72vedxjQkDDP1mXWo6uco/wiki/ is the offline Wikipedia.",
     ["QmXoypizjW3WknFiJnKLwHCnL72vedxjQkDDP1mXWo6uco"]),
    ("The dataset's content address is bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku, mirrored on three gateways.",
     ["bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku"]),
    ("新版手册的CID：QmPChd2hVbrJ6bfo3WBcTW4iZnpHm8TEzWkLHmLpXhF68A，公开的。", ["QmPChd2hVbrJ6bfo3WBcTW4iZnpHm8TEzWkLHmLpXhF68A"]),
    # a record number the text calls internal
    ("病案号B-2023-118402只是医院内部编号，和身份证无关。", ["B-2023-118402"]),
    ("住院号Z20240077，这个只是科室内部编号。", ["Z20240077"]),
    ("MRN 00417725 is just the clinic's internal reference, not an ID.", ["00417725"]),
    ("Patient no. P-2025-00871 - only an internal record number at the practice.", ["P-2025-00871"]),
    ("门诊号MZ20240611037仅是挂号系统的内部流水号。", ["MZ20240611037"]),
    # a document word, then a sentence that gives no number; a record key about the document, not its number
    ("I renewed my passport last week. It's valid until 2035.", ["2035"]),
    ("Need the passport number? It's on page 2 of the scan.", ["page 2"]),
    ("The gate agent checked my passport. It's ORD2231 to Denver next.", ["ORD2231"]),
    ("护照办好了，是2024年办的。", ["2024年"]),
    ('{"passport_expiry": "2031-05-01", "passport_country": "ES", "order_id": "A1234567"}', ["2031-05-01", "A1234567"]),
    ('{"dni_verified": true, "ticket": "TK20240611"}', ["TK20240611"]),
    # words that are no seed phrase: no wallet, or prose after the cue
    ("The shopping list, in 12 words: milk eggs bread rice beans salt sugar tea coffee flour oil soap", ["milk eggs bread"]),
    ("My wallet words: it was the one with the blue strap and the zip that never closed properly.", ["blue strap"]),
]


test_secret_gone_fact_kept, test_lookalike_kept = round_tests(GONE, KEEP)


def _whole(text: str) -> object:
    return redact(text, tagger=False)


@pytest.mark.parametrize(("unit", "n"), [
    ("my passport number again. it's K8TR2M4P7, ", 60),
    ("passport passport passport. it's ", 80),
    (f"Trezor words, all 12: {_TREZOR_12}. ", 30),
    ('{"dni": "52963418J", "nie": "X1234567L"}, ', 60),
    ("病历号P-2024-005531只是内部编号，QmT5NvUtoM5nWFfrQdVrFtvGfKFmG7AHE8P34isapyhCxX，", 40),
], ids=["next-sentence", "next-sentence-adversarial", "seed", "record", "internal-cid"])
def test_linear_cost(unit: str, n: int) -> None:
    """Ten times the text costs about ten times as much (the whole redaction, rules only)."""
    assert_not_superlinear(_whole, unit * n, unit * 10 * n, slack=0.05)  # type: ignore[arg-type]
