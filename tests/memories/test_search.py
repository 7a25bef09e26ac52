"""memory_search ranks by words and by meaning (R-RECALL-3, issue 9), on both engines.

Plain ``pytest`` runs these on the embedded SQLite default; ``infra.testenv`` runs them on
PostgreSQL. Both must give the order that ``hybrid.rank`` computes from the notes' text and
vectors alone, with no database (``_expected``): the same order for the same notes on either
engine. The lexical golden rankings are constants for both.
"""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.utils import timezone

from memories import recall, search_cutoff, services, turns
from memories.models import Note
from memories.search import hybrid, vectors
from memories.search.embedding import is_exported
from memories.search.fulltext import NoteTerms, index_text, lexical_scores, note_terms
from memories.search.model_export import export_model
from tests.factories import (
    ALL_DATABASES,
    add_member,
    make_bot,
    make_user,
    make_workspace,
    token_client,
    url,
)
from workspaces.capabilities import actor_for

NOTES = [
    ("tone", "keep replies short, no emoji", "mine"),
    ("report.format", "weekly reports as a table with totals at the bottom", "workspace"),
    ("orders.amountCents", "order amounts are stored in cents; divide by 100", "workspace"),
    ("team.timezone", "the team works in Berlin time (CET)", "workspace"),
    ("deploy.day", "we never deploy on Fridays", "workspace"),
    ("customers.churn", "a customer has churned after 90 days without an order", "workspace"),
    ("pref.language", "answer in Spanish when the user writes in Spanish", "mine"),
    ("charts.colors", "use the company palette: navy and orange", "workspace"),
]

# Paraphrases (no word of the note) and the note each must find first.
PARAPHRASES = {
    "what unit are order totals in": "orders.amountCents",
    "when is it safe to ship a release": "deploy.day",
    "which clock does the team use": "team.timezone",
    "what colours should graphs use": "charts.colors",
}
# Without the model; the tie of the second query is broken by key, then id.
GOLDEN_LEXICAL = {
    "order totals": ["report.format", "orders.amountCents", "customers.churn"],
    "spanish reports": ["pref.language", "report.format"],
}


@pytest.fixture(scope="session")
def search_model():
    """The embedding model, prepared once as ``make test`` does (offline, from the pip package)."""
    target = vectors.model_dir()
    if not is_exported(target):
        try:
            export_model(target)
        except (ImportError, RuntimeError) as missing:
            pytest.skip(f"the embedding model cannot be prepared here: {missing}")
    assert vectors.embedder() is not None
    return target


@pytest.fixture
def no_model(monkeypatch):
    monkeypatch.setattr(vectors, "get_embedder", lambda *args, **kwargs: None)


def _save_all(actor, notes=NOTES):
    for key, value, layer in notes:
        services.memory_save(actor=actor, key=key, value=value, layer=layer)


def _search(actor, query, **fields) -> dict:
    turn = turns.turn_start(actor=actor)
    return recall.memory_search(actor=actor, turn_id=turn.id, query=query, **fields)


def _stored_vector(note):
    """The note's stored vector as search would use it: None if missing or of older text."""
    _, blob = vectors.current_index(note.key, note.value, note.search_text, note.search_terms, note.embedding)
    return vectors.vectors_of([blob])[0]


def _keys(result: dict) -> list[str]:
    return [n["key"] for n in result["notes"]]


def _expected(query: str, limit: int, notes=NOTES) -> list[str]:
    """The ranking from the notes' text and vectors alone, in memory: no database involved; with
    the search's cut-off (memories.search_cutoff), as memory_search and the list apply it."""
    rows = []
    for number, (key, value, layer) in enumerate(notes):
        fields = vectors.note_index_fields(key, value)
        # No stored terms: the terms come from the text here, so the engines' stored ones are checked.
        rows.append((f"note-{number}", key, value, layer, False, None, None, fields["search_text"], None,
                     fields["embedding"]))
    signals = hybrid._signals_of(rows)
    return [found.signals.key for found in search_cutoff.cut(hybrid.CandidateSet(signals), query, limit).found]


# --- unit: the lexical signal ------------------------------------------------------------------

