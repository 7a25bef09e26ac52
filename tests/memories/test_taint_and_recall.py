"""Taint-based hold, turns, recall as quoted data, the memory switch (SPEC §5, §6)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memories.models import Turn
from memories.quoting import HEADER, parse_block
from tests.factories import (
    ALL_DATABASES,
    add_member,
    make_bot,
    make_table,
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


def test_done_when_bot_reads_table_saves_held_person_keeps_it_recalled_next_turn(owner, eu_ws):
    """The issue's end-to-end flow: held with the table as source, absent from search, kept, recalled."""
    table = make_table(eu_ws, owner, rows=[{"name": "Ana Lopez", "email": "ana@example.com", "status": "active"}])
    _, bot_key = make_bot(eu_ws, owner, name="Reporter")
    bot = token_client(bot_key)
    turn = start_turn(bot, eu_ws, table=str(table.id))
    read = bot.get(url(eu_ws, f"tables/{table.id}/records/"), HTTP_APPENDA_TURN=turn["id"])
    assert read.status_code == 200
    saved = tool_save(bot, eu_ws, turn["id"], key="customers.churn", value="Churned customers have status churned.",
                      subject={"kind": "table", "id": str(table.id)})
    assert saved.status_code == 201, saved.json()
    assert saved.json()["state"] == "held" and saved.json()["reason"] == "tainted_turn"
    assert saved.json()["show"] == "Waiting for you to keep it"

    person = token_client(owner)
    held = person.get(url(eu_ws, "memories/"), {"state": "held"}).json()["results"]
    assert [n["key"] for n in held] == ["customers.churn"]
    assert held[0]["held_sources"][0]["label"] == "table Customers"
    assert "saved after reading table Customers" == held[0]["held_because"]
    search = tool_search(bot, eu_ws, turn["id"], "churned customers status").json()
    assert search["notes"] == []

    kept = keep_seen(person, eu_ws, held[0]["id"])
    assert kept.status_code == 200 and kept.json()["state"] == "active"
    next_turn = start_turn(bot, eu_ws, table=str(table.id))
    assert "customers.churn" in context_keys(next_turn)
    text = next_turn["context"]["text"]
    assert text.startswith(HEADER)
    assert {"layer": "bot", "key": "customers.churn", "value": "Churned customers have status churned.",
            "subject": {"kind": "table", "id": str(table.id)}} in parse_block(text)


