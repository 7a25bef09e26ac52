"""Issue 18, secrets (SPEC R-SAVE-2), thirteenth session: passwords in prose and keys in blocks
that passed, found by trying the detector as an attacker would (no outside case read):

* "wifi key: X" (a key that is a password by its name, after ":"), "log in as admin with X",
  "sign in with ana@… and X": the value must mix three kinds of characters, so products ("sign
  in with ORCID-ID") pass;
* "the root password got changed to X", "has been reset to X";
* a ":" later in the sentence that names the password ("the password for the staging db is the
  same as prod: X"), for values of three kinds of characters;
* a key written in blocks right after its name ("secret key wJalrXUt nFEMI/K7 …", "api key:
  8f14e45f ceea167a …"), read with its name so the rules for a key after its name see it.

Every refused case fails against the detector of commit 2f75704; the benign ones pass on both.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets


@pytest.mark.parametrize("text", [
    "wifi key: Kaffee2024",
    "log in as admin with Winter2024",
    "sign in with ana@example.com and Verano2024!",
    "the root password got changed to Z3bra!Z3bra",
    "the admin password has been reset to Qx7!rTz9",
    "The password for the staging db is the same as prod: Xk9#mP2q",
    "secret key wJalrXUt nFEMI/K7 MDENG/bP xRfiCYEX AMPLEKEY",
    "api key: 8f14e45f ceea167a 5a36dedd 4bea2543",
])
def test_a_password_or_key_in_these_forms_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "log in with SSO",
    "sign in with Google Workspace",
    "sign in with ORCID-ID",
    "log in as admin with the credentials from the vault",
    "wifi key: see the office wiki",
    "door code: on the whiteboard",
    "password policy: at least 12 characters",
    "the password for the staging db is in 1Password: vault Staging-DB",
    "The password for prod was rotated: see ticket SEC-1234",
    "the password was changed to meet the policy",
    "sign in with ana.lopez@example.com and the password from Bitwarden",
    "the token counts are 1024 2048 4096 8192",
    "token: ABC1 DEF2 GHI3 (the ticket ids)",
    "password: use the one in vault/prod/db",
])
def test_talk_about_logins_and_keys_passes(text):
    assert find_secrets(text) == []
