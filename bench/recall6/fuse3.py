from fuse import table  # loads the pickle named by sys.argv[1]
from fuse2 import slots2

print(f"{'base':28s}", table(lambda q: q["lists"]["base"]))
for aux in ["strip_spk", "approx0.3", "approx0.5", "approx0.7"]:
    print(f"slot2 {aux:12s} n2 m3       ", table(lambda q, aux=aux: slots2(q, aux, 2, 3)))
