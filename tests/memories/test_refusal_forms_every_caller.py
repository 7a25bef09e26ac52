"""Issue 18, thirteenth to seventeenth sessions: the forms these sessions' rules read (SPEC R-SAVE-2, R-SAVE-8)
are refused from every caller that can write text, through the HTTP API: an agent's save in a
person's turn, a bot's save in its own turn, a person's own save (key or value), and an instance
admin's required rule. A table's values in the new forms are refused (R-SAVE-3) in a region's
workspace (PostgreSQL) and in a local one (SQLCipher, SQLite's engine), where the table index is
read through another database. Nothing is stored and the text is never echoed.
"""

from __future__ import annotations

import base64
import hashlib
import json

import pytest

from memories.models import Note
from tests.factories import ALL_DATABASES, make_bot, make_table, make_user, token_client
from tests.memories.helpers import person_save, start_turn, tool_save
from tests.regions.test_local_workspace import create_local, passphrase  # noqa: F401 - a fixture
from workspaces.models import InstanceRule

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

TOKEN = "ghp_" + "R8x2Lq9Zt4VwYb7Nc3Mk5Pd6Fh1Jg0Ks2Qa8"  # built from parts, as scanners read files
NATO = {word[0]: word for word in ("alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike "
                                   "november oscar papa quebec romeo sierra tango uniform victor whiskey x-ray "
                                   "yankee zulu").split()}
FORMS = {
    "token-in-blocks": "the deploy uses " + " ".join(TOKEN[i:i + 4] for i in range(0, len(TOKEN), 4)),
    "token-spaced-no-break": "\u00a0".join(TOKEN),
    "login-beside-email": "ana@example.com / Verano2024!",
    "password-in-table": "| user | password |\n|---|---|\n| admin | Xk9#mP2qLr |",
    "pin-in-words": "the pin is four eight two one",
    "openssh-key-body": "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACB",
    # Fourteenth session: pieces kept apart by markup or a list, and a key read out.
    "token-in-markup": f"token {TOKEN[:9]}<b>{TOKEN[9:20]}</b>{TOKEN[20:]}",
    "wifi-qr-code": "WIFI:T:WPA;S:office-5G;P:Vq7#mZ2!pL9x;;",
    "token-in-quoted-pieces": "parts: " + ", ".join(f'"{TOKEN[i:i + 6]}"' for i in range(0, len(TOKEN), 6)),
    "password-near-its-noun": "the password for the wifi Kaffee&2024x",
    "login-details-unjoined": "login details - etl / Vx7!pq2Lm9",
    "secret-word": "the secret word for the door is tangerine77!",
    "policy-shaped-alone": "prod db: etl_admin Vx7!pq2Lm9",
    "token-with-emoji-filler": "🔸".join(TOKEN),
    "maven-property": '<property name="db.password" value="Qm7vX2pLk9Zt4WbR"/>',
    "settings-table-row": "| Setting | Value |\n|---|---|\n| password | Qm7vX2pLk9Zt4WbR |",
    "environ-item": 'os.environ["DB_PASSWORD"] = "Qm7vX2pLk9Zt4WbR"',
    "piped-into-login": 'echo "Qm7vX2pLk9Zt4WbR" | docker login -u ci --password-stdin',
    "token-near-its-noun": "new token for the CI bot Qm7vX2pLk9Zt4WbR",
    "api-key-in-french": "clé API : Qm7vX2pLk9Zt4WbR",
    # Seventeenth session: a value longer than the rules read, every private key's armour, an XML
    # element as a setting, a setter, a licence key, an authentication scheme, a Redis directive.
    "long-refresh-token": '{"refresh_token": "1.' + ".".join(
        base64.urlsafe_b64encode(hashlib.sha256(bytes([i])).digest()).decode()[:16] for i in range(40)) + '"}',
    "encrypted-private-key": ("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
                              "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQIc2FsdHNhbHQCAggA\n"
                              "-----END ENCRYPTED PRIVATE KEY-----"),
    "xml-token-element": "<snykToken>\n  12345678-abcd-4bcd-abcd-1234567890ab\n</snykToken>",
    "setter": 'builder.setPassword("Qm7vX2pLk9Zt4WbR");',
    "activation-key": "Activation key : ZAQWS-XCDER-VBGTR-FRTGU-KLMNX",
    "ntlm-header": "Authorization: NTLM TlRMTVNTUAABAAAAB4IIogAAAAAAAAAAAAAAAAAAAAAKAO5CAAAADw==",
    "redis-requirepass": "requirepass Qm7vX2pLk9Zt4WbR",
    "token-read-out": " ".join(
        {"_": "underscore"}.get(c) or ("zero one two three four five six seven eight nine".split()[int(c)] if c.isdigit()
                                      else ("capital " if c.isupper() else "") + NATO[c.lower()]) for c in TOKEN),
}


def assert_refused(response, value):
    body = response.json()
    assert response.status_code == 400 and body["code"] == "secret_detected", body
    assert value not in json.dumps(body)


