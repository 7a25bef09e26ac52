"""Writes to control data: people, workspaces, memberships, bots, the workspace memory switch.

Each function is one action: it validates, writes in one transaction and raises a DomainError
with a code and a sentence when the request cannot be done. Nothing is half-written.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from guardian.shortcuts import assign_perm, remove_perm

from appenda.errors import Conflict, DomainError, Forbidden, NotFound
from appenda.ids import parse_uuid
from workspaces.capabilities import ROLE_ORDER, Actor
from workspaces.models import ApiToken, Bot, Instance, Membership, MemorySettings, Workspace
from workspaces.tokens import token_create

User = get_user_model()
# A person's id in a URL: ASCII digits only (str.isdigit takes "¹¹", which int() refuses), and
# few enough to fit the id column's 64 bits.
_USER_ID = re.compile(r"[0-9]{1,18}")
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _storable(model, column: str, value: str, what: str, *, field: str = "name") -> str:
    """The value, or a 400 when ``model.column`` cannot hold it: PostgreSQL refuses a NUL byte
    and text longer than the column (as a 500), where SQLite would store it whole."""
    if _UNSTORABLE.search(value):
        raise DomainError(f"{what} contains a NUL byte or an unpaired surrogate; send plain text.",
                          code="invalid_text", field=field)
    max_length = model._meta.get_field(column).max_length
    if len(value) > max_length:
        raise DomainError(f"{what} is at most {max_length} characters; got {len(value):,}.", code="too_long",
                          field=field)
    return value


def user_create_or_update(*, email: str, password: str | None = None, instance_admin: bool = False):
    email = email.strip().lower()
    if "@" not in email:
        raise DomainError(f"{email!r} is not an email address.", code="invalid_email")
    _storable(User, "username", email, "An email address", field="email")
    with transaction.atomic():
        user, _ = User.objects.get_or_create(username=email, defaults={"email": email})
        if password:
            user.set_password(password)
        elif not user.has_usable_password():
            user.set_unusable_password()
        user.email = email
        user.save()
        if instance_admin:
            Instance.current().admins.add(user)
    return user


def _check_role(role: str) -> str:
    if role not in ROLE_ORDER:
        raise DomainError(f"Unknown role {role!r}; use one of {', '.join(ROLE_ORDER)}.", code="invalid_role")
    return role


def workspace_create(*, name: str, owner, kind: str = "cloud", region: str | None = None, slug: str | None = None):
    name = (name or "").strip()
    if not name:
        raise DomainError("Give the workspace a name.", code="invalid_name")
    _storable(Workspace, "name", name, "A workspace's name")
    if kind not in Workspace.Kind.values:
        raise DomainError(f"Unknown kind {kind!r}; use cloud or local.", code="invalid_kind")
    region = region or settings.REGIONS[0]
    if region not in settings.REGIONS:
        raise DomainError(
            f"Unknown region {region!r}; this instance has {', '.join(settings.REGIONS)}.", code="unknown_region"
        )
    slug = slugify(slug or name)[:60]
    if not slug:
        raise DomainError("The name needs at least one letter or digit to make an address.", code="invalid_name")
    try:
        with transaction.atomic():
            workspace = Workspace.objects.create(name=name, slug=slug, kind=kind, region=region)
            Membership.objects.create(user=owner, workspace=workspace, role=Membership.Role.OWNER)
            if kind == Workspace.Kind.LOCAL:
                # Its region data lives in one encrypted file (R-REGION-4), made here: a failure
                # rolls the workspace back.
                from appenda.db.local import local_database_create

                local_database_create(workspace)
    except IntegrityError:
        raise DomainError(
            f"A workspace with the address {slug!r} exists already; choose another name or slug.", code="slug_taken"
        ) from None
    return workspace


def workspace_memory_switch(*, actor: Actor, enabled: bool) -> Workspace:
    if not actor.can("agents:manage"):
        raise Forbidden("Only people who manage this workspace's agents can turn memory on or off.")
    Workspace.objects.filter(pk=actor.workspace.pk).update(memory_enabled=enabled)
    actor.workspace.memory_enabled = enabled
    return actor.workspace


def membership_add(*, actor: Actor, email: str, role: str) -> Membership:
    _check_role(role)
    if not actor.can("members:manage"):
        raise Forbidden("Only workspace admins can add members.")
    if role == "owner" and not actor.can("members:manage_owners"):
        raise Forbidden("Only an owner can make someone an owner.")
    email = _storable(User, "username", (email or "").strip().lower(), "An email address", field="email")
    user = User.objects.filter(username=email, is_active=True).first()
    if user is None or hasattr(user, "bot"):
        raise DomainError(f"No person has the email {email!r}; they need an account first.", code="user_not_found")
    try:
        with transaction.atomic():
            return Membership.objects.create(user=user, workspace=actor.workspace, role=role)
    except IntegrityError:
        raise Conflict(f"{user.email} is already a member of this workspace.", code="already_member") from None


def _membership(actor: Actor, user_ref) -> Membership:
    """A member by id or email; any other string (or one no column holds) is no member."""
    ref = str(user_ref)
    query = Membership.objects.select_related("user").filter(workspace=actor.workspace)
    if "@" in ref and not _UNSTORABLE.search(ref) and len(ref) <= User._meta.get_field("username").max_length:
        membership = query.filter(user__username=ref.lower()).first()
    elif _USER_ID.fullmatch(ref):
        membership = query.filter(user_id=int(ref)).first()
    else:
        membership = None
    if membership is None:
        raise NotFound("No such member in this workspace.")
    return membership


def membership_get(*, actor: Actor, user_ref) -> Membership:
    return _membership(actor, user_ref)


def _owners_left(workspace, excluding: Membership) -> int:
    return Membership.objects.filter(workspace=workspace, role="owner").exclude(pk=excluding.pk).count()


def membership_role_change(*, actor: Actor, user_ref, role: str) -> Membership:
    _check_role(role)
    membership = _membership(actor, user_ref)
    if not actor.can("members:manage"):
        raise Forbidden("Only workspace admins can change roles.")
    if "owner" in (role, membership.role) and not actor.can("members:manage_owners"):
        raise Forbidden("Only an owner can make or unmake owners.")
    with transaction.atomic():
        if membership.role == "owner" and role != "owner" and _owners_left(actor.workspace, membership) == 0:
            raise Conflict("A workspace needs at least one owner; make someone else owner first.", code="last_owner")
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def membership_remove(*, actor: Actor, user_ref) -> None:
    membership = _membership(actor, user_ref)
    leaving_self = membership.user_id == actor.user.pk
    if not leaving_self and not actor.can("members:manage"):
        raise Forbidden("Only workspace admins can remove members.")
    if membership.role == "owner" and not leaving_self and not actor.can("members:manage_owners"):
        raise Forbidden("Only an owner can remove an owner.")
    with transaction.atomic():
        if membership.role == "owner" and _owners_left(actor.workspace, membership) == 0:
            raise Conflict("A workspace needs at least one owner; make someone else owner first.", code="last_owner")
        remove_perm("workspaces.manage_agents", membership.user, actor.workspace)
        membership.delete()


def manage_agents_grant(*, actor: Actor, user, granted: bool) -> None:
    if not actor.can("members:manage"):
        raise Forbidden("Only workspace admins can grant the right to manage agents.")
    (assign_perm if granted else remove_perm)("workspaces.manage_agents", user, actor.workspace)


BOT_MEMORY_CHOICES = [c.value for c in Bot.MemoryChoice]
BOT_SAVE_RULES = ["always", "never", "use_mine"]


def _check_bot_fields(fields: dict) -> dict:
    checked = {}
    if "memory" in fields:
        memory = fields["memory"]
        if memory is not None and memory not in BOT_MEMORY_CHOICES:
            raise DomainError(
                f"Unknown memory choice {memory!r}; use one of {', '.join(BOT_MEMORY_CHOICES)}.",
                code="invalid_memory_choice",
            )
        checked["memory"] = memory
    if "memory_save" in fields:
        rule = fields["memory_save"]
        if rule in ("auto", "ask"):
            raise DomainError(
                "A bot's save rule can only be stricter than its owner's: use always, never or use_mine.",
                code="save_rule_too_loose",
            )
        if rule is not None and rule not in BOT_SAVE_RULES:
            raise DomainError(f"Unknown save rule {rule!r}; use always, never or use_mine.", code="invalid_save_rule")
        checked["memory_save"] = None if rule in (None, "use_mine") else rule
    return checked


def bot_create(*, actor: Actor, name: str, **fields) -> tuple[Bot, str]:
    """Creates a bot owned by the caller, with its own account; returns it and its token (shown once)."""
    if not actor.can("bots:create"):
        raise Forbidden("Your role does not allow creating bots; editors and above can.")
    name = (name or "").strip()
    if not name:
        raise DomainError("Give the bot a name.", code="invalid_name")
    _storable(Bot, "name", name, "A bot's name")
    checked = _check_bot_fields({"memory": Bot.MemoryChoice.MINE_AND_OWN, **fields})
    with transaction.atomic():
        bot = Bot(workspace=actor.workspace, owner=actor.user, name=name, **checked)
        account = User.objects.create(username=f"bot-{bot.id.hex}", email="")
        account.set_unusable_password()
        account.save()
        bot.account = account
        bot.save()
        key = token_create(user=account, name=f"bot {name}"[:ApiToken._meta.get_field("name").max_length])
    return bot, key


def bot_visible(*, actor: Actor, bot_id) -> Bot:
    bot_uuid = parse_uuid(bot_id)
    bot = Bot.objects.filter(workspace=actor.workspace, deleted_at__isnull=True, id=bot_uuid).first() \
        if bot_uuid else None
    if bot is None or not actor.can("bots:read"):
        raise NotFound("No such bot in this workspace.")
    return bot


def bot_update(*, actor: Actor, bot: Bot, **fields) -> Bot:
    if bot.owner_id != actor.user.pk and not actor.can("agents:manage"):
        raise Forbidden("Only the bot's owner or someone who manages agents can change it.")
    checked = _check_bot_fields(fields)
    if "name" in fields:
        if not (fields["name"] or "").strip():
            raise DomainError("Give the bot a name.", code="invalid_name")
        checked["name"] = _storable(Bot, "name", fields["name"].strip(), "A bot's name")
    for attr, value in checked.items():
        setattr(bot, attr, value)
    bot.save()
    return bot


def person_memory_settings_update(*, user, **fields) -> MemorySettings:
    """A person's memory settings (R-MODE-1): a field left out stays as it is; a bad value is refused."""

    if hasattr(user, "bot"):
        raise Forbidden("A bot has no memory settings of its own; its owner's apply.")
    unknown = set(fields) - {"enabled", "save_mode", "messaging_save"}
    if unknown:
        raise DomainError(f"Unknown setting(s): {', '.join(sorted(unknown))}.", code="unknown_setting")
    if "enabled" in fields and not isinstance(fields["enabled"], bool):
        raise DomainError("enabled is true or false.", code="invalid_enabled")
    if "save_mode" in fields and fields["save_mode"] not in MemorySettings.SaveMode.values:
        raise DomainError("save_mode is one of auto, ask, always, never.", code="invalid_save_mode")
    if "messaging_save" in fields and fields["messaging_save"] not in MemorySettings.MessagingSave.values:
        raise DomainError("messaging_save is one of ask, paired_private, never.", code="invalid_messaging_save")
    with transaction.atomic():
        row, _ = MemorySettings.objects.select_for_update().get_or_create(user=user)
        for name, value in fields.items():
            setattr(row, name, value)
        row.save()
    return row
