"""Writes to tables and records. Every record change updates the table's index of identifying
values in the same transaction (memories.refusals uses it to refuse notes that name a record);
records added also hold the notes saved before them that name them (memories.recheck)."""

from __future__ import annotations

import csv
import io
import logging
import math
import re
from collections.abc import Iterable
from datetime import date

from django.db import IntegrityError, transaction

from appenda.errors import DomainError, Forbidden, NotFound
from appenda.ids import parse_uuid
from memories.recheck import notes_recheck_after_records
from ops.progress import LogLines, Progress
from tables import identifying
from tables.models import Column, Record, Table
from workspaces.capabilities import Actor

log = logging.getLogger("appenda.tables")

MAX_RECORDS_PER_REQUEST = 10_000
MAX_VALUE_CHARS = 10_000  # a text value of a record (the API's contract refuses longer ones first)
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_PHONE = re.compile(r"^\+?[0-9 ().-]{5,30}$")
_URL = re.compile(r"^https?://\S+$")
# Text PostgreSQL cannot store (a NUL byte; an unpaired surrogate is not UTF-8): a 500 there.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _storable_name(model, value: str, what: str) -> str:
    """A name that fits its column, or a 400 (PostgreSQL refuses a longer one as a 500)."""
    if _UNSTORABLE.search(value):
        raise DomainError(f"{what} contains a NUL byte or an unpaired surrogate; send plain text.",
                          code="invalid_text")
    max_length = model._meta.get_field("name").max_length
    if len(value) > max_length:
        raise DomainError(f"{what} is at most {max_length} characters; got {len(value):,}.", code="too_long")
    return value


def _check_value(column: Column, value, where: str):
    """The value as stored, or a DomainError that says which cell is wrong and why."""
    if value is None or value == "":
        return None
    kind = column.kind

    def wrong(expected: str):
        return DomainError(
            f"{where}, column {column.name!r} ({kind}) needs {expected}; got {str(value)[:40]!r}.",
            code="invalid_value",
            column=column.name,
        )

    if kind == "number":
        if isinstance(value, bool):
            raise wrong("a number")
        if isinstance(value, int):
            return value
        try:
            number = value if isinstance(value, float) else float(str(value).strip())
        except ValueError:
            raise wrong("a number") from None
        if not math.isfinite(number):  # NaN and infinities are not JSON: PostgreSQL refuses them
            raise wrong("a finite number")
        return int(number) if number.is_integer() and "." not in str(value) else number
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise wrong("text")
    text = str(value).strip()
    if _UNSTORABLE.search(text):
        raise DomainError(
            f"{where}, column {column.name!r} contains a NUL byte or an unpaired surrogate; send plain text.",
            code="invalid_text", column=column.name,
        )
    if kind == "date":
        try:
            return date.fromisoformat(text).isoformat()
        except ValueError:
            raise wrong("a date like 2024-05-31") from None
    if kind == "email" and not _EMAIL.match(text):
        raise wrong("an email address")
    if kind == "phone" and not _PHONE.match(text):
        raise wrong("a phone number")
    if kind == "url" and not _URL.match(text):
        raise wrong("an http(s) address")
    if len(text) > MAX_VALUE_CHARS:
        raise wrong(f"at most {MAX_VALUE_CHARS:,} characters")
    return text


def table_create(*, actor: Actor, name: str, columns: list[dict]) -> Table:
    if not actor.can("tables:write"):
        raise Forbidden("Your role does not allow creating tables; editors and above can.")
    name = (name if isinstance(name, str) else "").strip()
    if not name:
        raise DomainError("Give the table a name.", code="invalid_name")
    _storable_name(Table, name, "A table's name")
    if not isinstance(columns, list) or not columns:
        raise DomainError("A table needs at least one column: [{\"name\": ..., \"kind\": ...}].", code="invalid_columns")
    seen = set()
    for column in columns:
        if not isinstance(column, dict) or not isinstance(column.get("name"), str) or not column["name"].strip():
            raise DomainError("Each column needs a name and a kind.", code="invalid_columns")
        _storable_name(Column, column["name"].strip(), f"Column name {column['name'][:40]!r}")
        if column.get("kind") not in Column.Kind.values:
            raise DomainError(
                f"Column {column.get('name')!r} has unknown kind {column.get('kind')!r}; "
                f"use one of {', '.join(Column.Kind.values)}.",
                code="invalid_column_kind",
            )
        if column["name"].strip() in seen:
            raise DomainError(f"Column {column['name']!r} appears twice.", code="invalid_columns")
        seen.add(column["name"].strip())
    alias = actor.workspace.db_alias
    try:
        with transaction.atomic(using=alias):
            table = Table(workspace_id=actor.workspace.id, name=name, created_by_user_id=actor.person_id)
            table.save(using=alias)
            Column.objects.using(alias).bulk_create(
                Column(workspace_id=actor.workspace.id, table=table, name=c["name"].strip(), kind=c["kind"], position=i)
                for i, c in enumerate(columns)
            )
    except IntegrityError:
        raise DomainError(f"A table named {name!r} exists already in this workspace.", code="table_exists") from None
    return table


