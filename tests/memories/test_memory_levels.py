"""The memory levels (R-RECALL-5 extended) and private chats (R-PRIVATE-1).

The narrowest level that is off wins — private chat, the bot's memory choice None, the person's
switch, the workspace switch — and the turn's context and both tools name it and say how to
turn it back on. Turning a level off deletes nothing.
"""

from __future__ import annotations

import itertools

import pytest

from memories.models import Note, PrivateChat
from tests.factories import ALL_DATABASES, make_bot, token_client, url
from tests.memories.helpers import context_keys, person_save, start_turn, tool_save, tool_search

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

LEVELS_NARROWEST_FIRST = ("private_chat", "bot", "user", "workspace")
HOW_TO_TURN_ON = {
    "private_chat": "chat's Tools menu",
    "bot": "bot form",
    "user": "Your settings",
    "workspace": "Settings → Agents → Memory",
}
EVERY_SET_OF_LEVELS = [set(c) for n in range(1, 5) for c in itertools.combinations(LEVELS_NARROWEST_FIRST, n)]


def switch_levels(owner, workspace, off: set[str]):
    """Turns off the person's and the workspace's switches as asked; returns a bot client."""
    client = token_client(owner)
    client.put("/api/v1/me/memory-settings/", {"enabled": "user" not in off}, format="json")
    client.put(url(workspace, "memory-settings/"), {"enabled": "workspace" not in off}, format="json")
    _, key = make_bot(workspace, owner, memory="none" if "bot" in off else "mine_and_own")
    return token_client(key)


def assert_off(turn: dict, client, workspace, level: str):
    context = turn["context"]
    assert context["memory"] == "off" and context["off_level"] == level
    assert context["notes"] == [] and "\n" not in context["text"]
    assert HOW_TO_TURN_ON[level] in context["text"]
    for response in (tool_save(client, workspace, turn["id"], key="k", value="a fact"),
                     tool_search(client, workspace, turn["id"], "fact")):
        assert response.status_code == 403
        body = response.json()
        assert body["code"] == "memory_off" and body["level"] == level
        assert HOW_TO_TURN_ON[level] in body["detail"]


@pytest.mark.parametrize("off", EVERY_SET_OF_LEVELS, ids=lambda s: "+".join(sorted(s)))
def test_R_RECALL_5_the_narrowest_level_that_is_off_wins(owner, eu_ws, off):
    """R-RECALL-5, R-PRIVATE-1, R-AGENT-1: every combination of levels (so every pair) names the narrowest."""
    person_save(token_client(owner), eu_ws, key="pref.units", value="Metric units", pinned=True)
    bot = switch_levels(owner, eu_ws, off)
    turn = start_turn(bot, eu_ws, chat_id="chat-1", private="private_chat" in off)
    narrowest = next(level for level in LEVELS_NARROWEST_FIRST if level in off)
    assert_off(turn, bot, eu_ws, narrowest)
    assert Note.objects.for_workspace(eu_ws).count() == 1  # nothing saved, nothing deleted


def test_R_RECALL_5_turning_every_level_back_on_brings_every_note_back(owner, eu_ws):
    person_save(token_client(owner), eu_ws, key="pref.units", value="Metric units", pinned=True)
    switch_levels(owner, eu_ws, {"user", "workspace"})
    bot, key = make_bot(eu_ws, owner, name="Off", memory="none")
    assert start_turn(token_client(key), eu_ws)["context"]["off_level"] == "bot"
    client = token_client(owner)
    client.put("/api/v1/me/memory-settings/", {"enabled": True}, format="json")
    client.put(url(eu_ws, "memory-settings/"), {"enabled": True}, format="json")
    client.patch(url(eu_ws, f"bots/{bot.id}/"), {"memory": "mine_and_own"}, format="json")
    turn = start_turn(token_client(key), eu_ws)
    assert turn["context"]["memory"] == "on" and context_keys(turn) == {"pref.units"}


def test_R_RECALL_5_a_chat_without_a_bot_is_off_at_the_persons_or_workspaces_level(owner, eu_ws):
    client = token_client(owner)
    client.put(url(eu_ws, "memory-settings/"), {"enabled": False}, format="json")
    assert_off(start_turn(client, eu_ws), client, eu_ws, "workspace")
    client.put("/api/v1/me/memory-settings/", {"enabled": False}, format="json")
    assert_off(start_turn(client, eu_ws), client, eu_ws, "user")


# ---- R-PRIVATE-1 --------------------------------------------------------------------------------
def test_R_PRIVATE_1_a_private_chat_reads_nothing_saves_nothing_and_is_remembered(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="pref.units", value="Metric units", pinned=True)
    first = start_turn(client, eu_ws, chat_id="chat-7", private=True)
    assert first["private"] is True
    assert_off(first, client, eu_ws, "private_chat")
    assert first["context"]["text"].count("private") >= 1
    later = start_turn(client, eu_ws, chat_id="chat-7")  # the client no longer says so
    assert later["private"] is True
    assert_off(later, client, eu_ws, "private_chat")
    assert PrivateChat.objects.for_workspace(eu_ws).filter(chat_id="chat-7").count() == 1
    other = start_turn(client, eu_ws, chat_id="chat-8")
    assert other["private"] is False and context_keys(other) == {"pref.units"}
    assert Note.objects.for_workspace(eu_ws).count() == 1  # notes saved earlier stay


def test_R_PRIVATE_1_a_private_turn_without_a_chat_id_and_a_bots_private_chat(owner, eu_ws):
    client = token_client(owner)
    assert_off(start_turn(client, eu_ws, private=True), client, eu_ws, "private_chat")
    assert start_turn(client, eu_ws)["context"]["memory"] == "on"
    _, key = make_bot(eu_ws, owner)
    bot = token_client(key)
    assert_off(start_turn(bot, eu_ws, chat_id="bot-chat", private=True), bot, eu_ws, "private_chat")
    assert_off(start_turn(bot, eu_ws, chat_id="bot-chat"), bot, eu_ws, "private_chat")


def test_R_PRIVATE_1_a_private_chat_wins_over_every_wider_level(owner, eu_ws):
    bot = switch_levels(owner, eu_ws, {"bot", "user", "workspace"})
    assert_off(start_turn(bot, eu_ws, chat_id="c", private=True), bot, eu_ws, "private_chat")


def test_R_PRIVATE_1_private_must_be_true_or_false(owner, eu_ws):
    response = token_client(owner).post(url(eu_ws, "turns/"), {"kind": "chat", "private": "yes"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_private"
