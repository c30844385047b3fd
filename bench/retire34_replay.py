"""retire34 (issue 10): the attribute reading (`retire34_attr`) replayed over the write logs of the released
retrieval stores and the hygiene sets, under the rule declared first (bench/results/retire34_rule.md).

    PYTHONPATH=src:bench python bench/retire34_replay.py OUT.json --hyg HYGDIR LOGROOT...

Offline replay (no engine run): main is the log; V drops a retirement the reading vetoes (the write keeps no other,
as `VETO_HOLDS`); R lets a write with no standing retirement retire its judged candidate that the reading says it
replaces (highest cosine first; never a memory another write retires, never one already added). Later writes still
see a memory R retired as their candidate (the log is not re-run): an approximation, in both directions.
A store's replaced memory counts retired when any standing retirement retires it; a kept memory counts once per
retirement (as `change33_pairs`). Variants: V (cue clauses), Vw (the whole new text's slots), R, V+R, Vw+R.
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import retire34_attr as attr
from blind_store import rows
from change33_pairs import _logs
from currency19_read import set_dir
from supwrite32_hyg_read import _records

HELD_OUT_MAX = 25  # r1 - r25: never read while the lexicon was written


def _num(r: str) -> int:
    return int("".join(ch for ch in r[1:] if ch.isdigit()))


def _replay(writes: list[tuple[str, str, list[str], list[dict], bool]], text: dict[str, str],
            veto: str | None, add: bool) -> list[tuple[str, str]]:
    """Standing retirements (write, old) of one log: writes in order as (id, content, supersedes, judged, dup)."""
    out: list[tuple[str, str]] = []
    retired_main = {o for _, _, sup, _, dup in writes if not dup for o in sup}
    taken: set[str] = set()
    for wid, new, sup, judged, dup in writes:
        mine = [o for o in sup if dup or veto is None or not attr.veto(text[o], new, whole=veto == "whole")]
        if add and not dup and not mine:
            for j in sorted(judged, key=lambda j: -j["sim"]):
                o = j["old"]
                if o in text and o not in retired_main and o not in taken and attr.replaces(text[o], new):
                    mine = [o]
                    break
        taken |= set(mine)
        out += [(wid, o) for o in mine]
    return out


def store_cells(rnd: str, log_path: Path, veto: str | None, add: bool) -> dict:
    mems = {m["id"]: m for m in rows(set_dir(rnd) / "retrieval/memories.jsonl")}
    replaced: set[str] = set()
    for m in mems.values():
        r = m.get("replaces")
        replaced |= set([r] if isinstance(r, str) else r or [])
    log = json.loads(log_path.read_text())
    text = {k: m["content"] for k, m in mems.items()}
    writes = [(w, mems[w]["content"], e["supersedes"], e["judged"], bool(e.get("duplicate_of")))
              for w, e in log.items() if w in mems]
    pairs = _replay(writes, text, veto, add)
    wrong = [(w, o) for w, o in pairs if o not in replaced]
    return {"replaced_retired": len({o for _, o in pairs if o in replaced}), "kept_retired": len(wrong),
            "replaced": len(replaced), "wrong": wrong}


def hyg_cells(path: Path, veto: str | None, add: bool) -> dict:
    rows_ = [json.loads(x) for x in open(set_dir(path.stem) / "hygiene/set.jsonl", encoding="utf-8") if x.strip()]
    conf: Counter = Counter()
    others = [0, 0]
    for entry in json.loads(path.read_text()):
        row = rows_[entry["i"]]
        text = {k: r.content for k, r in _records(row).items()}
        writes = [(w["role"], text[w["role"]], w["supersedes"], w["judged"], bool(w["duplicate_of"]))
                  for w in entry["writes"]]
        main = {o for w in entry["writes"] for o in w["supersedes"]}
        kept = {o for _, o in _replay(writes, text, veto, add)}
        outcome = entry["outcome"]
        if outcome not in ("merged", "merged_elsewhere"):
            outcome = "change" if "existing" in kept else "kept"
        oks = [(o or f"other{k}" in main) and f"other{k}" not in kept for k, o in enumerate(entry["others_ok"])]
        conf[f"{entry['label']}->{outcome}"] += 1
        others[0] += sum(oks)
        others[1] += len(oks)
    return {"hygiene": dict(sorted(conf.items())), "others_untouched": others}


VARIANTS = {"main": (None, False), "V": ("cue", False), "Vw": ("whole", False), "R": (None, True),
            "V+R": ("cue", True), "Vw+R": ("whole", True)}


def main() -> None:
    out, args = sys.argv[1], sys.argv[2:]
    logs, hyg = _logs(args)
    res: dict = {"per_round": {}, "pooled": {}}
    for name, (veto, add) in VARIANTS.items():
        pools = {"held_out_r1_r25": Counter(), "in_sample_r26_on": Counter()}
        for rnd, f in sorted(logs.items(), key=lambda kv: _num(kv[0])):
            cells = store_cells(rnd, f, veto, add)
            res["per_round"].setdefault(rnd, {})[name] = {k: v for k, v in cells.items() if k != "wrong"}
            if name != "main":
                res["per_round"][rnd][name]["wrong_pairs"] = cells["wrong"]
            pool = pools["held_out_r1_r25" if _num(rnd) <= HELD_OUT_MAX else "in_sample_r26_on"]
            pool.update({k: cells[k] for k in ("replaced_retired", "kept_retired", "replaced")})
        h: Counter = Counter()
        oth = [0, 0]
        for f in sorted(hyg.glob("*.json")) if hyg else []:
            c = hyg_cells(f, veto, add)
            res["per_round"].setdefault(f.stem, {}).setdefault(name, {}).update(c)
            h.update(c["hygiene"])
            oth = [oth[0] + c["others_untouched"][0], oth[1] + c["others_untouched"][1]]
        res["pooled"][name] = {**{k: dict(v) for k, v in pools.items()}, "hygiene": dict(sorted(h.items())),
                               "others_untouched": oth}
        print(name, json.dumps(res["pooled"][name]), file=sys.stderr, flush=True)
    Path(out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
