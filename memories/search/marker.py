"""A workspace's search change marker: what a search reads instead of revalidating every note.

The region database keeps one version per workspace, moved by triggers (migration
``memories.0008_search_change_marker``) in the same transaction as any insert, update or delete
of one of its notes, and which notes each version changed. On PostgreSQL the version row is
updated in the writing transaction, so it is locked until that transaction ends: versions are
committed in order, and a reader that sees version V sees every change of every version up to V.

* ``version`` — one indexed row: a search whose worker holds the workspace at this version
  reads nothing else.
* ``changed_since`` — the ids of the notes changed after a version (and whether that history
  is still complete), to update a worker's index in place.
* ``prune`` — forgets the history older than the newest ``keep`` versions of each workspace; a
  worker holding an older version reads the whole workspace again.
"""

from __future__ import annotations

from django.db import connections

from appenda.db.fast import execute, fast_cursor
from memories.models import Note


def workspace_param(alias: str, workspace_id):
    """The workspace id as the database stores it (hex text on SQLite)."""
    return Note._meta.get_field("workspace_id").get_db_prep_value(workspace_id, connections[alias])


def version(alias: str, workspace_id) -> tuple[int, int]:
    """(version, pruned_below) of the workspace; (0, 0) when no note of it was ever written since
    the marker exists."""
    connection = connections[alias]
    with fast_cursor(connection) as cursor:
        execute(cursor, connection,
                "SELECT version, pruned_below FROM memories_search_version WHERE workspace_id = %s",
                [workspace_param(alias, workspace_id)])
        row = cursor.fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)


def changed_since(alias: str, workspace_id, since: int) -> list[str]:
    """Ids (as text) of the notes of the workspace changed by a version after ``since``."""
    connection = connections[alias]
    cast = "CAST(note_id AS TEXT)" if connection.vendor == "postgresql" else "note_id"
    with fast_cursor(connection) as cursor:
        execute(cursor, connection,
                f"SELECT DISTINCT {cast} FROM memories_search_change WHERE workspace_id = %s AND version > %s",
                [workspace_param(alias, workspace_id), since])
        return [row[0] for row in cursor.fetchall()]


def prune(alias: str, keep: int = 10000) -> int:
    """Drops the change history older than the newest ``keep`` versions of each workspace;
    returns how many rows went."""
    from django.db import transaction

    connection = connections[alias]
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        cursor.execute("SELECT workspace_id, version FROM memories_search_version WHERE version > %s", [keep])
        removed = 0
        for workspace_id, current in cursor.fetchall():
            floor = current - keep
            cursor.execute("DELETE FROM memories_search_change WHERE workspace_id = %s AND version <= %s",
                           [workspace_id, floor])
            removed += cursor.rowcount
            cursor.execute("UPDATE memories_search_version SET pruned_below = %s WHERE workspace_id = %s "
                           "AND pruned_below < %s", [floor, workspace_id, floor])
    return removed
