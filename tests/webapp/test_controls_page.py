"""The controls the API has, on the pages (issue 19): export, forget everything, the trash, the
history of changes with undo, the Bots page (memory choice, save rule, token rotation, delete
with keep/export/delete) and private chats as a switch. Each form goes through the services the
API calls, so a person who may not do a thing is refused the same way (403, 404 for strangers).
"""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest

from memories import trash, turns
from memories.models import ChangeSet, Export, Note, PrivateChat
from memories.services import memory_save
from tests.factories import ALL_DATABASES, make_bot, make_user, make_workspace, token_client, url
from workspaces.capabilities import actor_for
from workspaces.models import ApiToken, Bot

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)


def ws_url(world, path: str) -> str:
    return f"/w/{world.ws.slug}/{path}"


def live_notes(world, **filters):
    return Note.objects.for_workspace(world.ws).filter(trashed_at__isnull=True, **filters)


# --- Export ---------------------------------------------------------------------------------

def test_R_MANAGE_4_export_from_the_page_then_download_the_zip_of_what_i_may_see(world, login, client):
    client = login(world.owner)
    page = client.get(ws_url(world, "settings/agents/memory/export/"))
    assert page.status_code == 200 and "Export my notes" in page.text and "Your exports" not in page.text
    made = client.post(ws_url(world, "settings/agents/memory/export/"), follow=True)
    assert made.status_code == 200 and "Your export of 2 notes is ready" in made.text
    export = Export.objects.for_workspace(world.ws).get()
    download = ws_url(world, f"settings/agents/memory/export/{export.id}/download/")
    assert download in made.text
    link = client.get(download)
    assert link.status_code == 302
    import httpx

    body = httpx.get(link["Location"], timeout=10).content
    names = zipfile.ZipFile(io.BytesIO(body)).namelist()
    assert any("mine" in name for name in names) and any("workspace" in name for name in names)


def test_R_MANAGE_4_an_instance_admin_who_is_not_a_member_may_not_export_and_others_exports_are_404(world, login):
    root = make_user("root@example.com", instance_admin=True)
    refused = login(root).post(ws_url(world, "settings/agents/memory/export/"))
    assert refused.status_code == 403
    assert not Export.objects.for_workspace(world.ws).exists()
    login(world.owner).post(ws_url(world, "settings/agents/memory/export/"))
    export = Export.objects.for_workspace(world.ws).get()
    other = login(world.editor)
    assert other.get(ws_url(world, f"settings/agents/memory/export/{export.id}/download/")).status_code == 404
    assert str(export.id) not in other.get(ws_url(world, "settings/agents/memory/export/")).text


# --- Forget everything and the trash ----------------------------------------------------------

def test_R_MANAGE_4_forget_needs_the_typed_word_and_then_trashes_only_my_own_notes(world, login):
    client = login(world.owner)
    forget = ws_url(world, "settings/agents/memory/forget/")
    refused = client.post(forget, {"target": "mine", "confirm_text": "yes"})
    assert refused.status_code == 422 and "Type “forget”" in refused.text and 'aria-invalid="true"' in refused.text
    assert live_notes(world, id=world.mine_note.id).exists()

    done = client.post(forget, {"target": "mine", "confirm_text": " Forget "}, follow=True)
    assert done.status_code == 200 and "Moved 1 note to the trash" in done.text
    assert not live_notes(world, id=world.mine_note.id).exists()
    assert live_notes(world, id=world.shared_note.id).exists()  # the workspace's notes are not mine alone
    assert "pref.tone" in done.text and "Keep replies short" in done.text  # the trash page lists it


