"""API of control data: workspaces, the memory switch, members, bots, a person's settings."""

from __future__ import annotations

from rest_framework import status
from rest_framework.response import Response

from appenda.api.base import AppendaAPIView, WorkspaceAPIView
from appenda.api.parsing import body, required
from appenda.errors import DomainError
from workspaces import services
from workspaces.models import Bot, Membership, MemorySettings, Workspace


def workspace_json(workspace: Workspace, role: str | None = None) -> dict:
    return {
        "id": str(workspace.id),
        "name": workspace.name,
        "slug": workspace.slug,
        "kind": workspace.kind,
        "region": workspace.region,
        "memory_enabled": workspace.memory_enabled,
        "role": role,
        "created_at": workspace.created_at.isoformat(),
    }


def member_json(membership: Membership) -> dict:
    return {"user": membership.user_id, "id": membership.user_id, "email": membership.user.email,
            "role": membership.role, "joined_at": membership.created_at.isoformat()}


def bot_json(bot: Bot) -> dict:
    return {
        "id": str(bot.id),
        "name": bot.name,
        "owner": bot.owner_id,
        "workspace": str(bot.workspace_id),
        "memory": bot.memory,
        "memory_save": bot.memory_save or "use_mine",
        "deleted": bot.deleted_at is not None,
        "created_at": bot.created_at.isoformat(),
    }


class WorkspaceListView(AppendaAPIView):
    def get(self, request):
        memberships = Membership.objects.filter(user=request.user).select_related("workspace").order_by("workspace__name")
        bot = Bot.objects.filter(account=request.user, deleted_at__isnull=True).select_related("workspace").first()
        if bot is not None:
            return Response([workspace_json(bot.workspace, None)])
        return Response([workspace_json(m.workspace, m.role) for m in memberships])

    def post(self, request):
        if hasattr(request.user, "bot"):
            raise DomainError("Bots cannot create workspaces.", code="forbidden", status=403)
        data = body(request)
        workspace = services.workspace_create(
            name=required(data, "name"), owner=request.user, kind=data.get("kind") or "cloud",
            region=data.get("region"), slug=data.get("slug"),
        )
        return Response(workspace_json(workspace, "owner"), status=status.HTTP_201_CREATED)


class WorkspaceDetailView(WorkspaceAPIView):
    def get(self, request, ws):
        return Response(workspace_json(self.workspace, self.actor.role))


class WorkspaceMemorySettingsView(WorkspaceAPIView):
    def get(self, request, ws):
        return Response({"enabled": self.workspace.memory_enabled, "can_change": self.actor.can("agents:manage")})

    def put(self, request, ws):
        data = body(request)
        enabled = required(data, "enabled")
        if not isinstance(enabled, bool):
            raise DomainError("enabled is true or false.", code="invalid_enabled")
        workspace = services.workspace_memory_switch(actor=self.actor, enabled=enabled)
        return Response({"enabled": workspace.memory_enabled, "can_change": True})

    patch = put


class MemberListView(WorkspaceAPIView):
    def get(self, request, ws):
        memberships = Membership.objects.filter(workspace=self.workspace).select_related("user").order_by("user__email")
        return Response([member_json(m) for m in memberships])

    def post(self, request, ws):
        data = body(request)
        membership = services.membership_add(actor=self.actor, email=required(data, "email"), role=required(data, "role"))
        return Response(member_json(membership), status=status.HTTP_201_CREATED)


class MemberDetailView(WorkspaceAPIView):
    def get(self, request, ws, user):
        return Response(member_json(services.membership_get(actor=self.actor, user_ref=user)))

    def patch(self, request, ws, user):
        data = body(request)
        membership = services.membership_role_change(actor=self.actor, user_ref=user, role=required(data, "role"))
        return Response(member_json(membership))

    def delete(self, request, ws, user):
        services.membership_remove(actor=self.actor, user_ref=user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BotListView(WorkspaceAPIView):
    def get(self, request, ws):
        bots = Bot.objects.filter(workspace=self.workspace, deleted_at__isnull=True).order_by("name")
        return Response([bot_json(b) for b in bots])

    def post(self, request, ws):
        data = body(request)
        fields = {k: data[k] for k in ("memory", "memory_save") if k in data}
        bot, key = services.bot_create(actor=self.actor, name=required(data, "name"), **fields)
        return Response({**bot_json(bot), "token": key}, status=status.HTTP_201_CREATED)


class BotDetailView(WorkspaceAPIView):
    def get(self, request, ws, bot):
        return Response(bot_json(services.bot_visible(actor=self.actor, bot_id=bot)))

    def patch(self, request, ws, bot):
        data = body(request)
        fields = {k: data[k] for k in ("name", "memory", "memory_save") if k in data}
        found = services.bot_visible(actor=self.actor, bot_id=bot)
        return Response(bot_json(services.bot_update(actor=self.actor, bot=found, **fields)))

    put = patch

    def delete(self, request, ws, bot):
        from memories.bots import bot_delete

        found = services.bot_visible(actor=self.actor, bot_id=bot)
        outcome = bot_delete(actor=self.actor, bot=found, memory=request.query_params.get("memory", "keep"))
        if outcome.export_response is not None:
            return outcome.export_response
        return Response(status=status.HTTP_204_NO_CONTENT)


def settings_json(row: MemorySettings | None) -> dict:
    row = row or MemorySettings()
    return {"enabled": row.enabled, "save_mode": row.save_mode, "messaging_save": row.messaging_save}


class MyMemorySettingsView(AppendaAPIView):
    def get(self, request):
        return Response(settings_json(MemorySettings.objects.filter(user=request.user).first()))

    def put(self, request):
        row = services.person_memory_settings_update(user=request.user, **body(request))
        return Response(settings_json(row))

    patch = put
