"""API of control data: workspaces, the memory switch, members, bots, a person's settings."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from appenda.api.base import AppendaAPIView, WorkspaceAPIView
from appenda.api.contract import parse
from appenda.api.pagination import PageQuery, paginated
from appenda.api.schema import errors, page_of
from appenda.errors import DomainError
from workspaces import contract as c
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


def _membership_workspace_json(membership: Membership) -> dict:
    return workspace_json(membership.workspace, membership.role)


class WorkspaceListView(AppendaAPIView):
    """The caller's workspaces (a bot's token: its one workspace); create one, as its owner."""

    @extend_schema(parameters=[PageQuery], responses={200: page_of(c.WorkspaceOut, "WorkspacePage"), **errors(400)})
    def get(self, request):
        parse(PageQuery, request.query_params)
        bot = Bot.objects.filter(account=request.user, deleted_at__isnull=True).select_related("workspace").first()
        if bot is not None:  # a bot's token: its one workspace, where it has no role
            return paginated(request, self, [bot.workspace], workspace_json)
        memberships = Membership.objects.filter(user=request.user).select_related("workspace") \
            .order_by("workspace__name", "workspace_id")
        return paginated(request, self, memberships, _membership_workspace_json)

    @extend_schema(request=c.WorkspaceIn, responses={201: c.WorkspaceOut, **errors(400, 403)})
    def post(self, request):
        if hasattr(request.user, "bot"):
            raise DomainError("Bots cannot create workspaces.", code="forbidden", status=403)
        data = parse(c.WorkspaceIn, request.data)
        workspace = services.workspace_create(
            name=data["name"], owner=request.user, kind=data["kind"], region=data.get("region"),
            slug=data.get("slug"),
        )
        return Response(workspace_json(workspace, "owner"), status=status.HTTP_201_CREATED)


class WorkspaceDetailView(WorkspaceAPIView):
    """One workspace, with the caller's role in it."""

    @extend_schema(responses={200: c.WorkspaceOut, **errors(403, 404)})
    def get(self, request, ws):
        return Response(workspace_json(self.workspace, self.actor.role))


class WorkspaceMemorySettingsView(WorkspaceAPIView):
    """The workspace's memory switch; changed only by those who manage agents."""

    def _answer(self) -> Response:
        return Response({"enabled": self.workspace.memory_enabled, "can_change": self.actor.can("agents:manage")})

    @extend_schema(responses={200: c.WorkspaceMemorySettingsOut, **errors(403, 404)})
    def get(self, request, ws):
        return self._answer()

    @extend_schema(request=c.WorkspaceMemorySettingsIn,
                   responses={200: c.WorkspaceMemorySettingsOut, **errors(400, 403, 404)})
    def put(self, request, ws):
        data = parse(c.WorkspaceMemorySettingsIn, request.data)
        services.workspace_memory_switch(actor=self.actor, enabled=data["enabled"])
        return self._answer()

    @extend_schema(request=c.WorkspaceMemorySettingsPatchIn,
                   responses={200: c.WorkspaceMemorySettingsOut, **errors(400, 403, 404)})
    def patch(self, request, ws):
        data = parse(c.WorkspaceMemorySettingsPatchIn, request.data)
        if "enabled" in data:
            services.workspace_memory_switch(actor=self.actor, enabled=data["enabled"])
        return self._answer()


class MemberListView(WorkspaceAPIView):
    """The workspace's members; add a person who has an account, by email."""

    @extend_schema(parameters=[PageQuery], responses={200: page_of(c.MemberOut, "MemberPage"), **errors(400, 403, 404)})
    def get(self, request, ws):
        parse(PageQuery, request.query_params)
        memberships = Membership.objects.filter(workspace=self.workspace).select_related("user") \
            .order_by("user__email", "user_id")
        return paginated(request, self, memberships, member_json)

    @extend_schema(request=c.MemberAddIn, responses={201: c.MemberOut, **errors(400, 403, 404, 409)})
    def post(self, request, ws):
        data = parse(c.MemberAddIn, request.data)
        membership = services.membership_add(actor=self.actor, email=data["email"], role=data["role"])
        return Response(member_json(membership), status=status.HTTP_201_CREATED)


