"""Secrets written as code or configuration (issue 18; SPEC R-SAVE-2): a quoted phrase assigned
to a credential name, keyword variants ("secrete", "secretKey"), credential URLs whose password
is a lower-case word, base64 of free text, signed three-part tokens.

Every case here was written for this file (none is taken from the outside corpus). Plain tests:
no database, no Django (run with ``-p no:django``).
"""

from __future__ import annotations

import base64
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memories.refusals.secrets import find_secrets  # noqa: E402


def covers(text: str, value: str) -> bool:
    start = text.index(value)
    return any(f.start <= start and start + len(value) <= f.end for f in find_secrets(text))


# --- a quoted phrase assigned to a credential name ------------------------------------------

PHRASE = "blue horse under the bridge"
ASSIGNED_PHRASES = [
    'password = "{v}"',
    "secret: '{v}'",
    'api_key="{v}"',
    'db_password := "{v}"',
    'my_secret_value => "{v}"',
    '"password": "{v}"',
    "passphrase = `{v}`",
    'auth_token: "{v}"',
    'credentials = "{v}"',
    'smtpPass = "{v}"',
    'secretKey = "{v}"',
    '$password = "{v}";',
    "$this->apiKey = '{v}';",
    'var password string = "{v}"',
    'password: str = "{v}"',
    'char secret[32] = "{v}";',
    'password = @"{v}";',
    'secret "{v}";',
    'key "tsig" {{\n  algorithm hmac-sha256;\n  secret "{v}";\n}};',
    'if ("{v}" == password) {{',
    'DB_PASSWORD="{v}"',
]


@pytest.mark.parametrize("form", ASSIGNED_PHRASES)
def test_a_quoted_phrase_assigned_to_a_credential_name_is_a_secret(form):
    text = form.format(v=PHRASE)
    assert covers(text, PHRASE), text


@pytest.mark.parametrize("value", [
    "<your password here>", "your password here", "enter your password", "${DB_PASSWORD}",
    "{{ vault_db_password }}", "xxx xxx", "*** ***", "see 1Password, Engineering vault",
    "stored in Vault under prod/db", "same as staging", "ask Lena for it", "insert token here",
    "change me later", "fake value for tests", "%(password)s of the app",
])
def test_a_placeholder_or_reference_phrase_is_not_a_secret(value):
    for form in ('password = "{v}"', "secret: '{v}'", 'api_key="{v}"'):
        assert not find_secrets(form.format(v=value)), form.format(v=value)


@pytest.mark.parametrize("text", [
    'password_hint: "name of the first pet"',
    'password_policy = "min 12 chars, one digit"',
    'secret_name: "appenda db credentials"',
    'token_type: "Bearer token"',
    'next_page_token = "pass the cursor back"',
    'key: "press enter to continue"',
    'auth: "handled by Okta"',
    'description = "rotate the API key every month"',
    'secretary: "Jane at the front desk"',
    'secretion_rate = "12 ml per hour"',
    'passwordless: "enabled for EU workspaces"',
    'the customer said their password is "the usual one" - do not ask for it',
    'The secret to fast imports is "COPY instead of INSERT".',
    'the secret "sauce" of the importer is batching',
    'Our secret "sauce is batching"',
    'Reset the password. "Call the IT desk" is the first step',
    'label: "Password (at least 12 characters)"',
])
def test_talk_about_credentials_in_quotes_is_not_a_secret(text):
    assert not find_secrets(text), [text[f.start:f.end] for f in find_secrets(text)]


@pytest.mark.parametrize("text, value", [
    ("<password>blue horse under the bridge</password>", "blue horse under the bridge"),
    ('<server><id>nexus</id><password>Qw7!rT2#zL</password></server>', "Qw7!rT2#zL"),
    ("<apiKey>Zq,.:-@*?!x</apiKey>", "Zq,.:-@*?!x"),
    ('db_pass <- "blue horse under the bridge"', "blue horse under the bridge"),
    ('DB_PASSWORD ?= "Qw7!rT2#zL"', "Qw7!rT2#zL"),
    ('if ("Qw7!rT2#zLmK" == db_pass) {', "Qw7!rT2#zLmK"),
])
def test_xml_elements_and_other_assignment_operators_hold_secrets(text, value):
    assert covers(text, value), text


