"""API tokens expire (``expires_at``, null: until revoked) and get an opaque ``public_id`` for URLs.

``public_id`` is added in three steps so that existing rows each get their own UUID: a column
default would give every existing row the same one and fail the unique constraint."""

import uuid

from django.db import migrations, models


def fill_public_ids(apps, schema_editor):
    ApiToken = apps.get_model("workspaces", "ApiToken")
    alias = schema_editor.connection.alias
    for token in ApiToken.objects.using(alias).filter(public_id__isnull=True).only("pk").iterator():
        ApiToken.objects.using(alias).filter(pk=token.pk).update(public_id=uuid.uuid4())


class Migration(migrations.Migration):

    dependencies = [
        ("workspaces", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="expires_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="apitoken",
            name="public_id",
            field=models.UUIDField(editable=False, null=True),
        ),
        migrations.RunPython(fill_public_ids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="apitoken",
            name="public_id",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
    ]
