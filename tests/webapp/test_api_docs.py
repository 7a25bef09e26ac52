"""The API docs pages in a real headless Chromium, under the app's own CSP (R-API-1).

Swagger UI at /api/v1/docs/ and ReDoc at /api/v1/redoc/ load everything from this server
(drf-spectacular-sidecar's static files): each page must list every operation of the schema
with no console error or warning, no CSP violation and no request to any other origin.
Screenshots go to test-artifacts/screenshots/ like the web app's.

Playwright's sync API allows one instance per thread, and test_browser.py keeps its Chromium
for the whole session: this module drives its own from a thread of its own, so the two work in
either order.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest
from django.conf import settings

from tests.webapp.test_browser import CHROMIUM, SCREENSHOTS

pytestmark = [pytest.mark.browser]

OPERATIONS = ("get", "put", "post", "delete", "patch")
MEMORY_SAVE = "/api/v1/workspaces/{ws}/turns/{turn}/memory_save/"
# Set before any of the page's scripts run: every CSP violation it reports.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => window.__cspViolations.push(
  `${event.effectiveDirective} refused ${event.blockedURI || "inline"} ${event.sample || ""}`));
"""


@pytest.fixture(scope="module")
def in_browser() -> Callable:
    """``in_browser(check)`` runs ``check(browser)`` in the thread that owns this module's Chromium."""
    from pathlib import Path

    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (`make browser` or apt-get install chromium).")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="api-docs-chromium")
    started = {}

    def start():
        started["playwright"] = sync_playwright().start()
        started["browser"] = started["playwright"].chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )

    def stop():
        started["browser"].close()
        started["playwright"].stop()

    thread.submit(start).result()
    yield lambda check: thread.submit(check, started["browser"]).result()
    thread.submit(stop).result()
    thread.shutdown()


@contextmanager
def docs_tab(browser, base_url: str):
    """A tab that records console errors and warnings, script errors, CSP violations, and any
    request that would leave the live server (refused, never sent)."""
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
    elsewhere: list[str] = []

    def only_this_server(route):
        if route.request.url.startswith(base_url.rstrip("/") + "/"):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    context.route("**/*", only_this_server)
    context.add_init_script(RECORD_VIOLATIONS)
    tab = context.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    tab.on("console", lambda message: problems.append(f"console {message.type}: {message.text}")
           if message.type in ("error", "warning") else None)
    try:
        yield tab
        assert tab.evaluate("window.__cspViolations") == []
        assert problems == []
        assert elsewhere == [], "the docs pages load only from this server"
    finally:
        context.close()


def schema_operations(tab) -> list[tuple[str, str, str]]:
    response = tab.request.get("/api/v1/schema/?format=json")
    assert response.ok, response.status
    return [(path, method, operation["operationId"]) for path, methods in response.json()["paths"].items()
            for method, operation in methods.items() if method in OPERATIONS]


def policy(header: str) -> dict[str, list[str]]:
    directives = (part.split() for part in header.split(";") if part.strip())
    return {name: sources for name, *sources in directives}


def app_policy() -> dict[str, list[str]]:
    return {name: list(sources) for name, sources in settings.CONTENT_SECURITY_POLICY["DIRECTIVES"].items()}


def shoot(tab, name: str) -> None:
    tab.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def test_R_API_1_swagger_ui_lists_every_operation_under_the_apps_csp(in_browser, live_server):
    from playwright.sync_api import expect

    def check(browser):
        with docs_tab(browser, live_server.url) as tab:
            operations = schema_operations(tab)
            response = tab.goto("/api/v1/docs/")
            # The app's CSP, unchanged: Swagger UI needs no inline script or style from this page.
            assert policy(response.headers["content-security-policy"]) == app_policy()
            expect(tab.locator(f'.opblock-summary-path[data-path="{MEMORY_SAVE}"]')).to_be_visible()
            expect(tab.locator(".opblock")).to_have_count(len(operations))
            shoot(tab, "api-docs-swagger-ui")

    in_browser(check)


def test_R_API_1_redoc_lists_every_operation_with_only_a_style_nonce_added(in_browser, live_server):
    from playwright.sync_api import expect

    def check(browser):
        with docs_tab(browser, live_server.url) as tab:
            operations = schema_operations(tab)
            response = tab.goto("/api/v1/redoc/")
            # ReDoc inserts its styles at run time: this page alone allows them by a nonce (see
            # appenda/api/docs.py); every other directive is the app's.
            served = policy(response.headers["content-security-policy"])
            nonces = [source for source in served["style-src"] if source.startswith("'nonce-")]
            assert len(nonces) == 1
            served["style-src"].remove(nonces[0])
            assert served == app_policy()
            memory_save = next(operation_id for path, _, operation_id in operations if path == MEMORY_SAVE)
            expect(tab.locator(f'[data-section-id="operation/{memory_save}"]')).to_be_attached()
            expect(tab.locator('[data-section-id^="operation/"]')).to_have_count(len(operations))
            expect(tab.get_by_role("heading", name=settings.SPECTACULAR_SETTINGS["TITLE"])).to_be_visible()
            shoot(tab, "api-docs-redoc")

    in_browser(check)
