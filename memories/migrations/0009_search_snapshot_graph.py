"""The ANN graph of a big workspace (issue 20, ``memories.search.ann``), kept beside its snapshot.

A column of the snapshot row rather than a table: the graph numbers the snapshot's rows, so it
is only valid with that snapshot; writing a new snapshot clears it, and the trigger that deletes
the snapshot row when notes are deleted deletes the graph with it (it holds 8-bit vectors).
"""

from django.db import migrations


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE memories_search_snapshot ADD COLUMN graph bytea")
        schema_editor.execute("ALTER TABLE memories_search_snapshot ALTER COLUMN graph SET STORAGE EXTERNAL")
    else:
        schema_editor.execute("ALTER TABLE memories_search_snapshot ADD COLUMN graph blob")


def uninstall(apps, schema_editor):
    schema_editor.execute("ALTER TABLE memories_search_snapshot DROP COLUMN graph")


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0008_search_change_marker"),
    ]

    operations = [
        migrations.RunPython(install, uninstall),
    ]
