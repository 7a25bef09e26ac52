"""Region database: tables, columns and records of a workspace, and the index of their identifying values."""

from __future__ import annotations

from django.db import models

from appenda.db.models import RegionModel


class Table(RegionModel):
    name = models.CharField(max_length=100)
    created_by_user_id = models.BigIntegerField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workspace_id", "name"], name="table_name_unique_in_workspace")]
        ordering = ["name"]


class Column(RegionModel):
    class Kind(models.TextChoices):
        TEXT = "text"
        NUMBER = "number"
        DATE = "date"
        PERSON = "person"
        EMAIL = "email"
        PHONE = "phone"
        ID = "id"
        URL = "url"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="columns")
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    position = models.PositiveIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "name"], name="column_name_unique_in_table")]
        ordering = ["position"]


class Record(RegionModel):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="records")
    values = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["table", "created_at"])]


class IdentifyingPhrase(RegionModel):
    """One keyed hash of an identifying value of a table, with how many records hold it (R-SAVE-3).

    Region database, next to the records it describes. Maintained by tables.identifying in the
    same transaction as every record change; read by memories.refusals to refuse a note that
    names a person or a single record of the table. It holds no plaintext: ``digest`` is a keyed
    BLAKE2b (settings.APPENDA["INDEX_KEY"]) of a normalised phrase of 1 to 4 words.

    ``count``: records whose whole cell in ``column_name`` is the phrase (a full name, an email,
    a phone number, an id, a short text value). ``part_count``: records whose person name holds
    the phrase as a part (a first name, a surname, "de la cruz"), so "Ms. Lopez" can be matched.
    A row goes when both reach zero.

    The unique constraint is (table, digest, column_name) rather than (table, column_name,
    digest): the same rows are unique, and with the digest second the constraint's index also
    serves the look-up "digest IN (…) for this table", so the table needs no second index.
    The id is a plain bigint, and the table's foreign key has no index of its own (the
    constraint's index starts with the table): on a table of a million records this index has
    millions of rows, and each extra index costs about as much as the rows themselves. One is
    paid for: (workspace_id, digest), because a note is checked against every table of its
    workspace, with or without a subject (issue 18), in one probe per phrase whatever the
    number of tables.
    """

    id = models.BigAutoField(primary_key=True)
    workspace_id = models.UUIDField()
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+", db_index=False)
    column_name = models.CharField(max_length=100)
    column_kind = models.CharField(max_length=10, choices=Column.Kind.choices)
    digest = models.BinaryField(max_length=16)
    count = models.IntegerField(default=0)
    part_count = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "digest", "column_name"], name="identifying_phrase_unique_in_column"
            )
        ]
        indexes = [models.Index(fields=["workspace_id", "digest"], name="identifying_ws_digest")]


class IdentifyingColumn(RegionModel):
    """How many values a text column holds and how many of them are distinct (R-SAVE-3).

    Region database. A text value identifies a record only when the column is mostly unique
    (a name of a company, a ticket title), never when it is a category ("Shipped"): the check
    reads these two numbers with the phrase rows it matched, in the same query. Kept for text
    columns only, updated with the phrase rows in the record change's transaction.
    """

    id = models.BigAutoField(primary_key=True)
    workspace_id = models.UUIDField()
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+", db_index=False)
    column_name = models.CharField(max_length=100)
    values_count = models.IntegerField(default=0)
    distinct_count = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "column_name"], name="identifying_column_unique_in_table")
        ]
