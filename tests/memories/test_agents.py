"""A person's memory settings (R-MODE-1), bots' memory choice and save rule (R-AGENT-1), copying
a bot (export/import) and deleting one with its notes (R-AGENT-2)."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from memories.models import Note
from tests.factories import ALL_DATABASES, add_member, make_bot, make_workspace, token_client, url
from tests.memories.helpers import context_keys, person_save, start_turn, tool_save, tool_search

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

SETTINGS = "/api/v1/me/memory-settings/"


def put_settings(client, **fields):
    return client.put(SETTINGS, fields, format="json")


# ---- R-MODE-1: a person's settings ---------------------------------------------------------------
def test_R_MODE_1_defaults_are_on_auto_and_ask_in_messaging_apps(owner):
    assert token_client(owner).get(SETTINGS).json() == {"enabled": True, "save_mode": "auto", "messaging_save": "ask"}


def test_R_MODE_1_a_field_left_out_stays_as_it_is(owner):
    client = token_client(owner)
    assert put_settings(client, save_mode="always").json()["save_mode"] == "always"
    after = put_settings(client, messaging_save="paired_private").json()
    assert after == {"enabled": True, "save_mode": "always", "messaging_save": "paired_private"}
    after = client.patch(SETTINGS, {"enabled": False}, format="json").json()
    assert after == {"enabled": False, "save_mode": "always", "messaging_save": "paired_private"}
    assert client.get(SETTINGS).json() == after


@pytest.mark.parametrize(
    "fields, code",
    [
        ({"save_mode": "sometimes"}, "invalid_save_mode"),
        ({"save_mode": None}, "invalid_save_mode"),
        ({"save_mode": "use_mine"}, "invalid_save_mode"),
        ({"messaging_save": "auto"}, "invalid_messaging_save"),
        ({"enabled": "yes"}, "invalid_enabled"),
        ({"enabled": True, "provider": "x"}, "unknown_setting"),
        ({"save_mode": "ask", "messaging_save": "always"}, "invalid_messaging_save"),
    ],
)
def test_R_MODE_1_a_bad_value_is_400_with_a_code_and_changes_nothing(owner, fields, code):
    client = token_client(owner)
    response = put_settings(client, **fields)
    assert response.status_code == 400 and response.json()["code"] == code
    assert len(response.json()["detail"]) > 10
    assert client.get(SETTINGS).json() == {"enabled": True, "save_mode": "auto", "messaging_save": "ask"}


def test_R_MODE_1_a_bot_has_no_settings_of_its_own_and_anonymous_callers_get_401(owner, eu_ws):
    _, key = make_bot(eu_ws, owner)
    assert put_settings(token_client(key), save_mode="auto").status_code == 403
    from rest_framework.test import APIClient

    assert APIClient().get(SETTINGS).status_code == 401


@pytest.mark.parametrize("mode, outcome", [("auto", "active"), ("ask", "held"), ("always", "held"), ("never", 403)])
def test_R_MODE_1_the_save_mode_decides_a_chat_save(owner, eu_ws, mode, outcome):
    client = token_client(owner)
    put_settings(client, save_mode=mode)
    response = tool_save(client, eu_ws, start_turn(client, eu_ws)["id"], key="pref.tone", value="Keep replies short.")
    if outcome == 403:
        assert response.status_code == 403 and response.json()["code"] == "saving_off"
        assert "saving is off" in response.json()["detail"]
        assert not Note.objects.for_workspace(eu_ws).exists()
    else:
        assert response.json()["state"] == outcome
        if outcome == "held":
            assert response.json()["reason"] == "ask_first"


def test_R_MODE_1_a_persons_own_save_in_the_web_app_is_not_an_agents_proposal(owner, eu_ws):
    client = token_client(owner)
    put_settings(client, save_mode="never")
    assert person_save(client, eu_ws, key="pref.tone", value="Keep replies short.").json()["state"] == "active"


# ---- R-AGENT-1: what each memory choice reads and where it saves -----------------------------------
@pytest.fixture
def notes_of_every_layer(owner, eu_ws):
    """A pinned note in the person's layer, the workspace's, and each bot's own (saved by the owner)."""
    client = token_client(owner)

    def for_bot(bot):
        response = person_save(client, eu_ws, key=f"bot.{bot.name}", value=f"{bot.name} facts", layer="bot",
                               bot=str(bot.id), pinned=True)
        assert response.status_code == 201, response.json()

    person_save(client, eu_ws, key="mine.fact", value="Answer in metric units", pinned=True)
    person_save(client, eu_ws, key="team.fact", value="Fiscal year starts in April", layer="workspace", pinned=True)
    return for_bot