class MemberDetailView(WorkspaceAPIView):
    """One member (by id or email): change their role, or remove them."""

    @extend_schema(responses={200: c.MemberOut, **errors(403, 404)})
    def get(self, request, ws, user):
        return Response(member_json(self.objects["user"]))

    @extend_schema(request=c.MemberPatchIn, responses={200: c.MemberOut, **errors(400, 403, 404, 409)})
    def patch(self, request, ws, user):
        data = parse(c.MemberPatchIn, request.data)
        if "role" not in data:
            return Response(member_json(self.objects["user"]))
        membership = services.membership_role_change(actor=self.actor, user_ref=user, role=data["role"])
        return Response(member_json(membership))

    @extend_schema(responses={204: None, **errors(403, 404, 409)})
    def delete(self, request, ws, user):
        services.membership_remove(actor=self.actor, user_ref=user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _bot_fields(data: dict) -> dict:
    """The bot's fields the request names: one left out stays as it is."""
    return {name: data[name] for name in ("name", "memory", "memory_save") if name in data}


class BotListView(WorkspaceAPIView):
    """The workspace's bots; create one (its token is in that answer only)."""

    @extend_schema(parameters=[PageQuery], responses={200: page_of(c.BotOut, "BotPage"), **errors(400, 403, 404)})
    def get(self, request, ws):
        parse(PageQuery, request.query_params)
        bots = Bot.objects.filter(workspace=self.workspace, deleted_at__isnull=True).order_by("name", "id")
        return paginated(request, self, bots, bot_json)

    @extend_schema(request=c.BotIn, responses={201: c.BotOut, **errors(400, 403, 404)})
    def post(self, request, ws):
        data = parse(c.BotIn, request.data)
        bot, key = services.bot_create(actor=self.actor, **_bot_fields(data))
        return Response({**bot_json(bot), "token": key}, status=status.HTTP_201_CREATED)


class BotDetailView(WorkspaceAPIView):
    """One bot: change its name, memory choice and save rule, or delete it with its notes kept, exported or deleted."""

    @extend_schema(responses={200: c.BotOut, **errors(403, 404)})
    def get(self, request, ws, bot):
        return Response(bot_json(self.objects["bot"]))

    @extend_schema(request=c.BotPatchIn, responses={200: c.BotOut, **errors(400, 403, 404)})
    def patch(self, request, ws, bot):
        data = parse(c.BotPatchIn, request.data)
        return Response(bot_json(services.bot_update(actor=self.actor, bot=self.objects["bot"], **_bot_fields(data))))

    @extend_schema(request=c.BotIn, responses={200: c.BotOut, **errors(400, 403, 404)})
    def put(self, request, ws, bot):
        data = parse(c.BotIn, request.data)
        return Response(bot_json(services.bot_update(actor=self.actor, bot=self.objects["bot"], **_bot_fields(data))))

    @extend_schema(
        parameters=[c.BotDeleteQuery],
        responses={204: OpenApiResponse(description="Deleted (memory=keep or delete)."),
                   (200, "application/zip"): OpenApiResponse(OpenApiTypes.BINARY,
                                                             description="memory=export: the zip of its notes."),
                   **errors(400, 403, 404)},
    )
    def delete(self, request, ws, bot):
        from memories.bots import bot_delete

        query = parse(c.BotDeleteQuery, request.query_params)
        outcome = bot_delete(actor=self.actor, bot=self.objects["bot"], memory=query["memory"])
        if outcome.export_response is not None:
            return outcome.export_response
        return Response(status=status.HTTP_204_NO_CONTENT)


def settings_json(row: MemorySettings | None) -> dict:
    row = row or MemorySettings()
    return {"enabled": row.enabled, "save_mode": row.save_mode, "messaging_save": row.messaging_save}


class MyMemorySettingsView(AppendaAPIView):
    """A person's memory settings (R-MODE-1); PUT and PATCH alike change only the fields sent."""

    @extend_schema(responses={200: c.MySettingsOut, **errors(403)})
    def get(self, request):
        return Response(settings_json(MemorySettings.objects.filter(user=request.user).first()))

    @extend_schema(request=c.MySettingsIn, responses={200: c.MySettingsOut, **errors(400, 403)})
    def put(self, request):
        data = parse(c.MySettingsIn, request.data)
        return Response(settings_json(services.person_memory_settings_update(user=request.user, **data)))

    @extend_schema(request=c.MySettingsIn, responses={200: c.MySettingsOut, **errors(400, 403)})
    def patch(self, request):
        data = parse(c.MySettingsIn, request.data)
        return Response(settings_json(services.person_memory_settings_update(user=request.user, **data)))
