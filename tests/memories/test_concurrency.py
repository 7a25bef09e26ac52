"""Concurrency on PostgreSQL with real connections (threads): no duplicate, no lost update,
the per-turn limit holds under parallel saves, and a save killed half-way leaves nothing."""

from __future__ import annotations

import threading

import pytest
from django.db import Error, connection, connections

from appenda.errors import DomainError
from memories import services, turns
from memories.models import ChangeSet, Note
from tests.factories import ALL_DATABASES, make_user, make_workspace
from workspaces.capabilities import actor_for

pytestmark = [
    pytest.mark.django_db(databases=ALL_DATABASES, transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL; make test runs it"),
]


def _in_threads(count: int, work) -> list:
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def run(index):
        try:
            barrier.wait()
            results[index] = work(index)
        except Exception as exc:  # noqa: BLE001 - the test inspects what each thread got
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.fixture
def setting():
    owner = make_user("conc@example.com")
    workspace = make_workspace(owner, name="Concurrency", region="eu")
    return workspace, actor_for(owner, workspace)


def test_R_SAVE_4_two_turns_saving_one_key_at_once_leave_one_note_and_two_audit_entries(setting):
    workspace, actor = setting
    turn_ids = [turns.turn_start(actor=actor).id for _ in range(2)]
    results = _in_threads(2, lambda i: services.memory_save(actor=actor, turn_id=turn_ids[i], key="pref.tone",
                                                            value=f"version {i}"))
    assert not [r for r in results if isinstance(r, Exception)], results
    notes = list(Note.objects.for_workspace(workspace).filter(key="pref.tone"))
    assert len(notes) == 1 and notes[0].value in ("version 0", "version 1")
    actions = sorted(ChangeSet.objects.for_workspace(workspace).values_list("action", flat=True))
    assert actions == ["save", "update"]


def test_R_SAVE_5_ten_parallel_saves_in_one_turn_stop_at_five(setting):
    workspace, actor = setting
    turn_id = turns.turn_start(actor=actor).id
    results = _in_threads(10, lambda i: services.memory_save(actor=actor, turn_id=turn_id, key=f"k{i}", value=f"v{i}"))
    refused = [r for r in results if isinstance(r, DomainError)]
    assert len(refused) == 5 and {r.code for r in refused} == {"turn_save_limit"}
    assert Note.objects.for_workspace(workspace).count() == 5
    assert ChangeSet.objects.for_workspace(workspace).count() == 5


def test_a_save_whose_connection_dies_half_way_leaves_nothing(setting, monkeypatch):
    workspace, actor = setting
    turn_id = turns.turn_start(actor=actor).id
    real_record = services.change_set_record

    def die_mid_transaction(**kwargs):
        with connections[workspace.db_alias].cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        return real_record(**kwargs)

    monkeypatch.setattr(services, "change_set_record", die_mid_transaction)
    with pytest.raises(Error):  # the server ended the connection: an OperationalError or InterfaceError
        services.memory_save(actor=actor, turn_id=turn_id, key="k", value="v")
    connections[workspace.db_alias].close()
    monkeypatch.undo()
    assert Note.objects.for_workspace(workspace).count() == 0
    assert ChangeSet.objects.for_workspace(workspace).count() == 0
    assert services.memory_save(actor=actor, turn_id=turn_id, key="k", value="v").note.state == "active"
