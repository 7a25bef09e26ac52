"""Saving notes: validation, refusals, updates, the per-turn limit, what the chat shows (SPEC §4)."""

from __future__ import annotations

import pytest

from memories.models import ChangeSet, Note
from tests.factories import ALL_DATABASES, add_member, make_table, token_client
from tests.memories.helpers import person_save, start_turn, tool_save

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)


def notes_in(workspace):
    return Note.objects.for_workspace(workspace)


def test_R_SAVE_6_a_turn_save_says_saved_to_memory_with_an_undo_handle(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    response = tool_save(client, eu_ws, turn["id"], key="pref.tone", value="Keep replies short.")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["state"] == "active" and body["show"] == "Saved to memory"
    assert body["undo"]["url"].endswith(f"/changes/{body['undo']['change']}/undo/")
    for field in ("id", "key", "value", "layer", "state", "pinned", "subject", "held_reason"):
        assert field in body["note"]
    assert body["note"]["layer"] == "mine"


@pytest.mark.parametrize(
    "fields, code",
    [
        ({"key": "pref tone!", "value": "x"}, "invalid_key"),
        ({"key": "k", "value": "x" * 1024}, "too_large"),
        ({"key": "k", "value": "   "}, "empty_note"),
        ({"key": "k", "value": "bell \x07 ring"}, "invalid_text"),
        ({"key": "k", "value": "v", "layer": "galaxy"}, "invalid_layer"),
        ({"key": "k", "value": "v", "subject": {"kind": "table", "id": "00000000-0000-0000-0000-000000000000"}},
         "subject_not_found"),
        ({"key": "k", "value": "v", "subject": {"kind": "spaceship", "id": "1"}}, "invalid_subject"),
    ],
)
def test_R_SAVE_1_bad_saves_are_400_with_a_code_and_nothing_is_written(owner, eu_ws, fields, code):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    response = tool_save(client, eu_ws, turn["id"], **fields)
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == code and len(response.json()["detail"]) > 10
    assert not notes_in(eu_ws).exists()
    assert not ChangeSet.objects.for_workspace(eu_ws).exists()


def test_R_SAVE_1_size_counts_utf8_bytes_of_key_and_value(owner, eu_ws):
    client = token_client(owner)
    value = "é" * 510  # 1020 bytes
    assert person_save(client, eu_ws, key="k", value=value).status_code == 201
    too_big = person_save(client, eu_ws, key="kk", value=value + "éé")
    assert too_big.status_code == 400 and too_big.json()["code"] == "too_large"


def test_R_SAVE_1_layer_permission_viewer_cannot_write_workspace_layer(eu_ws):
    viewer = add_member(eu_ws, "viewer@example.com", "viewer")
    client = token_client(viewer)
    refused = person_save(client, eu_ws, key="team.rule", value="Use UTC.", layer="workspace")
    assert refused.status_code == 403 and refused.json()["code"] == "layer_not_allowed"
    own = person_save(client, eu_ws, key="pref.units", value="Metric units.", layer="mine")
    assert own.status_code == 201


def test_R_SAVE_4_same_key_same_layer_updates_in_one_change_set(owner, eu_ws):
    client = token_client(owner)
    first = person_save(client, eu_ws, key="pref.tone", value="Short replies.").json()
    second = person_save(client, eu_ws, key="pref.tone", value="Very short replies.")
    assert second.status_code == 200 and second.json()["id"] == first["id"]
    assert notes_in(eu_ws).get().value == "Very short replies."
    actions = sorted(ChangeSet.objects.for_workspace(eu_ws).values_list("action", flat=True))
    assert actions == ["save", "update"]


def test_R_SAVE_4_same_key_in_another_layer_is_another_note(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="tone", value="Mine.")
    person_save(client, eu_ws, key="tone", value="Team.", layer="workspace")
    assert notes_in(eu_ws).count() == 2


def test_R_SAVE_5_the_sixth_save_in_a_turn_is_refused(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    for n in range(5):
        assert tool_save(client, eu_ws, turn["id"], key=f"k{n}", value=f"fact {n}").status_code == 201
    sixth = tool_save(client, eu_ws, turn["id"], key="k5", value="fact 5")
    assert sixth.status_code == 409 and sixth.json()["code"] == "turn_save_limit"
    assert notes_in(eu_ws).count() == 5


def test_R_SAVE_7_invisible_characters_are_stripped_and_reported(owner, eu_ws):
    client = token_client(owner)
    response = person_save(client, eu_ws, key="pref.tone", value="Short\u200b replies \u202eplease")
    assert response.status_code == 201
    assert response.json()["note"]["value"] == "Short replies please"
    assert response.json()["stripped"] == ["bidi_control", "zero_width"]


def test_R_SAVE_2_a_secret_is_refused_from_the_tool_and_from_a_person(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    secret = "AKIA" + "IOSFODNN7EXAMPLQ"
    for response in (
        tool_save(client, eu_ws, turn["id"], key="aws", value=f"deploy key is {secret}"),
        person_save(client, eu_ws, key="aws", value=f"deploy key is {secret}", layer="workspace"),
    ):
        assert response.status_code == 400 and response.json()["code"] == "secret_detected"
        assert secret not in response.content.decode()
    assert not notes_in(eu_ws).exists()


def test_bots_cannot_bypass_turns_by_saving_through_the_notes_endpoint(owner, eu_ws):
    from tests.factories import make_bot

    _, key = make_bot(eu_ws, owner)
    response = person_save(token_client(key), eu_ws, key="k", value="v")
    assert response.status_code == 403 and response.json()["code"] == "person_required"


def test_subject_table_must_be_in_this_workspace(owner, eu_ws, us_ws):
    foreign = make_table(us_ws, owner)
    response = person_save(token_client(owner), eu_ws, key="k", value="v",
                           subject={"kind": "table", "id": str(foreign.id)})
    assert response.status_code == 400 and response.json()["code"] == "subject_not_found"


def test_R_SAVE_2_a_secret_split_between_key_and_value_is_refused(owner, eu_ws):
    response = person_save(token_client(owner), eu_ws, key="wifi.password", value="hunter2")
    assert response.status_code == 400 and response.json()["code"] == "secret_detected"
    assert "hunter2" not in response.content.decode()


def test_R_SAVE_2_refusal_says_where_without_echoing(owner, eu_ws):
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    response = person_save(token_client(owner), eu_ws, key="ci.token", value=f"CI uses {token} for pushes")
    body = response.json()
    assert body["code"] == "secret_detected" and token not in response.content.decode()
    place = body["secrets"][0]
    assert place["field"] == "value" and f"CI uses {token} for pushes"[place["start"]:place["end"]] == token
