"""The embedded default (SQLite files) takes concurrent writers without "database is locked"
(R-OPS-1): four threads, each with its own connection configured as the settings configure a
region's file, run transactions that read and then write, the pattern that fails at once with
SQLite's default deferred transactions. WAL, the busy timeout and BEGIN IMMEDIATE make them
wait their turn instead: 0 errors and no lost update.
"""

from __future__ import annotations

import threading
import time

from django.db import connections, transaction

from appenda.db.local import local_database_forget, register_alias
from appenda.settings.regions import _sqlite

WRITERS = 4
TRANSACTIONS_EACH = 25


def test_R_OPS_1_four_concurrent_writers_on_the_embedded_sqlite_default_make_no_error(tmp_path, django_db_blocker):
    alias = "embedded_writers"
    # A file database of its own, outside the test databases pytest-django manages.
    with django_db_blocker.unblock():
        register_alias(alias, _sqlite(tmp_path / "region.sqlite3"))
        try:
            _write_concurrently(alias)
        finally:
            local_database_forget(alias)


def _write_concurrently(alias: str) -> None:
    with connections[alias].cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("CREATE TABLE counter (n INTEGER NOT NULL UNIQUE, writer INTEGER NOT NULL)")
    barrier = threading.Barrier(WRITERS)
    errors: list[Exception] = []

    def write(writer: int) -> None:
        try:
            barrier.wait()
            for _ in range(TRANSACTIONS_EACH):
                with transaction.atomic(using=alias), connections[alias].cursor() as cursor:
                    cursor.execute("SELECT COALESCE(MAX(n), 0) FROM counter")
                    (last,) = cursor.fetchone()
                    time.sleep(0.001)  # a save's own work between its read and its write
                    cursor.execute("INSERT INTO counter (n, writer) VALUES (%s, %s)", [last + 1, writer])
        except Exception as exc:  # noqa: BLE001 - the test reports every error a writer met
            errors.append(exc)
        finally:
            connections[alias].close()

    threads = [threading.Thread(target=write, args=(i,)) for i in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert errors == []
    with connections[alias].cursor() as cursor:
        cursor.execute("SELECT n, writer FROM counter ORDER BY n")
        rows = cursor.fetchall()
    assert [n for n, _ in rows] == list(range(1, WRITERS * TRANSACTIONS_EACH + 1))  # no lost update
    assert {writer for _, writer in rows} == set(range(WRITERS))
