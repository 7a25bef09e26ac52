"""Search over memory notes.

* ``embedding`` -- all-MiniLM-L6-v2 sentence embeddings (int8 ONNX on onnxruntime, no torch),
  the lazy ``get_embedder`` (None until exported, so search falls back to lexical) and the
  vector <-> bytes helpers for storing one embedding per note; ``model_export`` -- the one-off
  ``export_model`` step that writes the model it reads.
* ``vectors`` -- where the model lives, each note's stored search fields, and the thread that
  embeds a query while its candidates are read.
* ``fulltext`` / ``lexical`` -- a note's terms and BM25 over one search's candidates.
* ``fusion`` -- the pure function that merges lexical and semantic (cosine) scores into one
  ranking, with weights tuned on ``benchmarks/bench_search_ranking.py``.
* ``hybrid`` -- ranking the notes a ``NoteSource`` may return; ``candidates`` -- a turn's
  ``NoteSource``, in hand-written SQL.
* ``index`` / ``ranked`` -- a worker's index of a workspace (vectors as one matrix, visibility as a
  mask, an inverted index of terms) and the same ranking as ``hybrid`` computed on it: what a
  turn's memory_search uses (issue 20); ``marker`` -- the workspace's change marker, moved by
  database triggers on every write of a note; ``snapshot`` -- an index kept in the region
  database for the next fresh worker.

``embedding``, ``model_export``, ``fulltext``, ``lexical`` and ``fusion`` import no Django.
"""
