"""Round 31 (attacks): which texts the round-31 readings read, and the thresholds chosen on rounds 1 - 26b.

    python bench/guardatk31_readings.py corpus OUT_DIR [--heldout]   # benign texts the readings read -> OUT_DIR/benign_read.jsonl
    python bench/guardatk31_readings.py choose ATTACKS.jsonl BENIGN.jsonl OUT.json   # grid per reading, gained - 3 x benign
    python bench/guardatk31_readings.py misses ATTACKS.jsonl OUT.json                # task 1: main's misses by kind
    python bench/guardatk31_readings.py compare MAIN.jsonl BRANCH.jsonl OUT.json     # before / after per round

``corpus`` runs the readings (``reads``) on every released benign text - the guard sets' benign rows r1 - r26b (with
``--heldout`` r27 - r29b instead), the PII sets' rows, the retrieval memories, the hygiene sets' notes, the fixed
suite set - on the prepared raw text, and writes the ones read (a text no reading reads cannot move) with their
source, for ``guardatk31_scan.py`` to store through the engine. ``choose`` reads two engine scans of main's guard
(the r1 - r26b attacks, the benign texts read) and picks, per new reading, the threshold of {0.05, 0.15, 0.3} with the
most attacks gained minus 3 x benign newly flagged (ties: the highest). docs/benchmarks.md "Guard, round 31 (attacks)".
"""
import itertools
import json
import sys
from collections import Counter
from pathlib import Path

from hindsight.safety.addressed import addresses_reader
from hindsight.safety.normalize import prepare
from hindsight.safety.opened import opens_gate
from hindsight.safety.polarity import adds_check
from hindsight.safety.practice import teaches_unsafe_fix
from hindsight.safety.preferred import taste_drops_check
from hindsight.safety.spoken import spoken_waiver
from hindsight.safety.stake import benign_frame
from hindsight.safety.trusted import transfers_trust
from hindsight.safety.unbound import declares_rules_off
from hindsight.safety.unrecorded import ends_trail
from hindsight.safety.vouched import vouched_loosening

BLIND = Path("bench/data/blind")
HELD_OUT = ("r27", "r27b", "r28", "r28b", "r29", "r29b")
NEW = {"unrecorded": ends_trail, "opened": opens_gate, "addressed": addresses_reader, "practice": teaches_unsafe_fix, "preferred": taste_drops_check, "unbound": declares_rules_off}
#: the round-31 forms added to two existing readings, at those readings' shipped thresholds
FIXED = {"trusted+vouched": (lambda t: transfers_trust(t) or vouched_loosening(t), 0.3), "spoken": (spoken_waiver, 0.15)}
GRID = (0.05, 0.15, 0.3)


def reads(text: str) -> list[str]:
    """The round-31 readings (and the two extended ones) that read ``text`` (prepared as the guard prepares it)."""
    norm = prepare(text).text
    return [name for name, f in NEW.items() if f(norm)] + [name for name, (f, _) in FIXED.items() if f(norm)]


def framed(text: str) -> bool:
    norm = prepare(text).text
    return benign_frame(norm) or adds_check(norm)


def _rounds() -> list[str]:
    return sorted((p.name for p in BLIND.iterdir() if p.is_dir() and p.name[0] == "r" and p.name[1:].rstrip("b").isdigit()),
                  key=lambda r: (int(r[1:].rstrip("b")), r))


def _rows(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.open(encoding="utf-8") if x.strip()] if path.exists() else []


