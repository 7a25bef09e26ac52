"""The ANN graph of a big workspace (issue 20, ``memories.search.ann``): the same visible notes as
exact ranking, never a note outside the turn's scopes, and kept beside the snapshot so a fresh
worker reads it instead of building it."""

from __future__ import annotations

import random
import time

import numpy as np
import psycopg
import pytest

from memories.models import Note
from memories.scopes import user_scope
from memories.search import ann, bm25, fusion, hybrid, index, marker, ranked, snapshot
from tests.factories import ALL_DATABASES
from tests.memories.test_search import search_model  # noqa: F401  (the fixture)
from tests.memories.test_search_index import (  # noqa: F401
    QUERIES,
    WORDS,
    _hybrid,
    _indexed,
    _raw_note,
    _turn_source,
    people,
)
from workspaces.capabilities import actor_for

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)


@pytest.fixture
def small_threshold(monkeypatch):
    """The graph from 100 rows on, used by any turn that reads 50 of them."""
    monkeypatch.setattr(ann, "MIN_ROWS", 100)
    monkeypatch.setattr(ann, "MIN_VISIBLE", 50)
    monkeypatch.setattr(ann, "MIN_VISIBLE_SHARE", 0.0)
    index.INDEXES.clear()
    yield
    ann.BUILDER.wait()
    index.INDEXES.clear()


@pytest.fixture
def graph_searches(monkeypatch):
    calls = []
    real = ranked._semantic_ann
    monkeypatch.setattr(ranked, "_semantic_ann", lambda *args: calls.append(args[2]) or real(*args))
    return calls


def _fill(workspace, owner, colleague, rng: random.Random, count: int) -> None:
    """Notes of the workspace, the owner's, a colleague's own (never the owner's turn's), held and
    trashed ones; a few without a vector."""
    from django.utils import timezone

    notes = []
    for i in range(count):
        key, value = f"{rng.choice(WORDS)}.{rng.choice(WORDS)}{i}", " ".join(rng.choice(WORDS) for _ in range(6))
        kind = i % 8
        if kind == 0:
            notes.append(_raw_note(workspace, user_scope(owner.pk), key, value, layer="mine", owner=owner.pk))
        elif kind == 1:
            notes.append(_raw_note(workspace, user_scope(colleague.pk), key, value + " secretword", layer="mine",
                                   owner=colleague.pk))
        elif kind == 2:
            notes.append(_raw_note(workspace, "workspace", key, value + " heldword", state="held",
                                   held_until=timezone.now() + timezone.timedelta(hours=1)))
        elif kind == 3:
            notes.append(_raw_note(workspace, "workspace", key, value + " trashword", trashed_at=timezone.now()))
        else:
            notes.append(_raw_note(workspace, "workspace", key, value, vector=i % 13 != 4))
    Note.objects.using(workspace.db_alias).bulk_create(notes)


def _ready(source, workspace) -> index.WorkspaceIndex:
    _indexed(source, "weekly report", 5)  # the first search starts the build, and is exact
    ann.BUILDER.wait()
    held = index.INDEXES.get(workspace.db_alias, workspace.id)
    assert held.graph is not None and held.graph.rows == held.n
    return held


