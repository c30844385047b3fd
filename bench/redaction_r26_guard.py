import json, sys
from hindsight.safety.guard import screen
from hindsight.safety.redact import redact
d = json.load(open(sys.argv[1]))
for t, out in zip(d["texts"]["nonpii"], d["rules"]["nonpii"]):
    v = screen(redact(t).text)
    print(v.suspicious, round(getattr(v, "score", 0) or 0, 3), out[:70])
