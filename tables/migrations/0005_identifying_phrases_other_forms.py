"""Rebuilds the index of identifying values (R-SAVE-3) with the forms issue 18 added: ids run
together or with their letters apart, initials, Latin spellings of other scripts, Han and Hangul
letters one word each, email addresses without their +tag. Without it, records indexed before
would be matched only as they were written.

Like 0003, it runs the index's own builder (tables.identifying.index_table_rebuild) with the
code of this release; a database with no tables does nothing.
"""

from django.db import migrations


def rebuild_indexes(apps, schema_editor):
    from tables.identifying import index_table_rebuild

    alias = schema_editor.connection.alias
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.using(alias).order_by("pk").iterator():
        index_table_rebuild(table=table, using=alias)


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0004_identifying_phrase_in_workspace"),
    ]

    operations = [
        migrations.RunPython(rebuild_indexes, migrations.RunPython.noop, elidable=True),
    ]
