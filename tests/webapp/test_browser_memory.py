"""The Memory page of issue 19 in a real headless Chromium, at 1280×800 and at 390×844: honest
search, the held count and Keep all with its one Undo, and an overwrite with its Undo.

The browser, the live server and the ``page`` fixture are test_browser.py's: ``page`` fails the
test on any script error or CSP violation in the console. Screenshots go to
test-artifacts/screenshots/.
"""

from __future__ import annotations

import re

import pytest

from memories.models import Note
from memories.services import memory_save
from tests.factories import ALL_DATABASES
from tests.webapp.test_browser import browser, memory_path, page, shoot, sign_in, world  # noqa: F401 (fixtures)
from tests.webapp.test_pages import held_note
from workspaces.capabilities import actor_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases=ALL_DATABASES)]

VIEWPORTS = {"wide": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def at(page, viewport: str) -> None:  # noqa: F811 (the fixture)
    page.set_viewport_size(VIEWPORTS[viewport])


def no_sideways_scroll(page) -> None:  # noqa: F811
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_search_words_first_then_meaning_and_an_empty_state(world, page, viewport):  # noqa: F811
    from playwright.sync_api import expect

    memory_save(actor=actor_for(world.owner, world.ws), key="reply.length", value="Long replies are fine for reports.")
    at(page, viewport)
    page.add_init_script("window.__csp = []; document.addEventListener('securitypolicyviolation', "
                         "(e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
    sign_in(page, "owner@example.com")
    page.goto(memory_path(world))
    search = page.get_by_label("Search notes")
    search.fill("kubernetes")
    expect(page.locator("#no-match")).to_contain_text("No notes match “kubernetes”.")
    expect(page.locator("#notes-list .note")).to_have_count(0)
    search.fill("how long should replies be")
    expect(page.locator("#by-meaning")).to_be_visible()
    words = page.locator("#notes-list > ul.notes:not(.notes--related) .note")
    expect(words).to_have_count(1)
    expect(words.first).to_contain_text("reply.length")
    expect(page.locator(".notes--related .note", has_text="pref.tone")).to_be_visible()
    shoot(page, f"memory-search-{viewport}")
    no_sideways_scroll(page)
    page.get_by_text("Preview what an agent sees").click()
    expect(page.locator("#preview-text")).to_contain_text('"key": "pref.tone"')
    page.locator("#preview-table").select_option(label="Customers")  # an htmx swap of the drawer
    expect(page.locator("#preview-text")).to_contain_text("appenda-notes")
    page.locator("#budget summary").click()
    expect(page.locator(".budget-table")).to_contain_text("Your pinned notes")
    # The console check: no CSP violation through all these swaps (the page fixture fails the test
    # on any console error or script error too).
    assert page.evaluate("window.__csp") == []


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_held_count_everywhere_then_keep_all_and_one_undo(world, page, viewport):  # noqa: F811
    from playwright.sync_api import expect

    held_note(world, world.owner)
    held_note(world, world.owner, key="customers.plans", value="Plans are Free, Team and Pro.")
    at(page, viewport)
    sign_in(page, "owner@example.com")
    expect(page.locator(".held-card")).to_contain_text("2 notes waiting for you")
    page.goto(f"/w/{world.ws.slug}/playground/")
    expect(page.locator("#held-badge")).to_have_text(re.compile(r"^2"))
    assert page.title().startswith("(2) ")
    page.goto(memory_path(world, "?tab=held"))
    expect(page.locator(".expires").first).to_contain_text(re.compile(r"expires in 2[34] h"))
    shoot(page, f"memory-held-{viewport}")
    page.locator("#keep-all").click()
    expect(page.locator("#toasts")).to_contain_text("Kept 2 notes")
    expect(page.locator("#held-badge")).to_be_hidden()
    page.wait_for_function("() => !document.title.startsWith('(')")
    assert Note.objects.for_workspace(world.ws).filter(state=Note.State.HELD).count() == 0
    shoot(page, f"memory-kept-all-{viewport}")
    page.locator("#toasts .toast", has_text="Kept 2 notes").get_by_role("button", name="Undo").click()
    expect(page.locator("#toasts")).to_contain_text("Undone.")
    expect(page.locator("#notes-list .note")).to_have_count(2)
    assert Note.objects.for_workspace(world.ws).filter(state=Note.State.HELD).count() == 2
    no_sideways_scroll(page)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_an_overwrite_says_what_it_replaces_and_only_the_newest_toast_can_undo(world, page, viewport):  # noqa: F811
    from playwright.sync_api import expect

    memory_save(actor=actor_for(world.owner, world.ws), key="pref.extra", value="Another note.")
    at(page, viewport)
    sign_in(page, "owner@example.com")
    page.goto(memory_path(world))
    page.get_by_text("Add a note yourself").click()
    page.locator("#add-key").fill("pref.tone")
    page.locator("#add-value").fill("Long answers are welcome.")
    page.get_by_role("button", name="Save the note").click()
    first = page.locator("#toasts .toast", has_text="Replaces: “Keep replies short; no emoji.”")
    expect(first).to_be_visible()
    expect(first.get_by_role("button", name="Undo")).to_be_visible()
    if viewport == "wide":  # the toast sits off the page's buttons (the rows' and the form's)
        toast_box = first.bounding_box()
        for button in page.locator("main button:visible, main a.btn:visible").all():
            box = button.bounding_box()
            overlap = not (box["x"] + box["width"] <= toast_box["x"] or toast_box["x"] + toast_box["width"] <= box["x"]
                           or box["y"] + box["height"] <= toast_box["y"] or toast_box["y"] + toast_box["height"] <= box["y"])
            assert not overlap, "a toast covers a row's button"
    shoot(page, f"memory-overwrite-{viewport}")

    page.locator(".note", has_text="pref.extra").get_by_role("button", name="Delete pref.extra").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    expect(page.locator("#toasts")).to_contain_text("Deleted pref.extra.")
    expect(page.locator("#toasts [data-undo-url]")).to_have_count(1)  # the older toast lost its Undo
    expect(first.get_by_role("button", name="Undo")).to_have_count(0)
    page.locator("#toasts .toast", has_text="Deleted pref.extra.").get_by_role("button", name="Undo").click()
    expect(page.locator("#toasts")).to_contain_text("Undone.")
    expect(page.locator(".note", has_text="pref.extra")).to_be_visible()
    no_sideways_scroll(page)


def test_a_refused_note_is_explained_beside_the_field_with_the_words_marked(world, page):  # noqa: F811
    from playwright.sync_api import expect

    at(page, "phone")
    sign_in(page, "owner@example.com")
    page.goto(memory_path(world))
    page.get_by_text("Add a note yourself").click()
    page.locator("#add-key").fill("aws.s3")
    page.locator("#add-value").fill("use key AKIAIOSFODNN7EXAMPLE for S3")
    page.get_by_role("button", name="Save the note").click()
    error = page.locator("#add-error-value")
    expect(error).to_contain_text("The highlighted words look like a secret")
    expect(error.locator("mark")).to_have_text("AKIAIOSFODNN7EXAMPLE")
    expect(page.locator("#add-key")).to_have_value("aws.s3")
    shoot(page, "memory-refused-phone")