def test_R_MANAGE_4_a_viewer_forgets_their_own_notes_never_someone_elses_bot(world, login):
    memory_save(actor=actor_for(world.viewer, world.ws), key="pref.units", value="Metric units.")
    bot, _ = make_bot(world.ws, world.owner, name="Owner's bot")
    bot_actor = actor_for(bot.account, world.ws)
    memory_save(actor=bot_actor, turn_id=turns.turn_start(actor=bot_actor).id, key="bot.lang",
                value="Answer in English.")
    client = login(world.viewer)
    stolen = client.post(ws_url(world, "settings/agents/memory/forget/"),
                         {"target": f"bot:{bot.id}", "confirm_text": "forget"})
    assert stolen.status_code == 422 and "one of your bots" in stolen.text
    client.post(ws_url(world, "settings/agents/memory/forget/"), {"target": "mine", "confirm_text": "forget"})
    assert not live_notes(world, owner_user_id=world.viewer.pk).exists()
    assert live_notes(world, id=world.mine_note.id).exists()  # the owner's own note stays
    assert live_notes(world, key="bot.lang", bot_id=bot.id).exists()


def test_R_MANAGE_4_restore_one_and_restore_all_from_the_trash(world, login):
    actor = actor_for(world.owner, world.ws)
    memory_save(actor=actor, key="pref.units", value="Metric units.")
    trash.memory_forget(actor=actor, confirm=True)
    client = login(world.owner)
    page = client.get(ws_url(world, "settings/agents/memory/trash/"))
    assert "pref.tone" in page.text and "pref.units" in page.text and "purged in" in page.text
    one = client.post(ws_url(world, f"settings/agents/memory/trash/{world.mine_note.id}/restore/"), follow=True)
    assert "Restored pref.tone." in one.text
    assert live_notes(world, id=world.mine_note.id).exists()
    everything = client.post(ws_url(world, "settings/agents/memory/trash/restore-all/"), follow=True)
    assert "Restored 1 note." in everything.text and "Your trash is empty." in everything.text
    assert live_notes(world, key="pref.units").exists()


def test_R_MANAGE_4_the_trash_of_another_member_is_not_mine_to_restore(world, login):
    trash.memory_forget(actor=actor_for(world.owner, world.ws), confirm=True)
    client = login(world.editor)
    assert "pref.tone" not in client.get(ws_url(world, "settings/agents/memory/trash/")).text
    response = client.post(ws_url(world, f"settings/agents/memory/trash/{world.mine_note.id}/restore/"))
    assert response.status_code == 404
    assert not live_notes(world, id=world.mine_note.id).exists()


# --- History and undo -----------------------------------------------------------------------

def test_R_MANAGE_3_a_notes_history_lists_its_changes_and_undo_brings_the_text_back(world, login):
    from memories.services import memory_update

    actor = actor_for(world.owner, world.ws)
    memory_update(actor=actor, note_id=world.mine_note.id, value="Long replies are fine.")
    client = login(world.owner)
    page = client.get(ws_url(world, f"settings/agents/memory/notes/{world.mine_note.id}/history/"))
    assert page.status_code == 200 and "History of <code>pref.tone</code>" in page.text
    assert "Edited" in page.text and "Keep replies short; no emoji." in page.text and "Long replies are fine." in page.text
    edit = ChangeSet.objects.for_workspace(world.ws).filter(action="edit").get()
    undone = client.post(ws_url(world, f"settings/agents/memory/changes/{edit.id}/undo/"), follow=True)
    assert undone.status_code == 200 and "Undone: 1 note back as before." in undone.text
    assert Note.objects.for_workspace(world.ws).get(id=world.mine_note.id).value == "Keep replies short; no emoji."
    again = client.post(ws_url(world, f"settings/agents/memory/changes/{edit.id}/undo/"),
                        HTTP_REFERER=f"http://testserver{ws_url(world, 'settings/agents/memory/changes/')}",
                        follow=True)
    assert "toast--error" in again.text  # refused (409): back to the history, saying why
    assert Note.objects.for_workspace(world.ws).get(id=world.mine_note.id).value == "Keep replies short; no emoji."


