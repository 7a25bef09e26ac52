"""Every field an agent sends is checked (R-SAVE-8), and every invisible character is stripped
and reported (R-SAVE-7): subject ids, keys, chat ids, channel fields and read refs, through the
HTTP API as a client sends them."""

from __future__ import annotations

import json

import pytest

from memories.models import ChangeSet, Conversation, Note, PrivateChat, Turn, TurnRead
from tests.factories import ALL_DATABASES, make_user, make_workspace, token_client, url
from tests.memories.helpers import context_keys, person_save, start_turn, tool_save, tool_search

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

# Built from parts so that no scanner takes this file for a leak.
GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
AWS_KEY = "AKIA" + "IOSFODNN7EXAMPLQ"
SLACK_TOKEN = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
# A Teams user id as the Bot Framework documents it: random-looking, yet an id, not a secret.
TEAMS_USER_ID = "29:1GcS4EyB_oSI8A88XmWBN7NJFyMqe3QGnJdgLfFGkJnVelzRGos0bPbpsURJkxSq0zR3Yk3tl76Xk9NB7lEVgiw"


def notes_in(workspace):
    return Note.objects.for_workspace(workspace)


def report_read(client, workspace, turn_id, source, ref):
    return client.post(url(workspace, f"turns/{turn_id}/reads/"), {"source": source, "ref": ref}, format="json")


def turn_start(client, workspace, **fields):
    return client.post(url(workspace, "turns/"), {"kind": "chat", **fields}, format="json")


# ---- subject ids ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["integration", "workflow", "skill"])
@pytest.mark.parametrize("token", [GITHUB_TOKEN, AWS_KEY, SLACK_TOKEN], ids=["github", "aws", "slack"])
def test_R_SAVE_8_token_as_subject_id_is_refused_and_never_recalled(owner, eu_ws, kind, token):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    refused = tool_save(client, eu_ws, turn["id"], key="crm.sandbox", value="Use the sandbox for test runs.",
                        subject={"kind": kind, "id": token}, pin=True)
    assert refused.status_code == 400, refused.json()
    body = refused.json()
    assert body["code"] == "secret_detected"
    assert [s["field"] for s in body["secrets"]] == ["subject.id"]
    assert token not in json.dumps(body)
    assert not notes_in(eu_ws).exists() and not ChangeSet.objects.for_workspace(eu_ws).exists()

    later = start_turn(client, eu_ws)
    found = tool_search(client, eu_ws, later["id"], "sandbox test runs")
    assert found.status_code == 200 and found.json()["notes"] == []
    assert token not in json.dumps(later["context"]) and token not in json.dumps(found.json())


def test_R_SAVE_8_token_as_subject_id_is_refused_from_a_person_too(owner, eu_ws):
    refused = person_save(token_client(owner), eu_ws, key="crm.sandbox", value="Use the sandbox.",
                          subject={"kind": "integration", "id": GITHUB_TOKEN})
    assert refused.status_code == 400 and refused.json()["code"] == "secret_detected"
    assert not notes_in(eu_ws).exists()


@pytest.mark.parametrize(
    "subject_id",
    ["salesforce", "wf-123", "skills/summarize", "hubspot:contacts", "ops@acme.example",
     "workflows/" + "-".join(["nightly-export"] * 9)[:118]],
    ids=["slug", "workflow", "path", "colon", "at", "128-chars"],
)
def test_R_SAVE_8_ordinary_subject_ids_are_accepted_whole(owner, eu_ws, subject_id):
    assert len(subject_id) <= 128
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    saved = tool_save(client, eu_ws, turn["id"], key="crm.sandbox", value="Use the sandbox for test runs.",
                      subject={"kind": "integration", "id": subject_id})
    assert saved.status_code == 201, saved.json()
    assert saved.json()["state"] == "active"
    assert saved.json()["note"]["subject"] == {"kind": "integration", "id": subject_id}
    assert notes_in(eu_ws).get().subject_id == subject_id


@pytest.mark.parametrize(
    "subject_id",
    ["x" * 129, "sales force", "-leading-dash", "sales\u200bforce", "wf\U000e0041-1", "crm\n", "café", {"id": 1}, True],
    ids=["too-long", "space", "leading-dash", "zero-width", "tag", "newline", "non-ascii", "object", "bool"],
)
def test_R_SAVE_8_a_subject_id_that_is_not_an_id_is_refused_not_cut(owner, eu_ws, subject_id):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    refused = tool_save(client, eu_ws, turn["id"], key="crm.sandbox", value="Use the sandbox.",
                        subject={"kind": "workflow", "id": subject_id})
    assert refused.status_code == 400, refused.json()
    assert refused.json()["code"] == "invalid_subject" and "letters, digits" in refused.json()["detail"]
    assert not notes_in(eu_ws).exists()


