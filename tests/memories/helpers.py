"""Helpers for memory tests: start turns and save through the API as a client would."""

from __future__ import annotations

from tests.factories import url


def start_turn(client, workspace, **fields) -> dict:
    response = client.post(url(workspace, "turns/"), {"kind": "chat", **fields}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def tool_save(client, workspace, turn_id, **fields):
    return client.post(url(workspace, f"turns/{turn_id}/memory_save/"), fields, format="json")


def tool_search(client, workspace, turn_id, query, **fields):
    return client.post(url(workspace, f"turns/{turn_id}/memory_search/"), {"query": query, **fields}, format="json")


def person_save(client, workspace, **fields):
    return client.post(url(workspace, "memories/"), fields, format="json")


def keep_seen(client, workspace, note_id):
    """Keeps a held note as a person does: look at it, then keep the version seen (R-TAINT-6)."""
    seen = client.get(url(workspace, f"memories/{note_id}/"))
    version = seen.json().get("version") if seen.status_code == 200 else None
    return client.post(url(workspace, f"memories/{note_id}/keep/"), {"version": version}, format="json")


def context_keys(turn: dict) -> set[str]:
    return {n["key"] for n in turn["context"]["notes"]}
