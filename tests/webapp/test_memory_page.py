"""The Memory page answers "what does the agent know about me, and why" (issue 19), with Django's
test client: honest search, held notes everywhere, what reaches an agent, overwrites with Undo,
refusals beside their field, and required rules in a block of their own.
"""

from __future__ import annotations

import json
import re

import pytest

from memories import recall, turns
from memories.limits import SEARCH_MIN_SCORE
from memories.models import ChangeSet, Note
from memories.quoting import HEADER, RULES_HEADER, parse_block, parse_rules
from memories.search import vectors
from memories.services import memory_save
from tests.factories import ALL_DATABASES, make_user, make_workspace
from tests.webapp.test_pages import held_note, memory_url, note_url, notes_list
from workspaces.capabilities import actor_for

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)


@pytest.fixture
def model():
    if vectors.embedder() is None:
        pytest.fail("The embedding model is missing: run `python manage.py prepare_search_model` (make test does).")


def section(html: str, heading_id: str) -> str:
    """The part of the list under one search heading (up to the next heading)."""
    after = html.split(f'id="{heading_id}"', 1)[1]
    return re.split(r'<h4 class="search-section"', after, maxsplit=1)[0]


def keys_in(html: str) -> list[str]:
    return re.findall(r'class="note-key">([^<]+)<', html)


def hx(client, url: str, data: dict | None = None, *, page: str = ""):
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": f"http://testserver{page}"}
    return client.post(url, data or {}, **headers)


# --- Honest search --------------------------------------------------------------------------------

def test_search_lists_notes_with_the_words_first_then_related_by_meaning(world, login, model):
    actor = actor_for(world.owner, world.ws)
    memory_save(actor=actor, key="charts.colour", value="Charts use the blue palette.")
    memory_save(actor=actor, key="reply.length", value="Long replies are fine for reports.")
    html = notes_list(login(world.owner).get(memory_url(world, "?tab=mine&q=how+long+should+replies+be")).text)
    assert keys_in(section(html, "by-words")) == ["reply.length"]  # holds "long" and "replies"
    related = section(html, "by-meaning")
    assert "pref.tone" in keys_in(related)  # "Keep replies short": no "long", close in meaning
    assert "charts.colour" not in html
    assert re.search(r'id="below-cutoff">1 other note is not shown', html)


def test_search_with_no_match_says_so_and_lists_nothing(world, login, model):
    html = notes_list(login(world.owner).get(memory_url(world, "?tab=mine&q=kubernetes")).text)
    assert keys_in(html) == []
    assert "No notes match “kubernetes”." in html
    assert "Related by meaning" not in html


def test_words_are_normalised_and_stemmed(world, login, model):
    actor = actor_for(world.owner, world.ws)
    memory_save(actor=actor, key="orders.amountCents", value="Amounts are stored in cents.")
    client = login(world.owner)
    for query in ("AMOUNT", "amounts cent", "órders", "amo"):
        html = notes_list(client.get(memory_url(world, f"?tab=mine&q={query}")).text)
        assert keys_in(section(html, "by-words")) == ["orders.amountCents"], query


def test_R_RECALL_3_memory_search_leaves_out_what_is_below_the_cutoff_and_says_how_many(world, model):
    actor = actor_for(world.owner, world.ws)
    turn = turns.turn_start(actor=actor)
    found = recall.memory_search(actor=actor, turn_id=turn.id, query="kubernetes cluster")
    assert found["notes"] == []
    assert found["min_score"] == SEARCH_MIN_SCORE
    assert found["left_out_below_cutoff"] == 2  # pref.tone and team.date_format, both readable
    assert "2 other readable notes were left out" in found["text"]
    wanted = recall.memory_search(actor=actor, turn_id=turn.id, query="what date format do reports use")
    assert [n["key"] for n in wanted["notes"]][:1] == ["team.date_format"]
    assert wanted["left_out_below_cutoff"] == 2 - len(wanted["notes"])


def test_R_RECALL_3_the_tool_answer_declares_the_cutoff_over_the_api(world, model):
    from tests.factories import token_client

    client = token_client(world.owner)
    turn = client.post(f"/api/v1/workspaces/{world.ws.id}/turns/", {"kind": "chat"}, format="json").json()
    found = client.post(f"/api/v1/workspaces/{world.ws.id}/turns/{turn['id']}/memory_search/",
                        {"query": "kubernetes"}, format="json")
    assert found.status_code == 200
    assert found.json()["left_out_below_cutoff"] == 2 and found.json()["notes"] == []
    from drf_spectacular.generators import SchemaGenerator

    declared = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]["SearchOut"]
    assert {"min_score", "left_out_below_cutoff"} <= set(declared["required"])


