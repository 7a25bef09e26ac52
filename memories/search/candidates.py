"""The notes a turn's memory_search ranks, read with hand-written SQL (``appenda.db.fast``).

memory_search is on an agent's every lookup, and the ORM spent more time building its two
note queries than the database spent answering them. This reads the same rows as
``live_notes(workspace).filter(turn_read_filter(turn, bot), state="active")``: the
workspace's active notes out of the trash whose scope is one of ``turn_read_scopes`` — the
one statement of what a turn reads, which both paths take. An active note has no expiry (only
held ones do). ``tests/memories/test_search_candidates.py`` checks the two read the same notes.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connections

from appenda.db.fast import execute, fast_cursor
from memories.models import Note
from memories.search import ranked
from memories.search.hybrid import NOTE_COLUMNS


def _field_column(name: str) -> str:
    return Note._meta.get_field(name).column


class TurnNotes:
    """A ``hybrid.NoteSource``: the active notes of ``scopes`` in a workspace, optionally of
    one layer or about one subject."""

    def __init__(self, workspace, scopes: Sequence[str], *, layer: str | None = None,
                 subject: tuple[str, str] | None = None):
        self.alias = workspace.db_alias
        self.scope = str(workspace.id)
        self._connection = connections[self.alias]
        prep = Note._meta.get_field("workspace_id").get_db_prep_value
        conditions = {"workspace_id": prep(workspace.id, self._connection), "state": Note.State.ACTIVE}
        if layer:
            conditions["layer"] = layer
        if subject:
            conditions["subject_kind"], conditions["subject_id"] = subject
        self._conditions = conditions
        self._scopes = list(scopes)
        self.workspace_id, self.layer, self.subject = workspace.id, layer, subject

    def ranked(self, query: str, limit: int, *, extras=(), query_vec=None, min_score: float | None = None
               ) -> ranked.Ranked:
        """These notes ranked for ``query`` by the workspace's index, not read row by row
        (``memories.search.ranked``): the same ranking as ``hybrid.rank`` over ``read()``."""
        return ranked.search(self.alias, self.workspace_id, self._scopes, query, limit, layer=self.layer,
                             subject=self.subject, extras=extras, query_vec=query_vec, min_score=min_score)

    def search(self, query: str, limit: int, *, extras=(), query_vec=None):
        """``hybrid.search``'s answer for these notes (``ranked``'s ranking)."""
        return self.ranked(query, limit, extras=extras, query_vec=query_vec).ranking

    def _where(self, ids: Sequence[str] | None) -> tuple[str, list]:
        quote, postgres = self._connection.ops.quote_name, self._connection.vendor == "postgresql"
        parts = [f"{quote(_field_column(name))} = %s" for name in self._conditions]
        params = list(self._conditions.values())
        parts.append(f"{quote(_field_column('trashed_at'))} IS NULL")
        for column, values, cast in (("scope", self._scopes, ""), ("id", ids, "::uuid[]")):
            if values is None:
                continue
            if postgres:  # one array parameter: one prepared statement, whatever the count
                parts.append(f"{quote(column)} = ANY(%s{cast})")
                params.append(list(values))
            else:
                parts.append(f"{quote(column)} IN ({', '.join(['%s'] * len(values))})")
                params += list(values)
        return " AND ".join(parts), params

    def _select(self, columns: Sequence[str], ids: Sequence[str] | None) -> list[tuple]:
        if ids is not None and not ids:
            return []
        quote = self._connection.ops.quote_name
        where, params = self._where(ids)
        selected = ", ".join([f"CAST({quote('id')} AS TEXT)", f"CAST({quote('updated_at')} AS TEXT)",
                              *(quote(_field_column(name)) for name in columns)])
        # In no order: hybrid sorts the rows (the server's sort of wide rows cost more than the scan).
        sql = f"SELECT {selected} FROM {quote(Note._meta.db_table)} WHERE {where}"
        with fast_cursor(self._connection) as cursor:
            # Binary results: a vector comes as its bytes, not as hex text to decode.
            execute(cursor, self._connection, sql, params, binary=True)
            return cursor.fetchall()

    def versions(self) -> list[tuple]:
        return self._select((), None)

    def read(self, ids: Sequence[str] | None = None) -> list[tuple]:
        return self._select(NOTE_COLUMNS, ids)