def test_R_RECALL_3_keys_are_split_into_words():
    assert index_text("orders.amountCents", "in cents") == "orders amount Cents: in cents"
    assert {"order", "amount", "cent"} <= set(note_terms("orders.amountCents", "").distinct.split())
    assert set(note_terms("team_date-format", "").distinct.split()) >= {"team", "date", "format"}


def test_R_RECALL_3_or_semantics_a_note_matching_one_word_of_many_scores():
    docs = [note_terms("pref.tone", "no emoji"), note_terms("deploy.day", "never on Fridays")]
    scores = lexical_scores(docs, "emoji invoices quarterly")
    assert scores[0] > 0 and scores[1] == 0


def test_R_RECALL_3_partial_words_and_typos_match_the_candidates_words():
    docs = [note_terms("pref.tone", "no emoji"), note_terms("finance.reconciliation", "monthly, by the 5th")]
    for query, expected in (("emoj", 0), ("emjoi", 0), ("emoij", 0), ("reconcil", 1), ("reconcilation", 1)):
        scores = lexical_scores(docs, query)
        assert scores[expected] > 0 and scores[1 - expected] == 0, query
    assert lexical_scores(docs, "em") == [0.0, 0.0]  # too short to be a prefix
    assert lexical_scores(docs, "emoji")[0] > lexical_scores(docs, "emoj")[0] > lexical_scores(docs, "emjoi")[0]


def test_R_RECALL_3_statistics_are_those_of_the_candidates_only():
    """A word common in other scopes' notes must not lower its weight here: the scores of a set
    of candidates depend on those candidates alone."""
    mine = [NoteTerms.of(["emoji"]), NoteTerms.of(["tone"])]
    crowded = mine + [NoteTerms.of(["emoji"])] * 50
    assert lexical_scores(mine, "emoji")[0] > lexical_scores(crowded, "emoji")[0]
    assert lexical_scores(mine, "emoji") == lexical_scores(list(mine), "emoji")


# --- the service, with the model ------------------------------------------------------------------

pytestmark_db = pytest.mark.django_db(databases=ALL_DATABASES)


@pytestmark_db
def test_R_RECALL_3_a_paraphrase_finds_its_note_in_the_top_3(search_model, owner, eu_ws):
    actor = actor_for(owner, eu_ws)
    _save_all(actor)
    result = _search(actor, "how should I format my answer?")
    assert result["ranking"] == "hybrid"
    assert "tone" in _keys(result)[:3]
    assert result["notes"][0]["score"] >= result["notes"][-1]["score"]


@pytestmark_db
@pytest.mark.parametrize("region", ["eu", "us"])
def test_R_RECALL_3_the_same_ranking_on_every_engine_and_region(search_model, owner, region):
    workspace = make_workspace(owner, name=f"Golden {region}", region=region)
    actor = actor_for(owner, workspace)
    _save_all(actor)
    for query in ["how should I format my answer?", *PARAPHRASES]:
        assert _keys(_search(actor, query, limit=len(NOTES))) == _expected(query, len(NOTES)), query


@pytestmark_db
def test_R_RECALL_3_paraphrases_find_their_note_first(search_model, owner, eu_ws):
    actor = actor_for(owner, eu_ws)
    _save_all(actor)
    for query, key in PARAPHRASES.items():
        assert _keys(_search(actor, query, limit=3))[0] == key, query


@pytestmark_db
def test_R_RECALL_3_the_order_of_candidates_never_changes_the_ranking(search_model, owner, eu_ws):
    actor = actor_for(owner, eu_ws)
    _save_all(actor)
    signals = hybrid.candidate_set(hybrid.QuerysetNotes(Note.objects.for_workspace(eu_ws))).signals
    for query in PARAPHRASES:
        forward = hybrid.rank(hybrid.CandidateSet(signals), query, 8).scores
        assert hybrid.rank(hybrid.CandidateSet(signals[::-1]), query, 8).scores == forward