def benign_corpus(heldout: bool) -> list[dict]:
    out: list[dict] = []
    for rnd in _rounds():
        is_held = rnd in HELD_OUT
        if is_held == heldout:
            for i, r in enumerate(_rows(BLIND / rnd / "guard/set.jsonl")):
                if r["label"] == "benign":
                    out.append({"src": f"guard:{rnd}:{i}", "text": r["text"], "label": "benign", "category": r.get("category"), "lang": r.get("lang")})
        if heldout:
            continue
        for i, r in enumerate(_rows(BLIND / rnd / "pii/set.jsonl")):
            out.append({"src": f"pii:{rnd}:{i}", "text": r["text"], "label": "benign", "category": r.get("kind"), "lang": r.get("lang")})
        for i, r in enumerate(_rows(BLIND / rnd / "retrieval/memories.jsonl")):
            out.append({"src": f"retrieval:{rnd}:{i}", "text": r["content"], "label": "benign", "category": "memory", "lang": r.get("lang")})
        for i, r in enumerate(_rows(BLIND / rnd / "hygiene/set.jsonl")):
            notes = [r.get("existing"), r.get("new"), *(r.get("others") or [])]
            for j, t in enumerate(x for x in notes if isinstance(x, str) and x.strip()):
                out.append({"src": f"hygiene:{rnd}:{i}:{j}", "text": t, "label": "benign", "category": "hygiene", "lang": r.get("lang")})
    if not heldout:
        for i, r in enumerate(json.loads(Path("tests/data/guard_benign_fixed.json").read_text(encoding="utf-8"))):
            out.append({"src": f"fixed:{i}", "text": r["content"], "label": "benign", "category": "fixed", "lang": None})
    return out


def corpus(out_dir: str, heldout: bool) -> None:
    rows = benign_corpus(heldout)
    read = []
    for r in rows:
        names = reads(r["text"])
        if names:
            read.append({**r, "reads": names})
    name = "benign_read_heldout.jsonl" if heldout else "benign_read.jsonl"
    Path(out_dir, name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in read), encoding="utf-8")
    by_src = Counter(r["src"].split(":")[0] for r in rows)
    print(json.dumps({"texts": len(rows), "by_source": by_src, "read": len(read),
                      "read_by_source": Counter(r["src"].split(":")[0] for r in read),
                      "read_by_reading": Counter(n for r in read for n in r["reads"])}, ensure_ascii=False))


def _decide(rows: list[dict], setting: dict[str, float]) -> tuple[int, int]:
    """(attacks gained, benign newly flagged) under ``setting``: a text main stored is held when a reading reads its
    screened text, no frame applies, and its whole score reaches the lowest threshold of the readings that read it."""
    gained = flagged = 0
    for r in rows:
        if r["action"] == "quarantined" or r["action"].startswith("error") or r["framed"]:
            continue
        thresholds = [setting[n] if n in setting else FIXED[n][1] for n in r["reads"]]
        if thresholds and (r["score"] or 0.0) >= min(thresholds):
            if r["label"] == "attack":
                gained += 1
            else:
                flagged += 1
    return gained, flagged


def _annotate(path: str) -> list[dict]:
    rows = _rows(Path(path))
    for r in rows:
        r["reads"], r["framed"] = reads(r["screened"]), framed(r["screened"])
    return rows


def choose(attacks: str, benign: str, out: str) -> None:
    rows = _annotate(attacks) + _annotate(benign)
    results = []
    for combo in itertools.product(GRID, repeat=len(NEW)):
        setting = dict(zip(NEW, combo, strict=True))
        gained, flagged = _decide(rows, setting)
        results.append({"setting": setting, "gained": gained, "benign_flagged": flagged, "objective": gained - 3 * flagged})
    best = max(results, key=lambda x: (x["objective"], sum(x["setting"].values())))
    # per reading alone (the others off), for the table
    alone = {}
    for name in NEW:
        for t in GRID:
            g, f = _decide([r for r in rows if name in r["reads"] and not (set(r["reads"]) - {name})], {name: t})
            alone[f"{name}@{t}"] = {"gained_alone": g, "benign_alone": f}
    fires = Counter(n for r in rows for n in r["reads"])
    missed = [r for r in rows if r["label"] == "attack" and r["action"] != "quarantined" and not r["action"].startswith("error")]
    Path(out).write_text(json.dumps({"best": best, "grid": results, "alone": alone, "reads": fires, "attacks": sum(r["label"] == "attack" for r in rows),
                                     "missed_by_main": len(missed)}, ensure_ascii=False, indent=1), encoding="utf-8")
    print(json.dumps(best), len(missed))




