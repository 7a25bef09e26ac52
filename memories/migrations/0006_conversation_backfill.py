from django.db import migrations


def register_existing_conversations(apps, schema_editor):
    """Conversations whose notes were saved before registration existed get their owner from the
    oldest of those notes (the person and bot that saved it), so a later turn of someone else
    naming the same id cannot claim them (R-MSG-2)."""
    Note = apps.get_model("memories", "Note")
    Conversation = apps.get_model("memories", "Conversation")
    alias = schema_editor.connection.alias
    registered = set(Conversation.objects.using(alias).values_list("workspace_id", "ref"))
    notes = (Note.objects.using(alias).filter(layer="conversation", created_by_user_id__isnull=False)
             .order_by("created_at").values_list("workspace_id", "scope", "created_by_user_id", "created_by_bot_id"))
    for workspace_id, scope, user_id, bot_id in notes.iterator():
        ref = scope.removeprefix("conversation:")
        if (workspace_id, ref) in registered:
            continue
        registered.add((workspace_id, ref))
        Conversation.objects.using(alias).create(
            workspace_id=workspace_id, ref=ref, platform=ref.partition(":")[0][:40], owner_user_id=user_id,
            owner_bot_id=bot_id, chat_kind="group",
        )


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0005_conversation_and_wider_ids"),
    ]

    operations = [
        migrations.RunPython(register_existing_conversations, migrations.RunPython.noop),
    ]
