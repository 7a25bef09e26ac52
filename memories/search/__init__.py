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

``embedding``, ``model_export``, ``fulltext``, ``lexical`` and ``fusion`` import no Django.
"""
