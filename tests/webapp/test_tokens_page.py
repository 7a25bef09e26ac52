"""Your API tokens page (issue 17): list, make (the key shown once), revoke — through the same
services as /api/v1/me/tokens/, with CSRF, no inline script or style, and nobody else's tokens.

Django's test client for the rules; one browser test for the whole path a person takes.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.factories import ALL_DATABASES, make_user, token_client
from tests.webapp import test_browser
from workspaces.models import ApiToken
from workspaces.tokens import token_create

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

PAGE = "/settings/tokens/"


def revoke_url(token: ApiToken) -> str:
    return f"{PAGE}{token.public_id}/revoke/"


def shown_key(html: str) -> str:
    return re.search(r'id="new-token-key" type="text" readonly value="([^"]+)"', html).group(1)


def test_anonymous_people_are_sent_to_sign_in(client):
    response = client.get(PAGE)
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    assert client.post(PAGE, {"name": "x"}).status_code == 302
    assert not ApiToken.objects.exists()


def test_the_page_is_linked_from_the_account_menu_and_lists_only_my_tokens(world, login):
    token_create(user=world.owner, name="Laptop")
    token_create(user=world.viewer, name="Viewer's script")
    client = login(world.owner)
    assert f'href="{PAGE}"' in client.get("/settings/memory/").text
    page = client.get(PAGE)
    assert page.status_code == 200
    assert "Laptop" in page.text and "Viewer&#x27;s script" not in page.text and "Viewer's script" not in page.text
    mine = ApiToken.objects.get(user=world.owner)
    assert f"{mine.prefix}…" in page.text and mine.digest not in page.text
    assert 'id="new-token-key"' not in page.text


def test_a_token_made_on_the_page_is_shown_once_works_then_is_revoked(world, login):
    client = login(world.owner)
    made = client.post(PAGE, {"name": "CI job", "expiry": "30"})
    assert made.status_code == 200 and "no-store" in made["Cache-Control"]
    key = shown_key(made.text)
    assert key.startswith("apd_") and "shown this once" in made.text
    token = ApiToken.objects.get(user=world.owner, name="CI job")
    assert timedelta(days=29) < token.expires_at - timezone.now() <= timedelta(days=30)
    assert token_client(key).get("/api/v1/me/").json()["id"] == world.owner.pk

    again = client.get(PAGE)
    assert key not in again.text and "CI job" in again.text and revoke_url(token) in again.text

    revoked = client.post(revoke_url(token), follow=True)
    assert revoked.status_code == 200 and "Revoked the token CI job" in revoked.text
    assert revoke_url(token) not in revoked.text and "Revoked" in revoked.text
    assert token_client(key).get("/api/v1/me/").status_code == 401


def test_a_token_that_never_expires(world, login):
    made = login(world.owner).post(PAGE, {"name": "Forever", "expiry": ""})
    assert made.status_code == 200 and shown_key(made.text)
    assert ApiToken.objects.get(user=world.owner, name="Forever").expires_at is None


@pytest.mark.parametrize("form, sentence", [
    ({"name": "", "expiry": "30"}, "Give the token a name"),
    ({"name": "x" * 101, "expiry": "30"}, "at most 100 characters"),
    ({"name": "x", "expiry": "1000"}, "1 to 365 days"),
    ({"name": "x", "expiry": "soon"}, "Choose when the token expires"),
])
def test_a_refused_form_comes_back_with_the_sentence_why_and_makes_nothing(world, login, form, sentence):
    response = login(world.owner).post(PAGE, form)
    assert response.status_code == 422 and sentence in response.text
    assert 'id="new-token-key"' not in response.text
    assert not ApiToken.objects.filter(user=world.owner).exists()


def test_another_persons_token_cannot_be_revoked_from_my_page(world, login):
    token_create(user=world.viewer, name="Viewer's")
    theirs = ApiToken.objects.get(user=world.viewer)
    client = login(world.owner)
    assert client.post(revoke_url(theirs)).status_code == 404
    assert client.post(f"{PAGE}not-a-uuid/revoke/").status_code == 404
    assert client.get(revoke_url(theirs)).status_code == 405
    assert ApiToken.objects.get(pk=theirs.pk).revoked_at is None


def test_expired_and_revoked_tokens_say_so_and_have_no_revoke_button(world, login):
    token_create(user=world.owner, name="Old")
    token_create(user=world.owner, name="Gone")
    old, gone = ApiToken.objects.get(name="Old"), ApiToken.objects.get(name="Gone")
    ApiToken.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(days=1))
    ApiToken.objects.filter(pk=gone.pk).update(revoked_at=timezone.now())
    page = login(world.owner).get(PAGE).text
    assert "Expired" in page and "Revoked" in page
    assert revoke_url(old) not in page and revoke_url(gone) not in page


def test_CSRF_is_required_and_the_page_has_no_inline_script_or_style(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.owner)
    assert client.post(PAGE, {"name": "x", "expiry": "30"}).status_code == 403
    assert not ApiToken.objects.filter(user=world.owner).exists()
    page = client.get(PAGE)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    made = client.post(PAGE, {"name": "x", "expiry": "30", "csrfmiddlewaretoken": token})
    assert made.status_code == 200
    for response in (page, made):
        html = response.text
        policy = response["Content-Security-Policy"]
        assert "unsafe-inline" not in policy
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
        assert not re.search(r"\sstyle=", html) and not re.search(r"\son[a-z]+=", html)
        for form in re.findall(r"<form[^>]*method=\"post\"[^>]*>.*?</form>", html, flags=re.S):
            assert "csrfmiddlewaretoken" in form


def test_a_stranger_sees_an_empty_list(db, client):
    stranger = make_user("stranger@example.com")
    client.force_login(stranger)
    assert "You have no API tokens yet." in client.get(PAGE).text


# --- in a real browser --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def in_browser():
    """``in_browser(step)`` runs ``step()`` in the thread that owns this module's Chromium:
    Playwright's sync API allows one instance per thread, and test_browser.py keeps its own for
    the session (the same way as test_api_docs.py)."""
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from playwright.sync_api import sync_playwright

    if not Path(test_browser.CHROMIUM).exists():
        pytest.fail(f"{test_browser.CHROMIUM} is missing: install Debian's chromium (`make browser`).")
    test_browser.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tokens-chromium")
    started = {}

    def start():
        started["playwright"] = sync_playwright().start()
        started["browser"] = started["playwright"].chromium.launch(
            executable_path=test_browser.CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )

    def stop():
        started["browser"].close()
        started["playwright"].stop()

    thread.submit(start).result()
    yield lambda step, *args: thread.submit(step, started["browser"], *args).result()
    thread.submit(stop).result()
    thread.shutdown()


@pytest.fixture
def live_world(transactional_db):
    from tests.webapp.conftest import build_world

    return build_world()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, databases=ALL_DATABASES)
def test_in_the_browser_a_person_makes_copies_and_revokes_a_token(live_world, in_browser, live_server):
    """The browser's steps run in its thread; the API calls with the key run here, in the tests' own."""
    from playwright.sync_api import expect

    errors: list[str] = []
    tab = {}

    def make_a_token(browser):
        expect.set_options(timeout=10_000)
        tab["context"] = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
        page = tab["page"] = tab["context"].new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        test_browser.sign_in(page, "owner@example.com")
        page.get_by_role("link", name="API tokens").click()
        expect(page.get_by_role("heading", name="Your API tokens")).to_be_visible()
        page.get_by_label("Name").fill("Laptop")
        page.get_by_label("Expires").select_option(label="In 30 days")
        page.get_by_role("button", name="Make the token").click()
        expect(page.locator("#new-token-key")).to_be_visible()
        test_browser.shoot(page, "api-tokens-new")
        return page.locator("#new-token-key").input_value()

    def revoke_it(browser):
        page = tab["page"]
        page.get_by_role("button", name="Revoke Laptop").click()
        page.locator("#confirm-ok").click()
        expect(page.locator("#toasts")).to_contain_text("Revoked the token Laptop")
        expect(page.locator("#new-token-key")).to_have_count(0)
        expect(page.locator("#token-list")).to_contain_text("Revoked")

    def close(browser):
        tab["context"].close()

    try:
        key = in_browser(make_a_token)
        assert key.startswith("apd_")
        assert token_client(key).get("/api/v1/me/").status_code == 200
        in_browser(revoke_it)
        assert token_client(key).get("/api/v1/me/").status_code == 401
    finally:
        if "context" in tab:
            in_browser(close)
    assert [e for e in errors if not e.startswith("Failed to load resource")] == []
