"""Issue 18: three classes found by trying the detector as an attacker would, after the sixth round
(SPEC R-SAVE-2), with the ordinary notes each rule must let through:

* a token cut into string literals that code joins ("'ghp_' + '…'", PHP's ".", SQL's "||",
  Python's literals on consecutive lines): the note holds the whole token, one piece per literal;
* the other names of a PIN: a passcode, an unlock, access or verification code, a one-time code,
  a card's security code, and backup or recovery codes;
* a password given as a word processor or a chat app writes it: typographic quotes ("‘…’",
  "«…»", "„…“"), an arrow ("password → …"), "was changed to: …".

Plain tests: no database, no Django (run with ``-p no:django``). Every class has cases that fail
against the detector of commit bacab2e (the third class: of 51c2b81). Values are made up and
assembled from pieces.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memories.refusals.secrets import find_secrets  # noqa: E402

GITHUB_BODY = "R8x2Lq9Zt4Vw7Ny1" + "Kp3Hd6Fs0Bm5Jc8Ga2Ex"  # 36 characters after "ghp_"
OPENAI_BODY = "Tq4Zm9LxB2vN8kRw" + "5HcJ1pYd7FsG3tEa6Uo0Xy"


def kinds(text: str) -> set[str]:
    return {finding.kind for finding in find_secrets(text)}


@pytest.mark.parametrize("text, kind", [
    (f"const token = 'ghp_' + '{GITHUB_BODY[:18]}' + '{GITHUB_BODY[18:]}';", "github_token"),
    (f"$t = 'ghp_' . '{GITHUB_BODY[:18]}' . '{GITHUB_BODY[18:]}';", "github_token"),
    (f"key = ('sk-proj-'\n       '{OPENAI_BODY}')", "openai_key"),
    (f'export KEY="sk-proj-""{OPENAI_BODY}"', "openai_key"),
    ("select 'AKIA' || 'IOSF' || 'ODNN7EXAMPLX' as k", "aws_access_key"),
])
def test_a_token_cut_into_joined_string_literals_is_refused(text, kind):
    assert kind in kinds(text)


@pytest.mark.parametrize("text", [
    "print('hello' + ' ' + 'world')",
    "it's a 'test' and don't 'worry'",
    'msg = "it\'s " + name + "\'s turn"',
    'curl -sL --user "$1:$2" "$3" > "$4"',
    "label = 'Revenue ' + 'by region ' + 'and quarter'",
])
def test_joined_literals_without_a_token_pass(text):
    assert kinds(text) == set()


@pytest.mark.parametrize("text", [
    "passcode 482913",
    "the passcode is 482913",
    "unlock code 9921",
    "voicemail pin 5521",
    "my pin 5521 for the card",
    "CVV 123",
    "cvc: 123",
    "security code 837",
    "the otp was 552190",
    "TOTP: 55219011",
    "Zugangscode: 4471",
])
def test_other_names_of_a_pin_are_refused(text):
    assert "pin" in kinds(text)


@pytest.mark.parametrize("text", [
    "2FA backup codes: 8812-1190 5521-8890",
    "recovery code: 4k7m-9p2q-x8r5",
    "GitHub recovery codes: 4k7m9-p2qx8 r5t2z-8kq1m",
])
def test_backup_and_recovery_codes_are_refused(text):
    assert "recovery_codes" in kinds(text)


@pytest.mark.parametrize("text", [
    "error code 4829 from the loader",
    "pin 2024 as the baseline year",
    "HTTP status code 302 on the old links",
    "the cvv column has 3 digits",
    "otp 5000 requests a day at most",
    "sms code 42 means the carrier refused it",
    "recovery codes are in the vault, ask IT",
    "backup code path: /srv/backup/code-2024",
])
def test_codes_that_are_counts_errors_or_places_pass(text):
    assert kinds(text) == set()


@pytest.mark.parametrize("text", [
    "‘password’: ‘Xk9#mP2q’",
    "password: «Xk9#mP2q»",
    "„api_key“ = „" + OPENAI_BODY + "“",
    "password → Xk9#mP2q",
    "the vpn password was changed to: Xk9#mP2q yesterday",
])
def test_a_password_in_typographic_quotes_or_after_an_arrow_is_refused(text):
    assert kinds(text)


@pytest.mark.parametrize("text", [
    "the ‘sales’ table → ‘orders’ after the merge",
    "She said “ship it on Friday” and left.",
    "«Bonjour» is the greeting the French bot uses",
    "password rotation → every 90 days",
    "the password was: see the vault entry",
])
def test_typographic_quotes_and_arrows_in_ordinary_notes_pass(text):
    assert kinds(text) == set()


@pytest.mark.parametrize("text", [
    "requests.get(url, auth=('admin', 'S3cr3t!pw'))",
    "creds = ['ops-user', 'Vx7#kLm2q']",
    "credentials: ('svc_loader', 'R4nd0m!Pass')",
    "u: admin p: Xk9#mP2q!",
])
def test_a_user_and_password_pair_in_code_or_abbreviated_is_refused(text):
    # Found by trying the detector as an attacker would; each case fails on 25e4948.
    assert kinds(text)


@pytest.mark.parametrize("text", [
    "auth=('user', 'password')",
    "login = ('Sign in', 'Continue')",
    "Mann-Whitney u: 1234 p: 0.03",
    "u: 12 p: 0.5 for the second cohort",
])
def test_pairs_of_labels_and_statistics_pass(text):
    assert kinds(text) == set()
