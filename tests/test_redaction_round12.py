"""Redaction round 12: the kinds blind r12's PII writer found (EN and ZH, new wordings, none copied from the set).

- a bank account with its bank named between the cue and the number ("acct # at Ally is ...");
- a Chinese address whose house number and building-unit-room are written with dashes ("56-3号2-4-1");
- a four-class password in a clause about a password or a reset mailbox, short ones included ("我的就是 X");
- a seed phrase after a wallet's name and a colon, when the words read as a mnemonic and not as prose;
- a value the text declares public where it stands ("（这个可以公开）", "(public)") stays.
"""

from __future__ import annotations

import pytest

from hindsight.safety.redact import redact

PII = [
    ("My checking account with Barclays is 55012398, the rent leaves it on the 1st.", "55012398"),
    ("Savings acct # at Ally is 3307719442 - the emergency fund.", "3307719442"),
    ("外婆住在哈尔滨市道里区安静街12-5号1-3-201，周末去看她。", "安静街12-5号1-3-201"),
    ("After Monday's reset the support mailbox (help-de) uses Tk8$wQm2Lr until IT rotates it.", "Tk8$wQm2Lr"),
    ("新员工的初始口令都是工号加#Hr，我的是 A1027b#Hr，还没改。", "A1027b#Hr"),
    ("门户的默认密码是手机号后四位加@Ab，我的是 8832Q@Ab，下周要改。", "8832Q@Ab"),
    ("Trezor spare, wallet 'hot-3': maple rocket sudden ginger basket orbit valley tunnel cheese proud salad frame",
     "maple rocket sudden ginger basket orbit valley tunnel cheese proud salad frame"),
    ("备用冷钱包（家里保险柜那台）：航 拿 宽 杂 翠 洪 隐 豆 氏 耗 盐 荣", "航 拿 宽 杂 翠 洪 隐 豆 氏 耗 盐 荣"),
    ("公众号 AppID wx1a2b3c4d5e6f7a8b（公开的），AppSecret 9f8e7d6c5b4a39281706f5e4d3c2b1a0，别外传。",
     "9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
    ("OAuth app: client id 8c1f0e2a9b7d4c3e5f60 (not public), client secret Q9xT2mLp8RvW4kZs7NcB.", "8c1f0e2a9b7d4c3e5f60"),
]

KEEP = [
    ("公众号 AppID wx1a2b3c4d5e6f7a8b（公开的），AppSecret 9f8e7d6c5b4a39281706f5e4d3c2b1a0，别外传。", "wx1a2b3c4d5e6f7a8b"),
    ("The OAuth client id 7b2e9c4f1a0d8e3b6c5a (public) goes in the mobile app's config.", "7b2e9c4f1a0d8e3b6c5a"),
    ("Support ticket for the account at Zendesk is 20481234, still open.", "20481234"),
    ("我家在红旗街8号，2024-05-01 搬来的。", "2024-05-01"),
    ("Lost my wallet: i think it fell out of the car when we stopped for gas near the old bridge", "the car when"),
    ("The mailbox quota was reset to 50GB on Friday; nothing else changed.", "50GB"),
    ("邮箱迁移以后 Build#42 才发布，口令不变。", "Build#42"),
    ("工单 56-3-1 已经关闭，处理人在三楼。", "56-3-1"),
]


@pytest.mark.parametrize(("text", "secret"), PII)
@pytest.mark.parametrize("tagger", [False, True])
def test_the_value_goes(text: str, secret: str, tagger: bool) -> None:
    assert secret not in redact(text, tagger=tagger).text


@pytest.mark.parametrize(("text", "kept"), KEEP)
@pytest.mark.parametrize("tagger", [False, True])
def test_the_look_alike_stays(text: str, kept: str, tagger: bool) -> None:
    assert kept in redact(text, tagger=tagger).text
