"""Abuse limits (issue 22): sign-in is paused per account and per address after 5 failures, the
right password included; an API token over its rate gets 429 with Retry-After and {code, detail}."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from tests.factories import ALL_DATABASES, make_user, token_client

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

PASSWORD = "correct horse battery"  # tests.factories.make_user's


@pytest.fixture
def login_limits(settings):
    settings.AXES_FAILURE_LIMIT = 5
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)


def sign_in(client, email, password, address="198.51.100.7"):
    return client.post("/login/", {"username": email, "password": password}, REMOTE_ADDR=address)


def test_the_sixth_sign_in_after_five_wrong_passwords_is_refused_even_with_the_right_one(client, login_limits):
    make_user("ana@example.com")
    for _ in range(4):
        assert "did not match" in sign_in(client, "ana@example.com", "wrong guess").text
    assert sign_in(client, "ana@example.com", "wrong guess").status_code == 429  # the 5th says it pauses
    refused = sign_in(client, "ana@example.com", PASSWORD)
    assert refused.status_code == 429 and int(refused["Retry-After"]) == 15 * 60
    assert "Too many failed sign-ins" in refused.text and "15 minutes" in refused.text
    assert client.get("/").status_code == 302  # nobody signed in
    with freeze_time(timezone.now() + timedelta(minutes=16)):
        assert sign_in(client, "ana@example.com", PASSWORD).status_code == 302  # after the pause


def test_an_account_is_paused_whichever_address_the_guesses_come_from(client, login_limits):
    make_user("ana@example.com")
    for n in range(5):
        sign_in(client, "ana@example.com", "wrong guess", address=f"198.51.100.{n + 1}")
    assert sign_in(client, "ana@example.com", PASSWORD, address="203.0.113.50").status_code == 429


def test_an_address_is_paused_whichever_accounts_it_guesses(client, login_limits):
    make_user("ben@example.com")
    for n in range(5):
        sign_in(client, f"guess{n}@example.com", "wrong guess")
    assert sign_in(client, "ben@example.com", PASSWORD).status_code == 429
    assert sign_in(client, "ben@example.com", PASSWORD, address="203.0.113.50").status_code == 302


def test_a_token_over_its_rate_gets_429_with_retry_after_and_others_are_not_slowed(settings):
    settings.APPENDA_API_RATES = {**settings.APPENDA_API_RATES, "token": "3/min"}
    busy, calm = token_client(make_user("busy@example.com")), token_client(make_user("calm@example.com"))
    for _ in range(3):
        assert busy.get("/api/v1/me/").status_code == 200
    refused = busy.get("/api/v1/me/")
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 60
    body = refused.json()
    assert body["code"] == "throttled" and "3 requests per minute" in body["detail"]
    assert calm.get("/api/v1/me/").status_code == 200  # per token
    with freeze_time(timezone.now() + timedelta(seconds=61)):
        assert busy.get("/api/v1/me/").status_code == 200


def test_anonymous_callers_are_limited_per_address(client, settings):
    settings.APPENDA_API_RATES = {**settings.APPENDA_API_RATES, "anonymous": "2/min"}
    for _ in range(2):
        assert client.get("/api/v1/tools/", REMOTE_ADDR="198.51.100.7").status_code == 200
    assert client.get("/api/v1/tools/", REMOTE_ADDR="198.51.100.7").status_code == 429
    assert client.get("/api/v1/tools/", REMOTE_ADDR="198.51.100.8").status_code == 200


def test_a_tokens_count_is_one_row_per_window_and_ended_windows_are_forgotten(settings):
    from ops.models import RateCount

    settings.APPENDA_API_RATES = {**settings.APPENDA_API_RATES, "token": "100/min"}
    busy = token_client(make_user("rows@example.com"))
    start = timezone.now()
    for minutes in range(3):
        with freeze_time(start + timedelta(minutes=minutes)):
            for _ in range(4):
                assert busy.get("/api/v1/me/").status_code == 200
            rows = list(RateCount.objects.filter(key__startswith="token:").order_by("bucket").values_list("hits", flat=True))
            assert rows[-1:] == [4] and len(rows) <= 2  # this window's count; an ended one is deleted
