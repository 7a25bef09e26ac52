"""Issue 18, secrets (SPEC R-SAVE-2), found by trying the detector as an attacker would (no outside
case read): a password or key written as a YAML block scalar, on the indented line after
"password: >" or "api_key: |"; and password flags of more command-line tools, from their manuals
(data/secrets_cli_password_flags.txt): openssl's "-k" and "-pass pass:", keytool's and
jarsigner's "-storepass" / "-keypass", wget's "--password=", svn's "--password", "az login -p",
mosquitto's "-P". A description in a block scalar and a variable pass.

Every positive case but wget's and svn's (their words already said password) fails against the
detector of commit 2056c2c.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets


def found(text: str) -> list[str]:
    return [text[f.start:f.end] for f in find_secrets(text)]


@pytest.mark.parametrize("text, secret", [
    ("password: >\n  Zq8!rT2wLm4", "Zq8!rT2wLm4"),
    ("db:\n  password: |\n    Zq8!rT2wLm4\n  user: etl", "Zq8!rT2wLm4"),
    ("api_key: |-\n  9f3b1c7e5a2d4f6a8b0c1e3a5d7f9b2c", "9f3b1c7e5a2d4f6a8b0c1e3a5d7f9b2c"),
], ids=["folded", "literal-nested", "literal-strip-key"])
def test_a_secret_in_a_yaml_block_scalar_is_refused(text, secret):
    assert found(text) == [secret]


@pytest.mark.parametrize("text, secret", [
    ("openssl enc -aes-256-cbc -k Zq8rT2wxLm4 -in a -out b", "Zq8rT2wxLm4"),
    ("openssl enc -aes-256-cbc -pass pass:Zq8rT2wxLm4 -in a", "Zq8rT2wxLm4"),
    ("keytool -list -keystore ks.jks -storepass Zq8rT2wxLm4", "Zq8rT2wxLm4"),
    ("jarsigner -keystore ks.jks -storepass Zq8rT2wxLm4 app.jar alias", "Zq8rT2wxLm4"),
    ("wget --user=bob --password=Zq8rT2wxLm4 https://files.acme.com/f", "Zq8rT2wxLm4"),
    ("svn checkout https://svn.acme.com/repo --username bob --password Zq8rT2wxLm4", "Zq8rT2wxLm4"),
    ("az login -u bob@acme.com -p Zq8rT2wxLm4", "Zq8rT2wxLm4"),
    ("mosquitto_pub -h broker -u bob -P Zq8rT2wxLm4 -t x -m y", "Zq8rT2wxLm4"),
], ids=["openssl-k", "openssl-pass", "keytool", "jarsigner", "wget", "svn", "az-login", "mosquitto"])
def test_a_password_given_to_a_command_line_tool_is_refused(text, secret):
    start = text.index(secret)
    assert any(f.start <= start and start + len(secret) <= f.end for f in find_secrets(text))


@pytest.mark.parametrize("text", [
    "description: >\n  The password policy is strict",
    "password: >-\n  see the vault entry",
    "openssl enc -k $PASS -in a",
    "openssl x509 -in cert.pem -noout -text",
    "wget --password=$WGET_PASSWORD https://files.acme.com/f",
], ids=["description", "reference", "variable", "no-password", "wget-variable"])
def test_descriptions_references_and_variables_are_not_refused(text):
    assert found(text) == []
