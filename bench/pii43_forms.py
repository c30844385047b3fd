"""Redaction round 43: 73 phone forms (CN, UK, DE, FR, JP, AU, US; national and international) x 7 person sentences
with no contact cue right before the number, EN / ZH; a case passes when the number is gone as one [REDACTED:phone]
and no digit of it is left. Our own probe (dev, in sample).

    PYTHONPATH=<src> .venv/bin/python bench/pii43_forms.py
"""
import re

from hindsight.safety.redact import redact

FORMS = """0472 531 88 00|0472-531-88-00|0472 53 18 88 00|86-10-6275-1234|86 10 6275 1234|86-10-62751234|+86 (10) 6275 1234|+86 (0)10 6275 1234|+86-(10)-62751234|(+86) 10 6275 1234|+86.10.6275.1234|0086 (10) 6275 1234|+86 (472) 531 8800|+86 (0472) 5318800
020 7946 0321|+44 20 7946 0321|+44 (0)20 7946 0321|(020) 7946 0321|0113 496 0721|+44 (0) 113 496 0721|+44 (0)113 496 0721|07911 123456|+44 7911 123456|+44 (0)7911 123 456|0044 20 7946 0321
030 28475519|030/2847 5519|(030) 2847 5519|+49 30 2847 5519|+49 (0)30 2847 5519|+49 (30) 2847 5519|0171 2345678|+49 171 2345678|0171/2345678|089-2318-4456|+49 (0) 171 2345678|0049 30 2847 5519
01 42 68 53 00|01.42.68.53.00|01-42-68-53-00|+33 1 42 68 53 00|+33 (0)1 42 68 53 00|+33 (1) 42 68 53 00|06 12 34 56 78|+33 6 12 34 56 78|0033 1 42 68 53 00|+33 (0)6 12 34 56 78
03-5412-8890|(03) 5412-8890|+81-3-5412-8890|+81 (3) 5412 8890|+81 (0)3 5412 8890|090-4412-7735|+81 90-4412-7735|06-6341-2298|+81-90-4412-7735
(02) 9876 5432|02 9876 5432|+61 2 9876 5432|+61 (0)2 9876 5432|+61 (2) 9876 5432|0412 345 678|+61 412 345 678|+61 (0)412 345 678|08 9325 4471
(415) 728-3391|415-728-3391|415.728.3391|+1 415 728 3391|+1 (415) 728-3391|1-415-728-3391|1 (415) 728 3391|415 728 3391|+1.415.728.3391|001 415 728 3391""".split("\n")
CTX = ["Call Wang at {} tonight.", "His home phone is {}.", "Wang Lei: {}", "{} is Jen's number, she said.", "王磊的电话 {}，晚上打。", "找老周，{}。", "Ping me on {} if the bus is late."]
bad = 0
tot = 0
for line in FORMS:
    for f in line.split("|"):
        res = []
        for c in CTX:
            t = c.format(f)
            out = redact(t).text
            tot += 1
            lab = re.findall(r"\[REDACTED:(\w+)\]", out)
            left = re.sub(r"\[REDACTED:\w+\]", "", out)
            dig = sum(ch.isdigit() for ch in left)
            ok = (lab == ["phone"] and dig <= 0)
            bad += not ok
            res.append("ok" if ok else (",".join(lab) or "KEPT") + (f"+{dig}d" if dig > 0 else ""))
        print(f"{f:24s}", " ".join(f"{r:14s}" for r in res))
print("bad", bad, "of", tot)
