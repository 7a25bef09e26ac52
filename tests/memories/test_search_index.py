"""The workspace search index (issue 20): the same ranking as ``hybrid.rank`` over a turn's notes,
never a note outside the turn's scopes, and kept current by the change marker on every write."""

from __future__ import annotations

import random
import uuid

import pytest
from django.db import connections
from django.utils import timezone

from memories import recall, search_cutoff, services, trash, turns
from memories.models import Note
from memories.scopes import turn_read_scopes, user_scope
from memories.search import hybrid, index, marker, ranked, snapshot, vectors
from memories.search.candidates import TurnNotes
from memories.search.fulltext import Vocabulary, WordIndex, index_text, stored_terms
from tests.factories import ALL_DATABASES, add_member, make_workspace
from tests.memories.test_search import search_model  # noqa: F401  (the fixture)
from workspaces.capabilities import actor_for

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

WORDS = ("report chart table order customer invoice amount region revenue churn weekly monthly format tone summary "
         "email export column filter dashboard forecast budget emoji language short bullet deadline").split()


def _raw_note(workspace, scope: str, key: str, value: str, *, layer="workspace", owner=None, vector=True, **fields):
    model = vectors.embedder()
    return Note(workspace_id=workspace.id, key=key, value=value, layer=layer, scope=scope, owner_user_id=owner,
                origin="import", search_text=index_text(key, value), search_terms=stored_terms(key, value),
                embedding=vectors.embedding_for(key, value) if vector and model else None, **fields)


def _fill(workspace, owner, colleague, rng: random.Random, count: int = 60) -> None:
    """Notes of every kind of scope and state, some without a vector, some sharing keys."""
    notes = []
    for i in range(count):
        key = f"{rng.choice(WORDS)}.{rng.choice(WORDS)}{i % 7}"
        value = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 10)))
        kind = i % 6
        if kind == 0:
            notes.append(_raw_note(workspace, user_scope(owner.pk), key, value, layer="mine", owner=owner.pk))
        elif kind == 1:  # a colleague's own note: never the owner's turn's
            notes.append(_raw_note(workspace, user_scope(colleague.pk), key, value + " secretword", layer="mine",
                                   owner=colleague.pk))
        elif kind == 2:  # held, trashed: never a candidate
            notes.append(_raw_note(workspace, "workspace", key, value + " heldword", state="held",
                                   held_until=timezone.now() + timezone.timedelta(hours=1)))
            notes.append(_raw_note(workspace, "workspace", key + "t", value + " trashword", trashed_at=timezone.now()))
        elif kind == 3:
            notes.append(_raw_note(workspace, "workspace", key, value, vector=i % 4 != 3, pinned=True))
        else:
            notes.append(_raw_note(workspace, "workspace", key, value))
    Note.objects.using(workspace.db_alias).bulk_create(notes)


def _hybrid(source: TurnNotes, query: str, limit: int, extras=()) -> list[tuple[str, float]]:
    rows = source.read()
    signals = hybrid.signals_of([(hybrid.note_id_text(r[0]), *r[2:]) for r in rows])
    candidates = hybrid.CandidateSet(signals + hybrid.extra_signals(extras))
    return hybrid.rank(candidates, query, limit, vectors.query_vector_soon(query)).scores


def _indexed(source: TurnNotes, query: str, limit: int, extras=()) -> list[tuple[str, float]]:
    return source.search(query, limit, extras=extras, query_vec=vectors.query_vector_soon(query)).scores


def _same(left, right):
    assert [i for i, _ in left] == [i for i, _ in right]
    for (_, a), (_, b) in zip(left, right):
        assert a == pytest.approx(b, abs=1e-6)


QUERIES = ["weekly report", "emoji tone", "emjoi", "dashbo", "customer churn amount", "secretword", "heldword",
           "trashword", "what format do the numbers use", "nothing at all matches zzzz"]


@pytest.fixture
def people(owner):
    colleague_workspace = make_workspace(owner, name="Index", region="eu")
    return colleague_workspace, add_member(colleague_workspace, "colleague@example.com", "editor")


def _turn_source(actor, **fields) -> TurnNotes:
    turn = turns.turn_start(actor=actor)
    return TurnNotes(actor.workspace, turn_read_scopes(turn, None), **fields)


