"""R-RBAC-1 / R-RBAC-2: the isolation matrix over every workspace endpoint, role and foreign id.

A member of workspace A, whatever their role, never reads, counts or changes anything of
workspace B (in the other region), whatever ids they send: B's URLs answer 404, and B's
object ids under A's URLs answer 404 too. Inside their own workspace, each role gets exactly
the status the capability map gives it.
"""

from __future__ import annotations

import pytest

from memories.models import ChangeSet, Note, Turn
from tables.models import Record, Table
from tests.factories import (
    ALL_DATABASES,
    add_member,
    make_bot,
    make_table,
    make_user,
    make_workspace,
    token_client,
)
from tests.memories.helpers import person_save, start_turn
from workspaces.models import Bot, Membership, Workspace

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

ROLES = ["viewer", "editor", "admin", "owner"]


def _world(region: str, prefix: str) -> dict:
    owner = make_user(f"{prefix}-owner@example.com")
    workspace = make_workspace(owner, name=f"{prefix} space", region=region)
    people = {"owner": owner}
    for role in ROLES[:-1]:
        people[role] = add_member(workspace, f"{prefix}-{role}@example.com", role)
    table = make_table(workspace, owner, rows=[{"name": "Ana Lopez", "email": "ana@example.com", "status": "x"}])
    bot, _ = make_bot(workspace, owner)
    client = token_client(owner)
    note = person_save(client, workspace, key="team.fact", value=f"{prefix} secret-ish fact", layer="workspace").json()
    mine = person_save(client, workspace, key="pref.tone", value=f"{prefix} private tone").json()
    turn = start_turn(client, workspace)
    record = Record.objects.for_workspace(workspace).first()
    change = ChangeSet.objects.for_workspace(workspace).first()
    return {"change": change.id, "ws": workspace, "people": people, "table": table, "bot": bot, "note": note["id"], "mine": mine["id"],
            "turn": turn["id"], "record": record.id, "member": people["viewer"].pk}


def _endpoints(w: dict) -> list[tuple[str, str, dict | None]]:
    ws = f"/api/v1/workspaces/{w['ws'].id}/"
    return [
        ("get", ws, None),
        ("get", ws + "memory-settings/", None),
        ("put", ws + "memory-settings/", {"enabled": False}),
        ("get", ws + "members/", None),
        ("post", ws + "members/", {"email": "nobody@example.com", "role": "viewer"}),
        ("patch", ws + f"members/{w['member']}/", {"role": "editor"}),
        ("delete", ws + f"members/{w['member']}/", None),
        ("get", ws + f"members/{w['member']}/memories/", None),
        ("delete", ws + f"members/{w['member']}/memories/", None),
        ("get", ws + "bots/", None),
        ("post", ws + "bots/", {"name": "intruder"}),
        ("get", ws + f"bots/{w['bot'].id}/", None),
        ("patch", ws + f"bots/{w['bot'].id}/", {"name": "renamed"}),
        ("delete", ws + f"bots/{w['bot'].id}/", None),
        ("get", ws + "tables/", None),
        ("post", ws + "tables/", {"name": "T2", "columns": [{"name": "a", "kind": "text"}]}),
        ("get", ws + f"tables/{w['table'].id}/", None),
        ("get", ws + f"tables/{w['table'].id}/records/", None),
        ("post", ws + f"tables/{w['table'].id}/records/", {"records": [{"name": "X"}]}),
        ("delete", ws + f"tables/{w['table'].id}/records/{w['record']}/", None),
        ("post", ws + "turns/", {"kind": "chat"}),
        ("post", ws + f"turns/{w['turn']}/reads/", {"source": "web", "ref": "x"}),
        ("post", ws + f"turns/{w['turn']}/memory_save/", {"key": "k", "value": "v"}),
        ("post", ws + f"turns/{w['turn']}/memory_search/", {"query": "fact"}),
        ("get", ws + "memories/", None),
        ("post", ws + "memories/", {"key": "k", "value": "v", "layer": "workspace"}),
        ("get", ws + f"memories/{w['note']}/", None),
        ("patch", ws + f"memories/{w['note']}/", {"value": "changed"}),
        ("delete", ws + f"memories/{w['note']}/", None),
        ("post", ws + f"memories/{w['note']}/keep/", None),
        ("get", ws + f"memories/{w['note']}/history/", None),
        ("post", ws + "memories/export/", None),
        ("get", ws + "memories/exports/", None),
        ("post", ws + "memories/forget/", {"confirm": True}),
        ("get", ws + "memories/trash/", None),
        ("post", ws + "memories/trash/restore/", None),
        ("post", ws + f"memories/trash/{w['note']}/restore/", None),
        ("get", ws + "memories/deleted-bots/", None),
        ("get", ws + "changes/", None),
        ("get", ws + f"changes/{w['change']}/", None),
        ("post", ws + f"changes/{w['change']}/undo/", None),
        ("post", ws + f"turns/{w['turn']}/undo/", None),
        ("post", ws + f"turns/{w['turn']}/confirm/", {"note": w["note"]}),
        ("get", ws + f"bots/{w['bot'].id}/export/", None),
    ]


