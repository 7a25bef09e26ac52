"""Messaging apps (R-MSG-1): where a save goes, when it asks, and who may confirm or undo it from
the chat — including the negative cases (unpaired senders, senders of another conversation)."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.utils import timezone

from appenda.errors import DomainError
from memories import messaging
from memories.messaging import chat_confirm_refusal, chat_undo_check, chat_undo_refusal
from memories.models import ChangeSet, Note, Turn
from tests.factories import ALL_DATABASES, make_bot, make_workspace, token_client, url
from tests.memories.helpers import context_keys, keep_seen, start_turn, tool_save, tool_search

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)


def put_settings(owner, **fields):
    response = token_client(owner).put("/api/v1/me/memory-settings/", fields, format="json")
    assert response.status_code == 200, response.json()


def messaging_turn(client, workspace, *, conversation="c1", chat_kind="direct", sender="alice", paired=True,
                   can_confirm=True, platform="telegram", **fields) -> dict:
    channel = {"platform": platform, "conversation": conversation,
               "sender": {"id": sender, "paired": paired, "can_confirm": can_confirm}}
    if chat_kind is not None:
        channel["chat_kind"] = chat_kind
    return start_turn(client, workspace, kind="messaging", channel=channel, **fields)


def confirm(client, workspace, turn, note_id):
    return client.post(url(workspace, f"turns/{turn['id']}/confirm/"), {"note": note_id}, format="json")


@pytest.fixture
def bot(owner, eu_ws):
    _, key = make_bot(eu_ws, owner, name="Courier")
    return token_client(key)


def held_in(workspace, conversation_bot, **turn_fields) -> dict:
    turn = messaging_turn(conversation_bot, workspace, **turn_fields)
    saved = tool_save(conversation_bot, workspace, turn["id"], key="pref.units", value="Metric units.")
    assert saved.json()["state"] == "held", saved.json()
    return saved.json()


# ---- where a save goes and whether it asks --------------------------------------------------------------
def test_R_MSG_1_saves_go_to_the_conversation_and_ask_first_by_default(owner, eu_ws, bot):
    turn = messaging_turn(bot, eu_ws)
    saved = tool_save(bot, eu_ws, turn["id"], key="pref.units", value="Metric units.").json()
    assert saved["layer"] == "conversation" and saved["state"] == "held" and saved["reason"] == "messaging_ask"
    assert saved["show"] == "Waiting for you to keep it"
    assert Note.objects.for_workspace(eu_ws).get().conversation_id == "telegram:c1"


@pytest.mark.parametrize(
    "chat_kind, paired, state",
    [
        ("direct", True, "active"),
        ("direct", False, "held"),
        ("group", True, "held"),
        ("channel", True, "held"),
        ("thread", True, "held"),
        ("supergroup", True, "held"),  # a chat kind the host does not know counts as a group
        (None, True, "held"),
    ],
)
def test_R_MSG_1_paired_private_saves_at_once_only_for_a_paired_sender_one_to_one(owner, eu_ws, bot, chat_kind,
                                                                                   paired, state):
    put_settings(owner, messaging_save="paired_private")
    turn = messaging_turn(bot, eu_ws, chat_kind=chat_kind, paired=paired)
    saved = tool_save(bot, eu_ws, turn["id"], key="pref.units", value="Metric units.").json()
    assert saved["state"] == state and saved["layer"] == "conversation"
    if state == "active":
        assert saved["show"] == "Saved to memory" and saved["undo"]
    else:
        assert saved["reason"] == "messaging_ask"


def test_R_MSG_1_an_unknown_chat_kind_is_stored_as_a_group(owner, eu_ws, bot):
    turn = messaging_turn(bot, eu_ws, chat_kind="supergroup")
    assert Turn.objects.for_workspace(eu_ws).get(id=turn["id"]).channel["chat_kind"] == "group"


@pytest.mark.parametrize("level, state", [("auto", "active"), ("ask", "active"), ("always", "held")])
def test_R_MSG_1_the_row_decides_unless_the_person_chose_always(owner, eu_ws, bot, level, state):
    put_settings(owner, save_mode=level, messaging_save="paired_private")
    turn = messaging_turn(bot, eu_ws)
    assert tool_save(bot, eu_ws, turn["id"], key="k", value="Metric units.").json()["state"] == state


@pytest.mark.parametrize("settings", [{"messaging_save": "never"}, {"save_mode": "never",
                                                                   "messaging_save": "paired_private"}])
def test_R_MSG_1_never_refuses_and_writes_nothing(owner, eu_ws, bot, settings):
    put_settings(owner, **settings)
    turn = messaging_turn(bot, eu_ws)
    response = tool_save(bot, eu_ws, turn["id"], key="k", value="Metric units.")
    assert response.status_code == 403 and response.json()["code"] == "saving_off"
    assert not Note.objects.for_workspace(eu_ws).exists()


def test_R_MSG_1_a_bot_whose_memory_is_none_saves_nothing_from_a_chat(owner, eu_ws):
    _, key = make_bot(eu_ws, owner, memory="none")
    client = token_client(key)
    turn = messaging_turn(client, eu_ws)
    assert turn["context"]["off_level"] == "bot"
    assert tool_save(client, eu_ws, turn["id"], key="k", value="v").json()["code"] == "memory_off"


# ---- another layer from a messaging chat ----------------------------------------------------------------
def test_R_MSG_1_a_note_for_the_bots_own_layer_never_saves_at_once(owner, eu_ws, bot):
    put_settings(owner, messaging_save="paired_private")
    turn = messaging_turn(bot, eu_ws)
    saved = tool_save(bot, eu_ws, turn["id"], key="k", value="Metric units.", layer="bot").json()
    assert saved["state"] == "held" and saved["reason"] == "messaging_other_layer" and saved["layer"] == "bot"


@pytest.mark.parametrize(
    "memory, layer, paired",
    [
        ("mine_and_own", "bot", False),  # only from a paired sender
        ("mine_and_own", "mine", True),  # the choice saves to the bot's own notes, not the person's
        ("own", "mine", True),
        ("mine", "bot", True),
        ("mine_and_own", "workspace", True),
        (None, "workspace", True),
    ],
)
def test_R_MSG_1_a_layer_outside_the_choice_or_from_an_unpaired_sender_is_refused(owner, eu_ws, memory, layer,
                                                                                   paired):
    _, key = make_bot(eu_ws, owner, memory=memory)
    client = token_client(key)
    turn = messaging_turn(client, eu_ws, paired=paired)
    response = tool_save(client, eu_ws, turn["id"], key="k", value="Metric units.", layer=layer)
    assert response.status_code == 403 and response.json()["code"] == "layer_not_allowed"
    assert not Note.objects.for_workspace(eu_ws).exists()


def test_R_MSG_1_as_before_a_paired_sender_may_ask_for_the_persons_notes_held(owner, eu_ws):
    _, key = make_bot(eu_ws, owner, memory=None)
    client = token_client(key)
    turn = messaging_turn(client, eu_ws)
    saved = tool_save(client, eu_ws, turn["id"], key="k", value="Metric units.", layer="mine").json()
    assert saved["layer"] == "mine" and saved["state"] == "held" and saved["reason"] == "messaging_other_layer"


# ---- what a messaging chat reads ------------------------------------------------------------------------
def test_R_MSG_1_a_conversations_notes_are_read_only_in_that_conversation(owner, eu_ws, bot):
    put_settings(owner, messaging_save="paired_private")
    turn = messaging_turn(bot, eu_ws, conversation="c1")
    assert tool_save(bot, eu_ws, turn["id"], key="c1.fact", value="Metric units.", pin=True).json()["state"] == \
        "active"
    assert "c1.fact" in context_keys(messaging_turn(bot, eu_ws, conversation="c1"))
    elsewhere = messaging_turn(bot, eu_ws, conversation="c2")
    assert "c1.fact" not in context_keys(elsewhere)
    assert tool_search(bot, eu_ws, elsewhere["id"], "metric units").json()["notes"] == []
    other_platform = messaging_turn(bot, eu_ws, conversation="c1", platform="slack")
    assert "c1.fact" not in context_keys(other_platform)
    chat = start_turn(bot, eu_ws)
    assert tool_search(bot, eu_ws, chat["id"], "metric units").json()["notes"] == []


# ---- confirming from the chat ------------------------------------------------------------------------------
def test_R_MSG_1_a_paired_sender_allowed_to_confirm_keeps_the_note_from_the_chat(owner, eu_ws, bot):
    held = held_in(eu_ws, bot)
    answer = messaging_turn(bot, eu_ws, sender="bob")  # another paired sender allowed to confirm
    response = confirm(bot, eu_ws, answer, held["id"])
    assert response.status_code == 200, response.json()
    assert response.json()["state"] == "active" and response.json()["undo"]
    assert Note.objects.for_workspace(eu_ws).get().state == "active"
    change = ChangeSet.objects.for_workspace(eu_ws).get(action="confirm")
    assert change.turn_id is not None and "bob" in change.reason and change.actor_user_id == owner.pk
    search = tool_search(bot, eu_ws, messaging_turn(bot, eu_ws)["id"], "metric units").json()
    assert [n["key"] for n in search["notes"]] == ["pref.units"]


@pytest.mark.parametrize(
    "answer_fields, status, code",
    [
        ({"paired": False}, 403, "sender_not_paired"),
        ({"paired": False, "can_confirm": True, "chat_kind": "group"}, 403, "sender_not_paired"),
        ({"can_confirm": False}, 403, "sender_cannot_confirm"),
        ({"conversation": "c2"}, 404, "not_found"),  # a sender of another conversation
        ({"platform": "discord"}, 404, "not_found"),
    ],
)
def test_R_MSG_1_who_may_not_confirm_from_the_chat(owner, eu_ws, bot, answer_fields, status, code):
    held = held_in(eu_ws, bot)
    answer = messaging_turn(bot, eu_ws, **{"sender": "mallory", **answer_fields})
    response = confirm(bot, eu_ws, answer, held["id"])
    assert response.status_code == status and response.json()["code"] == code
    assert Note.objects.for_workspace(eu_ws).get().state == "held"


def test_R_MSG_1_confirm_needs_a_messaging_turn_of_the_same_bot_and_workspace(owner, eu_ws, bot):
    held = held_in(eu_ws, bot)
    chat = start_turn(bot, eu_ws)
    response = confirm(bot, eu_ws, chat, held["id"])
    assert response.status_code == 403 and response.json()["code"] == "messaging_turn_required"
    _, other_key = make_bot(eu_ws, owner, name="Other")
    other = token_client(other_key)
    other_turn = messaging_turn(other, eu_ws, conversation="c2")
    assert confirm(other, eu_ws, other_turn, held["id"]).status_code == 404
    person_turn = messaging_turn(token_client(owner), eu_ws, conversation="c3")
    assert confirm(token_client(owner), eu_ws, person_turn, held["id"]).status_code == 404
    # Naming the bot's conversation itself, they cannot even start the turn (R-MSG-2).
    for stranger in (other, token_client(owner)):
        taken = stranger.post(url(eu_ws, "turns/"), {"kind": "messaging", "channel": {
            "platform": "telegram", "conversation": "c1"}}, format="json")
        assert taken.status_code == 403 and taken.json()["code"] == "conversation_taken"
    us_ws = make_workspace(owner, name="Acme US", region="us")
    assert confirm(bot, us_ws, messaging_turn(bot, eu_ws), held["id"]).status_code == 404
    assert Note.objects.for_workspace(eu_ws).get().state == "held"


def test_R_MSG_1_confirm_works_for_24_hours(owner, eu_ws, bot):
    held = held_in(eu_ws, bot)
    Note.objects.for_workspace(eu_ws).filter(id=held["id"]).update(
        updated_at=timezone.now() - timedelta(hours=24, minutes=1),
        held_until=timezone.now() + timedelta(hours=1),
    )
    response = confirm(bot, eu_ws, messaging_turn(bot, eu_ws), held["id"])
    assert response.status_code == 409 and response.json()["code"] == "confirm_window_passed"
    # the person can still keep it in the web app or the API
    kept = keep_seen(token_client(owner), eu_ws, held["id"])
    assert kept.status_code == 200 and kept.json()["state"] == "active"


def test_R_MSG_1_a_note_held_because_the_turn_read_data_waits_for_the_person(owner, eu_ws, bot):
    turn = messaging_turn(bot, eu_ws)
    bot.post(url(eu_ws, f"turns/{turn['id']}/reads/"), {"source": "web", "ref": "https://example.com"}, format="json")
    held = tool_save(bot, eu_ws, turn["id"], key="k", value="Metric units.").json()
    assert held["reason"] == "tainted_turn"
    response = confirm(bot, eu_ws, messaging_turn(bot, eu_ws), held["id"])
    assert response.status_code == 409 and response.json()["code"] == "confirm_in_app"


def test_R_MSG_1_under_always_only_the_sender_who_asked_can_confirm(owner, eu_ws, bot):
    put_settings(owner, save_mode="always")
    held = held_in(eu_ws, bot, sender="alice")
    other = confirm(bot, eu_ws, messaging_turn(bot, eu_ws, sender="bob"), held["id"])
    assert other.status_code == 403 and other.json()["code"] == "only_asking_sender"
    same = confirm(bot, eu_ws, messaging_turn(bot, eu_ws, sender="alice"), held["id"])
    assert same.status_code == 200 and same.json()["state"] == "active"


def test_R_MSG_1_a_note_for_another_layer_is_confirmed_only_by_the_sender_who_asked(owner, eu_ws, bot):
    turn = messaging_turn(bot, eu_ws, sender="alice")
    held = tool_save(bot, eu_ws, turn["id"], key="bot.units", value="Metric units.", layer="bot", pin=True).json()
    other = confirm(bot, eu_ws, messaging_turn(bot, eu_ws, sender="bob"), held["id"])
    assert other.status_code == 403 and other.json()["code"] == "only_asking_sender"
    same = confirm(bot, eu_ws, messaging_turn(bot, eu_ws, sender="alice"), held["id"])
    assert same.status_code == 200 and same.json()["layer"] == "bot"
    assert "bot.units" in context_keys(start_turn(bot, eu_ws))  # now one of the bot's own notes


def test_R_MSG_1_confirm_refuses_a_note_not_waiting_an_unknown_note_and_memory_off(owner, eu_ws, bot):
    held = held_in(eu_ws, bot)
    answer = messaging_turn(bot, eu_ws)
    assert confirm(bot, eu_ws, answer, held["id"]).status_code == 200
    again = confirm(bot, eu_ws, answer, held["id"])
    assert again.status_code == 409 and again.json()["code"] == "not_held"
    assert confirm(bot, eu_ws, answer, "00000000-0000-0000-0000-000000000000").status_code == 404
    assert confirm(bot, eu_ws, answer, "not-an-id").status_code == 404
    missing = bot.post(url(eu_ws, f"turns/{answer['id']}/confirm/"), {}, format="json")
    assert missing.status_code == 400 and missing.json()["code"] == "missing_field"
    second = held_in(eu_ws, bot)
    put_settings(owner, enabled=False)
    off = confirm(bot, eu_ws, messaging_turn(bot, eu_ws), second["id"])
    assert off.status_code == 403 and off.json()["code"] == "memory_off"


def test_R_MSG_1_the_person_can_keep_a_conversation_note_in_the_api(owner, eu_ws, bot):
    held = held_in(eu_ws, bot)
    kept = keep_seen(token_client(owner), eu_ws, held["id"])
    assert kept.status_code == 200 and kept.json()["state"] == "active"


# ---- undo from the chat: 30 minutes ---------------------------------------------------------------------------
def saved_change(workspace, client, **turn_fields) -> tuple[Turn, ChangeSet]:
    turn = messaging_turn(client, workspace, **turn_fields)
    saved = tool_save(client, workspace, turn["id"], key="k", value="Metric units.").json()
    change = ChangeSet.objects.for_workspace(workspace).get(id=saved["undo"]["change"])
    return turn, change


def db_turn(workspace, turn: dict) -> Turn:
    return Turn.objects.for_workspace(workspace).get(id=turn["id"])


def test_R_MSG_1_undo_from_the_chat_works_for_30_minutes(owner, eu_ws, bot):
    put_settings(owner, messaging_save="paired_private")
    _, change = saved_change(eu_ws, bot, sender="alice")
    asker = db_turn(eu_ws, messaging_turn(bot, eu_ws, sender="alice", can_confirm=False))
    chat_undo_check(workspace=eu_ws, turn=asker, change_set=change)  # the sender who asked, in time
    chat_undo_check(workspace=eu_ws, turn=asker, change_set=change,
                    now=change.created_at + timedelta(minutes=30))
    with pytest.raises(DomainError) as late:
        chat_undo_check(workspace=eu_ws, turn=asker, change_set=change,
                        now=change.created_at + timedelta(minutes=30, seconds=1))
    assert (late.value.status, late.value.code) == (409, "undo_window_passed")


@pytest.mark.parametrize(
    "turn_fields, status, code",
    [
        ({"sender": "mallory", "paired": False}, 403, "sender_not_paired"),
        ({"sender": "bob", "can_confirm": False}, 403, "sender_cannot_undo"),
        ({"sender": "alice", "conversation": "c2"}, 404, "not_found"),
    ],
)
def test_R_MSG_1_who_may_not_undo_from_the_chat(owner, eu_ws, bot, turn_fields, status, code):
    put_settings(owner, messaging_save="paired_private")
    _, change = saved_change(eu_ws, bot, sender="alice")
    with pytest.raises(DomainError) as refused:
        chat_undo_check(workspace=eu_ws, turn=db_turn(eu_ws, messaging_turn(bot, eu_ws, **turn_fields)),
                        change_set=change)
    assert (refused.value.status, refused.value.code) == (status, code)


# ---- the refusal tables, checked exhaustively against a plain statement -------------------------------------
NOW = timezone.now()


def test_R_MSG_1_confirm_refusal_table_every_combination():
    checked = 0
    for (kind, off, found, held, paired, can_confirm, asked, mode, layer, reason, age) in itertools.product(
        ("messaging", "chat"), (None, "user"), (True, False), (True, False), (True, False), (True, False),
        (True, False), ("auto", "ask", "always", "never"), ("conversation", "bot"),
        ("messaging_ask", "messaging_other_layer", "tainted_turn", "may_name_person"),
        (timedelta(hours=1), timedelta(hours=25)),
    ):
        refusal = chat_confirm_refusal(
            turn_kind=kind, memory_off_level=off, note_in_conversation=found, note_held=held, sender_paired=paired,
            sender_can_confirm=can_confirm, sender_asked=asked, mode=mode, note_layer=layer, held_reason=reason,
            saved_at=NOW - age, now=NOW,
        )
        expected = (
            "messaging_turn_required" if kind != "messaging"
            else "memory_off" if off
            else "not_found" if not found
            else "not_held" if not held
            else "sender_not_paired" if not paired
            else "sender_cannot_confirm" if not can_confirm
            else "saving_off" if mode == "never"
            else "only_asking_sender" if not asked and (mode == "always" or layer != "conversation")
            else "confirm_in_app" if not reason.startswith("messaging_")
            else "confirm_window_passed" if age > timedelta(hours=24)
            else None
        )
        assert (refusal.code if refusal else None) == expected
        checked += 1
    assert checked == 2 * 2 * 2 * 2 * 2 * 2 * 2 * 4 * 2 * 4 * 2


def test_R_MSG_1_chat_undo_refusal_table_every_combination():
    for kind, found, paired, can_confirm, asked, minutes in itertools.product(
        ("messaging", "routine"), (True, False), (True, False), (True, False), (True, False), (5, 30, 31),
    ):
        refusal = chat_undo_refusal(turn_kind=kind, change_in_conversation=found, sender_paired=paired,
                                    sender_can_confirm=can_confirm, sender_asked=asked,
                                    made_at=NOW - timedelta(minutes=minutes), now=NOW)
        expected = (
            "messaging_turn_required" if kind != "messaging"
            else "not_found" if not found
            else "sender_not_paired" if not paired
            else "sender_cannot_undo" if not (asked or can_confirm)
            else "undo_window_passed" if minutes > 30
            else None
        )
        assert (refusal.code if refusal else None) == expected


def test_R_MSG_1_the_windows_are_24_hours_and_30_minutes():
    assert messaging.CONFIRM_WINDOW == timedelta(hours=24)
    assert messaging.CHAT_UNDO_WINDOW == timedelta(minutes=30)
