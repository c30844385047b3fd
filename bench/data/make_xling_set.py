"""Hand-written Chinese / cross-lingual / superseded retrieval set for issue 10 (own data, not the blind set).

    python bench/data/make_xling_set.py   # writes bench/data/xling_dev/ and bench/data/xling_held_out/

One memory list (EN and ZH, some memories replacing earlier ones), two query lists: "dev" (looked at while
choosing the retrieval changes) and "held_out" (only scored). Query categories: zh_paraphrase (Chinese
question, Chinese memory, other words), zh_to_en (Chinese question, English memory), en_to_zh (English
question, Chinese memory), superseded (the answer is the newer memory; the older one is `stale`).
"""

from __future__ import annotations

import json
from pathlib import Path

# (id, content, lang, replaces)
MEMORIES = [
    ("m01", "The user prefers dark mode in every editor.", "en", None),
    ("m02", "Alice owns the deploy pipeline and gets paged when it breaks.", "en", None),
    ("m03", "The staging database runs PostgreSQL 15 with pgvector.", "en", None),
    ("m04", "Production deploys only happen on Tuesdays after the change-approval call.", "en", None),
    ("m05", "The user is allergic to peanuts and carries an EpiPen.", "en", None),
    ("m06", "Our API rate limit is 600 requests per minute per client.", "en", None),
    ("m07", "Backups of the main database are kept for 30 days and encrypted with KMS.", "en", None),
    ("m08", "The user's daughter Mia starts primary school in September.", "en", None),
    ("m09", "The billing service is written in Go and uses sqlc.", "en", None),
    ("m10", "The user runs 8 km along the river every morning.", "en", None),
    ("m11", "Logs are shipped to Elasticsearch.", "en", None),
    ("m12", "The team standup is at 9:30 in the small meeting room.", "en", None),
    ("m13", "The user drives a blue Volvo to the office.", "en", None),
    ("m14", "Feature flags are managed in LaunchDarkly.", "en", None),
    ("m15", "The user's manager is Priya Shah.", "en", None),
    ("m16", "The nightly ETL job starts at 01:00 UTC and loads the warehouse.", "en", None),
    ("m17", "Customer support tickets are tracked in Zendesk.", "en", None),
    ("m18", "The user is learning Japanese for the JLPT N4 exam in December.", "en", None),
    ("m19", "The office Wi-Fi is Nimbus-5G; guests use Nimbus-Guest.", "en", None),
    ("m20", "Code review needs two approvals, one from a code owner.", "en", None),
    ("m21", "用户喜欢喝武夷岩茶，不喜欢咖啡。", "zh", None),
    ("m22", "测试环境的 Redis 最大内存设置为 2GB。", "zh", None),
    ("m23", "小王负责计费看板，出问题找他。", "zh", None),
    ("m24", "用户住在杭州西湖区，养了两只猫。", "zh", None),
    ("m25", "每周五下午四点开迭代复盘会。", "zh", None),
    ("m26", "前端项目用 Vite 打包，部署在阿里云 OSS 上。", "zh", None),
    ("m27", "用户对青霉素过敏。", "zh", None),
    ("m28", "订单服务的接口超时时间是3秒。", "zh", None),
    ("m29", "用户的儿子在学钢琴，每周六上课。", "zh", None),
    ("m30", "监控告警发到钉钉的运维群里。", "zh", None),
    ("m31", "用户希望回答简短，但代码示例要完整。", "zh", None),
    ("m32", "数据库密码每90天轮换一次。", "zh", None),
    ("m33", "公司年会定在一月十八号，在国际会展中心。", "zh", None),
    ("m34", "用户周末喜欢去爬山，常去香山。", "zh", None),
    ("m35", "移动端的崩溃日志用 Sentry 收集，采样率20%。", "zh", None),
    ("m36", "新同事入职要先开通 VPN 和 GitLab 账号。", "zh", None),
    ("m37", "用户用 Vim 写代码。", "zh", None),
    ("m38", "搜索服务用 Elasticsearch，商品名用自定义分词器。", "zh", None),
    ("m39", "用户的生日是三月十四号。", "zh", None),
    ("m40", "周报每周五下班前提交。", "zh", None),
    # replacements (written after what they replace)
    ("m41", "Logs are no longer shipped to Elasticsearch; we switched to Loki.", "en", "m11"),
    ("m42", "The team standup moved to 10:00.", "en", "m12"),
    ("m43", "用户不再用 Vim，改用 VS Code 了。", "zh", "m37"),
    ("m44", "The user's new manager is Diego Alvarez.", "en", "m15"),
    ("m45", "订单服务的接口超时时间改成了5秒。", "zh", "m28"),
    ("m46", "Customer support tickets are tracked in Linear now, not Zendesk.", "en", "m17"),
    ("m47", "周报改为每周一上午提交。", "zh", "m40"),
    ("m48", "The user sold the Volvo and now cycles to the office.", "en", "m13"),
    ("m49", "测试环境的 Redis 最大内存调到了 4GB。", "zh", "m22"),
    ("m50", "Feature flags moved from LaunchDarkly to Unleash.", "en", "m14"),
]

