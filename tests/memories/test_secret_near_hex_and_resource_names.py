"""Issue 18, secrets (SPEC R-SAVE-2), from the TruffleHog tuning draws' misses and a data team's
notes: hex with a letter or two from outside it, assigned to a credential word, is key material
(it was judged by an entropy its 17 symbols cannot reach); Vault's AppRole ``secret_id`` is the
secret itself; and the word "secret" inside an Amazon Resource Name names a secret without
holding one (``arn:aws:secretsmanager:…:secret:prod/db-x7Kp2Q`` was refused).

Each test has cases that fail against the detector of commit 1c8e326 (near-hex values whose
entropy is high enough were refused before too); the other benign cases pass on both.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets


@pytest.mark.parametrize("text", [
    "API_KEY=2c69j0dc327c4929b74d3a832a04266b",
    "AZURE_API_MANAGEMENT_SUBSCRIPTION_KEY=6d4bc3958kf83ae0220b23acb9d5ecc5",
    "the staging api key: bc1af8733k8336cb2d778b8701212703",
    'client_secret = "82b388632k826e90e457918786defba7"',
], ids=["env-assignment", "subscription-key", "prose", "quoted"])
def test_nearly_hex_key_material_after_a_credential_word_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "vault role_id = '1f4e2a9b-7c3d-4e8f-9a1b-2c3d4e5f6a7b'\nsecret_id = '9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e'",
    "VAULT_SECRET_ID=9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e",
    'approle: {"secret_id": "9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e"}',
], ids=["hcl", "env", "json"])
def test_a_vault_approle_secret_id_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    # Names and ids that only look like the rules above.
    "aws secretsmanager get-secret-value --secret-id prod/db-creds",
    "client_secret_id = 9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e",
    "secret_id: prod-db-password",
    # A secret's ARN names where it lives.
    "SecretId: arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf",
    "the Lambda reads arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-x7Kp2Q at start",
    "the task role may read arn:aws:ssm:us-east-1:123456789012:parameter/prod/api-key",
], ids=["aws-secret-id-flag", "client-secret-id", "secret-id-name", "arn-secret-id",
        "arn-in-prose", "arn-ssm-parameter"])
def test_names_and_resource_names_are_not_refused(text):
    assert find_secrets(text) == []


def test_a_password_after_an_arn_is_still_refused():
    text = "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-x7Kp2Q password: Zt8Wq3Lm9xK2pQ7v"
    findings = find_secrets(text)
    assert [text[f.start:f.end] for f in findings] == ["Zt8Wq3Lm9xK2pQ7v"]
