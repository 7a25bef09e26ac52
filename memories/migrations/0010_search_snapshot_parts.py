"""A workspace's kept search index in parts (issue 20, ``memories.search.snapshot``).

PostgreSQL holds at most 1 GB in one field. At about a million notes the snapshot alone is close
to that, and the graph beside it follows. So the snapshot and its graph are now kept as rows
``seq`` 0, 1, … of the same table, each part under ``snapshot.PART_LIMIT``. The trigger that
deletes a workspace's snapshot when notes are deleted deletes by ``workspace_id``, which takes
every part: it is unchanged.

The table is a cache that any worker can write again. So it is dropped and made anew rather
than altered: SQLite cannot change a primary key in place. The next search of a big workspace
keeps its index again.
"""

from django.db import migrations

POSTGRES = [
    "DROP TABLE IF EXISTS memories_search_snapshot",
    """CREATE TABLE memories_search_snapshot (
        workspace_id uuid NOT NULL,
        seq integer NOT NULL,
        version bigint NOT NULL,
        payload bytea NOT NULL,
        graph bytea,
        PRIMARY KEY (workspace_id, seq))""",
    # Vectors do not compress, so the values are stored as they are.
    "ALTER TABLE memories_search_snapshot ALTER COLUMN payload SET STORAGE EXTERNAL",
    "ALTER TABLE memories_search_snapshot ALTER COLUMN graph SET STORAGE EXTERNAL",
]
POSTGRES_BACK = [
    "DROP TABLE IF EXISTS memories_search_snapshot",
    """CREATE TABLE memories_search_snapshot (
        workspace_id uuid PRIMARY KEY,
        version bigint NOT NULL,
        payload bytea NOT NULL,
        graph bytea)""",
    "ALTER TABLE memories_search_snapshot ALTER COLUMN payload SET STORAGE EXTERNAL",
    "ALTER TABLE memories_search_snapshot ALTER COLUMN graph SET STORAGE EXTERNAL",
]
SQLITE = [
    "DROP TABLE IF EXISTS memories_search_snapshot",
    """CREATE TABLE memories_search_snapshot (
        workspace_id char(32) NOT NULL,
        seq integer NOT NULL,
        version integer NOT NULL,
        payload blob NOT NULL,
        graph blob,
        PRIMARY KEY (workspace_id, seq))""",
]
SQLITE_BACK = [
    "DROP TABLE IF EXISTS memories_search_snapshot",
    """CREATE TABLE memories_search_snapshot (
        workspace_id char(32) PRIMARY KEY,
        version integer NOT NULL,
        payload blob NOT NULL,
        graph blob)""",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        for statement in statements_by_vendor["postgresql" if vendor == "postgresql" else "sqlite"]:
            schema_editor.execute(statement)
    return run


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0009_search_snapshot_graph"),
    ]

    operations = [
        migrations.RunPython(_run({"postgresql": POSTGRES, "sqlite": SQLITE}),
                             _run({"postgresql": POSTGRES_BACK, "sqlite": SQLITE_BACK})),
    ]
