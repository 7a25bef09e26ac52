"""Every page of the demo, at 1280×800 and 390×844, in a real Chromium (issue 19):

- axe-core (``axe-playwright-python``) finds no serious or critical violation;
- the console stays clean: no script error, no CSP violation (the ``page`` fixture);
- on the phone nothing is wider than the screen;
- a full-page screenshot of each goes to test-artifacts/screenshots/a11y/.

The demo is the one ``make run`` shows (``load_demo``), with a held note, a trashed note, a
change, an export and a private chat added so that no page is checked empty. A few pages are
checked again in dark mode, where the colours differ.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from memories import trash, turns
from memories.export import memory_export_create
from memories.services import memory_save
from tests.factories import ALL_DATABASES
from tests.webapp.test_browser import SCREENSHOTS, browser, page
from workspaces.capabilities import actor_for
from workspaces.management.commands.load_demo import DEMO_PASSWORD
from workspaces.models import Bot, Workspace

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases=ALL_DATABASES)]

VIEWPORTS = {"wide": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
BLOCKING = ("serious", "critical")
SHARED_FIXTURES = (browser, page)  # test_browser.py's, asked for by name below


def demo_with_everything() -> Workspace:
    call_command("load_demo", verbosity=0)
    workspace = Workspace.objects.get(slug="demo-eu")
    owner = get_user_model().objects.get(email="owner@demo.appenda.test")
    actor = actor_for(owner, workspace)
    memory_save(actor=actor, key="pref.tone", value="Keep replies short; no emoji.", pinned=True)
    memory_save(actor=actor, key="pref.units", value="Metric units in every report.")
    trash.memory_forget(actor=actor, confirm=True)  # both mine notes to the trash …
    memory_save(actor=actor, key="pref.lang", value="Answer in the language the person writes in.")
    bot = Bot.objects.get(workspace=workspace, name="Report bot")
    bot_actor = actor_for(bot.account, workspace)
    turn = turns.turn_start(actor=bot_actor, chat_id="weekly-report", private=False)
    turns.turn_record_read(actor=bot_actor, turn_id=turn.id, source="web", ref="https://example.com/pricing")
    memory_save(actor=bot_actor, turn_id=turn.id, key="pricing.page", value="Pricing changes go out on Mondays.")
    turns.turn_start(actor=actor, chat_id="therapy-notes", private=True)
    memory_export_create(actor=actor)
    return workspace


def sign_in_demo(page, email: str) -> None:
    from playwright.sync_api import expect

    page.context.clear_cookies()
    page.goto("/login/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your workspaces")).to_be_visible()


def blocking_violations(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page).response
    assert len(results["passes"]) >= 10, "axe did not run its rules"  # a checker that checks nothing passes all
    return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
            for v in results["violations"] if v.get("impact") in BLOCKING]


def test_the_axe_check_finds_a_broken_control(page):
    """The check below is only worth its green if it can go red: an unnamed button is critical."""
    page.goto("/login/")
    page.evaluate("document.querySelector('main').append(document.createElement('button'))")
    assert any(v.startswith("button-name (critical)") for v in blocking_violations(page))


def check(page, path: str, name: str, viewport: str, problems: list[str]) -> None:
    response = page.goto(path)
    assert response is not None and response.ok, (path, response and response.status)
    for violation in blocking_violations(page):
        problems.append(f"{viewport} {path}: {violation}")
    if viewport == "phone":
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > VIEWPORTS["phone"]["width"]:
            problems.append(f"{viewport} {path}: the page is {width} px wide on a 390 px screen")
    page.screenshot(path=str(SCREENSHOTS / "a11y" / f"{name}-{viewport}.png"), full_page=True)


def test_every_demo_page_passes_axe_and_runs_clean_at_both_sizes(page):
    workspace = demo_with_everything()
    (SCREENSHOTS / "a11y").mkdir(parents=True, exist_ok=True)
    ws = f"/w/{workspace.slug}"
    memory = f"{ws}/settings/agents/memory/"
    note = str(next(iter(trash.trash_list(actor=actor_for(get_user_model().objects.get(email="owner@demo.appenda.test"),
                                                           workspace)))).id)
    pages = {
        "owner@demo.appenda.test": {
            "workspaces": "/", "memory-mine": memory, "memory-workspace": f"{memory}?tab=workspace",
            "memory-held": f"{memory}?tab=held", "memory-bots": f"{memory}?tab=bots",
            "memory-rules": f"{memory}?tab=rules", "history": f"{memory}changes/",
            "note-history": f"{memory}notes/{note}/history/", "trash": f"{memory}trash/",
            "export": f"{memory}export/", "private-chats": f"{memory}private-chats/", "bots": f"{ws}/settings/agents/bots/",
            "members": f"{ws}/settings/members/", "playground": f"{ws}/playground/",
            "your-settings": "/settings/memory/", "your-tokens": "/settings/tokens/",
        },
        "viewer@demo.appenda.test": {"viewer-memory": f"{memory}?tab=workspace", "viewer-bots": f"{ws}/settings/agents/bots/"},
        "root@demo.appenda.test": {"instance-rules": "/instance/rules/"},
    }
    problems: list[str] = []
    for viewport, size in VIEWPORTS.items():
        page.set_viewport_size(size)
        page.context.clear_cookies()
        check(page, "/login/", "sign-in", viewport, problems)
        for email, paths in pages.items():
            sign_in_demo(page, email)
            for name, path in paths.items():
                check(page, path, name, viewport, problems)
    page.emulate_media(color_scheme="dark")
    sign_in_demo(page, "owner@demo.appenda.test")
    for name in ("memory-held", "bots", "export", "history"):
        check(page, pages["owner@demo.appenda.test"][name], f"{name}-dark", "phone", problems)
    assert problems == []
