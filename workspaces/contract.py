"""The API's declared shapes for workspaces, members, bots and memory settings (R-API-1).

Input contracts check the shape of a request (types, lengths from the models' columns, enums,
unknown fields); the services keep the domain rules (a name that is blank once stripped, a
region this instance has, who may make owners, the last owner, a bot's rule only stricter than
its owner's). Output serializers state what ``workspaces.api`` answers, for the document.

Where a request and a response describe the same object they share a component name
(``Bot`` answers, ``BotRequest`` and ``PatchedBotRequest`` requests), so that each set of
choices is one enum of the document.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from appenda.api.contract import Bool, Choice, Contract, Text
from memories.bots import BOT_DELETE_CHOICES
from workspaces.models import Bot, Membership, MemorySettings, Workspace
from workspaces.services import BOT_SAVE_RULES

User = get_user_model()

ROLES = Membership.Role.values
# With the model's labels: the bot's choice set differs from the bot file's (plain values), so
# each is the enum of one component (memories.contract_agents.BotFileIn).
BOT_MEMORY_CHOICES = Bot.MemoryChoice.choices
SAVE_RULES_TOO_LOOSE = ("auto", "ask")  # a person's modes, which a bot's rule cannot be


def max_length(model, field: str) -> int:
    return model._meta.get_field(field).max_length


class _RefusedWhenNull:
    """A field for which ``null`` is a wrong value, not a missing one: refused with the field's
    own code (``error_codes``) rather than ``missing_field``."""

    default_error_messages = {"null_value": "cannot be null; leave it out to keep what is set."}

    def validate_empty_values(self, data):
        if data is None and not self.allow_null:
            self.fail("null_value")
        return super().validate_empty_values(data)


class SettingChoice(_RefusedWhenNull, Choice):
    pass


class SettingBool(_RefusedWhenNull, Bool):
    pass


class SaveRule(Choice):
    """A bot's save rule: ``auto`` and ``ask`` are a person's modes, refused with their own code."""

    default_error_messages = {"too_loose": "can only be stricter than its owner's: use always, never or use_mine."}

    def __init__(self, **kwargs):
        super().__init__(BOT_SAVE_RULES, **kwargs)

    def to_internal_value(self, data):
        if data in SAVE_RULES_TOO_LOOSE:
            self.fail("too_loose")
        return super().to_internal_value(data)


BOT_FIELD_CODES = {"memory": "invalid_memory_choice",
                   "memory_save": {"too_loose": "save_rule_too_loose", "*": "invalid_save_rule"}}
BOT_NAME_HELP = "Shown to people; at most {} characters.".format(max_length(Bot, "name"))
BOT_MEMORY_HELP = ("Which notes the bot reads and saves: mine_and_own (the default), own, mine or none; null "
                   "for as before (every layer its owner may read).")
BOT_SAVE_HELP = ("How its saves are decided: use_mine (its owner's save mode), always (wait for a person) or "
                 "never. Only ever stricter than its owner's mode, so auto and ask are refused.")

# --- input ------------------------------------------------------------------------------------


@extend_schema_serializer(component_name="Workspace")
class WorkspaceIn(Contract):
    """A new workspace; the caller becomes its owner. Its region holds its tables and notes."""

    error_codes = {"kind": "invalid_kind", "region": "unknown_region"}
    error_sentences = {"region": f"Unknown region; this instance has {', '.join(settings.REGIONS)}."}

    name = Text(max_length=max_length(Workspace, "name"))
    kind = Choice(Workspace.Kind.values, required=False, default=Workspace.Kind.CLOUD,
                  help_text="cloud, or local: its region data in one encrypted file.")
    region = Choice(settings.REGIONS, required=False, allow_null=True,
                    help_text="Where its tables and notes live (the first region when left out).")
    slug = Text(required=False, allow_null=True, allow_blank=True, max_length=max_length(Workspace, "slug"),
                help_text="The address in URLs; made from the name when left out.")


class WorkspaceMemorySettingsIn(Contract):
    """Turn memory on or off for the whole workspace."""

    error_codes = {"enabled": "invalid_enabled"}
    error_sentences = {"enabled": "enabled is true or false."}

    enabled = SettingBool(help_text="Memory on or off for the whole workspace.")


class WorkspaceMemorySettingsPatchIn(WorkspaceMemorySettingsIn):
    """The same, with enabled left out changing nothing."""

    enabled = SettingBool(required=False, help_text="Memory on or off for the whole workspace.")


@extend_schema_serializer(component_name="Member")
class MemberAddIn(Contract):
    """Add a person who has an account here, with a role."""

    error_codes = {"role": "invalid_role"}

    email = Text(max_length=max_length(User, "username"), help_text="A person with an account on this instance.")
    role = Choice(ROLES)


@extend_schema_serializer(component_name="Member")
class MemberPatchIn(Contract):
    """Change a member's role (a workspace keeps at least one owner)."""

    error_codes = {"role": "invalid_role"}

    role = Choice(ROLES, required=False)


