"""Redaction round 46 (phone46): the split's finder equivalence over every released text. ``redact._find_secrets`` of
main (MAIN_SRC) and ``redact_secrets.find_secrets`` of the branch (BRANCH_SRC) run over every PII and non-PII text
(bench/redaction27_alone.py's and bench/redaction26_nonpii.py's sets, nothing held back) and must give the same
spans; the rest of ``redact.py`` moved no line of logic (``git diff``), so equal spans mean equal outputs.

    .venv/bin/python bench/phone46_split_check.py MAIN_SRC BRANCH_SRC OUT.json
"""
import glob
import importlib
import json
import sys


def texts() -> list[str]:
    out = []
    for f in sorted(glob.glob("bench/data/blind/*/pii/set.jsonl") + glob.glob("bench/data/train/*/pii/set.jsonl")):
        out += [json.loads(line)["text"] for line in open(f, encoding="utf-8") if line.strip()]
    for f in sorted(glob.glob("bench/data/blind/*/guard/set.jsonl") + glob.glob("bench/data/train/*/guard/set.jsonl")
                    + glob.glob("bench/data/blind/*/hygiene/set.jsonl") + glob.glob("bench/data/train/*/hygiene/set.jsonl")
                    + glob.glob("bench/data/blind/*/retrieval/memories.jsonl")):
        for line in open(f, encoding="utf-8"):
            if line.strip():
                r = json.loads(line)
                out += [r[k] for k in ("text", "content", "old", "new", "a", "b", "existing") if isinstance(r.get(k), str)]
                out += [o for o in r.get("others", []) or [] if isinstance(o, str)]
    return sorted(set(out))


def finder(src: str, module: str, name: str):  # noqa: ANN201 - a function of either tree
    sys.path.insert(0, src)
    for k in [k for k in sys.modules if k.startswith("hindsight")]:
        del sys.modules[k]
    fn = getattr(importlib.import_module(module), name)
    sys.path.remove(src)
    return fn


def main() -> None:
    main_src, branch_src, out_path = sys.argv[1:4]
    all_texts = texts()
    old = finder(main_src, "hindsight.safety.redact", "_find_secrets")
    new = finder(branch_src, "hindsight.safety.redact_secrets", "find_secrets")
    differ = [t for t in all_texts if old(t) != new(t)]
    found = sum(1 for t in all_texts if new(t))
    json.dump({"texts": len(all_texts), "with_a_secret_span": found, "differ": differ}, open(out_path, "w"),
              ensure_ascii=False, indent=1)
    print(len(all_texts), "texts,", found, "with a key / token span,", len(differ), "differ")


if __name__ == "__main__":
    main()
