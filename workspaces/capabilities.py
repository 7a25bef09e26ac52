"""Roles → capabilities, in one place (SPEC §3).

Code asks ``actor.can("memory:write_workspace")``; it never compares role names. Roles are
cumulative: each role has every capability of the roles below it. "Manages agents" is an
admin/owner capability, or a django-guardian ``manage_agents`` grant on the workspace.
"""

from __future__ import annotations

from dataclasses import dataclass

from workspaces.models import Bot, Membership, Workspace

ROLE_ORDER = ["viewer", "editor", "admin", "owner"]

_VIEWER = {
    "workspace:read",
    "members:read",
    "memory:read",
    "memory:write_mine",
    "tables:read",
    "turns:start",
    "bots:read",
}
_EDITOR = _VIEWER | {"memory:write_workspace", "tables:write", "bots:create"}
_ADMIN = _EDITOR | {"members:manage", "agents:manage", "memory:blind_delete", "audit:read_all"}
_OWNER = _ADMIN | {"members:manage_owners", "workspace:delete"}

ROLE_CAPABILITIES: dict[str, frozenset[str]] = {
    "viewer": frozenset(_VIEWER),
    "editor": frozenset(_EDITOR),
    "admin": frozenset(_ADMIN),
    "owner": frozenset(_OWNER),
}
MANAGE_AGENTS_GRANT = frozenset({"agents:manage"})
# A bot acts inside its own workspace only, on its owner's behalf, through turns and tools.
BOT_CAPABILITIES = frozenset({"workspace:read", "memory:read", "tables:read", "turns:start", "bots:read"})
# An instance admin who is not a member may delete without reading (R-RBAC-3), nothing more.
INSTANCE_ADMIN_CAPABILITIES = frozenset({"members:read", "memory:blind_delete"})


@dataclass(frozen=True)
class Actor:
    """Who is calling, in which workspace, with which capabilities. Resolved once per request."""

    user: object
    workspace: Workspace
    role: str | None
    bot: Bot | None
    capabilities: frozenset[str]
    is_instance_admin: bool

    def can(self, capability: str) -> bool:
        return capability in self.capabilities

    @property
    def person_id(self) -> int:
        """The person on whose behalf the call is made (a bot acts for its owner)."""
        return self.bot.owner_id if self.bot else self.user.pk


def is_instance_admin(user) -> bool:
    return bool(user and user.is_authenticated and user.administered_instances.exists())


def actor_for(user, workspace: Workspace) -> Actor | None:
    """The caller's standing in a workspace, or None when the workspace must look absent (404)."""
    if not user or not user.is_authenticated:
        return None
    instance_admin = is_instance_admin(user)
    bot = Bot.objects.filter(account=user, deleted_at__isnull=True).first()
    if bot is not None:
        owner_is_member = Membership.objects.filter(user_id=bot.owner_id, workspace=workspace).exists()
        if bot.workspace_id != workspace.id or not owner_is_member:
            return None
        return Actor(user, workspace, None, bot, BOT_CAPABILITIES, False)
    membership = Membership.objects.filter(user=user, workspace=workspace).first()
    if membership is None:
        if instance_admin:
            return Actor(user, workspace, None, None, INSTANCE_ADMIN_CAPABILITIES, True)
        return None
    capabilities = ROLE_CAPABILITIES[membership.role]
    if "agents:manage" not in capabilities and user.has_perm("workspaces.manage_agents", workspace):
        capabilities = capabilities | MANAGE_AGENTS_GRANT
    if instance_admin:
        capabilities = capabilities | INSTANCE_ADMIN_CAPABILITIES
    return Actor(user, workspace, membership.role, None, capabilities, instance_admin)


def role_at_least(role: str, minimum: str) -> bool:
    return ROLE_ORDER.index(role) >= ROLE_ORDER.index(minimum)