READS = {
    "mine_and_own": {"mine.fact", "team.fact", "bot.B"},
    "own": {"team.fact", "bot.B"},
    "mine": {"mine.fact", "team.fact"},
    None: {"mine.fact", "team.fact", "bot.B"},  # as before
}


@pytest.mark.parametrize("choice", list(READS))
def test_R_AGENT_1_each_choice_reads_its_layers_in_context_and_search(owner, eu_ws, notes_of_every_layer, choice):
    bot, key = make_bot(eu_ws, owner, name="B", memory=choice)
    other, _ = make_bot(eu_ws, owner, name="Other")
    notes_of_every_layer(bot)
    notes_of_every_layer(other)  # another bot's own notes are never read
    client = token_client(key)
    turn = start_turn(client, eu_ws)
    assert context_keys(turn) == READS[choice]
    found = {n["key"] for n in tool_search(client, eu_ws, turn["id"], "metric april facts B Other").json()["notes"]}
    assert found == READS[choice]


def test_R_AGENT_1_none_reads_nothing_and_offers_no_save(owner, eu_ws, notes_of_every_layer):
    bot, key = make_bot(eu_ws, owner, name="B", memory="none")
    notes_of_every_layer(bot)
    client = token_client(key)
    turn = start_turn(client, eu_ws)
    assert turn["context"]["memory"] == "off" and turn["context"]["off_level"] == "bot"
    assert turn["context"]["notes"] == []
    for response in (tool_search(client, eu_ws, turn["id"], "metric"),
                     tool_save(client, eu_ws, turn["id"], key="k", value="a fact")):
        assert response.status_code == 403
        assert response.json()["code"] == "memory_off" and response.json()["level"] == "bot"
        assert "bot form" in response.json()["detail"]


@pytest.mark.parametrize(
    "choice, layer, saved_to",
    [
        ("mine_and_own", None, "bot"),
        ("own", None, "bot"),
        ("mine", None, "mine"),
        (None, None, "bot"),  # as before: the bot's own unless the model names the person's
        (None, "mine", "mine"),
        ("mine_and_own", "bot", "bot"),
        ("mine", "mine", "mine"),
    ],
)
def test_R_AGENT_1_the_host_fills_in_the_layer_of_the_choice(owner, eu_ws, choice, layer, saved_to):
    bot, key = make_bot(eu_ws, owner, memory=choice)
    client = token_client(key)
    fields = {"layer": layer} if layer else {}
    turn = start_turn(client, eu_ws)
    response = tool_save(client, eu_ws, turn["id"], key="pref.tone", value="Keep replies short.", **fields)
    assert response.status_code == 201, response.json()
    assert response.json()["layer"] == saved_to and response.json()["state"] == "active"
    note = Note.objects.for_workspace(eu_ws).get()
    if saved_to == "bot":
        assert note.bot_id == bot.id and note.scope == f"bot:{bot.id}"
    else:
        assert note.owner_user_id == owner.pk and note.scope == f"user:{owner.pk}"


@pytest.mark.parametrize(
    "choice, layer",
    [
        ("mine_and_own", "mine"),
        ("mine_and_own", "workspace"),
        ("own", "mine"),
        ("mine", "bot"),
        ("mine", "workspace"),
        (None, "workspace"),
        ("own", "conversation"),
        ("own", "instance"),
    ],
)
def test_R_AGENT_1_a_bot_naming_a_wider_layer_is_refused_layer_not_allowed(owner, eu_ws, choice, layer):
    _, key = make_bot(eu_ws, owner, memory=choice)
    client = token_client(key)
    response = tool_save(client, eu_ws, start_turn(client, eu_ws)["id"], key="k", value="a fact", layer=layer)
    assert response.status_code == 403 and response.json()["code"] == "layer_not_allowed"
    assert not Note.objects.for_workspace(eu_ws).exists()