def test_the_index_ranks_as_hybrid_rank_and_only_the_turns_notes(search_model, owner, people):  # noqa: F811
    workspace, colleague = people
    _fill(workspace, owner, colleague, random.Random(5))
    actor = actor_for(owner, workspace)
    source = _turn_source(actor)
    readable = {hybrid.note_id_text(row[0]) for row in source.read()}
    extras = [hybrid.ExtraCandidate("rule-1", "reply.tone", "keep replies short, no emoji")]
    for query in QUERIES:
        for limit in (1, 5, 100):
            expected = _hybrid(source, query, limit, extras)
            found = _indexed(source, query, limit, extras)
            _same(found, expected)
            assert {i for i, _ in found} - {"rule-1"} <= readable
    # Words only in notes the turn may not read rank none of those notes (nor the others by them).
    for words in ("secretword", "heldword", "trashword"):
        assert all(i in readable for i, _ in _indexed(source, words, 100))
        assert words not in " ".join(n["value"] for n in recall.memory_search(
            actor=actor, turn_id=turns.turn_start(actor=actor).id, query=words, limit=20)["notes"])
    # Filtered by layer: the same as the hand-written SQL's filter.
    mine = _turn_source(actor, layer="mine")
    for query in QUERIES[:4]:
        _same(_indexed(mine, query, 20), _hybrid(mine, query, 20))


