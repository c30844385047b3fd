"""What token-level alignment reads across EN / ZH in the released rounds' pools (issue 10, round 36; a view beside
`xling36_maxsim.py`, nothing fitted).

    PYTHONPATH=src:bench python bench/xling36_align.py STATES.pkl OUT.json DIR [DIR ...]

Per category, over questions whose relevant memory is in the fused top 30: the relevant memory's place (1 = first)
in the pool by the pipeline's order, by the raw cosine of the pooled vectors and by MaxSim (QDP: question -> memory,
punctuation dropped), and its place among the pool's memories of its own script by the pipeline and by QDP. The
script gap: mean QDP of the relevant memory and of the other candidates, by whether they share the question's
script. Examples: for EN->ZH questions missed by the pipeline (relevant at 6 - 30), each question token's best
memory token and cosine, against the same for the pipeline's first memory.
"""

import json
import pickle
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import recall35_fit as r35
import xling36_maxsim as xm

from hindsight.embeddings.e5_numpy import bundled_model_path
from hindsight.embeddings.e5_onnx import OnnxE5


def place(score: np.ndarray, i: int, among: np.ndarray | None = None) -> int:
    idx = np.arange(len(score)) if among is None else np.flatnonzero(among)
    order = idx[np.argsort(-score[idx], kind="stable")]
    return int(np.flatnonzero(order == i)[0]) + 1


def main() -> None:
    states = pickle.loads(Path(sys.argv[1]).read_bytes())
    out = Path(sys.argv[2])
    data = r35.load([Path(d) for d in sys.argv[3:]])
    shipped = json.loads(r35.fit.xling_rerank.MODEL_FILE.read_text(encoding="utf-8"))
    ship_cols = [r35.fit.COLUMNS.index(n) for n in shipped["features"]]
    model = OnnxE5(bundled_model_path())
    tok = model.tokenizer
    places: dict = defaultdict(lambda: defaultdict(list))
    gap: dict = defaultdict(lambda: defaultdict(list))
    examples = []
    for rnd, qs in sorted(data.items(), key=lambda kv: int(kv[0][1:])):
        for q in qs:
            if not q["cands"] or q["text"] not in states["query"] or any(
                    c["text"] not in states["passage"] for c in q["cands"]):
                continue
            qs_ = xm.sides(states["query"][q["text"]])
            sides = [xm.sides(states["passage"][c["text"]]) for c in q["cands"]]
            qdp = np.asarray([xm.maxsim(qs_["words"], m["words"]) for m in sides])
            pipe = xm.pipe_order(q, shipped, ship_cols)
            cos = np.asarray([c["cos"] if c["cos"] is not None else -1 for c in q["cands"]])
            groups = np.asarray([c["group"] for c in q["cands"]])
            rel = [i for i, c in enumerate(q["cands"]) if c["id"] in q["relevant"]]
            cat = q["cat"]
            for i, c in enumerate(q["cands"]):
                same = "same" if c["group"] == q["group"] else "cross"
                gap[cat][("rel_" if i in rel else "other_") + same].append(qdp[i])
            if not rel:
                continue
            best = min(rel, key=lambda i: place(pipe, i))
            own = groups == groups[best]
            for name, s in (("pipe", pipe), ("cos", cos), ("qdp", qdp)):
                places[cat][name].append(place(s, best))
            places[cat]["pipe_own_script"].append(place(pipe, best, own))
            places[cat]["qdp_own_script"].append(place(qdp, best, own))
            if cat == "en_to_zh" and 6 <= place(pipe, best) <= 30 and len(examples) < 12:
                head = int(np.argmax(pipe))
                examples.append({"q": f"{rnd}:{q['line']}", "text": q["text"], "pipe_place": place(pipe, best),
                                 "qdp_place": place(qdp, best), "relevant": align(model, tok, q["text"], q["cands"][best]["text"]),
                                 "pipe_first": align(model, tok, q["text"], q["cands"][head]["text"])})
    summary: dict = {"places": {}, "script_gap": {}, "examples": examples}
    for cat, d in places.items():
        summary["places"][cat] = {k: {"n": len(v), "mean": round(float(np.mean(v)), 2),
                                      "top5": int(np.sum(np.asarray(v) <= 5))} for k, v in d.items()}
    for cat, d in gap.items():
        summary["script_gap"][cat] = {k: {"n": len(v), "mean_qdp": round(float(np.mean(v)), 4)} for k, v in d.items()}
    out.write_text(json.dumps(summary, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({"places": summary["places"], "script_gap": summary["script_gap"]}, indent=1))


def align(model: OnnxE5, tok, question: str, memory: str) -> dict:  # type: ignore[no-untyped-def]
    """Each question word token's best memory token and cosine (QDP's pairs), recomputed here with the pieces."""
    qp, qs = model.token_states(question, is_query=True)
    mp, ms = model.token_states(memory, is_query=False)
    keep_q = [i for i, p in enumerate(qp) if not xm_punct(p)]
    keep_m = [i for i, p in enumerate(mp) if not xm_punct(p)]
    a, b = xm.unit(qs[keep_q]), xm.unit(ms[keep_m])
    sims = a @ b.T
    pairs = [(qp[keep_q[i]], mp[keep_m[int(j)]], round(float(sims[i, j]), 3)) for i, j in enumerate(sims.argmax(1))]
    return {"memory": memory, "maxsim": round(float(sims.max(1).mean()), 4), "pairs": pairs}


def xm_punct(piece: str) -> bool:
    from xling36_states import is_punct

    return is_punct(piece)


if __name__ == "__main__":
    main()