@pytest.mark.parametrize("text", [
    "<password>changeme</password>", "<password>${DB_PASSWORD}</password>",
    "<passwordPolicy>strict mode</passwordPolicy>", "<secretary>Jane</secretary>",
    "<token>see vault</token>", "<apiKey>your-api-key</apiKey>",
    "<b>password</b> rotation is <i>weekly</i>",
])
def test_xml_elements_that_hold_no_credential_are_not_secrets(text):
    assert not find_secrets(text), text


# --- keyword variants --------------------------------------------------------------------

@pytest.mark.parametrize("name", ["secrete", "secretes", "secreteKey", "db_secrete_prod", "passwordx"])
@pytest.mark.parametrize("form", [
    '{n} = "q]W7{{x}}z(Lp$#vB!"', '{n}: "K7,.:-@*?!x"', "{n} = K7,.:-@*?!x", '{n} "q]W7{{x}}z(Lp$#vB!";',
    'char {n}[25] = "q]W7{{x}}z(Lp$#vB!";', 'var {n} string = "K7,.:-@*?!x"',
])
def test_a_credential_keyword_with_more_letters_is_a_name_in_assignment_context(name, form):
    assert find_secrets(form.format(n=name)), form.format(n=name)


@pytest.mark.parametrize("text", [
    "secretary = K7,.:-@*?!x is on the second floor",
    'secretary: "q]W7{x}z(Lp$#vB!"',
    "secretly the importer retries 3 times: K7,.:-@*?!x",
    "secrete K7 antibodies",
    "passwordless login via magic links is enabled",
])
def test_english_words_that_start_with_a_keyword_are_not_keywords(text):
    assert not find_secrets(text), [text[f.start:f.end] for f in find_secrets(text)]


def test_a_symbol_rich_value_of_eight_characters_after_a_strong_keyword_is_a_secret():
    assert covers("secret = Zq,.:-@*?!", "Zq,.:-@*?!")
    assert covers('api_key = "K7,.:-@*?!x"', "K7,.:-@*?!x")
    assert not find_secrets("secret = ,.:-@*?!")  # no letter or digit: no value


# --- credential URLs: the form decides (secret_urls.py) -----------------------------------

@pytest.mark.parametrize("url", [
    "ftp://deploy:pass@files.example.org/",
    "https://admin:secret@intranet.example.com",
    "redis://user:password@cache.internal:6379",
    "https://ci:example@git.example.com/repo.git",
])
def test_a_credential_url_with_a_lower_case_word_as_password_is_refused(url):
    assert find_secrets(f"mirror from {url} nightly")


@pytest.mark.parametrize("url", [
    "postgres://USER:PASSWORD@HOST:5432/DB",
    "postgres://<user>:<password>@host/db",
    "postgres://user:${DB_PASSWORD}@db/app",
    "postgres://user:{password}@db/app",
    "mysql://root:***@db",
    "amqp://guest:xxx@mq",
    "https://svc:redacted@api.example.com",
    "postgres://postgres:postgres@localhost:5432/app",
    "https://user:your_password@host",
])
def test_a_credential_url_written_as_a_template_or_masked_is_not(url):
    assert not find_secrets(f"connect with {url}"), url


# --- base64 of free text; signed three-part tokens ----------------------------------------

def test_base64_of_one_line_of_free_text_is_judged_as_the_random_run_it_is():
    long_line = base64.b64encode(b"my cat wanders over three quiet hills at dusk, 42 times").decode()
    assert find_secrets(f'value: "{long_line}"')


def test_base64_of_a_few_words_or_of_structured_data_is_not_a_secret():
    few = base64.b64encode(b"plain old words").decode()
    json_payload = base64.b64encode(b'{"table": "orders", "rows": 1250, "region": "eu"}').decode()
    html = base64.b64encode(b"<p>The quarterly report is attached, see page 4.</p>").decode()
    for token in (few, json_payload, html):
        assert not find_secrets(f"the fixture payload base64 is {token}"), token


def test_a_signed_token_with_a_random_signature_is_a_secret_whatever_its_first_letter():
    token = "BxTk9w2LmQ7rZ4aVb8NcY1dE.Hq3Tz1.f7Kp2Lw9Qx4Rz8Ty1Uv6Wm3Ns5Ob0Pc"
    assert covers(f"session cookie {token}", token)


def test_a_dotted_name_of_that_shape_is_not():
    assert not find_secrets("see appenda_memories_refusals.models.SecretDetectorConfigurationTable")