def test_a_turn_that_reads_every_note_ranks_as_hybrid_rank(search_model, owner, people):  # noqa: F811
    """Every row visible and with a vector: the index ranks without gathering rows (its fast path)."""
    workspace, _ = people
    rng = random.Random(17)
    notes = [_raw_note(workspace, "workspace", f"{rng.choice(WORDS)}.{rng.choice(WORDS)}{i % 5}",
                       " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 10)))) for i in range(50)]
    Note.objects.using(workspace.db_alias).bulk_create(notes)
    source = _turn_source(actor_for(owner, workspace))
    for query in QUERIES:
        for limit in (1, 5, 100):
            _same(_indexed(source, query, limit), _hybrid(source, query, limit))
    held = index.INDEXES.get(workspace.db_alias, workspace.id)
    assert held.mask(source._scopes, None, None).everything
    # The scratch buffers are left clean: the same search twice gives the same scores.
    assert _indexed(source, "weekly report churn", 10) == _indexed(source, "weekly report churn", 10)


def test_without_the_model_the_index_ranks_by_words_as_hybrid(owner, people, monkeypatch):
    workspace, colleague = people
    monkeypatch.setattr(vectors, "get_embedder", lambda *args, **kwargs: None)
    _fill(workspace, owner, colleague, random.Random(9), count=40)
    source = _turn_source(actor_for(owner, workspace))
    for query in QUERIES:
        _same(_indexed(source, query, 10), _hybrid(source, query, 10))
        assert source.search(query, 10).ranking == hybrid.LEXICAL


def test_the_cut_off_counts_as_search_cutoff(search_model, owner, people):  # noqa: F811
    workspace, colleague = people
    _fill(workspace, owner, colleague, random.Random(13))
    source = _turn_source(actor_for(owner, workspace))
    for query in QUERIES:
        rows = source.read()
        candidates = hybrid.CandidateSet(hybrid.signals_of([(hybrid.note_id_text(r[0]), *r[2:]) for r in rows]))
        expected = search_cutoff.cut(candidates, query, 10, query_vec=vectors.query_vector_soon(query))
        found = recall._indexed_cut(source, query, 10, extras=(), query_vec=vectors.query_vector_soon(query))
        assert [f.signals.id for f in found.found] == [f.signals.id for f in expected.found]
        assert found.below_cutoff == expected.below_cutoff
        assert [f.by_words for f in found.found] == [f.by_words for f in expected.found]


def test_the_change_marker_moves_with_every_write_and_the_index_follows(search_model, owner, people):  # noqa: F811
    workspace, _ = people
    actor = actor_for(owner, workspace)
    alias = workspace.db_alias

    def version():
        return marker.version(alias, workspace.id)[0]

    def found(query):
        return [n["key"] for n in recall.memory_search(actor=actor, turn_id=turns.turn_start(actor=actor).id,
                                                       query=query, limit=5)["notes"]]

    seen = version()
    note = services.memory_save(actor=actor, key="deploy.day", value="we never deploy on Fridays",
                                layer="mine").note
    assert version() > seen
    assert found("deploy Fridays") == ["deploy.day"]
    steps = [
        lambda: services.memory_update(actor=actor, note_id=note.id, value="we deploy on Mondays only"),
        lambda: services.memory_update(actor=actor, note_id=note.id, pinned=True),
        lambda: trash.memory_forget(actor=actor, layer="mine", confirm=True),
        lambda: trash.trash_restore(actor=actor, note_id=note.id),
        # Behind the services' back: a manual UPDATE moves the marker too.
        lambda: Note.objects.using(alias).filter(id=note.id).update(value="raw value", search_terms=""),
    ]
    for step in steps:
        seen = version()
        step()
        assert version() > seen, step
    assert found("raw value") == ["deploy.day"]
    assert found("Mondays") == []
    seen = version()
    services.memory_delete(actor=actor, note_id=note.id)
    assert version() > seen
    assert found("raw value") == []


def test_an_index_of_an_older_version_reads_only_what_changed(search_model, owner, people):  # noqa: F811
    workspace, colleague = people
    _fill(workspace, owner, colleague, random.Random(3), count=30)
    source = _turn_source(actor_for(owner, workspace))
    source.search("weekly report", 5)
    held = index.INDEXES.get(workspace.db_alias, workspace.id)
    rows_before = held.n
    note = Note.objects.using(workspace.db_alias).filter(workspace_id=workspace.id, scope="workspace",
                                                         state="active", trashed_at__isnull=True).first()
    Note.objects.using(workspace.db_alias).filter(id=note.id).update(value="unique zebra words")
    # Its stored terms and vector are of the old text: it ranks by its new words alone.
    assert str(note.id) in [i for i, _ in _indexed(source, "zebra", 100)]
    _same(_indexed(source, "zebra", 100), _hybrid(source, "zebra", 100))
    assert held.n == rows_before + 1 and held.dead == 1  # one row appended, its old one masked out
    _same(_indexed(source, "weekly report", 10), _hybrid(source, "weekly report", 10))


def test_the_triggers_are_installed_on_every_region_database(db):
    for alias in ("region_eu", "region_us"):
        connection = connections[alias]
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'memories_note_search_mark_%%'")
            else:
                cursor.execute("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' "
                               "AND name LIKE 'memories_note_search_mark_%%'")
            assert cursor.fetchone()[0] == 3  # insert, update, delete


def test_indexes_are_bounded_in_bytes(search_model, owner, people):  # noqa: F811
    workspace, colleague = people
    _fill(workspace, owner, colleague, random.Random(1), count=20)
    other = make_workspace(owner, name="Other", region="eu")
    _fill(other, owner, colleague, random.Random(2), count=20)
    registry = index.Registry(budget=1)
    first = registry.get(workspace.db_alias, workspace.id)
    with first.lock:
        first.refresh()
    registry.fit(first)
    second = registry.get(other.db_alias, other.id)
    with second.lock:
        second.refresh()
    registry.fit(second)
    assert list(registry._indexes.values()) == [second]  # the other one was forgotten, the one in use kept
    assert registry.nbytes() == second.nbytes() > 0
    assert ranked.search(workspace.db_alias, uuid.uuid4(), ["workspace"], "x", 5).ranking.found == []


def test_the_index_in_use_is_kept_when_others_were_asked_for_since(search_model, owner, people):  # noqa: F811
    """``fit`` forgets oldest first without copying every key; the index it was called for stays
    even when another thread asked for another index after it (so it is no longer the newest)."""
    workspace, colleague = people
    _fill(workspace, owner, colleague, random.Random(3), count=10)
    other = make_workspace(owner, name="Other", region="eu")
    _fill(other, owner, colleague, random.Random(4), count=10)
    registry = index.Registry(budget=1)
    first = registry.get(workspace.db_alias, workspace.id)
    with first.lock:
        first.refresh()
    second = registry.get(other.db_alias, other.id)  # asked for, not yet measured
    registry.fit(first)
    assert list(registry._indexes.values()) == [first]
    assert registry.get(other.db_alias, other.id) is not second  # forgotten: a new one is made


def test_what_searches_cache_counts_against_the_budget(search_model, owner, people):  # noqa: F811
    """Masks and per-term postings that searches keep are part of an index's bytes, so that
    APPENDA_SEARCH_CACHE_BYTES bounds them too (bench_soak found them uncounted)."""
    workspace, colleague = people
    _fill(workspace, owner, colleague, random.Random(5), count=40)
    for scopes in (["workspace"], ["workspace", f"user:{owner.pk}"], [f"user:{owner.pk}"]):
        ranked.search(workspace.db_alias, workspace.id, scopes, "tone reply format deploy", 5)
    found = index.INDEXES.get(workspace.db_alias, workspace.id)
    postings = sum(rows.nbytes + counts.nbytes for rows, counts in found._posting_arrays.values())
    assert postings > 0 and found.posting_arrays_nbytes == postings
    masks = sum(visible.nbytes for visible in found._masks.values())
    total = found.nbytes()
    found._masks.clear()
    assert masks > 0 and found.nbytes() == total - masks


def test_vectors_decoded_into_the_index_matrix_are_those_a_note_is_read_with():
    """The index decodes its rows' vectors into its own matrix (and ``vectors_of`` through it); they
    are the ones each note's bytes decode to alone, whatever mix of float16, float32, missing and
    broken bytes a batch holds."""
    import numpy as np

    from memories.search.embedding import DIMS, vector_from_bytes, vector_to_bytes

    def decoded_alone(blob):
        try:
            return vector_from_bytes(blob) if blob is not None else None
        except ValueError:
            return None

    rng = np.random.default_rng(5)
    made = rng.standard_normal((6, DIMS)).astype(np.float32)
    for blobs in ([vector_to_bytes(v) for v in made],
                  [vector_to_bytes(made[0]), None, vector_to_bytes(made[2], "float32"), b"broken",
                   vector_to_bytes(made[4]), None]):
        out = np.full((len(blobs), DIMS), 7.0, dtype=np.float32)
        has = vectors.vectors_into(blobs, out)
        expected = [decoded_alone(blob) for blob in blobs]
        assert has.tolist() == [v is not None for v in expected]
        assert [v is not None for v in vectors.vectors_of(blobs)] == has.tolist()
        for row, want, of in zip(out, expected, vectors.vectors_of(blobs)):
            assert of is None or np.array_equal(of, want)
            assert np.array_equal(row, want if want is not None else np.zeros(DIMS, dtype=np.float32))


def test_the_vocabulary_finds_the_words_the_word_index_finds():
    rng = random.Random(4)
    letters = "abcdeéz1"
    words = {"".join(rng.choice(letters) for _ in range(rng.randint(2, 8))) for _ in range(3000)}
    full, vocabulary = WordIndex(words), Vocabulary()
    for word in words:
        vocabulary.add(word)
    queries = [*rng.sample(sorted(words), 300), *("".join(rng.choice(letters) for _ in range(rng.randint(3, 8)))
                                                    for _ in range(300))]
    for query in queries:
        assert vocabulary.near(query) == full.near(query), query
        assert vocabulary.near(query, keep=lambda w: "a" in w) == full.near(query, keep=lambda w: "a" in w)


def test_a_fresh_worker_loads_the_kept_index_and_the_changes_since(search_model, owner, people, monkeypatch):  # noqa: F811
    workspace, colleague = people
    monkeypatch.setattr(snapshot, "MIN_ROWS", 10)
    monkeypatch.setattr(snapshot, "PART_BYTES", 1000)  # read in many parts, the header across several
    _fill(workspace, owner, colleague, random.Random(21), count=40)
    actor = actor_for(owner, workspace)
    source = _turn_source(actor)
    expected = {query: _hybrid(source, query, 10) for query in QUERIES}
    _indexed(source, "weekly report", 5)  # reads the notes, keeps the index
    assert snapshot.read(workspace.db_alias, workspace.id) is not None
    note = Note.objects.using(workspace.db_alias).filter(workspace_id=workspace.id, scope="workspace",
                                                         state="active", trashed_at__isnull=True).first()
    Note.objects.using(workspace.db_alias).filter(id=note.id).update(pinned=True)  # a change after it was kept
    index.INDEXES.clear()  # a fresh worker
    widened = []
    widen = snapshot.Widening._widen
    monkeypatch.setattr(snapshot.Widening, "_widen", lambda self, *args: (widened.append(args[1:]), widen(self, *args)))
    for query in QUERIES:
        _same(_indexed(source, query, 10), expected[query])
    assert len(widened) > 1  # its vectors widened part by part, as the parts arrived
    fresh = index.INDEXES.get(workspace.db_alias, workspace.id)
    assert fresh.base_terms and fresh.dead == 1  # from the kept index, the changed note read again
    # Only the terms of the note read again are joined into new arrays; the others are the kept ones.
    _indexed(source, note.value, 10)  # asks for the changed note's terms too
    assert fresh._posting_arrays and set(fresh._posting_arrays) <= set(fresh.postings)
    # A deleted note does not outlive its row in a kept index.
    services.memory_delete(actor=actor, note_id=note.id)
    assert snapshot.read(workspace.db_alias, workspace.id) is None
    index.INDEXES.clear()
    assert str(note.id) not in [i for i, _ in _indexed(source, note.value, 100)]
    _same(_indexed(source, "weekly report", 10), _hybrid(source, "weekly report", 10))


def test_a_workspace_without_a_kept_index_is_read_without_asking_for_its_parts(search_model, owner, people,  # noqa: F811
                                                                               monkeypatch):
    """A worker's first search asks the change marker, whether an index is kept and, when none
    is, the notes, in one query; a small workspace has none, so its parts are never asked for."""
    workspace, colleague = people
    assert index.WorkspaceIndex(workspace.db_alias, workspace.id)._first_read() == (0, 0, False, [])
    _fill(workspace, owner, colleague, random.Random(23), count=30)
    source = _turn_source(actor_for(owner, workspace))
    *first, rows = index.WorkspaceIndex(workspace.db_alias, workspace.id)._first_read()
    assert first == [*marker.version(workspace.db_alias, workspace.id), False]
    active = Note.objects.using(workspace.db_alias).filter(workspace_id=workspace.id, state="active",
                                                          trashed_at=None)
    assert sorted(str(uuid.UUID(row[0])) for row in rows) == sorted(str(pk) for pk in active.values_list("pk", flat=True))
    asked = []
    read = snapshot.read_in_parts
    monkeypatch.setattr(snapshot, "read_in_parts", lambda *args: asked.append(args[1]) or read(*args))
    index.INDEXES.clear()
    _same(_indexed(source, "weekly report", 10), _hybrid(source, "weekly report", 10))
    assert asked == []
    monkeypatch.setattr(snapshot, "MIN_ROWS", 10)
    index.INDEXES.clear()
    _indexed(source, "weekly report", 5)  # the first worker keeps the index now
    assert index.WorkspaceIndex(workspace.db_alias, workspace.id)._first_read()[2:] == (True, None)
    index.INDEXES.clear()  # a fresh worker reads it
    _same(_indexed(source, "weekly report", 10), _hybrid(source, "weekly report", 10))
    assert asked == [workspace.id]


def test_an_index_older_than_the_kept_history_reads_the_workspace_again(search_model, owner, people):  # noqa: F811
    workspace, colleague = people
    _fill(workspace, owner, colleague, random.Random(8), count=12)
    source = _turn_source(actor_for(owner, workspace))
    _indexed(source, "weekly report", 5)
    held = index.INDEXES.get(workspace.db_alias, workspace.id)
    notes = Note.objects.using(workspace.db_alias).filter(workspace_id=workspace.id, scope="workspace",
                                                          state="active", trashed_at__isnull=True)
    first, second = list(notes[:2])
    notes.filter(id=first.id).update(value="alpha zebra")
    notes.filter(id=second.id).update(value="beta zebra")
    assert marker.prune(workspace.db_alias, keep=1) >= 1  # the first change's history is gone
    found = [i for i, _ in _indexed(source, "zebra", 10)]
    assert {str(first.id), str(second.id)} <= set(found)
    assert held.dead == 0  # read again whole: it could not know what the pruned versions changed
