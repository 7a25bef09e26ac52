"""Hand-written SQL for the few reads on every agent call (a turn's row, a search's notes).

Django's ORM spends most of a small query's time building and compiling it: 0.5-1.5 ms on
the benchmark machine, where the same SQL written out costs 0.2-0.3 ms (benchmarks/bench_core
.py). These helpers keep the speed without giving up what the ORM gives the rest of the code:

* ``fast_cursor``: on PostgreSQL a server-side-binding psycopg cursor on the connection Django
  holds (so inside the caller's transaction), whose statements are prepared and whose results
  can come back binary; on SQLite Django's own cursor. Driver errors are turned into Django's
  (``OperationalError``…) as on any query, so a region that is down is still a 503.
* ``select_rows``: ``SELECT`` of some columns of a model's table where columns equal values,
  each value prepared by its field for the connection (a UUID is hex text on SQLite) and each
  result converted back as the ORM would (``from_db_value`` and the backend's converters).
* ``select_one``: the same, as one model instance (``Model.from_db``), or None.

What is read stays the caller's choice of model, columns and conditions: a rule such as "which
notes may a turn read" is still stated once, where the caller builds its conditions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache

from django.db import connections


@contextmanager
def fast_cursor(connection) -> Iterator:
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            yield cursor
        return
    import psycopg

    with connection.wrap_database_errors:
        connection.ensure_connection()
        with psycopg.Cursor(connection.connection) as cursor:
            yield cursor


def execute(cursor, connection, sql: str, params: Sequence, *, binary: bool = False) -> None:
    """Run ``sql`` on a ``fast_cursor``: prepared and, if asked, with binary results on PostgreSQL."""
    if connection.vendor == "postgresql":
        cursor.execute(sql, params, prepare=True, binary=binary)
    else:
        cursor.execute(sql, params)


@lru_cache(maxsize=256)
def _statement(model, alias: str, columns: tuple[str, ...], where: tuple[str, ...]):
    connection = connections[alias]
    quote = connection.ops.quote_name
    fields = [model._meta.get_field(name) for name in columns]
    where_fields = [model._meta.get_field(name) for name in where]
    sql = (f"SELECT {', '.join(quote(f.column) for f in fields)} FROM {quote(model._meta.db_table)} WHERE "
           + " AND ".join(f"{quote(f.column)} = %s" for f in where_fields))
    converters = []
    for position, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        if found:
            converters.append((position, column, found))
    return sql, where_fields, converters


def select_rows(model, alias: str, columns: Sequence[str], **where) -> list[list]:
    """The ``columns`` (field names) of ``model``'s rows in database ``alias`` where each
    field named in ``where`` equals its value, converted as the ORM converts them."""
    sql, where_fields, converters = _statement(model, alias, tuple(columns), tuple(where))
    connection = connections[alias]
    params = [field.get_db_prep_value(value, connection) for field, value in zip(where_fields, where.values())]
    with fast_cursor(connection) as cursor:
        execute(cursor, connection, sql, params)
        rows = [list(row) for row in cursor.fetchall()]
    for row in rows:
        for position, column, found in converters:
            value = row[position]
            for converter in found:
                value = converter(value, column, connection)
            row[position] = value
    return rows


def select_one(model, alias: str, **where):
    """The one row of ``model`` where the fields named in ``where`` equal their values, as an
    instance read from ``alias`` (all concrete fields), or None."""
    names = tuple(field.attname for field in model._meta.concrete_fields)
    rows = select_rows(model, alias, names, **where)
    return model.from_db(alias, list(names), rows[0]) if rows else None
