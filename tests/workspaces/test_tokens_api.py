"""A person's own API tokens and a bot's rotation through the API (issue 17, SPEC §11).

Make → the key works → the list shows the token without its key → revoke → 401; expiry; another
person's token is 404; a bot's token is refused (403 ``person_required``); a bot's token is
rotated by its owner or those who manage agents, and by nobody else, in its own workspace only.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import (
    ALL_DATABASES,
    add_member,
    make_bot,
    make_user,
    make_workspace,
    token_client,
    url,
)
from workspaces.models import ApiToken

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

TOKENS = "/api/v1/me/tokens/"
TOKEN_FIELDS = {"id", "name", "prefix", "created_at", "last_used_at", "expires_at", "revoked_at"}


def make_token(client, name: str = "Laptop", **fields):
    response = client.post(TOKENS, {"name": name, **fields}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_token_made_through_the_api_works_is_listed_without_its_key_and_stops_when_revoked(owner):
    me = token_client(owner)
    created = make_token(me, "CI job", expires_in_days=30)
    key = created["key"]
    assert key.startswith("apd_") and created["prefix"] == key[:8] and created["name"] == "CI job"
    assert set(created) == TOKEN_FIELDS | {"key"} and created["revoked_at"] is None
    expires_at = ApiToken.objects.get(public_id=created["id"]).expires_at
    assert timedelta(days=29, hours=23) < expires_at - timezone.now() <= timedelta(days=30)

    with_key = token_client(key)
    assert with_key.get("/api/v1/me/").json()["id"] == owner.pk
    assert with_key.get("/api/v1/workspaces/").status_code == 200

    listed = me.get(TOKENS)
    assert listed.status_code == 200 and key not in listed.content.decode()
    page = listed.json()
    assert set(page) == {"count", "next", "previous", "results"}
    mine = {t["id"]: t for t in page["results"]}
    assert set(mine[created["id"]]) == TOKEN_FIELDS
    assert mine[created["id"]]["last_used_at"] is not None  # it was just used
    assert page["count"] == 2  # this one and the one token_client made for me

    assert me.delete(f"{TOKENS}{created['id']}/").status_code == 204
    refused = with_key.get("/api/v1/me/")
    assert refused.status_code == 401 and refused.json()["code"] == "authentication_failed"
    assert "revoked" in refused.json()["detail"]
    after = {t["id"]: t for t in me.get(TOKENS).json()["results"]}
    assert after[created["id"]]["revoked_at"] is not None
    # Revoking again changes nothing, and the token that did it still works.
    assert me.delete(f"{TOKENS}{created['id']}/").status_code == 204
    assert me.get("/api/v1/me/").status_code == 200


def test_a_token_without_expiry_works_until_revoked_and_one_can_revoke_the_token_in_use(owner):
    created = make_token(token_client(owner), "Script")
    assert created["expires_at"] is None
    itself = token_client(created["key"])
    assert itself.delete(f"{TOKENS}{created['id']}/").status_code == 204
    assert itself.get(TOKENS).status_code == 401


def test_an_expired_token_is_401_with_a_sentence_that_says_so_and_where_to_make_a_new_one(owner):
    created = make_token(token_client(owner), "Old laptop", expires_in_days=1)
    ApiToken.objects.filter(public_id=created["id"]).update(expires_at=timezone.now() - timedelta(minutes=1))
    response = token_client(created["key"]).get("/api/v1/me/")
    assert response.status_code == 401
    body = response.json()
    assert body["code"] == "authentication_failed"
    assert "expired" in body["detail"] and "/api/v1/me/tokens/" in body["detail"]
    assert response["WWW-Authenticate"] == "Token"
    listed = token_client(owner).get(TOKENS).json()["results"]
    assert any(t["id"] == created["id"] and t["expires_at"] for t in listed)


def test_another_persons_token_is_404_and_keeps_working(owner):
    stranger = make_user("stranger@example.com")
    theirs = make_token(token_client(stranger), "Theirs")
    me = token_client(owner)
    response = me.delete(f"{TOKENS}{theirs['id']}/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert theirs["id"] not in me.get(TOKENS).content.decode()
    assert token_client(theirs["key"]).get("/api/v1/me/").status_code == 200
    for bad in ("not-a-uuid", "00000000-0000-0000-0000-000000000000", "1"):
        assert me.delete(f"{TOKENS}{bad}/").status_code == 404, bad


def test_a_bots_token_cannot_list_make_or_revoke_tokens(owner, eu_ws):
    _, bot_key = make_bot(eu_ws, owner)
    bot = token_client(bot_key)
    mine = make_token(token_client(owner))
    for response in (bot.get(TOKENS), bot.post(TOKENS, {"name": "x"}, format="json"),
                     bot.delete(f"{TOKENS}{mine['id']}/")):
        assert response.status_code == 403 and response.json()["code"] == "person_required"
    assert ApiToken.objects.filter(public_id=mine["id"], revoked_at__isnull=True).exists()


@pytest.mark.parametrize("payload, code", [
    ({}, "missing_field"),
    ({"name": ""}, "missing_field"),
    ({"name": "   "}, "invalid_name"),
    ({"name": 7}, "invalid_text"),
    ({"name": "x" * 101}, "too_long"),
    ({"name": "x", "expires_in_days": 0}, "invalid_expiry"),
    ({"name": "x", "expires_in_days": 366}, "invalid_expiry"),
    ({"name": "x", "expires_in_days": 1.5}, "invalid_expiry"),
    ({"name": "x", "key": "apd_mine"}, "unknown_field"),
])
def test_bad_token_requests_are_400_with_a_code_and_make_nothing(owner, payload, code):
    me = token_client(owner)
    before = ApiToken.objects.count()
    response = me.post(TOKENS, payload, format="json")
    assert response.status_code == 400 and response.json()["code"] == code, response.json()
    assert ApiToken.objects.count() == before


def test_a_name_of_the_columns_length_and_a_years_expiry_are_accepted(owner):
    created = make_token(token_client(owner), "n" * ApiToken._meta.get_field("name").max_length, expires_in_days=365)
    assert len(created["name"]) == 100 and created["expires_at"]


def test_a_person_has_at_most_so_many_active_tokens(owner, monkeypatch):
    from workspaces import tokens

    monkeypatch.setattr(tokens, "ACTIVE_TOKENS_MAX", 3)
    me = token_client(owner)  # the first
    second = make_token(me, "two")
    make_token(me, "three")
    refused = me.post(TOKENS, {"name": "four"}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "too_many_tokens"
    me.delete(f"{TOKENS}{second['id']}/")
    make_token(me, "four")


# --- a bot's token ----------------------------------------------------------------------------


def rotate(client, workspace, bot):
    return client.post(url(workspace, f"bots/{bot.id}/token/"), format="json")


def test_the_bots_owner_rotates_its_token_the_old_key_stops_and_the_new_one_works(owner, eu_ws):
    bot, old_key = make_bot(eu_ws, owner)
    assert token_client(old_key).get(url(eu_ws)).status_code == 200
    response = rotate(token_client(owner), eu_ws, bot)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["bot"] == str(bot.id) and body["key"] != old_key and body["prefix"] == body["key"][:8]
    assert token_client(old_key).get(url(eu_ws)).status_code == 401
    assert token_client(body["key"]).get(url(eu_ws)).status_code == 200
    assert ApiToken.objects.filter(user=bot.account, revoked_at__isnull=True).count() == 1
    # The bot's tokens are not the owner's: not in the owner's list.
    assert body["id"] not in token_client(owner).get(TOKENS).content.decode()


def test_those_who_manage_agents_may_rotate_a_bot_they_do_not_own(owner, eu_ws):
    from guardian.shortcuts import assign_perm

    bot, _ = make_bot(eu_ws, owner)
    admin = add_member(eu_ws, "admin@example.com", "admin")
    assert rotate(token_client(admin), eu_ws, bot).status_code == 201
    editor = add_member(eu_ws, "editor@example.com", "editor")
    assign_perm("workspaces.manage_agents", editor, eu_ws)
    assert rotate(token_client(editor), eu_ws, bot).status_code == 201


@pytest.mark.parametrize("role", ["editor", "viewer"])
def test_a_member_who_neither_owns_the_bot_nor_manages_agents_gets_403(owner, eu_ws, role):
    bot, key = make_bot(eu_ws, owner)
    member = add_member(eu_ws, f"{role}@example.com", role)
    response = rotate(token_client(member), eu_ws, bot)
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    assert token_client(key).get(url(eu_ws)).status_code == 200


def test_an_editor_rotates_their_own_bot(owner, eu_ws):
    editor = add_member(eu_ws, "editor@example.com", "editor")
    bot, old_key = make_bot(eu_ws, editor, name="Mine")
    assert rotate(token_client(editor), eu_ws, bot).status_code == 201
    assert token_client(old_key).get(url(eu_ws)).status_code == 401


def test_a_bot_cannot_rotate_its_own_token(owner, eu_ws):
    bot, key = make_bot(eu_ws, owner)
    response = rotate(token_client(key), eu_ws, bot)
    assert response.status_code == 403 and response.json()["code"] == "person_required"
    assert token_client(key).get(url(eu_ws)).status_code == 200


def test_R_RBAC_2_a_bot_of_another_workspace_or_region_is_404(owner, eu_ws, us_ws):
    us_bot, us_key = make_bot(us_ws, owner, name="Over there")
    stranger = make_user("stranger@example.com")
    elsewhere = make_workspace(stranger, name="Elsewhere", region="us")
    # The owner of both, through the wrong workspace's URL; a stranger through theirs and ours.
    assert rotate(token_client(owner), eu_ws, us_bot).status_code == 404
    assert rotate(token_client(stranger), elsewhere, us_bot).status_code == 404
    assert rotate(token_client(stranger), us_ws, us_bot).status_code == 404
    assert token_client(us_key).get(url(us_ws)).status_code == 200


def test_rotation_takes_no_fields_and_anonymous_callers_get_401(owner, eu_ws):
    bot, key = make_bot(eu_ws, owner)
    refused = token_client(owner).post(url(eu_ws, f"bots/{bot.id}/token/"), {"name": "x"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "unknown_field"
    assert rotate(APIClient(), eu_ws, bot).status_code == 401
    assert APIClient().get(TOKENS).status_code == 401
    assert token_client(key).get(url(eu_ws)).status_code == 200



# --- the migration ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True, databases=ALL_DATABASES)
def test_the_migration_gives_each_existing_token_its_own_public_id_and_no_expiry():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("workspaces", "0001_initial")], [("workspaces", "0002_apitoken_expiry_and_public_id")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        old_state = executor.loader.project_state(before).apps
        User = old_state.get_model("auth", "User")
        OldToken = old_state.get_model("workspaces", "ApiToken")
        person = User.objects.create(username="old@example.com")
        for n in range(3):
            OldToken.objects.create(user=person, digest=f"{n:064d}", prefix=f"apd_{n}")
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(after)
    migrated = list(ApiToken.objects.filter(user__username="old@example.com"))
    assert len(migrated) == 3 and len({t.public_id for t in migrated}) == 3
    assert all(t.public_id and t.expires_at is None for t in migrated)
