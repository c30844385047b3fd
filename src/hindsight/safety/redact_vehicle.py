"""A vehicle's model year, make and model read as a house number and a street (redaction round 36, issue 10).

"the 2018 Triumph Street Triple", "a 2019 Harley-Davidson Road King", "2023 Toyota Tacoma Trail": a year, a maker's
name and a model whose name holds a street type match ``redact_address``'s "number, capitalised words, street type".
Such a match is no address when its number is a model year (1900 - 2039), the word right after it is a vehicle maker,
and nothing says it is a place: no address cue right before it ("address", "lives at", "ship to", "at", "to", 住,
寄到) and no comma, postcode or unit right after it ("2018 Ford Street, Dearborn, MI 48124" stays an address).
"""

from __future__ import annotations

import re

_MAKES = (r"Triumph|Honda|Yamaha|Kawasaki|Suzuki|Ducati|Harley(?:-Davidson)?|BMW|KTM|Aprilia|Indian|Royal\s+Enfield|Vespa|Piaggio|"
          r"Husqvarna|Benelli|MV\s+Agusta|Moto\s+Guzzi|Bajaj|Polaris|Can-Am|Toyota|Ford|Chevrolet|Chevy|Nissan|Mazda|Subaru|"
          r"Volkswagen|VW|Audi|Mercedes(?:-Benz)?|Porsche|Tesla|Hyundai|Kia|Jeep|Dodge|Ram|GMC|Buick|Cadillac|Lexus|Acura|"
          r"Infiniti|Volvo|Jaguar|Land\s+Rover|Range\s+Rover|Mini|Fiat|Alfa\s+Romeo|Peugeot|Renault|Citroen|Skoda|Lincoln|"
          r"Chrysler|Mitsubishi|Genesis|BYD|Geely|Rivian|Lucid|Airstream|Winnebago|Freightliner|Peterbilt|Kenworth|Scania|Iveco")
_MODEL_YEAR = re.compile(r"(?:19|20[0-3])\d\s+(?:" + _MAKES + r")(?![A-Za-z])")
_PLACE_BEFORE = re.compile(r"(?i)(?:address|addr|located|lives?|living|resides?|moved|ship(?:ped)?|send|sent|deliver(?:ed)?|mail(?:ed)?|"
                           r"post(?:ed)?|at|to|on|住|寄到|送到|地址)\W{0,3}$")
_PLACE_AFTER = re.compile(r"\s*(?:,|\b(?:Apt|Unit|Suite|Flat)\b|[A-Z]{2}\s+\d{5}|\d{5})")


def model_year(text: str, start: int, end: int) -> bool:
    """Is the address match ``text[start:end]`` a vehicle's model year, make and model?"""
    if not _MODEL_YEAR.match(text, start):
        return False
    return not _PLACE_BEFORE.search(text, max(0, start - 24), start) and not _PLACE_AFTER.match(text, end)
