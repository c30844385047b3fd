"""Redaction round 39 (issue 10): blind round 37's misses and over-redactions by kind, in wordings of our own (none
copied from a set).

Misses: a seed phrase quoted whole (12 - 24 words) in a sentence that named the wallet well before it ("the wallet
words ..., here they are in case it gets lost: '...'"); a health-card number (Medicare, NHS, 医保卡号) asked for in a chat and answered in groups; a password asked for by its short name ("pw") or answered with a filler word after it ("it's X lol"); a one-time code named as texted or emailed to someone and given in the next clause ("texted me a code for the
reader, it's 550317"); a code whose digits carry a one-capital prefix ("G-582046"); a card's security code after the card's expiry under a short label ("sec", "sc", "code") or none; a home
address whose sentence names a workplace only to rule it out ("to my home, not the office: ...", "别寄到公司，寄到家里：").
Look-alikes that stay: a configuration line whose value is empty ("DB_PASSWORD=") does not take the next line as its
value; a public desk's mailbox (tours@, visits@, groups@, venue hire) is an organisation's contact.
"""

from __future__ import annotations

from redaction_round import round_tests

_WORDS_12 = "velvet orbit canyon mirror lunar bridge tonic harvest pledge quartz ember alpine"
_WORDS_15 = "glove river fossil anchor bronze timber lyric orbit salad frown pilot ember quarry violin tonic"

# (text, the values that go, the facts that stay)
GONE = [
    # a value that only starts like such a word is still a password
    ("the POS admin password is again2024?x now", ["again2024?x"], ["POS admin"]),
    # a seed phrase quoted whole, its wallet named earlier in the sentence but not right before it
    (f"mum: the wallet recovery words are in the recipe tin, copying them here just in case: '{_WORDS_12}'\nme: delete this",
     ["velvet orbit", "ember alpine"], ["recipe tin"]),
    (f"Backup of the Ledger words from the safe, typed out for the lawyer: \"{_WORDS_15}\" - then shred the paper.",
     ["glove river", "violin tonic"], ["shred the paper"]),
    (f"爸：比特币钱包的那张纸找不到了，我之前抄了一份放这里以防万一：“{_WORDS_12}”", ["velvet orbit", "ember alpine"],
     ["以防万一"]),
    # a password asked for by its short name (pw) or answered with a filler word after it ("lol", "haha", "哈哈")
    ("jo: what's the shop wifi pw again?\nkai: it's lantern-moth-42, same as last month", ["lantern-moth-42"],
     ["same as last month"]),
    ("jo: what's the till password?\nkai: it's Vinyl-Crate-19 lol, keep it off the sticky notes", ["Vinyl-Crate-19"],
     ["sticky notes"]),
    ("小周：后台密码多少来着？\n我：是 Moth-Lamp-66 哈哈，别贴在屏幕上", ["Moth-Lamp-66"], ["别贴在屏幕上"]),
    # a health-card number asked for in a chat and answered in its printed groups
    ("nurse: can I get his Medicare number?\ndad: 4417 20983 2, he's on my card", ["4417 20983 2"], ["he's on my card"]),
    ("receptionist: and your NHS number please?\nme: 485 777 3456, I'm registered at Elm Road", ["485 777 3456"],
     ["registered at Elm Road"]),
    ("护士：孩子的医保卡号多少？\n我：1024 5567 8890，是他自己的卡", ["1024 5567 8890"], ["是他自己的卡"]),
    # a card's security code after its expiry, under a short label
    ("Deposit card: 4111 1111 1111 1111, exp 09/28, sec 417. Deposit is 200 EUR.", ["417"], ["200 EUR"]),
    ("Visa for the hotel hold: 4111 1111 1111 1111, valid thru 2028-11, sc: 9032, billing zip later.", ["9032"],
     ["hotel hold"]),
    ("押金用的信用卡：4111 1111 1111 1111，有效期 2029-03，sec 558，押金两千。", ["558"], ["押金两千"]),
    # a code named as texted / emailed to someone, given in the next clause ("it's ...")
    ("the clinic emailed me a code to confirm the booking, it's 804213, can you read it back to them?", ["804213"],
     ["confirm the booking"]),
    ("Dispatch texted us a new PIN for the depot gate; it's 7730. Trucks arrive at noon.", ["7730"], ["Trucks arrive at noon"]),
    ("刚才银行发了个验证码给我，就是 604715，你帮我输一下。", ["604715"], ["你帮我输一下"]),
    # a code whose digits carry a one-capital prefix, as a service writes it ("G-582046")
    ("The approval code from the ferry portal is G-582046; boarding at 9.", ["582046"], ["boarding at 9"]),
    ("短信里的码是 G-730915，十分钟内有效。", ["730915"], ["十分钟内有效"]),
    # a home address whose sentence rules the workplace out
    ("Send the spare keys to my flat, not the office: 17 Rowan Terrace, Flat 2, York YO10 4DB.", ["17 Rowan Terrace"],
     ["spare keys"]),
    ("Deliver the parcel to my house rather than the warehouse: 88 Birch Road, Bristol BS7 8AA.", ["88 Birch Road"],
     ["parcel"]),
]

KEEP = [
    # a word a question or a request puts after the noun is no password (lead, after r37: "again?" was redacted)
    ("mike: what's the POS admin password again?", ["again?"]),
    ("What was the guest wifi password again? I lost the card.", ["again?"]),
    ("Can you send me the vault password please!", ["please!"]),
    ("pw again? the one on the whiteboard got wiped", ["again?"]),
    # a quoted line of plain words in a wallet's sentence that is prose, or not a phrase's count, stays
    ("the wallet ad said: 'store your coins in the safest wallet there is for the whole family'", ["safest wallet"]),
    ("wallet words game: 'apple river stone cloud'", ["apple river stone cloud"]),
    # an empty value in a configuration file does not reach into the next line
    (".env.sample:\nAPI_SECRET=changeme\nADMIN_PASSWORD=\nCACHE_URL=memcached://localhost:11211", ["CACHE_URL=memcached://localhost:11211"]),
    ("配置模板：\nDB_PASSWORD=\nDB_HOST=127.0.0.1\nDB_PORT=5432", ["DB_HOST=127.0.0.1"]),
    # a public desk's mailbox
    ("Museum visits are arranged through visits@harbourmuseum.org or by phone.", ["visits@harbourmuseum.org"]),
    ("Group tours: write to tours@oldmill-brewery.co.uk, two weeks ahead.", ["tours@oldmill-brewery.co.uk"]),
    ("场地租借请联系 venue@riversidehall.cn，工作日回复。", ["venue@riversidehall.cn"]),
    # still kept: the card's expiry alone is no code; a warehouse address announced as the warehouse's stays public
    ("Card ending 1111, exp 09/28, section 4 of the form is done.", ["section 4"]),
]

test_secret_gone_fact_kept, test_lookalike_kept = round_tests(GONE, KEEP)
