"""Redaction round 46 (phone46): libphonenumber's own example numbers (mobile and fixed line, national and
international format) of 28 countries, each in one person sentence with no cue ("Anna wrote down X for me yesterday."):
in sample, a probe of the forms the hand-written readers miss. A case misses when the number stays or is not read as a
phone (a password label counts as a miss of the phone reading, though the value is gone).

    PYTHONPATH=<src> .venv/bin/python bench/phone46_forms.py > OUT.txt      # needs phonenumbers importable
"""
import phonenumbers as pn
from phonenumbers import PhoneNumberFormat as F
from phonenumbers import PhoneNumberType as T

from hindsight.safety.redact import redact

REG = ["GB", "DE", "FR", "ES", "IT", "NL", "AT", "CH", "BE", "SE", "PL", "IE", "PT", "AU", "NZ", "JP", "KR", "US", "CA", "IN",
       "CN", "HK", "TW", "SG", "BR", "MX", "RU", "ZA"]


def main() -> None:
    miss = tot = 0
    for reg in REG:
        for typ in (T.MOBILE, T.FIXED_LINE):
            n = pn.example_number_for_type(reg, typ)
            if n is None:
                continue
            for fmt in (F.NATIONAL, F.INTERNATIONAL):
                s = pn.format_number(n, fmt)
                out = redact(f"Anna wrote down {s} for me yesterday.").text
                tot += 1
                if s in out or "phone" not in out:
                    miss += 1
                    print(reg, typ, fmt, repr(s), "->", out)
    print(miss, "/", tot)


if __name__ == "__main__":
    main()
