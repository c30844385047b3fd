"""The console's words in English and Chinese (a data table; `t(lang, key)` falls back to English)."""

from __future__ import annotations

LANGS = ("en", "zh")

TEXT: dict[str, dict[str, str]] = {
    "title": {"en": "hindsight console", "zh": "hindsight 控制台"},
    "nav_browse": {"en": "Browse", "zh": "浏览"},
    "nav_queues": {"en": "Queues", "zh": "待审队列"},
    "nav_health": {"en": "Health", "zh": "运行状况"},
    "signed_in_as": {"en": "signed in as", "zh": "当前用户"},
    "sign_in": {"en": "Sign in", "zh": "登录"},
    "sign_in_help": {"en": "Sign in with a hindsight token (read scope to browse, write or admin to edit).",
                     "zh": "请用 hindsight 令牌登录（read 可浏览，write 或 admin 可修改）。"},
    "bad_token": {"en": "That token is unknown or revoked.", "zh": "令牌无效或已吊销。"},
    "sign_out": {"en": "Sign out", "zh": "退出"},
    "search": {"en": "Search", "zh": "搜索"},
    "query": {"en": "query (empty: newest first)", "zh": "查询（留空则按时间倒序）"},
    "namespace": {"en": "Namespace", "zh": "命名空间"},
    "type": {"en": "Type", "zh": "类型"},
    "tags": {"en": "Tags", "zh": "标签"},
    "status": {"en": "Status", "zh": "状态"},
    "source": {"en": "Source", "zh": "来源"},
    "from": {"en": "From", "zh": "起始"},
    "to": {"en": "To", "zh": "截止"},
    "any": {"en": "any", "zh": "全部"},
    "results": {"en": "results", "zh": "条结果"},
    "memories": {"en": "memories", "zh": "条记忆"},
    "no_results": {"en": "Nothing matches.", "zh": "没有匹配的记忆。"},
    "score": {"en": "score", "zh": "得分"},
    "why": {"en": "score breakdown", "zh": "得分构成"},
    "content": {"en": "Content", "zh": "内容"},
    "context": {"en": "Context", "zh": "适用条件"},
    "importance": {"en": "Importance", "zh": "重要性"},
    "provenance": {"en": "Provenance", "zh": "出处"},
    "created": {"en": "created", "zh": "创建于"},
    "updated": {"en": "updated", "zh": "更新于"},
    "by": {"en": "by", "zh": "由"},
    "history": {"en": "History", "zh": "修改历史"},
    "edges": {"en": "Related memories", "zh": "关联记忆"},
    "no_edges": {"en": "No related memories.", "zh": "没有关联记忆。"},
    "edit": {"en": "Edit", "zh": "编辑"},
    "save": {"en": "Save", "zh": "保存"},
    "forget": {"en": "Forget", "zh": "遗忘"},
    "restore": {"en": "Restore", "zh": "恢复"},
    "deprecate": {"en": "Deprecate", "zh": "标记过时"},
    "restore_version": {"en": "Restore this version", "zh": "恢复到此版本"},
    "session": {"en": "Session", "zh": "会话"},
    "task": {"en": "Task", "zh": "任务"},
    "credibility": {"en": "credibility", "zh": "可信度"},
    "prev": {"en": "← previous", "zh": "← 上一页"},
    "next": {"en": "next →", "zh": "下一页 →"},
    "private": {"en": "private (encrypted at rest)", "zh": "私密（加密存储）"},
    "reason": {"en": "reason", "zh": "原因"},
    "read_only": {"en": "Read-only: your token cannot change this namespace.", "zh": "只读：你的令牌不能修改此命名空间。"},
    "review_queue": {"en": "Review proposals", "zh": "待审核的修改"},
    "quarantine": {"en": "Quarantined writes", "zh": "被隔离的写入"},
    "now": {"en": "Now", "zh": "当前"},
    "proposed": {"en": "Proposed", "zh": "提议"},
    "approve": {"en": "Approve", "zh": "批准"},
    "edit_approve": {"en": "Edit, then approve", "zh": "修改后批准"},
    "own_write": {"en": "You wrote this: another admin releases it (or the owner with `hindsight quarantine release`).",
                  "zh": "这是你写入的内容：需由另一位管理员放行（或由所有者用 `hindsight quarantine release`）。"},
    "own_proposal": {"en": "You proposed this: another admin approves it (Reject withdraws it).",
                     "zh": "这是你提交的修改：需由另一位管理员批准（拒绝即撤回）。"},
    "reject": {"en": "Reject", "zh": "拒绝"},
    "release": {"en": "Release", "zh": "放行"},
    "discard": {"en": "Discard", "zh": "删除"},
    "note": {"en": "note", "zh": "备注"},
    "queue_empty": {"en": "Nothing waits.", "zh": "没有待处理的项目。"},
    "admin_only": {"en": "Queues need an admin token for the namespace.", "zh": "待审队列需要该命名空间的 admin 令牌。"},
    "by_type": {"en": "Memories by type", "zh": "按类型统计"},
    "by_status": {"en": "Memories by status", "zh": "按状态统计"},
    "writes_hour": {"en": "Writes per hour (last 24 h)", "zh": "每小时写入（最近 24 小时）"},
    "searches_hour": {"en": "Searches per hour since the server started", "zh": "每小时搜索（服务启动以来）"},
    "decay_dist": {"en": "Decay score of active memories", "zh": "活跃记忆的衰减分布"},
    "store": {"en": "Store", "zh": "存储"},
    "store_size": {"en": "file size", "zh": "文件大小"},
    "index_state": {"en": "dense index", "zh": "向量索引"},
    "vectors": {"en": "vectors", "zh": "个向量"},
    "model": {"en": "embedding model", "zh": "嵌入模型"},
    "in_sync": {"en": "in sync", "zh": "已同步"},
    "out_of_sync": {"en": "out of sync", "zh": "未同步"},
    "keys": {"en": "Keys: / search · j/k move · Enter open · g b/q/h pages",
             "zh": "快捷键：/ 搜索 · j/k 上下移动 · Enter 打开 · g b/q/h 切换页面"},
    "lang_other": {"en": "中文", "zh": "English"},
    "done": {"en": "Done.", "zh": "已完成。"},
    "proposed_note": {"en": "This namespace is reviewed: your change waits for an admin to approve it (see Queues).",
                 "zh": "该命名空间需要审核：你的修改已提交，等待管理员批准（见审核队列）。"},
    "back": {"en": "back", "zh": "返回"},
    "not_allowed": {"en": "Your token does not allow this.", "zh": "你的令牌没有此权限。"},
    "bad_form": {"en": "The form expired or came from another site; reload the page and try again.",
                 "zh": "表单已过期或来自其他站点，请刷新页面后重试。"},
}


#: stored values shown on the pages (the forms still send the value itself)
VALUE_WORDS: dict[str, str] = {
    "active": "有效", "deprecated": "已过时", "forgotten": "已遗忘", "quarantined": "已隔离",
    "working": "工作记忆", "episodic": "情景记忆", "semantic": "语义记忆", "warning": "警示",
    "user": "用户", "agent": "智能体", "external": "外部",
    "create": "创建", "update": "修改", "deprecate": "标记过时", "forget": "遗忘", "release": "放行",
    "delete": "删除", "merge": "合并", "refresh": "刷新", "store": "新增",
    "supersedes": "取代", "supplements": "补充", "derived_from": "派生自",
}


def word(lang: str, value: str) -> str:
    return VALUE_WORDS.get(value, value) if lang == "zh" else value


def t(lang: str, key: str) -> str:
    entry = TEXT.get(key)
    if entry is None:
        return key
    return entry.get(lang) or entry["en"]