def test_R_MANAGE_3_each_note_on_the_memory_page_links_its_history(world, login):
    page = login(world.owner).get(ws_url(world, "settings/agents/memory/?tab=mine"))
    history = ws_url(world, f"settings/agents/memory/notes/{world.mine_note.id}/history/")
    assert page.status_code == 200 and f'href="{history}"' in page.text


def test_R_MANAGE_3_another_members_mine_note_shows_no_content_in_history_and_its_undo_is_404(world, login):
    history = ws_url(world, f"settings/agents/memory/notes/{world.mine_note.id}/history/")
    assert login(world.editor).get(history).status_code == 404
    admin = login(world.admin)  # an admin reads the whole audit, as the API shows it: never another's content
    for page in (admin.get(history).text, admin.get(ws_url(world, "settings/agents/memory/changes/")).text):
        assert "Keep replies short" not in page and "pref.tone" not in page and "A note you may not read" in page
    save = ChangeSet.objects.for_workspace(world.ws).filter(layer="mine").get()
    viewer = login(world.viewer)
    assert viewer.post(ws_url(world, f"settings/agents/memory/changes/{save.id}/undo/")).status_code == 404
    assert live_notes(world, id=world.mine_note.id).exists()


def test_R_MANAGE_3_a_viewer_sees_the_workspaces_changes_without_undo_and_a_crafted_undo_is_refused(world, login):
    save = ChangeSet.objects.for_workspace(world.ws).filter(layer="workspace").get()
    client = login(world.viewer)
    page = client.get(ws_url(world, "settings/agents/memory/changes/"))
    assert "team.date_format" in page.text and f"undo-{save.id}" not in page.text
    assert client.post(ws_url(world, f"settings/agents/memory/changes/{save.id}/undo/")).status_code == 403
    assert live_notes(world, id=world.shared_note.id).exists()


# --- Bots -----------------------------------------------------------------------------------

def bot_url(world, bot, action: str = "") -> str:
    return ws_url(world, f"settings/agents/bots/{bot.id}/{action}/" if action else "settings/agents/bots/")


def test_R_AGENT_1_the_owner_sets_a_bots_memory_choice_and_save_rule(world, login):
    client = login(world.owner)
    page = client.get(bot_url(world, world.bot))
    assert page.status_code == 200 and "Report bot" in page.text and bot_url(world, world.bot, "edit") in page.text
    client.post(bot_url(world, world.bot, "edit"), {"memory": "own", "memory_save": "always"})
    bot = Bot.objects.get(pk=world.bot.pk)
    assert (bot.memory, bot.memory_save) == ("own", "always")
    client.post(bot_url(world, world.bot, "edit"), {"memory": "none", "memory_save": "use_mine"})
    bot.refresh_from_db()
    assert (bot.memory, bot.memory_save) == ("none", None)
    loose = client.post(bot_url(world, world.bot, "edit"), {"memory": "own", "memory_save": "auto"})
    assert loose.status_code == 422 and "only be stricter" in loose.text
    assert Bot.objects.get(pk=world.bot.pk).memory == "none"


def test_R_AGENT_1_a_member_who_does_not_own_the_bot_sees_no_controls_and_is_refused(world, login):
    client = login(world.editor)
    page = client.get(bot_url(world, world.bot))
    assert "Report bot" in page.text
    for action in ("edit", "rotate-token", "delete"):
        assert bot_url(world, world.bot, action) not in page.text
    assert client.post(bot_url(world, world.bot, "edit"), {"memory": "none"}).status_code == 403
    assert client.post(bot_url(world, world.bot, "rotate-token")).status_code == 403
    assert client.post(bot_url(world, world.bot, "delete"), {"memory": "delete"}).status_code == 403
    bot = Bot.objects.get(pk=world.bot.pk)
    assert bot.memory == "mine_and_own" and bot.deleted_at is None
    assert ApiToken.objects.filter(user=bot.account, revoked_at__isnull=True).count() == 1