def test_R_AGENT_1_a_chat_without_a_bot_reads_and_saves_the_persons_notes(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    saved = tool_save(client, eu_ws, turn["id"], key="pref.tone", value="Keep replies short.", pin=True)
    assert saved.json()["layer"] == "mine"
    assert "pref.tone" in context_keys(start_turn(client, eu_ws))


def test_R_AGENT_1_new_bots_default_to_mine_and_own_and_use_the_owners_rule(owner, eu_ws):
    created = token_client(owner).post(url(eu_ws, "bots/"), {"name": "New"}, format="json").json()
    assert created["memory"] == "mine_and_own" and created["memory_save"] == "use_mine"


@pytest.mark.parametrize(
    "person, rule, outcome",
    [
        ("auto", "use_mine", "active"),
        ("ask", "use_mine", "held"),
        ("auto", "always", "held"),
        ("auto", "never", 403),
        ("never", "always", 403),  # the bot's rule cannot loosen the person's
        ("always", "use_mine", "held"),
    ],
)
def test_R_AGENT_1_the_bots_save_rule_is_only_ever_stricter(owner, eu_ws, person, rule, outcome):
    put_settings(token_client(owner), save_mode=person)
    _, key = make_bot(eu_ws, owner, memory_save=rule)
    client = token_client(key)
    response = tool_save(client, eu_ws, start_turn(client, eu_ws)["id"], key="k", value="a fact")
    if outcome == 403:
        assert response.status_code == 403 and response.json()["code"] == "saving_off"
    else:
        assert response.json()["state"] == outcome


@pytest.mark.parametrize("rule, code", [("auto", "save_rule_too_loose"), ("ask", "save_rule_too_loose"),
                                        ("sometimes", "invalid_save_rule")])
def test_R_AGENT_1_auto_and_ask_are_400_as_a_bots_rule(owner, eu_ws, rule, code):
    client = token_client(owner)
    created = client.post(url(eu_ws, "bots/"), {"name": "Loose", "memory_save": rule}, format="json")
    assert created.status_code == 400 and created.json()["code"] == code
    bot, _ = make_bot(eu_ws, owner, memory_save="always")
    patched = client.patch(url(eu_ws, f"bots/{bot.id}/"), {"memory_save": rule}, format="json")
    assert patched.status_code == 400 and patched.json()["code"] == code
    assert client.get(url(eu_ws, f"bots/{bot.id}/")).json()["memory_save"] == "always"


def test_R_AGENT_1_a_put_without_the_fields_keeps_the_stored_choice_and_rule(owner, eu_ws):
    client = token_client(owner)
    bot, _ = make_bot(eu_ws, owner, memory="own", memory_save="never")
    for method in (client.put, client.patch):
        body = method(url(eu_ws, f"bots/{bot.id}/"), {"name": "Renamed"}, format="json").json()
        assert (body["name"], body["memory"], body["memory_save"]) == ("Renamed", "own", "never")
    cleared = client.patch(url(eu_ws, f"bots/{bot.id}/"), {"memory_save": "use_mine"}, format="json").json()
    assert cleared["memory_save"] == "use_mine" and cleared["memory"] == "own"
    bad = client.patch(url(eu_ws, f"bots/{bot.id}/"), {"memory": "everything"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_memory_choice"


def test_R_AGENT_1_a_bot_cannot_widen_the_persons_switch(owner, eu_ws, notes_of_every_layer):
    bot, key = make_bot(eu_ws, owner, name="B", memory="mine_and_own")
    notes_of_every_layer(bot)
    put_settings(token_client(owner), enabled=False)
    client = token_client(key)
    turn = start_turn(client, eu_ws)
    assert turn["context"]["off_level"] == "user" and turn["context"]["notes"] == []
    response = tool_save(client, eu_ws, turn["id"], key="k", value="a fact")
    assert response.status_code == 403 and response.json()["level"] == "user"


# ---- R-AGENT-1: copying a bot ------------------------------------------------------------------------
def test_R_AGENT_1_export_is_the_definition_without_notes_or_token(owner, eu_ws, notes_of_every_layer):
    bot, key = make_bot(eu_ws, owner, name="B", memory="own", memory_save="always")
    notes_of_every_layer(bot)
    response = token_client(owner).get(url(eu_ws, f"bots/{bot.id}/export/"))
    assert response.status_code == 200
    assert response.json() == {"format": "appenda-bot/1", "name": "B", "memory": "own", "memory_save": "always"}
    assert key not in response.content.decode() and "facts" not in response.content.decode()


@pytest.mark.parametrize("memory, memory_save", [("own", "always"), ("mine", "use_mine"), ("none", "never"),
                                                 (None, "use_mine")])
def test_R_AGENT_1_import_makes_a_new_bot_with_the_same_choice_and_no_notes(owner, eu_ws, notes_of_every_layer,
                                                                          memory, memory_save):
    bot, _ = make_bot(eu_ws, owner, name="B", memory=memory, memory_save=memory_save)
    notes_of_every_layer(bot)
    client = token_client(owner)
    exported = client.get(url(eu_ws, f"bots/{bot.id}/export/")).json()
    imported = client.post(url(eu_ws, "bots/import/"), exported, format="json")
    assert imported.status_code == 201, imported.json()
    copy = imported.json()
    assert copy["id"] != str(bot.id) and copy["token"]
    assert (copy["name"], copy["memory"], copy["memory_save"]) == ("B", memory, memory_save)
    assert client.get(url(eu_ws, "memories/"), {"layer": "bot"}).json()["results"][0]["bot"] == str(bot.id)
    assert not Note.objects.for_workspace(eu_ws).filter(bot_id=copy["id"]).exists()


def test_R_AGENT_1_an_import_file_without_memory_is_as_before_and_bad_files_are_400(owner, eu_ws):
    client = token_client(owner)
    old = client.post(url(eu_ws, "bots/import/"), {"name": "Old"}, format="json").json()
    assert old["memory"] is None and old["memory_save"] == "use_mine"
    for bad, code in (({"name": "X", "memory_save": "auto"}, "save_rule_too_loose"),
                      ({"name": "X", "memory": "all"}, "invalid_memory_choice"),
                      ({"name": "X", "format": "other/1"}, "invalid_bot_file"),
                      ({"memory": "own"}, "invalid_name")):
        response = client.post(url(eu_ws, "bots/import/"), bad, format="json")
        assert response.status_code == 400 and response.json()["code"] == code


def test_R_AGENT_1_export_and_import_respect_the_workspace_and_roles(owner, eu_ws):
    bot, _ = make_bot(eu_ws, owner)
    stranger_ws = make_workspace(owner, name="Other", region="us")
    assert token_client(owner).get(url(stranger_ws, f"bots/{bot.id}/export/")).status_code == 404
    outsider = add_member(stranger_ws, "outsider@example.com", "owner")
    assert token_client(outsider).get(url(eu_ws, f"bots/{bot.id}/export/")).status_code == 404
    viewer = add_member(eu_ws, "viewer@example.com", "viewer")
    refused = token_client(viewer).post(url(eu_ws, "bots/import/"), {"name": "V"}, format="json")
    assert refused.status_code == 403


# ---- R-AGENT-2: deleting a bot ---------------------------------------------------------------------
def bot_note_ids(workspace, bot, trashed=False):
    return set(Note.objects.for_workspace(workspace).filter(bot_id=bot.id, trashed_at__isnull=not trashed)
               .values_list("key", flat=True))


def test_R_AGENT_2_keep_is_the_default_and_lists_the_notes_under_deleted_bots(owner, eu_ws, notes_of_every_layer):
    bot, key = make_bot(eu_ws, owner, name="B")
    notes_of_every_layer(bot)
    client = token_client(owner)
    assert client.delete(url(eu_ws, f"bots/{bot.id}/")).status_code == 204
    assert bot_note_ids(eu_ws, bot) == {"bot.B"}
    assert [b["id"] for b in client.get(url(eu_ws, "bots/")).json()["results"]] == []
    deleted = client.get(url(eu_ws, "memories/deleted-bots/")).json()["results"]
    assert [(d["bot"]["name"], d["count"], [n["key"] for n in d["notes"]]) for d in deleted] == [("B", 1, ["bot.B"])]
    assert [n["key"] for n in client.get(url(eu_ws, "memories/"), {"layer": "bot"}).json()["results"]] == ["bot.B"]
    assert token_client(key).post(url(eu_ws, "turns/"), {"kind": "chat"}, format="json").status_code == 401
    # the kept notes can be deleted later like any note
    note_id = deleted[0]["notes"][0]["id"]
    assert client.delete(url(eu_ws, f"memories/{note_id}/")).status_code == 204
    assert client.get(url(eu_ws, "memories/deleted-bots/")).json()["results"] == []


def test_R_AGENT_2_deleted_bots_list_shows_only_the_callers_own_bots(owner, eu_ws, notes_of_every_layer):
    bot, _ = make_bot(eu_ws, owner, name="B")
    notes_of_every_layer(bot)
    token_client(owner).delete(url(eu_ws, f"bots/{bot.id}/?memory=keep"))
    admin = add_member(eu_ws, "admin@example.com", "admin")
    assert token_client(admin).get(url(eu_ws, "memories/deleted-bots/")).json()["results"] == []
    other_ws = make_workspace(owner, name="Other EU", region="eu")
    assert token_client(owner).get(url(other_ws, "memories/deleted-bots/")).json()["results"] == []


def test_R_AGENT_2_export_answers_with_the_zip_then_trashes_the_notes(owner, eu_ws, notes_of_every_layer):
    bot, _ = make_bot(eu_ws, owner, name="B")
    notes_of_every_layer(bot)
    client = token_client(owner)
    response = client.delete(url(eu_ws, f"bots/{bot.id}/?memory=export"))
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content) if response.streaming
                                         else response.content))
    assert [n["key"] for n in json.loads(archive.read("bot.json"))] == ["bot.B"]
    assert bot_note_ids(eu_ws, bot) == set() and bot_note_ids(eu_ws, bot, trashed=True) == {"bot.B"}
    assert client.get(url(eu_ws, "memories/deleted-bots/")).json()["results"] == []


