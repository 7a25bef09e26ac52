from django.db import migrations, models


class Migration(migrations.Migration):
    """Notes saved before this keep an empty list: search computes their terms from their text
    until they are saved again, or ``python manage.py embed_notes`` fills it in."""

    dependencies = [
        ("memories", "0003_note_search_text"),
    ]

    operations = [
        migrations.AddField(
            model_name="note",
            name="search_terms",
            field=models.TextField(blank=True, db_default="", default=""),
        ),
    ]
