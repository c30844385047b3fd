from fuse import rrf, table  # loads the pickle named by sys.argv[1]


def slots2(q, aux, n, m):
    # the sub-query's best m; those not already in the head take the last n places of the top 10
    base = q["lists"]["base"]
    head = base[: 10 - n]
    if aux not in q["lists"]:
        return base
    extra = [x for x in q["lists"][aux][:m] if x not in head][:n]
    out = head + extra
    out += [x for x in base if x not in out]
    return out
def main() -> None:
    print(f"{'base':28s}", table(lambda q: q["lists"]["base"]))
    for n, m in [(1,1),(1,2),(2,2),(2,3),(2,5),(3,3),(3,5)]:
        print(f"slot2 strip_spk n{n} m{m:<10}", table(lambda q, n=n, m=m: slots2(q, "strip_spk", n, m)))
    for w in [0.3, 0.4, 0.6]:
        print(f"rrf strip_spk w{w:<15}", table(lambda q, w=w: rrf(q, ("strip_spk",), w)))


if __name__ == "__main__":
    main()