@pytest.mark.parametrize("value", FORMS.values(), ids=FORMS.keys())
def test_an_agent_in_a_persons_turn_and_a_bot_in_its_own_are_refused(owner, eu_ws, value):
    person = token_client(owner)
    assert_refused(tool_save(person, eu_ws, start_turn(person, eu_ws)["id"], key="ops.note", value=value), value)
    _, key = make_bot(eu_ws, owner)
    bot = token_client(key)
    assert_refused(tool_save(bot, eu_ws, start_turn(bot, eu_ws)["id"], key="ops.note", value=value), value)
    assert not Note.objects.for_workspace(eu_ws).exists()


@pytest.mark.parametrize("value", FORMS.values(), ids=FORMS.keys())
def test_a_persons_own_save_is_refused(owner, eu_ws, value):
    assert_refused(person_save(token_client(owner), eu_ws, key="ops.note", value=value), value)
    assert not Note.objects.for_workspace(eu_ws).exists()


@pytest.mark.parametrize("value", FORMS.values(), ids=FORMS.keys())
def test_an_instance_admins_required_rule_is_refused(value):
    root = token_client(make_user("root@example.com", instance_admin=True))
    response = root.post("/api/v1/instance/rules/", {"key": "rule.ops", "value": value}, format="json")
    assert_refused(response, value)
    assert not InstanceRule.objects.filter(key="rule.ops").exists()


# Fourteenth session: a table's person or record written in markup, in name fields or with
# letters for digits is refused (names_person / names_record) whoever saves it, in a workspace of
# a region (PostgreSQL under make test) and in a local one (an SQLCipher file, SQLite's engine).
TABLE_FORMS = {
    "name-in-html": ("Call <b>Jane</b> <b>Okafor</b> about the invoices.", "names_person"),
    "name-fields": ('{"first_name": "Jane", "last_name": "Okafor"}', "names_person"),
    "id-letters-for-digits": ("Refund CUST-OO418 before Friday.", "names_record"),
}


@pytest.fixture(params=["region", "local"])
def workspace(request, owner, eu_ws):
    if request.param == "region":
        return eu_ws
    request.getfixturevalue("passphrase")  # a local workspace's key
    return create_local(token_client(owner))


@pytest.mark.parametrize("value, code", TABLE_FORMS.values(), ids=TABLE_FORMS.keys())
def test_a_table_value_in_a_new_form_is_refused_for_every_caller(owner, workspace, value, code):
    make_table(workspace, owner, name="Customers",
               columns=[{"name": "name", "kind": "person"}, {"name": "customer_id", "kind": "id"}],
               rows=[{"name": "Jane Okafor", "customer_id": "CUST-00418"}])
    person = token_client(owner)
    _, key = make_bot(workspace, owner)
    bot = token_client(key)
    for response in (tool_save(person, workspace, start_turn(person, workspace)["id"], key="ops.note", value=value),
                     tool_save(bot, workspace, start_turn(bot, workspace)["id"], key="ops.note", value=value),
                     person_save(person, workspace, key="ops.note", value=value)):
        assert response.status_code == 400 and response.json()["code"] == code, response.json()
    assert not Note.objects.for_workspace(workspace).exists()


# Fifteenth session: a person named the ways people_hyphenated.py and people_initials.py read is
# held (R-SAVE-3b), not active, for an agent in a person's turn and a bot in its own, and does
# not reach the next turn's context.
PEOPLE_FORMS = {
    "hyphenated-chinese-name": "Wong Yeung-tat owns the ingestion job.",
    "initials-only": "J.O. asked for a refund on the March invoice.",
    "name-before-a-work-verb": "Diego fixed the join on orders yesterday.",  # seventeenth session
    "cyrillic-name-in-its-case": "Напиши Петрову про отчёт за март.",  # the same
}


@pytest.mark.parametrize("value", PEOPLE_FORMS.values(), ids=PEOPLE_FORMS.keys())
def test_a_person_named_in_the_new_forms_is_held_for_a_persons_own_save(owner, eu_ws, value):
    saved = person_save(token_client(owner), eu_ws, key="ops.owner", value=value)
    assert saved.status_code == 201, saved.json()
    assert saved.json()["state"] == "held" and saved.json()["reason"] == "may_name_person"


@pytest.mark.parametrize("value", PEOPLE_FORMS.values(), ids=PEOPLE_FORMS.keys())
def test_a_person_named_in_the_new_forms_is_held_for_an_agent_and_a_bot(owner, eu_ws, value):
    _, key = make_bot(eu_ws, owner)
    for client in (token_client(owner), token_client(key)):
        saved = tool_save(client, eu_ws, start_turn(client, eu_ws)["id"], key="ops.owner", value=value)
        assert saved.status_code == 201, saved.json()
        assert saved.json()["state"] == "held" and saved.json()["reason"] == "may_name_person"
        assert value not in json.dumps(start_turn(client, eu_ws)["context"])