def table_visible(*, actor: Actor, table_id) -> Table:
    if not actor.can("tables:read"):
        raise NotFound("No such table in this workspace.")
    table_uuid = parse_uuid(table_id)
    table = Table.objects.for_workspace(actor.workspace).filter(id=table_uuid).first() if table_uuid else None
    if table is None:
        raise NotFound("No such table in this workspace.")
    return table


def record_visible(*, actor: Actor, table: Table, record_id) -> Record:
    record_uuid = parse_uuid(record_id)
    record = Record.objects.for_workspace(actor.workspace).filter(table=table, id=record_uuid).first() \
        if record_uuid and table is not None else None
    if record is None:
        raise NotFound("No such record in this table.")
    return record


def records_add(*, actor: Actor, table: Table, rows: list[dict]) -> list[Record]:
    if not actor.can("tables:write"):
        raise Forbidden("Your role does not allow adding records; editors and above can.")
    if not isinstance(rows, list) or not rows:
        raise DomainError('Send {"records": [{"<column>": value, ...}, ...]} with at least one record.', code="invalid_records")
    if len(rows) > MAX_RECORDS_PER_REQUEST:
        raise DomainError(
            f"At most {MAX_RECORDS_PER_REQUEST:,} records per request; got {len(rows):,}. Send them in batches.",
            code="too_many_records",
        )
    alias = actor.workspace.db_alias
    columns = {c.name: c for c in table.columns.all()}
    records = []
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise DomainError(f"Record {number} is not an object of column values.", code="invalid_records")
        unknown = set(row) - set(columns)
        if unknown:
            raise DomainError(
                f"Record {number} has unknown column(s) {', '.join(sorted(unknown))}; the table has "
                f"{', '.join(columns)}.",
                code="unknown_column",
            )
        values = {name: _check_value(columns[name], value, f"Record {number}") for name, value in row.items()}
        records.append(Record(workspace_id=table.workspace_id, table=table, values=values))
    with transaction.atomic(using=alias):
        Record.objects.using(alias).bulk_create(records, batch_size=1000)
        identifying.index_records_added(table=table, columns=list(columns.values()), records=records, using=alias)
        # Notes saved before these records existed and that name them stop being recalled now,
        # in the same transaction as the index that sees them (issue 18).
        notes_recheck_after_records(workspace=actor.workspace, table=table, columns=list(columns.values()),
                                    records=records, actor_user_id=actor.person_id)
    return records


def records_import_csv(*, actor: Actor, table: Table, text: str | Iterable[str]) -> list[Record]:
    """Imports a CSV whose first line names columns: all its rows, or none.

    ``text`` is the whole CSV or its lines as they arrive (``tables.upload.CSVLines``): rows
    are parsed one by one, and the row after the limit stops the import without reading on.
    """
    lines = io.StringIO(text.lstrip("\ufeff")) if isinstance(text, str) else text
    try:
        return _records_import_csv(actor=actor, table=table, reader=csv.reader(lines))
    except csv.Error as error:  # a field past the csv module's limit, a stray quote …
        raise DomainError(f"The CSV cannot be read: {error}.", code="invalid_csv") from None


def _records_import_csv(*, actor: Actor, table: Table, reader) -> list[Record]:
    try:
        header = next(reader)
    except StopIteration:
        raise DomainError("The CSV is empty; its first line must name the columns.", code="invalid_csv") from None
    header = [name.strip() for name in header]
    known = {c.name for c in table.columns.all()}
    if not header or any(name not in known for name in header) or len(set(header)) != len(header):
        raise DomainError(
            f"The CSV header ({', '.join(header)}) must name columns of the table ({', '.join(sorted(known))}), "
            "each once.",
            code="invalid_csv_header",
        )
    rows = []
    progress = Progress(LogLines(log), f"CSV import into table {table.id}", unit="row", tty=False)
    for cells in reader:
        progress.advance()  # a line in the log every few seconds: counts and rate
        line_number = reader.line_num
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) != len(header):
            raise DomainError(
                f"CSV line {line_number} has {len(cells)} cells; the header has {len(header)}.", code="invalid_csv"
            )
        for name, cell in zip(header, cells):
            if _UNSTORABLE.search(cell):
                raise DomainError(f"CSV line {line_number}, column {name!r} contains a NUL byte; send plain text.",
                                  code="invalid_text", line=line_number, column=name)
        if len(rows) == MAX_RECORDS_PER_REQUEST:
            raise DomainError(
                f"At most {MAX_RECORDS_PER_REQUEST:,} records per import; the CSV has more. Import it in parts.",
                code="too_many_records",
            )
        rows.append(dict(zip(header, cells)))
    records = records_add(actor=actor, table=table, rows=rows)
    log.info("%s; %d record(s) added", progress.finish(), len(records))
    return records


def record_delete(*, actor: Actor, table: Table, record_id) -> None:
    if not actor.can("tables:write"):
        raise Forbidden("Your role does not allow deleting records; editors and above can.")
    alias = actor.workspace.db_alias
    with transaction.atomic(using=alias):
        record_uuid = parse_uuid(record_id)
        record = (
            Record.objects.for_workspace(actor.workspace).filter(table=table, id=record_uuid).first()
            if record_uuid
            else None
        )
        if record is None:
            raise NotFound("No such record in this table.")
        columns = list(table.columns.all())
        identifying.index_records_removed(table=table, columns=columns, records=[record], using=alias)
        record.delete()