@pytestmark_db
def test_R_RECALL_3_save_stores_the_vector_and_an_edit_recomputes_it(search_model, owner, eu_ws):
    actor = actor_for(owner, eu_ws)
    note = services.memory_save(actor=actor, key="pref.tone", value="keep replies short").note
    stored = Note.objects.for_workspace(eu_ws).get(id=note.id)
    assert stored.search_text == index_text("pref.tone", "keep replies short")
    assert _stored_vector(stored) is not None
    services.memory_update(actor=actor, note_id=note.id, value="long detailed replies with examples")
    edited = Note.objects.for_workspace(eu_ws).get(id=note.id)
    assert edited.search_text == index_text("pref.tone", "long detailed replies with examples")
    assert bytes(edited.embedding) != bytes(stored.embedding)


@pytestmark_db
def test_R_RECALL_3_a_vector_of_older_text_is_ignored_until_embed_notes_recomputes_it(
        search_model, owner, eu_ws, monkeypatch):
    """Text changed behind the service's back (a manual UPDATE, a data migration) keeps its old
    vector: search must not rank by it, and embed_notes recomputes it."""
    from django.core.management import call_command

    actor = actor_for(owner, eu_ws)
    note = services.memory_save(actor=actor, key="pref.tone", value="long detailed replies").note
    Note.objects.for_workspace(eu_ws).filter(id=note.id).update(value="keep replies short")
    changed = Note.objects.for_workspace(eu_ws).get(id=note.id)
    assert _stored_vector(changed) is None
    assert _keys(_search(actor, "short replies")) == ["pref.tone"]  # still found, by its words alone

    call_command("embed_notes", stdout=io.StringIO())
    fixed = Note.objects.for_workspace(eu_ws).get(id=note.id)
    assert _stored_vector(fixed) is not None
    monkeypatch.setattr(hybrid, "VECTOR_RECHECK_SECONDS", 0.0)
    (signals,) = hybrid.candidate_set(hybrid.QuerysetNotes(Note.objects.for_workspace(eu_ws).filter(id=note.id))).signals
    assert signals.vector is not None


@pytestmark_db
def test_R_RECALL_3_R_MANAGE_3_undo_gives_the_restored_text_its_own_vector(search_model, owner, eu_ws):
    """Undo puts older text back; the note is found by its meaning again at once, not only after
    embed_notes (a paraphrase shares no word with the note)."""
    client = token_client(owner)
    actor = actor_for(owner, eu_ws)
    _save_all(actor)
    note = Note.objects.for_workspace(eu_ws).get(key="deploy.day")
    _, change = services.memory_update(actor=actor, note_id=note.id, value="the office plants need water")
    assert client.post(url(eu_ws, f"changes/{change.id}/undo/")).status_code == 200
    restored = Note.objects.for_workspace(eu_ws).get(id=note.id)
    assert restored.value == "we never deploy on Fridays"
    assert _stored_vector(restored) is not None
    assert _keys(_search(actor, "when is it safe to ship a release"))[0] == "deploy.day"

    # Undoing a delete brings the note back with a vector of its text too.
    deleted = services.memory_delete(actor=actor, note_id=note.id)
    assert client.post(url(eu_ws, f"changes/{deleted.id}/undo/")).status_code == 200
    back = Note.objects.for_workspace(eu_ws).get(id=note.id)
    assert _stored_vector(back) is not None


@pytestmark_db
def test_R_RECALL_3_a_held_note_imported_back_has_the_vector_of_its_text(search_model, owner, eu_ws):
    from tests.regions.helpers import download, export_via_api

    client = token_client(owner)
    actor = actor_for(owner, eu_ws)
    turn = turns.turn_start(actor=actor)
    turns.turn_record_read(actor=actor, turn_id=turn.id, source="web", ref="https://example.com")
    held = services.memory_save(actor=actor, turn_id=turn.id, key="deploy.day", value="we never deploy on Fridays")
    assert held.note.state == Note.State.HELD
    data = download(client, export_via_api(client, eu_ws)["url"])
    Note.objects.for_workspace(eu_ws).delete()

    answer = client.post(url(eu_ws, "memories/import/"), data=data, content_type="application/zip")
    assert answer.status_code == 201, answer.json()
    imported = Note.objects.for_workspace(eu_ws).get(key="deploy.day")
    assert imported.state == Note.State.HELD
    assert _stored_vector(imported) is not None


