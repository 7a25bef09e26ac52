"""Conversation ownership (R-MSG-2): a messaging conversation belongs to the person (or bot) whose
turn first named it in the workspace; anyone else's turn naming the same id is refused before it
exists, so it neither reads the conversation's notes nor saves into them."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from appenda.errors import DomainError
from memories import turns
from memories.models import Conversation, Note, Turn
from tests.factories import (
    ALL_DATABASES,
    add_member,
    make_bot,
    make_user,
    make_workspace,
    token_client,
    url,
)
from tests.memories.helpers import context_keys, start_turn, tool_save, tool_search
from workspaces.capabilities import actor_for

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)


def channel(conversation="c1", *, platform="telegram", sender="alice", paired=True, chat_kind="direct") -> dict:
    return {"platform": platform, "conversation": conversation, "chat_kind": chat_kind,
            "sender": {"id": sender, "paired": paired, "can_confirm": True}}


def messaging_start(client, workspace, **fields):
    conversation = fields.pop("conversation", "c1")
    return client.post(url(workspace, "turns/"), {"kind": "messaging", "channel": channel(conversation, **fields)},
                       format="json")


def messaging_turn(client, workspace, **fields) -> dict:
    response = messaging_start(client, workspace, **fields)
    assert response.status_code == 201, response.json()
    return response.json()


def saves_at_once(person) -> None:
    response = token_client(person).put("/api/v1/me/memory-settings/", {"messaging_save": "paired_private"},
                                        format="json")
    assert response.status_code == 200, response.json()


def assert_taken(response) -> None:
    assert response.status_code == 403, response.json()
    body = response.json()
    assert body["code"] == "conversation_taken"
    assert "belongs to someone else in this workspace" in body["detail"] and "own conversation id" in body["detail"]


@pytest.fixture
def alice(owner, eu_ws):
    """The member whose chat registered telegram:c1, with a pinned note in it."""
    saves_at_once(owner)
    client = token_client(owner)
    turn = messaging_turn(client, eu_ws)
    saved = tool_save(client, eu_ws, turn["id"], key="c1.plan", value="The launch moves to Thursday.", pin=True)
    assert saved.json()["state"] == "active" and saved.json()["layer"] == "conversation", saved.json()
    return client


@pytest.fixture
def bob(eu_ws):
    member = add_member(eu_ws, "bob@example.com", "editor")
    saves_at_once(member)
    return member


def test_R_MSG_2_another_member_naming_a_conversation_neither_reads_nor_writes_its_notes(owner, eu_ws, alice, bob):
    intruder = token_client(bob)
    notes_before = sorted(Note.objects.for_workspace(eu_ws).values_list("id", "value", "state"))
    turns_before = Turn.objects.for_workspace(eu_ws).count()

    assert_taken(messaging_start(intruder, eu_ws))  # the same conversation id, any sender
    assert_taken(messaging_start(intruder, eu_ws, sender="mallory", paired=False, chat_kind="group"))
    chat_id_only = intruder.post(url(eu_ws, "turns/"), {"kind": "messaging", "chat_id": "c1",
                                                        "channel": {"platform": "telegram"}}, format="json")
    assert_taken(chat_id_only)  # the chat id names the same conversation when the channel does not

    assert Turn.objects.for_workspace(eu_ws).count() == turns_before  # no turn to read or save with
    assert sorted(Note.objects.for_workspace(eu_ws).values_list("id", "value", "state")) == notes_before
    # Bob's own conversation works, and shows nothing of Alice's.
    own = messaging_turn(intruder, eu_ws, conversation="bob-chat")
    assert "c1.plan" not in context_keys(own) and "launch" not in own["context"]["text"]
    assert tool_search(intruder, eu_ws, own["id"], "launch thursday").json()["notes"] == []
    saved = tool_save(intruder, eu_ws, own["id"], key="c1.plan", value="The launch is cancelled.", pin=True).json()
    assert saved["state"] == "active"
    # Alice's conversation still reads only her note.
    again = messaging_turn(alice, eu_ws)
    assert "c1.plan" in context_keys(again) and "cancelled" not in again["context"]["text"]
    found = tool_search(alice, eu_ws, again["id"], "launch").json()["notes"]
    assert [n["value"] for n in found] == ["The launch moves to Thursday."]


def test_R_MSG_2_the_registrant_keeps_working_across_turns_and_the_registration_is_kept(owner, eu_ws, alice):
    for sender, paired in (("alice", True), ("bob", True), ("mallory", False)):
        turn = messaging_turn(alice, eu_ws, sender=sender, paired=paired, chat_kind="group")
        assert "c1.plan" in context_keys(turn)
    conversation = Conversation.objects.for_workspace(eu_ws).get(ref="telegram:c1")
    assert (conversation.platform, conversation.owner_user_id, conversation.owner_bot_id) == ("telegram", owner.pk, None)
    # The first turn's facts stay: later turns saying other things do not rewrite them.
    assert (conversation.chat_kind, conversation.registered_sender_id, conversation.sender_paired) == \
        ("direct", "alice", True)
    later = messaging_turn(alice, eu_ws, sender="alice")
    assert tool_save(alice, eu_ws, later["id"], key="c1.venue", value="Room 4.").json()["state"] == "active"


def test_R_MSG_2_an_unknown_chat_kind_is_registered_as_a_group(owner, eu_ws):
    messaging_turn(token_client(owner), eu_ws, conversation="c9", chat_kind="supergroup", paired=False)
    conversation = Conversation.objects.for_workspace(eu_ws).get(ref="telegram:c9")
    assert (conversation.chat_kind, conversation.sender_paired) == ("group", False)


def test_R_MSG_2_the_same_id_in_another_workspace_or_platform_is_another_conversation(owner, eu_ws, alice, bob):
    elsewhere = make_workspace(bob, name="Bob's own", region="us")
    intruder = token_client(bob)
    there = messaging_turn(intruder, elsewhere)  # telegram:c1, but in Bob's workspace
    assert "c1.plan" not in context_keys(there)
    assert tool_search(intruder, elsewhere, there["id"], "launch thursday").json()["notes"] == []
    other_platform = messaging_turn(intruder, eu_ws, platform="slack")  # slack:c1 is not telegram:c1
    assert "c1.plan" not in context_keys(other_platform)
    assert sorted(Conversation.objects.for_workspace(eu_ws).values_list("ref", "owner_user_id")) == \
        [("slack:c1", bob.pk), ("telegram:c1", owner.pk)]
    assert list(Conversation.objects.for_workspace(elsewhere).values_list("ref", "owner_user_id")) == \
        [("telegram:c1", bob.pk)]
    # and Alice, naming c1 in Bob's workspace (she is not a member), is not even let in
    assert messaging_start(alice, elsewhere).status_code == 404


def test_R_MSG_2_a_bots_conversation_is_not_its_owners_nor_another_bots(owner, eu_ws):
    bot, bot_key = make_bot(eu_ws, owner, name="Courier")
    _, other_key = make_bot(eu_ws, owner, name="Other")
    as_bot = token_client(bot_key)
    messaging_turn(as_bot, eu_ws, conversation="bot-chat")
    person = token_client(owner)
    assert_taken(messaging_start(person, eu_ws, conversation="bot-chat"))
    assert_taken(messaging_start(token_client(other_key), eu_ws, conversation="bot-chat"))
    # The owner running that bot works for the same pair (person, bot): the same conversation.
    by_owner = person.post(url(eu_ws, "turns/"), {"kind": "messaging", "bot": str(bot.id),
                                                  "channel": channel("bot-chat")}, format="json")
    assert by_owner.status_code == 201, by_owner.json()
    conversation = Conversation.objects.for_workspace(eu_ws).get(ref="telegram:bot-chat")
    assert (conversation.owner_user_id, conversation.owner_bot_id) == (owner.pk, bot.id)
    # The person's own conversation is equally closed to the bot.
    messaging_turn(person, eu_ws, conversation="person-chat")
    assert_taken(messaging_start(as_bot, eu_ws, conversation="person-chat"))


def test_R_MSG_2_other_turn_kinds_register_nothing(owner, eu_ws):
    client = token_client(owner)
    start_turn(client, eu_ws, chat_id="c1")
    start_turn(client, eu_ws, kind="routine", channel=channel())
    assert not Conversation.objects.for_workspace(eu_ws).exists()


def test_R_MSG_2_a_messaging_turn_without_an_id_registers_its_own(owner, eu_ws, bob):
    """With no conversation or chat id the turn is its own conversation ("platform:<turn id>"),
    registered too: a turn id shows in notes other members see, so it must not open them."""
    turn = start_turn(token_client(owner), eu_ws, kind="messaging", channel={"platform": "telegram"})
    assert Conversation.objects.for_workspace(eu_ws).get().ref == f"telegram:{turn['id']}"
    assert_taken(messaging_start(token_client(bob), eu_ws, conversation=turn["id"]))


# ---- two first turns at once ---------------------------------------------------------------------------------
def _in_threads(count: int, work) -> list:
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def run(index):
        try:
            barrier.wait()
            results[index] = work(index)
        except Exception as exc:  # noqa: BLE001 - the test inspects what each thread got
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.mark.django_db(databases=ALL_DATABASES, transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the race needs PostgreSQL; make test runs it")
def test_R_MSG_2_two_first_turns_at_once_register_the_conversation_once():
    first = make_user("first@example.com")
    workspace = make_workspace(first, name="Race", region="eu")
    second = add_member(workspace, "second@example.com", "editor")
    actors = [actor_for(first, workspace), actor_for(second, workspace)]

    def start(index):
        return turns.turn_start(actor=actors[index % 2], kind="messaging", channel=channel("race"))

    results = _in_threads(6, start)  # three turns of each member, all at once
    refused = [r for r in results if isinstance(r, DomainError)]
    started = [r for r in results if isinstance(r, Turn)]
    assert len(started) + len(refused) == 6, results
    assert {r.code for r in refused} == {"conversation_taken"} and len(started) == 3
    conversation = Conversation.objects.for_workspace(workspace).get()
    assert {t.user_id for t in started} == {conversation.owner_user_id}
    assert Turn.objects.for_workspace(workspace).count() == 3


def test_R_MSG_2_conversations_saved_before_registration_belong_to_their_first_saver(owner, eu_ws):
    """The backfill (migration 0006): notes of a conversation saved before conversations were
    registered name its owner, so another member's later turn cannot claim them."""
    import importlib

    from django.apps import apps
    from django.db import connections as all_connections

    client = token_client(owner)
    saved = tool_save(client, eu_ws, messaging_start(client, eu_ws, conversation="old").json()["id"],
                      key="pref.tone", value="short answers").json()
    Conversation.objects.for_workspace(eu_ws).delete()  # as before registration existed
    backfill = importlib.import_module("memories.migrations.0006_conversation_backfill")

    class Editor:
        connection = all_connections[eu_ws.db_alias]

    backfill.register_existing_conversations(apps, Editor())
    registered = Conversation.objects.for_workspace(eu_ws).get()
    assert (registered.ref, registered.owner_user_id, registered.owner_bot_id) == ("telegram:old", owner.pk, None)
    other = token_client(add_member(eu_ws, "other@example.com", "admin"))
    refused = messaging_start(other, eu_ws, conversation="old")
    assert refused.status_code == 403 and refused.json()["code"] == "conversation_taken"
    assert "short answers" not in refused.content.decode() and saved["state"] in ("active", "held")
