"""R-AGENT-3, R-AGENT-5, R-RBAC-1, R-RBAC-4: the access table over the whole URLconf.

Every API route and method has exactly one row in ``appenda.api.access.ENDPOINTS``; every
kind of caller (each role, a bot's token, an instance admin who is not a member, nobody) gets
what its row says, in the one order 401 → 404 → 403 → 400, whatever the body; and no answer
to a bot's token carries a note's text other than through its turns.
"""

from __future__ import annotations

import re

import pytest
from django.urls import URLResolver, get_resolver
from rest_framework.test import APIClient

from appenda.api.access import ENDPOINTS, PUBLIC
from memories.models import ChangeSet, Note
from tests.factories import (
    ALL_DATABASES,
    add_member,
    make_bot,
    make_table,
    make_user,
    make_workspace,
    token_client,
)
from tests.memories.helpers import person_save, start_turn, tool_save

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

API_PREFIX = "api/v1/"
METHODS = ("get", "post", "put", "patch", "delete")
HELD_TEXT = "held marker zebra-held-1337"
MINE_TEXT = "mine marker zebra-mine-4242"
WORKSPACE_TEXT = "workspace marker zebra-team-0007"


def _routes(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern.name, getattr(pattern.callback, "view_class", None)


def api_endpoints() -> list[tuple[str, str, str]]:
    """(route under /api/v1/, URL name, METHOD) for every method a view defines."""
    found = []
    for route, name, view_class in _routes(get_resolver().url_patterns):
        if not route.startswith(API_PREFIX) or view_class is None:
            continue
        for method in METHODS:
            if hasattr(view_class, method):
                found.append((route[len(API_PREFIX):], name, method.upper()))
    return sorted(found)


def test_R_RBAC_4_every_route_and_method_has_exactly_one_access_row():
    served = {(name, method) for _, name, method in api_endpoints()}
    rows = {(name, method) for name, methods in ENDPOINTS.items() for method in methods}
    assert served - rows == set(), "routes without an access row (they answer 403 no_access_rule)"
    assert rows - served == set(), "access rows for routes that do not exist"
    outside = [name for route, name, _ in api_endpoints() if not route.startswith("workspaces/<str:ws>/")]
    assert all(ENDPOINTS[name][m].capability is None for name in outside for m in ENDPOINTS[name])


# --- one world, every caller ---------------------------------------------------------------

def _world() -> dict:
    owner = make_user("owner@example.com")
    ws = make_workspace(owner, region="eu")
    people = {"owner": owner, **{role: add_member(ws, f"{role}@example.com", role)
                                 for role in ("admin", "editor", "viewer")}}
    people["instance_admin"] = make_user("root@example.com", instance_admin=True)
    bot, bot_key = make_bot(ws, owner, name="Helper")
    table = make_table(ws, owner, rows=[{"name": "Ana Lopez", "email": "ana@example.com", "status": "x"}])
    owner_client = token_client(owner)
    team = person_save(owner_client, ws, key="team.fact", value=WORKSPACE_TEXT, layer="workspace").json()
    mine = person_save(owner_client, ws, key="pref.tone", value=MINE_TEXT).json()
    trashed = person_save(owner_client, ws, key="old.fact", value="an old fact to trash").json()
    Note.objects.for_workspace(ws).filter(id=trashed["id"]).update(trashed_at="2026-01-01T00:00:00Z")
    turn = start_turn(owner_client, ws)
    owner_client.post(f"/api/v1/workspaces/{ws.id}/turns/{turn['id']}/reads/", {"source": "web", "ref": "x"},
                      format="json")
    held = tool_save(owner_client, ws, turn["id"], key="held.fact", value=HELD_TEXT, layer="workspace").json()
    assert held["state"] == "held"
    export = owner_client.post(f"/api/v1/workspaces/{ws.id}/memories/export/").json()
    from tables.models import Record

    return {
        "ws": ws, "people": people, "bot": bot, "bot_key": bot_key, "table": table, "team": team, "mine": mine,
        "held": held, "trashed": trashed, "export": export["id"],
        "record": Record.objects.for_workspace(ws).first().id,
        "change": ChangeSet.objects.for_workspace(ws).filter(action="save", layer="workspace").first().id,
    }


def _path(route: str, world: dict, caller_turn: str | None, note: str | None = None) -> str:
    values = {
        "ws": world["ws"].id, "note": note or world["team"]["id"], "change": world["change"],
        "turn": caller_turn or "00000000-0000-0000-0000-000000000000", "user": world["people"]["viewer"].pk,
        "bot": world["bot"].id, "table": world["table"].id, "record": world["record"], "export": world["export"],
        "rule": "00000000-0000-0000-0000-000000000000", "token": "00000000-0000-0000-0000-000000000000",
    }
    if route.startswith("workspaces/<str:ws>/memories/trash/<str:note>/"):
        values["note"] = world["trashed"]["id"]
    return "/api/v1/" + re.sub(r"<str:(\w+)>", lambda m: str(values[m.group(1)]), route)


def _call(client, method: str, path: str, body=None):
    if method == "GET":
        return client.get(path)
    return getattr(client, method.lower())(path, body, format="json")


def test_R_AGENT_3_a_bots_token_is_refused_every_peoples_endpoint_and_reads_no_text():
    world = _world()
    bot = token_client(world["bot_key"])
    bot_turn = start_turn(bot, world["ws"])["id"]
    for route, name, method in api_endpoints():
        access = ENDPOINTS[name][method]
        response = _call(bot, method, _path(route, world, bot_turn), [1])  # a body no view accepts
        text = response.content.decode(errors="replace")
        assert response.status_code != 500, (method, route)
        assert HELD_TEXT not in text and MINE_TEXT not in text, (method, route)
        if access.agents:
            assert not (response.status_code == 403 and response.json().get("code") == "person_required"), route
            continue
        # 404 for what a bot cannot see (members, the owner's export), else 403 person_required,
        # before the body is read (R-RBAC-4).
        names = set(re.findall(r"<str:(\w+)>", route)) - {"ws"}
        expected = 404 if names & {"user", "export", "rule"} else 403
        assert response.status_code == expected, (method, route, response.status_code, text[:200])
        if expected == 403:
            assert response.json()["code"] == "person_required", (method, route)


def test_R_RBAC_4_order_401_then_404_then_403_then_400_on_every_endpoint():
    world = _world()
    anonymous = APIClient()
    viewer = token_client(world["people"]["viewer"])
    outsider_ws = make_workspace(make_user("stranger@example.com"), name="Elsewhere", region="us")
    for route, name, method in api_endpoints():
        access = ENDPOINTS[name][method]
        path = _path(route, world, None)
        # 401 before anything, for every endpoint that needs a caller.
        if access is not PUBLIC:
            assert _call(anonymous, method, path, [1]).status_code == 401, (method, route)
        # 404 for a workspace the caller is not in, whatever the body.
        if route.startswith("workspaces/<str:ws>/"):
            foreign = path.replace(str(world["ws"].id), str(outsider_ws.id), 1)
            assert _call(viewer, method, foreign, [1]).status_code == 404, (method, route)
        # 404 for an object id the caller cannot see, before any 403 or 400.
        if re.search(r"<str:(note|change|turn|bot|table|record|export|user)>", route):
            unknown = re.sub(r"<str:(?!ws>)(\w+)>", "00000000-0000-0000-0000-000000000000", route)
            unknown_path = "/api/v1/" + unknown.replace("<str:ws>", str(world["ws"].id))
            response = _call(viewer, method, unknown_path, [1])
            assert response.status_code == 404, (method, route, response.status_code, response.content[:200])
        # 403 before 400: a viewer without the row's capability, on objects it can see.
        if access.capability and not access.agents and access.capability not in VIEWER_CAPABILITIES:
            turn = start_turn(viewer, world["ws"])["id"]
            response = _call(viewer, method, _path(route, world, turn), [1])
            if response.status_code != 404:  # objects of others a viewer may not see (the owner's export)
                assert response.status_code == 403, (method, route, response.status_code, response.content[:200])


VIEWER_CAPABILITIES = frozenset({"workspace:read", "members:read", "memory:read", "memory:write_mine",
                                 "tables:read", "turns:start", "bots:read"})


@pytest.mark.parametrize("role", ["owner", "admin", "editor", "viewer", "instance_admin"])
def test_R_RBAC_1_people_never_get_a_500_or_another_users_mine_text(role):
    world = _world()
    client = token_client(world["people"][role])
    turn = start_turn(client, world["ws"])["id"] if role != "instance_admin" else None
    for route, name, method in api_endpoints():
        if method == "DELETE" or name in ("member-detail", "memory-forget", "memory-trash-restore-all"):
            continue  # destructive calls would change the world the next rows read
        response = _call(client, method, _path(route, world, turn), {})
        assert response.status_code < 500, (role, method, route)
        if role != "owner":
            assert MINE_TEXT not in response.content.decode(errors="replace"), (role, method, route)


def test_R_RBAC_1_an_instance_admin_who_is_not_a_member_gets_404_for_notes_not_403():
    world = _world()
    root = token_client(world["people"]["instance_admin"])
    ws = world["ws"]
    for note in (world["team"]["id"], world["mine"]["id"], world["held"]["id"]):
        assert root.get(f"/api/v1/workspaces/{ws.id}/memories/{note}/").status_code == 404
    assert root.get(f"/api/v1/workspaces/{ws.id}/members/{world['people']['viewer'].pk}/memories/").status_code == 200
