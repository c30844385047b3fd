"""Print missed questions of a category with their evidence and the shipped top 10 (recall7; measurement only)."""
import sys

cat, n = sys.argv[2], int(sys.argv[3])
sys.argv = sys.argv[:2] + sys.argv[4:]
from fuse import data  # noqa: E402

shown = 0
for q in data:
    if q["cat"] != cat or all(e in q["base"][:10] for e in q["evidence"]):
        continue
    st = q["store"]
    text = dict(zip(st["dia"], st["content"]))
    print("Q", q["q"], "| names", q["names"], "| topic", q["topic"])
    for e in q["evidence"]:
        r = q["base"].index(e) + 1 if e in q["base"] else None
        print(f"   EV {e} rank {r}: {text.get(e, '?')[:150]}")
    for x in q["base"][:10]:
        print(f"      top {x}: {text.get(x, '?')[:110]}")
    shown += 1
    if shown >= n:
        break
