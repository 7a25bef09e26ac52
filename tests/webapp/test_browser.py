"""The web app in a real headless Chromium against a live server on loopback (R-MANAGE-2).

One browser for the whole session (Debian's chromium, never a downloaded build), a fresh
context per test. The live server shares the test databases (both regions), which pytest-django
flushes after each transactional test. Screenshots of each main page go to
test-artifacts/screenshots/ (git-ignored) for a reviewer to look at.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.conf import settings

from memories.models import Note
from memories.services import memory_save
from tests.factories import ALL_DATABASES
from tests.webapp.conftest import PASSWORD, build_world
from workspaces.capabilities import actor_for
from workspaces.models import Workspace

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases=ALL_DATABASES)]

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(settings.BASE_DIR) / "test-artifacts" / "screenshots"


class _SharedChromium:
    """One Chromium for the whole run, however many modules ask for ``browser``.

    The browser tests of other modules import this module's fixtures; pytest then keeps one
    session fixture per module, and a second ``sync_playwright()`` in the same thread fails
    ("Sync API inside the asyncio loop"). So the fixtures share this one and count their users:
    the last to finish closes it, before the live server stops (keep-alive sockets)."""

    users = 0
    playwright = None
    chromium = None
    previous_async_unsafe: str | None = None

    @classmethod
    def acquire(cls):
        from playwright.sync_api import sync_playwright

        if cls.chromium is None:
            if not Path(CHROMIUM).exists():
                pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (`make browser` or apt-get install "
                            "chromium).")
            # Playwright's sync API keeps an event loop running in this thread; Django's guard against
            # ORM calls from async code would then refuse the tests' own (synchronous) database setup.
            cls.previous_async_unsafe = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            cls.playwright = sync_playwright().start()
            cls.chromium = cls.playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
        cls.users += 1
        return cls.chromium

    @classmethod
    def release(cls) -> None:
        cls.users -= 1
        if cls.users or cls.chromium is None:
            return
        cls.chromium.close()
        cls.playwright.stop()
        cls.chromium = cls.playwright = None
        if cls.previous_async_unsafe is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = cls.previous_async_unsafe


@pytest.fixture(scope="session")
def browser(live_server):
    """Debian's Chromium (never a downloaded build), shared by every module's browser tests."""
    yield _SharedChromium.acquire()
    _SharedChromium.release()


@pytest.fixture
def page(browser, live_server):
    from playwright.sync_api import expect

    expect.set_options(timeout=10_000)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(10_000)  # a missing control fails in seconds, not after Playwright's 30
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    yield tab
    context.close()
    # A CSP violation or a script error shows up here: the pages must run clean. (Refused
    # requests, which some tests make on purpose, log "Failed to load resource" and are fine.)
    assert [e for e in errors if not e.startswith("Failed to load resource")] == []


@pytest.fixture
def world(transactional_db):
    return build_world()


def sign_in(page, email: str) -> None:
    from playwright.sync_api import expect

    page.goto("/login/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your workspaces")).to_be_visible()


def shoot(page, name: str) -> None:
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def memory_path(world, query: str = "") -> str:
    return f"/w/{world.ws.slug}/settings/agents/memory/{query}"


def start_turn(page, *, table: str | None = None, form: str = "start"):
    from playwright.sync_api import expect

    if table:
        page.locator(f"#{form}-table").select_option(label=table)
    page.locator(f"#{form}-button").click()
    expect(page.locator("#context-text")).to_be_visible()


def test_R_MANAGE_2_playground_read_save_held_keep_then_next_turn_recalls_it(world, page):
    from playwright.sync_api import expect

    sign_in(page, "owner@example.com")
    shoot(page, "workspaces")
    page.get_by_role("link", name="Open the playground").click()
    expect(page.get_by_role("heading", name="Playground", exact=True)).to_be_visible()
    start_turn(page, table="Customers")
    page.get_by_role("button", name="Read the table").click()
    expect(page.locator("#turn-reads")).to_contain_text("This turn has read: table Customers")
    page.get_by_label("Key").fill("customers.churn")
    page.get_by_label("Value").fill("Churned customers have status churned.")
    page.get_by_role("button", name="Save the note").click()
    outcome = page.locator("#save-outcome")
    expect(outcome).to_contain_text("Waiting for you to keep it")
    expect(outcome).to_contain_text("saved after reading table Customers")
    shoot(page, "playground")

    page.get_by_role("link", name="Open “Waiting for you”").click()
    row = page.locator(".note", has_text="customers.churn")
    expect(row).to_contain_text("Why it waits: saved after reading table Customers")
    expect(row.locator(".held-reads")).to_contain_text("table Customers")
    expect(page.locator(".tab[aria-current=page]")).to_contain_text("Waiting for you 1")
    shoot(page, "memory-waiting-for-you")
    row.get_by_role("button", name="Keep customers.churn").click()
    expect(page.locator("#toasts")).to_contain_text("Kept customers.churn")
    expect(page.locator(".note", has_text="customers.churn")).to_have_count(0)
    expect(page.locator(".tab[aria-current=page]")).to_contain_text("Waiting for you 0")

    page.goto(f"/w/{world.ws.slug}/playground/")
    start_turn(page, table="Customers")
    expect(page.locator("#context-text")).to_contain_text('"key": "customers.churn"')
    shoot(page, "playground-next-turn")


def test_R_RBAC_1_viewer_sees_no_edit_controls_and_a_crafted_post_is_refused(world, page):
    from playwright.sync_api import expect

    sign_in(page, "viewer@example.com")
    page.goto(memory_path(world, "?tab=workspace"))
    row = page.locator(".note", has_text="team.date_format")
    expect(row).to_contain_text("Dates use ISO 8601 in reports.")
    expect(row.locator("button, a.btn")).to_have_count(0)
    expect(page.get_by_role("switch")).to_have_count(0)
    shoot(page, "memory-viewer")

    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    delete = page.request.post(f"{memory_path(world)}notes/{world.shared_note.id}/delete/",
                               form={"csrfmiddlewaretoken": token})
    assert delete.status == 403
    switch = page.request.post(f"{memory_path(world)}switch/", form={"csrfmiddlewaretoken": token, "enabled": "false"})
    assert switch.status == 403
    assert Note.objects.for_workspace(world.ws).filter(id=world.shared_note.id).exists()
    assert Workspace.objects.get(pk=world.ws.pk).memory_enabled


def test_R_RECALL_5_switch_off_playground_says_memory_is_off_switch_on_notes_are_back(world, page):
    from playwright.sync_api import expect

    sign_in(page, "admin@example.com")
    page.goto(memory_path(world))
    switch = page.get_by_role("switch", name="Agent memory in this workspace")
    expect(switch).to_have_attribute("aria-checked", "true")
    shoot(page, "memory-mine")
    switch.click()
    expect(page.get_by_role("switch")).to_have_attribute("aria-checked", "false")
    expect(page.locator("#toasts")).to_contain_text("Memory is off")

    page.goto(f"/w/{world.ws.slug}/playground/")
    start_turn(page)
    expect(page.locator("#context-off")).to_be_visible()
    expect(page.locator("#context-text")).to_contain_text("Appenda memory is off (workspace)")
    expect(page.locator("#context-text")).not_to_contain_text("team.date_format")
    shoot(page, "playground-memory-off")

    page.goto(memory_path(world))
    page.get_by_role("switch").click()
    expect(page.get_by_role("switch")).to_have_attribute("aria-checked", "true")
    page.goto(f"/w/{world.ws.slug}/playground/")
    start_turn(page)
    expect(page.locator("#context-text")).to_contain_text('"key": "team.date_format"')


def test_R_RBAC_3_blind_delete_removes_a_members_notes_and_the_page_never_shows_them(world, page):
    from playwright.sync_api import expect

    texts = ["Prefers the aubergine dashboard theme.", "Lunch orders go through the kiosk."]
    editor_actor = actor_for(world.editor, world.ws)
    for index, text in enumerate(texts):
        memory_save(actor=editor_actor, key=f"pref.private_{index}", value=text)
    sign_in(page, "admin@example.com")
    seen: list[str] = []
    page.on("response", lambda r: seen.append(r.text()) if "text/html" in (r.headers.get("content-type") or "") else None)
    page.goto(f"/w/{world.ws.slug}/settings/members/")
    row = page.get_by_role("row", name=re.compile("editor@example.com"))
    expect(row).to_contain_text("2")
    shoot(page, "members")
    row.get_by_role("button", name="Delete their notes").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Delete all 2 notes of editor@example.com?")
    dialog.get_by_role("button", name="Delete their notes").click()
    expect(page.locator("#toasts")).to_contain_text("Deleted 2 notes of editor@example.com, unread.")
    expect(page.get_by_role("row", name=re.compile("editor@example.com"))).to_contain_text("No notes")
    assert not Note.objects.for_workspace(world.ws).filter(owner_user_id=world.editor.pk).exists()
    html = "".join(seen) + page.content()
    for text in [*texts, "pref.private"]:
        assert text not in html


def focus_ring(page) -> dict:
    return page.evaluate(
        """() => { const el = document.activeElement; const s = getComputedStyle(el);
                   return {id: el.id, text: (el.innerText || el.value || '').trim(), tag: el.tagName,
                           visible: el.matches(':focus-visible'), outline: s.outlineStyle,
                           width: parseFloat(s.outlineWidth), shadow: s.boxShadow}; }"""
    )


def test_keyboard_only_main_actions_are_reachable_with_visible_focus(world, page):
    from playwright.sync_api import expect

    sign_in(page, "owner@example.com")
    page.goto(memory_path(world))
    note_id = world.mine_note.id
    wanted = {"memory-switch-button", "note-search", f"pin-{note_id}", f"edit-{note_id}", f"delete-{note_id}"}
    reached: dict[str, dict] = {}
    for _ in range(60):
        page.keyboard.press("Tab")
        ring = focus_ring(page)
        if ring["id"] in wanted or ring["text"].startswith(("Skip to content", "Waiting for you")):
            reached[ring["id"] or ring["text"]] = ring
        if ring["id"] == f"delete-{note_id}":
            break
    assert wanted <= set(reached), f"not reached by Tab: {wanted - set(reached)}"
    assert any(k.startswith("Waiting for you") for k in reached) and any(k.startswith("Skip") for k in reached)
    for name, ring in reached.items():
        assert ring["visible"], name
        assert (ring["outline"] != "none" and ring["width"] >= 2) or ring["shadow"] != "none", (name, ring)
    shoot(page, "keyboard-focus")

    # Delete with the keyboard: Enter opens the dialog (focus on Cancel), Tab to Delete, Enter.
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    assert focus_ring(page)["text"] == "Cancel"
    page.keyboard.press("Tab")
    assert focus_ring(page)["text"] == "Delete"
    page.keyboard.press("Enter")
    toast = page.locator("#toasts .toast", has_text="Deleted pref.tone.")
    expect(toast).to_be_visible()
    expect(page.locator(f"#note-{note_id}")).to_have_count(0)
    # Focus is never lost on <body>: once htmx settles the swap (after its settle delay), the list
    # has it. Waited for, not read at once: the note leaves the page before the swap settles.
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'notes-list'",
                           timeout=5000)
    assert focus_ring(page)["id"] == "notes-list"

    # Undo sits in the toast; it posts to the API's undo endpoint for the change set (R-MANAGE-3).
    undo = toast.get_by_role("button", name="Undo")
    undo.focus()
    with page.expect_response(re.compile(rf"/api/v1/workspaces/{world.ws.id}/changes/[0-9a-f-]+/undo/$")) as sent:
        page.keyboard.press("Enter")
    assert sent.value.ok, sent.value.text()
    expect(page.locator("#toasts")).to_contain_text("Undone.")
    expect(page.locator(".note", has_text="pref.tone")).to_contain_text("Keep replies short; no emoji.")

    # The switch works from the keyboard too.
    page.locator("#memory-switch-button").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("switch")).to_have_attribute("aria-checked", "false")


def test_screenshots_of_the_other_main_pages_on_wide_and_narrow_screens(world, page):
    from playwright.sync_api import expect

    root_email = "root@example.com"
    from tests.factories import make_user

    make_user(root_email, instance_admin=True, password=PASSWORD)
    sign_in(page, "owner@example.com")
    page.goto(memory_path(world, "?tab=workspace"))
    shoot(page, "memory-workspace")
    page.locator(f"#edit-{world.shared_note.id}").click()
    expect(page.get_by_label("Value of team.date_format")).to_be_focused()
    page.get_by_label("Value of team.date_format").fill("Dates use ISO 8601 (2024-05-31) everywhere.")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".note", has_text="team.date_format")).to_contain_text("(2024-05-31) everywhere")
    page.goto(memory_path(world, "?tab=bots"))
    shoot(page, "memory-bots")
    page.goto("/settings/memory/")
    shoot(page, "your-memory-settings")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(memory_path(world))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(page, "memory-narrow")
    page.goto(f"/w/{world.ws.slug}/playground/")
    start_turn(page, table="Customers")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(page, "playground-narrow")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.get_by_role("button", name="Sign out").click()
    sign_in(page, root_email)
    page.goto("/instance/rules/")
    page.get_by_label("Key").fill("policy.language")
    page.get_by_label("Value").fill("Answer in the language the person writes in.")
    page.get_by_role("button", name="Add the rule").click()
    expect(page.locator("#toasts")).to_contain_text("Added the rule policy.language")
    shoot(page, "instance-rules")
    page.goto("/login/")  # signed in already: the sign-in page sends you on
    page.context.clear_cookies()
    page.goto("/login/")
    shoot(page, "sign-in")
