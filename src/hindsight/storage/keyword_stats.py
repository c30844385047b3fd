"""Keyword (BM25) scores from the searched namespace's own statistics (the SQLite store).

FTS5's `bm25()` reads document frequencies and the average length of the WHOLE table, so a memory's score moved
with what other namespaces held (docs/security.md, "Attack round 20": a token of one namespace could count another
namespace's memories holding a word it guesses). FTS5 still finds the matches; this module scores them with the
formula of FTS5's bm25 (k1 = 1.2, b = 0.75, column weights, idf floored at 1e-6) over statistics of one namespace:

* `keyword_stats` (schema v10): per namespace, how many memories it holds (any status) and how many FTS tokens
  they hold together (the average length). It is changed on the store's one write path (`change`, called where
  FTS rows are written or deleted) and rebuilt on open when missing (`ensure`: a store written before v10);
* a term's document frequency in the namespace is counted at search time through FTS5 (the term's matches, each
  looked up by rowid), so it costs what matching the term costs, not the namespace's size;
* a term's frequency in a candidate and the candidate's length come from FTS5's own index (`memories_fts_v`, its
  fts5vocab instance view, and its docsize table); when every term is over the cost cap, from tokenizing the
  newest matches' indexed text with the same tokenizer in an in-memory FTS5 table instead.

A single-namespace store scores exactly as FTS5 did (tests/test_keyword_stats.py).
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

#: The FTS5 tokenizer of `memories_fts` (storage/migrations.py); the scratch table must tokenize the same way.
TOKENIZER = "porter unicode61 remove_diacritics 2 tokenchars '._-'"
K1 = 1.2
B = 0.75
#: FTS5's floor for the idf of a term more than half of the documents hold.
IDF_FLOOR = 1e-6
_BUILT = "keyword_stats_built"

Tokens = tuple[list[str], list[str]]  # (the memory's own text, its neighbours), as FTS5 tokenizes them
Counts = tuple[int, int]  # a phrase's instances in (the memory's own text, its neighbours)


_local = threading.local()


@contextmanager
def _scratch(rows: Sequence[tuple[str, str]]) -> Iterator[sqlite3.Connection]:
    """An in-memory contentless FTS5 table of this thread holding `rows` (rowids 1..n) with `memories_fts`'s
    tokenizer, `v` its fts5vocab instance view (doc, col, offset, term); emptied again on the way out."""
    scratch = getattr(_local, "db", None)
    if scratch is None:
        scratch = sqlite3.connect(":memory:", check_same_thread=False)
        scratch.execute(f"CREATE VIRTUAL TABLE s USING fts5(body, neighbours, content = '', tokenize = \"{TOKENIZER}\")")
        scratch.execute("CREATE VIRTUAL TABLE v USING fts5vocab(s, instance)")
        _local.db = scratch
    scratch.executemany("INSERT INTO s(rowid, body, neighbours) VALUES (?, ?, ?)",
                        [(i + 1, body or "", neighbours or "") for i, (body, neighbours) in enumerate(rows)])
    try:
        yield scratch
    finally:
        scratch.execute("INSERT INTO s(s) VALUES ('delete-all')")


def tokenize(rows: Sequence[tuple[str, str]]) -> list[Tokens]:
    """Each (body, neighbours) as FTS5's tokens, in order."""
    placed: list[tuple[dict[int, str], dict[int, str]]] = [({}, {}) for _ in rows]
    if rows:
        with _scratch(rows) as scratch:
            for doc, col, offset, term in scratch.execute("SELECT doc, col, offset, term FROM v"):
                placed[doc - 1][0 if col == "body" else 1][offset] = term
    return [([body[k] for k in sorted(body)], [nb[k] for k in sorted(nb)]) for body, nb in placed]


def _varints(blob: bytes) -> list[int]:
    """FTS5's docsize record: one varint per column (the column's token count)."""
    out: list[int] = []
    value = 0
    for byte in blob:
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            out.append(value)
            value = 0
    return out


def lengths(rows: Sequence[tuple[str, str]]) -> list[int]:
    """How many FTS5 tokens each (body, neighbours) holds (both columns)."""
    out = [0] * len(rows)
    if rows:
        with _scratch(rows) as scratch:
            for doc, size in scratch.execute("SELECT id, sz FROM s_docsize"):
                out[doc - 1] = sum(_varints(size))
    return out


