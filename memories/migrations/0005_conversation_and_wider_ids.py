import uuid

from django.db import migrations, models


class Migration(migrations.Migration):
    """Conversations registered by their first turn (R-MSG-2); subject ids of integrations,
    workflows and skills up to 128 characters (R-SAVE-8); scopes wide enough for any
    conversation id the turn accepts."""

    dependencies = [
        ('memories', '0004_note_search_terms'),
    ]

    operations = [
        migrations.AlterField(
            model_name='changeset',
            name='scope',
            field=models.CharField(max_length=300, null=True),
        ),
        migrations.AlterField(
            model_name='note',
            name='conversation_id',
            field=models.CharField(max_length=255, null=True),
        ),
        migrations.AlterField(
            model_name='note',
            name='scope',
            field=models.CharField(max_length=300),
        ),
        migrations.AlterField(
            model_name='note',
            name='subject_id',
            field=models.CharField(max_length=128, null=True),
        ),
        migrations.CreateModel(
            name='Conversation',
            fields=[
                ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                ('workspace_id', models.UUIDField(db_index=True)),
                ('ref', models.CharField(max_length=255)),
                ('platform', models.CharField(max_length=40)),
                ('owner_user_id', models.BigIntegerField()),
                ('owner_bot_id', models.UUIDField(null=True)),
                ('chat_kind', models.CharField(max_length=12)),
                ('registered_sender_id', models.CharField(max_length=150, null=True)),
                ('sender_paired', models.BooleanField(default=False)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('workspace_id', 'ref'), name='conversation_once')],
            },
        ),
    ]
