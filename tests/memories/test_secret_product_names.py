"""Issue 18, secrets (SPEC R-SAVE-2): a key written after the name of the product it opens, with
no credential word ("mattermost 'e2rg…'", "kucoin: c19c…"), the form the TruffleHog tuning
draws' misses showed (memories/refusals/secret_products.py). The values here are made up; the
products are named by words no English list holds, and the same values after English words,
acronyms and id words stay notes.

Every refused case fails against the detector of commit 7b26252.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets

LOWER_KEY = "q7x2mv9kd4tz8wbn3hc6pj1rfs"  # 26 letters and digits of one case
SHORT_HEX = "9b41e07c3fa2d865c1e0f7a4"  # 24 hex digits: shorter than a free-standing run needs
MIXED_HEX_40 = "4e7Ab2c9D0f31aE86b5C2d7e9F0a1b3C4d5e6F7a"  # a commit's length, in both cases


@pytest.mark.parametrize("text", [
    f"mattermostx '{LOWER_KEY}'",
    f"kucoin: {SHORT_HEX}",
    f"zoominfo={LOWER_KEY}",
    f"the staging box uses Brevo {LOWER_KEY} for mail",
    f'  keenio: "{LOWER_KEY}"',
    f'register("zoominfo", "{LOWER_KEY}")',
    f"sourcegraphx: {MIXED_HEX_40}",
], ids=["quoted", "colon-hex", "assigned", "in-a-sentence", "yaml", "quoted-pair", "mixed-case-hex-40"])
def test_a_random_value_after_a_products_name_is_refused(text):
    found = find_secrets(text)
    assert [finding.kind for finding in found] == ["product_named_key"]
    assert text[found[0].start:found[0].end] in (LOWER_KEY, SHORT_HEX, MIXED_HEX_40)


@pytest.mark.parametrize("text", [
    f"the run {SHORT_HEX} failed at the load step",  # an English word names an id
    f"build {LOWER_KEY} is green",
    "IBAN GB49AHER72277635787006 for the wire transfer",  # an acronym names an identifier
    "VIN 1HGCM82633A004352 on the fleet sheet",
    "airbyte 7c2f9a1e-6d3b-4f2a-9e1c-2b3d4e5f6a7b",  # an id laid out as a UUID
    f"dagster commit {SHORT_HEX}",  # an id word before it
    "dbtcloud fct_orders_daily_summary_v2_final",  # words joined, not key material
    "metabaseq prod-eu-west-analytics-events",
    "airtable appAbC123dEf456gH",  # a 17-character base id: under the 20 a key needs here
    f"https://grafanax.example.com/d/{LOWER_KEY}",  # part of an address
    f"gitlabx {MIXED_HEX_40.lower()}",  # a commit's name, as git writes it
    f'tags = ["staging", "{LOWER_KEY}"]',  # a list whose word before the value is English
], ids=["english-word", "build", "iban", "vin", "uuid", "id-word", "snake-case", "dashed-words",
        "airtable-id", "url-path", "commit-sha", "english-list"])
def test_ids_and_words_after_a_name_are_not_refused(text):
    assert find_secrets(text) == []


UUID_KEY = "e8b13e2b-79a9-475d-b8e3-b2200edbc52a"


@pytest.mark.parametrize("text", [
    f'const HEROKU_KEY = "{UUID_KEY}"',
    f"hubspotKey: '{UUID_KEY}'",
    f'SNYK_KEY="{UUID_KEY}"',
], ids=["constant", "camel-case", "env"])
def test_a_uuid_named_as_a_products_key_is_refused(text):
    """A product's name and "key" say what "api_key" says: Heroku, HubSpot and Snyk keys are UUIDs."""
    found = find_secrets(text)
    assert found and text[found[0].start:found[0].end] == UUID_KEY


@pytest.mark.parametrize("text", [
    f"kafka_key = '{UUID_KEY}'",  # a message's key
    f"uuid_key = '{UUID_KEY}'",
    f"idempotency_key = '{UUID_KEY}'",
    f"customer_key = '{UUID_KEY}'",  # an English word: the key of a row
    f"object_key: {UUID_KEY}",
], ids=["kafka", "uuid", "idempotency", "english-word", "object"])
def test_a_uuid_named_as_a_data_key_is_not_refused(text):
    assert find_secrets(text) == []