def test_R_AGENT_2_delete_trashes_the_notes_and_they_are_never_recalled(owner, eu_ws, notes_of_every_layer):
    bot, _ = make_bot(eu_ws, owner, name="B", memory=None)
    notes_of_every_layer(bot)
    client = token_client(owner)
    assert client.delete(url(eu_ws, f"bots/{bot.id}/?memory=delete")).status_code == 204
    assert bot_note_ids(eu_ws, bot, trashed=True) == {"bot.B"} and bot_note_ids(eu_ws, bot) == set()
    assert [n["key"] for n in client.get(url(eu_ws, "memories/"), {"layer": "bot"}).json()["results"]] == []
    turn = start_turn(client, eu_ws)
    assert "bot.B" not in context_keys(turn)
    found = tool_search(client, eu_ws, turn["id"], "B facts").json()["notes"]
    assert "bot.B" not in {n["key"] for n in found}


def test_R_AGENT_2_bad_choice_or_someone_elses_bot_deletes_nothing(owner, eu_ws, notes_of_every_layer):
    bot, _ = make_bot(eu_ws, owner, name="B")
    notes_of_every_layer(bot)
    bad = token_client(owner).delete(url(eu_ws, f"bots/{bot.id}/?memory=shred"))
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_memory_choice"
    editor = add_member(eu_ws, "editor@example.com", "editor")
    assert token_client(editor).delete(url(eu_ws, f"bots/{bot.id}/?memory=delete")).status_code == 403
    other_ws = make_workspace(owner, name="Other US", region="us")
    assert token_client(owner).delete(url(other_ws, f"bots/{bot.id}/?memory=delete")).status_code == 404
    assert bot_note_ids(eu_ws, bot) == {"bot.B"}
    assert token_client(owner).get(url(eu_ws, f"bots/{bot.id}/")).status_code == 200