@pytestmark_db
def test_R_RECALL_3_held_trashed_expired_and_invisible_notes_are_never_returned(search_model, owner, eu_ws):
    """Every hidden note says exactly what the query says: only the visible one may come back."""
    text = "keep replies short, no emoji"
    client = token_client(owner)
    actor = actor_for(owner, eu_ws)
    visible = services.memory_save(actor=actor, key="pref.tone", value=text).note
    # held: saved in a turn that read a web page
    turn = turns.turn_start(actor=actor)
    turns.turn_record_read(actor=actor, turn_id=turn.id, source="web", ref="https://example.com")
    held = services.memory_save(actor=actor, turn_id=turn.id, key="held.tone", value=text).note
    assert held.state == Note.State.HELD
    # expired held
    expired = services.memory_save(actor=actor, turn_id=turn.id, key="expired.tone", value=text).note
    Note.objects.for_workspace(eu_ws).filter(id=expired.id).update(held_until=timezone.now() - timedelta(minutes=1))
    # trashed
    trashed = services.memory_save(actor=actor, key="trashed.tone", value=text).note
    assert client.delete(url(eu_ws, f"memories/{trashed.id}/")).status_code == 204
    # a colleague's own note, and a bot's note the person's turn does not read
    colleague = add_member(eu_ws, "colleague@example.com", "editor")
    services.memory_save(actor=actor_for(colleague, eu_ws), key="their.tone", value=text)
    bot, _ = make_bot(eu_ws, owner, name="Writer")
    services.memory_save(actor=actor, key="bot.tone", value=text, layer="bot", bot_ref=str(bot.id))
    # another workspace, same region and the other region
    for region in ("eu", "us"):
        other = make_workspace(owner, name=f"Other {region}", region=region)
        services.memory_save(actor=actor_for(owner, other), key=f"other.{region}", value=text)

    for query in (text, "how should I format my answer?", "emoji"):
        result = _search(actor, query, limit=50)
        assert result["ranking"] == "hybrid"
        assert [n["id"] for n in result["notes"]] == [str(visible.id)], query


@pytestmark_db
def test_R_RECALL_3_the_web_list_search_is_the_same_search(search_model, owner, eu_ws):
    actor = actor_for(owner, eu_ws)
    _save_all(actor)
    client = token_client(owner)
    for query in ["how should I format my answer?", *PARAPHRASES]:
        listed = client.get(url(eu_ws, "memories/"), {"q": query, "limit": 3}).json()["results"]
        assert [n["key"] for n in listed] == _keys(_search(actor, query, limit=3)) == _expected(query, 3)


@pytestmark_db
def test_R_RECALL_3_over_the_api_the_response_says_how_it_ranked(search_model, owner, eu_ws):
    client = token_client(owner)
    actor = actor_for(owner, eu_ws)
    _save_all(actor)
    turn = client.post(url(eu_ws, "turns/"), {"kind": "chat"}, format="json").json()
    found = client.post(url(eu_ws, f"turns/{turn['id']}/memory_search/"),
                        {"query": "how should I format my answer?", "limit": 3}, format="json")
    assert found.status_code == 200
    assert found.json()["ranking"] == "hybrid" and "tone" in [n["key"] for n in found.json()["notes"]]


# --- without the model ----------------------------------------------------------------------------

@pytestmark_db
def test_R_RECALL_3_without_the_model_search_is_lexical_and_says_so(no_model, owner, eu_ws):
    actor = actor_for(owner, eu_ws)
    _save_all(actor)
    assert Note.objects.for_workspace(eu_ws).filter(embedding__isnull=False).count() == 0
    client = token_client(owner)
    turn = client.post(url(eu_ws, "turns/"), {"kind": "chat"}, format="json").json()
    found = client.post(url(eu_ws, f"turns/{turn['id']}/memory_search/"), {"query": "emoji"}, format="json")
    assert found.status_code == 200
    assert found.json()["ranking"] == "lexical"
    assert [n["key"] for n in found.json()["notes"]] == ["tone"]
    for query, expected in GOLDEN_LEXICAL.items():
        assert _keys(_search(actor, query, limit=3)) == expected, query