# (query, relevant, stale, category, split)
QUERIES = [
    # zh paraphrase over zh memories
    ("用户平时爱喝什么茶？", ["m21"], [], "zh_paraphrase", "dev"),
    ("谁在管计费的看板？", ["m23"], [], "zh_paraphrase", "dev"),
    ("用户家在哪个城市？", ["m24"], [], "zh_paraphrase", "dev"),
    ("复盘会是星期几开？", ["m25"], [], "zh_paraphrase", "dev"),
    ("前端怎么打包、放在哪？", ["m26"], [], "zh_paraphrase", "held_out"),
    ("用户有什么药物过敏？", ["m27"], [], "zh_paraphrase", "held_out"),
    ("孩子学什么乐器？", ["m29"], [], "zh_paraphrase", "dev"),
    ("告警通知推送到哪里？", ["m30"], [], "zh_paraphrase", "held_out"),
    ("用户希望我怎么回答问题？", ["m31"], [], "zh_paraphrase", "dev"),
    ("数据库口令多久换一次？", ["m32"], [], "zh_paraphrase", "held_out"),
    ("年会什么时候在哪办？", ["m33"], [], "zh_paraphrase", "held_out"),
    ("用户周末有什么户外活动？", ["m34"], [], "zh_paraphrase", "dev"),
    ("App 闪退的日志在哪看？", ["m35"], [], "zh_paraphrase", "held_out"),
    ("新员工第一天要开哪些账号？", ["m36"], [], "zh_paraphrase", "dev"),
    ("用户哪天过生日？", ["m39"], [], "zh_paraphrase", "held_out"),
    ("商品搜索的分词是怎么做的？", ["m38"], [], "zh_paraphrase", "dev"),
    # zh question, en memory
    ("用户喜欢深色还是浅色界面？", ["m01"], [], "zh_to_en", "dev"),
    ("发布流水线坏了找谁？", ["m02"], [], "zh_to_en", "dev"),
    ("测试库用的是哪个数据库版本？", ["m03"], [], "zh_to_en", "held_out"),
    ("生产环境哪天可以发布？", ["m04"], [], "zh_to_en", "dev"),
    ("用户对什么食物过敏？", ["m05"], [], "zh_to_en", "held_out"),
    ("接口每分钟能调用多少次？", ["m06"], [], "zh_to_en", "dev"),
    ("主库备份保留多久？", ["m07"], [], "zh_to_en", "held_out"),
    ("用户的女儿什么时候上小学？", ["m08"], [], "zh_to_en", "dev"),
    ("计费服务是用什么语言写的？", ["m09"], [], "zh_to_en", "held_out"),
    ("用户早上跑多远？", ["m10"], [], "zh_to_en", "dev"),
    ("夜间的数据同步任务几点开始？", ["m16"], [], "zh_to_en", "held_out"),
    ("用户在准备什么考试？", ["m18"], [], "zh_to_en", "dev"),
    ("访客连哪个无线网？", ["m19"], [], "zh_to_en", "held_out"),
    ("代码合并需要几个人审批？", ["m20"], [], "zh_to_en", "held_out"),
    # en question, zh memory
    ("What kind of tea does the user like?", ["m21"], [], "en_to_zh", "dev"),
    ("Who should I contact about the billing dashboard?", ["m23"], [], "en_to_zh", "held_out"),
    ("How many cats does the user have?", ["m24"], [], "en_to_zh", "dev"),
    ("When is the sprint retrospective?", ["m25"], [], "en_to_zh", "held_out"),
    ("Where is the frontend deployed?", ["m26"], [], "en_to_zh", "dev"),
    ("Is the user allergic to any medicine?", ["m27"], [], "en_to_zh", "held_out"),
    ("What day are the son's piano lessons?", ["m29"], [], "en_to_zh", "dev"),
    ("Where do monitoring alerts go?", ["m30"], [], "en_to_zh", "held_out"),
    ("How often is the database password rotated?", ["m32"], [], "en_to_zh", "dev"),
    ("When and where is the company annual party?", ["m33"], [], "en_to_zh", "held_out"),
    ("Which mountain does the user hike on weekends?", ["m34"], [], "en_to_zh", "dev"),
    ("What sampling rate does Sentry use for mobile crashes?", ["m35"], [], "en_to_zh", "held_out"),
    ("What accounts does a new hire need?", ["m36"], [], "en_to_zh", "held_out"),
    ("When is the user's birthday?", ["m39"], [], "en_to_zh", "dev"),
    # superseded
    ("Where are our logs shipped?", ["m41"], ["m11"], "superseded", "dev"),
    ("What time is the standup?", ["m42"], ["m12"], "superseded", "dev"),
    ("用户用什么编辑器写代码？", ["m43"], ["m37"], "superseded", "dev"),
    ("Who is the user's manager?", ["m44"], ["m15"], "superseded", "held_out"),
    ("订单服务接口超时是多少？", ["m45"], ["m28"], "superseded", "held_out"),
    ("Where are support tickets tracked?", ["m46"], ["m17"], "superseded", "dev"),
    ("周报什么时候交？", ["m47"], ["m40"], "superseded", "held_out"),
    ("How does the user get to the office?", ["m48"], ["m13"], "superseded", "held_out"),
    ("测试环境 Redis 内存上限是多少？", ["m49"], ["m22"], "superseded", "dev"),
    ("Which tool manages our feature flags?", ["m50"], ["m14"], "superseded", "held_out"),
    ("用户的上级是谁？", ["m44"], ["m15"], "superseded", "held_out"),
    ("日志现在发到哪？", ["m41"], ["m11"], "superseded", "held_out"),
]


def main() -> None:
    root = Path(__file__).resolve().parent
    memories = [{"id": i, "content": c, "type": "semantic", "tags": [], "lang": lang, "replaces": r}
                for i, c, lang, r in MEMORIES]
    for split in ("dev", "held_out"):
        out = root / f"xling_{split}"
        out.mkdir(exist_ok=True)
        (out / "memories.jsonl").write_text("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in memories))
        (out / "queries.jsonl").write_text("".join(
            json.dumps({"query": q, "relevant": rel, "stale": st, "category": cat}, ensure_ascii=False) + "\n"
            for q, rel, st, cat, sp in QUERIES if sp == split))
        print(out)


if __name__ == "__main__":
    main()