def phrase_counts(rows: Sequence[tuple[str, str]], phrases: Sequence[tuple[str, ...]]
                  ) -> tuple[list[int], list[list[Counts]]]:
    """Each row's length in tokens and each phrase's instances in it, as FTS5 counts them (consecutive tokens of
    one column); only the phrases' own tokens are read back, so the cost is tokenizing the rows (in C)."""
    sizes = [0] * len(rows)
    if not rows:
        return sizes, []
    at: dict[tuple[int, int], dict[int, str]] = {}  # (doc, column) -> offset -> one of the phrases' tokens
    with _scratch(rows) as scratch:
        for doc, size in scratch.execute("SELECT id, sz FROM s_docsize"):
            sizes[doc - 1] = sum(_varints(size))
        for term in {t for phrase in phrases for t in phrase}:
            for doc, col, offset in scratch.execute("SELECT doc, col, offset FROM v WHERE term = ?", (term,)):
                at.setdefault((doc - 1, 0 if col == "body" else 1), {})[offset] = term
    return sizes, _count(at, phrases, len(rows))


def indexed_counts(db: sqlite3.Connection, rowids: Sequence[int], phrases: Sequence[tuple[str, ...]]
                   ) -> tuple[list[int], list[list[Counts]]]:
    """`phrase_counts` of stored memories read from `memories_fts` itself: lengths from its docsize, the phrases'
    token positions from `memories_fts_v` (its fts5vocab instance view: each token's postings across the store,
    which the keyword term cap bounds)."""
    where = {rowid: i for i, rowid in enumerate(rowids)}
    sizes = [0] * len(rowids)
    for start in range(0, len(rowids), 900):
        chunk = list(rowids[start : start + 900])
        for doc, size in db.execute(f"SELECT id, sz FROM memories_fts_docsize WHERE id IN ({','.join('?' * len(chunk))})",
                                    chunk):
            sizes[where[doc]] = sum(_varints(size))
    at: dict[tuple[int, int], dict[int, str]] = {}
    for term in {t for phrase in phrases for t in phrase}:
        for doc, col, offset in db.execute("SELECT doc, col, offset FROM memories_fts_v WHERE term = ?", (term,)):
            if doc in where:
                at.setdefault((where[doc], 0 if col == "body" else 1), {})[offset] = term
    return sizes, _count(at, phrases, len(rowids))


def _count(at: dict[tuple[int, int], dict[int, str]], phrases: Sequence[tuple[str, ...]], n: int
           ) -> list[list[Counts]]:
    """Each phrase's instances per row from (row, column) -> offset -> token."""
    counts = [[(0, 0)] * len(phrases) for _ in range(n)]
    for (doc, col), terms in at.items():
        for p, phrase in enumerate(phrases):
            found = sum(1 for o, t in terms.items() if t == phrase[0]
                        and all(terms.get(o + j) == phrase[j] for j in range(1, len(phrase))))
            if found:
                body, neighbours = counts[doc][p]
                counts[doc][p] = (body + found, neighbours) if col == 0 else (body, neighbours + found)
    return counts


# ------------------------------------------------------------------ the per-namespace totals (write side)

def change(db: sqlite3.Connection, namespace: str, rows: Sequence[tuple[str, str]], sign: int) -> None:
    """Add (sign 1) or take away (sign -1) indexed (body, neighbours) rows of `namespace`; the caller holds the
    write transaction in which the FTS rows change."""
    if not rows:
        return
    tokens = sum(lengths(rows))
    db.execute("INSERT INTO keyword_stats(namespace, docs, tokens) VALUES (?, ?, ?) ON CONFLICT(namespace) DO "
               "UPDATE SET docs = docs + excluded.docs, tokens = tokens + excluded.tokens",
               (namespace, sign * len(rows), sign * tokens))
    if sign < 0:
        db.execute("DELETE FROM keyword_stats WHERE namespace = ? AND docs <= 0", (namespace,))


def change_many(db: sqlite3.Connection, rows: Iterable[tuple[str, str, str]], sign: int) -> None:
    """`change` for (namespace, body, neighbours) rows of several namespaces."""
    by_namespace: dict[str, list[tuple[str, str]]] = {}
    for namespace, body, neighbours in rows:
        by_namespace.setdefault(namespace, []).append((body, neighbours))
    for namespace, texts in by_namespace.items():
        change(db, namespace, texts, sign)


def forget(db: sqlite3.Connection, rowid: int, namespace: str) -> None:
    """Take a memory's indexed text out of its namespace's totals, before its FTS row is replaced or deleted."""
    row = db.execute("SELECT body, neighbours FROM memories_fts WHERE rowid = ?", (rowid,)).fetchone()
    if row is not None:
        change(db, namespace, [(str(row[0] or ""), str(row[1] or ""))], -1)


