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
* a term's frequency in a candidate and the candidate's length come from tokenizing the candidate's indexed text
  with the very same FTS5 tokenizer (an in-memory FTS5 table and its `fts5vocab` instance view).

A single-namespace store scores exactly as FTS5 did (tests/test_keyword_stats.py).
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterable, Sequence

#: The FTS5 tokenizer of `memories_fts` (storage/migrations.py); the scratch table must tokenize the same way.
TOKENIZER = "porter unicode61 remove_diacritics 2 tokenchars '._-'"
K1 = 1.2
B = 0.75
#: FTS5's floor for the idf of a term more than half of the documents hold.
IDF_FLOOR = 1e-6
_BUILT = "keyword_stats_built"

Tokens = tuple[list[str], list[str]]  # (the memory's own text, its neighbours), as FTS5 tokenizes them


def tokenize(rows: Sequence[tuple[str, str]]) -> list[Tokens]:
    """Each (body, neighbours) as FTS5's tokens, in order, through a throw-away in-memory FTS5 table."""
    out: list[Tokens] = [([], []) for _ in rows]
    if not rows:
        return out
    scratch = sqlite3.connect(":memory:")
    try:
        scratch.execute(f'CREATE VIRTUAL TABLE s USING fts5(body, neighbours, tokenize = "{TOKENIZER}")')
        scratch.execute("CREATE VIRTUAL TABLE v USING fts5vocab(s, instance)")
        scratch.executemany("INSERT INTO s(rowid, body, neighbours) VALUES (?, ?, ?)",
                            [(i + 1, body or "", neighbours or "") for i, (body, neighbours) in enumerate(rows)])
        placed: list[tuple[dict[int, str], dict[int, str]]] = [({}, {}) for _ in rows]
        for doc, col, offset, term in scratch.execute("SELECT doc, col, offset, term FROM v"):
            placed[doc - 1][0 if col == "body" else 1][offset] = term
    finally:
        scratch.close()
    for i, (body, neighbours) in enumerate(placed):
        out[i] = ([body[k] for k in sorted(body)], [neighbours[k] for k in sorted(neighbours)])
    return out


# ------------------------------------------------------------------ the per-namespace totals (write side)

def change(db: sqlite3.Connection, namespace: str, rows: Sequence[tuple[str, str]], sign: int) -> None:
    """Add (sign 1) or take away (sign -1) indexed (body, neighbours) rows of `namespace`; the caller holds the
    write transaction in which the FTS rows change."""
    if not rows:
        return
    tokens = sum(len(body) + len(neighbours) for body, neighbours in tokenize(rows))
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


def indexed(db: sqlite3.Connection, rowid: int) -> tuple[str, str] | None:
    """The (body, neighbours) FTS5 holds for a memory (before it is replaced or deleted)."""
    row = db.execute("SELECT body, neighbours FROM memories_fts WHERE rowid = ?", (rowid,)).fetchone()
    return None if row is None else (str(row[0] or ""), str(row[1] or ""))


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


def occurrences(tokens: list[str], phrase: tuple[str, ...]) -> int:
    """How many times `phrase` (FTS5 tokens) occurs in `tokens`, as FTS5 counts phrase instances."""
    if len(phrase) == 1:
        return tokens.count(phrase[0])
    k = len(phrase)
    return sum(1 for j in range(len(tokens) - k + 1) if tuple(tokens[j : j + k]) == phrase)


def idf(hits: int, docs: int) -> float:
    """FTS5's idf: log((N - n + 0.5) / (n + 0.5)), floored at IDF_FLOOR."""
    value = math.log((docs - hits + 0.5) / (hits + 0.5)) if docs > 0 else 0.0
    return value if value > 0 else IDF_FLOOR


def bm25(candidates: Sequence[Tokens], phrases: Sequence[tuple[str, ...]], idfs: Sequence[float],
         avgdl: float, neighbour_weight: float) -> list[float]:
    """FTS5's bm25 (positive: higher is better) of each candidate, with column weights (1, neighbour_weight)."""
    scores: list[float] = []
    for body, neighbours in candidates:
        length = len(body) + len(neighbours)
        norm = K1 * (1 - B + B * length / avgdl)
        total = 0.0
        for phrase, weight in zip(phrases, idfs):
            freq = occurrences(body, phrase) + neighbour_weight * occurrences(neighbours, phrase)
            total += weight * (freq * (K1 + 1)) / (freq + norm)
        scores.append(total)
    return scores
