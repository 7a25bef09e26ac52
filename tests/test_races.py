"""Races answer with a code, never a 500 (R-OPS-1): two requests on the same note at the same
moment, each through the API in its own thread with its own PostgreSQL connection.

- a person keeps a held note while a save of the same key makes an active one (the one-note-per-
  key constraint is met by both at once);
- an undo of a save while the note is edited;
- an undo of a delete (the note comes back) while a save of the same key makes a new note.

Each race is run for several rounds, since which request wins varies; every answer is a success
or a 4xx with a ``code``, and the notes left are consistent (one active note per key).
"""

from __future__ import annotations

import threading
from functools import partial

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from memories.models import Note
from tests.factories import ALL_DATABASES, token_client, url
from tests.memories.helpers import person_save, start_turn, tool_save

pytestmark = [
    pytest.mark.django_db(databases=ALL_DATABASES, transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL; make test runs it"),
]

ROUNDS = 12


def _race(*calls) -> list:
    """Runs each call in its own thread, started together; returns their responses (or errors)."""
    barrier = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)

    def run(index):
        try:
            barrier.wait()
            answers[index] = calls[index]()
        except Exception as exc:  # noqa: BLE001 - a raised error is what the test reports
            answers[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def _assert_answered_with_a_code(answers, allowed: set[int]) -> list[int]:
    statuses = []
    for answer in answers:
        assert not isinstance(answer, Exception), f"a request raised {answer!r}"
        assert answer.status_code < 500, (answer.status_code, answer.content)
        if answer.status_code >= 400:
            assert answer.json().get("code"), answer.content
        assert answer.status_code in allowed, (answer.status_code, answer.content)
        statuses.append(answer.status_code)
    return statuses


def _client(owner) -> APIClient:
    client = token_client(owner)
    client.raise_request_exception = False  # a 500 is an answer the test inspects
    return client


def _active(workspace, key) -> list[Note]:
    return list(Note.objects.for_workspace(workspace).filter(key=key, state="active", trashed_at__isnull=True))


def test_R_OPS_1_keep_and_a_save_of_the_same_key_at_once_never_answer_500(owner, eu_ws):
    api = _client(owner)
    seen = set()
    for round_ in range(ROUNDS):
        key = f"pref.race{round_}"
        turn = start_turn(api, eu_ws)
        assert api.post(url(eu_ws, f"turns/{turn['id']}/reads/"), {"source": "web", "ref": "https://x.test"},
                        format="json").status_code == 201
        held = tool_save(api, eu_ws, turn["id"], key=key, value="Held text.").json()
        assert held["state"] == "held", held
        version = api.get(url(eu_ws, f"memories/{held['id']}/")).json()["version"]
        keeper, saver = _client(owner), _client(owner)
        answers = _race(
            partial(keeper.post, url(eu_ws, f"memories/{held['id']}/keep/"), {"version": version}, format="json"),
            partial(person_save, saver, eu_ws, key=key, value="Saved text."),
        )
        seen.update(_assert_answered_with_a_code(answers, {200, 201, 409}))
        [active] = _active(eu_ws, key)
        assert active.value in ("Held text.", "Saved text.")
        assert not Note.objects.for_workspace(eu_ws).filter(key=key, state="held").exists() or answers[0].status_code == 409
    assert seen & {200, 201}


def test_R_OPS_1_undo_of_a_save_while_the_note_is_edited_answers_409_or_404_never_500(owner, eu_ws):
    api = _client(owner)
    for round_ in range(ROUNDS):
        saved = person_save(api, eu_ws, key=f"pref.undo{round_}", value="First.").json()
        undoer, editor = _client(owner), _client(owner)
        answers = _race(
            partial(undoer.post, url(eu_ws, f"changes/{saved['undo']['change']}/undo/")),
            partial(editor.patch, url(eu_ws, f"memories/{saved['id']}/"), {"value": "Edited."}, format="json"),
        )
        undo, edit = answers
        _assert_answered_with_a_code(answers, {200, 201, 404, 409})
        left = list(Note.objects.for_workspace(eu_ws).filter(key=f"pref.undo{round_}"))
        if undo.status_code < 300:  # undone first: the note is gone and the edit found nothing
            assert left == [] and edit.status_code == 404, edit.content
        else:  # edited first: the undo would overwrite it
            assert undo.json()["code"] == "undo_conflict" and [n.value for n in left] == ["Edited."]


def test_R_OPS_1_undo_of_a_delete_while_the_key_is_saved_again_never_answers_500(owner, eu_ws):
    api = _client(owner)
    for round_ in range(ROUNDS):
        key = f"pref.back{round_}"
        saved = person_save(api, eu_ws, key=key, value="Before the delete.").json()
        deleted = api.delete(url(eu_ws, f"memories/{saved['id']}/"))
        assert deleted.status_code in (200, 204), deleted.content
        change = api.get(url(eu_ws, "changes/"), {"action": "delete"}).json()["results"][0]["id"]
        undoer, saver = _client(owner), _client(owner)
        answers = _race(
            partial(undoer.post, url(eu_ws, f"changes/{change}/undo/")),
            partial(person_save, saver, eu_ws, key=key, value="Saved again."),
        )
        _assert_answered_with_a_code(answers, {200, 201, 409})
        assert len(_active(eu_ws, key)) == 1
