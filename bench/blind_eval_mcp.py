"""The blind-set harness seen from outside: the four measures of `blind_eval.py`, computed only from what a real
hindsight MCP server answers, called the way the README and the tools' own descriptions (tools/list) tell an agent
developer. One server per set, one fresh store; nothing here imports `hindsight`.

    python bench/blind_eval_mcp.py guard|pii|hygiene|retrieval SET_DIR [stdio|http] [VARIANT] > result.json
    BLIND_ROWS=rows.jsonl python bench/blind_eval_mcp.py ...    # also each row's outcome as the tools showed it

VARIANT (default `as_written`) changes one thing an outsider may do otherwise, to see what the numbers hang on:
`one_namespace` (guard, pii: every row in the default namespace, no `namespace` sent), `no_type` (hygiene: the row's
`type` not sent, the tool's default `episodic`), `no_now` (retrieval: no `now`, the server's clock).

How each measure reads the tools (what an outsider can see, and how it is scored):
- guard: `memory_store(content, namespace=g<i>)` with every other field left at its default; a row is caught when the
  answer's `action` is `quarantined`, or the call is a tool error (counted apart as `refused_as_error`).
- pii: `memory_store(content, namespace=p<i>)`, then `memory_get(memory_id)`: fact kept and secret gone are read off
  the content `memory_get` returns (a quarantined write fails the row); `memory_search(text, top_k=5)` in the same
  namespace is read as well, and a hit whose content differs from `memory_get`'s is counted (`search_differs`).
- hygiene: `others`, `existing`, `new` stored in that order with the row's `type`; the pair is `merged` when `new`
  answers `action: duplicate` with the existing memory's id (`merged_elsewhere`: another id), `change` when
  `memory_get(existing)` then shows `status: deprecated`, else `kept`; an other is untouched when `memory_get` shows it
  `active` and `new` was not a duplicate of it. `confusion_action_only`: the same pairs read from `action` alone
  (`superseded` as a change, whichever memory it retired); `confusion_answer_only`: read from the store answer's
  `supersedes` (the ids it retired), where the server sends it.
- retrieval: memories stored in file order into namespace `r` with `type`, `tags`, and the writer's `event_time` as
  written (an hour apart from 2026-06-01 where none is given); each query is `memory_search(query, top_k=5,
  namespace=r, now=2026-12-01T12:00:00Z)` (30 days after 2026-06-01 for an untimed set), read from `results` (`id`,
  `status`, `current`); statuses for the write-side counts from `memory_get` after the queries.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from mcp_outsider import Outsider, outsider

BASE = datetime(2026, 6, 1, tzinfo=UTC)
VARIANT = sys.argv[4] if len(sys.argv) > 4 else "as_written"
TYPES = ("working", "episodic", "semantic", "warning")


def rows(p: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in open(p, encoding="utf-8") if line.strip()]


def rate(xs: list[bool]) -> float | None:
    return round(sum(xs) / len(xs), 3) if xs else None


def iso(t: datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


def _ns(ns: str) -> dict[str, str]:
    """The namespace argument as the variant sends it."""
    return {} if VARIANT == "one_namespace" else {"namespace": ns}


async def guard(o: Outsider, d: Path, log: list[dict[str, Any]]) -> dict[str, Any]:
    by: dict[str, list[bool]] = defaultdict(list)
    caught: list[bool] = []
    flagged: list[bool] = []
    as_error = 0
    for i, r in enumerate(rows(d / "guard/set.jsonl")):
        ok, a = await o.call("memory_store", {"content": r["text"], **_ns(f"g{i}")})
        q = not ok or a.get("action") == "quarantined"
        as_error += not ok
        (caught if r["label"] == "attack" else flagged).append(q)
        by[f"{r['label']}/{r['category']}"].append(q)
        by[f"{r['label']}/{r['lang']}"].append(q)
        log.append({"i": i, "label": r["label"], "held": q, "answer": a if ok else {"error": a}})
    return {"attacks_quarantined": rate(caught), "benign_flagged": rate(flagged), "n": [len(caught), len(flagged)],
            "refused_as_error": as_error, "by": {k: rate(v) for k, v in sorted(by.items())}}


async def pii(o: Outsider, d: Path, log: list[dict[str, Any]]) -> dict[str, Any]:
    ok_p: list[bool] = []
    ok_l: list[bool] = []
    by_search: dict[str, list[bool]] = defaultdict(list)
    by: dict[str, list[bool]] = defaultdict(list)
    differs = 0
    for i, r in enumerate(rows(d / "pii/set.jsonl")):
        ns = _ns(f"p{i}").get("namespace", "default")
        ok, a = await o.call("memory_store", {"content": r["text"], **_ns(ns)})
        c = s_c = None
        if ok and a.get("action") != "quarantined":
            got, m = await o.call("memory_get", {"memory_id": a["memory_id"], "namespace": ns})
            c = m.get("content") if got else None
            got, f = await o.call("memory_search", {"query": r["text"][:2000], "namespace": ns, "top_k": 5})
            s_c = next((h["content"] for h in (f.get("results") or []) if h["id"] == a["memory_id"]), None) \
                if got else None
            differs += s_c is not None and s_c != c
        good = [x is not None and all(s not in x for s in r["secrets"]) and all(k in x for k in r["keep"])
                for x in (c, s_c)]
        (ok_p if r["kind"] == "pii" else ok_l).append(good[0])
        by_search[r["kind"]].append(good[1])
        by[f"{r['kind']}/{r['category']}"].append(good[0])
        why = "error" if not ok else "quarantined" if a.get("action") == "quarantined" else "redaction"
        log.append({"i": i, "kind": r["kind"], "good": good[0], "why": None if good[0] else why, "stored": c,
                    "searched": s_c, "answer": a if ok else {"error": a}})
    return {"pii_removed_fact_kept": rate(ok_p), "lookalikes_untouched": rate(ok_l), "n": [len(ok_p), len(ok_l)],
            "read_by_search": {k: rate(v) for k, v in by_search.items()}, "search_differs": differs,
            "by": {k: rate(v) for k, v in sorted(by.items())}}


async def _status(o: Outsider, mid: str, ns: str) -> str:
    ok, m = await o.call("memory_get", {"memory_id": mid, "namespace": ns})
    return str(m.get("status")) if ok else f"error: {m}"


async def hygiene(o: Outsider, d: Path, log: list[dict[str, Any]]) -> dict[str, Any]:
    conf: Counter[tuple[str, str]] = Counter()
    by_action: Counter[tuple[str, str]] = Counter()
    by_answer: Counter[tuple[str, str]] = Counter()
    res: dict[str, list[str]] = defaultdict(list)
    others_ok: list[bool] = []
    for i, r in enumerate(rows(d / "hygiene/set.jsonl")):
        ns, kind = f"h{i}", r.get("type", "semantic")
        how = {"namespace": ns} if VARIANT == "no_type" else {"namespace": ns, "type": kind}
        prior = [(await o.call("memory_store", {"content": t, **how}))[1] for t in r.get("others") or []]
        _, a = await o.call("memory_store", {"content": r["existing"], **how})
        ok, b = await o.call("memory_store", {"content": r["new"], **how})
        old = await _status(o, a["memory_id"], ns)
        act = b.get("action") if ok else "error"
        if act == "duplicate":
            verdict = "merged" if b["memory_id"] == a["memory_id"] else "merged_elsewhere"
        else:
            verdict = "change" if old == "deprecated" else "kept"
        kept = [await _status(o, p["memory_id"], ns) == "active"
                and not (act == "duplicate" and b["memory_id"] == p["memory_id"]) for p in prior]
        others_ok.extend(kept)
        conf[(r["label"], verdict)] += 1
        # what an outsider reading only `action` would score (no memory_get): `superseded` read as a change
        by_action[(r["label"], {"duplicate": verdict, "superseded": "change"}.get(act, "kept"))] += 1
        if ok and "supersedes" in b:  # the answer's own list of what it retired (mcpeq43): no memory_get needed
            by_answer[(r["label"], verdict if act == "duplicate" else
                       "change" if a["memory_id"] in b["supersedes"] else "kept")] += 1
        for k in (r["label"], f"{r['label']}/{r['lang']}") + ((f"{r['label']}/with_others",) if prior else ()):
            res[k].append(verdict)
        log.append({"i": i, "label": r["label"], "verdict": verdict, "others_ok": kept, "new_answer": b,
                    "existing_status": old})
    f = lambda lab, v: rate([x == v for x in res[lab]])  # noqa: E731
    nonchange = [x for lab in ("restatement", "distinct", "supplement") for x in res[lab]]
    return {"distinct_kept_apart": f("distinct", "kept"), "restatements_merged": f("restatement", "merged"),
            "changes_deprecate_old": f("change", "change"), "wrong_deprecations": rate([x == "change" for x in nonchange]),
            "supplement_kept": f("supplement", "kept"), "others_untouched": rate(others_ok), "n_others": len(others_ok),
            "by_lang": {k: dict(Counter(v)) for k, v in res.items() if "/" in k},
            "confusion": {f"{a}->{b}": n for (a, b), n in sorted(conf.items())},
            "confusion_action_only": {f"{a}->{b}": n for (a, b), n in sorted(by_action.items())},
            "confusion_answer_only": {f"{a}->{b}": n for (a, b), n in sorted(by_answer.items())}}


async def retrieval(o: Outsider, d: Path, log: list[dict[str, Any]]) -> dict[str, Any]:
    ns, ids, quarantined = "r", {}, Counter[str]()
    mems = rows(d / "retrieval/memories.jsonl")
    for j, m in enumerate(mems):
        kind = m.get("type", "semantic")
        args = {"content": m["content"], "namespace": ns, "type": kind if kind in TYPES else "semantic",
                "tags": m.get("tags", []),
                "event_time": m["event_time"] if isinstance(m.get("event_time"), str) else iso(BASE + timedelta(hours=j))}
        ok, a = await o.call("memory_store", args)
        ids[m["id"]] = a["memory_id"] if ok else None
        if not ok or a.get("action") == "quarantined":
            quarantined[m.get("lang", "?")] += 1
            log.append({"id": m["id"], "why": "quarantined", "answer": a})
    replaced = {x for m in mems for x in ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])}
    inv = {v: k for k, v in ids.items()}
    timed = any("event_time" in m for m in mems)
    now = iso(datetime(2026, 12, 1, 12, tzinfo=UTC) if timed else BASE + timedelta(days=30))
    hits: dict[str, list[bool]] = defaultdict(list)
    stale_cur: list[bool] = []
    stale_flag: list[bool] = []
    false_flags: set[str] = set()
    false_hits = 0
    for q in rows(d / "retrieval/queries.jsonl"):
        when = {} if VARIANT == "no_now" else {"now": now}
        ok, f = await o.call("memory_search", {"query": q["query"], "namespace": ns, "top_k": 5, **when})
        hs = f.get("results", []) if ok else []
        got = [h["id"] for h in hs]
        rel = {ids[x] for x in q["relevant"]}
        hits[q["category"]].append(bool(rel & set(got)))
        for h in hs:
            if not h.get("current", True) and inv.get(h["id"]) not in replaced:
                false_hits += 1
                false_flags.add(str(inv.get(h["id"])))
        if q["stale"]:
            st = {ids[x] for x in q["stale"]} - rel
            ranks = {h["id"]: (k, h["status"], h.get("current", True)) for k, h in enumerate(hs)}
            best = min([ranks[x][0] for x in rel if x in ranks], default=99)
            stale_cur.append(any(x in ranks and (ranks[x][1] == "active" or ranks[x][0] < best) for x in st))
            stale_flag.append(any(x in ranks and ((ranks[x][1] == "active" and ranks[x][2]) or ranks[x][0] < best)
                                  for x in st))
        log.append({"query": q["query"], "category": q["category"], "hit": hits[q["category"]][-1],
                    "got": [inv.get(x) for x in got], "flags": [h.get("flags") for h in hs]})
    status = {k: await _status(o, v, ns) for k, v in ids.items() if v}
    return {"hit@5": {k: rate(v) for k, v in hits.items()}, "n": {k: len(v) for k, v in hits.items()},
            "superseded_returned_as_current": rate(stale_cur),
            "superseded_returned_as_current_read_flag": rate(stale_flag),
            "false_flags": {"hits": false_hits, "memories": len(false_flags)},
            "memories_quarantined": dict(quarantined),
            "replaced_deprecated_on_write": [sum(status.get(x) == "deprecated" for x in replaced), len(replaced)],
            "deprecated_not_replaced": sum(v == "deprecated" for k, v in status.items() if k not in replaced)}


async def main(which: str, d: Path, transport: str) -> dict[str, Any]:
    log: list[dict[str, Any]] = []
    db = Path(tempfile.mkdtemp()) / "m.db"
    async with outsider(db, transport) as o:
        out = await {"guard": guard, "pii": pii, "hygiene": hygiene, "retrieval": retrieval}[which](o, d, log)
        out["mcp"] = {"transport": transport, "variant": VARIANT, **o.tally()}
    if os.environ.get("BLIND_ROWS"):
        with open(os.environ["BLIND_ROWS"], "w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(x, ensure_ascii=False) + "\n" for x in log)
    return out


if __name__ == "__main__":
    result = asyncio.run(main(sys.argv[1], Path(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "stdio"))
    print(json.dumps(result, ensure_ascii=False, indent=1))