def _snapshot(w: dict) -> tuple:
    ws = w["ws"]
    return (
        sorted(Note.objects.for_workspace(ws).values_list("id", "value", "state", "pinned")),
        Table.objects.for_workspace(ws).count(), Record.objects.for_workspace(ws).count(),
        Turn.objects.for_workspace(ws).filter(tainted=True).count(), ChangeSet.objects.for_workspace(ws).count(),
        sorted(Membership.objects.filter(workspace=ws).values_list("user_id", "role")),
        sorted(Bot.objects.filter(workspace=ws).values_list("name", "deleted_at")),
        Workspace.objects.get(pk=ws.pk).memory_enabled,
    )


def test_R_RBAC_2_no_role_of_workspace_a_reaches_workspace_b_by_its_urls():
    a, b = _world("eu", "a"), _world("us", "b")
    before = _snapshot(b)
    for role, person in a["people"].items():
        client = token_client(person)
        for method, path, payload in _endpoints(b):
            response = getattr(client, method)(path, payload, format="json")
            assert response.status_code == 404, (role, method, path, response.status_code)
            assert "secret-ish" not in response.content.decode() and "private tone" not in response.content.decode()
    assert _snapshot(b) == before


def test_R_RBAC_2_b_ids_under_a_urls_answer_404_and_change_nothing():
    a, b = _world("eu", "a"), _world("us", "b")
    mixed = {**a, "table": b["table"], "bot": b["bot"], "note": b["note"], "turn": b["turn"], "record": b["record"],
             "member": b["member"], "change": b["change"]}
    before = _snapshot(b)
    client = token_client(a["people"]["owner"])
    for method, path, payload in _endpoints(mixed):
        foreign_ids = (b["table"].id, b["bot"].id, b["note"], b["turn"], b["record"], b["member"], b["change"])
        if not any(f"/{x}/" in path for x in foreign_ids):
            continue
        response = getattr(client, method)(path, payload, format="json")
        assert response.status_code == 404, (method, path, response.status_code, response.content[:200])
    assert _snapshot(b) == before


def test_R_RBAC_2_a_bot_of_workspace_a_cannot_reach_b():
    a, b = _world("eu", "a"), _world("us", "b")
    _, key = make_bot(a["ws"], a["people"]["owner"], name="Prowler")
    client = token_client(key)
    before = _snapshot(b)
    for method, path, payload in _endpoints(b):
        assert getattr(client, method)(path, payload, format="json").status_code == 404, (method, path)
    assert _snapshot(b) == before


# Expected status in one's own workspace, by role (viewer, editor, admin, owner).
OWN_MATRIX = {
    ("put", "memory-settings/"): (403, 403, 200, 200),
    ("post", "members/"): (403, 403, 201, 201),
    ("get", "members/{member}/memories/"): (403, 403, 200, 200),
    ("post", "bots/"): (403, 201, 201, 201),
    ("post", "tables/"): (403, 201, 201, 201),
    ("post", "tables/{table}/records/"): (403, 201, 201, 201),
    ("get", "tables/{table}/records/"): (200, 200, 200, 200),
    ("post", "memories/"): (403, 201, 201, 201),  # workspace layer: editors and above
    ("patch", "memories/{note}/"): (403, 200, 200, 200),
    ("get", "memories/{mine}/"): (404, 404, 404, 200),  # the owner's own "mine" note
}
BODIES = {
    "memory-settings/": {"enabled": True},
    "members/": None,
    "bots/": {"name": "bot"},
    "tables/": None,
    "tables/{table}/records/": {"records": [{"name": "Y"}]},
    "memories/": None,
    "memories/{note}/": {"value": "edited by role"},
}


@pytest.mark.parametrize("index, role", list(enumerate(ROLES)))
def test_R_RBAC_1_own_workspace_matrix(index, role):
    w = _world("eu", "a")
    client = token_client(w["people"][role])
    for (method, template), expected in OWN_MATRIX.items():
        path = f"/api/v1/workspaces/{w['ws'].id}/" + template.format(**{**w, "table": w["table"].id})
        if template == "members/":
            make_user(f"new-{role}@example.com")
            payload = {"email": f"new-{role}@example.com", "role": "viewer"}
        elif template == "tables/":
            payload = {"name": f"T-{role}", "columns": [{"name": "a", "kind": "text"}]}
        elif template == "memories/":
            payload = {"key": f"k.{role}", "value": "team fact", "layer": "workspace"}
        else:  # a GET sends no body (its query takes only limit and offset)
            payload = BODIES.get(template) if method != "get" else None
        response = getattr(client, method)(path, payload, format="json")
        assert response.status_code == expected[index], (role, method, template, response.content[:200])