def ensure(db: sqlite3.Connection) -> None:
    """Rebuild the totals from the FTS index when this file has none yet (written before v10, or restored from
    such a backup); outside a transaction (at open)."""
    if db.execute("SELECT 1 FROM meta WHERE key = ?", (_BUILT,)).fetchone() is not None:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("DELETE FROM keyword_stats")
        last = 0
        while True:
            chunk = db.execute("SELECT m.rowid, m.namespace, f.body, f.neighbours FROM memories m JOIN memories_fts f "
                               "ON f.rowid = m.rowid WHERE m.rowid > ? ORDER BY m.rowid LIMIT 2000", (last,)).fetchall()
            if not chunk:
                break
            change_many(db, [(r[1], r[2] or "", r[3] or "") for r in chunk], 1)
            last = int(chunk[-1][0])
        db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, '1')", (_BUILT,))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


# ------------------------------------------------------------------ scoring (read side)

def totals(db: sqlite3.Connection, namespace: str) -> tuple[int, int]:
    """(memories, tokens) of a namespace."""
    row = db.execute("SELECT docs, tokens FROM keyword_stats WHERE namespace = ?", (namespace,)).fetchone()
    return (0, 0) if row is None else (int(row[0]), int(row[1]))


def namespace_hits(db: sqlite3.Connection, phrase: str, namespace: str) -> int:
    """How many memories of `namespace` (any status) match a quoted FTS5 phrase: the term's matches, driven by
    FTS5 (CROSS JOIN keeps it the outer loop), each checked by rowid."""
    return int(db.execute("SELECT COUNT(*) FROM memories_fts CROSS JOIN memories m ON m.rowid = memories_fts.rowid "
                          "WHERE memories_fts MATCH ? AND m.namespace = ?", (phrase, namespace)).fetchone()[0])


def idf(hits: int, docs: int) -> float:
    """FTS5's idf: log((N - n + 0.5) / (n + 0.5)), floored at IDF_FLOOR."""
    value = math.log((docs - hits + 0.5) / (hits + 0.5)) if docs > 0 else 0.0
    return value if value > 0 else IDF_FLOOR


def bm25(sizes: Sequence[int], counts: Sequence[Sequence[Counts]], idfs: Sequence[float], avgdl: float,
         neighbour_weight: float) -> list[float]:
    """FTS5's bm25 (positive: higher is better) of each candidate from its length and its phrase counts
    (`phrase_counts`), with column weights (1, neighbour_weight)."""
    scores: list[float] = []
    for length, row in zip(sizes, counts):
        norm = K1 * (1 - B + B * length / avgdl)
        total = 0.0
        for (body, neighbours), weight in zip(row, idfs):
            freq = body + neighbour_weight * neighbours
            total += weight * (freq * (K1 + 1)) / (freq + norm)
        scores.append(total)
    return scores


def rank(db: sqlite3.Connection, rows: Sequence[tuple[Any, ...]], terms: Sequence[str], hits: Sequence[int] | None,
         totals: tuple[int, int], neighbour_weight: float, limit: int) -> list[tuple[str, float]]:
    """The best `limit` of the matched (rowid, id, body, neighbours) rows for the query `terms` (the MATCH phrases'
    text): BM25 with `hits[i]`, the namespace's memories holding term i, and its (memories, tokens) `totals`;
    `hits` None (only common terms, the newest matches ranked): every term weighs 1, and the rows' text is
    tokenized here (the terms' postings are what the cap avoids reading). Ties: older memory first."""
    if not rows:
        return []
    parsed = tokenize([(text, "") for text in terms])
    keep = [i for i, (body, _) in enumerate(parsed) if body]  # a term FTS5 splits into nothing matches nothing
    docs, tokens = totals
    idfs = [1.0 if hits is None else idf(hits[i], docs) for i in keep]
    avgdl = tokens / docs if docs > 0 and tokens > 0 else 1.0
    phrases = [tuple(parsed[i][0]) for i in keep]
    sizes, counts = phrase_counts([(row[2], row[3]) for row in rows], phrases) if hits is None else \
        indexed_counts(db, [int(row[0]) for row in rows], phrases)
    scores = bm25(sizes, counts, idfs, avgdl, neighbour_weight)
    ranked = sorted(zip(scores, (int(row[0]) for row in rows), (str(row[1]) for row in rows)),
                    key=lambda item: (-item[0], item[1]))
    return [(mid, score) for score, _, mid in ranked[:limit]]
