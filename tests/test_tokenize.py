"""Tokenisation for the BM25 index: mixed Chinese/English, identifiers, stopwords, speed."""

from __future__ import annotations

import sqlite3

import pytest
from linear_cost import assert_not_superlinear

from hindsight.text import FTS5_TOKENIZER, fts_match_query, query_terms, tokenize
from hindsight.text.tokenize import EN_STOPWORDS, ZH_STOPWORDS


def test_chinese_runs_use_search_mode_segmentation() -> None:
    toks = tokenize("数据库迁移")
    for expected in ("数据", "数据库", "迁移"):
        assert expected in toks


def test_english_words_lowercased_and_whole() -> None:
    assert tokenize("Deploy the Service") == ["deploy", "the", "service"]


@pytest.mark.parametrize(
    ("text", "whole", "parts"),
    [
        ("ERR_CONNECTION_REFUSED", "err_connection_refused", ["err", "connection", "refused"]),
        ("max_connections", "max_connections", ["max", "connections"]),
        ("version 1.2.3", "1.2.3", []),
        ("E1234", "e1234", []),
        ("ORA-00942", "ora-00942", ["ora", "00942"]),
        ("config.yaml", "config.yaml", ["config", "yaml"]),
    ],
)
def test_identifiers_kept_whole_plus_parts(text: str, whole: str, parts: list[str]) -> None:
    toks = tokenize(text)
    assert whole in toks
    for part in parts:
        assert part in toks
    # the whole identifier comes before its parts
    assert toks.index(whole) <= min((toks.index(p) for p in parts), default=toks.index(whole))


def test_camel_case_split_additionally() -> None:
    toks = tokenize("getUserName HTTPServer")
    assert toks[:4] == ["getusername", "get", "user", "name"]
    assert {"httpserver", "http", "server"} <= set(toks)


def test_punctuation_and_whitespace_never_tokens() -> None:
    toks = tokenize("  Hello,   world!!! —— 你好，世界。 (done.) \n\t ...  ")
    assert toks
    for tok in toks:
        assert tok.strip() == tok and tok
        assert any(ch.isalnum() for ch in tok)
    assert "done" in toks  # no trailing dot carried into the token


def test_possessive_and_apostrophes() -> None:
    assert tokenize("Caroline's") == ["caroline"]
    assert tokenize("don't") == ["dont"]


def test_mixed_chinese_english() -> None:
    toks = tokenize("数据库PostgreSQL报错E1234")
    assert "数据库" in toks and "postgresql" in toks and "e1234" in toks and "报错" in toks


def test_fullwidth_normalised() -> None:
    assert tokenize("ＡＢＣ１２３") == ["abc123"]


def test_empty() -> None:
    assert tokenize("") == []
    assert tokenize("  ，。!? ") == []
    assert query_terms("") == []


def test_query_terms_remove_stopwords_dedupe_keep_order() -> None:
    assert query_terms("What did we do about the database and the Database?") == ["database"]
    assert query_terms("数据库的迁移是什么") == ["数据", "据库", "数据库", "迁移"]


def test_query_terms_keeps_meaningful_single_chinese_characters() -> None:
    assert "坑" in query_terms("踩过的坑")


def test_query_terms_all_stopwords_falls_back() -> None:
    assert query_terms("what is it") == ["what", "is", "it"]


def test_stopword_lists_are_small_and_lowercase() -> None:
    assert {"the", "a", "is", "what", "did"} <= EN_STOPWORDS
    assert {"的", "了", "是", "吗", "什么"} <= ZH_STOPWORDS
    assert all(w == w.lower() for w in EN_STOPWORDS)
    assert "last" not in EN_STOPWORDS and "坑" not in ZH_STOPWORDS


def test_fts_match_query_quotes_terms() -> None:
    assert fts_match_query(["max_connections", "ora-00942", "and"]) == '"max_connections" OR "ora-00942" OR "and"'
    assert fts_match_query(['a"b']) == '"a""b"'
    assert fts_match_query([]) == ""


@pytest.mark.parametrize("tokenizer", ["porter unicode61", FTS5_TOKENIZER])
def test_round_trip_through_sqlite_fts5(tokenizer: str) -> None:
    """Index with tokenize(), query with query_terms(): Chinese, identifiers and English all match."""
    con = sqlite3.connect(":memory:")
    try:
        con.execute(f"CREATE VIRTUAL TABLE t USING fts5(body, tokenize = \"{tokenizer}\")")
    except sqlite3.OperationalError as exc:  # pragma: no cover - SQLite without FTS5
        pytest.skip(f"FTS5 unavailable: {exc}")
    docs = {
        1: "上周把数据库迁移到新集群，连接池 max_connections 太小",
        2: "Melanie painted a sunrise at the lake",
        3: "Error ORA-00942 table or view does not exist in v1.2.3",
    }
    for rowid, body in docs.items():
        con.execute("INSERT INTO t(rowid, body) VALUES (?, ?)", (rowid, " ".join(tokenize(body))))

    def hits(query: str) -> set[int]:
        expr = fts_match_query(query_terms(query))
        return {r[0] for r in con.execute("SELECT rowid FROM t WHERE t MATCH ?", (expr,))}

    assert hits("数据库迁移") == {1}
    assert hits("迁移") == {1}
    assert hits("max_connections") == {1}
    assert hits("what did Melanie paint?") == {2}  # porter: paint ~ painted
    assert hits("ORA-00942") == {3}
    assert hits("1.2.3") == {3}


def test_jieba_initialised_quietly(capfd: pytest.CaptureFixture[str]) -> None:
    tokenize("预热一下分词器")
    _out, err = capfd.readouterr()
    assert "Building prefix dict" not in err and "Loading model" not in err


def test_speed_query_terms_30_words_under_1ms() -> None:
    en = (
        "We migrated the production database to the new cluster last week and then found that the "
        "max_connections setting in PostgreSQL was far too low for all of our background workers today"
    )
    zh = "我们上周把数据库迁移到了新的集群，然后发现 PostgreSQL 的 max_connections 连接池配置有问题，需要调整最大连接数"
    assert len(en.split()) >= 30
    # no wall-clock limit (timings live in bench/): 10x the text must not cost super-linearly more
    for text in (en, zh):
        assert_not_superlinear(query_terms, text, text * 10, slack=1e-3, runs=50)


def test_warm_up_loads_the_pos_tagger_that_hygiene_reads() -> None:
    """Server start pays jieba's POS tagger (write/analysis.py imports it lazily), not the first write. In a child
    process: in this one another test may have loaded it already."""
    import subprocess
    import sys

    code = ("import sys; from hindsight.text.tokenize import warm_up; warm_up(); "
            "print('jieba.posseg' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr[-500:]
