"""Search over memory notes.

* ``embedding`` -- all-MiniLM-L6-v2 sentence embeddings (int8 ONNX on
  onnxruntime, no torch at query time), the one-off ``export_model`` step, the
  lazy ``get_embedder`` (None until exported, so search falls back to lexical)
  and the vector <-> bytes helpers for storing one embedding per note.
* ``fusion`` -- the pure function that merges lexical (BM25 / full-text) and
  semantic (cosine) scores into one ranking, with weights tuned on
  ``benchmarks/bench_search_ranking.py``.

Nothing in this package imports Django at module level.
"""
