"""The controls the API has, in a real Chromium (issue 19): export and download, forget with a
typed word, the trash, a note's history with undo, the Bots page (new token shown once, delete
with export), private chats as a switch, and the layout on a phone (members as cards, the tab
row's overflow hint) and in dark mode. Each test fails on any console error: a CSP violation
or a script error (the ``page`` fixture of test_browser.py). Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re
import zipfile

import pytest

from memories import turns
from memories.models import Note
from memories.services import memory_save, memory_update
from tests.factories import ALL_DATABASES, make_bot, token_client, url
from tests.webapp.test_browser import browser, page, shoot, sign_in, world
from workspaces.capabilities import actor_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases=ALL_DATABASES)]

PHONE = {"width": 390, "height": 844}
SHARED_FIXTURES = (browser, page, world)  # test_browser.py's, asked for by name below


def ws_path(world, path: str) -> str:
    return f"/w/{world.ws.slug}/{path}"


def confirm(page, button: str) -> None:
    from playwright.sync_api import expect

    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name=button).click()


def test_R_MANAGE_4_export_download_then_forget_with_the_typed_word_then_restore(world, page, tmp_path):
    from playwright.sync_api import expect

    sign_in(page, "owner@example.com")
    page.goto(ws_path(world, "settings/agents/memory/export/"))
    page.get_by_role("button", name="Export my notes").click()
    expect(page.locator("#toasts")).to_contain_text("Your export of 2 notes is ready")
    with page.expect_download() as download:
        page.get_by_role("link", name=re.compile("Download the zip")).first.click()
    saved = tmp_path / "export.zip"
    download.value.save_as(saved)
    assert any("mine" in name for name in zipfile.ZipFile(saved).namelist())

    page.get_by_label("Type “forget” to confirm").fill("yes please")
    page.get_by_role("button", name="Forget these notes").click()
    field_error = page.locator("#forget-error")
    expect(field_error).to_contain_text("Type “forget” in the box")
    expect(page.get_by_label("Type “forget” to confirm")).to_have_attribute("aria-invalid", "true")
    shoot(page, "export-and-forget-refused")
    page.get_by_label("Type “forget” to confirm").fill("forget")
    page.get_by_role("button", name="Forget these notes").click()
    expect(page.get_by_role("heading", name="Trash", exact=True)).to_be_visible()
    expect(page.locator("#toasts")).to_contain_text("Moved 1 note to the trash")
    row = page.locator(".note", has_text="pref.tone")
    expect(row).to_contain_text("purged in")
    shoot(page, "trash")
    row.get_by_role("button", name="Restore pref.tone").click()
    expect(page.locator("#toasts")).to_contain_text("Restored pref.tone.")
    expect(page.locator("#trash-list")).to_contain_text("Your trash is empty.")
    assert Note.objects.for_workspace(world.ws).get(id=world.mine_note.id).trashed_at is None


def test_R_MANAGE_3_a_notes_history_shows_the_change_and_undo_puts_the_text_back(world, page):
    from playwright.sync_api import expect

    memory_update(actor=actor_for(world.owner, world.ws), note_id=world.shared_note.id,
                  value="Dates are written out in full.")
    sign_in(page, "owner@example.com")
    page.goto(ws_path(world, "settings/agents/memory/changes/"))
    link = page.get_by_role("link", name="team.date_format").first
    link.click()
    expect(page.get_by_role("heading", name="History of team.date_format")).to_be_visible()
    edit = page.locator(".change", has_text="Edited")
    expect(edit).to_contain_text("Dates use ISO 8601 in reports.")
    expect(edit).to_contain_text("Dates are written out in full.")
    shoot(page, "note-history")
    edit.get_by_role("button", name=re.compile("^Undo")).click()
    expect(page.locator("#toasts")).to_contain_text("Undone: 1 note back as before.")
    expect(page.locator(".change", has_text="Edited")).to_contain_text("Undone")
    assert Note.objects.for_workspace(world.ws).get(id=world.shared_note.id).value == "Dates use ISO 8601 in reports."


def test_R_AGENT_1_bots_page_memory_choice_new_token_once_and_delete_with_export(world, page, tmp_path):
    from playwright.sync_api import expect

    bot, old_key = make_bot(world.ws, world.owner, name="Sales bot")
    bot_actor = actor_for(bot.account, world.ws)
    memory_save(actor=bot_actor, turn_id=turns.turn_start(actor=bot_actor).id, key="sales.region",
                value="Sales reports group by region.")
    sign_in(page, "owner@example.com")
    page.locator(".workspace-card", has_text="Acme EU").get_by_role("link", name="Bots").click()
    expect(page.get_by_role("navigation", name="Acme EU").get_by_role("link", name="Bots")).to_have_attribute(
        "aria-current", "page")
    card = page.locator(".bot-card", has_text="Sales bot")
    card.locator("summary", has_text="Memory and saves").click()
    card.get_by_label("Its own only").check()
    card.get_by_label("Always confirm").check()
    card.get_by_role("button", name="Save Sales bot").click()
    expect(page.locator("#toasts")).to_contain_text("Saved Sales bot: memory its own only, saves always confirm.")

    page.locator(f"#rotate-{bot.id}").click()
    confirm(page, "New token")
    key = page.get_by_role("textbox", name="Token")
    expect(key).to_be_visible()
    new_key = key.input_value()
    assert new_key and new_key != old_key
    shoot(page, "bots-new-token")
    assert token_client(old_key).get(url(world.ws)).status_code == 401
    assert token_client(new_key).get(url(world.ws)).status_code == 200

    card = page.locator(".bot-card", has_text="Sales bot")
    card.locator("summary", has_text="Delete").click()
    card.get_by_label("Export, then delete").check()
    page.locator(f"#delete-bot-{bot.id}").click()
    with page.expect_download() as download:
        confirm(page, "Delete the bot")
    saved = tmp_path / "bot.zip"
    download.value.save_as(saved)
    assert zipfile.ZipFile(saved).namelist()
    expect(page.locator(".bot-card", has_text="Sales bot")).to_have_count(0)  # the page reloads after
    expect(page.locator("#toasts")).to_contain_text("Deleted Sales bot")


def test_R_PRIVATE_1_a_private_chat_switches_off_and_back_on(world, page):
    from playwright.sync_api import expect

    turns.turn_start(actor=actor_for(world.owner, world.ws), chat_id="chat-42", private=True)
    sign_in(page, "owner@example.com")
    page.goto(ws_path(world, "settings/agents/memory/private-chats/"))
    switch = page.get_by_role("switch", name=re.compile("chat-42"))
    expect(switch).to_have_attribute("aria-checked", "true")
    switch.click()
    expect(page.get_by_role("switch", name=re.compile("chat-42"))).to_have_attribute("aria-checked", "false")
    expect(page.locator("#toasts")).to_contain_text("uses memory again")
    assert turns.turn_start(actor=actor_for(world.owner, world.ws), chat_id="chat-42").private is False
    page.get_by_role("switch", name=re.compile("chat-42")).click()
    expect(page.get_by_role("switch", name=re.compile("chat-42"))).to_have_attribute("aria-checked", "true")
    assert turns.turn_start(actor=actor_for(world.owner, world.ws), chat_id="chat-42").private is True
    shoot(page, "private-chats")


def test_on_a_phone_members_are_cards_and_the_tab_row_shows_it_scrolls(world, page):
    from playwright.sync_api import expect

    memory_save(actor=actor_for(world.editor, world.ws), key="pref.units", value="Metric units.")
    page.set_viewport_size(PHONE)
    sign_in(page, "admin@example.com")
    page.goto(ws_path(world, "settings/members/"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    button = page.get_by_role("button", name=re.compile("Delete their notes.*editor@example.com"))
    box = button.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    shoot(page, "members-phone")
    button.click()
    confirm(page, "Delete their notes")
    expect(page.locator("#toasts")).to_contain_text("Deleted 1 note of editor@example.com, unread.")

    page.goto(ws_path(world, "settings/agents/memory/trash/"))
    tabs = page.locator("#memory-sections")
    overflow = tabs.evaluate("el => ({scroll: el.scrollWidth, client: el.clientWidth, "
                             "shade: getComputedStyle(el).backgroundImage})")
    assert overflow["scroll"] > overflow["client"], overflow  # more tabs than fit …
    assert overflow["shade"].count("gradient") == 4, overflow  # … and the scroll shades say so
    last = page.get_by_role("link", name="Private chats")
    last.scroll_into_view_if_needed()
    expect(last).to_be_in_viewport()
    shoot(page, "tabs-phone")
    page.goto(ws_path(world, "settings/agents/memory/export/"))  # its tab is past the edge: scrolled to
    # (0.9: the row clips the pixel of the tab's underline that covers the row's own border)
    expect(page.locator("#memory-sections [aria-current=page]")).to_be_in_viewport(ratio=0.9)


def test_dark_mode_follows_the_system_setting(world, page):
    page.emulate_media(color_scheme="dark")
    sign_in(page, "owner@example.com")
    page.goto(ws_path(world, "settings/agents/bots/"))
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    text = page.evaluate("getComputedStyle(document.body).color")
    assert background == "rgb(15, 20, 27)" and text == "rgb(230, 235, 242)", (background, text)
    shoot(page, "bots-dark")
    page.emulate_media(color_scheme="light")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(245, 246, 248)"


def test_R_MANAGE_3_an_undo_that_a_later_change_blocks_points_to_the_history(world, page):
    from playwright.sync_api import expect

    sign_in(page, "owner@example.com")
    page.goto(ws_path(world, "settings/agents/memory/"))
    page.locator(f"#delete-{world.mine_note.id}").click()
    confirm(page, "Delete")
    toast = page.locator("#toasts .toast", has_text="Deleted pref.tone")
    expect(toast).to_be_visible()
    memory_save(actor=actor_for(world.owner, world.ws), key="pref.tone", value="Friendly, with examples.")
    toast.get_by_role("button", name="Undo").click()
    refused = page.locator("#toasts .toast--error")
    expect(refused).to_contain_text("cannot come back beside it")
    refused.get_by_role("link", name="Open the history").click()
    expect(page.get_by_role("heading", name="History of changes")).to_be_visible()