def test_R_SAVE_8_a_table_subject_stays_a_table_id(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    refused = tool_save(client, eu_ws, turn["id"], key="crm.sandbox", value="Use the sandbox.",
                        subject={"kind": "table", "id": "salesforce"})
    assert refused.status_code == 400 and refused.json()["code"] == "subject_not_found"


def test_R_SAVE_8_a_person_named_as_the_subject_id_is_held(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    saved = tool_save(client, eu_ws, turn["id"], key="crm.owner", value="Prefers email over calls.",
                      subject={"kind": "integration", "id": "maria.gonzalez"})
    assert saved.status_code == 201, saved.json()
    assert saved.json()["state"] == "held" and saved.json()["reason"] == "may_name_person"


# ---- keys ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["contact.maria.gonzalez", "john_smith.pref", "chidi-okonkwo:tone"])
def test_R_SAVE_8_a_persons_full_name_in_the_key_is_held_not_active(owner, eu_ws, key):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    saved = tool_save(client, eu_ws, turn["id"], key=key, value="prefers email", pin=True)
    assert saved.status_code == 201, saved.json()
    assert saved.json()["state"] == "held" and saved.json()["reason"] == "may_name_person"
    assert key not in context_keys(start_turn(client, eu_ws))


@pytest.mark.parametrize("key", ["pref.tone", "grant.access", "release.manager", "ruby.version", "mark.as.read"])
def test_R_SAVE_8_ordinary_keys_are_not_taken_for_names(owner, eu_ws, key):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    saved = tool_save(client, eu_ws, turn["id"], key=key, value="Keep it short.")
    assert saved.status_code == 201 and saved.json()["state"] == "active", saved.json()


# ---- invisible characters (R-SAVE-7 for every format character) ----------------------------------------------
INVISIBLES = [
    ("\U000e0041", "tag"),  # TAG LATIN CAPITAL LETTER A: invisible text a model still reads
    ("\U000e007f", "tag"),
    ("\u2061", "format"),  # FUNCTION APPLICATION
    ("\u2064", "format"),  # INVISIBLE PLUS
    ("\u0600", "format"),  # another Cf: ARABIC NUMBER SIGN
    ("\ufff9", "format"),  # INTERLINEAR ANNOTATION ANCHOR
    ("\ufe0f", "variation_selector"),
    ("\U000e0100", "variation_selector"),
    ("\u180b", "variation_selector"),  # MONGOLIAN FREE VARIATION SELECTOR ONE
    ("\u180f", "variation_selector"),
    ("\u034f", "zero_width"),  # COMBINING GRAPHEME JOINER
    ("\u115f", "filler"),
    ("\u1160", "filler"),
    ("\u3164", "filler"),
    ("\uffa0", "filler"),
    ("\u2800", "filler"),  # BRAILLE PATTERN BLANK
]


@pytest.mark.parametrize("char, kind", INVISIBLES, ids=[f"U+{ord(c):04X}" for c, _ in INVISIBLES])
def test_R_SAVE_7_each_invisible_kind_is_stripped_from_key_and_value_and_reported(owner, eu_ws, char, kind):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    saved = tool_save(client, eu_ws, turn["id"], key=f"pref{char}.tone", value=f"Short{char} replies{char} please")
    assert saved.status_code == 201, saved.json()
    assert saved.json()["note"]["key"] == "pref.tone"
    assert saved.json()["note"]["value"] == "Short replies please"
    assert saved.json()["stripped"] == [kind]
    stored = notes_in(eu_ws).get()
    assert (stored.key, stored.value) == ("pref.tone", "Short replies please")


def test_R_SAVE_7_line_separators_become_line_breaks_in_a_value(owner, eu_ws):
    saved = person_save(token_client(owner), eu_ws, key="pref.format", value="One.\u2028Two.\u2029Three.")
    assert saved.status_code == 201, saved.json()
    assert saved.json()["note"]["value"] == "One.\nTwo.\nThree."


def test_R_SAVE_7_a_tag_inside_a_persons_name_no_longer_hides_the_name(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    saved = tool_save(client, eu_ws, turn["id"], key="pref.export", value="Pri\U000e0041ya prefers CSV exports.")
    assert saved.status_code == 201, saved.json()
    assert saved.json()["state"] == "held" and saved.json()["reason"] == "may_name_person"
    assert saved.json()["stripped"] == ["tag"]
    assert notes_in(eu_ws).get().value == "Priya prefers CSV exports."


# ---- chat ids and channel fields -----------------------------------------------------------------------------
def messaging_channel(**changes) -> dict:
    channel = {"platform": "telegram", "conversation": "c1", "chat_kind": "direct",
               "sender": {"id": "alice", "paired": True, "can_confirm": True}}
    for name, value in changes.items():
        if name == "sender_id":
            channel["sender"]["id"] = value
        else:
            channel[name] = value
    return channel


@pytest.mark.parametrize(
    "fields, field_name, secret",
    [
        ({"chat_id": GITHUB_TOKEN}, "chat_id", GITHUB_TOKEN),
        ({"chat_id": f"chat-{SLACK_TOKEN}"}, "chat_id", SLACK_TOKEN),
        ({"kind": "messaging", "channel": messaging_channel(platform=AWS_KEY)}, "channel.platform", AWS_KEY),
        ({"kind": "messaging", "channel": messaging_channel(conversation=SLACK_TOKEN)}, "channel.conversation",
         SLACK_TOKEN),
        ({"kind": "messaging", "channel": messaging_channel(sender_id=GITHUB_TOKEN)}, "channel.sender.id",
         GITHUB_TOKEN),
    ],
    ids=["chat_id", "chat_id-inside", "platform", "conversation", "sender"],
)
def test_R_SAVE_8_a_secret_in_a_chat_id_refuses_the_turn_and_stores_nothing(owner, eu_ws, fields, field_name, secret):
    client = token_client(owner)
    refused = turn_start(client, eu_ws, private=True, **fields)
    assert refused.status_code == 400, refused.json()
    body = refused.json()
    assert body["code"] == "secret_detected" and field_name in body["detail"]
    assert [s["field"] for s in body["secrets"]] == [field_name]
    assert secret not in json.dumps(body)
    assert not Turn.objects.for_workspace(eu_ws).exists()
    assert not PrivateChat.objects.for_workspace(eu_ws).exists()
    assert not Conversation.objects.for_workspace(eu_ws).exists()


@pytest.mark.parametrize(
    "fields, code",
    [
        ({"chat_id": "c" * 201}, "too_long"),
        ({"chat_id": "chat\n42"}, "invalid_text"),
        ({"chat_id": {"id": "chat-42"}}, "invalid_text"),
        ({"kind": "messaging", "channel": messaging_channel(conversation="c" * 151)}, "too_long"),
        ({"kind": "messaging", "channel": messaging_channel(sender_id="alice\x00")}, "invalid_text"),
    ],
    ids=["chat-too-long", "chat-control", "chat-object", "conversation-too-long", "sender-nul"],
)
def test_R_SAVE_8_a_chat_id_that_is_not_short_plain_text_is_refused_not_cut(owner, eu_ws, fields, code):
    refused = turn_start(token_client(owner), eu_ws, **fields)
    assert refused.status_code == 400, refused.json()
    assert refused.json()["code"] == code and len(refused.json()["detail"]) > 10
    assert not Turn.objects.for_workspace(eu_ws).exists()


@pytest.mark.parametrize("chat_id", ["chat-42", 1234567890, "-1001234567890", "19:meeting_abc@thread.v2"],
                         ids=["slug", "number", "telegram", "teams-thread"])
def test_R_SAVE_8_an_ordinary_chat_id_is_accepted(owner, eu_ws, chat_id):
    started = turn_start(token_client(owner), eu_ws, chat_id=chat_id)
    assert started.status_code == 201, started.json()
    assert Turn.objects.for_workspace(eu_ws).get().chat_id == str(chat_id)


def test_R_SAVE_8_a_random_looking_platform_id_is_accepted_in_a_messaging_turn(owner, eu_ws):
    started = turn_start(token_client(owner), eu_ws, kind="messaging",
                         channel=messaging_channel(platform="teams", sender_id=TEAMS_USER_ID))
    assert started.status_code == 201, started.json()
    assert Turn.objects.for_workspace(eu_ws).get().channel["sender_id"] == TEAMS_USER_ID


def test_R_SAVE_7_invisible_characters_in_a_chat_id_are_stripped_so_it_names_the_same_chat(owner, eu_ws):
    client = token_client(owner)
    assert turn_start(client, eu_ws, chat_id="chat-42", private=True).status_code == 201
    again = turn_start(client, eu_ws, chat_id="chat\u200b-42\U000e0041")
    assert again.status_code == 201, again.json()
    assert again.json()["private"] is True
    assert set(Turn.objects.for_workspace(eu_ws).values_list("chat_id", flat=True)) == {"chat-42"}


def test_R_SAVE_7_invisible_characters_in_channel_fields_are_stripped(owner, eu_ws):
    started = turn_start(token_client(owner), eu_ws, kind="messaging",
                         channel=messaging_channel(platform="tele\u2061gram", conversation="c\u200d1",
                                                   sender_id="ali\ufe0fce"))
    assert started.status_code == 201, started.json()
    channel = Turn.objects.for_workspace(eu_ws).get().channel
    assert (channel["platform"], channel["conversation"], channel["sender_id"]) == ("telegram", "c1", "alice")


# ---- read refs -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "ref, secret",
    [
        (f"https://example.com/report?token={GITHUB_TOKEN}&page=2", GITHUB_TOKEN),
        (f"notes-{AWS_KEY}.txt", AWS_KEY),
        (SLACK_TOKEN, SLACK_TOKEN),
        ("x" * 480 + " " + GITHUB_TOKEN, GITHUB_TOKEN),  # straddles where a stored ref is cut
    ],
    ids=["url", "file", "whole", "at-the-cut"],
)
def test_R_SAVE_8_a_read_ref_with_a_secret_still_taints_but_is_stored_redacted(owner, eu_ws, ref, secret):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    read = report_read(client, eu_ws, turn["id"], "web", ref)
    assert read.status_code == 201, read.json()
    assert read.json()["tainted"] is True and read.json()["redacted"] is True
    assert "redacted" in read.json()["ref"]
    assert secret[:12] not in json.dumps(read.json())
    assert Turn.objects.for_workspace(eu_ws).get(id=turn["id"]).tainted

    saved = tool_save(client, eu_ws, turn["id"], key="report.pages", value="The weekly report has two pages.")
    assert saved.json()["state"] == "held" and saved.json()["reason"] == "tainted_turn"
    held = client.get(url(eu_ws, "memories/"), {"state": "held"}).json()["results"]
    assert len(held) == 1 and held[0]["held_sources"]
    assert secret[:12] not in json.dumps(held)
    stored = TurnRead.objects.for_workspace(eu_ws).get()
    assert secret[:12] not in stored.ref and secret[:12] not in stored.label


def test_R_SAVE_8_a_read_ref_with_invisible_and_control_characters_is_cleaned_not_refused(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    read = report_read(client, eu_ws, turn["id"], "file", "re\u202eport\U000e0041.pdf\x07")
    assert read.status_code == 201, read.json()
    assert read.json()["ref"] == "report.pdf\ufffd" and read.json()["redacted"] is False
    assert read.json()["stripped"] == ["bidi_control", "tag"]
    assert Turn.objects.for_workspace(eu_ws).get(id=turn["id"]).tainted


def test_R_SAVE_8_an_ordinary_read_ref_is_kept_as_sent(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    read = report_read(client, eu_ws, turn["id"], "web", "https://example.com/docs/page?id=42")
    assert read.status_code == 201
    assert read.json()["ref"] == "https://example.com/docs/page?id=42"
    assert read.json()["redacted"] is False and read.json()["stripped"] == []


# ---- isolation -----------------------------------------------------------------------------------------------
def test_R_RBAC_2_a_read_on_another_workspaces_turn_is_404_and_records_nothing(owner, eu_ws):
    other = make_user("other@example.com")
    other_ws = make_workspace(other, name="Other", region="eu")
    turn = start_turn(token_client(owner), eu_ws)
    answer = report_read(token_client(other), other_ws, turn["id"], "web", f"https://x.test/?t={GITHUB_TOKEN}")
    assert answer.status_code == 404
    assert not TurnRead.objects.for_workspace(eu_ws).exists()
    assert not Turn.objects.for_workspace(eu_ws).get(id=turn["id"]).tainted


def test_R_SAVE_8_the_checks_run_the_same_in_the_us_region(owner, us_ws):
    client = token_client(owner)
    turn = start_turn(client, us_ws)
    refused = tool_save(client, us_ws, turn["id"], key="crm.sandbox", value="Use the sandbox.",
                        subject={"kind": "skill", "id": GITHUB_TOKEN})
    assert refused.status_code == 400 and refused.json()["code"] == "secret_detected"
    held = tool_save(client, us_ws, turn["id"], key="contact.maria.gonzalez", value="prefers email")
    assert held.json()["state"] == "held"
    assert turn_start(client, us_ws, chat_id=AWS_KEY).json()["code"] == "secret_detected"
    assert not notes_in(us_ws).filter(state="active").exists()
