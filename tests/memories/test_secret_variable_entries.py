"""Issue 18, secrets (SPEC R-SAVE-2), fourteenth session: a credential in an entry of a list of
variables, its name in one field and its value in the next: a Kubernetes container's ``env``,
an ECS task definition, Azure app settings, CloudFormation parameters
(memories/refusals/secret_manifests.py). Found probing sixty configuration forms a data team
pastes (no outside case read); every other form of the sixty was refused already. And a login
and its password joined by a colon with nothing around them ("etl:Vq7#mZ2!pL9x",
memories/refusals/secret_logins.py), left alone by the first round of this session ("admin:" and
"root:" were refused already).

The same entries pass when the value is a reference, a placeholder or a setting, or when the
name names no credential. Every refused case fails against 8269590.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets

PASSWORD = "Vq7#mZ2!pL9x"


@pytest.mark.parametrize("text", [
    f'env:\n  - name: DB_PASSWORD\n    value: "{PASSWORD}"',
    f"env:\n- name: API_TOKEN\n  value: {PASSWORD}",
    f'"environment": [{{"name": "DB_PASSWORD", "value": "{PASSWORD}"}}]',
    f'[{{"name": "ClientSecret", "value": "{PASSWORD}", "slotSetting": false}}]',
    f"aws cloudformation deploy --parameters ParameterKey=DbPassword,ParameterValue={PASSWORD}",
], ids=["kubernetes-env", "kubernetes-env-flush", "ecs-task", "azure-app-settings", "cloudformation"])
def test_a_credential_in_a_variables_entry_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "env:\n  - name: DB_HOST\n    value: db.internal\n  - name: DB_PASSWORD\n    valueFrom:\n"
    "      secretKeyRef:\n        name: db\n        key: password",
    '{"name": "LOG_LEVEL", "value": "debug"}',
    '- name: DB_PASSWORD\n  value: "${DB_PASSWORD}"',
    "- name: password_min_length\n  value: 12",
    '{"key": "secret_name", "value": "prod-db-credentials"}',
], ids=["secret-reference", "setting", "variable", "password-policy", "secret-name"])
def test_references_and_settings_in_entries_pass(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize("text", [
    f"etl:{PASSWORD} for the staging box",
    "svc_reporting:Zq8%kLm2#Wt ok",
], ids=["etl", "service-login"])
def test_a_login_and_password_joined_by_a_colon_are_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "image node:Lts-Alpine3 pinned",
    "note:Important! check 2x",
    "style=color:red!important;x",
    "time 12:30:45 and ratio:3/4",
], ids=["image-tag", "note", "css", "times"])
def test_tags_settings_and_times_with_a_colon_pass(text):
    assert find_secrets(text) == []
