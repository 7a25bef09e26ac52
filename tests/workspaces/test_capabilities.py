"""Who a caller is in a workspace (``actor_for``): the rules every API request and page is
decided by (SPEC §3, R-RBAC-1, R-RBAC-3, R-AGENT-1), including the attacker's cases: a bot asking
about another workspace, a bot whose owner has left, a deleted bot's account, a stranger."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from guardian.shortcuts import assign_perm

from tests.factories import ALL_DATABASES, add_member, make_bot, make_user, make_workspace
from workspaces.capabilities import (
    BOT_CAPABILITIES,
    INSTANCE_ADMIN_CAPABILITIES,
    ROLE_CAPABILITIES,
    actor_for,
)
from workspaces.models import Bot, Membership

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)


def test_a_member_gets_the_capabilities_of_their_role(owner, eu_ws):
    viewer = add_member(eu_ws, "viewer@example.com", "viewer")
    assert actor_for(owner, eu_ws).capabilities == ROLE_CAPABILITIES["owner"]
    actor = actor_for(viewer, eu_ws)
    assert actor.role == "viewer" and actor.capabilities == ROLE_CAPABILITIES["viewer"]
    assert actor.bot is None and not actor.is_instance_admin


def test_a_stranger_and_an_anonymous_caller_see_no_workspace(eu_ws):
    assert actor_for(make_user("stranger@example.com"), eu_ws) is None
    assert actor_for(AnonymousUser(), eu_ws) is None
    assert actor_for(None, eu_ws) is None


def test_R_RBAC_3_an_instance_admin_who_is_not_a_member_may_only_delete_blind(eu_ws):
    admin = make_user("admin@example.com", instance_admin=True)
    actor = actor_for(admin, eu_ws)
    assert actor.is_instance_admin and actor.role is None
    assert actor.capabilities == INSTANCE_ADMIN_CAPABILITIES
    assert not actor.can("memory:read")


def test_a_member_who_is_an_instance_admin_gets_both(eu_ws):
    admin = make_user("admin@example.com", instance_admin=True)
    Membership.objects.create(user=admin, workspace=eu_ws, role="viewer")
    actor = actor_for(admin, eu_ws)
    assert actor.role == "viewer" and actor.is_instance_admin
    assert actor.capabilities == ROLE_CAPABILITIES["viewer"] | INSTANCE_ADMIN_CAPABILITIES


def test_the_manage_agents_grant_adds_only_that_capability(eu_ws):
    editor = add_member(eu_ws, "editor@example.com", "editor")
    assign_perm("workspaces.manage_agents", editor, eu_ws)
    assert actor_for(editor, eu_ws).capabilities == ROLE_CAPABILITIES["editor"] | {"agents:manage"}


def test_R_AGENT_1_a_bot_acts_in_its_own_workspace_with_bot_capabilities(owner, eu_ws):
    bot, _ = make_bot(eu_ws, owner)
    actor = actor_for(bot.account, eu_ws)
    assert actor.bot == bot and actor.role is None and actor.capabilities == BOT_CAPABILITIES
    assert actor.person_id == owner.pk


def test_a_bot_sees_no_other_workspace_even_where_its_owner_is_a_member(owner, eu_ws):
    bot, _ = make_bot(eu_ws, owner)
    other = make_workspace(owner, name="Other")
    assert actor_for(bot.account, other) is None


def test_a_bot_whose_owner_left_the_workspace_sees_it_no_more(eu_ws):
    editor = add_member(eu_ws, "editor@example.com", "editor")
    bot, _ = make_bot(eu_ws, editor)
    assert actor_for(bot.account, eu_ws) is not None
    Membership.objects.filter(user=editor, workspace=eu_ws).delete()
    assert actor_for(bot.account, eu_ws) is None


def test_a_deleted_bots_account_is_no_bot_and_no_member(owner, eu_ws):
    bot, _ = make_bot(eu_ws, owner)
    Bot.objects.filter(pk=bot.pk).update(deleted_at=timezone.now())
    assert actor_for(bot.account, eu_ws) is None


# --- who an API token belongs to ----------------------------------------------------------


def test_a_token_belongs_to_its_user_until_it_is_revoked(owner):
    from workspaces.models import ApiToken
    from workspaces.tokens import token_create, token_user

    key = token_create(user=owner)
    assert token_user(key) == owner
    assert token_user(key + "x") is None and token_user("") is None
    ApiToken.objects.filter(user=owner).update(revoked_at=timezone.now())
    assert token_user(key) is None


def test_an_inactive_users_token_is_refused(owner):
    from workspaces.tokens import token_create, token_user

    key = token_create(user=owner)
    type(owner).objects.filter(pk=owner.pk).update(is_active=False)
    assert token_user(key) is None


def test_a_tokens_last_use_is_written_at_most_once_a_minute(owner):
    from datetime import timedelta

    from workspaces.models import ApiToken
    from workspaces.tokens import token_create, token_user

    key = token_create(user=owner)
    token_user(key)
    first = ApiToken.objects.get(user=owner).last_used_at
    assert first is not None
    token_user(key)
    assert ApiToken.objects.get(user=owner).last_used_at == first
    ApiToken.objects.filter(user=owner).update(last_used_at=first - timedelta(minutes=2))
    token_user(key)
    assert ApiToken.objects.get(user=owner).last_used_at > first - timedelta(minutes=2)
