import pickle, sys
exec(open(__import__("os").path.join(__import__("os").path.dirname(__file__), "fuse2.py")).read().split("print(f\"{'base'")[0])
print(f"{'base':28s}", table(lambda q: q["lists"]["base"]))
for aux in ["strip_spk", "approx0.3", "approx0.5", "approx0.7"]:
    print(f"slot2 {aux:12s} n2 m3       ", table(lambda q: slots2(q, aux, 2, 3)))
