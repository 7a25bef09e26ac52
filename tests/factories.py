"""Plain factory helpers for tests."""

from __future__ import annotations

from rest_framework.test import APIClient

from workspaces.capabilities import actor_for
from workspaces.models import Membership
from workspaces.services import bot_create, user_create_or_update, workspace_create
from workspaces.tokens import token_create

ALL_DATABASES = "__all__"


def make_user(email: str, *, instance_admin: bool = False, password: str = "correct horse battery"):
    return user_create_or_update(email=email, password=password, instance_admin=instance_admin)


def make_workspace(owner, *, name: str = "Acme", region: str = "eu", kind: str = "cloud"):
    return workspace_create(name=name, owner=owner, region=region, kind=kind)


def add_member(workspace, email: str, role: str):
    user = make_user(email)
    Membership.objects.create(user=user, workspace=workspace, role=role)
    return user


def make_bot(workspace, owner, name: str = "Helper", **fields):
    bot, key = bot_create(actor=actor_for(owner, workspace), name=name, **fields)
    return bot, key


def token_client(user_or_key) -> APIClient:
    key = user_or_key if isinstance(user_or_key, str) else token_create(user=user_or_key)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def url(workspace, path: str = "") -> str:
    return f"/api/v1/workspaces/{workspace.id}/{path}"


def make_table(workspace, owner, name: str = "Customers", columns=None, rows=None):
    from tables.services import records_add, table_create

    actor = actor_for(owner, workspace)
    table = table_create(actor=actor, name=name, columns=columns or [
        {"name": "name", "kind": "person"}, {"name": "email", "kind": "email"}, {"name": "status", "kind": "text"},
    ])
    if rows:
        records_add(actor=actor, table=table, rows=rows)
    return table
