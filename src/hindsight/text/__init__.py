"""Text processing shared by indexing and querying.

Kept separate from retrieval so that the write path (indexing) and the read
path (query terms) use exactly the same tokenisation: a BM25 index only
matches what both sides tokenised the same way.
"""

from hindsight.text.tokenize import (
    EN_STOPWORDS,
    FTS5_TOKENIZER,
    ZH_STOPWORDS,
    fts_match_query,
    query_terms,
    tokenize,
    warm_up,
)

__all__ = [
    "EN_STOPWORDS",
    "FTS5_TOKENIZER",
    "ZH_STOPWORDS",
    "fts_match_query",
    "query_terms",
    "tokenize",
    "warm_up",
]
