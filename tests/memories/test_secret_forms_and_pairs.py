"""Issue 18, secrets (SPEC R-SAVE-2), found by trying the detector as an attacker would (no outside
case read): an HTML password field with its value written in, PowerShell's
``ConvertTo-SecureString "…" -AsPlainText``, and a user and password separated by a comma or a
bar ("login: admin, …", "acct: etl | …"). And two false refusals found the same way: a PowerShell
command's result assigned to a password variable ("$password = Read-Host -AsSecureString") is no
password.

The positive cases and the two PowerShell false refusals fail against the detector of commit
2056c2c; the other benign cases pass on both.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets

VALUE = "Zq8!rT2wLm4"


def found(text: str) -> list[str]:
    return [text[f.start:f.end] for f in find_secrets(text)]


@pytest.mark.parametrize("text", [
    f'<input type="password" name="pw" value="{VALUE}">',
    f"<input value='{VALUE}' type=password>",
    f'ConvertTo-SecureString "{VALUE}" -AsPlainText -Force',
    f'$pw = ConvertTo-SecureString -String "{VALUE}" -AsPlainText -Force',
    f"login: admin, {VALUE}",
    f"acct: etl | {VALUE}",
], ids=["input", "input-value-first", "securestring", "securestring-string", "login-comma", "acct-bar"])
def test_a_password_in_a_form_a_command_or_a_pair_is_refused(text):
    assert VALUE in found(text)


@pytest.mark.parametrize("text", [
    '<input type="password" value="">',
    '<input type="password" placeholder="Password">',
    '<input type="password" value="{{ form.password }}">',
    "ConvertTo-SecureString $plain -AsPlainText -Force",
    "$pw = ConvertTo-SecureString $plain -AsPlainText -Force",
    "$password = Read-Host -AsSecureString",
    "user: bob, then click Save",
    "account: finance, 2 seats left",
    "username: etl | role: reader",
], ids=lambda text: text[:30])
def test_empty_fields_templates_commands_and_lists_are_not_refused(text):
    assert found(text) == []
