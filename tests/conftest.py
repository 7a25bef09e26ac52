"""Shared fixtures: people, workspaces in both regions, API clients authenticated by token.

Imports of Django code stay inside the fixtures so that the plain (database-free) test modules
also run without Django settings.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest


@pytest.fixture
def base_url(live_server) -> str:
    """The live server's URL for real HTTP clients (the Python client, MCP hosts, the fuzzer's)."""
    return f"http://127.0.0.1:{urlsplit(live_server.url).port}"


@pytest.fixture
def owner(db):
    from tests.factories import make_user

    return make_user("owner@example.com")


@pytest.fixture
def eu_ws(owner):
    from tests.factories import make_workspace

    return make_workspace(owner, name="Acme EU", region="eu")


@pytest.fixture
def us_ws(owner):
    from tests.factories import make_workspace

    return make_workspace(owner, name="Acme US", region="us")