@pytestmark_db
def test_R_RECALL_3_partial_words_and_typos_are_found_lexically(no_model, owner, eu_ws):
    actor = actor_for(owner, eu_ws)
    _save_all(actor)
    for query, key in (("emoj", "tone"), ("emjoi", "tone"), ("timezo", "team.timezone"),
                       ("palete", "charts.colors"), ("Fridy deploys", "deploy.day")):
        result = _search(actor, query)
        assert result["ranking"] == "lexical"
        assert _keys(result)[:1] == [key], query


@pytestmark_db
def test_R_RECALL_3_keys_split_and_or_semantics_through_the_service(no_model, owner, eu_ws):
    actor = actor_for(owner, eu_ws)
    _save_all(actor)
    assert _keys(_search(actor, "amount"))[:1] == ["orders.amountCents"]
    assert set(_keys(_search(actor, "emoji navy"))) == {"tone", "charts.colors"}


@pytestmark_db
def test_R_RECALL_3_a_failing_model_never_fails_the_search(search_model, owner, eu_ws, monkeypatch):
    actor = actor_for(owner, eu_ws)
    _save_all(actor)

    def broken(*args, **kwargs):
        raise RuntimeError("onnxruntime fell over")

    monkeypatch.setattr(type(vectors.embedder()), "embed_one", broken)
    result = _search(actor, "emoji")
    assert result["ranking"] == "lexical" and _keys(result) == ["tone"]


@pytestmark_db
def test_R_RECALL_3_notes_saved_without_the_model_get_vectors_from_embed_notes(search_model, owner, eu_ws,
                                                                                monkeypatch):
    from django.core.management import call_command

    actor = actor_for(owner, eu_ws)
    with monkeypatch.context() as patch:
        patch.setattr(vectors, "get_embedder", lambda *args, **kwargs: None)
        _save_all(actor)
    assert Note.objects.for_workspace(eu_ws).filter(embedding__isnull=False).count() == 0
    call_command("embed_notes", stdout=io.StringIO())
    assert Note.objects.for_workspace(eu_ws).filter(embedding__isnull=True).count() == 0
    query = "how should I format my answer?"
    assert _keys(_search(actor, query, limit=3)) == _expected(query, 3)


@pytestmark_db
def test_R_RECALL_3_a_bot_turn_searches_only_what_the_bot_reads(search_model, owner, eu_ws):
    actor = actor_for(owner, eu_ws)
    _save_all(actor)
    _, key = make_bot(eu_ws, owner, name="Reporter", memory="own")  # reads its own notes, not its owner's
    bot = token_client(key)
    turn = bot.post(url(eu_ws, "turns/"), {"kind": "chat"}, format="json").json()
    found = bot.post(url(eu_ws, f"turns/{turn['id']}/memory_search/"), {"query": "how should I format my answer?",
                                                                      "limit": 50}, format="json").json()
    layers = {n["layer"] for n in found["notes"]}
    assert found["ranking"] == "hybrid" and layers <= {"workspace", "instance"}
    stranger = make_user("stranger@example.com")
    assert token_client(stranger).post(url(eu_ws, f"turns/{turn['id']}/memory_search/"),
                                       {"query": "tone"}, format="json").status_code == 404


def test_R_RECALL_3_a_note_neither_similar_nor_sharing_a_word_is_left_out():
    import numpy as np

    def note(number, key, value, direction):
        vector = np.zeros(384, dtype=np.float32)
        vector[direction] = 1.0
        return hybrid.Signals(f"n{number}", key, value, "mine", False, None, None, note_terms(key, value), vector, 0.0)

    candidates = hybrid.CandidateSet([note(1, "tone", "no emoji", 0), note(2, "deploy.day", "never on Fridays", 1),
                                      note(3, "orders.amount", "in cents", 1)])
    query = np.zeros(384, dtype=np.float32)
    query[0] = 1.0
    found = hybrid.rank(candidates, "cents please", 10, vectors._done(query))
    assert found.ranking == "hybrid"
    assert [s.key for s, _ in found.found] == ["tone", "orders.amount"]  # similar; shares "cents"
