"""Retries that do no harm (issue 17): a save sent again with the same ``Idempotency-Key`` answers
the first answer and writes nothing; the sixth save of a turn answers 409, not 429."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from freezegun import freeze_time

from memories import services
from memories.models import ChangeSet, IdempotentAnswer, Note, Turn
from tests.factories import ALL_DATABASES, add_member, make_user, make_workspace, token_client, url
from tests.memories.helpers import person_save, start_turn, tool_save

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

SECRET = "AKIA" + "IOSFODNN7EXAMPLQ"


def keyed(key: str) -> dict:
    return {"HTTP_IDEMPOTENCY_KEY": key}


def save_with_key(client, workspace, turn_id, idempotency_key, **fields):
    return client.post(url(workspace, f"turns/{turn_id}/memory_save/"), fields, format="json", **keyed(idempotency_key))


def written(workspace, turn_id=None) -> tuple[int, int, int | None]:
    save_count = Turn.objects.for_workspace(workspace).get(pk=turn_id).save_count if turn_id else None
    return (Note.objects.for_workspace(workspace).count(), ChangeSet.objects.for_workspace(workspace).count(),
            save_count)


def test_a_replay_answers_the_first_answer_and_writes_nothing(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    first = save_with_key(client, eu_ws, turn["id"], "retry-1", key="pref.tone", value="Keep replies short.")
    assert first.status_code == 201, first.json()
    assert "Idempotent-Replayed" not in first.headers
    before = written(eu_ws, turn["id"])
    assert before == (1, 1, 1)
    again = save_with_key(client, eu_ws, turn["id"], "retry-1", key="pref.tone", value="Keep replies short.")
    assert again.status_code == 201 and again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert written(eu_ws, turn["id"]) == before


def test_a_persons_save_replays_too(owner, eu_ws):
    client = token_client(owner)
    send = lambda: client.post(url(eu_ws, "memories/"), {"key": "pref.units", "value": "Metric units.",  # noqa: E731
                                                         "layer": "mine"}, format="json", **keyed("person-1"))
    first, again = send(), send()
    assert first.status_code == 201 and again.status_code == 201 and again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert written(eu_ws)[:2] == (1, 1)


def test_without_a_key_a_second_save_is_a_second_save(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="pref.tone", value="Short.")
    assert person_save(client, eu_ws, key="pref.tone", value="Short.").status_code == 200
    assert written(eu_ws)[:2] == (1, 2)


def test_a_replay_after_the_fifth_save_answers_the_first_answer_not_the_limit(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    first = save_with_key(client, eu_ws, turn["id"], "k0", key="k0", value="fact 0")
    for n in range(1, 5):
        assert tool_save(client, eu_ws, turn["id"], key=f"k{n}", value=f"fact {n}").status_code == 201
    again = save_with_key(client, eu_ws, turn["id"], "k0", key="k0", value="fact 0")
    assert again.status_code == 201 and again.json() == first.json()
    assert written(eu_ws, turn["id"]) == (5, 5, 5)


def test_R_SAVE_5_the_sixth_save_answers_409_turn_save_limit(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    for n in range(5):
        assert tool_save(client, eu_ws, turn["id"], key=f"k{n}", value=f"fact {n}").status_code == 201
    sixth = save_with_key(client, eu_ws, turn["id"], "sixth", key="k5", value="fact 5")
    assert sixth.status_code == 409 and sixth.json()["code"] == "turn_save_limit"
    replayed = save_with_key(client, eu_ws, turn["id"], "sixth", key="k5", value="fact 5")
    assert replayed.status_code == 409 and replayed.json() == sixth.json()
    assert written(eu_ws, turn["id"]) == (5, 5, 5)


def test_the_same_key_with_another_body_is_409_and_writes_nothing(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    save_with_key(client, eu_ws, turn["id"], "reused", key="pref.tone", value="Short.")
    other = save_with_key(client, eu_ws, turn["id"], "reused", key="pref.tone", value="Long.")
    assert other.status_code == 409 and other.json()["code"] == "idempotency_key_reused"
    other_turn = start_turn(client, eu_ws)
    elsewhere = save_with_key(client, eu_ws, other_turn["id"], "reused", key="pref.tone", value="Short.")
    assert elsewhere.status_code == 409 and elsewhere.json()["code"] == "idempotency_key_reused"
    assert written(eu_ws, turn["id"]) == (1, 1, 1)
    assert Note.objects.for_workspace(eu_ws).get().value == "Short."


def test_a_held_save_replays_as_held(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    client.post(url(eu_ws, f"turns/{turn['id']}/reads/"), {"source": "web", "ref": "https://example.com"},
                format="json")
    first = save_with_key(client, eu_ws, turn["id"], "held-1", key="pref.color", value="Blue charts please")
    assert first.json()["state"] == "held"
    again = save_with_key(client, eu_ws, turn["id"], "held-1", key="pref.color", value="Blue charts please")
    assert again.json() == first.json() and again.json()["state"] == "held"
    assert written(eu_ws, turn["id"]) == (1, 1, 1)


def test_another_caller_with_the_same_key_is_independent(owner, eu_ws):
    colleague = add_member(eu_ws, "colleague@example.com", "editor")
    mine = token_client(owner).post(url(eu_ws, "memories/"), {"key": "pref.tone", "value": "Short."},
                                    format="json", **keyed("shared-key"))
    theirs = token_client(colleague).post(url(eu_ws, "memories/"), {"key": "pref.tone", "value": "Short."},
                                          format="json", **keyed("shared-key"))
    assert mine.status_code == 201 and theirs.status_code == 201
    assert "Idempotent-Replayed" not in theirs.headers and theirs.json()["id"] != mine.json()["id"]
    assert written(eu_ws)[:2] == (2, 2)


def test_the_same_key_in_another_workspace_is_independent(owner, eu_ws, us_ws):
    client = token_client(owner)
    for workspace in (eu_ws, us_ws):
        response = client.post(url(workspace, "memories/"), {"key": "pref.tone", "value": "Short."},
                               format="json", **keyed("same"))
        assert response.status_code == 201 and "Idempotent-Replayed" not in response.headers
        assert IdempotentAnswer.objects.for_workspace(workspace).count() == 1


def test_a_refused_save_replays_its_400_without_running_the_detectors_again(owner, eu_ws, monkeypatch):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    calls = []
    real_inspect = services.inspect_note
    monkeypatch.setattr(services, "inspect_note", lambda **kw: calls.append(kw) or real_inspect(**kw))
    first = save_with_key(client, eu_ws, turn["id"], "secret-1", key="deploy.key", value=f"The key is {SECRET}")
    assert first.status_code == 400 and first.json()["code"] == "secret_detected"
    again = save_with_key(client, eu_ws, turn["id"], "secret-1", key="deploy.key", value=f"The key is {SECRET}")
    assert again.status_code == 400 and again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(calls) == 1
    assert written(eu_ws, turn["id"]) == (0, 0, 0)


@pytest.mark.parametrize("bad_key", ["", "x" * 256, "caf\u00e9", "tab\there"])
def test_a_key_that_is_not_1_to_255_printable_ascii_is_400(owner, eu_ws, bad_key):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    response = save_with_key(client, eu_ws, turn["id"], bad_key, key="k", value="v")
    assert response.status_code == 400 and response.json()["code"] == "invalid_idempotency_key"
    assert written(eu_ws, turn["id"]) == (0, 0, 0)


def test_a_key_of_255_characters_is_accepted(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    assert save_with_key(client, eu_ws, turn["id"], "x" * 255, key="k", value="v").status_code == 201


def test_an_answer_older_than_24_hours_is_forgotten(owner, eu_ws):
    client = token_client(owner)
    send = lambda: client.post(url(eu_ws, "memories/"), {"key": "pref.tone", "value": "Short."},  # noqa: E731
                               format="json", **keyed("old"))
    with freeze_time(timedelta(hours=-25)):
        assert send().status_code == 201
    fresh = send()
    assert fresh.status_code == 200 and "Idempotent-Replayed" not in fresh.headers
    assert IdempotentAnswer.objects.for_workspace(eu_ws).count() == 1


@pytest.mark.django_db(databases=ALL_DATABASES, transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL; make test runs it")
def test_two_requests_with_the_same_key_at_once_write_one_note():
    owner = make_user("idem@example.com")
    workspace = make_workspace(owner, name="Idempotency", region="eu")
    turn = start_turn(token_client(owner), workspace)
    barrier = threading.Barrier(2)
    answers: list = [None, None]

    def run(index):
        try:
            client = token_client(owner)
            barrier.wait()
            answers[index] = save_with_key(client, workspace, turn["id"], "race", key="pref.tone", value="Short.")
        except Exception as exc:  # noqa: BLE001 - the test inspects what each thread got
            answers[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    statuses = sorted(getattr(a, "status_code", a) for a in answers)
    assert statuses == [201, 201], answers
    assert sum(a.headers.get("Idempotent-Replayed") == "true" for a in answers) == 1
    assert answers[0].json() == answers[1].json()
    assert written(workspace, turn["id"]) == (1, 1, 1)
