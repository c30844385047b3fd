import pickle
import re
import statistics
import sys
from collections import defaultdict

data = pickle.load(open(sys.argv[1], "rb"))
CATS = ["multi-hop", "temporal", "open-domain", "single-hop"]
def R(ev, lst, k=10): return len(set(ev) & set(lst[:k])) / len(set(ev))
def table(fn, gate=lambda q: True):
    by = defaultdict(list)
    for q in data:
        lst = fn(q) if gate(q) else q["lists"]["base"]
        r = R(q["evidence"], lst)
        by["all"].append(r)
        by[q["cat"]].append(r)
    return " ".join(f"{statistics.fmean(by[c]):.3f}" for c in ["all"] + CATS)
def rrf(q, aux, w, k=10, depth=50):
    s = defaultdict(float)
    for i, m in enumerate(q["lists"]["base"][:depth]):
        s[m] += 1 / (k + i + 1)
    for a in aux:
        for i, m in enumerate(q["lists"].get(a, [])[:depth]):
            s[m] += w / (k + i + 1)
    return sorted(s, key=lambda m: -s[m])
def slots(q, aux, n):
    base = q["lists"]["base"]
    head = base[: 10 - n]
    extra = [m for m in q["lists"].get(aux, []) if m not in head][:n] if aux in q["lists"] else base[10 - n:10]
    out = head + extra
    return out + [m for m in base if m not in out]
LIST = re.compile(r"^(what|which|where|who|how)\b.*\b(activities|events|things|books|ways|types|kinds|places|items|hobbies|sports|instruments|pets|games|countries|cities|states|artists|bands|songs|movies|shows|foods|plays|classes|subjects|symbols|family|kids|children|friends)\b|\bboth\b|\bhas\b.*\b(done|made|read|visited|tried|painted|taken)\b", re.I)
gates = {"all": lambda q: True, "names": lambda q: bool(q["names"]), "list": lambda q: bool(LIST.search(q["q"]))}
def main() -> None:
    print("variant                      all    mh     temp   od     sh")
    print(f"{'base':28s}", table(lambda q: q["lists"]["base"]))
    for g, gate in gates.items():
        print("gate", g, sum(map(gate, data)), "of", len(data), {c: sum(1 for q in data if q["cat"] == c and gate(q)) for c in CATS})
        for aux in ["dense_all", "spk", "mlt", "strip", "strip_spk", ("hit0", "hit1", "hit2")]:
            a = aux if isinstance(aux, tuple) else (aux,)
            for w in [0.2, 0.5, 1.0]:
                print(f"{g:5s} rrf {'+'.join(a)[:14]:14s} w{w:<4}", table(lambda q, a=a, w=w: rrf(q, a, w), gate))
            if len(a) == 1:
                for n in [1, 2, 3]:
                    print(f"{g:5s} slot {a[0]:14s} n{n:<4}", table(lambda q, a=a, n=n: slots(q, a[0], n), gate))


if __name__ == "__main__":
    main()