def misses(attacks: str, out: str) -> None:
    """Task 1's table: the attacks main stores, by the writer's category and language, by the round-31 reading that
    reads them (or none), and by how they hide (spelled out letter by letter, pinyin, full-width)."""
    rows = [r for r in _annotate(attacks) if r["label"] == "attack"]
    missed = [r for r in rows if r["action"] != "quarantined" and not r["action"].startswith("error")]
    rounds = sorted({r["round"] for r in rows}, key=lambda x: (int(x[1:].rstrip("b")), x))

    def hides(text: str) -> str:
        import re
        if re.search(r"(?:\b\w[ .]){6,}", text):
            return "spelled (letters spaced / dotted)"
        if re.search(r"[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ]", text) or re.search(r"\b(?:bu yong|yi hou|zhang hu|mi ma)\b", text.lower()):
            return "pinyin"
        if re.search(r"[\uff21-\uff5a]", text):
            return "full-width"
        return "plain"

    table = {
        "rounds": rounds, "attacks": len(rows), "missed": len(missed),
        "by_round": {k: [sum(r["round"] == k for r in missed), sum(r["round"] == k for r in rows)] for k in rounds},
        "by_category": Counter(r["category"] for r in missed), "by_lang": Counter(r["lang"] for r in missed),
        "attacks_by_lang": Counter(r["lang"] for r in rows),
        "by_reading": Counter("+".join(r["reads"]) or "none" for r in missed),
        "by_category_reading": Counter(f"{r['category']} | {'+'.join(r['reads']) or 'none'}" for r in missed),
        "by_hiding": Counter(hides(r["text"]) for r in missed),
        "score_bands": Counter("<0.15" if r["score"] is None or r["score"] < 0.15 else "<0.3" if r["score"] < 0.3 else "<0.5" if r["score"] < 0.5 else ">=0.5" for r in missed),
        "rows": [{k: r[k] for k in ("round", "i", "category", "lang", "score", "reads")} for r in missed],
    }
    Path(out).write_text(json.dumps(table, ensure_ascii=False, indent=1), encoding="utf-8")
    print(json.dumps({k: v for k, v in table.items() if k != "rows"}, ensure_ascii=False, indent=1))


def compare(main: str, branch: str, out: str) -> None:
    """Before / after per round: ``main`` is main's engine scan of every row, ``branch`` the branch's of the rows a
    reading reads (any other row's verdict is main's by construction: a reading only lowers a threshold)."""
    held = lambda r: r["action"] == "quarantined" or r["action"].startswith("error")  # noqa: E731
    after = {(r["round"], r["i"]): r for r in _rows(Path(branch))}
    table: dict = {}
    moved = []
    for r in _rows(Path(main)):
        b = after.get((r["round"], r["i"]), r)
        key = f"{r['round']}|{r['label']}"
        t = table.setdefault(key, {"n": 0, "before": 0, "after": 0, "gained": 0, "lost": 0})
        t["n"] += 1
        t["before"] += held(r)
        t["after"] += held(b)
        t["gained"] += held(b) and not held(r)
        t["lost"] += held(r) and not held(b)
        if held(b) != held(r):
            moved.append({"round": r["round"], "i": r["i"], "label": r["label"], "category": r["category"], "lang": r["lang"],
                          "before": r["action"], "after": b["action"], "score": b["score"], "reasons": b["reasons"], "reads": reads(b["screened"])})
    pooled: dict = {}
    for key, t in table.items():
        p = pooled.setdefault(key.split("|")[1], {"n": 0, "before": 0, "after": 0, "gained": 0, "lost": 0})
        for k in p:
            p[k] += t[k]
    Path(out).write_text(json.dumps({"by_round": table, "pooled": pooled, "moved": moved}, ensure_ascii=False, indent=1), encoding="utf-8")
    print(json.dumps({"pooled": pooled, "by_round": table}, ensure_ascii=False))


if __name__ == "__main__":
    if sys.argv[1] == "corpus":
        corpus(sys.argv[2], "--heldout" in sys.argv)
    elif sys.argv[1] == "compare":
        compare(*sys.argv[2:5])
    elif sys.argv[1] == "misses":
        misses(sys.argv[2], sys.argv[3])
    else:
        choose(*sys.argv[2:5])
