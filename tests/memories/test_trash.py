"""Forget everything, the trash, purge, and held notes that expire (R-MANAGE-4, R-TAINT-4)."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from freezegun import freeze_time

from memories.models import ChangeSet, Note
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

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)


def notes(workspace):
    return Note.objects.for_workspace(workspace)


def forget(client, workspace, **fields):
    return client.post(url(workspace, "memories/forget/"), {"confirm": True, **fields}, format="json")


def search_keys(client, workspace, query) -> set[str]:
    turn = start_turn(client, workspace)
    return {n["key"] for n in tool_search(client, workspace, turn["id"], query).json()["notes"]}


def listed_keys(client, workspace, **filters) -> set[str]:
    return {n["key"] for n in client.get(url(workspace, "memories/"), filters).json()["results"]}


def run(command: str) -> list[str]:
    out = io.StringIO()
    call_command(command, stdout=out)
    return out.getvalue().strip().splitlines()


def held_save(client, workspace, **fields) -> dict:
    turn = start_turn(client, workspace)
    client.post(url(workspace, f"turns/{turn['id']}/reads/"), {"source": "web", "ref": "https://example.com"},
                format="json")
    saved = tool_save(client, workspace, turn["id"], **fields).json()
    assert saved["state"] == "held", saved
    return saved


# --- forget everything ----------------------------------------------------------------------

@pytest.mark.parametrize("confirm", [None, False, "yes", 1])
def test_R_MANAGE_4_forget_needs_an_explicit_confirmation(owner, eu_ws, confirm):
    client = token_client(owner)
    person_save(client, eu_ws, key="a", value="a fact")
    data = {} if confirm is None else {"confirm": confirm}
    response = client.post(url(eu_ws, "memories/forget/"), data, format="json")
    assert response.status_code == 400 and response.json()["code"] == "confirmation_required"
    assert "restore them from the trash" in response.json()["detail"]
    assert notes(eu_ws).get().trashed_at is None


def test_R_MANAGE_4_forget_then_nothing_recalled_then_restore_then_recalled_again(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="pref.units", value="Metric units in every report", pinned=True)
    person_save(client, eu_ws, key="pref.tone", value="Keep replies short", pinned=True)
    person_save(client, eu_ws, key="team.fact", value="We ship on Tuesdays", layer="workspace", pinned=True)
    assert {"pref.units", "pref.tone"} <= context_keys(start_turn(client, eu_ws))

    response = forget(client, eu_ws)
    assert response.status_code == 200 and response.json()["trashed"] == 2
    assert response.json()["change"]["action"] == "forget"
    assert context_keys(start_turn(client, eu_ws)) == {"team.fact"}  # only the caller's own notes go
    # Search ranks by meaning too, so other notes may come back; the forgotten ones never do.
    forgotten = {"pref.units", "pref.tone"}
    assert not forgotten & search_keys(client, eu_ws, "metric units reports")
    assert not forgotten & search_keys(client, eu_ws, "replies short")
    assert listed_keys(client, eu_ws) == {"team.fact"}
    assert not forgotten & listed_keys(client, eu_ws, q="metric units")
    trash = client.get(url(eu_ws, "memories/trash/")).json()
    assert set(trash) == {"count", "next", "previous", "results"}  # the one page shape
    assert trash["count"] == 2 and {n["key"] for n in trash["results"]} == {"pref.units", "pref.tone"}
    assert len(client.get(url(eu_ws, "memories/trash/"), {"limit": 1}).json()["results"]) == 1
    assert all(n["trashed_at"] and n["purge_at"] for n in trash["results"])

    restored = client.post(url(eu_ws, "memories/trash/restore/"))
    assert restored.status_code == 200 and restored.json()["restored"] == 2
    assert {"pref.units", "pref.tone", "team.fact"} == context_keys(start_turn(client, eu_ws))
    assert "pref.units" in search_keys(client, eu_ws, "metric units reports")
    assert client.get(url(eu_ws, "memories/trash/")).json()["count"] == 0
    actions = [c.action for c in ChangeSet.objects.for_workspace(eu_ws).order_by("created_at")]
    assert actions[-2:] == ["forget", "restore"]


def test_R_MANAGE_4_forget_touches_only_the_callers_notes(owner, eu_ws):
    colleague = add_member(eu_ws, "colleague@example.com", "editor")
    person_save(token_client(colleague), eu_ws, key="theirs", value="their fact")
    client = token_client(owner)
    person_save(client, eu_ws, key="mine", value="my fact")
    assert forget(client, eu_ws).json()["trashed"] == 1
    assert notes(eu_ws).get(key="theirs").trashed_at is None
    assert token_client(colleague).get(url(eu_ws, "memories/trash/")).json()["count"] == 0
    assert forget(client, eu_ws).json() == {"trashed": 0, "change": None}


def test_R_MANAGE_4_forget_a_bots_notes(owner, eu_ws):
    bot, bot_key = make_bot(eu_ws, owner)
    client = token_client(owner)
    person_save(client, eu_ws, key="bot.fact", value="Reports go out on Mondays", layer="bot", bot=str(bot.id),
                pinned=True)
    person_save(client, eu_ws, key="mine", value="my fact")
    bot_client = token_client(bot_key)
    assert "bot.fact" in context_keys(start_turn(bot_client, eu_ws))
    assert forget(client, eu_ws, layer="bot").json()["code"] == "bot_not_found"
    response = forget(client, eu_ws, layer="bot", bot=str(bot.id))
    assert response.status_code == 200 and response.json()["trashed"] == 1
    assert "bot.fact" not in context_keys(start_turn(bot_client, eu_ws))
    assert notes(eu_ws).get(key="mine").trashed_at is None
    restore = client.post(url(eu_ws, f"memories/trash/{notes(eu_ws).get(key='bot.fact').id}/restore/"))
    assert restore.status_code == 200 and restore.json()["key"] == "bot.fact"
    assert "bot.fact" in context_keys(start_turn(bot_client, eu_ws))


def test_R_MANAGE_4_forget_is_for_layers_that_are_yours_alone_and_for_people(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="team.fact", value="We ship on Tuesdays", layer="workspace")
    response = forget(client, eu_ws, layer="workspace")
    assert response.status_code == 403 and response.json()["code"] == "layer_not_allowed"
    colleague = add_member(eu_ws, "colleague@example.com", "editor")
    their_bot, _ = make_bot(eu_ws, colleague)
    assert forget(client, eu_ws, layer="bot", bot=str(their_bot.id)).json()["code"] == "bot_not_found"
    _, bot_key = make_bot(eu_ws, owner)
    bot_response = forget(token_client(bot_key), eu_ws)
    assert bot_response.status_code == 403 and bot_response.json()["code"] == "person_required"
    assert token_client(bot_key).get(url(eu_ws, "memories/trash/")).status_code == 403
    assert not notes(eu_ws).filter(trashed_at__isnull=False).exists()


# --- restore --------------------------------------------------------------------------------

def test_R_MANAGE_4_restore_one_note(owner, eu_ws):
    client = token_client(owner)
    kept = person_save(client, eu_ws, key="a", value="first fact").json()
    person_save(client, eu_ws, key="b", value="second fact")
    forget(client, eu_ws)
    response = client.post(url(eu_ws, f"memories/trash/{kept['id']}/restore/"))
    assert response.status_code == 200 and response.json()["id"] == kept["id"]
    assert response.json()["change"]["action"] == "restore"
    assert listed_keys(client, eu_ws) == {"a"}
    again = client.post(url(eu_ws, f"memories/trash/{kept['id']}/restore/"))
    assert again.status_code == 404


def test_R_MANAGE_4_restore_conflict_when_the_key_exists_again(owner, eu_ws):
    client = token_client(owner)
    old = person_save(client, eu_ws, key="pref.units", value="Metric units").json()
    person_save(client, eu_ws, key="other", value="another fact")
    forget(client, eu_ws)
    person_save(client, eu_ws, key="pref.units", value="Imperial units")
    one = client.post(url(eu_ws, f"memories/trash/{old['id']}/restore/"))
    assert one.status_code == 409 and one.json()["code"] == "restore_conflict"
    assert "Delete the current note first" in one.json()["detail"] and one.json()["keys"] == ["pref.units"]
    every = client.post(url(eu_ws, "memories/trash/restore/"))
    assert every.status_code == 409 and every.json()["code"] == "restore_conflict"
    assert client.get(url(eu_ws, "memories/trash/")).json()["count"] == 2  # all or nothing
    assert notes(eu_ws).get(key="pref.units", trashed_at__isnull=True).value == "Imperial units"


def test_R_MANAGE_4_a_restored_held_note_gets_a_fresh_time_to_be_kept(owner, eu_ws):
    client = token_client(owner)
    held_save(client, eu_ws, key="pref.color", value="Blue charts please")
    forget(client, eu_ws)
    with freeze_time(timezone.now() + timedelta(days=2)):
        assert client.post(url(eu_ws, "memories/trash/restore/")).json()["restored"] == 1
        assert listed_keys(client, eu_ws, state="held") == {"pref.color"}
        assert "pref.color" not in context_keys(start_turn(client, eu_ws))  # still held, still not recalled


# --- purge_trash ----------------------------------------------------------------------------

def test_R_MANAGE_4_purge_trash_deletes_entries_older_than_30_days_in_every_region(owner, eu_ws, us_ws):
    client = token_client(owner)
    with freeze_time("2026-01-01 12:00:00"):
        for workspace in (eu_ws, us_ws):
            person_save(client, workspace, key="old", value="an old fact")
            forget(client, workspace)
    with freeze_time("2026-01-25 12:00:00"):
        person_save(client, eu_ws, key="recent", value="a recent fact")
        person_save(client, eu_ws, key="active", value="an active fact")
        client.post(url(eu_ws, "memories/forget/"), {"confirm": True}, format="json")
        client.post(url(eu_ws, f"memories/trash/{notes(eu_ws).get(key='active').id}/restore/"))
    with freeze_time("2026-02-05 12:00:00"):
        lines = run("purge_trash")
        assert "eu: 1 note(s) purged from the trash (older than 30 days)" in lines
        assert "us: 1 note(s) purged from the trash (older than 30 days)" in lines
        assert lines[-1] == "Purged 2 note(s) in 2 region(s)."
        assert sorted(notes(eu_ws).values_list("key", flat=True)) == ["active", "recent"]
        assert not notes(us_ws).exists()
        purge = client.get(url(eu_ws, "changes/"), {"action": "purge"})
        entry = purge.json()["results"][0]
        assert entry["blind"] and entry["note_count"] == 1 and entry["actor"] == {"user": None, "bot": None}
        assert "an old fact" not in purge.content.decode()
        assert client.post(url(eu_ws, f"changes/{entry['id']}/undo/")).json()["code"] == "cannot_undo"
        assert run("purge_trash")[-1] == "Purged 0 note(s) in 2 region(s)."


# --- held notes expire ----------------------------------------------------------------------

def test_R_TAINT_4_held_notes_expire_at_read_time_with_no_command_run(owner, eu_ws):
    client = token_client(owner)
    saved_at = timezone.now()
    held_save(client, eu_ws, key="pref.color", value="Blue charts please")
    with freeze_time(saved_at + timedelta(hours=23)):
        assert listed_keys(client, eu_ws, state="held") == {"pref.color"}
        assert "pref.color" not in context_keys(start_turn(client, eu_ws))
    with freeze_time(saved_at + timedelta(hours=24, minutes=1)):
        assert listed_keys(client, eu_ws, state="held") == set()
        assert listed_keys(client, eu_ws) == set()
        assert search_keys(client, eu_ws, "blue charts") == set()
        assert "pref.color" not in context_keys(start_turn(client, eu_ws))
        held_id = notes(eu_ws).get().id
        assert keep_seen(client, eu_ws, held_id).status_code == 404  # too late to keep
    assert notes(eu_ws).count() == 1  # still stored until expire_held clears it out


def test_R_TAINT_4_the_held_time_is_configurable(owner, eu_ws, settings):
    settings.APPENDA = {**settings.APPENDA, "HELD_TTL": timedelta(hours=2)}
    client = token_client(owner)
    saved_at = timezone.now()
    held_save(client, eu_ws, key="pref.color", value="Blue charts please")
    with freeze_time(saved_at + timedelta(hours=3)):
        assert listed_keys(client, eu_ws, state="held") == set()


def test_R_TAINT_4_expire_held_deletes_expired_held_notes_in_every_region_each_audited(owner, eu_ws, us_ws):
    client = token_client(owner)
    saved_at = timezone.now()
    for workspace in (eu_ws, us_ws):
        held_save(client, workspace, key="waiting", value="a waiting fact")
    kept = held_save(client, eu_ws, key="kept", value="a kept fact")
    assert keep_seen(client, eu_ws, kept["id"]).status_code == 200
    with freeze_time(saved_at + timedelta(hours=20)):
        held_save(client, eu_ws, key="fresh", value="a fresh fact")
    with freeze_time(saved_at + timedelta(hours=25)):
        lines = run("expire_held")
        assert "eu: 1 held note(s) expired" in lines and "us: 1 held note(s) expired" in lines
        assert lines[-1] == "Expired 2 held note(s) in 2 region(s)."
        assert sorted(notes(eu_ws).values_list("key", flat=True)) == ["fresh", "kept"]
        assert not notes(us_ws).exists()
        for workspace in (eu_ws, us_ws):
            expiry = ChangeSet.objects.for_workspace(workspace).get(action="expire")
            change = expiry.changes.get()
            assert change.before["key"] == "waiting" and change.after is None
        assert run("expire_held")[-1] == "Expired 0 held note(s) in 2 region(s)."


# --- tenancy --------------------------------------------------------------------------------

def test_R_RBAC_2_a_member_of_A_gets_404_on_B_trash_ids(owner, eu_ws, us_ws):
    client = token_client(owner)
    other_eu = make_workspace(owner, name="Other EU", region="eu")
    stranger = make_user("stranger@example.com")
    make_workspace(stranger, name="Stranger's", region="eu")
    for workspace in (other_eu, us_ws):
        note = person_save(client, workspace, key="a", value="a fact").json()
        forget(client, workspace)
        assert client.post(url(eu_ws, f"memories/trash/{note['id']}/restore/")).status_code == 404
        assert client.get(url(eu_ws, "memories/trash/")).json()["count"] == 0
        assert client.post(url(eu_ws, "memories/trash/restore/")).json()["restored"] == 0
        outsider = token_client(stranger)
        assert outsider.post(url(workspace, f"memories/trash/{note['id']}/restore/")).status_code == 404
        assert outsider.post(url(workspace, "memories/forget/"), {"confirm": True}, format="json").status_code == 404
        assert notes(workspace).get().trashed_at is not None
