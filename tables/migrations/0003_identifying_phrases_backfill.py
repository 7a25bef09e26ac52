"""Builds the index of identifying values (R-SAVE-3) for tables that had records before it
existed; without this, notes about those tables would pass unchecked until a record changed.

It runs the index's own builder (tables.identifying.index_table_rebuild), which writes through
today's models: on a database whose tables already hold records, apply the migrations up to
this one with the code of this release. A database with no tables (every new one) does nothing.
"""

from django.db import migrations


def build_indexes(apps, schema_editor):
    from tables.identifying import index_table_rebuild

    alias = schema_editor.connection.alias
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.using(alias).order_by("pk").iterator():
        index_table_rebuild(table=table, using=alias)


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0002_identifying_phrases"),
    ]

    operations = [
        migrations.RunPython(build_indexes, migrations.RunPython.noop, elidable=True),
    ]