@extend_schema_serializer(component_name="Bot")
class BotIn(Contract):
    """A new bot (POST), or all of a bot (PUT: a choice left out stays as it is)."""

    error_codes = BOT_FIELD_CODES

    name = Text(max_length=max_length(Bot, "name"), help_text=BOT_NAME_HELP)
    memory = Choice(BOT_MEMORY_CHOICES, required=False, allow_null=True, help_text=BOT_MEMORY_HELP)
    memory_save = SaveRule(required=False, allow_null=True, help_text=BOT_SAVE_HELP)


@extend_schema_serializer(component_name="Bot")
class BotPatchIn(Contract):
    """Change some of a bot: a field left out stays as it is."""

    error_codes = BOT_FIELD_CODES

    name = Text(required=False, max_length=max_length(Bot, "name"), help_text=BOT_NAME_HELP)
    memory = Choice(BOT_MEMORY_CHOICES, required=False, allow_null=True, help_text=BOT_MEMORY_HELP)
    memory_save = SaveRule(required=False, allow_null=True, help_text=BOT_SAVE_HELP)


class BotDeleteQuery(Contract):
    """What happens to a deleted bot's notes."""

    error_codes = {"memory": "invalid_memory_choice"}
    error_sentences = {"memory": "memory is keep, export or delete."}

    memory = Choice(BOT_DELETE_CHOICES, required=False, default="keep",
                    help_text="What happens to the bot's notes: keep them (listed under deleted bots), export "
                              "them (the answer is their zip) then delete, or delete them (to the trash).")


@extend_schema_serializer(component_name="MemorySettings")
class MySettingsIn(Contract):
    """A person's memory settings (R-MODE-1): a field left out stays as it is."""

    unknown_field_code = "unknown_setting"
    error_codes = {"enabled": "invalid_enabled", "save_mode": "invalid_save_mode",
                   "messaging_save": "invalid_messaging_save"}
    error_sentences = {
        "enabled": "enabled is true or false.",
        "save_mode": f"save_mode is one of {', '.join(MemorySettings.SaveMode.values)}.",
        "messaging_save": f"messaging_save is one of {', '.join(MemorySettings.MessagingSave.values)}.",
    }

    enabled = SettingBool(required=False, help_text="Memory on or off for all of this person's agents.")
    save_mode = SettingChoice(MemorySettings.SaveMode.values, required=False,
                              help_text="What happens when an agent saves in this person's chats.")
    messaging_save = SettingChoice(MemorySettings.MessagingSave.values, required=False,
                                   help_text="What happens to a save in a chat from a messaging app.")


# --- output -----------------------------------------------------------------------------------


@extend_schema_serializer(component_name="Workspace")
class WorkspaceOut(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    slug = serializers.CharField()
    kind = serializers.ChoiceField(Workspace.Kind.values)
    region = serializers.CharField()
    memory_enabled = serializers.BooleanField()
    role = serializers.ChoiceField(ROLES, allow_null=True, help_text="The caller's role; null for a bot.")
    created_at = serializers.DateTimeField()


class WorkspaceMemorySettingsOut(serializers.Serializer):
    enabled = serializers.BooleanField()
    can_change = serializers.BooleanField(help_text="Whether the caller may turn it on or off.")


@extend_schema_serializer(component_name="Member")
class MemberOut(serializers.Serializer):
    user = serializers.IntegerField(help_text="The person's id, as in members/{user}/.")
    id = serializers.IntegerField(help_text="The same as user.")
    email = serializers.CharField()
    role = serializers.ChoiceField(ROLES)
    joined_at = serializers.DateTimeField()


@extend_schema_serializer(component_name="Bot")
class BotOut(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    owner = serializers.IntegerField()
    workspace = serializers.UUIDField()
    memory = serializers.ChoiceField(BOT_MEMORY_CHOICES, allow_null=True, help_text=BOT_MEMORY_HELP)
    memory_save = serializers.ChoiceField(BOT_SAVE_RULES)
    deleted = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    token = serializers.CharField(required=False, help_text="Only in the answer that creates the bot: its API "
                                                             "token, shown this once.")


@extend_schema_serializer(component_name="MemorySettings")
class MySettingsOut(serializers.Serializer):
    enabled = serializers.BooleanField()
    save_mode = serializers.ChoiceField(MemorySettings.SaveMode.values)
    messaging_save = serializers.ChoiceField(MemorySettings.MessagingSave.values)

