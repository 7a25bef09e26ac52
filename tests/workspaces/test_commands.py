"""The operators' commands: create_user, create_workspace, load_demo (idempotent)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from tests.factories import ALL_DATABASES, token_client
from workspaces.models import Bot, Instance, Membership, Workspace

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)


def run(*args) -> list[str]:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip().splitlines()


def test_create_user_with_token_prints_a_working_token_last():
    lines = run("create_user", "ops@example.com", "--password", "long enough pw", "--instance-admin", "--token")
    response = token_client(lines[-1]).get("/api/v1/me/")
    assert response.status_code == 200 and response.json()["email"] == "ops@example.com"
    assert response.json()["instance_admin"] is True
    assert Instance.current().admins.filter(email="ops@example.com").exists()


def test_create_workspace_prints_the_id_last():
    run("create_user", "ops@example.com")
    lines = run("create_workspace", "Research", "--owner", "ops@example.com", "--region", "us")
    workspace = Workspace.objects.get(id=lines[-1])
    assert workspace.region == "us"
    assert Membership.objects.get(workspace=workspace).role == "owner"


def test_create_workspace_refuses_an_unknown_owner_or_region():
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="No user"):
        run("create_workspace", "X", "--owner", "ghost@example.com")
    run("create_user", "ops@example.com")
    with pytest.raises(CommandError, match="Unknown region"):
        run("create_workspace", "X", "--owner", "ops@example.com", "--region", "mars")


def test_load_demo_twice_is_idempotent():
    first = run("load_demo")
    counts = (Workspace.objects.count(), Membership.objects.count(), Bot.objects.count())
    second = run("load_demo")
    assert counts == (Workspace.objects.count(), Membership.objects.count(), Bot.objects.count())
    assert counts[0] == 2 and {w.region for w in Workspace.objects.all()} == {"eu", "us"}
    assert any("owner@demo.appenda.test" in line for line in first) and first[-5:] == second[-5:]