def test_R_TAINT_1_reported_reads_taint_and_R_TAINT_2_held_never_recalled(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    reported = client.post(url(eu_ws, f"turns/{turn['id']}/reads/"), {"source": "web", "ref": "https://example.com"},
                           format="json")
    assert reported.status_code == 201
    saved = tool_save(client, eu_ws, turn["id"], key="pref.color", value="Blue charts please", pin=True).json()
    assert saved["state"] == "held"
    assert "pref.color" not in context_keys(start_turn(client, eu_ws))
    fresh = start_turn(client, eu_ws)
    assert tool_search(client, eu_ws, fresh["id"], "blue charts").json()["notes"] == []


def test_R_TAINT_1_an_untainted_turn_saves_at_once(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    assert tool_save(client, eu_ws, turn["id"], key="pref.units", value="Metric").json()["state"] == "active"


def test_R_TAINT_3_routine_runs_always_hold(owner, eu_ws):
    _, key = make_bot(eu_ws, owner)
    bot = token_client(key)
    turn = start_turn(bot, eu_ws, kind="routine")
    saved = tool_save(bot, eu_ws, turn["id"], key="report.day", value="Reports go out on Mondays.").json()
    assert saved["state"] == "held" and saved["reason"] == "routine_run"


def test_R_TAINT_4_keep_makes_active_and_discard_deletes(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    client.post(url(eu_ws, f"turns/{turn['id']}/reads/"), {"source": "file", "ref": "notes.pdf"}, format="json")
    one = tool_save(client, eu_ws, turn["id"], key="a", value="first fact").json()
    two = tool_save(client, eu_ws, turn["id"], key="b", value="second fact").json()
    assert keep_seen(client, eu_ws, one["id"]).json()["state"] == "active"
    assert client.delete(url(eu_ws, f"memories/{two['id']}/")).status_code == 204
    assert client.get(url(eu_ws, f"memories/{two['id']}/")).status_code == 404
    again = keep_seen(client, eu_ws, one["id"])
    assert again.status_code == 409 and again.json()["code"] == "not_held"


def test_R_TAINT_4_held_notes_expire_and_are_not_listed(owner, eu_ws, settings):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    client.post(url(eu_ws, f"turns/{turn['id']}/reads/"), {"source": "web", "ref": "x"}, format="json")
    held = tool_save(client, eu_ws, turn["id"], key="a", value="a fact").json()
    from memories.models import Note

    Note.objects.for_workspace(eu_ws).filter(id=held["id"]).update(held_until=timezone.now() - timedelta(seconds=1))
    assert client.get(url(eu_ws, "memories/"), {"state": "held"}).json()["results"] == []


def test_R_TAINT_4_a_bot_cannot_keep_its_own_held_note(owner, eu_ws):
    _, key = make_bot(eu_ws, owner)
    bot = token_client(key)
    turn = start_turn(bot, eu_ws, kind="routine")
    held = tool_save(bot, eu_ws, turn["id"], key="a", value="a fact").json()
    response = bot.post(url(eu_ws, f"memories/{held['id']}/keep/"), {"version": held["version"]}, format="json")
    assert response.status_code == 403


def test_R_TAINT_5_a_turn_id_is_refused_for_another_user_workspace_or_bot(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    colleague = add_member(eu_ws, "colleague@example.com", "editor")
    other_ws = make_workspace(owner, name="Other EU", region="eu")
    _, bot_key = make_bot(eu_ws, owner)
    for caller, workspace in ((token_client(colleague), eu_ws), (client, other_ws), (token_client(bot_key), eu_ws)):
        response = tool_save(caller, workspace, turn["id"], key="k", value="v")
        assert response.status_code == 404 and response.json()["code"] == "turn_unknown"


def test_R_TAINT_5_unknown_and_expired_turns_are_refused(owner, eu_ws):
    client = token_client(owner)
    unknown = tool_save(client, eu_ws, "00000000-0000-0000-0000-000000000000", key="k", value="v")
    assert unknown.json()["code"] == "turn_unknown"
    assert tool_save(client, eu_ws, "not-a-uuid", key="k", value="v").json()["code"] == "turn_unknown"
    turn = start_turn(client, eu_ws)
    Turn.objects.for_workspace(eu_ws).filter(id=turn["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert tool_save(client, eu_ws, turn["id"], key="k", value="v").json()["code"] == "turn_unknown"


def test_R_TAINT_5_a_turn_cannot_be_untainted(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    client.post(url(eu_ws, f"turns/{turn['id']}/reads/"), {"source": "tool", "ref": "calc"}, format="json")
    for n in range(3):
        assert tool_save(client, eu_ws, turn["id"], key=f"k{n}", value=f"fact {n}").json()["state"] == "held"


def test_R_RECALL_1_context_has_pinned_mine_rules_pinned_workspace_and_table_notes(owner, eu_ws):
    root = make_user("root@example.com", instance_admin=True)
    token_client(root).post("/api/v1/instance/rules/", {"key": "rule.lang", "value": "Answer in English."},
                            format="json")
    table = make_table(eu_ws, owner)
    colleague = add_member(eu_ws, "colleague@example.com", "editor")
    client = token_client(owner)
    person_save(client, eu_ws, key="pref.pinned", value="Pinned mine", pinned=True)
    person_save(client, eu_ws, key="pref.unpinned", value="Not pinned")
    person_save(client, eu_ws, key="team.pinned", value="Pinned team", layer="workspace", pinned=True)
    person_save(client, eu_ws, key="team.unpinned", value="Unpinned team", layer="workspace")
    person_save(client, eu_ws, key="table.fact", value="Status values are active and churned", layer="workspace",
                subject={"kind": "table", "id": str(table.id)})
    person_save(token_client(colleague), eu_ws, key="their.pinned", value="Someone else's", pinned=True)

    keys = context_keys(start_turn(client, eu_ws, table=str(table.id)))
    assert keys == {"rule.lang", "pref.pinned", "team.pinned", "table.fact"}
    assert context_keys(start_turn(client, eu_ws)) == {"rule.lang", "pref.pinned", "team.pinned"}


def test_R_RECALL_2_budget_leaves_out_and_counts(owner, eu_ws):
    client = token_client(owner)
    for n in range(60):
        person_save(client, eu_ws, key=f"pref.n{n:02d}", value="x" * 60, pinned=True)
    context = start_turn(client, eu_ws)["context"]
    assert len(context["notes"]) <= 40
    assert context["left_out"] == 60 - len(context["notes"])
    assert len(context["text"].encode()) <= 6 * 1024 + 200
    assert f"{context['left_out']} more notes were left out" in context["text"]


def test_R_RECALL_2_rules_are_kept_first(owner, eu_ws):
    root = make_user("root@example.com", instance_admin=True)
    token_client(root).post("/api/v1/instance/rules/", {"key": "rule.one", "value": "Be kind."}, format="json")
    client = token_client(owner)
    for n in range(45):
        person_save(client, eu_ws, key=f"pref.n{n:02d}", value="y" * 900, pinned=True)
    context = start_turn(client, eu_ws)["context"]
    assert "rule.one" in {n["key"] for n in context["notes"]}
    assert context["left_out"] > 0


def test_R_RECALL_3_search_ranks_readable_active_notes(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="pref.tone", value="Keep replies short, no emoji.")
    person_save(client, eu_ws, key="orders.amount", value="Amounts are in cents.", layer="workspace")
    colleague = add_member(eu_ws, "c@example.com", "editor")
    person_save(token_client(colleague), eu_ws, key="their.tone", value="Replies long and detailed.")
    turn = start_turn(client, eu_ws)
    result = tool_search(client, eu_ws, turn["id"], "how long should replies be").json()
    keys = [n["key"] for n in result["notes"]]
    assert keys and keys[0] == "pref.tone" and "their.tone" not in keys
    assert parse_block(result["text"])[0]["key"] == "pref.tone"


def test_R_RECALL_5_switch_off_means_one_line_and_tools_refuse_then_everything_is_back(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="pref.tone", value="Short.", pinned=True)
    client.put(url(eu_ws, "memory-settings/"), {"enabled": False}, format="json")
    turn = start_turn(client, eu_ws)
    context = turn["context"]
    assert context["memory"] == "off" and context["notes"] == [] and "\n" not in context["text"]
    assert "workspace" in context["text"]
    for response in (tool_save(client, eu_ws, turn["id"], key="k", value="v"),
                     tool_search(client, eu_ws, turn["id"], "tone")):
        assert response.status_code == 403
        assert response.json()["code"] == "memory_off" and response.json()["level"] == "workspace"
    client.put(url(eu_ws, "memory-settings/"), {"enabled": True}, format="json")
    assert context_keys(start_turn(client, eu_ws)) == {"pref.tone"}


def test_R_RECALL_5_the_person_switch_is_named_when_it_is_the_one_off(owner, eu_ws):
    client = token_client(owner)
    assert client.put("/api/v1/me/memory-settings/", {"enabled": False}, format="json").status_code == 200
    turn = start_turn(client, eu_ws)
    assert turn["context"]["off_level"] == "user"
    assert tool_save(client, eu_ws, turn["id"], key="k", value="v").json()["level"] == "user"


def test_R_RECALL_6_tool_schemas_tell_the_agent_what_not_to_save():
    from rest_framework.test import APIClient

    tools = APIClient().get("/api/v1/tools/").json()
    assert [t["name"] for t in tools] == ["appenda_memory_save", "appenda_memory_search", "appenda_memory_undo"]
    save = tools[0]
    assert "secrets" in save["description"] and "instructions" in save["description"]
    assert "one person" in save["description"]
    assert save["input_schema"]["required"] == ["key", "value"]


def test_R_MANAGE_3_edit_keep_and_delete_answer_with_an_undo_handle(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    client.post(url(eu_ws, f"turns/{turn['id']}/reads/"), {"source": "web", "ref": "x"}, format="json")
    held = tool_save(client, eu_ws, turn["id"], key="a", value="a fact").json()
    kept = keep_seen(client, eu_ws, held["id"]).json()
    edited = client.patch(url(eu_ws, f"memories/{held['id']}/"), {"value": "a better fact"}, format="json").json()
    deleted = client.delete(url(eu_ws, f"memories/{held['id']}/"))
    assert kept["undo"]["url"] != edited["undo"]["url"]
    assert deleted.status_code == 204 and deleted["Appenda-Undo"].endswith("/undo/")
    assert client.post(deleted["Appenda-Undo"]).status_code == 200
    assert client.get(url(eu_ws, f"memories/{held['id']}/")).json()["value"] == "a better fact"