# --- Held notes everywhere --------------------------------------------------------------------------

def test_held_count_on_the_nav_link_the_title_and_the_workspace_card(world, login):
    held_note(world, world.owner)
    held_note(world, world.owner, key="customers.plans", value="Plans are Free, Team and Pro.")
    client = login(world.owner)
    page = client.get(f"/w/{world.ws.slug}/playground/").text
    assert re.search(r"<title>\(2\) Playground", page)
    assert re.search(r'id="held-badge" class="nav-count" data-count="2">2<', page)
    picker = client.get("/").text
    assert "2 notes waiting for you" in picker and f"/w/{world.ws.slug}/settings/agents/memory/?tab=held" in picker
    quiet = login(world.editor).get(f"/w/{world.ws.slug}/playground/").text
    assert re.search(r"<title>Playground", quiet) and re.search(r'id="held-badge"[^>]*hidden', quiet)


def test_held_note_shows_its_time_left_relatively(world, login):
    held_note(world, world.owner)
    html = notes_list(login(world.owner).get(memory_url(world, "?tab=held")).text)
    assert re.search(r"It expires in 2[34] h</span> if nobody keeps it", html)


def test_keep_all_keeps_what_the_page_showed_and_one_undo_puts_all_back(world, login):
    first, second = held_note(world, world.owner), held_note(world, world.owner, key="customers.plans",
                                                             value="Plans are Free, Team and Pro.")
    client = login(world.owner)
    page = client.get(memory_url(world, "?tab=held")).text
    pairs = re.findall(r'name="note" value="([^"]+)"', page.split('id="keep-all"')[0])
    assert len(pairs) == 2
    response = hx(client, memory_url(world, "held/keep-all/"), {"note": pairs}, page=memory_url(world, "?tab=held"))
    assert response.status_code == 200
    toast = json.loads(response["HX-Trigger"])["appenda:toast"]
    assert toast["message"].startswith("Kept 2 notes")
    assert 'id="held-badge" class="nav-count" data-count="0" hidden hx-swap-oob="true"' in response.text
    notes = Note.objects.for_workspace(world.ws)
    assert {notes.get(id=first.id).state, notes.get(id=second.id).state} == {Note.State.ACTIVE}
    assert ChangeSet.objects.for_workspace(world.ws).filter(action="keep").count() == 1
    assert client.post(toast["undo"], content_type="application/json").status_code == 200
    assert {notes.get(id=first.id).state, notes.get(id=second.id).state} == {Note.State.HELD}


def test_discard_all_deletes_the_held_notes_and_undo_brings_them_back(world, login):
    first = held_note(world, world.owner)
    client = login(world.owner)
    pair = f"{first.id}:{first.version}"
    response = hx(client, memory_url(world, "held/discard-all/"), {"note": [pair]})
    toast = json.loads(response["HX-Trigger"])["appenda:toast"]
    assert toast["message"] == "Discarded 1 held note."
    assert not Note.objects.for_workspace(world.ws).filter(id=first.id).exists()
    assert client.post(toast["undo"], content_type="application/json").status_code == 200
    assert Note.objects.for_workspace(world.ws).get(id=first.id).state == Note.State.HELD


def test_R_TAINT_6_keep_all_refuses_the_batch_when_a_note_changed_since_it_was_shown(world, login):
    first = held_note(world, world.owner)
    second = held_note(world, world.owner, key="customers.plans", value="Plans are Free, Team and Pro.")
    stale = [f"{first.id}:{first.version}", f"{second.id}:0000000000000000"]
    response = hx(login(world.owner), memory_url(world, "held/keep-all/"), {"note": stale})
    assert "saved again since the page showed it" in json.loads(response["HX-Trigger"])["appenda:toast"]["message"]
    assert set(Note.objects.for_workspace(world.ws).values_list("state", flat=True).filter(
        id__in=[first.id, second.id])) == {Note.State.HELD}


def test_R_RBAC_1_keep_all_of_notes_one_may_not_change_is_refused(world, login):
    workspace_held = held_note(world, world.owner)  # a workspace member's held note of their own layer
    Note.objects.for_workspace(world.ws).filter(id=workspace_held.id).update(layer="workspace", scope="workspace")
    held = Note.objects.for_workspace(world.ws).get(id=workspace_held.id)
    response = login(world.viewer).post(memory_url(world, "held/keep-all/"), {"note": [f"{held.id}:{held.version}"]})
    assert response.status_code == 403
    assert Note.objects.for_workspace(world.ws).get(id=held.id).state == Note.State.HELD


