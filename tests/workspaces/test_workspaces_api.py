"""Workspaces, members, bots and the memory switch through the API (SPEC §2, §3, §11)."""

from __future__ import annotations

import pytest

from tests.factories import ALL_DATABASES, add_member, make_user, make_workspace, token_client, url
from workspaces.models import Membership, Workspace

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)


def test_create_workspace_makes_the_caller_owner(owner):
    client = token_client(owner)
    response = client.post("/api/v1/workspaces/", {"name": "Research", "kind": "cloud", "region": "us"}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["region"] == "us" and body["kind"] == "cloud" and body["role"] == "owner"
    listed = client.get("/api/v1/workspaces/").json()["results"]
    assert [w["id"] for w in listed] == [body["id"]]


@pytest.mark.parametrize(
    "payload, code",
    [
        ({"name": "X", "region": "mars"}, "unknown_region"),
        ({"name": "X", "kind": "floppy"}, "invalid_kind"),
        ({"region": "eu"}, "missing_field"),
    ],
)
def test_bad_workspace_requests_are_400_with_a_code_and_write_nothing(owner, payload, code):
    response = token_client(owner).post("/api/v1/workspaces/", payload, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["detail"]
    assert Workspace.objects.count() == 0


def test_a_second_workspace_with_the_same_slug_is_refused(owner):
    client = token_client(owner)
    assert client.post("/api/v1/workspaces/", {"name": "Sales"}, format="json").status_code == 201
    again = client.post("/api/v1/workspaces/", {"name": "Sales"}, format="json")
    assert again.status_code == 400 and again.json()["code"] == "slug_taken"
    assert Workspace.objects.count() == 1


def test_unauthenticated_requests_get_401_with_a_code():
    from rest_framework.test import APIClient

    response = APIClient().get("/api/v1/workspaces/")
    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert bad.get("/api/v1/workspaces/").json()["code"] == "authentication_failed"


def test_R_RBAC_1_a_workspace_i_am_not_in_is_404_not_403(eu_ws):
    stranger = make_user("stranger@example.com")
    response = token_client(stranger).get(url(eu_ws))
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert token_client(stranger).get(url(eu_ws, "members/")).status_code == 404


def test_members_are_added_by_email_and_roles_change(owner, eu_ws):
    make_user("new@example.com")
    client = token_client(owner)
    added = client.post(url(eu_ws, "members/"), {"email": "new@example.com", "role": "editor"}, format="json")
    assert added.status_code == 201 and added.json()["role"] == "editor"
    user_id = added.json()["user"]
    changed = client.patch(url(eu_ws, f"members/{user_id}/"), {"role": "viewer"}, format="json")
    assert changed.status_code == 200 and changed.json()["role"] == "viewer"
    assert client.delete(url(eu_ws, f"members/{user_id}/")).status_code == 204
    assert not Membership.objects.filter(workspace=eu_ws, user_id=user_id).exists()


@pytest.mark.parametrize(
    "payload, code",
    [({"email": "nobody@example.com", "role": "editor"}, "user_not_found"),
     ({"email": "new@example.com", "role": "superhero"}, "invalid_role")],
)
def test_bad_member_requests(owner, eu_ws, payload, code):
    make_user("new@example.com")
    response = token_client(owner).post(url(eu_ws, "members/"), payload, format="json")
    assert response.status_code == 400 and response.json()["code"] == code
    assert Membership.objects.filter(workspace=eu_ws).count() == 1


def test_the_last_owner_cannot_be_demoted(owner, eu_ws):
    response = token_client(owner).patch(url(eu_ws, f"members/{owner.pk}/"), {"role": "admin"}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "last_owner"


def test_an_admin_cannot_make_owners(eu_ws):
    admin = add_member(eu_ws, "admin@example.com", "admin")
    make_user("new@example.com")
    response = token_client(admin).post(url(eu_ws, "members/"), {"email": "new@example.com", "role": "owner"},
                                        format="json")
    assert response.status_code == 403


def test_memory_switch_only_for_those_who_manage_agents(eu_ws):
    editor = add_member(eu_ws, "editor@example.com", "editor")
    admin = add_member(eu_ws, "admin@example.com", "admin")
    refused = token_client(editor).put(url(eu_ws, "memory-settings/"), {"enabled": False}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    assert token_client(editor).get(url(eu_ws, "memory-settings/")).json()["enabled"] is True
    done = token_client(admin).put(url(eu_ws, "memory-settings/"), {"enabled": False}, format="json")
    assert done.status_code == 200 and done.json()["enabled"] is False
    eu_ws.refresh_from_db()
    assert eu_ws.memory_enabled is False


def test_manage_agents_grant_through_guardian_lets_an_editor_flip_the_switch(owner, eu_ws):
    from guardian.shortcuts import assign_perm

    editor = add_member(eu_ws, "editor@example.com", "editor")
    assign_perm("workspaces.manage_agents", editor, eu_ws)
    response = token_client(editor).put(url(eu_ws, "memory-settings/"), {"enabled": False}, format="json")
    assert response.status_code == 200


def test_bots_get_their_own_token_and_see_only_their_workspace(owner, eu_ws):
    other = make_workspace(owner, name="Other", region="us")
    created = token_client(owner).post(url(eu_ws, "bots/"), {"name": "Reporter"}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert body["memory"] == "mine_and_own" and body["token"]
    bot_client = token_client(body["token"])
    assert bot_client.get(url(eu_ws)).status_code == 200
    assert bot_client.get(url(other)).status_code == 404
    assert [w["id"] for w in bot_client.get("/api/v1/workspaces/").json()["results"]] == [str(eu_ws.id)]


def test_bot_save_rule_cannot_be_looser_than_the_owner(owner, eu_ws):
    response = token_client(owner).post(url(eu_ws, "bots/"), {"name": "Loose", "memory_save": "auto"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "save_rule_too_loose"


def test_viewers_cannot_create_bots(eu_ws):
    viewer = add_member(eu_ws, "viewer@example.com", "viewer")
    response = token_client(viewer).post(url(eu_ws, "bots/"), {"name": "Nope"}, format="json")
    assert response.status_code == 403


def test_openapi_schema_is_served(owner):
    response = token_client(owner).get("/api/v1/schema/")
    assert response.status_code == 200
    assert b"/api/v1/workspaces/" in response.content
