"""Shared pieces of the miss diagnoses (`para15_misses.py`, `para16_misses.py`): a query's first pass with and
without query understanding, a memory's place in each channel, and whether a parsed filter leaves it out."""

from hindsight.retrieval.search import SearchOptions
from hindsight.text.tokenize import query_terms, tokenize


def first_passes(eng, query: str, now):  # type: ignore[no-untyped-def]
    """(first pass, scope the channels ran in, widened, first pass without query understanding, full scope)."""
    scope = eng._scope("r", None)
    first, narrowed, widened = eng.retriever.first_pass(query, scope, 5, now, SearchOptions())
    plain, _, _ = eng.retriever.first_pass(query, scope, 5, now, SearchOptions(understand_query=False))
    return first, narrowed, widened, plain, scope


def ranks(first, mid: str) -> dict:  # type: ignore[no-untyped-def]
    """`mid`'s 1-based rank in each channel of the first pass and its fused place (None where absent)."""
    ch = {name: next((k for k, (m, _) in enumerate(lst, 1) if m == mid), None) for name, lst in first.scored.items()}
    fused = sorted(first.fused, key=lambda m: -first.fused[m])
    ch["fused"] = fused.index(mid) + 1 if mid in fused else None
    return ch


def outside_filter(record, narrowed, scope) -> bool | None:  # type: ignore[no-untyped-def]
    """Whether the parsed filter (`narrowed` != `scope`) leaves `record` out; None when no filter was parsed."""
    if record is None or narrowed == scope:
        return None
    return bool(
        (narrowed.types is not None and record.type not in narrowed.types)
        or (narrowed.time_from is not None and record.reference_time < narrowed.time_from)
        or (narrowed.time_to is not None and record.reference_time > narrowed.time_to)
    )


def answer_rows(eng, query: str, now, rel: list[str], inv: dict[str, str]):  # type: ignore[no-untyped-def]
    """The first passes (as `first_passes`) and, per relevant memory id, a row: set id, status, channel ranks with
    and without query understanding, whether the parsed filter leaves it out, the query's BM25 terms it holds and
    its text; the third item maps each row's stored id to its record."""
    first, narrowed, widened, plain, scope = first_passes(eng, query, now)
    p = first.parsed
    terms = query_terms(p.residual if p else query)
    recs = eng.store.get_many(rel)
    out = []
    for m in rel:
        r = recs.get(m)
        toks = set(tokenize(r.content)) if r else set()
        out.append({"id": inv[m], "status": r.status.value if r else None, "ch": ranks(first, m),
                    "ch_no_parse": ranks(plain, m), "outside_filter": outside_filter(r, narrowed, scope),
                    "terms_held": [t for t in terms if t in toks], "text": r.content[:100] if r else None})
    return (first, narrowed, widened, scope, terms), out, recs