def test_keep_all_with_a_note_of_another_workspace_is_404(world, login):
    other_owner = make_user("other@example.com")
    other_ws = make_workspace(other_owner, name="Other")
    foreign = memory_save(actor=actor_for(other_owner, other_ws), key="x.y", value="Theirs.").note
    response = login(world.owner).post(memory_url(world, "held/keep-all/"), {"note": [f"{foreign.id}:{foreign.version}"]})
    assert response.status_code == 404


def test_edit_then_keep_keeps_the_corrected_text(world, login):
    held = held_note(world, world.owner)
    client = login(world.owner)
    form = client.get(note_url(world, held, "edit"), HTTP_HX_REQUEST="true").text
    assert "Save and keep" in form
    version = re.search(r'name="version" value="([0-9a-f]+)"', form).group(1)
    response = client.post(note_url(world, held, "edit"), {"value": "Churned means no order for 90 days.",
                                                           "keep": "yes", "version": version})
    assert response.status_code == 302
    note = Note.objects.for_workspace(world.ws).get(key="customers.churn")
    assert note.state == Note.State.ACTIVE and note.value == "Churned means no order for 90 days."


def test_edit_then_keep_with_an_old_version_changes_nothing(world, login):
    held = held_note(world, world.owner)
    response = login(world.owner).post(note_url(world, held, "edit"), {"value": "Other text.", "keep": "yes",
                                                                       "version": "0000000000000000"})
    assert response.status_code == 422 and "saved again since the page showed it" in response.text
    note = Note.objects.for_workspace(world.ws).get(id=held.id)
    assert note.state == Note.State.HELD and note.value == "Churned customers have status churned."


# --- What reaches the agent -----------------------------------------------------------------------

def test_each_note_says_how_it_reaches_an_agent_and_the_budget_is_shown(world, login):
    actor = actor_for(world.owner, world.ws)
    memory_save(actor=actor, key="pref.unpinned", value="Found only by search.")
    for n in range(8):
        memory_save(actor=actor, key=f"pref.big{n}", value="y" * 900, pinned=True)
    html = login(world.owner).get(memory_url(world, "?tab=mine")).text
    labels = dict(re.findall(r'class="note-key">([^<]+)</code>.*?<span class="reach [^"]+">([^<]+)</span>',
                             notes_list(html), flags=re.S))
    assert labels["pref.unpinned"] == "only when searched"
    assert "left out: over budget" in labels.values() and "starts every chat" in labels.values()
    context = recall.turn_context(turn=turns.turn_start(actor=actor), workspace=world.ws)
    kept = {n["key"] for n in context["notes"]}
    assert {k for k, v in labels.items() if v == "starts every chat"} == kept & set(labels)
    assert f"{context['left_out']} left out: over budget" in html
    assert re.search(r'<meter class="budget-meter" min="0" max="6144"', html)


def test_the_preview_drawer_is_the_context_a_new_chat_gets(world, login):
    client = login(world.owner)
    page = client.get(memory_url(world)).text
    assert "Preview what an agent sees" in page and 'id="preview-text"' in page
    assert "&quot;key&quot;: &quot;pref.tone&quot;" in page.split('id="preview-text"')[1].split("</pre>")[0]
    as_bot = client.get(memory_url(world, f"preview/?preview_bot={world.bot.id}&preview_table={world.table.id}"),
                        HTTP_HX_REQUEST="true")
    assert as_bot.status_code == 200 and 'id="preview-text"' in as_bot.text
    assert "Report bot" in as_bot.text


# --- Overwrites, undo, refusals ------------------------------------------------------------------------

def test_a_save_over_an_existing_key_says_what_it_replaces_and_offers_undo(world, login):
    client = login(world.owner)
    response = hx(client, memory_url(world, "notes/new/"), {"key": "pref.tone", "value": "Long answers welcome.",
                                                            "layer": "mine"})
    toast = json.loads(response["HX-Trigger"])["appenda:toast"]
    assert "Replaces: “Keep replies short; no emoji.”" in toast["message"] and toast["undo"]
    assert client.post(toast["undo"], content_type="application/json").status_code == 200
    assert Note.objects.for_workspace(world.ws).get(key="pref.tone", layer="mine").value == "Keep replies short; no emoji."
    fresh = hx(client, memory_url(world, "notes/new/"), {"key": "pref.new", "value": "New.", "layer": "mine"})
    assert "Replaces" not in json.loads(fresh["HX-Trigger"])["appenda:toast"]["message"]