def test_the_graph_returns_only_rows_of_its_bitmap():
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((600, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    graph = ann.Graph.build(vectors, 600)
    for share in (0.9, 0.3, 0.02):
        allowed = rng.random(600) < share
        for q in vectors[:20]:
            found = graph.search(q, ann.bitmap(allowed), 30)
            assert len(found) and allowed[found].all()
            # The nearest allowed row is found (600 rows: the graph search is exhaustive enough).
            assert found[0] == np.flatnonzero(allowed)[np.argmax(vectors[allowed] @ q)]
    assert len(graph.search(vectors[0], ann.bitmap(np.zeros(600, dtype=bool)), 10)) == 0


@pytest.mark.parametrize("words_asked_above", [ann.WORDS_ASKED_ABOVE, 0])
def test_ann_and_exact_searches_return_the_same_visible_notes(search_model, owner, people, small_threshold,  # noqa: F811
                                                              graph_searches, monkeypatch, words_asked_above):
    """With ``words_asked_above`` 0 the notes with a query word are always found by asking the
    graph again for the nearest of them (``ranked._semantic_ann``), as at 1,000,000 notes."""
    monkeypatch.setattr(ann, "WORDS_ASKED_ABOVE", words_asked_above)
    if words_asked_above == 0:  # few proposed, and words that weigh: many notes a word may lift
        monkeypatch.setattr(ann, "PROPOSED", 1)
        for module in (hybrid, ranked):
            monkeypatch.setattr(module, "DEFAULT_WEIGHTS", fusion.FusionWeights(semantic=0.5, lexical=0.5))
    asked = []
    real_bitmap_of = ranked._bitmap_of
    monkeypatch.setattr(ranked, "_bitmap_of", lambda *args: asked.append(len(args[1])) or real_bitmap_of(*args))
    workspace, colleague = people
    _fill(workspace, owner, colleague, random.Random(7), count=400)
    actor = actor_for(owner, workspace)
    source = _turn_source(actor)
    readable = {hybrid.note_id_text(row[0]) for row in source.read()}
    expected = {(query, limit): _hybrid(source, query, limit) for query in QUERIES for limit in (1, 5, 20)}
    _ready(source, workspace)
    shared = total = 0
    for (query, limit), exact in expected.items():
        found = _indexed(source, query, limit)
        assert {i for i, _ in found} <= readable, query  # never a note outside the turn's scopes
        assert [i for i, _ in found[:1]] == [i for i, _ in exact[:1]], query  # the best note
        # The same notes, but for one near the end of a long list now and then: the scores'
        # normalisation takes the least cosine from the graph's search for ``-q``
        # (ann.EF_FARTHEST: an estimate), which may swap two notes of nearly equal scores.
        shared += len({i for i, _ in found} & {i for i, _ in exact})
        total += len(exact)
        assert [s for _, s in found][:5] == pytest.approx([s for _, s in exact][:5], abs=0.01)
    assert shared / total >= 0.98, f"{shared} of {total} notes the same"
    assert len(graph_searches) == len(expected)
    # Notes of a colleague's own scope, held or trashed notes are never proposed by the graph.
    for words in ("secretword", "heldword", "trashword"):
        assert {i for i, _ in _indexed(source, words, 100)} <= readable
    assert (len(asked) >= len(expected) // 2) if words_asked_above == 0 else not asked


def test_the_graphs_search_reads_the_same_word_scores_as_the_exact_one(search_model, owner, people):  # noqa: F811
    """The graph's search keeps BM25 sums in one array instead of listing the rows with a word: the
    same sums, best score, count and rows above a threshold, over the turn's rows only."""
    workspace, colleague = people
    _fill(workspace, owner, colleague, random.Random(9), count=300)
    source = _turn_source(actor_for(owner, workspace))
    _indexed(source, "weekly report", 5)
    held = index.INDEXES.get(workspace.db_alias, workspace.id)
    visible = held.mask(source._scopes, None, None)
    extras = hybrid.extra_signals([hybrid.ExtraCandidate("rule-1", "reply.tone", "keep replies short, no emoji")])
    for query in [*QUERIES, "weekly report revenue churn customer", "report report emoji"]:
        lexical = bm25.QueryScores(held, visible, extras, query)
        rows, scores = lexical.union()
        assert visible.mask[rows].all(), query  # a colleague's, held or trashed note scores nothing
        with lexical.dense() as words:
            assert words.count() == len(rows), query
            assert words.best() == (float(scores.max()) if len(rows) else 0.0), query
            assert words.at(rows).tolist() == scores.tolist(), query  # the same floats, not close ones
            others = np.setdiff1d(np.arange(held.n), rows)
            assert not words.at(others).any(), query
            for scale in (0.05 / scores.max() if len(rows) else 1.0, 1.0):
                for threshold in (-np.inf, 0.0, *(np.quantile(scores, [0.2, 0.5, 0.9]) * scale if len(rows) else ())):
                    expected = rows[scores * scale >= threshold]
                    assert words.rows_scaled_at_least(scale, threshold).tolist() == expected.tolist(), query
        _, summed, hit = held.scratch()
        assert not summed.any() and not hit.any(), query  # left clean for the next search


def test_rows_appended_after_the_build_are_searched_and_added(search_model, owner, people, small_threshold,  # noqa: F811
                                                             graph_searches):
    workspace, colleague = people
    _fill(workspace, owner, colleague, random.Random(8), count=300)
    source = _turn_source(actor_for(owner, workspace))
    held = _ready(source, workspace)
    built = held.graph.rows
    Note.objects.using(workspace.db_alias).bulk_create([
        _raw_note(workspace, "workspace", f"late.note{i}", f"zebra crossing painted stripes number {i}")
        for i in range(3)])
    found = _indexed(source, "striped road crossing for pedestrians", 3)
    late = {hybrid.note_id_text(n.id) for n in Note.objects.using(workspace.db_alias).filter(key__startswith="late.")}
    assert {i for i, _ in found} == late  # found while not yet in the graph, exactly scored
    assert held.graph.rows == built + 3  # and added to it by that search
    assert graph_searches


@pytest.mark.django_db(transaction=True, databases=ALL_DATABASES)
def test_a_fresh_worker_reads_the_kept_graph_instead_of_building_it(search_model, owner, people,  # noqa: F811
                                                                    small_threshold, monkeypatch):
    workspace, colleague = people
    monkeypatch.setattr(snapshot, "MIN_ROWS", 10)
    _fill(workspace, owner, colleague, random.Random(9), count=300)
    source = _turn_source(actor_for(owner, workspace))
    built = []
    build = ann.Graph.build
    monkeypatch.setattr(ann.Graph, "build", classmethod(lambda cls, *args: built.append(1) or build(*args)))
    first = _ready(source, workspace)
    assert built == [1]
    assert snapshot.read_graph(workspace.db_alias, workspace.id, first.kept[0]) is not None
    expected = _indexed(source, "weekly report churn", 10)
    index.INDEXES.clear()  # a fresh worker
    fresh = _ready(source, workspace)
    assert built == [1] and fresh.graph.rows == first.graph.rows  # read, not built again
    assert _indexed(source, "weekly report churn", 10) == expected
    # A new snapshot (the notes read again whole) clears the graph kept with the old one.
    snapshot.write(workspace.db_alias, workspace.id, first.kept[0] + 1, fresh._pack())
    assert snapshot.read_graph(workspace.db_alias, workspace.id, first.kept[0] + 1) is None


@pytest.mark.django_db(transaction=True, databases=ALL_DATABASES)
def test_a_worker_waits_for_the_graph_another_worker_is_building(search_model, owner, people,  # noqa: F811
                                                                small_threshold, monkeypatch):
    from django.db import connections

    workspace, colleague = people
    if connections[workspace.db_alias].vendor != "postgresql":
        pytest.skip("the build lock is PostgreSQL's advisory lock")
    monkeypatch.setattr(snapshot, "MIN_ROWS", 10)
    monkeypatch.setattr(ann, "WAIT_POLL_SECONDS", 0.05)
    _fill(workspace, owner, colleague, random.Random(10), count=300)
    source = _turn_source(actor_for(owner, workspace))
    first = _ready(source, workspace)
    payload = first.graph.to_bytes()
    with connections[workspace.db_alias].cursor() as cursor:
        cursor.execute("UPDATE memories_search_snapshot SET graph = NULL")
    built = []
    build = ann.Graph.build
    monkeypatch.setattr(ann.Graph, "build", classmethod(lambda cls, *args: built.append(1) or build(*args)))
    other_worker = psycopg.connect(_conninfo(connections[workspace.db_alias]), autocommit=True)
    try:
        lock_key = snapshot.build_lock_key(first.workspace_id)
        assert other_worker.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", [lock_key]).fetchone()[0]
        index.INDEXES.clear()  # a fresh worker: no graph kept, another worker building it
        _indexed(source, "weekly report", 5)
        time.sleep(0.3)
        assert index.INDEXES.get(workspace.db_alias, workspace.id).graph is None  # waiting, not building
        snapshot.write_graph(workspace.db_alias, workspace.id, first.kept[0], payload)  # the other one keeps it
        other_worker.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [lock_key])
    finally:
        other_worker.close()
    ann.BUILDER.wait()
    fresh = index.INDEXES.get(workspace.db_alias, workspace.id)
    assert fresh.graph is not None and fresh.graph.rows == first.graph.rows
    assert built == []  # read what the other worker kept, never built here


def _conninfo(connection) -> str:
    params = connection.get_connection_params()
    return " ".join(f"{key}={params[key]}" for key in ("host", "port", "user", "dbname", "password") if params.get(key))


@pytest.mark.django_db(transaction=True, databases=ALL_DATABASES)
def test_a_snapshot_and_graph_over_one_part_are_kept_in_parts_and_read_back(search_model, owner, people,  # noqa: F811
                                                                           small_threshold, monkeypatch):
    # PostgreSQL keeps at most 1 GB in one field; parts of a few kilobytes stand in for that here.
    workspace, colleague = people
    monkeypatch.setattr(snapshot, "MIN_ROWS", 10)
    monkeypatch.setattr(snapshot, "PART_LIMIT", 4096)
    _fill(workspace, owner, colleague, random.Random(11), count=300)
    source = _turn_source(actor_for(owner, workspace))
    index.INDEXES.clear()
    first = _ready(source, workspace)
    expected = _indexed(source, "weekly report churn", 10)
    with workspace_cursor(workspace) as cursor:
        cursor.execute("SELECT count(*), count(graph) FROM memories_search_snapshot WHERE workspace_id = %s",
                       [marker.workspace_param(workspace.db_alias, workspace.id)])
        rows, graph_rows = cursor.fetchone()
    version, payload = snapshot.read(workspace.db_alias, workspace.id)
    assert rows == -(-len(payload) // 4096) >= 3  # the snapshot in parts
    graph = first.graph.to_bytes()
    assert graph_rows == -(-len(graph) // 4096) >= 2  # and the graph beside it
    assert snapshot.read_graph(workspace.db_alias, workspace.id, version) == graph
    built = []
    build = ann.Graph.build
    monkeypatch.setattr(ann.Graph, "build", classmethod(lambda cls, *args: built.append(1) or build(*args)))
    index.INDEXES.clear()  # a fresh worker reads both in parts
    fresh = _ready(source, workspace)
    assert built == [] and fresh.n == first.n and fresh.graph.rows == first.graph.rows
    assert _indexed(source, "weekly report churn", 10) == expected
    # A new snapshot replaces every part; an older one does not replace a newer one.
    snapshot.write(workspace.db_alias, workspace.id, version + 1, payload[:5000])
    assert snapshot.read(workspace.db_alias, workspace.id) == (version + 1, payload[:5000])
    assert snapshot.read_graph(workspace.db_alias, workspace.id, version + 1) is None
    snapshot.write(workspace.db_alias, workspace.id, version, payload)
    assert snapshot.read(workspace.db_alias, workspace.id)[0] == version + 1
    # Deleting a note drops every part (the change marker's trigger).
    Note.objects.using(workspace.db_alias).filter(workspace_id=workspace.id).first().delete()
    assert snapshot.read(workspace.db_alias, workspace.id) is None


def workspace_cursor(workspace):
    from django.db import connections

    return connections[workspace.db_alias].cursor()
