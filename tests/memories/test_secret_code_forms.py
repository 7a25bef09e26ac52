"""Issue 18, fourth round: the forms Nosey Parker's rule examples showed the detector missing (the
rule files drawn for tuning, tests/data/secret_tuning_from_noseyparker.jsonl), each as a class,
with the ordinary notes each rule must still let through (SPEC R-SAVE-2).

Plain tests: no database, no Django (run with ``-p no:django``). Every test of a new rule has
cases that fail against the detector of commit d91d65a (before this round). The values are made
up here, not taken from Nosey Parker, and assembled from pieces so this file does not itself look
like a leaked secret.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memories.refusals.secrets import find_secrets  # noqa: E402

SALT = "Qw3rTy7u"
B64ISH = "aZ0./" * 20  # the crypt alphabet, sliced below to each format's length
HEX = "4b9f" + "0c1d2e3a5f6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d"
UUID = "2f92c502-" + "7feb-4a6c-86f1-477271ae576f"


def flagged(text: str) -> bool:
    return bool(find_secrets(text))


def kinds(text: str) -> set[str]:
    return {finding.kind for finding in find_secrets(text)}


@pytest.mark.parametrize("text", [
    f"$1${SALT}${B64ISH[:22]}",
    f"root:$2b$12${B64ISH[:53]}:19000:0:99999:7:::",
    f"$5$rounds=5000${SALT}${B64ISH[:43]}",
    f"the shadow line is admin:$6${SALT}${B64ISH[:86]}",
    f"enable secret 8 $8$Tn{SALT}0123${B64ISH[:43]}",
    f"pbkdf2_sha256$600000${SALT}${B64ISH[:43].replace('.', 'x')}=",
])
def test_a_password_hash_is_kept_as_a_password(text):
    assert "password_hash" in kinds(text)


@pytest.mark.parametrize("text", [
    "Prices are $1$ to $5$ a seat, see the sheet.",
    "$6$ per month for the starter plan; $8$ for teams",
    "the regex ^\\$[0-9]+\\$$ matches amounts",
])
def test_dollar_amounts_are_no_password_hash(text):
    assert not flagged(text)


def test_a_teams_webhook_on_the_retired_outlook_host_is_a_credential_url():
    url = f"https://outlook.office.com/webhook/{UUID}@{UUID}/IncomingWebhook/{HEX[:32]}/{UUID}"
    assert "teams_webhook" in kinds(f"alerts go to {url}")
    assert not flagged("Our alerts now go to the Teams channel via outlook.office.com (webhook set up by ops).")


def test_a_kubernetes_bootstrap_token_named_as_a_token_is_refused():
    assert flagged('BOOTSTRAP_TOKEN: "' + "be8d7f" + "." + "4c7e1b9d0a3f5e28" + '"')
    assert flagged("kubeadm join 10.0.0.5:6443 --token " + "a1b2c3" + "." + "0f1e2d3c4b5a6978")
    assert not flagged("see section abc123.d1e2f3a4b5c6d7e8 of the token guide")  # no word "token" before it
    assert not flagged("kubeadm prints a token like abcdef.0123456789abcdef")  # its documented stand-in


@pytest.mark.parametrize("text", [
    "APP_PASSWORD=bluebaron",
    "REACT_APP_AUTH_PASSWORD=bluebaron",
    "# REACT_APP_GUEST_PASSWORD=tincup!7",
])
def test_an_app_password_setting_is_a_password(text):
    assert flagged(text)


@pytest.mark.parametrize("text", [
    "APP_PASSWORD_ENABLED=true",
    "Turn on app passwords for the shared mailbox.",
])
def test_app_password_settings_without_a_value_pass(text):
    assert not flagged(text)


def test_a_password_in_escaped_quotes_is_read():
    assert flagged('$host = \\"localhost\\"; $password = \\"fineplan\\";')
    assert flagged('{"config": "{\\"password\\": \\"fineplan7\\"}"}')
    assert not flagged('the field is written as \\"password\\": \\"\\" when empty')


def test_a_comment_line_about_an_id_does_not_make_the_next_line_an_id():
    text = f"# Token ID and secret. Required.\ntoken-id: 5e81c3\ntoken-secret: {HEX[:16]}"
    assert flagged(text)
    assert not flagged(f"commit secret: {HEX[:40]}")  # on the same line, "commit" still names an id


@pytest.mark.parametrize("text", [
    'sender.Credentials = new NetworkCredential("ops@example.com", "kqtrwbnvmzpelxsy");',
    'new DirectoryEntry("LDAP://EXAMPLE.COM", "svc-hr@example.com", "Pyfl5837");',
    'server.login("me@example.com", "hunter2x!")',
    'requests.get(url, auth=HTTPBasicAuth("reports", "Tr0ub4dor&3"))',
    'req.SetBasicAuth("deploy", "Zq8#pLm2v")',
])
def test_a_password_passed_to_a_credential_call_is_refused(text):
    assert "password_in_code" in kinds(text)


@pytest.mark.parametrize("text", [
    'server.login("me@example.com", password)',  # a variable, not the password
    'server.login("me@example.com", "password")',  # a placeholder
    'socket.connect("localhost", 8080)',
    'page.login("Sign in", "Continue")',  # two words: labels, not a password
    'session.login("demo", "demo")',
    'login("analytics", "configuration")',  # a word
    'db.connect("warehouse", "analytics", "reporting")',  # connect's third argument is anything
    'ws.connect("wss://stream.example.com", "v2", "json")',
])
def test_credential_calls_without_a_literal_password_pass(text):
    assert not flagged(text)


@pytest.mark.parametrize("text", [
    "nuget push pkg.nupkg " + "oy2" + "k7m2q9xw4r8t1z5p3n6b0v2c7d9f4h1j8l5s3a6e0gu" + " -Source nuget.org",
    "license_key: " + "7c1e9a04b3d2f6580e7a9c1b4d3f2e6a0b98" + "NRAL",
    "admin_access:" + "NRAA-" + "b3e91c07d4a2f6e85c10b7d9a43",
    "X-Figma-Token: " + "5820-" + "7e3b91cd-4f20-4a6b-9d1e-3c5a8f2b6e04",
])
def test_vendor_formats_of_this_round_are_refused(text):
    assert flagged(text)


def test_a_uuid_without_figmas_name_is_not_a_figma_token():
    assert not flagged("ticket 5820-7e3b91cd-4f20-4a6b-9d1e-3c5a8f2b6e04 is closed")


def test_the_default_password_for_a_quoted_user_is_read():
    assert flagged('The default password for the user "pyne-user" is "Zq8#pLm2v".')
    assert not flagged('The password for "prod" is required.')


# Fifteenth session: a credential's name as a string literal and its value as the next one (a pair,
# a setter's arguments, an item assigned), and keyring's set_password; each fails against eee87b7.
# Lists of field names and values that are variables pass.
_VALUE = "Qm7vX2" + "pLk9Zt4WbR"


@pytest.mark.parametrize("template", [
    '["password", "{v}"]',
    '("password", "{v}")',
    'os.environ["DB_PASSWORD"] = "{v}"',
    'config.set("db", "password", "{v}")',
    'setattr(settings, "password", "{v}")',
    'params.put("password", "{v}");',
    'secrets["api_key"] = "{v}"',
    'keyring.set_password("svc", "etl", "{v}")',
], ids=["list-pair", "tuple-pair", "environ-item", "configparser-set", "setattr", "map-put", "dict-item", "keyring"])
def test_a_credential_literal_then_its_value_is_refused(template):
    text = template.format(v=_VALUE)
    assert [text[f.start:f.end] for f in find_secrets(text)] == [_VALUE]


@pytest.mark.parametrize("text", [
    'fields = ("username", "password", "email")',
    '["password", "confirm_password"]',
    'os.environ["DB_PASSWORD"] = "${DB_PASSWORD}"',
    'cols = ["user_id", "pw_hash", "salt"]',
    'params.put("password", password);',
    'rename("password", "pw_hash")',
    'parser.add_argument("--password", "-p")',
    'd["token"] = "refresh"',
    "localStorage.setItem('token', 'jwt_abc123');",
], ids=["field-names", "two-names", "template", "columns", "variable", "rename", "argparse", "a-word",
        "fixture-token"])
def test_names_and_variables_in_code_pass(text):
    assert find_secrets(text) == []
