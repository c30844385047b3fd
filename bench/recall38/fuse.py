"""Round 38 offline attempts over collected rows (`collect.py`): where the missed evidence is, and every fusion of
an expansion list into the shipped top 50 (measurement only).

    python bench/recall38/fuse.py COL CONVS... [--where] [--pick FILE] [--apply FILE] [--out FILE.json]

R@10 all (multi-hop / temporal / open-domain / single-hop). Variants: list x {slot n: the list's best turns not
already in the first 10-n take places 10-n+1..10; RRF w: 1/(10+base rank) + w/(10+list rank) over both top 50s} x
{every question, only questions naming a speaker (list restricted to that speaker's turns)}. `--pick FILE` writes
the best variant on these conversations (choose on dev), `--apply FILE` scores that one variant (test, once).
The leave-one-conversation-out (LOCO) figure chooses on three dev conversations and scores the fourth.
"""
from __future__ import annotations

import json
import pickle
import re
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

CATS = ("multi-hop", "temporal", "open-domain", "single-hop")
SLOTS = (1, 2, 3)
WEIGHTS = (0.1, 0.2, 0.35, 0.5)


def load(col: Path, convs: list[int]) -> list[tuple[dict, dict]]:
    out = []
    for c in convs:
        with open(col / f"conv{c}.pkl", "rb") as fh:
            data = pickle.load(fh)
        store = data["store"]
        for q in data["questions"]:
            if q["qv"] is not None and "cos" not in q["lists"]:  # the query's cosine over every stored turn
                sims = store["matrix"] @ np.asarray(q["qv"], dtype=np.float32)
                q["lists"]["cos"] = [store["dia"][j] for j in np.argsort(-sims)[:100]]
            out.append((q, store))
    return out


def recall(evidence: list[str], top: list[str]) -> float:
    return len(set(evidence) & set(top[:10])) / len(set(evidence))


def summary(rows: list[tuple[dict, list[str]]]) -> tuple[float, dict[str, float]]:
    by: dict[str, list[float]] = defaultdict(list)
    for q, top in rows:
        by[q["cat"]].append(recall(q["evidence"], top))
    allv = [v for vs in by.values() for v in vs]
    return float(np.mean(allv)), {c: float(np.mean(by[c])) if by[c] else float("nan") for c in CATS}


def fmt(score: tuple[float, dict[str, float]]) -> str:
    total, cats = score
    return f"{total:.3f} ({' / '.join(f'{cats[c]:.3f}' for c in CATS)})"


def speaker_list(q: dict, store: dict, lst: list[str]) -> list[str] | None:
    """`lst` kept to the turns of the speakers the question names; None when it names none of the store's."""
    speakers = set(store["speaker"]) & set(q["names"])
    if not speakers:
        return None
    who = dict(zip(store["dia"], store["speaker"], strict=False))
    return [d for d in lst if who.get(d) in speakers]


FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|me|my|we|we're|our|us)\b", re.I)


def first_person(store: dict, lst: list[str]) -> list[str]:
    """The turns of `lst` whose own text speaks of the speaker (I, my, we ...): a per-speaker fact, not a reply."""
    own = dict(zip(store["dia"], store["own"], strict=False))
    return [d for d in lst if FIRST_PERSON.search(own.get(d, ""))]


def apply(q: dict, store: dict, variant: tuple[str, str, float, str]) -> list[str]:
    """restrict: 'all', 'speaker' (the named speakers' turns; base unchanged when none is named) or 'speaker-fp'
    (those that speak in the first person)."""
    name, how, param, restrict = variant
    base = q["base"]
    lst = q["lists"].get(name, [])
    if restrict != "all":
        restricted = speaker_list(q, store, lst)
        if restricted is None:
            return base
        lst = first_person(store, restricted) if restrict == "speaker-fp" else restricted
    if how == "slot":
        n = int(param)
        head = base[: 10 - n]
        extra = [d for d in lst if d not in head][:n]
        rest = [d for d in base if d not in head and d not in extra]
        return head + extra + rest
    score: dict[str, float] = defaultdict(float)
    for i, d in enumerate(base[:50]):
        score[d] += 1.0 / (10 + i + 1)
    for i, d in enumerate(lst[:50]):
        score[d] += param / (10 + i + 1)
    return sorted(score, key=lambda d: -score[d])


def variants(lists: list[str]) -> list[tuple[str, str, float, str]]:
    out = []
    for name in lists:
        for restrict in ("all", "speaker", "speaker-fp"):
            out += [(name, "slot", float(n), restrict) for n in SLOTS]
            out += [(name, "rrf", w, restrict) for w in WEIGHTS]
    return out