def test_issue_17_rotating_a_bots_token_shows_the_new_key_once_and_the_old_one_stops(world, login):
    bot, old_key = make_bot(world.ws, world.owner, name="Rotated")
    assert token_client(old_key).get(url(world.ws)).status_code == 200
    client = login(world.owner)
    answer = client.post(bot_url(world, bot, "rotate-token"))
    assert answer.status_code == 200 and "no-store" in answer["Cache-Control"]
    new_key = answer.text.split('id="new-token-key" type="text" readonly value="')[1].split('"')[0]
    assert new_key and new_key != old_key and "shown this once" in answer.text
    assert token_client(old_key).get(url(world.ws)).status_code == 401
    assert token_client(new_key).get(url(world.ws)).status_code == 200
    assert new_key not in client.get(bot_url(world, bot)).text


def test_R_AGENT_2_delete_a_bot_keeping_exporting_or_deleting_its_notes(world, login):
    client = login(world.owner)
    made = {}
    for choice in ("keep", "export", "delete"):
        bot, key = make_bot(world.ws, world.owner, name=f"Bot {choice}")
        turn = turns.turn_start(actor=actor_for(bot.account, world.ws))
        memory_save(actor=actor_for(bot.account, world.ws), turn_id=turn.id, key=f"bot.{choice}",
                    value="Weekly reports go out on Mondays.")
        made[choice] = bot
    kept = client.post(bot_url(world, made["keep"], "delete"), {"memory": "keep"}, follow=True)
    assert "its notes are kept" in kept.text
    assert live_notes(world, key="bot.keep").exists()
    zipped = client.post(bot_url(world, made["export"], "delete"), {"memory": "export"})
    assert zipped["Content-Type"] == "application/zip"
    assert any("bot" in name for name in zipfile.ZipFile(io.BytesIO(zipped.content)).namelist())
    assert not live_notes(world, key="bot.export").exists()
    gone = client.post(bot_url(world, made["delete"], "delete"), {"memory": "delete"}, follow=True)
    assert "went to the trash" in gone.text
    assert not live_notes(world, key="bot.delete").exists()
    assert Bot.objects.filter(pk__in=[b.pk for b in made.values()], deleted_at__isnull=False).count() == 3
    assert "Bot keep" not in client.get(bot_url(world, made["keep"])).text


def test_a_new_bot_from_the_page_shows_its_token_once_and_a_viewer_may_not_add_one(world, login):
    client = login(world.editor)
    answer = client.post(ws_url(world, "settings/agents/bots/new/"), {"name": "Sales bot", "memory": "own"})
    assert answer.status_code == 200 and "Sales bot is ready" in answer.text and 'id="new-token-key"' in answer.text
    bot = Bot.objects.get(name="Sales bot")
    assert bot.owner_id == world.editor.pk and bot.memory == "own"
    viewer = login(world.viewer)
    assert "Add a bot" not in viewer.get(bot_url(world, bot)).text
    assert viewer.post(ws_url(world, "settings/agents/bots/new/"), {"name": "Sneaky"}).status_code == 403
    assert not Bot.objects.filter(name="Sneaky").exists()


# --- Private chats (R-PRIVATE-1) ------------------------------------------------------------

