"""Control database: who exists, which workspaces there are and where their data lives.

Every model here is a ControlModel. Region data (tables, notes, turns, audit) refers to these
rows by plain id columns only.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from guardian.models import GroupObjectPermissionBase, UserObjectPermissionBase

from appenda.db.models import ControlModel


class Instance(ControlModel):
    """The one deployment. Its admins write the required rules every workspace gets."""

    name = models.CharField(max_length=100, default="Appenda")
    admins = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="administered_instances", blank=True)

    @classmethod
    def current(cls) -> Instance:
        instance, _ = cls.objects.get_or_create(pk=1)
        return instance


class Workspace(ControlModel):
    class Kind(models.TextChoices):
        CLOUD = "cloud"
        LOCAL = "local"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=60, unique=True)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.CLOUD)
    region = models.CharField(max_length=16)
    memory_enabled = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        permissions = [("manage_agents", "Manage the workspace's agents and memory")]

    def __str__(self) -> str:
        return self.name

    @property
    def db_alias(self) -> str:
        """The database that holds this workspace's region data."""
        if self.kind == self.Kind.LOCAL:
            return f"local_{self.id.hex}"
        return settings.REGION_DB_ALIASES[self.region]


class WorkspaceUserObjectPermission(UserObjectPermissionBase):
    """Direct-FK guardian grants (e.g. manage_agents) on a workspace."""

    content_object = models.ForeignKey(Workspace, on_delete=models.CASCADE)


class WorkspaceGroupObjectPermission(GroupObjectPermissionBase):
    content_object = models.ForeignKey(Workspace, on_delete=models.CASCADE)


class Membership(ControlModel):
    class Role(models.TextChoices):
        VIEWER = "viewer"
        EDITOR = "editor"
        ADMIN = "admin"
        OWNER = "owner"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "workspace"], name="one_membership_per_user")]


class Bot(ControlModel):
    """A saved agent: owned by a person, in one workspace, acting through its own user and token."""

    class MemoryChoice(models.TextChoices):
        MINE_AND_OWN = "mine_and_own"
        OWN = "own"
        MINE = "mine"
        NONE = "none"

    class SaveRule(models.TextChoices):
        ALWAYS = "always"
        NEVER = "never"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="bots")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_bots")
    account = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot")
    name = models.CharField(max_length=100)
    # Null memory = "as before" (bots saved before the choice existed); null save_rule = use the owner's.
    memory = models.CharField(max_length=20, choices=MemoryChoice.choices, null=True, blank=True)
    memory_save = models.CharField(max_length=10, choices=SaveRule.choices, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True)


class ApiToken(ControlModel):
    """An API token of a person or a bot. Only a SHA-256 digest of the key is stored.

    ``public_id`` names a token in URLs (``/api/v1/me/tokens/{id}/``): the integer primary key
    counts up, so it would tell how many tokens the instance has and invite guessing."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12)
    name = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)  # null: until revoked
    revoked_at = models.DateTimeField(null=True, blank=True)


class InstanceRule(ControlModel):
    """A required rule: a note of the instance layer, recalled in every workspace's turns. A
    rule that may name a person waits (``held``) until an instance admin keeps it (R-SAVE-3b)."""

    class State(models.TextChoices):
        ACTIVE = "active"
        HELD = "held"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    key = models.CharField(max_length=100, unique=True)
    value = models.TextField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.ACTIVE)
    held_reason = models.CharField(max_length=40, blank=True, default="")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["key"]


class MemorySettings(ControlModel):
    """A person's own memory settings (R-MODE-1). No row = the defaults."""

    class SaveMode(models.TextChoices):
        AUTO = "auto"
        ASK = "ask"
        ALWAYS = "always"
        NEVER = "never"

    class MessagingSave(models.TextChoices):
        ASK = "ask"
        PAIRED_PRIVATE = "paired_private"
        NEVER = "never"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory_settings")
    enabled = models.BooleanField(default=True)
    save_mode = models.CharField(max_length=10, choices=SaveMode.choices, default=SaveMode.AUTO)
    messaging_save = models.CharField(max_length=20, choices=MessagingSave.choices, default=MessagingSave.ASK)
    updated_at = models.DateTimeField(auto_now=True)