def where(rows: list[tuple[dict, dict]]) -> None:
    """Each evidence turn the shipped top 10 misses (multi-hop, open-domain): its rank in the top 50, in the first
    pass, by the query's cosine over the store, whether its speaker is named, whether a found evidence turn shares
    its session, and its best rank in any expansion list."""
    tally: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    examples: list[str] = []
    for q, store in rows:
        if q["cat"] not in ("multi-hop", "open-domain"):
            continue
        index = {d: i for i, d in enumerate(store["dia"])}
        sims = store["matrix"] @ np.asarray(q["qv"], dtype=np.float32) if q["qv"] is not None else None
        order = list(np.argsort(-sims)) if sims is not None else []
        cos_rank = {store["dia"][j]: r for r, j in enumerate(order)}
        found = [e for e in q["evidence"] if e in q["base"][:10]]
        found_sessions = {store["session"][index[e]] for e in found if e in index}
        named = set(store["speaker"]) & set(q["names"])
        t = tally[q["cat"]]
        t["questions"] += 1
        for e in q["evidence"]:
            t["evidence"] += 1
            if e in q["base"][:10]:
                t["found"] += 1
                continue
            if e not in index:
                t["missed: not a stored active turn"] += 1
                continue
            rank = q["base"].index(e) + 1 if e in q["base"] else None
            t["missed: base 11-20" if rank and rank <= 20 else "missed: base 21-50" if rank else "missed: not in top 50"] += 1
            if e not in q["first"]:
                t["  not among the first pass's candidates"] += 1
            cr = cos_rank.get(e, 9999)
            t["  cosine rank <= 50" if cr < 50 else "  cosine rank > 50"] += 1
            if named:
                t["  question names a speaker"] += 1
                t["  ... and the turn is that speaker's" if store["speaker"][index[e]] in named else
                  "  ... and the turn is the other speaker's"] += 1
            if store["session"][index[e]] in found_sessions:
                t["  shares a session with found evidence"] += 1
            if not found:
                t["  no evidence of the question found"] += 1
            best = min((lst.index(e) + 1 for lst in q["lists"].values() if e in lst[:10]), default=None)
            if best:
                t["  in the top 10 of some expansion list"] += 1
            if len(examples) < 25 and q["cat"] == "multi-hop":
                examples.append(f"{q['q']} | missed {e} (base {rank}, cos {cr + 1}) {store['own'][index[e]][:90]!r}")
    for cat, t in tally.items():
        print(cat, json.dumps(t, indent=1))
    print("\n".join(examples))


def main() -> None:
    col = Path(sys.argv[1])
    convs = [int(x) for x in sys.argv[2:] if x.isdigit()]
    rows = load(col, convs)
    if "--where" in sys.argv:
        where(rows)
        return
    print("shipped top 10:", fmt(summary([(q, q["base"]) for q, _ in rows])))
    names = sorted(rows[0][0]["lists"])
    if "--apply" in sys.argv:
        variant = tuple(json.loads(Path(sys.argv[sys.argv.index("--apply") + 1]).read_text()))
        applied = summary([(q, apply(q, s, variant)) for q, s in rows])  # type: ignore[arg-type]
        print("applied", variant, fmt(applied))
        if "--out" in sys.argv:
            Path(sys.argv[sys.argv.index("--out") + 1]).write_text(json.dumps({
                "conversations": convs, "questions": len(rows), "variant": variant,
                "shipped": summary([(q, q["base"]) for q, _ in rows]), "applied": applied}, indent=1))
        return
    table = {}
    for v in variants(names):
        table[v] = {c: [(q, apply(q, s, v)) for q, s in rows if q["conv"] == c] for c in convs}
    scores = {v: summary([r for c in convs for r in per[c]]) for v, per in table.items()}
    base = summary([(q, q["base"]) for q, _ in rows])
    # the declared rule: the best pooled R@10 among variants that lower no category (ties: the lighter change)
    eligible = [v for v in scores if all(not scores[v][1][c] < base[1][c] - 1e-9 for c in CATS)]
    best = sorted(eligible, key=lambda v: -scores[v][0]) or [None]
    print("eligible (no category lower):", len(eligible), "of", len(scores))
    for v in sorted(scores, key=lambda v: -scores[v][0])[:15]:
        print(v, fmt(scores[v]), "eligible" if v in eligible else "")
    # leave one conversation out: the variant best on the others, scored on the held-out one
    loco = []
    for held in convs:
        others = [c for c in convs if c != held]
        base_o = summary([(q, q["base"]) for q, _ in rows if q["conv"] in others])
        sc = {v: summary([r for c in others for r in table[v][c]]) for v in table}
        ok = [v for v in sc if all(not sc[v][1][k] < base_o[1][k] - 1e-9 for k in CATS)] or list(sc)
        pick = max(ok, key=lambda v: sc[v][0])
        loco += table[pick][held]
        print("LOCO held", held, "pick", pick)
    print("LOCO:", fmt(summary(loco)))
    if "--out" in sys.argv:
        Path(sys.argv[sys.argv.index("--out") + 1]).write_text(json.dumps({
            "conversations": convs, "questions": len(rows), "shipped": base,
            "variants": [{"variant": v, "r10": scores[v], "eligible": v in eligible} for v in
                         sorted(scores, key=lambda v: -scores[v][0])],
            "loco": summary(loco), "pick": best[0]}, indent=1))
    if "--pick" in sys.argv:
        Path(sys.argv[sys.argv.index("--pick") + 1]).write_text(json.dumps(best[0]))


if __name__ == "__main__":
    main()
