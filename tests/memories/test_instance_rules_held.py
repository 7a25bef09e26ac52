"""R-SAVE-3b for the instance layer (issue 18, sixteenth session): a required rule that may name
a person is held, as a note is, from every entry point that writes one (the rules' API, a
person's own save to the instance layer, an edit, the instance admins' page), and reaches no turn,
search, listing or export of any workspace, nor any reader but the instance admins, until an
instance admin keeps the version they read. Before this session such a rule went straight to
every workspace's turns.
"""

from __future__ import annotations

import pytest

from tests.factories import ALL_DATABASES, make_user, token_client, url
from tests.memories.helpers import context_keys, person_save, start_turn, tool_search
from workspaces.models import InstanceRule, Membership

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

NAMED = "Ask Maria Gonzalez before changing the billing schema."
PLAIN = "Ask the billing team before changing the billing schema."
RULES = "/api/v1/instance/rules/"


@pytest.fixture
def root():
    return token_client(make_user("root@example.com", instance_admin=True))


def _held_rule(root, key="policy.billing", value=NAMED):
    response = root.post(RULES, {"key": key, "value": value}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_rule_that_may_name_a_person_is_held_and_reaches_no_workspace(root, owner, eu_ws):
    body = _held_rule(root)
    assert (body["state"], body["held_reason"]) == ("held", "may_name_person")
    assert body["held_because"] == "it may name a person"
    member = token_client(owner)
    turn = start_turn(member, eu_ws)
    assert "policy.billing" not in context_keys(turn) and "Gonzalez" not in turn["context"]["text"]
    found = tool_search(member, eu_ws, turn["id"], "billing schema")
    assert found.status_code == 200 and "Gonzalez" not in found.content.decode()
    listed = member.get(url(eu_ws, "memories/"), {"layer": "instance"})
    assert listed.status_code == 200 and "Gonzalez" not in listed.content.decode()
    assert "Gonzalez" not in member.get(RULES).content.decode()
    assert member.get(f"{RULES}{body['id']}/").status_code == 404  # a member learns nothing of it


def test_an_instance_admin_keeps_the_version_read_and_then_every_turn_gets_it(root, owner, eu_ws):
    body = _held_rule(root)
    detail = root.get(f"{RULES}{body['id']}/")
    assert detail.status_code == 200 and detail.json()["state"] == "held"
    assert root.post(f"{RULES}{body['id']}/keep/", {}, format="json").status_code == 428
    stale = root.post(f"{RULES}{body['id']}/keep/", {"version": "0" * 16}, format="json")
    assert stale.status_code == 409 and stale.json()["code"] == "rule_changed"
    assert token_client(owner).post(f"{RULES}{body['id']}/keep/", {"version": body["version"]},
                                    format="json").status_code == 404
    kept = root.post(f"{RULES}{body['id']}/keep/", HTTP_IF_MATCH=detail.headers["ETag"])
    assert kept.status_code == 200 and kept.json()["state"] == "active" and kept.json()["held_reason"] is None
    assert "policy.billing" in context_keys(start_turn(token_client(owner), eu_ws))
    again = root.post(f"{RULES}{body['id']}/keep/", {"version": kept.json()["version"]}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "not_held"


def test_a_rule_rewritten_while_held_is_not_kept_unread(root):
    body = _held_rule(root)
    root.post(RULES, {"key": "policy.billing", "value": "Ask Maria Gonzalez or Tom Baker first."}, format="json")
    stale = root.post(f"{RULES}{body['id']}/keep/", {"version": body["version"]}, format="json")
    assert stale.status_code == 409 and InstanceRule.objects.get(pk=body["id"]).state == "held"


def test_a_rule_without_a_name_is_active_at_once(root, owner, eu_ws):
    body = root.post(RULES, {"key": "policy.billing", "value": PLAIN}, format="json").json()
    assert body["state"] == "active" and body["held_reason"] is None
    assert "policy.billing" in context_keys(start_turn(token_client(owner), eu_ws))


def test_an_edit_that_names_a_person_takes_an_active_rule_out_of_every_turn(root, owner, eu_ws):
    body = root.post(RULES, {"key": "policy.billing", "value": PLAIN}, format="json").json()
    edited = root.patch(f"{RULES}{body['id']}/", {"value": NAMED}, format="json")
    assert edited.status_code == 200 and edited.json()["state"] == "held"
    assert "policy.billing" not in context_keys(start_turn(token_client(owner), eu_ws))


def test_a_rewrite_of_an_active_rule_that_names_a_person_is_held(root, owner, eu_ws):
    root.post(RULES, {"key": "policy.billing", "value": PLAIN}, format="json")
    rewritten = root.post(RULES, {"key": "policy.billing", "value": NAMED}, format="json")
    assert rewritten.status_code == 200 and rewritten.json()["state"] == "held"
    assert "policy.billing" not in context_keys(start_turn(token_client(owner), eu_ws))


def test_an_instance_admins_own_save_to_the_instance_layer_is_held_too(owner, eu_ws):
    admin = make_user("root@example.com", instance_admin=True)
    Membership.objects.create(user=admin, workspace=eu_ws, role="admin")
    saved = person_save(token_client(admin), eu_ws, key="policy.billing", value=NAMED, layer="instance")
    assert saved.status_code in (200, 201), saved.json()
    assert saved.json()["state"] == "held" and saved.json()["show"] == "Waiting for you to keep it"
    assert InstanceRule.objects.get(key="policy.billing").state == "held"
    assert "policy.billing" not in context_keys(start_turn(token_client(owner), eu_ws))


def test_only_instance_admins_list_a_held_rule(root, owner):
    body = _held_rule(root)
    listing = token_client(owner).get(RULES).json()
    assert body["id"] not in {r["id"] for r in listing["results"]}
    assert body["id"] in {r["id"] for r in root.get(RULES).json()["results"]}
