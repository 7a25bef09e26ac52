"""The web app's pages with Django's test client: roles, CSRF, CSP, blind delete, tenancy.

Fast checks of what the browser suite (test_browser.py) shows end to end: every page answers
like the API (404 for non-members, 403 for a missing capability), every POST goes through the
same services, and the pages carry no inline script or style.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from memories import turns
from memories.models import Note
from memories.services import memory_save
from tests.factories import ALL_DATABASES, make_user, make_workspace
from workspaces.capabilities import actor_for
from workspaces.models import MemorySettings, Workspace

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)


def memory_url(world, query: str = "") -> str:
    return f"/w/{world.ws.slug}/settings/agents/memory/{query}"


def note_url(world, note, action: str) -> str:
    return f"/w/{world.ws.slug}/settings/agents/memory/notes/{note.id}/{action}/"


def workspace_pages(world) -> list[str]:
    ws = world.ws.slug
    return [
        f"/w/{ws}/settings/agents/memory/",
        f"/w/{ws}/settings/agents/memory/?tab=held",
        f"/w/{ws}/settings/members/",
        f"/w/{ws}/playground/",
        note_url(world, world.shared_note, "edit"),
        note_url(world, world.shared_note, "history"),
        f"/w/{ws}/settings/agents/memory/changes/",
        f"/w/{ws}/settings/agents/memory/trash/",
        f"/w/{ws}/settings/agents/memory/export/",
        f"/w/{ws}/settings/agents/memory/private-chats/",
        f"/w/{ws}/settings/agents/bots/",
    ]


def notes_list(html: str) -> str:
    """The list part of the memory page (without the tabs, the filters and the add form)."""
    return html.split('id="notes-list"')[1].split('class="add-note"')[0].split('id="memory-tabs"')[0]


def held_note(world, user, *, key="customers.churn", value="Churned customers have status churned."):
    actor = actor_for(user, world.ws)
    turn = turns.turn_start(actor=actor, table_ref=str(world.table.id))
    turns.turn_record_read(actor=actor, turn_id=turn.id, source="table", ref=str(world.table.id))
    return memory_save(actor=actor, turn_id=turn.id, key=key, value=value,
                       subject={"kind": "table", "id": str(world.table.id)}).note


# --- Sign-in and the picker ---------------------------------------------------------------

def test_anonymous_people_are_sent_to_sign_in(world, client):
    for path in ["/", *workspace_pages(world), "/settings/memory/", "/instance/rules/"]:
        response = client.get(path)
        assert response.status_code == 302 and response["Location"].startswith("/login/"), path


def test_sign_in_with_email_and_password_lands_on_the_picker_pointing_to_the_playground(world, client):
    page = client.get("/login/")
    assert page.status_code == 200 and 'for="id_username"' in page.text and 'for="id_password"' in page.text
    response = client.post("/login/", {"username": "owner@example.com", "password": "correct horse battery"},
                           follow=True)
    assert response.status_code == 200
    assert f'href="/w/{world.ws.slug}/playground/"' in response.text
    assert "Open the playground" in response.text


def test_the_demo_logins_show_on_the_sign_in_page_only_where_the_demo_is_loaded(db, client):
    assert "Demo logins" not in client.get("/login/").text
    make_user("owner@demo.appenda.test")
    page = client.get("/login/").text
    assert "Demo logins" in page and "appenda-demo" in page and "viewer@demo.appenda.test" in page


def test_a_wrong_password_says_so_and_signs_nobody_in(world, client):
    response = client.post("/login/", {"username": "owner@example.com", "password": "nope"})
    assert response.status_code == 200 and "did not match" in response.text
    assert client.get("/").status_code == 302


# --- Tenancy and roles (R-RBAC-1, R-RBAC-2) -------------------------------------------------

def test_R_RBAC_2_a_member_of_another_workspace_gets_404_on_every_page_and_post(world, login):
    stranger = make_user("stranger@example.com")
    make_workspace(stranger, name="Elsewhere", region="us")
    client = login(stranger)
    for path in workspace_pages(world):
        assert client.get(path).status_code == 404, path
    for path in [note_url(world, world.shared_note, "delete"), f"/w/{world.ws.slug}/settings/agents/memory/switch/",
                 f"/w/{world.ws.slug}/playground/turn/"]:
        assert client.post(path, {"enabled": "false"}).status_code == 404, path
    assert Note.objects.for_workspace(world.ws).filter(id=world.shared_note.id).exists()
    assert Workspace.objects.get(pk=world.ws.pk).memory_enabled


def test_R_RBAC_2_a_note_id_of_another_workspace_is_404_from_my_own_workspace(world, login):
    other = make_workspace(world.owner, name="Acme US", region="us")
    client = login(world.owner)
    foreign = f"/w/{other.slug}/settings/agents/memory/notes/{world.shared_note.id}/delete/"
    assert client.post(foreign).status_code == 404
    assert Note.objects.for_workspace(world.ws).filter(id=world.shared_note.id).exists()


def test_R_MANAGE_2_viewer_sees_workspace_notes_without_edit_controls(world, login):
    page = login(world.viewer).get(memory_url(world, "?tab=workspace"))
    assert page.status_code == 200
    assert "Dates use ISO 8601 in reports." in page.text
    for action in ("edit", "delete", "pin"):
        assert note_url(world, world.shared_note, action) not in page.text
    assert 'id="memory-switch-button"' not in page.text


def test_R_MANAGE_2_editor_sees_edit_controls_on_workspace_notes(world, login):
    page = login(world.editor).get(memory_url(world, "?tab=workspace"))
    for action in ("edit", "delete", "pin"):
        assert note_url(world, world.shared_note, action) in page.text


def test_R_RBAC_1_a_crafted_post_by_a_viewer_is_refused_403_and_changes_nothing(world, login):
    client = login(world.viewer)
    for action, data in [("delete", {}), ("pin", {"pinned": "false"}), ("edit", {"value": "Hijacked"})]:
        response = client.post(note_url(world, world.shared_note, action), data)
        assert response.status_code == 403, action
    htmx = client.post(note_url(world, world.shared_note, "delete"), HTTP_HX_REQUEST="true")
    assert htmx.status_code == 403 and "appenda:toast" in htmx["HX-Trigger"]
    switch = client.post(f"/w/{world.ws.slug}/settings/agents/memory/switch/", {"enabled": "false"})
    assert switch.status_code == 403
    note = Note.objects.for_workspace(world.ws).get(id=world.shared_note.id)
    assert note.value == "Dates use ISO 8601 in reports." and note.pinned
    assert Workspace.objects.get(pk=world.ws.pk).memory_enabled


def test_the_bots_tab_lists_the_bots_i_own_and_their_notes(world, login):
    owner_page = login(world.owner).get(memory_url(world, "?tab=bots"))
    assert "Report bot" in owner_page.text
    editor_page = login(world.editor).get(memory_url(world, "?tab=bots"))
    assert "Report bot" not in editor_page.text and "You own no bots" in editor_page.text


def test_tab_counts_and_search_and_filters(world, login):
    owner_actor = actor_for(world.owner, world.ws)
    memory_save(actor=owner_actor, key="charts.colour", value="Charts use the blue palette.")
    memory_save(actor=owner_actor, key="customers.plan", value="Plans are Free, Team and Pro.",
                layer="workspace", subject={"kind": "table", "id": str(world.table.id)})
    client = login(world.owner)
    page = client.get(memory_url(world))
    assert re.search(r'>Mine <span class="count">2<', page.text)
    assert re.search(r'>Workspace <span class="count">2<', page.text)
    found = notes_list(client.get(memory_url(world, "?tab=mine&q=blue+palette")).text)
    keys = re.findall(r'class="note-key">([^<]+)<', found)
    assert keys[0] == "charts.colour"  # best match first (ranked by recall.rank_queryset)
    pinned = notes_list(client.get(memory_url(world, "?tab=mine&pinned=yes")).text)
    assert "pref.tone" in pinned and "charts.colour" not in pinned
    about_table = notes_list(client.get(memory_url(world, f"?tab=workspace&table={world.table.id}")).text)
    assert "customers.plan" in about_table and "team.date_format" not in about_table
    assert "table Customers" in about_table


def test_htmx_search_returns_only_the_list_and_the_tab_counts(world, login):
    response = login(world.owner).get(memory_url(world, "?tab=mine&q=emoji"), HTTP_HX_REQUEST="true",
                                      HTTP_HX_TARGET="notes-list")
    assert response.status_code == 200
    assert 'id="notes-list"' in response.text and 'hx-swap-oob="true"' in response.text
    assert "<html" not in response.text and "pref.tone" in notes_list(response.text)


def test_R_REGION_3_a_region_that_is_down_answers_503_with_a_sentence_never_a_redirect_loop(world, login, monkeypatch):
    from appenda.errors import RegionUnavailable
    from webapp.views import memory as memory_views

    def region_down(actor):
        raise RegionUnavailable("The eu region is not answering; try again in a minute.")

    monkeypatch.setattr(memory_views, "memory_tabs", region_down)
    response = login(world.owner).get(memory_url(world))
    assert response.status_code == 503 and "The eu region is not answering" in response.text
    assert "region_unavailable" in response.text


# --- Actions ---------------------------------------------------------------------------------

def test_R_MANAGE_1_pin_edit_delete_go_through_the_services(world, login):
    client = login(world.owner)
    note = world.mine_note
    assert client.post(note_url(world, note, "pin"), {"pinned": "false"}).status_code == 302
    assert not Note.objects.for_workspace(world.ws).get(id=note.id).pinned
    assert client.post(note_url(world, note, "edit"), {"value": "Replies short and plain."}).status_code == 302
    assert Note.objects.for_workspace(world.ws).get(id=note.id).value == "Replies short and plain."
    assert client.post(note_url(world, note, "delete")).status_code == 302
    assert not Note.objects.for_workspace(world.ws).filter(id=note.id).exists()


def test_R_MANAGE_3_an_htmx_delete_answers_with_the_list_and_an_undo_toast(world, login):
    response = login(world.owner).post(
        note_url(world, world.mine_note, "delete"), HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL=f"http://testserver{memory_url(world, '?tab=mine')}",
    )
    assert response.status_code == 200 and 'id="notes-list"' in response.text
    assert "pref.tone" not in notes_list(response.text)
    trigger = response["HX-Trigger"]
    assert "appenda:toast" in trigger and "Deleted pref.tone." in trigger
    assert re.search(rf"/api/v1/workspaces/{world.ws.id}/changes/[0-9a-f-]+/undo/", trigger)


def test_R_MANAGE_3_the_undo_handle_of_a_page_delete_restores_the_note(world, login):
    client = login(world.owner)
    response = client.post(note_url(world, world.mine_note, "delete"), HTTP_HX_REQUEST="true")
    undo_url = json.loads(response["HX-Trigger"])["appenda:toast"]["undo"]
    restored = client.post(undo_url, content_type="application/json")  # as app.js's fetch: no form
    assert restored.status_code == 200, restored.content
    note = Note.objects.for_workspace(world.ws).get(key="pref.tone")
    assert note.value == "Keep replies short; no emoji." and note.pinned


def test_R_AGENT_2_notes_kept_from_a_deleted_bot_show_under_deleted_bots(world, login):
    from memories.bots import bot_delete

    actor = actor_for(world.owner, world.ws)
    turn = turns.turn_start(actor=actor, bot_ref=str(world.bot.id))
    memory_save(actor=actor, turn_id=turn.id, key="report.format", value="Reports are one page long.")
    client = login(world.owner)
    assert "report.format" in notes_list(client.get(memory_url(world, "?tab=bots")).text)
    bot_delete(actor=actor, bot=world.bot, memory="keep")
    assert "report.format" not in notes_list(client.get(memory_url(world, "?tab=bots")).text)
    deleted = client.get(memory_url(world, "?tab=deleted_bots")).text
    assert "report.format" in notes_list(deleted) and "Report bot" in deleted
    assert re.search(r'>Deleted bots <span class="count">1<', deleted)


def test_an_edit_with_a_secret_is_refused_in_the_form_and_nothing_changes(world, login):
    response = login(world.owner).post(note_url(world, world.mine_note, "edit"),
                                       {"value": "use key AKIAIOSFODNN7EXAMPLE for S3"})
    assert response.status_code == 422 and "secret" in response.text
    assert Note.objects.for_workspace(world.ws).get(id=world.mine_note.id).value == "Keep replies short; no emoji."


def test_R_TAINT_4_held_notes_show_why_they_wait_and_what_the_turn_read_then_keep(world, login):
    note = held_note(world, world.owner)
    client = login(world.owner)
    page = client.get(memory_url(world, "?tab=held"))
    assert "customers.churn" in page.text
    assert "saved after reading table Customers" in page.text
    assert "Before saving it, the turn had read:" in page.text and "<li>table Customers</li>" in page.text
    assert re.search(r'>Waiting for you <span class="count">1<', page.text)
    seen = re.search(r'name="version" value="([0-9a-f]+)"', page.text).group(1)  # what the Keep form sends
    assert client.post(note_url(world, note, "keep"), {"version": seen}).status_code == 302
    assert Note.objects.for_workspace(world.ws).get(id=note.id).state == Note.State.ACTIVE


def test_R_TAINT_3_a_routine_save_says_it_was_saved_in_a_routine_run(world, login):
    actor = actor_for(world.owner, world.ws)
    turn = turns.turn_start(actor=actor, kind="routine", bot_ref=str(world.bot.id))
    memory_save(actor=actor, turn_id=turn.id, key="report.day", value="Reports go out on Mondays.")
    page = login(world.owner).get(memory_url(world, "?tab=held"))
    assert "saved in a routine run" in page.text and "Report bot, in a routine run" in page.text


def test_R_TAINT_4_discard_deletes_a_held_note(world, login):
    note = held_note(world, world.owner)
    assert login(world.owner).post(note_url(world, note, "discard")).status_code == 302
    assert not Note.objects.for_workspace(world.ws).filter(id=note.id).exists()


def test_a_person_adds_a_note_from_the_page(world, login):
    client = login(world.editor)
    response = client.post(f"/w/{world.ws.slug}/settings/agents/memory/notes/new/",
                           {"key": "team.units", "value": "Use metric units.", "layer": "workspace"})
    assert response.status_code == 302
    assert Note.objects.for_workspace(world.ws).filter(key="team.units", layer="workspace").exists()


# --- The workspace switch (R-RECALL-5) ---------------------------------------------------------

def test_R_RECALL_5_the_switch_is_for_agent_managers_and_others_read_that_memory_is_off(world, login):
    client = login(world.admin)
    assert 'id="memory-switch-button"' in client.get(memory_url(world)).text
    assert client.post(f"/w/{world.ws.slug}/settings/agents/memory/switch/", {"enabled": "false"}).status_code == 302
    assert not Workspace.objects.get(pk=world.ws.pk).memory_enabled
    admin_page = client.get(memory_url(world)).text
    assert 'aria-checked="false"' in admin_page
    viewer_page = login(world.viewer).get(memory_url(world)).text
    assert "Memory is off for this workspace" in viewer_page and 'id="memory-switch-button"' not in viewer_page
    assert Note.objects.for_workspace(world.ws).count() == 2  # turning it off deletes nothing


# --- Members and blind delete (R-RBAC-3) ------------------------------------------------------

def test_R_RBAC_3_members_page_is_for_admins_only(world, login):
    for user in (world.viewer, world.editor):
        assert login(user).get(f"/w/{world.ws.slug}/settings/members/").status_code == 403
    assert login(world.admin).get(f"/w/{world.ws.slug}/settings/members/").status_code == 200


def test_R_RBAC_3_blind_delete_page_never_contains_the_notes_text(world, login):
    editor_actor = actor_for(world.editor, world.ws)
    secret_texts = ["Prefers the aubergine dashboard theme.", "Lunch orders go through the kiosk."]
    for index, text in enumerate(secret_texts):
        memory_save(actor=editor_actor, key=f"pref.private_{index}", value=text)
    client = login(world.admin)
    page = client.get(f"/w/{world.ws.slug}/settings/members/")
    assert page.status_code == 200 and "editor@example.com" in page.text
    row = page.text.split("editor@example.com")[1].split("</tr>")[0]
    assert '<td class="num" data-label="Their notes">2</td>' in row
    for text in secret_texts:
        assert text not in page.text
    assert "pref.private" not in page.text
    after = client.post(f"/w/{world.ws.slug}/settings/members/{world.editor.pk}/delete-notes/", follow=True)
    assert after.status_code == 200 and "Deleted 2 notes of editor@example.com, unread." in after.text
    for text in secret_texts:
        assert text not in after.text
    assert not Note.objects.for_workspace(world.ws).filter(owner_user_id=world.editor.pk).exists()


def test_R_RBAC_3_a_blind_delete_posted_by_an_editor_is_refused(world, login):
    memory_save(actor=actor_for(world.viewer, world.ws), key="pref.x", value="Viewer note.")
    response = login(world.editor).post(f"/w/{world.ws.slug}/settings/members/{world.viewer.pk}/delete-notes/")
    assert response.status_code == 403
    assert Note.objects.for_workspace(world.ws).filter(owner_user_id=world.viewer.pk).exists()


# --- Security headers and forms --------------------------------------------------------------

def test_CSRF_is_required_on_every_form(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.owner)
    refused = client.post(note_url(world, world.mine_note, "delete"))
    assert refused.status_code == 403
    assert Note.objects.for_workspace(world.ws).filter(id=world.mine_note.id).exists()
    page = client.get(memory_url(world))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    accepted = client.post(note_url(world, world.mine_note, "delete"), {"csrfmiddlewaretoken": token})
    assert accepted.status_code == 302


def test_every_form_that_posts_carries_a_csrf_token(world, login):
    held_note(world, world.owner)
    client = login(world.owner)
    for path in [*workspace_pages(world), memory_url(world, "?tab=held"), "/settings/memory/"]:
        html = client.get(path).text
        for form in re.findall(r"<form[^>]*method=\"post\"[^>]*>.*?</form>", html, flags=re.S):
            assert "csrfmiddlewaretoken" in form, (path, form[:120])


def test_CSP_header_forbids_inline_script_and_style_and_pages_use_none(world, login):
    client = login(world.owner)
    held_note(world, world.owner)
    for path in [*workspace_pages(world), "/", "/settings/memory/"]:
        response = client.get(path)
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy, path
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        html = response.text
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), path
        assert not re.search(r"\sstyle=", html), path
        assert not re.search(r"\son[a-z]+=", html), path


def test_session_cookie_is_http_only_and_same_site(world, client):
    response = client.post("/login/", {"username": "owner@example.com", "password": "correct horse battery"})
    cookie = response.cookies["sessionid"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"


# --- Instance rules and personal settings ------------------------------------------------------

def test_instance_rules_page_is_for_instance_admins_who_add_edit_and_delete(world, login):
    assert login(world.owner).get("/instance/rules/").status_code == 403
    assert login(world.owner).post("/instance/rules/", {"key": "x.y", "value": "z"}).status_code == 403
    root = make_user("root@example.com", instance_admin=True)
    client = login(root)
    assert client.post("/instance/rules/", {"key": "policy.language", "value": "Answer in English."}).status_code == 302
    from workspaces.models import InstanceRule

    rule = InstanceRule.objects.get(key="policy.language")
    assert "policy.language" in client.get("/instance/rules/").text
    client.post(f"/instance/rules/{rule.id}/edit/", {"key": "policy.language", "value": "Answer in the asker's language."})
    assert InstanceRule.objects.get(pk=rule.pk).value == "Answer in the asker's language."
    refused = client.post("/instance/rules/", {"key": "ops.token", "value": "token ghp_abcdefghijklmnopqrstuvwxyz0123456789"})
    assert refused.status_code == 422 and "secret" in refused.text
    client.post(f"/instance/rules/{rule.id}/delete/")
    assert not InstanceRule.objects.exists()


def test_R_SAVE_3b_a_rule_naming_a_person_waits_on_the_page_until_an_admin_keeps_it(world, login):
    from workspaces.models import InstanceRule

    root = make_user("root@example.com", instance_admin=True)
    client = login(root)
    added = client.post("/instance/rules/", {"key": "policy.billing",
                                             "value": "Ask Maria Gonzalez before changing the billing schema."})
    assert added.status_code == 302
    rule = InstanceRule.objects.get(key="policy.billing")
    assert rule.state == "held"
    page = client.get("/instance/rules/").text
    assert "Waiting for you" in page and "it may name a person" in page and f'id="keep-rule-{rule.id}"' in page
    members_page = login(world.owner).get(memory_url(world, "?tab=rules"))
    assert members_page.status_code == 200 and "Gonzalez" not in members_page.text  # no rule of a workspace yet
    client = login(root)
    stale = client.post(f"/instance/rules/{rule.id}/keep/", {"version": "0" * 16})
    assert stale.status_code == 409 and InstanceRule.objects.get(pk=rule.pk).state == "held"
    version = re.search(r'name="version" value="([0-9a-f]+)"', page).group(1)
    assert client.post(f"/instance/rules/{rule.id}/keep/", {"version": version}).status_code == 302
    assert InstanceRule.objects.get(pk=rule.pk).state == "active"
    assert "Gonzalez" in login(world.owner).get(memory_url(world, "?tab=rules")).text


def test_R_MODE_1_my_memory_settings_use_the_reference_wording_and_save(world, login):
    client = login(world.viewer)
    page = client.get("/settings/memory/").text
    for label in ("Save it and tell me", "Ask me first", "Always confirm", "Never"):
        assert f">{label}</label>" in page
    response = client.post("/settings/memory/", {"enabled": "on", "save_mode": "always", "messaging_save": "never"})
    assert response.status_code == 302
    row = MemorySettings.objects.get(user=world.viewer)
    assert (row.enabled, row.save_mode, row.messaging_save) == (True, "always", "never")
    bad = client.post("/settings/memory/", {"enabled": "on", "save_mode": "sometimes", "messaging_save": "ask"})
    assert bad.status_code == 422 and MemorySettings.objects.get(user=world.viewer).save_mode == "always"


# --- Playground --------------------------------------------------------------------------------

def test_playground_turn_read_save_is_held_then_refused_secret_then_search(world, login):
    client = login(world.owner)
    base = f"/w/{world.ws.slug}/playground/"
    started = client.post(base + "turn/", {"bot": "", "kind": "chat", "table": str(world.table.id)})
    assert started.status_code == 200 and "What the model gets" in started.text
    assert "team.date_format" in started.text  # pinned workspace note in the context
    turn_id = re.search(r'name="turn" value="([0-9a-f-]+)"', started.text).group(1)
    read = client.post(base + "read/", {"turn": turn_id, "table": str(world.table.id)}, HTTP_HX_REQUEST="true")
    assert "This turn has read: table Customers" in read.text
    saved = client.post(base + "save/", {"turn": turn_id, "key": "customers.churn",
                                          "value": "Churned customers have status churned.",
                                          "subject": str(world.table.id)}, HTTP_HX_REQUEST="true")
    assert "Waiting for you to keep it" in saved.text and "tainted_turn" in saved.text
    assert "saved after reading table Customers" in saved.text
    refused = client.post(base + "save/", {"turn": turn_id, "key": "ops.aws",
                                            "value": "AKIAIOSFODNN7EXAMPLE is the key"}, HTTP_HX_REQUEST="true")
    assert "Refused" in refused.text and "secret_detected" in refused.text
    found = client.post(base + "search/", {"turn": turn_id, "q": "date format"}, HTTP_HX_REQUEST="true")
    assert "team.date_format" in found.text and "churn" not in found.text  # held notes are never recalled


def test_R_TAINT_3_playground_as_my_bot_in_a_routine_run_holds_the_save(world, login):
    client = login(world.owner)
    base = f"/w/{world.ws.slug}/playground/"
    started = client.post(base + "turn/", {"bot": str(world.bot.id), "kind": "routine"})
    assert "Bot <strong>Report bot</strong> (memory: mine and its own)" in started.text
    turn_id = re.search(r'name="turn" value="([0-9a-f-]+)"', started.text).group(1)
    saved = client.post(base + "save/", {"turn": turn_id, "key": "report.day", "value": "Reports go out on Mondays."})
    assert "Waiting for you to keep it" in saved.text and "saved in a routine run" in saved.text
    note = Note.objects.for_workspace(world.ws).get(key="report.day")
    assert (note.layer, note.bot_id, note.state) == ("bot", world.bot.id, "held")


def test_R_RECALL_5_playground_context_says_memory_is_off(world, login):
    Workspace.objects.filter(pk=world.ws.pk).update(memory_enabled=False)
    started = login(world.owner).post(f"/w/{world.ws.slug}/playground/turn/", {"kind": "chat"})
    assert "Appenda memory is off" in started.text and "team.date_format" not in started.text


def test_playground_refuses_a_turn_of_another_person(world, login):
    actor = actor_for(world.owner, world.ws)
    turn = turns.turn_start(actor=actor)
    response = login(world.editor).post(f"/w/{world.ws.slug}/playground/save/",
                                        {"turn": str(turn.id), "key": "a.b", "value": "c"})
    assert "turn_unknown" in response.text
    assert not Note.objects.for_workspace(world.ws).filter(key="a.b").exists()