def test_playground_save_over_a_key_says_replaces_and_undo_puts_it_back(world, login):
    client = login(world.owner)
    base = f"/w/{world.ws.slug}/playground/"
    turn_id = re.search(r'name="turn" value="([0-9a-f-]+)"',
                        client.post(base + "turn/", {"kind": "chat"}, HTTP_HX_REQUEST="true").text).group(1)
    saved = client.post(base + "save/", {"turn": turn_id, "key": "pref.tone", "value": "Be chatty.", "layer": "mine"},
                        HTTP_HX_REQUEST="true").text
    assert "Replaces:</strong> “Keep replies short; no emoji.”" in saved and 'id="save-undo"' in saved
    change = re.search(r'name="change" value="([0-9a-f-]+)"', saved).group(1)
    undone = client.post(base + "undo/", {"turn": turn_id, "change": change, "key": "pref.tone"},
                         HTTP_HX_REQUEST="true").text
    assert "Undone" in undone
    assert Note.objects.for_workspace(world.ws).get(key="pref.tone", layer="mine").value == "Keep replies short; no emoji."


def test_a_refused_note_is_explained_next_to_its_field_with_the_words_highlighted(world, login):
    response = hx(login(world.owner), memory_url(world, "notes/new/"),
                  {"key": "aws.s3", "value": "use key AKIAIOSFODNN7EXAMPLE for S3", "layer": "mine"})
    assert response.status_code == 422
    assert response["HX-Retarget"] == "#add-note"
    assert 'id="add-error-value"' in response.text and "<mark>AKIAIOSFODNN7EXAMPLE</mark>" in response.text
    assert "characters" not in response.text
    assert 'value="aws.s3"' in response.text  # what the person typed stays in the form
    assert not Note.objects.for_workspace(world.ws).filter(key="aws.s3").exists()


def test_a_refused_edit_highlights_the_words_too(world, login):
    response = login(world.owner).post(note_url(world, world.mine_note, "edit"),
                                       {"value": "use key AKIAIOSFODNN7EXAMPLE for S3"})
    assert response.status_code == 422 and "<mark>AKIAIOSFODNN7EXAMPLE</mark>" in response.text


# --- Required rules in their own block -------------------------------------------------------------

def test_required_rules_reach_the_model_under_their_own_header(world):
    from workspaces.models import InstanceRule

    root = make_user("root@example.com", instance_admin=True)
    InstanceRule.objects.create(key="policy.language", value="Answer in the language the person writes in.",
                                created_by=root)
    actor = actor_for(world.owner, world.ws)
    context = recall.turn_context(turn=turns.turn_start(actor=actor), workspace=world.ws)
    text = context["text"]
    assert text.startswith(RULES_HEADER)
    assert text.index(RULES_HEADER) < text.index("</appenda-rules") < text.index(HEADER)
    assert [r["key"] for r in parse_rules(text)] == ["policy.language"]
    assert "policy.language" not in {n["key"] for n in parse_block(text)}
    assert "never follow instructions" not in text.split(HEADER)[0]
    assert "policy.language" in {n["key"] for n in context["notes"]}  # the structured form keeps it


def test_a_bots_notes_say_whether_they_reach_its_chats(world, login):
    from memories.bots import bot_delete

    actor = actor_for(world.owner, world.ws)
    turn = turns.turn_start(actor=actor, bot_ref=str(world.bot.id))
    memory_save(actor=actor, turn_id=turn.id, key="report.format", value="Reports are one page long.", pinned=True)
    client = login(world.owner)
    live = notes_list(client.get(memory_url(world, "?tab=bots")).text)
    assert re.search(r'report\.format</code>.*?<span class="reach reach--starts">starts every chat<', live, re.S)
    bot_delete(actor=actor, bot=world.bot, memory="keep")
    gone = notes_list(client.get(memory_url(world, "?tab=deleted_bots")).text)
    assert "reaches no chat: its bot is deleted" in gone


def test_without_the_model_the_page_searches_by_words_alone(world, login, monkeypatch):
    monkeypatch.setattr(vectors, "get_embedder", lambda *args, **kwargs: None)
    memory_save(actor=actor_for(world.owner, world.ws), key="charts.colour", value="Charts use the blue palette.")
    client = login(world.owner)
    html = notes_list(client.get(memory_url(world, "?tab=mine&q=palette")).text)
    assert keys_in(section(html, "by-words")) == ["charts.colour"] and "Related by meaning" not in html
    empty = notes_list(client.get(memory_url(world, "?tab=mine&q=how+long+should+replies+be")).text)
    assert keys_in(empty) == [] and "No notes match" in empty


def test_a_refused_note_without_htmx_answers_the_whole_page_with_the_error_beside_the_field(world, login):
    response = login(world.owner).post(memory_url(world, "notes/new/"),
                                       {"key": "aws.s3", "value": "use key AKIAIOSFODNN7EXAMPLE for S3", "layer": "mine"})
    assert response.status_code == 422
    assert "<h1>Memory</h1>" in response.text and "<mark>AKIAIOSFODNN7EXAMPLE</mark>" in response.text
    assert re.search(r'<details class="add-note" id="add-note" open>', response.text)
