"""A session turn's vector with context from its turns' lower layers, each computed once (issue 14, round 32;
measured, not shipped: bench/split_layers_dense.py, docs/benchmarks.md "Write cost, round 32").

The write path stores a session turn's vector of its text joined with its two predecessors (`turn\\npred2 pred1`),
and judges the turn on its own vector (guard, hygiene): today two full passes, ~47 and ~127 tokens through all 12
layers. Here the turn alone is encoded as before (its vector is exact: the lower and the upper layers run in two
ONNX Runtime sessions, the same operators on the same states), and its states after the lower layers are kept. The
joined vector then runs only the top `top` layers, over the concatenated lower states of the turn (with its <s>),
of each predecessor (its content tokens without the `passage:` prefix) and the turn's </s>: the joined text's own
tokens, each of whose lower states saw only its own turn (positions as in its own pass). Cost per turn: 12 layers over
its own tokens + `top` layers over the joined tokens, instead of 12 over both.
"""

from __future__ import annotations

import tempfile
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hindsight.embeddings.e5_numpy import QK, _dequantize, _layernorm
from hindsight.embeddings.e5_onnx import OnnxE5, _require

#: fact texts whose lower states are kept (each ~47 x 384 float32, ~72 kB): a session's next turns read them
STATE_CACHE = 1024


def layer_session(model: OnnxE5, layers: range) -> Any:
    """An ONNX Runtime session of the model's `layers` alone (input: the states their first layer reads), built
    from the same weights and precision as the whole graph (`OnnxE5._graph(layers=)`), one thread as the engine."""
    onnx, ort = _require()
    folder = Path(tempfile.gettempdir()) / "hindsight-split-layers"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{model.graph.stem}-L{layers.start}-{layers.stop}.onnx"
    if not path.exists():
        onnx.save(model._graph(onnx, nbits={"q4": 4, "q8": 8}.get(model.precision, 0), layers=layers), str(path))
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def run_layers(session: Any, x: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """`session` over states x [B, L, H] with the additive attention bias [B, 1, Q, L]."""
    return np.asarray(session.run(["y"], {"x": x.astype(np.float32, copy=False),
                                          "bias": bias.astype(np.float32, copy=False)})[0])


class SplitEncoder:
    """`encode_turns(facts, contexts)`: joined and own vectors of session turns (module docstring)."""

    def __init__(self, model: OnnxE5, top: int) -> None:
        if not 0 < top < model.NL:
            raise ValueError(f"split_layers: top must be in 1..{model.NL - 1}, not {top}")
        self.model, self.top = model, top
        self.cut = model.NL - top
        self.lower = layer_session(model, range(0, self.cut))
        self.upper = layer_session(model, range(self.cut, model.NL))
        self.prefix = len(model.tokenizer.content_ids("passage:"))  # the tokens every passage starts with
        self._states: OrderedDict[str, np.ndarray] = OrderedDict()

    def _padded(self, rows: Sequence[np.ndarray]) -> list[tuple[list[int], np.ndarray, np.ndarray, np.ndarray]]:
        """Rows of states grouped by length as `NumpyE5._buckets` groups ids: (indices, x, bias, lengths)."""
        out = []
        for bucket, _, lengths in self.model._buckets([[0] * (len(r) - 2) for r in rows]):
            L = int(lengths.max())
            x = np.zeros((len(bucket), L, self.model.H), dtype=np.float32)
            for row, i in enumerate(bucket):
                x[row, : len(rows[i])] = rows[i]
            valid = np.arange(L)[None, :] < lengths[:, None]
            bias = np.where(valid, 0.0, -1e30).astype(np.float32)[:, None, None, :]
            out.append((bucket, x, bias, lengths))
        return out

    def lower_states(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Per passage text, its states after the lower layers ([tokens + 2, H], <s> and </s> included); kept."""
        model, H = self.model, self.model.H
        out: dict[int, np.ndarray] = {}
        todo = []
        for i, text in enumerate(texts):
            kept = self._states.get(text)
            if kept is not None:
                self._states.move_to_end(text)
                out[i] = kept
            else:
                todo.append(i)
        ids = [model.content_ids(texts[i], False)[: model.MAXP - 2] for i in todo]
        for bucket, padded, lengths in model._buckets(ids):
            B, L = padded.shape
            nb = H // QK
            blocks = (padded.reshape(-1)[:, None] * nb + np.arange(nb)[None, :]).reshape(-1)
            x = _dequantize(model._word_scales[blocks], model._word_nibbles[blocks]).reshape(B, L, H)
            x += model.pos[:L] + model.type
            x = _layernorm(x.reshape(B * L, H), *model.eln, model.eps).reshape(B, L, H)
            valid = np.arange(L)[None, :] < lengths[:, None]
            bias = (np.zeros((B, 1, 1, L), dtype=np.float32) if bool(valid.all())
                    else np.where(valid, 0.0, -1e30).astype(np.float32)[:, None, None, :])
            states = run_layers(self.lower, x, bias)
            for row, j in enumerate(bucket):
                out[todo[j]] = states[row, : lengths[row]].copy()
        for j in todo:
            self._states[texts[j]] = out[j]
            if len(self._states) > STATE_CACHE:
                self._states.popitem(last=False)
        return [out[i] for i in range(len(texts))]

    def pooled(self, rows: Sequence[np.ndarray]) -> np.ndarray:
        """The upper layers over rows of lower states, mean-pooled and L2-normalised ([len(rows), H])."""
        out = np.zeros((len(rows), self.model.H), dtype=np.float32)
        for bucket, x, bias, lengths in self._padded(rows):
            states = run_layers(self.upper, x, bias)
            for row, i in enumerate(bucket):
                out[i] = states[row, : lengths[row]].mean(axis=0)
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-6)
        return out

    def joined_row(self, fact: str, context: Sequence[str], states: dict[str, np.ndarray]) -> np.ndarray | None:
        """The joined text's lower states assembled from its turns' (None: the joined text does not tokenise as
        its turns do, or needs more than one window - encode it whole then)."""
        model, p = self.model, self.prefix
        own = states[fact]
        parts = [own[:-1]] + [states[t][1 + p : -1] for t in context] + [own[-1:]]
        row = np.concatenate(parts)
        joined = model.content_ids(fact + "\n" + " ".join(context), False)
        if len(joined) + 2 != len(row) or len(joined) > model.MAXP - 2:
            return None
        pieces = model.content_ids(fact, False) + [t for c in context for t in model.content_ids(c, False)[p:]]
        return row if pieces == joined else None
