"""Redaction round 44 (issue 10): blind r39's misses, each read as a rule family (EN + ZH), in our own wordings.

- A pair's half the text declares public stays: right after its value with no bracket ("PublicKey = ... 可以公开") or by
  its key's name later on ("appid可以公开", "The client ID is public"); the secret half still goes.
- A secret named by what it signs ("signing secret", "webhook secret") takes its key id along, as "secret" does.
- A seed phrase written as numbered words ("1 maple 2 orbit ... 12 velvet"), its wallet named earlier on the line.
- A code told to be entered into an app / prompt at a sign-in ("enter 53 18 06 in the app", "在App里输入 ...").
- A recovery / backup key named with hyphenated words before "is" ("for the e-mail console is ...").
- An Australian mobile in its 4-3-3 groups, spaced or hyphenated, in a list.
Examples are our own (none copied from a set).
"""

from __future__ import annotations

from redaction_round import round_tests

from hindsight.safety.redact_quoted_seed import find_quoted_seeds

_WG_PRIV = "sK9vQ2mLx7Rt4Wn8Zp3Bc6Yh1Jd5Fg0Ua2Ie7Oo4Pq="
_WG_PUB = "Hn4Lq8Tz2Vw6Xb9Mc3Rd7Sf1Gk5Jp0Ya8Ue2Io6Wq="
_SEED = "1 maple 2 orbit 3 canvas 4 lunar 5 pepper 6 shadow 7 timber 8 yellow 9 coral 10 fabric 11 noble 12 velvet"

GONE = [
    ("小程序配置：appid是wx5c2e8a1f7d3b9e60，appsecret是8d2f6a1c9e4b7d3f0a5c8e2b6d9f1a4c。appid可以公开，secret不行。",
     ["8d2f6a1c9e4b7d3f0a5c8e2b6d9f1a4c"], ["wx5c2e8a1f7d3b9e60"]),
    ("OAuth app: client id is cl_7Hq2Xv9Lm4Rt, client secret is Zr8Kp2Wq6Yt1Nv5Bx9Mc3Ld7Fh0Js4Ga. The client ID is public.",
     ["Zr8Kp2Wq6Yt1Nv5Bx9Mc3Ld7Fh0Js4Ga"], ["cl_7Hq2Xv9Lm4Rt"]),
    (f"隧道配置：\nPrivateKey = {_WG_PRIV}\n对端公钥 PublicKey = {_WG_PUB} 可以公开，私钥别外传。", [_WG_PRIV], [_WG_PUB]),
    ("The billing hook uses key id kid_8f3a61d2 with signing secret whsec_Lm4Qx8Vt2Rz6Kb1Nw9Yc5Hp3. Rotate in May.",
     ["kid_8f3a61d2", "whsec_Lm4Qx8Vt2Rz6Kb1Nw9Yc5Hp3"], ["May"]),
    (f"Ana wrote her bitcoin seed on a sticky note, which worries me. It says: {_SEED}. She will move it tonight.",
     [_SEED], ["Ana", "tonight"]),
    ("My Trezor backup, numbered: 1. maple, 2. orbit, 3. canvas, 4. lunar, 5. pepper, 6. shadow, 7. timber, 8. yellow, "
     "9. coral, 10. fabric, 11. noble, 12. velvet", ["maple", "velvet"], ["Trezor"]),
    ("Sign-in approval for the payroll console: enter 53 18 06 in the app (asked from Leeds at 09:40).",
     ["53 18 06"], ["Leeds", "09:40"]),
    ("登录审批：请在App里输入 62 07 39 完成登录。", ["62 07 39"], ["登录审批"]),
    ("验证一下：输入 418 227 到验证器。", ["418 227"], []),
    ("2FA recovery key for the e-mail console is H4TQ-M8PX-2VKB-7NZC.", ["H4TQ-M8PX-2VKB-7NZC"], ["e-mail console"]),
    ("Backup code for the X-ray booking site is 7KQP-2MX9-WB4T.", ["7KQP-2MX9-WB4T"], ["X-ray booking site"]),
    ("Volunteer drivers: Priya 0421 558 903, Tom 0487-330-612, Lee +61 4 1122 3344.",
     ["0421 558 903", "0487-330-612", "+61 4 1122 3344"], ["Priya", "Tom", "Lee"]),
]
KEEP = [
    ("Type 1200 into the prompt to set the spindle speed.", ["1200"]),
    ("Checklist items 1 open 2 close 3 lock 4 check 5 seal 6 note 7 sign 8 file 9 send 10 wait 11 read 12 done.",
     ["1 open 2 close"]),
    ("Order 0421 558 903 ships Tuesday; total 0487-330-612 items.", ["0487-330-612"]),
]

test_secret_gone_fact_kept, test_lookalike_kept = round_tests(GONE, KEEP)


def test_numbered_words_must_count_up_from_one() -> None:
    skipped = "1 maple 3 orbit 4 canvas 5 lunar 6 pepper 7 shadow 8 timber 9 yellow 10 coral 11 fabric 12 noble 13 velvet"
    assert find_quoted_seeds("my bitcoin seed: " + skipped) == []
    assert find_quoted_seeds("my bitcoin seed reads " + _SEED)


def test_a_question_declares_nothing_public() -> None:
    """"appid可以公开吗？" asks; the pair's ID half goes with its secret as before."""
    from hindsight.safety.redact import redact

    out = redact("小程序：appid是wx5c2e8a1f7d3b9e60，appsecret是8d2f6a1c9e4b7d3f0a5c8e2b6d9f1a4c。appid可以公开吗？").text
    assert "wx5c2e8a1f7d3b9e60" not in out and "8d2f6a1c9e4b7d3f0a5c8e2b6d9f1a4c" not in out, out
