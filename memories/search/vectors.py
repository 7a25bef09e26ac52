"""Note vectors: where the embedding model lives, and the vector stored with each note.

A note's vector is computed when its text is written (``note_index_fields`` at save and edit,
``note_index_refresh`` where an undo or an import puts text back, ``embed_notes`` for notes
saved before the model was prepared) and stored in ``Note.embedding`` next to
``Note.search_text``, the text it was computed from, and ``Note.search_terms``, tagged with a
checksum of the key and value all three were written from. A vector is used only while that
tag (or, on older rows, ``search_text``) matches the note's key and value (``current_index``):
text changed behind the service's back (a manual UPDATE, a data migration) leaves a vector that
search ignores — that note ranks by its words alone until ``python manage.py embed_notes``
recomputes it.

The model is the all-MiniLM-L6-v2 int8 ONNX export of ``memories.search.embedding``, read from
``APPENDA_DATA_DIR/models/minilm`` (``python manage.py prepare_search_model`` writes it; the
variable ``APPENDA_MODEL_DIR`` points elsewhere). Nothing is downloaded at run time; while the
model is missing every function here returns None and search ranks lexically.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np
from django.conf import settings

from memories.search.embedding import (
    DIMS,
    Embedder,
    get_embedder,
    vector_from_bytes,
    vector_to_bytes,
)
from memories.search.fulltext import (
    NoteTerms,
    index_text,
    read_stored_terms,
    stored_terms,
    text_terms,
)

logger = logging.getLogger(__name__)


def model_dir() -> Path:
    configured = os.environ.get("APPENDA_MODEL_DIR")
    return Path(configured) if configured else Path(settings.APPENDA_DATA_DIR) / "models" / "minilm"


def embedder() -> Embedder | None:
    """The process's embedding model, or None while it is not prepared (or cannot load)."""
    try:
        return get_embedder(model_dir())
    except Exception:  # search and saves must work without the model, whatever went wrong
        logger.exception("The embedding model could not be loaded; search ranks by words only.")
        return None


def warm_up() -> None:
    """Load the model and run it once (a server worker's start), so the first search it serves
    does not wait for either; nothing while the model is not prepared."""
    if embedder() is not None:
        query_vector("warm up")


def embedding_for(key: str, value: str) -> bytes | None:
    """The vector to store for a note with this text (float16 bytes), or None without a model."""
    model = embedder()
    if model is None:
        return None
    try:
        return vector_to_bytes(model.embed_note(key, value))
    except Exception:
        logger.exception("Embedding a note failed; it is saved without a vector and found by its words.")
        return None


def note_index_fields(key: str, value: str) -> dict:
    """The search fields of a note with this text: set them wherever key or value is written."""
    return {"search_text": index_text(key, value), "search_terms": stored_terms(key, value),
            "embedding": embedding_for(key, value)}


def note_index_set(note) -> None:
    """Recompute ``note``'s search fields from its current key and value (the caller saves it)."""
    for name, field_value in note_index_fields(note.key, note.value).items():
        setattr(note, name, field_value)


def note_index_refresh(note) -> None:
    """``note_index_set`` when the note's text is not the one its search fields were computed
    from: for write paths that put back text from elsewhere (an undo, an import)."""
    if (note.embedding is None or note.search_text != index_text(note.key, note.value)
            or note.search_terms != stored_terms(note.key, note.value)):
        note_index_set(note)


def current_index(key: str, value: str, search_text: str | None, search_terms: str | None, embedding
                  ) -> tuple[NoteTerms, bytes | None]:
    """A row's terms, and its stored vector's bytes if that vector is of the note's current
    text (else None). When the row's terms are tagged with this key and value
    (``fulltext.fields_tag``), every search field was written from them at once
    (``note_index_fields``); otherwise (a manual UPDATE, a row from before the tag) the terms
    are computed from the text and the vector is used only if ``search_text`` is that text."""
    terms = read_stored_terms(key, value, search_terms)
    if terms is not None:
        return terms, embedding
    text = index_text(key, value)
    return text_terms(text), (embedding if search_text == text else None)


def vectors_of(blobs: Sequence[bytes | None]) -> list[np.ndarray | None]:
    """Stored vectors as float32 arrays, None where missing or not a vector; decoded in one go
    (``vectors_into``), as rows of one matrix."""
    matrix = np.empty((len(blobs), DIMS), dtype=np.float32)
    has = vectors_into(blobs, matrix)
    return [row if got else None for row, got in zip(matrix, has.tolist())]


def vectors_into(blobs: Sequence[bytes | None], out: np.ndarray) -> np.ndarray:
    """Stored vectors decoded into the rows of ``out`` (float32, one row per blob), zeros where
    missing or not a vector; answers which rows got one. The float16 ones go straight into
    ``out``: no float32 copy is made first, nor an array per note."""
    has = np.zeros(len(blobs), dtype=bool)
    half = [i for i, blob in enumerate(blobs) if blob is not None and len(blob) == DIMS * 2]
    if half:
        decoded = np.frombuffer(b"".join(blobs[i] for i in half), dtype="<f2").reshape(len(half), DIMS)
        if len(half) == len(blobs):
            out[:] = decoded
        else:
            out[half] = decoded
        has[half] = True
    for i, blob in enumerate(blobs):
        if blob is not None and not has[i]:
            try:
                out[i] = vector_from_bytes(bytes(blob))
                has[i] = True
            except ValueError:
                pass
    if not has.all():
        out[~has] = 0.0
    return has


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    """Threads that run the model while the caller reads the database or runs the detectors:
    onnxruntime releases the GIL, so a query's or a note's embedding overlaps that work."""
    global _POOL
    if _POOL is None:
        with _POOL_LOCK:
            if _POOL is None:
                _POOL = ThreadPoolExecutor(max_workers=int(os.environ.get("APPENDA_EMBEDDING_THREADS", "2")),
                                           thread_name_prefix="appenda-embedding")
    return _POOL


def _done(value) -> Future:
    future = Future()
    future.set_result(value)
    return future


def note_index_fields_soon(key: str, value: str) -> Future:
    """``note_index_fields`` computed in the background; ``.result()`` where the note is written."""
    if embedder() is None:
        return _done(note_index_fields(key, value))  # no model: nothing to wait for
    return _pool().submit(note_index_fields, key, value)


def query_vector_soon(query: str) -> Future:
    """``query_vector`` computed in the background; ``.result()`` when the candidates are read."""
    if embedder() is None:
        return _done(None)
    return _pool().submit(query_vector, query)


def query_vector(query: str) -> np.ndarray | None:
    model = embedder()
    if model is None:
        return None
    try:
        return model.embed_one(query)
    except Exception:
        logger.exception("Embedding a query failed; this search ranks by words only.")
        return None
