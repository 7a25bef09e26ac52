"""memory_search reads its candidates with hand-written SQL (memories.search.candidates); the
context and every other read use the ORM (``live_notes`` + ``turn_read_filter``). Both must
read exactly the same notes for every kind of turn (R-RBAC-1, R-RBAC-2, R-TAINT-2): a held,
trashed, expired, other person's, other bot's, other conversation's or other workspace's note
is never a search candidate. Runs on SQLite with plain pytest and on PostgreSQL in make test.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memories import recall, turns
from memories.models import Layer, Note
from memories.scopes import (
    WORKSPACE_SCOPE,
    bot_scope,
    conversation_scope,
    turn_read_filter,
    turn_read_scopes,
    user_scope,
)
from memories.search import hybrid
from memories.search.candidates import TurnNotes
from memories.selectors import live_notes
from memories.turns import turn_bot
from tests.factories import ALL_DATABASES, add_member, make_bot, make_workspace
from workspaces.capabilities import actor_for

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

CONVERSATION = "slack:c1"


def _note(workspace, key, layer, *, user=None, bot=None, conversation=None, **fields):
    scope = {
        Layer.MINE: lambda: user_scope(user.pk), Layer.WORKSPACE: lambda: WORKSPACE_SCOPE,
        Layer.BOT: lambda: bot_scope(bot.id), Layer.CONVERSATION: lambda: conversation_scope(conversation),
    }[layer]()
    note = Note(workspace_id=workspace.id, key=key, value=f"the note {key}", layer=layer, scope=scope,
                owner_user_id=user.pk if layer == Layer.MINE else None, bot_id=bot.id if bot else None,
                conversation_id=conversation, origin=Note.Origin.PERSON,
                subject_kind=fields.pop("subject_kind", None), subject_id=fields.pop("subject_id", None), **fields)
    note.save(using=workspace.db_alias)
    return note


@pytest.fixture
def world(owner, eu_ws):
    """Notes of every scope and state in one workspace, and a note in another one."""
    colleague = add_member(eu_ws, "colleague@example.com", "editor")
    mine_and_own, _ = make_bot(eu_ws, owner, name="Both")
    own_only, _ = make_bot(eu_ws, owner, name="Own")
    own_only.memory = "own"
    own_only.save()
    past = timezone.now() - timedelta(minutes=1)
    for layer, who in ((Layer.MINE, {"user": owner}), (Layer.MINE, {"user": colleague}),
                       (Layer.WORKSPACE, {}), (Layer.BOT, {"bot": mine_and_own}), (Layer.BOT, {"bot": own_only}),
                       (Layer.CONVERSATION, {"conversation": CONVERSATION}),
                       (Layer.CONVERSATION, {"conversation": "slack:other"})):
        name = f"{layer}.{next(iter(who.values())).pk if who and layer != Layer.CONVERSATION else who.get('conversation', '')}"
        _note(eu_ws, f"{name}.active", layer, **who)
        _note(eu_ws, f"{name}.about", layer, subject_kind="table", subject_id="t1", **who)
        _note(eu_ws, f"{name}.held", layer, state=Note.State.HELD, held_until=timezone.now() + timedelta(days=1), **who)
        _note(eu_ws, f"{name}.expired", layer, state=Note.State.HELD, held_until=past, **who)
        _note(eu_ws, f"{name}.trashed", layer, trashed_at=past, **who)
    elsewhere = make_workspace(owner, name="Elsewhere")
    _note(elsewhere, "workspace.elsewhere", Layer.WORKSPACE)
    _note(elsewhere, "mine.elsewhere", Layer.MINE, user=owner)
    return {"owner": owner, "colleague": colleague, "bots": (mine_and_own, own_only), "ws": eu_ws}


def _turns(world):
    ws, owner = world["ws"], world["owner"]
    actor = actor_for(owner, ws)
    both, own = world["bots"]
    return {
        "person chat": turns.turn_start(actor=actor),
        "colleague chat": turns.turn_start(actor=actor_for(world["colleague"], ws)),
        "bot reading mine and its own": turns.turn_start(actor=actor, bot_ref=str(both.id)),
        "bot reading its own only": turns.turn_start(actor=actor, bot_ref=str(own.id)),
        "messaging": turns.turn_start(actor=actor, kind="messaging", bot_ref=str(both.id),
                                      channel={"platform": "slack", "conversation": "c1", "chat_kind": "direct"}),
    }


def _keys(rows) -> set[str]:
    return {row[2] for row in rows}


def _orm_keys(queryset) -> set[str]:
    return set(queryset.values_list("key", flat=True))


def test_R_RBAC_1_search_reads_the_same_notes_as_the_context_for_every_kind_of_turn(world):
    ws = world["ws"]
    seen = {}
    for name, turn in _turns(world).items():
        bot = turn_bot(turn)
        orm = live_notes(ws).filter(turn_read_filter(turn, bot), state=Note.State.ACTIVE)
        source = TurnNotes(ws, turn_read_scopes(turn, bot))
        assert _keys(source.read()) == _orm_keys(orm), name
        assert [row[0] for row in source.versions()] == [row[0] for row in source.read()], name
        by_layer = TurnNotes(ws, turn_read_scopes(turn, bot), layer=Layer.WORKSPACE)
        assert _keys(by_layer.read()) == _orm_keys(orm.filter(layer=Layer.WORKSPACE)), name
        about = TurnNotes(ws, turn_read_scopes(turn, bot), subject=("table", "t1"))
        assert _keys(about.read()) == _orm_keys(orm.filter(subject_kind="table", subject_id="t1")), name
        seen[name] = _keys(source.read())
    owner, colleague = world["owner"].pk, world["colleague"].pk
    both, own = world["bots"]
    # What each turn reads, spelled out: active notes of its own scopes only.
    assert seen["person chat"] == {f"mine.{owner}.active", f"mine.{owner}.about", "workspace..active", "workspace..about"}
    assert seen["colleague chat"] == {f"mine.{colleague}.active", f"mine.{colleague}.about",
                                      "workspace..active", "workspace..about"}
    assert seen["bot reading its own only"] == {f"bot.{own.pk}.active", f"bot.{own.pk}.about",
                                                "workspace..active", "workspace..about"}
    assert seen["messaging"] == seen["bot reading mine and its own"] | {
        f"conversation.{CONVERSATION}.active", f"conversation.{CONVERSATION}.about"}


def test_R_RBAC_1_an_id_outside_the_turns_notes_is_not_read_when_asked_for_by_id(world):
    """The by-id read (notes changed since they were cached) keeps the turn's conditions: the
    id of a colleague's note, a held one or another workspace's is read as nothing."""
    ws = world["ws"]
    turn = _turns(world)["person chat"]
    source = TurnNotes(ws, turn_read_scopes(turn, None))

    def text_id(note) -> str:  # as the database writes the id as text (what read() is passed)
        return hybrid.QuerysetNotes(Note.objects.using("region_eu").filter(id=note.id)).versions()[0][0]

    notes = Note.objects.using("region_eu")
    own, colleagues, held, foreign = (text_id(notes.get(key=key)) for key in (
        "workspace..active", f"mine.{world['colleague'].pk}.active", "workspace..held", "workspace.elsewhere"))
    assert _keys(source.read([colleagues, held, foreign])) == set()
    assert _keys(source.read([own, colleagues])) == {"workspace..active"}
    assert source.read([]) == []


def test_R_RECALL_3_memory_search_finds_no_note_the_turn_may_not_read(world):
    ws, owner = world["ws"], world["owner"]
    turn = _turns(world)["person chat"]
    found = recall.memory_search(actor=actor_for(owner, ws), turn_id=turn.id, query="the note", limit=50)
    assert {n["key"] for n in found["notes"]} == {f"mine.{owner.pk}.active", f"mine.{owner.pk}.about",
                                                  "workspace..active", "workspace..about"}


def test_stored_terms_are_used_only_for_the_key_and_value_they_were_computed_from():
    from memories.search.fulltext import read_stored_terms, stored_terms, text_terms
    from memories.search.vectors import current_index, index_text

    key, value = "orders.amountCents", "order amounts are stored in cents, amounts never in dollars"
    text = index_text(key, value)
    assert read_stored_terms(key, value, stored_terms(key, value)) == text_terms(text)
    # Terms of another text (a value changed behind the service's back), of another format or
    # not as stored_terms writes them are not used.
    assert read_stored_terms(key, value, stored_terms("deploy.day", "we never deploy on Fridays")) is None
    assert read_stored_terms(key, "order amounts are in dollars", stored_terms(key, value)) is None
    assert read_stored_terms(key, value, "") is None
    assert read_stored_terms(key, value, "t1:00000000 orders") is None
    tag = stored_terms(key, value).split("\n")[0]
    assert read_stored_terms(key, value, f"{tag}\norder\namount") is None

    # The stored vector goes with the terms' tag; without it, with the text it was computed from.
    blob = b"\x01" * 768
    assert current_index(key, value, "", stored_terms(key, value), blob) == (text_terms(text), blob)
    changed = "order amounts are in dollars"
    assert current_index(key, changed, text, stored_terms(key, value), blob) == (
        text_terms(index_text(key, changed)), None)
    assert current_index(key, value, text, "", blob) == (text_terms(text), blob)
    assert current_index(key, value, "older text", "", blob)[1] is None


def test_note_terms_count_every_occurrence():
    from memories.search.fulltext import LexicalIndex, NoteTerms, read_stored_terms, stored_terms

    key, value = "report.format", "weekly report: the report lists every report owner"
    stored = read_stored_terms(key, value, stored_terms(key, value))
    assert stored.occurrences("report") == 4 and stored.occurrences("owner") == 1 and stored.occurrences("port") == 0
    assert stored.length == sum(stored.occurrences(term) for term in stored.distinct.split())
    # Postings are found on demand, the same as counting each candidate's terms.
    docs = [stored, NoteTerms.of(["owner", "owner", "week"]), NoteTerms.of([])]
    assert LexicalIndex(docs).postings("owner") == [(0, 1), (1, 2)]
    assert LexicalIndex(docs).postings("missing") == []


def test_stored_vectors_are_decoded_together_and_a_malformed_one_is_left_out():
    import numpy as np

    from memories.search.embedding import vector_to_bytes
    from memories.search.vectors import vectors_of

    first, second = np.eye(384, dtype=np.float32)[:2]
    found = vectors_of([vector_to_bytes(first), None, b"\x00" * 100, vector_to_bytes(second, "float32"),
                        vector_to_bytes(second)])
    assert [v is None for v in found] == [False, True, True, False, False]
    np.testing.assert_array_equal(found[0], first)
    np.testing.assert_array_equal(found[3], second)
    np.testing.assert_array_equal(found[4], second)
