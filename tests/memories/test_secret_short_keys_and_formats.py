"""Issue 18, secrets (SPEC R-SAVE-2): forms the TruffleHog and gitleaks tuning draws still missed.

* A short key, quoted and assigned to a credential word ("token = '3ff77bb6fe6885'", 8 to 15
  letters and digits): the quotes say where it ends and the operator that it is the value, so it
  needs none of the 12+ characters a bare value does (memories/refusals/secret_context.py).
* Formats from the vendors' published token layouts (data/secret_prefixed_formats.txt): Rootly
  API keys (``rootly_`` and 64 hex), New Relic mobile app tokens (ending ``-NRMA``), SonarQube
  tokens in both letter cases.
* A short value in a credential header ("Api-Token: Sk94HG7f6KB"): 8 characters of three kinds.
* A numbered credential name ("token1 = …", "API_KEY2=…"): the digits are a suffix of the name
  (memories/refusals/secret_prose.py, ``_keyword_identifier``).

The values are made up. Every refused case fails against the detector of commit 87fd3cd.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets

RANDOM_26 = "q7x2mv9kd4tz8wbn3hc6pj1rfs"


@pytest.mark.parametrize("text, value", [
    ("ipinfo token = '3ff77bb6fe6885'", "3ff77bb6fe6885"),
    ("mockaroo token = 'mlm9iqkm'", "mlm9iqkm"),
    ('secret: "x7Kp2Qa9"', "x7Kp2Qa9"),
    ('API_TOKEN="4hq8zd1pwm"', "4hq8zd1pwm"),
    # "token1" and "token2" name two tokens: the digits are a suffix, as "_2" is.
    (f"token1 = '{RANDOM_26}'", RANDOM_26),
    (f"twitch_token2: {RANDOM_26}", RANDOM_26),
    (f"API_KEY2={RANDOM_26}", RANDOM_26),
    # A credential header names its value: 8 characters of three kinds are a key there.
    ('curl -X POST --header "Api-Token: Sk94HG7f6KB"', "Sk94HG7f6KB"),
    ('curl -H "Authorization: Token Xq7mP2k9" https://api.example.com', "Xq7mP2k9"),
], ids=["short-hex-14", "short-letters-8", "short-yaml-mixed-case", "short-env", "numbered-token1",
        "numbered-yaml-token2", "numbered-env-api-key2", "header-api-token", "header-token-scheme"])
def test_the_key_is_refused(text, value):
    found = find_secrets(text)
    assert found and text[found[0].start:found[0].end] == value


@pytest.mark.parametrize("text, kind", [
    ("rootly_7f1e8738d7d6b540bc52e1bc24c6e2c109dc44642f9e5d583be7e5d04f8bd282", "rootly_key"),
    ("the iOS build reads AA3bd1c7e09f4a2b6c8d0e1f2a3b4c5d6e7f8a9b0c-NRMA", "new_relic_mobile_token"),
    ("the EU app uses eu01xxbfd4a807e4099453ba160493119a126319cb-NRMA", "new_relic_mobile_token"),
    ("sonar scans with sqp_7Hk2Lm9Pq4Rs8Tv1Wx3Yz6Ab0Cd5Ef2Gh7Jk4Mn9", "sonar_token"),
], ids=["rootly", "new-relic-mobile", "new-relic-mobile-eu", "sonar-mixed-case"])
def test_vendor_formats_are_refused_by_their_layout(text, kind):
    assert kind in [finding.kind for finding in find_secrets(text)]


@pytest.mark.parametrize("text", [
    "token = 'release1'",  # a word and a number
    "api_key = 'orders2024'",
    "max_tokens = '40960000'",  # a number
    "api_version = 'v20240201'",  # named for what it is
    "token_type = 'bearer42'",
    "access_level = 'admin123'",
    "the token 'abc12345' expired",  # no assignment
    "tokenizer = 'cl100k_base'",
    "api_key = '<your-key>'",
    f"token2fa = '{RANDOM_26}'",  # digits then letters: another word
    "the tokens1 file has 40960 rows",
    "rootly_incident_7f1e8738",  # a vendor's prefix with no key after it
    "the NRMA suffix marks New Relic mobile tokens",
    "sqp_ tokens are project analysis tokens",
    "api-key: v2Beta01",  # a short header value that reads as words
    'curl -H "X-Request-Id: Sk94HG7f6KB"',  # no credential header
    "curl -H 'Authorization: Basic YnJvd3Nlcjo=' https://localhost",  # "browser:", no password
], ids=["word-number", "words-year", "digits", "version", "type", "level", "prose", "tokenizer",
        "placeholder", "token2fa", "tokens1", "rootly-word", "nrma-word", "sonar-word",
        "header-words", "header-not-credential", "basic-without-password"])
def test_what_is_no_key_is_not_refused(text):
    assert find_secrets(text) == []
