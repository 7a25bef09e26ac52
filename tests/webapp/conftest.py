"""A small workspace for the web app's tests: people of every role, a bot, a table, notes.

Built through the services, like load_demo, so the pages are tested against real data in
the workspace's region database.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

PASSWORD = "correct horse battery"


def build_world(region: str = "eu") -> SimpleNamespace:
    from memories.services import memory_save
    from tests.factories import add_member, make_bot, make_table, make_user, make_workspace
    from workspaces.capabilities import actor_for

    owner = make_user("owner@example.com")
    workspace = make_workspace(owner, name="Acme EU", region=region)
    admin = add_member(workspace, "admin@example.com", "admin")
    editor = add_member(workspace, "editor@example.com", "editor")
    viewer = add_member(workspace, "viewer@example.com", "viewer")
    table = make_table(workspace, owner, rows=[
        {"name": "Ana Lopez", "email": "ana.lopez@example.com", "status": "active"},
        {"name": "Kenji Watanabe", "email": "kenji.w@example.jp", "status": "churned"},
    ])
    bot, _ = make_bot(workspace, owner, name="Report bot")
    owner_actor = actor_for(owner, workspace)
    shared = memory_save(actor=owner_actor, key="team.date_format", value="Dates use ISO 8601 in reports.",
                         layer="workspace", pinned=True).note
    mine = memory_save(actor=owner_actor, key="pref.tone", value="Keep replies short; no emoji.", pinned=True).note
    return SimpleNamespace(ws=workspace, owner=owner, admin=admin, editor=editor, viewer=viewer, table=table,
                           bot=bot, shared_note=shared, mine_note=mine)


@pytest.fixture
def world(db):
    return build_world()


@pytest.fixture
def login(client):
    """Signs the test client in as a user and returns it."""

    def sign_in(user):
        client.force_login(user)
        return client

    return sign_in
