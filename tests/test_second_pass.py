"""The second retrieval step: session neighbours of the best hits join the pool, a learned model re-ranks it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
from conftest import FIXED_NOW

from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord, Status
from hindsight.retrieval import second_pass
from hindsight.retrieval.query_parser import parse_query
from hindsight.retrieval.search import SearchOptions
from hindsight.storage.base import Scope
from hindsight.storage.encrypted import EncryptedStore
from hindsight.storage.sqlite_store import SQLiteStore

DAY = FIXED_NOW - timedelta(days=30)
TRIP = [  # one session: the question turn, then an answer that shares no words with the query
    "Maria: Did you finally book the trip to Lisbon for the conference?",
    "Jon: Yes! Flights on the 14th, and I got a room near the river.",
    "Maria: Nice, send me photos of the tiles.",
]
OTHER = [
    "Jon: My sourdough starter died again over the weekend.",
    "Maria: I started running in the mornings before work.",
    "Jon: The new office chairs are finally here.",
    "Maria: Our cat learned to open the kitchen door.",
]


@pytest.fixture
def chat(engine: MemoryEngine) -> MemoryEngine:
    engine.store_many([{"content": c, "event_time": DAY, "session_id": "s1", "source": "user"} for c in TRIP])
    engine.store_many([{"content": c, "event_time": DAY - timedelta(days=3), "session_id": "s0", "source": "user"}
                       for c in OTHER])
    engine.settings.retrieval.record_access = False
    return engine


def _narrow(engine: MemoryEngine) -> None:
    """A first pass that keeps only its single best candidate per channel."""
    r = engine.settings.retrieval
    r.dense_candidates = r.keyword_candidates = 1


def _model(expanded_weight: float) -> second_pass.SecondPassModel:
    width = len(second_pass.FEATURES)
    coef = [0.0] * width
    coef[second_pass.FEATURES.index("fused")] = 1.0
    coef[second_pass.FEATURES.index("expanded_only")] = expanded_weight
    return second_pass.SecondPassModel(tuple(coef), 0.0, (0.0,) * width, (1.0,) * width)


def test_session_neighbours_in_write_order_within_scope(chat: MemoryEngine) -> None:
    records = {r.content: r for r in chat.list()[0]}
    middle = records[TRIP[1]]
    scope = Scope.from_filters("default", None, (Status.active,))
    around, seen = second_pass.session_neighbours(chat.store, scope, [middle], window=1)
    assert [(seen[mid].content, offset) for mid, offset in around[middle.id]] == [(TRIP[0], -1), (TRIP[2], 1)]
    assert all(seen[mid].session_id == "s1" for mid in seen), "only the hit's own session is read"
    other_namespace = Scope.from_filters("elsewhere", None, (Status.active,))
    around, seen = second_pass.session_neighbours(chat.store, other_namespace, [middle], window=1)
    assert not around.get(middle.id) and not seen, "nothing outside the caller's scope is read"


def test_the_answer_next_to_the_best_hit_is_found_and_explained(chat: MemoryEngine,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    _narrow(chat)
    query = "Did Maria ask about booking the Lisbon conference trip?"
    chat.settings.retrieval.second_pass = False
    before = [h.memory.content for h in chat.search(query, top_k=5, now=FIXED_NOW)]
    assert TRIP[0] in before and TRIP[1] not in before, "the narrow first pass alone misses the answer turn"

    monkeypatch.setattr(second_pass, "model_for", lambda name: _model(expanded_weight=0.5))
    chat.settings.retrieval.second_pass = True
    chat.settings.retrieval.second_pass_min_candidates = 1  # the scripted model on a one-candidate first pass
    hits = chat.search(query, top_k=5, now=FIXED_NOW)
    by_content = {h.memory.content: h for h in hits}
    assert TRIP[1] in by_content, "the session neighbour of the best hit joins the results"
    anchor = by_content[TRIP[0]].memory.id
    assert by_content[TRIP[1]].why.expanded_from == anchor
    assert by_content[TRIP[1]].why.second_pass is not None and by_content[TRIP[0]].why.expanded_from is None
    assert not any(c in by_content for c in OTHER), "other sessions are not expanded"

    off = chat.search(query, top_k=5, now=FIXED_NOW, options=SearchOptions(second_pass=False))
    assert [h.memory.content for h in off] == before, "the per-call switch turns the step off"


def test_features_mark_time_window_names_and_expansion(chat: MemoryEngine) -> None:
    _narrow(chat)
    scope = Scope.from_filters("default", None, (Status.active,))
    options = SearchOptions()
    first, _, _ = chat.retriever.first_pass("what did Maria say about Lisbon last month", scope, 5, FIXED_NOW, options)
    pooled = second_pass.candidates(first, chat.store, pool=5, expand_top=1, window=1)
    column = {name: i for i, name in enumerate(second_pass.FEATURES)}
    rows = {pooled.records[mid].content: pooled.matrix[i] for i, mid in enumerate(pooled.ids)}
    assert pooled.matrix.shape == (len(pooled.ids), len(second_pass.FEATURES)) and np.isfinite(pooled.matrix).all()
    top = rows[TRIP[0]]
    assert top[column["time_query"]] == 1.0 and top[column["time_in"]] == 1.0  # 30 days ago is "last month"
    assert top[column["names_query"]] == 1.0 and top[column["names_found"]] == 1.0
    assert top[column["expanded_only"]] == 0.0 and rows[TRIP[1]][column["expanded_only"]] == 1.0
    assert rows[TRIP[1]][column["neighbour_best"]] == pytest.approx(top[column["fused"]])
    assert top[column["speaker_named"]] == 1.0 and rows[TRIP[1]][column["speaker_named"]] == 0.0, "Maria speaks"
    assert rows[TRIP[1]][column["after_hit"]] == 1.0 and rows[TRIP[1]][column["before_hit"]] == 0.0
    assert top[column["after_hit"]] == 0.0 and top[column["time_gap"]] == 0.0


def test_speaker_words_and_time_gap_helpers() -> None:
    assert second_pass._speaker("Maria: Did you book it?") == "maria"
    assert second_pass._speaker("张伟：我明天到上海") == "张伟"
    assert second_pass._speaker("no speaker in this memory") is None
    assert second_pass._words("Maria: the Lisbon tiles, 14th") == {"lisbon", "tiles"}, "speaker, short words, digits out"
    start, end = FIXED_NOW - timedelta(days=7), FIXED_NOW
    assert second_pass._time_gap(FIXED_NOW - timedelta(days=3), start, end) == 0.0
    assert second_pass._time_gap(start - timedelta(days=3), start, end) == pytest.approx(np.log1p(3.0))
    assert second_pass._time_gap(end + timedelta(days=1), start, end) == pytest.approx(np.log1p(1.0))


def test_words_of_the_best_hits_lift_a_turn_elsewhere_that_shares_them() -> None:
    contents = {
        "h1": "Jon: We hiked up to the lighthouse near Porto.",
        "h2": "Maria: The lighthouse trip was the best part of spring.",
        "c1": "Jon: I still have the lighthouse postcard from Porto on my fridge.",
        "c2": "Maria: My sister called about her new job yesterday.",
        **{f"f{i}": f"Jon: filler turn number {i} about nothing much" for i in range(8)},
    }
    records = {mid: MemoryRecord(content=text) for mid, text in contents.items()}
    first = second_pass.FirstPass({mid: 1.0 / (i + 1) for i, mid in enumerate(contents)}, records, {}, None, None,
                                  Scope("default"))
    words = {mid: second_pass._words(text) for mid, text in contents.items()}
    shared = second_pass._hit_terms(first, list(contents), words, ["h1", "h2"])
    assert shared["c1"] > 0.0 and shared["c2"] == 0.0
    assert shared["h1"] > 0.0, "a hit is compared with the other hits, not with itself"
    assert shared["f0"] == 0.0, "words common in the pool ('about', 'turn') count for nothing"


def test_a_model_reads_only_its_own_columns() -> None:
    width = len(second_pass.FEATURES)
    matrix = np.zeros((2, width))
    matrix[0, second_pass.FEATURES.index("speaker_named")] = 1.0
    matrix[1, second_pass.FEATURES.index("fused")] = 5.0
    model = second_pass.SecondPassModel((2.0,), 0.0, (0.0,), (1.0,), ("speaker_named",))
    scores = model.scores(matrix)
    assert scores[0] > scores[1] == pytest.approx(0.5)


def test_shipped_model_matches_the_feature_list() -> None:
    model = second_pass.model_for(second_pass.DEFAULT_MODEL)
    if not second_pass.MODEL_FILE.exists():
        pytest.fail("data/second_pass.json is shipped with the package")
    assert model is not None and len(model.coef) == len(model.features) == len(model.mean)
    assert set(model.features) <= set(second_pass.FEATURES)


class _Counting(EncryptedStore):
    """A real store that counts the records its reads return."""

    def __init__(self, inner: SQLiteStore) -> None:
        super().__init__(inner, None)
        self.records_read = 0

    def get_many(self, memory_ids: Sequence[str]) -> dict[str, MemoryRecord]:
        found = super().get_many(memory_ids)
        self.records_read += len(found)
        return found

    def list(self, scope: Scope, *, limit: int, offset: int = 0, newest_first: bool = True) -> list[MemoryRecord]:
        found = super().list(scope, limit=limit, offset=offset, newest_first=newest_first)
        self.records_read += len(found)
        return found


@pytest.mark.parametrize("turns", [20, 200])
def test_neighbours_cost_does_not_grow_with_the_session(tmp_path: Path, turns: int) -> None:
    """The step reads the ids around a hit from the session index, then only those records: n and 10n turns
    in the hit's session read the same number of records (it used to read the whole session)."""
    store = _Counting(SQLiteStore(tmp_path / "s.db"))
    records = [MemoryRecord(content=f"turn {i}", session_id="long") for i in range(turns)]
    store.insert_many([(r, None) for r in records], actor="t")
    scope = Scope.from_filters("default", None, (Status.active,))
    hits = [records[turns // 2], records[turns // 4]]
    around, seen = second_pass.session_neighbours(store, scope, hits, window=1)
    assert around == {hits[0].id: [(records[turns // 2 - 1].id, -1), (records[turns // 2 + 1].id, 1)],
                      hits[1].id: [(records[turns // 4 - 1].id, -1), (records[turns // 4 + 1].id, 1)]}
    assert store.records_read == 4 and set(seen) == {mid for near in around.values() for mid, _ in near}
    store.close()


def _first(contents: list[str], session: str | None, query: str) -> second_pass.FirstPass:
    records = {f"m{i}": MemoryRecord(content=text, session_id=session) for i, text in enumerate(contents)}
    parsed = parse_query(query, FIXED_NOW)
    return second_pass.FirstPass({mid: 1.0 / (i + 1) for i, mid in enumerate(records)}, records, {"dense": []},
                                 None, parsed, Scope("default"))


def test_the_step_applies_only_where_it_was_fitted() -> None:
    """Conversation turns in one non-Chinese script: yes. Facts without sessions, a Chinese query or Chinese hits,
    or a mixed-script pool (the cross-lingual channel ran): the first pass stands."""
    english = ["Jon: I booked the Lisbon trip.", "Maria: Send photos of the tiles.", "Jon: The flight is on Monday."]
    assert second_pass.applies(_first(english, "s1", "When is Jon's flight?"), expand_top=10)
    assert not second_pass.applies(_first(english, None, "When is Jon's flight?"), expand_top=10)
    assert not second_pass.applies(_first(english, "s1", "Jon 的航班是哪天？"), expand_top=10)
    chinese = ["张伟：我订好了去里斯本的机票。", "李娜：记得拍瓷砖的照片。", "张伟：周一的航班。"]
    assert not second_pass.applies(_first(chinese, "s1", "When is the flight?"), expand_top=10)
    mixed = _first(english, "s1", "When is Jon's flight?")
    mixed.scored["crosslingual"] = []
    assert not second_pass.applies(mixed, expand_top=10)


def test_facts_without_sessions_keep_the_first_pass(engine: MemoryEngine) -> None:
    engine.store_many([{"content": c, "source": "user"} for c in [*TRIP, *OTHER]])
    engine.settings.retrieval.record_access = False
    assert engine.settings.retrieval.second_pass, "on by default"
    hits = engine.search("Lisbon conference trip", top_k=5, now=FIXED_NOW)
    off = engine.search("Lisbon conference trip", top_k=5, now=FIXED_NOW, options=SearchOptions(second_pass=False))
    assert hits and all(h.why.second_pass is None for h in hits)
    assert [h.memory.id for h in hits] == [h.memory.id for h in off]


def test_speaker_pool_adds_the_named_speakers_turns(chat: MemoryEngine) -> None:
    _narrow(chat)
    scope = Scope.from_filters("default", None, (Status.active,))
    first, _, _ = chat.retriever.first_pass("What did Maria say about Lisbon?", scope, 5, FIXED_NOW, SearchOptions())
    column = {name: i for i, name in enumerate(second_pass.FEATURES)}
    plain = second_pass.candidates(first, chat.store, pool=5, expand_top=1, window=0)
    pooled = second_pass.candidates(first, chat.store, pool=5, expand_top=1, window=0, speaker=10, speaker_depth=20)
    rows = {pooled.records[mid].content: pooled.matrix[i] for i, mid in enumerate(pooled.ids)}
    maria = {c for c in TRIP + OTHER if c.startswith("Maria:")}
    assert set(plain.ids) < set(pooled.ids) and maria <= set(rows), "every Maria turn joins the pool"
    added = set(pooled.ids) - set(plain.ids)
    assert all(pooled.records[mid].content.startswith("Maria:") for mid in added), "only the named speaker's"
    assert all(rows[c][column["speaker_rrank"]] > 0 for c in maria)
    assert all(rows[c][column["speaker_rrank"]] == 0 for c in rows if c.startswith("Jon:"))
    assert sorted(rows[pooled.records[mid].content][column["speaker_only"]] for mid in pooled.ids) == \
        sorted([1.0] * len(added) + [0.0] * len(plain.ids))
    assert np.all(plain.matrix[:, column["speaker_rrank"]] == 0), "off by default"
