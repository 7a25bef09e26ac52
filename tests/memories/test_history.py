"""History of notes: undo of every kind of change, the audit of changes, audit completeness
(R-MANAGE-3, R-RBAC-3 in the audit, R-TAINT-4 expiry audited)."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import URLResolver, get_resolver
from django.utils import timezone
from freezegun import freeze_time

from memories.audit import note_snapshot
from memories.models import ChangeSet, Note, NoteChange
from tests.factories import (
    ALL_DATABASES,
    add_member,
    make_bot,
    make_user,
    make_workspace,
    token_client,
    url,
)
from tests.memories.helpers import (
    context_keys,
    keep_seen,
    person_save,
    start_turn,
    tool_save,
    tool_search,
)
from workspaces.models import MemorySettings

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)


def notes(workspace):
    return Note.objects.for_workspace(workspace)


def undo(client, workspace, change_id):
    return client.post(url(workspace, f"changes/{change_id}/undo/"))


def changes(client, workspace, **filters) -> dict:
    response = client.get(url(workspace, "changes/"), filters)
    assert response.status_code == 200, response.json()
    return response.json()


def last_change(client, workspace, **filters) -> dict:
    return changes(client, workspace, **filters)["results"][0]


def taint(client, workspace, turn_id) -> None:
    response = client.post(url(workspace, f"turns/{turn_id}/reads/"), {"source": "web", "ref": "https://example.com"},
                           format="json")
    assert response.status_code == 201


def held_save(client, workspace, **fields) -> dict:
    turn = start_turn(client, workspace)
    taint(client, workspace, turn["id"])
    saved = tool_save(client, workspace, turn["id"], **fields).json()
    assert saved["state"] == "held", saved
    return saved


def search_keys(client, workspace, query) -> set[str]:
    turn = start_turn(client, workspace)
    return {n["key"] for n in tool_search(client, workspace, turn["id"], query).json()["notes"]}


def set_save_mode(user, mode: str) -> None:
    MemorySettings.objects.update_or_create(user=user, defaults={"save_mode": mode})


# --- undo of every kind of change -----------------------------------------------------------

def test_R_MANAGE_3_undo_of_a_save_deletes_the_note_through_the_save_responses_handle(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    saved = tool_save(client, eu_ws, turn["id"], key="pref.tone", value="Keep replies short.").json()
    response = client.post(saved["undo"]["url"])
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["action"] == "undo" and body["undo_of"] == saved["undo"]["change"]
    assert body["notes"] == [{"id": saved["id"], "before": body["notes"][0]["before"], "after": None}]
    assert not notes(eu_ws).exists()
    assert "pref.tone" not in context_keys(start_turn(client, eu_ws))
    original = ChangeSet.objects.for_workspace(eu_ws).get(id=saved["undo"]["change"])
    assert original.undone_at is not None


def test_R_MANAGE_3_undo_of_an_update_restores_the_previous_text(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="pref.units", value="Metric units")
    second = person_save(client, eu_ws, key="pref.units", value="Imperial units").json()
    assert second["created"] is False
    assert undo(client, eu_ws, second["undo"]["change"]).status_code == 200
    assert notes(eu_ws).get().value == "Metric units"
    assert search_keys(client, eu_ws, "metric units") == {"pref.units"}


def test_R_MANAGE_3_undo_of_an_edit_restores_the_previous_text(owner, eu_ws):
    client = token_client(owner)
    note = person_save(client, eu_ws, key="pref.units", value="Metric units").json()
    assert client.patch(url(eu_ws, f"memories/{note['id']}/"), {"value": "Imperial units"},
                        format="json").status_code == 200
    edit = last_change(client, eu_ws, note=note["id"], action="edit")
    assert edit["notes"][0]["before"]["value"] == "Metric units"
    assert edit["notes"][0]["after"]["value"] == "Imperial units"
    assert undo(client, eu_ws, edit["id"]).status_code == 200
    assert client.get(url(eu_ws, f"memories/{note['id']}/")).json()["value"] == "Metric units"


@pytest.mark.parametrize("start, action", [(False, "pin"), (True, "unpin")])
def test_R_MANAGE_3_undo_of_pin_and_unpin(owner, eu_ws, start, action):
    client = token_client(owner)
    note = person_save(client, eu_ws, key="pref.units", value="Metric units", pinned=start).json()
    client.patch(url(eu_ws, f"memories/{note['id']}/"), {"pinned": not start}, format="json")
    change = last_change(client, eu_ws, action=action)
    assert undo(client, eu_ws, change["id"]).status_code == 200
    assert notes(eu_ws).get().pinned is start


def test_R_MANAGE_3_undo_of_a_keep_puts_the_note_back_to_held(owner, eu_ws):
    client = token_client(owner)
    held = held_save(client, eu_ws, key="pref.color", value="Blue charts please", pin=True)
    assert keep_seen(client, eu_ws, held["id"]).status_code == 200
    assert "pref.color" in context_keys(start_turn(client, eu_ws))
    keep = last_change(client, eu_ws, action="keep")
    assert undo(client, eu_ws, keep["id"]).status_code == 200
    note = notes(eu_ws).get()
    assert note.state == "held" and note.held_until > timezone.now()
    assert "pref.color" not in context_keys(start_turn(client, eu_ws))
    assert search_keys(client, eu_ws, "blue charts") == set()


def test_R_MANAGE_3_undo_of_a_keep_that_replaced_an_active_note_restores_both(owner, eu_ws):
    client = token_client(owner)
    active = person_save(client, eu_ws, key="pref.color", value="Green charts please").json()
    held = held_save(client, eu_ws, key="pref.color", value="Blue charts please")
    kept = keep_seen(client, eu_ws, held["id"]).json()
    assert kept["id"] == active["id"] and kept["value"] == "Blue charts please"
    keep = last_change(client, eu_ws, action="keep")
    assert keep["note_count"] == 2
    assert undo(client, eu_ws, keep["id"]).status_code == 200
    by_state = {n.state: n for n in notes(eu_ws)}
    assert by_state["active"].value == "Green charts please" and str(by_state["active"].id) == active["id"]
    assert by_state["held"].value == "Blue charts please" and str(by_state["held"].id) == held["id"]


def test_R_MANAGE_3_undo_of_a_delete_recreates_the_note_with_the_same_id(owner, eu_ws):
    client = token_client(owner)
    note = person_save(client, eu_ws, key="report.day", value="Reports go out on Mondays", pinned=True).json()
    assert client.delete(url(eu_ws, f"memories/{note['id']}/")).status_code == 204
    delete = last_change(client, eu_ws, action="delete")
    assert undo(client, eu_ws, delete["id"]).status_code == 200
    again = client.get(url(eu_ws, f"memories/{note['id']}/")).json()
    assert (again["key"], again["value"], again["pinned"]) == ("report.day", "Reports go out on Mondays", True)
    assert "report.day" in context_keys(start_turn(client, eu_ws))
    assert search_keys(client, eu_ws, "reports mondays") == {"report.day"}


def test_R_MANAGE_3_undo_of_a_hold_removes_the_held_note(owner, eu_ws):
    client = token_client(owner)
    held = held_save(client, eu_ws, key="pref.color", value="Blue charts please")
    assert undo(client, eu_ws, held["undo"]["change"]).status_code == 200
    assert client.get(url(eu_ws, "memories/"), {"state": "held"}).json()["results"] == []


def test_R_MANAGE_3_undo_of_forget_and_of_restore(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="a", value="first fact")
    person_save(client, eu_ws, key="b", value="second fact")
    forget = client.post(url(eu_ws, "memories/forget/"), {"confirm": True}, format="json").json()
    assert forget["trashed"] == 2
    assert undo(client, eu_ws, forget["change"]["id"]).status_code == 200
    assert notes(eu_ws).filter(trashed_at__isnull=True).count() == 2
    client.post(url(eu_ws, "memories/forget/"), {"confirm": True}, format="json")
    restored = client.post(url(eu_ws, "memories/trash/restore/")).json()
    assert restored["restored"] == 2
    assert undo(client, eu_ws, restored["changes"][0]["id"]).status_code == 200
    assert notes(eu_ws).filter(trashed_at__isnull=False).count() == 2
    assert client.get(url(eu_ws, "memories/trash/")).json()["count"] == 2


def test_R_MANAGE_3_undo_of_a_bot_deletion_trash_brings_its_notes_back(owner, eu_ws):
    bot, _ = make_bot(eu_ws, owner)
    client = token_client(owner)
    person_save(client, eu_ws, key="bot.fact", value="The bot reports weekly", layer="bot", bot=str(bot.id))
    assert client.delete(url(eu_ws, f"bots/{bot.id}/") + "?memory=delete").status_code == 204
    trash = last_change(client, eu_ws, action="trash")
    assert undo(client, eu_ws, trash["id"]).status_code == 200
    assert notes(eu_ws).get().trashed_at is None


def test_R_MANAGE_3_undo_of_an_undo_brings_the_change_back_and_can_be_undone_again(owner, eu_ws):
    client = token_client(owner)
    saved = person_save(client, eu_ws, key="a", value="a fact").json()
    first_undo = undo(client, eu_ws, saved["undo"]["change"]).json()
    redo = undo(client, eu_ws, first_undo["id"])
    assert redo.status_code == 200
    assert notes(eu_ws).get().value == "a fact"
    assert undo(client, eu_ws, saved["undo"]["change"]).status_code == 200
    assert not notes(eu_ws).exists()


def test_R_MANAGE_3_a_change_already_undone_cannot_be_undone_twice(owner, eu_ws):
    client = token_client(owner)
    saved = person_save(client, eu_ws, key="a", value="a fact").json()
    assert undo(client, eu_ws, saved["undo"]["change"]).status_code == 200
    again = undo(client, eu_ws, saved["undo"]["change"])
    assert again.status_code == 409 and again.json()["code"] == "cannot_undo"
    assert "already undone" in again.json()["detail"]


# --- refusals -------------------------------------------------------------------------------

def test_R_MANAGE_3_undo_conflict_when_a_later_change_touched_the_note(owner, eu_ws):
    client = token_client(owner)
    saved = person_save(client, eu_ws, key="pref.units", value="Metric units").json()
    client.patch(url(eu_ws, f"memories/{saved['id']}/"), {"value": "Imperial units"}, format="json")
    response = undo(client, eu_ws, saved["undo"]["change"])
    assert response.status_code == 409 and response.json()["code"] == "undo_conflict"
    assert "later change" in response.json()["detail"]
    assert notes(eu_ws).get().value == "Imperial units"  # no silent overwrite
    assert ChangeSet.objects.for_workspace(eu_ws).get(id=saved["undo"]["change"]).undone_at is None


def test_R_MANAGE_3_undo_conflict_when_the_key_was_saved_again_after_a_delete(owner, eu_ws):
    client = token_client(owner)
    note = person_save(client, eu_ws, key="pref.units", value="Metric units").json()
    client.delete(url(eu_ws, f"memories/{note['id']}/"))
    delete = last_change(client, eu_ws, action="delete")
    person_save(client, eu_ws, key="pref.units", value="Imperial units")
    response = undo(client, eu_ws, delete["id"])
    assert response.status_code == 409 and response.json()["code"] == "undo_conflict"
    assert notes(eu_ws).get().value == "Imperial units"


def test_R_RBAC_3_a_blind_delete_cannot_be_undone_its_content_was_never_kept(owner, eu_ws):
    member = add_member(eu_ws, "member@example.com", "editor")
    person_save(token_client(member), eu_ws, key="private.note", value="my private reminder")
    client = token_client(owner)
    deleted = client.delete(url(eu_ws, f"members/{member.pk}/memories/")).json()
    response = undo(client, eu_ws, deleted["change"])
    assert response.status_code == 409 and response.json()["code"] == "cannot_undo"
    assert "never kept" in response.json()["detail"]
    member_try = undo(token_client(member), eu_ws, deleted["change"])
    assert member_try.status_code == 409 and member_try.json()["code"] == "cannot_undo"


def test_R_MANAGE_3_undo_is_403_for_a_visible_change_in_a_layer_the_caller_may_not_change(owner, eu_ws):
    viewer = add_member(eu_ws, "viewer@example.com", "viewer")
    saved = person_save(token_client(owner), eu_ws, key="team.fact", value="We ship on Tuesdays",
                        layer="workspace").json()
    response = undo(token_client(viewer), eu_ws, saved["undo"]["change"])
    assert response.status_code == 403
    assert notes(eu_ws).count() == 1


def test_R_MANAGE_3_undo_of_another_members_private_change_is_404(owner, eu_ws):
    member = add_member(eu_ws, "member@example.com", "editor")
    saved = person_save(token_client(member), eu_ws, key="private.note", value="my private reminder").json()
    response = undo(token_client(owner), eu_ws, saved["undo"]["change"])
    # The owner may read the audit entry (audit:read_all) without content, and still may not change it.
    assert response.status_code == 403
    editor = add_member(eu_ws, "editor@example.com", "editor")
    assert undo(token_client(editor), eu_ws, saved["undo"]["change"]).status_code == 404
    assert token_client(editor).get(url(eu_ws, f"changes/{saved['undo']['change']}/")).status_code == 404


def memory_undo(client, workspace, turn_id, change_id):
    return client.post(url(workspace, f"turns/{turn_id}/memory_undo/"), {"change": change_id}, format="json")


def test_R_AGENT_3_a_bot_undoes_its_own_save_with_the_memory_undo_tool_only(owner, eu_ws):
    _, key = make_bot(eu_ws, owner)
    bot = token_client(key)
    turn = start_turn(bot, eu_ws)
    saved = tool_save(bot, eu_ws, turn["id"], key="report.day", value="Reports go out on Mondays").json()
    assert saved["state"] == "active" and saved["layer"] == "bot"
    refused = undo(bot, eu_ws, saved["undo"]["change"])  # the people's Undo is not the bot's
    assert refused.status_code == 403 and refused.json()["code"] == "person_required"
    later = start_turn(bot, eu_ws)  # an earlier turn's change is still the bot's own
    done = memory_undo(bot, eu_ws, later["id"], saved["undo"]["change"])
    assert done.status_code == 200 and done.json()["state"] == "done"
    assert done.json()["notes"] == [{"id": saved["id"], "state": "deleted"}]
    assert "Mondays" not in done.content.decode()  # ids and states, never text
    assert not notes(eu_ws).exists()


def test_R_MANAGE_3_under_always_confirm_the_models_undo_waits_for_the_person(owner, eu_ws):
    _, key = make_bot(eu_ws, owner)
    bot = token_client(key)
    turn = start_turn(bot, eu_ws)
    saved = tool_save(bot, eu_ws, turn["id"], key="report.day", value="Reports go out on Mondays").json()
    set_save_mode(owner, "always")
    refused = memory_undo(bot, eu_ws, turn["id"], saved["undo"]["change"])
    assert refused.status_code == 403 and refused.json()["code"] == "undo_needs_person"
    assert "Always confirm" in refused.json()["detail"] and "Undo" in refused.json()["detail"]
    refused_turn = bot.post(url(eu_ws, f"turns/{turn['id']}/undo/"))
    assert refused_turn.status_code == 403 and refused_turn.json()["code"] == "undo_needs_person"
    assert notes(eu_ws).count() == 1
    assert undo(token_client(owner), eu_ws, saved["undo"]["change"]).status_code == 200  # the person's Undo
    assert not notes(eu_ws).exists()


def test_R_MANAGE_3_an_undo_made_from_a_turn_is_the_agents_and_obeys_always_confirm(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    saved = tool_save(client, eu_ws, turn["id"], key="a", value="a fact").json()
    set_save_mode(owner, "always")
    by_header = client.post(url(eu_ws, f"changes/{saved['undo']['change']}/undo/"), HTTP_APPENDA_TURN=turn["id"])
    assert by_header.status_code == 403 and by_header.json()["code"] == "undo_needs_person"
    set_save_mode(owner, "auto")
    unknown = client.post(url(eu_ws, f"changes/{saved['undo']['change']}/undo/"), {"turn": "not-a-turn"},
                          format="json")
    assert unknown.status_code == 404 and unknown.json()["code"] == "turn_unknown"
    done = client.post(url(eu_ws, f"changes/{saved['undo']['change']}/undo/"), {"turn": turn["id"]}, format="json")
    assert done.status_code == 200 and done.json()["turn"] == turn["id"]
    assert not notes(eu_ws).exists()


def test_R_MODE_2_the_models_undo_asks_the_one_policy_function_memory_off_refuses_it(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    saved = tool_save(client, eu_ws, turn["id"], key="a", value="a fact").json()
    MemorySettings.objects.update_or_create(user=owner, defaults={"enabled": False})
    refused = client.post(url(eu_ws, f"turns/{turn['id']}/undo/"))
    assert refused.status_code == 403 and refused.json()["code"] == "memory_off"
    set_save_mode(owner, "never")
    MemorySettings.objects.filter(user=owner).update(enabled=True)
    refused = client.post(saved["undo"]["url"], {"turn": turn["id"]}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "saving_off"
    assert client.post(saved["undo"]["url"]).status_code == 200  # the person's own Undo


MESSAGING = {"platform": "slack", "chat_kind": "direct", "conversation": "C1"}


def _messaging_save(client, workspace, sender: dict) -> tuple[dict, dict]:
    turn = start_turn(client, workspace, kind="messaging", channel={**MESSAGING, "sender": sender})
    saved = tool_save(client, workspace, turn["id"], key="a", value="a fact").json()
    confirmed = client.post(url(workspace, f"turns/{turn['id']}/confirm/"), {"note": saved["id"]}, format="json")
    assert confirmed.status_code == 200, confirmed.json()
    return turn, confirmed.json()


def test_R_MSG_1_undo_from_a_messaging_chat_only_by_a_paired_sender_within_30_minutes(owner, eu_ws):
    client = token_client(owner)
    paired = {"id": "U1", "paired": True, "can_confirm": True}
    _, confirmed = _messaging_save(client, eu_ws, paired)
    stranger_turn = start_turn(client, eu_ws, kind="messaging",
                               channel={**MESSAGING, "sender": {"id": "U9", "paired": False}})
    refused = client.post(confirmed["undo"]["url"], {"turn": stranger_turn["id"]}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "sender_not_paired"
    later_turn = start_turn(client, eu_ws, kind="messaging", channel={**MESSAGING, "sender": paired})
    with freeze_time(timezone.now() + timedelta(minutes=31)):
        late = client.post(confirmed["undo"]["url"], {"turn": later_turn["id"]}, format="json")
        assert late.status_code == 409 and late.json()["code"] == "undo_window_passed"
    assert client.post(confirmed["undo"]["url"], {"turn": later_turn["id"]}, format="json").status_code == 200
    assert notes(eu_ws).get().state == "held"  # the confirmation is taken back; the save still waits


# --- undo everything this turn saved -------------------------------------------------------

def test_R_MANAGE_3_undo_everything_this_turn_saved(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="pref.units", value="Metric units")
    turn = start_turn(client, eu_ws)
    tool_save(client, eu_ws, turn["id"], key="pref.tone", value="Keep replies short")
    tool_save(client, eu_ws, turn["id"], key="pref.units", value="Imperial units")
    tool_save(client, eu_ws, turn["id"], key="pref.tone", value="Keep replies very short")
    response = client.post(url(eu_ws, f"turns/{turn['id']}/undo/"))
    assert response.status_code == 200, response.json()
    assert response.json()["count"] == 3
    assert {n.key: n.value for n in notes(eu_ws)} == {"pref.units": "Metric units"}
    again = client.post(url(eu_ws, f"turns/{turn['id']}/undo/")).json()
    assert again["count"] == 0


def test_R_MANAGE_3_turn_undo_is_all_or_nothing(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    tool_save(client, eu_ws, turn["id"], key="a", value="first fact")
    second = tool_save(client, eu_ws, turn["id"], key="b", value="second fact").json()
    client.patch(url(eu_ws, f"memories/{second['id']}/"), {"value": "edited by hand"}, format="json")
    response = client.post(url(eu_ws, f"turns/{turn['id']}/undo/"))
    assert response.status_code == 409 and response.json()["code"] == "undo_conflict"
    assert {n.key: n.value for n in notes(eu_ws)} == {"a": "first fact", "b": "edited by hand"}
    assert not ChangeSet.objects.for_workspace(eu_ws).filter(action="undo").exists()


def test_R_MANAGE_3_turn_undo_under_always_confirm_is_refused_for_the_turn(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    tool_save(client, eu_ws, turn["id"], key="a", value="first fact")
    set_save_mode(owner, "always")
    response = client.post(url(eu_ws, f"turns/{turn['id']}/undo/"))
    assert response.status_code == 403 and response.json()["code"] == "undo_needs_person"


def test_R_TAINT_5_turn_undo_with_another_callers_turn_is_turn_unknown(owner, eu_ws):
    turn = start_turn(token_client(owner), eu_ws)
    colleague = add_member(eu_ws, "colleague@example.com", "editor")
    response = token_client(colleague).post(url(eu_ws, f"turns/{turn['id']}/undo/"))
    assert response.status_code == 404 and response.json()["code"] == "turn_unknown"


# --- the audit of changes -------------------------------------------------------------------

def test_R_MANAGE_3_audit_lists_who_what_when_why_only_what_the_caller_may_see(owner, eu_ws):
    member = add_member(eu_ws, "member@example.com", "editor")
    viewer = add_member(eu_ws, "viewer@example.com", "viewer")
    person_save(token_client(member), eu_ws, key="private.note", value="my private reminder")
    person_save(token_client(member), eu_ws, key="team.fact", value="We ship on Tuesdays", layer="workspace")
    seen_by_viewer = changes(token_client(viewer), eu_ws)
    assert seen_by_viewer["count"] == 1
    entry = seen_by_viewer["results"][0]
    assert entry["action"] == "save" and entry["actor"]["user"] == member.pk and entry["layer"] == "workspace"
    assert entry["notes"][0]["after"]["value"] == "We ship on Tuesdays" and entry["created_at"]
    assert entry["undo"]["url"].endswith(f"/changes/{entry['id']}/undo/")
    assert "my private reminder" not in token_client(viewer).get(url(eu_ws, "changes/")).content.decode()
    assert changes(token_client(member), eu_ws)["count"] == 2
    # An admin (audit:read_all) sees that the member saved a private note, never its content.
    as_owner = token_client(owner).get(url(eu_ws, "changes/"))
    assert as_owner.json()["count"] == 2 and "my private reminder" not in as_owner.content.decode()
    private = next(e for e in as_owner.json()["results"] if e["layer"] == "mine")
    assert "notes" not in private and private["actor"]["user"] == member.pk


def test_R_RBAC_3_audit_of_a_blind_delete_shows_who_how_many_of_whom_never_content(owner, eu_ws):
    member = add_member(eu_ws, "member@example.com", "editor")
    for key in ("a", "b"):
        person_save(token_client(member), eu_ws, key=f"private.{key}", value=f"my private reminder {key}")
    token_client(owner).delete(url(eu_ws, f"members/{member.pk}/memories/"))
    for caller in (owner, member):
        response = token_client(caller).get(url(eu_ws, "changes/"), {"action": "blind_delete"})
        entry = response.json()["results"][0]
        assert entry["blind"] is True and entry["actor"]["user"] == owner.pk
        assert entry["target_user"] == member.pk and entry["note_count"] == 2
        assert all(set(n) == {"id", "size"} for n in entry["notes"]) and entry["undo"] is None
        assert "my private reminder" not in response.content.decode() and "private.a" not in response.content.decode()


def test_R_MANAGE_3_audit_filters_and_pagination(owner, eu_ws):
    client = token_client(owner)
    _, bot_key = make_bot(eu_ws, owner)
    bot = token_client(bot_key)
    with freeze_time("2026-03-01 09:00:00"):
        first = person_save(client, eu_ws, key="a", value="first fact").json()
    with freeze_time("2026-03-02 09:00:00"):
        person_save(client, eu_ws, key="team.fact", value="We ship on Tuesdays", layer="workspace")
        client.patch(url(eu_ws, f"memories/{first['id']}/"), {"value": "first fact, edited"}, format="json")
        bot_turn = start_turn(bot, eu_ws)
        tool_save(bot, eu_ws, bot_turn["id"], key="bot.fact", value="Reports go out on Mondays")
    with freeze_time("2026-03-02 10:00:00"):
        assert changes(client, eu_ws)["count"] == 4
        assert {e["layer"] for e in changes(client, eu_ws, layer="workspace")["results"]} == {"workspace"}
        assert [e["action"] for e in changes(client, eu_ws, note=first["id"])["results"]] == ["edit", "save"]
        by_bot = changes(client, eu_ws, actor=changes(client, eu_ws, layer="bot")["results"][0]["actor"]["bot"])
        assert [e["layer"] for e in by_bot["results"]] == ["bot"]
        assert changes(client, eu_ws, actor=str(owner.pk))["count"] == 4  # a bot acts for its owner
        assert [e["action"] for e in changes(client, eu_ws, action="edit")["results"]] == ["edit"]
        assert changes(client, eu_ws, since="2026-03-02")["count"] == 3
        assert changes(client, eu_ws, until="2026-03-02")["count"] == 1
        assert changes(client, eu_ws, since="2026-03-01T08:00:00Z", until="2026-03-01T10:00:00Z")["count"] == 1
        page = changes(client, eu_ws, limit=3, offset=0)
        rest = changes(client, eu_ws, limit=3, offset=3)
        assert set(page) == {"count", "next", "previous", "results"}  # the one page shape
        assert page["count"] == 4 and len(page["results"]) == 3 and len(rest["results"]) == 1
        assert page["previous"] is None and "offset=3" in page["next"] and rest["next"] is None
        assert not {e["id"] for e in page["results"]} & {e["id"] for e in rest["results"]}
        blank = client.get(url(eu_ws, "changes/"), {"layer": ""})  # as every list: a blank enum is not a layer
        assert blank.status_code == 400 and blank.json()["code"] == "invalid_layer"
    for bad in ({"since": "yesterday"}, {"layer": "galaxy"}, {"note": "x"}, {"actor": "someone"}, {"limit": 0},
                {"limit": "many"}, {"offset": -1}, {"limit": 501}):
        response = client.get(url(eu_ws, "changes/"), bad)
        assert response.status_code == 400 and response.json()["code"] in ("invalid_filter", "invalid_layer")


def test_R_MANAGE_3_audit_visibility_fails_closed_on_a_note_condition_it_cannot_restate():
    from django.db.models import Q

    from memories.history import _scope_filter

    assert _scope_filter(Q(layer="mine", owner_user_id=7) | Q(bot_id__in=["b"])) == (
        Q(layer="mine", scope="user:7") | Q(scope__in=["bot:b"]))
    with pytest.raises(NotImplementedError):
        _scope_filter(Q(layer="mine") | Q(subject_id="t1"))


def test_R_MANAGE_3_a_notes_history_lists_its_change_sets_even_after_delete(owner, eu_ws):
    client = token_client(owner)
    note = person_save(client, eu_ws, key="a", value="first fact").json()
    person_save(client, eu_ws, key="b", value="another fact")
    client.patch(url(eu_ws, f"memories/{note['id']}/"), {"pinned": True}, format="json")
    client.delete(url(eu_ws, f"memories/{note['id']}/"))
    response = client.get(url(eu_ws, f"memories/{note['id']}/history/"))
    assert response.status_code == 200
    assert set(response.json()) == {"count", "next", "previous", "results"} and response.json()["count"] == 3
    assert [e["action"] for e in response.json()["results"]] == ["delete", "pin", "save"]
    newest = client.get(url(eu_ws, f"memories/{note['id']}/history/"), {"limit": 1}).json()
    assert newest["count"] == 3 and [e["action"] for e in newest["results"]] == ["delete"] and newest["next"]
    colleague = add_member(eu_ws, "colleague@example.com", "editor")
    assert token_client(colleague).get(url(eu_ws, f"memories/{note['id']}/history/")).status_code == 404
    assert client.get(url(eu_ws, "memories/not-an-id/history/")).status_code == 404


def test_R_TAINT_4_expiry_of_held_notes_is_in_the_audit(owner, eu_ws):
    client = token_client(owner)
    held = held_save(client, eu_ws, key="a", value="a fact")
    with freeze_time(timezone.now() + timedelta(hours=25)):
        call_command("expire_held", stdout=io.StringIO())
        entry = last_change(client, eu_ws, note=held["id"])
    assert entry["action"] == "expire" and entry["actor"] == {"user": None, "bot": None}
    assert entry["notes"][0]["before"]["value"] == "a fact" and entry["notes"][0]["after"] is None


# --- tenancy --------------------------------------------------------------------------------

def test_R_RBAC_2_a_member_of_A_gets_404_on_B_change_ids_and_turns(owner, eu_ws, us_ws):
    outsider = make_user_with_workspace("outsider@example.com")
    other_eu = make_workspace(owner, name="Other EU", region="eu")
    client = token_client(owner)
    for workspace in (other_eu, us_ws):
        saved = person_save(client, workspace, key="a", value="a fact").json()
        change = saved["undo"]["change"]
        # The owner is a member of all three; from eu_ws, B's ids do not exist.
        assert client.post(url(eu_ws, f"changes/{change}/undo/")).status_code == 404
        assert client.get(url(eu_ws, f"changes/{change}/")).status_code == 404
        assert client.get(url(eu_ws, f"memories/{saved['id']}/history/")).status_code == 404
        assert changes(client, eu_ws, note=saved["id"])["count"] == 0
        # A member of another workspace only: B itself is not found.
        stranger = token_client(outsider)
        assert stranger.post(url(workspace, f"changes/{change}/undo/")).status_code == 404
        assert stranger.get(url(workspace, "changes/")).status_code == 404
        assert notes(workspace).count() == 1
    turn = start_turn(client, us_ws)
    assert client.post(url(eu_ws, f"turns/{turn['id']}/undo/")).json()["code"] == "turn_unknown"


def make_user_with_workspace(email: str):
    user = make_user(email)
    make_workspace(user, name="Elsewhere", region="eu")
    return user


# --- audit completeness ---------------------------------------------------------------------
#
# Every write endpoint of a workspace, found in the URLconf, is driven with a valid request; the
# test fails when one changes a note (create, edit, state, trash, delete) that no new change set
# names. An endpoint nobody taught this test to drive fails too: add a driver below.

WORKSPACE_PREFIX = "api/v1/workspaces/<str:ws>/"
WRITE_METHODS = ("post", "put", "patch", "delete")


def _routes(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), getattr(pattern.callback, "view_class", None)


def workspace_write_endpoints() -> list[tuple[str, str]]:
    endpoints = set()
    for route, view_class in _routes(get_resolver().url_patterns):
        if view_class is not None and route.startswith(WORKSPACE_PREFIX):
            rest = route[len(WORKSPACE_PREFIX):]
            endpoints |= {(rest, method.upper()) for method in WRITE_METHODS if hasattr(view_class, method)}
    return sorted(endpoints)


class Drive:
    """Prepares what an endpoint needs; ``call`` returns the request, made after the audit is measured."""

    def __init__(self, owner, workspace):
        self.owner, self.workspace = owner, workspace
        self.client = token_client(owner)

    def call(self, method: str, path: str, data=None, **extra):
        client = extra.pop("client", self.client)
        return lambda: getattr(client, method)(url(self.workspace, path), data, **({"format": "json"} | extra))

    def saved(self, **fields) -> dict:
        return person_save(self.client, self.workspace, **{"key": "a", "value": "a fact", **fields}).json()

    def forgotten(self) -> dict:
        note = self.saved()
        self.client.post(url(self.workspace, "memories/forget/"), {"confirm": True}, format="json")
        return note

    def member_with_notes(self):
        member = add_member(self.workspace, "member@example.com", "editor")
        person_save(token_client(member), self.workspace, key="private.note", value="my private reminder")
        return member

    def bot_with_notes(self):
        bot, _ = make_bot(self.workspace, self.owner)
        self.saved(layer="bot", bot=str(bot.id))
        return bot

    def turn(self, **fields) -> dict:
        return start_turn(self.client, self.workspace, **fields)

    def table(self):
        from tests.factories import make_table

        return make_table(self.workspace, self.owner, rows=[{"name": "Ana Lopez", "email": "ana@example.com"}])


def _drive_confirm(d: Drive):
    channel = {"platform": "slack", "chat_kind": "direct", "conversation": "C1",
               "sender": {"id": "U1", "paired": True, "can_confirm": True}}
    turn = d.turn(kind="messaging", channel=channel)
    held = tool_save(d.client, d.workspace, turn["id"], key="a", value="a fact").json()
    assert held["state"] == "held", held
    return d.call("post", f"turns/{turn['id']}/confirm/", {"note": held["id"]})


def _drive_import(d: Drive):
    from memories.export import export_zip_bytes

    other = make_workspace(d.owner, name="Source", region="eu")
    person_save(d.client, other, key="imported", value="an imported fact")
    archive = export_zip_bytes(workspace=other, notes=list(Note.objects.for_workspace(other)))
    return lambda: d.client.generic("POST", url(d.workspace, "memories/import/"), archive,
                                    content_type="application/zip")


def _drive_record_delete(d: Drive):
    from tables.models import Record

    table = d.table()
    return d.call("delete", f"tables/{table.id}/records/{Record.objects.for_workspace(d.workspace).first().id}/")


def _drive_member_add(d: Drive):
    make_user("new@example.com")
    return d.call("post", "members/", {"email": "new@example.com", "role": "viewer"})


def _drive_turn_undo(d: Drive):
    turn = d.turn()
    tool_save(d.client, d.workspace, turn["id"], key="a", value="a fact")
    return d.call("post", f"turns/{turn['id']}/undo/")


def _drive_memory_undo(d: Drive):
    turn = d.turn()
    saved = tool_save(d.client, d.workspace, turn["id"], key="a", value="a fact").json()
    return d.call("post", f"turns/{turn['id']}/memory_undo/", {"change": saved["undo"]["change"]})


def _drive_forget(d: Drive):
    d.saved()
    return d.call("post", "memories/forget/", {"confirm": True})


def _drive_restore_all(d: Drive):
    d.forgotten()
    return d.call("post", "memories/trash/restore/")


def _drive_keep(d: Drive):
    held = held_save(d.client, d.workspace, key="a", value="a fact")
    return d.call("post", f"memories/{held['id']}/keep/", {"version": held["version"]})


def _drive_member_delete(d: Drive):
    member = d.member_with_notes()
    return d.call("delete", f"members/{member.pk}/")


# (route, method) → a function that prepares and returns the request.
DRIVERS = {
    ("memory-settings/", "PUT"): lambda d: d.call("put", "memory-settings/", {"enabled": False}),
    ("memory-settings/", "PATCH"): lambda d: d.call("patch", "memory-settings/", {"enabled": False}),
    ("members/", "POST"): _drive_member_add,
    ("members/<str:user>/", "PATCH"): lambda d: d.call("patch", f"members/{d.member_with_notes().pk}/",
                                                       {"role": "viewer"}),
    ("members/<str:user>/", "DELETE"): _drive_member_delete,
    ("members/<str:user>/memories/", "DELETE"): lambda d: d.call("delete",
                                                                 f"members/{d.member_with_notes().pk}/memories/"),
    ("bots/", "POST"): lambda d: d.call("post", "bots/", {"name": "Another"}),
    ("bots/import/", "POST"): lambda d: d.call("post", "bots/import/", {"name": "Imported", "memory": "own"}),
    ("bots/<str:bot>/", "PUT"): lambda d: d.call("put", f"bots/{d.bot_with_notes().id}/", {"name": "Renamed"}),
    ("bots/<str:bot>/", "PATCH"): lambda d: d.call("patch", f"bots/{d.bot_with_notes().id}/", {"name": "Renamed"}),
    ("bots/<str:bot>/", "DELETE"): lambda d: d.call("delete", f"bots/{d.bot_with_notes().id}/?memory=delete"),
    ("bots/<str:bot>/token/", "POST"): lambda d: d.call("post", f"bots/{d.bot_with_notes().id}/token/"),
    ("tables/", "POST"): lambda d: d.call("post", "tables/", {"name": "T", "columns": [{"name": "a", "kind": "text"}]}),
    ("tables/<str:table>/records/", "POST"): lambda d: d.call("post", f"tables/{d.table().id}/records/",
                                                             {"records": [{"status": "active"}]}),
    ("tables/<str:table>/records/import/", "POST"): lambda d: d.call(
        "post", f"tables/{d.table().id}/records/import/", "status\nactive\n", format=None, content_type="text/csv"),
    ("tables/<str:table>/records/<str:record>/", "DELETE"): _drive_record_delete,
    ("turns/", "POST"): lambda d: d.call("post", "turns/", {"kind": "chat"}),
    ("turns/<str:turn>/reads/", "POST"): lambda d: d.call("post", f"turns/{d.turn()['id']}/reads/",
                                                          {"source": "web", "ref": "https://example.com"}),
    ("turns/<str:turn>/memory_save/", "POST"): lambda d: d.call("post", f"turns/{d.turn()['id']}/memory_save/",
                                                                {"key": "a", "value": "a fact"}),
    ("turns/<str:turn>/memory_search/", "POST"): lambda d: d.call("post", f"turns/{d.turn()['id']}/memory_search/",
                                                                  {"query": "fact"}),
    ("turns/<str:turn>/confirm/", "POST"): _drive_confirm,
    ("turns/<str:turn>/undo/", "POST"): _drive_turn_undo,
    ("turns/<str:turn>/memory_undo/", "POST"): _drive_memory_undo,
    ("memories/", "POST"): lambda d: d.call("post", "memories/", {"key": "a", "value": "a fact"}),
    ("memories/import/", "POST"): _drive_import,
    ("memories/export/", "POST"): lambda d: d.call("post", "memories/export/"),
    ("memories/forget/", "POST"): _drive_forget,
    ("memories/trash/restore/", "POST"): _drive_restore_all,
    ("memories/trash/<str:note>/restore/", "POST"): lambda d: d.call(
        "post", f"memories/trash/{d.forgotten()['id']}/restore/"),
    ("memories/<str:note>/", "PATCH"): lambda d: d.call("patch", f"memories/{d.saved()['id']}/",
                                                        {"value": "edited", "pinned": True}),
    ("memories/<str:note>/", "DELETE"): lambda d: d.call("delete", f"memories/{d.saved()['id']}/"),
    ("memories/<str:note>/keep/", "POST"): _drive_keep,
    ("changes/<str:change>/undo/", "POST"): lambda d: d.call("post", f"changes/{d.saved()['undo']['change']}/undo/"),
}
# Endpoints that write notes: their driver must change at least one, or it proves nothing.
NOTE_WRITERS = {
    ("members/<str:user>/memories/", "DELETE"), ("bots/<str:bot>/", "DELETE"),
    ("turns/<str:turn>/memory_save/", "POST"),
    ("turns/<str:turn>/confirm/", "POST"), ("turns/<str:turn>/undo/", "POST"),
    ("turns/<str:turn>/memory_undo/", "POST"), ("memories/", "POST"),
    ("memories/import/", "POST"), ("memories/forget/", "POST"), ("memories/trash/restore/", "POST"),
    ("memories/trash/<str:note>/restore/", "POST"), ("memories/<str:note>/", "PATCH"),
    ("memories/<str:note>/", "DELETE"), ("memories/<str:note>/keep/", "POST"), ("changes/<str:change>/undo/", "POST"),
}


def _all_notes_state(workspace) -> dict:
    return {n.id: (note_snapshot(n), n.updated_at) for n in notes(workspace)}


def test_R_MANAGE_3_every_workspace_write_endpoint_has_an_audit_driver():
    endpoints = set(workspace_write_endpoints())
    assert ("memories/", "POST") in endpoints and ("turns/<str:turn>/memory_save/", "POST") in endpoints
    missing = endpoints - set(DRIVERS)
    assert not missing, f"Write endpoints with no audit-completeness driver (add one to DRIVERS): {sorted(missing)}"


@pytest.mark.parametrize("endpoint", workspace_write_endpoints(), ids="{0[1]} {0[0]}".format)
def test_R_MANAGE_3_every_write_endpoint_leaves_an_audit_entry_for_every_note_it_changes(owner, eu_ws, endpoint):
    if endpoint not in DRIVERS:
        pytest.fail(f"No driver for {endpoint}; add one to DRIVERS.")
    request = DRIVERS[endpoint](Drive(owner, eu_ws))
    before_notes = _all_notes_state(eu_ws)
    before_changes = set(ChangeSet.objects.for_workspace(eu_ws).values_list("id", flat=True))
    response = request()
    assert 200 <= response.status_code < 300, (endpoint, response.status_code, response.content[:300])
    after_notes = _all_notes_state(eu_ws)
    touched = {note_id for note_id in before_notes.keys() | after_notes.keys()
               if before_notes.get(note_id) != after_notes.get(note_id)}
    new_changes = ChangeSet.objects.for_workspace(eu_ws).exclude(id__in=before_changes)
    audited = set(NoteChange.objects.for_workspace(eu_ws).filter(change_set__in=new_changes)
                  .values_list("note_id", flat=True))
    assert touched <= audited, f"{endpoint} changed notes {touched - audited} without an audit entry"
    if endpoint in NOTE_WRITERS:
        assert touched, f"the driver of {endpoint} changed no note; make it exercise a real write"
