"""The API's declared shapes for tables and records (R-API-1).

Input contracts check the shape of a request: names within their columns' ``max_length``,
column kinds, the bulk list of records (at most ``MAX_RECORDS_PER_REQUEST``, each an object of
text, numbers or nulls that PostgreSQL can store). The services keep the domain rules: a name
blank once stripped, a column named twice, a record's columns those of the table, each value
what its column's kind takes (a date, an email, a finite number …). Output serializers state
what ``tables.api`` answers, for the document.
"""

from __future__ import annotations

import re

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from appenda.api.contract import Choice, Contract, Text
from tables.models import Column, Table
from tables.services import MAX_RECORDS_PER_REQUEST, MAX_VALUE_CHARS

COLUMN_KINDS = Column.Kind.values
TABLE_NAME_MAX = Table._meta.get_field("name").max_length
COLUMN_NAME_MAX = Column._meta.get_field("name").max_length
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")

# --- input ------------------------------------------------------------------------------------


@extend_schema_serializer(component_name="Column")
class ColumnIn(Contract):
    """A column: its name (unique in the table) and its kind."""

    name = Text(max_length=COLUMN_NAME_MAX)
    kind = Choice(COLUMN_KINDS, help_text="What its values are; person, email, phone and id columns identify "
                                          "people and records, so notes may not name their values.")


@extend_schema_serializer(component_name="Table")
class TableIn(Contract):
    """A new table with at least one column (names unique in the workspace and the table)."""

    # A column's errors are the table's "columns" field's (codes are per field of the request).
    error_codes = {"columns": {"invalid_choice": "invalid_column_kind", "max_length": "too_long",
                               "not_text": "invalid_text", "*": "invalid_columns"}}

    name = Text(max_length=TABLE_NAME_MAX)
    columns = ColumnIn(many=True, allow_empty=False, error_messages={
        "empty": 'A table needs at least one column: [{"name": …, "kind": …}].'})


_CELL_SCHEMA = {"oneOf": [{"type": "string", "maxLength": MAX_VALUE_CHARS}, {"type": "number"}], "nullable": True,
                "description": "Text, a number or null, as the column's kind takes it (a number column also "
                               "takes digits as text)."}


@extend_schema_field({
    "type": "array", "minItems": 1, "maxItems": MAX_RECORDS_PER_REQUEST,
    "items": {"type": "object", "additionalProperties": _CELL_SCHEMA,
              "description": "A record: its values by column name; a column left out is empty."},
})
class RecordRows(serializers.Field):
    """The bulk records: a list of 1 to ``MAX_RECORDS_PER_REQUEST`` objects of column values,
    each value text (without NUL bytes, at most ``MAX_VALUE_CHARS``), a number or null.

    Refused before anything is stored, with the record's number as the services say it."""

    default_error_messages = {
        "not_a_list": 'must be a list of records: [{{"<column>": value, …}}, …].',  # fail() formats it
        "empty": "must hold at least one record.",
        "too_many": f"At most {MAX_RECORDS_PER_REQUEST:,} records per request; got {{count:,}}. Send them in "
                    "batches.",
        "not_an_object": "Record {number} is not an object of column values.",
        "unknown_column": "Record {number} names a column no table has.",
        "invalid_text": "Record {number}, column {column!r} contains a NUL byte or an unpaired surrogate; send "
                        "plain text.",
        "too_long_value": f"Record {{number}}, column {{column!r}} takes at most {MAX_VALUE_CHARS:,} characters; "
                          "got {length:,}.",
        "not_a_value": "Record {number}, column {column!r} takes text, a number or null; got {kind}.",
    }

    def to_internal_value(self, data):
        if not isinstance(data, list):
            self.fail("not_a_list")
        if not data:
            self.fail("empty")
        if len(data) > MAX_RECORDS_PER_REQUEST:
            self.fail("too_many", count=len(data))
        for number, row in enumerate(data, start=1):
            if not isinstance(row, dict):
                self.fail("not_an_object", number=number)
            for column, value in row.items():
                if len(column) > COLUMN_NAME_MAX or _UNSTORABLE.search(column):
                    self.fail("unknown_column", number=number)
                if value is None or isinstance(value, (int, float)) and not isinstance(value, bool):
                    continue
                if not isinstance(value, str):
                    self.fail("not_a_value", number=number, column=column, kind=type(value).__name__)
                if _UNSTORABLE.search(value):
                    self.fail("invalid_text", number=number, column=column)
                if len(value) > MAX_VALUE_CHARS:
                    self.fail("too_long_value", number=number, column=column, length=len(value))
        return data

    def to_representation(self, value):
        return value


class RecordsIn(Contract):
    """Records to add, all or none: each checked against its columns' kinds."""

    error_codes = {"records": {"too_many": "too_many_records", "unknown_column": "unknown_column",
                               "too_long_value": "invalid_value", "not_a_value": "invalid_value",
                               "*": "invalid_records"}}

    records = RecordRows()


# --- output -----------------------------------------------------------------------------------


@extend_schema_serializer(component_name="Column")
class ColumnOut(serializers.Serializer):
    name = serializers.CharField()
    kind = serializers.ChoiceField(COLUMN_KINDS)


@extend_schema_serializer(component_name="Table")
class TableOut(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    columns = ColumnOut(many=True)
    created_at = serializers.DateTimeField()


class RecordOut(serializers.Serializer):
    id = serializers.UUIDField()
    values = serializers.DictField(help_text="The record's values by column name.")
    created_at = serializers.DateTimeField()


class RecordsCreatedOut(serializers.Serializer):
    created = serializers.IntegerField()
    ids = serializers.ListField(child=serializers.UUIDField())