def start(client, ws, **body):
    response = client.post(url(ws, "turns/"), body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_R_PRIVATE_1_a_private_chat_can_be_turned_back_off_through_the_api(world):
    client = token_client(world.owner)
    assert start(client, world.ws, chat_id="chat-7", private=True)["private"] is True
    assert start(client, world.ws, chat_id="chat-7")["private"] is True  # left out: stays private
    back = start(client, world.ws, chat_id="chat-7", private=False)
    assert back["private"] is False and back["context"].get("off_level") is None
    assert start(client, world.ws, chat_id="chat-7")["private"] is False
    assert not PrivateChat.objects.for_workspace(world.ws).exists()


def test_R_PRIVATE_1_only_the_person_who_made_a_chat_private_turns_it_back_off(world):
    start(token_client(world.owner), world.ws, chat_id="chat-8", private=True)
    other = start(token_client(world.editor), world.ws, chat_id="chat-8", private=False)
    assert other["private"] is True
    assert PrivateChat.objects.for_workspace(world.ws).filter(chat_id="chat-8").exists()


def test_R_PRIVATE_1_the_private_chats_page_switches_a_chat_off_and_on_again(world, login):
    turns.turn_start(actor=actor_for(world.owner, world.ws), chat_id="chat-9", private=True)
    client = login(world.owner)
    page = client.get(ws_url(world, "settings/agents/memory/private-chats/"))
    assert "chat-9" in page.text and 'aria-checked="true"' in page.text
    switch = ws_url(world, "settings/agents/memory/private-chats/switch/")
    off = client.post(switch, {"chat_id": "chat-9", "private": "false"}, HTTP_HX_REQUEST="true")
    assert off.status_code == 200 and 'aria-checked="false"' in off.text and "uses memory again" in off["HX-Trigger"]
    assert not PrivateChat.objects.for_workspace(world.ws).exists()
    on = client.post(switch, {"chat_id": "chat-9", "private": "true"}, HTTP_HX_REQUEST="true")
    assert 'aria-checked="true"' in on.text
    assert PrivateChat.objects.for_workspace(world.ws).filter(chat_id="chat-9", user_id=world.owner.pk).exists()


def test_R_PRIVATE_1_a_member_cannot_switch_off_someone_elses_private_chat(world, login):
    turns.turn_start(actor=actor_for(world.owner, world.ws), chat_id="chat-10", private=True)
    client = login(world.editor)
    assert "chat-10" not in client.get(ws_url(world, "settings/agents/memory/private-chats/")).text
    response = client.post(ws_url(world, "settings/agents/memory/private-chats/switch/"),
                           {"chat_id": "chat-10", "private": "false"})
    assert response.status_code == 404
    assert PrivateChat.objects.for_workspace(world.ws).filter(chat_id="chat-10").exists()


# --- Every new page: strangers get 404 ------------------------------------------------------

def test_R_RBAC_2_a_stranger_gets_404_on_every_new_control(world, login):
    stranger = make_user("stranger@example.com")
    make_workspace(stranger, name="Elsewhere", region="us")
    client = login(stranger)
    for path in ["settings/agents/memory/export/", "settings/agents/memory/forget/",
                 "settings/agents/memory/trash/restore-all/", f"settings/agents/bots/{world.bot.id}/rotate-token/",
                 f"settings/agents/bots/{world.bot.id}/delete/", "settings/agents/memory/private-chats/switch/"]:
        assert client.post(ws_url(world, path), {"confirm_text": "forget", "chat_id": "x"}).status_code == 404, path
    assert ApiToken.objects.filter(user=world.bot.account, revoked_at__isnull=True).count() == 1
    assert Bot.objects.get(pk=world.bot.pk).deleted_at is None


def test_R_RBAC_2_a_bot_of_my_other_workspace_is_404_from_this_ones_bots_page(world, login):
    elsewhere = make_workspace(world.owner, name="Acme US", region="us")
    foreign, _ = make_bot(elsewhere, world.owner, name="US bot")
    client = login(world.owner)
    for action in ("edit", "rotate-token", "delete"):
        assert client.post(bot_url(world, foreign, action), {"memory": "none"}).status_code == 404, action
    assert Bot.objects.get(pk=foreign.pk).deleted_at is None and Bot.objects.get(pk=foreign.pk).memory == "mine_and_own"


def test_htmx_adds_no_inline_style_the_csp_would_refuse(world, login):
    """htmx inserts a <style> for its request indicator unless told not to; the CSP (style-src
    'self') refuses it and logs a violation on every swap. The base template tells it not to."""
    html = login(world.owner).get(ws_url(world, "settings/agents/memory/private-chats/")).text
    config = re.search(r'<meta name="htmx-config" content=\'([^\']+)\'>', html)
    assert config and json.loads(config.group(1))["includeIndicatorStyles"] is False
