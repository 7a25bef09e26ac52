"""API of memory: turns and the three tools, notes, keeping held notes, blind delete, instance rules."""

from __future__ import annotations

from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from appenda.api.base import AppendaAPIView, WorkspaceAPIView, workspace_by_ref
from appenda.api.contract import Choice, Contract, Text, parse
from appenda.api.pagination import PageQuery, paginated
from appenda.api.schema import errors, page_of
from appenda.errors import DomainError
from memories import agent_undo, idempotency, instance_rules, recall, services, turns
from memories import contract as c
from memories.models import Layer, Note
from memories.presenters import agent_undo_json, note_json, rule_json, save_result_json, undo_handle
from memories.selectors import member_notes_blind, memory_list_visible
from memories.tools import DEFAULT_FORMAT as DEFAULT_TOOL_FORMAT
from memories.tools import FORMATS as TOOL_FORMATS
from memories.tools import tool_definitions, tool_list_for_turn
from workspaces.capabilities import actor_for, is_instance_admin


def _save_status(result) -> int:
    return status.HTTP_201_CREATED if result.created else status.HTTP_200_OK


IDEMPOTENCY_KEY_PARAMETER = OpenApiParameter(idempotency.HEADER, str, OpenApiParameter.HEADER, required=False,
                                             description=idempotency.KEY_DESCRIPTION)


class TurnStartView(WorkspaceAPIView):
    @extend_schema(request=c.TurnStartIn, responses={201: c.TurnOut, **errors(400, 403, 404)})
    def post(self, request, ws):
        data = parse(c.TurnStartIn, request.data)
        turn = turns.turn_start(
            actor=self.actor, kind=data["kind"], chat_id=data.get("chat_id"), bot_ref=data.get("bot"),
            table_ref=data.get("table"), private=data.get("private"), channel=data.get("channel"),
        )
        context = recall.turn_context(turn=turn, workspace=self.workspace)
        return Response({"id": str(turn.id), "kind": turn.kind, "private": turn.private,
                         "expires_at": turn.expires_at.isoformat(), "context": context},
                        status=status.HTTP_201_CREATED)


class TurnReadView(WorkspaceAPIView):
    @extend_schema(request=c.TurnReadIn, responses={201: c.ReadOut, **errors(400, 404)})
    def post(self, request, ws, turn):
        data = parse(c.TurnReadIn, request.data)
        read = turns.turn_record_read(actor=self.actor, turn_id=turn, source=data["source"], ref=data["ref"])
        return Response({"turn": turn, "tainted": True, "source": read.source, "ref": read.ref, "label": read.label,
                         "redacted": read.redacted, "stripped": list(read.stripped)}, status=status.HTTP_201_CREATED)


class TurnMemorySaveView(WorkspaceAPIView):
    """The ``memory_save`` tool: saved, held for a person, or refused with a code."""

    @extend_schema(request=c.NoteSaveIn, parameters=[IDEMPOTENCY_KEY_PARAMETER],
                   responses={200: c.SaveResultOut, 201: c.SaveResultOut, **errors(400, 403, 404, 409)})
    def post(self, request, ws, turn):
        fields = c.NoteSaveIn.service_fields(parse(c.NoteSaveIn, request.data))

        def save():
            result = services.memory_save(actor=self.actor, turn_id=turn, **fields)
            return _save_status(result), save_result_json(self.workspace, result)

        return idempotency.answer_once(request=request, actor=self.actor, endpoint=f"turns/{turn}/memory_save",
                                       body=fields, save=save)


class TurnMemorySearchView(WorkspaceAPIView):
    """The ``memory_search`` tool: the notes this turn may read, best first, as quoted data."""

    @extend_schema(request=c.SearchIn, responses={200: c.SearchOut, **errors(400, 403, 404)})
    def post(self, request, ws, turn):
        data = parse(c.SearchIn, request.data)
        return Response(recall.memory_search(
            actor=self.actor, turn_id=turn, turn=self.objects["turn"], query=data["query"],
            subject=data.get("subject"), layer=data.get("layer"), limit=data["limit"],
        ))


class TurnMemoryUndoView(WorkspaceAPIView):
    """The ``memory_undo`` tool: undo a change this agent's turns made (202 when it waits for a person)."""

    @extend_schema(request=c.UndoIn, responses={200: c.AgentUndoOut, 202: c.AgentUndoOut,
                                                 **errors(400, 403, 404, 409)})
    def post(self, request, ws, turn):
        data = parse(c.UndoIn, request.data)
        result = agent_undo.memory_undo(actor=self.actor, turn_id=turn, change_set_id=data["change"])
        return Response(agent_undo_json(self.workspace, result),
                        status=status.HTTP_202_ACCEPTED if result.state == "held" else status.HTTP_200_OK)


def _subject_filter(raw: str | None) -> tuple[str, str] | None:
    if not raw:
        return None
    kind, _, ref = raw.partition(":")
    if not ref:
        kind, ref = "table", kind
    return kind, ref


def _list_item_json(item) -> dict:
    return note_json(item) if isinstance(item, Note) else rule_json(item)


class MemoryListView(WorkspaceAPIView):
    @extend_schema(
        parameters=[c.NoteListQuery],
        responses={200: page_of(c.NoteOut, "NotePage"),
                   **errors(400, 403, 404)},
    )
    def get(self, request, ws):
        query = parse(c.NoteListQuery, request.query_params)
        layer, state, pinned = query.get("layer"), query.get("state"), query.get("pinned")
        items: list = []
        if layer in (None, Layer.INSTANCE) and state in (None, "active") and pinned in (None, True) \
                and not query.get("subject"):
            items = list(instance_rules.rules_active())
        if layer != Layer.INSTANCE:
            notes = memory_list_visible(actor=self.actor, layer=layer, state=state,
                                        subject=_subject_filter(query.get("subject")), pinned=pinned)
            if query.get("q"):
                items = recall.rank_queryset(notes, query["q"], 50, workspace=self.actor.workspace)
            else:
                items += list(notes)
        return paginated(request, self, items, _list_item_json)

    @extend_schema(request=c.PersonNoteSaveIn, parameters=[IDEMPOTENCY_KEY_PARAMETER],
                   responses={200: c.SaveResultOut, 201: c.SaveResultOut, **errors(400, 403, 404, 409)})
    def post(self, request, ws):
        data = parse(c.PersonNoteSaveIn, request.data)

        def save():
            result = services.memory_save(actor=self.actor, bot_ref=data.get("bot"),
                                          **c.NoteSaveIn.service_fields(data))
            return _save_status(result), save_result_json(self.workspace, result)

        return idempotency.answer_once(request=request, actor=self.actor, endpoint="memories", body=data, save=save)


class MemoryDetailView(WorkspaceAPIView):
    @extend_schema(responses={200: c.NoteOut, **errors(404)})
    def get(self, request, ws, note):
        found = self.objects["note"]
        # The version a keep names (R-TAINT-6), as the standard header for If-Match.
        return Response(note_json(found), headers={"ETag": f'"{found.version}"'})

    @extend_schema(request=c.NotePatchIn, responses={200: c.NoteChangedOut, **errors(400, 403, 404)})
    def patch(self, request, ws, note):
        data = parse(c.NotePatchIn, request.data)
        updated, change_set = services.memory_update(actor=self.actor, note_id=note, value=data.get("value"),
                                                     pinned=data.get("pinned"))
        return Response({**note_json(updated), "undo": undo_handle(self.workspace, change_set)})

    @extend_schema(responses={204: OpenApiResponse(description="Deleted; the header Appenda-Undo has the undo URL."),
                              **errors(403, 404)})
    def delete(self, request, ws, note):
        change_set = services.memory_delete(actor=self.actor, note_id=note)
        # 204 has no body: the undo handle travels in a header.
        return Response(status=status.HTTP_204_NO_CONTENT,
                        headers={"Appenda-Undo": undo_handle(self.workspace, change_set)["url"]})


class MemoryKeepView(WorkspaceAPIView):
    """Keeps the version of a held note the person saw (R-TAINT-6): from ``If-Match`` (the ETag of
    GET …/memories/{id}/, quoted or not) or ``{"version"}`` in the body. The service checks it."""

    @extend_schema(request=c.KeepIn, responses={200: c.NoteChangedOut, **errors(400, 403, 404, 409, 428)},
                   parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=False,
                                                description="The note's ETag, instead of version in the body.")])
    def post(self, request, ws, note):
        version = self._version_seen(request)
        kept, change_set = services.memory_keep(actor=self.actor, note_id=note, version=version)
        return Response({**note_json(kept), "undo": undo_handle(self.workspace, change_set)})

    @staticmethod
    def _version_seen(request):
        """As sent: the service checks it after the note's visibility (R-RBAC-4)."""
        tags = [t.strip().removeprefix("W/").strip('"') for t in request.headers.get("If-Match", "").split(",")]
        tags = [t for t in tags if t]
        if tags:
            return tags[0] if len(tags) == 1 else tags
        return parse(c.KeepIn, request.data).get("version")


class MemberMemoriesBlindView(WorkspaceAPIView):
    """A member's notes without their content (R-RBAC-3): ids, sizes, dates; delete them all."""

    # The member is resolved, and memory:blind_delete checked, by the access table (appenda.api.access).

    @extend_schema(responses={200: c.BlindListOut, **errors(403, 404)})
    def get(self, request, ws, user):
        membership = self.objects["user"]
        notes = member_notes_blind(actor=self.actor, user_id=membership.user_id).only(
            "id", "key", "value", "state", "created_at", "updated_at", "trashed_at")
        items = [{"id": str(n.id), "size": n.size, "state": n.state, "created_at": n.created_at.isoformat(),
                  "updated_at": n.updated_at.isoformat(), "in_trash": n.trashed_at is not None} for n in notes]
        return Response({"user": membership.user_id, "count": len(items), "notes": items})

    @extend_schema(responses={200: c.BlindDeleteOut, **errors(403, 404)})
    def delete(self, request, ws, user):
        membership = self.objects["user"]
        change_set = services.member_notes_blind_delete(actor=self.actor, user_id=membership.user_id)
        return Response({"deleted": change_set.note_count if change_set else 0,
                         "change": str(change_set.id) if change_set else None})


class InstanceRuleListView(AppendaAPIView):
    @extend_schema(parameters=[PageQuery], responses={200: page_of(c.NoteOut, "RulePage"), **errors(400)})
    def get(self, request):
        parse(PageQuery, request.query_params)
        return paginated(request, self, instance_rules.rules_visible(request.user), rule_json)

    @extend_schema(request=c.RuleIn, responses={200: c.NoteOut, 201: c.NoteOut, **errors(400, 403, 409)})
    def post(self, request):
        data = parse(c.RuleIn, request.data)
        rule, created = instance_rules.rule_save(user=request.user, key=data["key"], value=data["value"])
        return Response(rule_json(rule), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class InstanceRuleKeepView(AppendaAPIView):
    """An instance admin keeps a held rule, naming the version they read (``If-Match`` with the
    ETag of GET …/instance/rules/{id}/, or ``{"version"}``), as a held note is kept."""

    @extend_schema(request=c.KeepIn, responses={200: c.NoteOut, **errors(400, 403, 404, 409, 428)},
                   parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=False,
                                                description="The rule's ETag, instead of version in the body.")])
    def post(self, request, rule):
        instance_rules.rule_visible(request.user, self.objects["rule"])
        version = MemoryKeepView._version_seen(request)
        return Response(rule_json(instance_rules.rule_keep(user=request.user, rule_id=rule, version=version)))


class InstanceRuleDetailView(AppendaAPIView):
    @extend_schema(responses={200: c.NoteOut, **errors(404)})
    def get(self, request, rule):
        found = instance_rules.rule_visible(request.user, self.objects["rule"])
        # The version a keep names, as the standard header for If-Match (as for a note).
        return Response(rule_json(found), headers={"ETag": f'"{instance_rules.rule_version(found)}"'})

    @extend_schema(request=c.RulePatchIn, responses={200: c.NoteOut, **errors(400, 403, 404, 409)})
    def patch(self, request, rule):
        data = parse(c.RulePatchIn, request.data)
        return Response(rule_json(instance_rules.rule_update(user=request.user, rule_id=rule, key=data.get("key"),
                                                             value=data.get("value"))))

    @extend_schema(request=c.RuleIn, responses={200: c.NoteOut, **errors(400, 403, 404, 409)})
    def put(self, request, rule):
        data = parse(c.RuleIn, request.data)
        return Response(rule_json(instance_rules.rule_update(user=request.user, rule_id=rule, key=data["key"],
                                                             value=data["value"])))

    @extend_schema(responses={204: None, **errors(403, 404)})
    def delete(self, request, rule):
        instance_rules.rule_delete(user=request.user, rule_id=rule)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ToolListView(AppendaAPIView):
    """The tools' definitions, for agent frameworks (a document, not a page of resources).

    Public without ``turn``. With ``turn`` (and its ``workspace``) it is the caller's turn's
    list: the three tools, or none while memory is off for that turn (R-RECALL-5)."""

    permission_classes = [AllowAny]

    class Query(Contract):
        error_codes = {"format": "invalid_format"}
        error_sentences = {"format": f"format is one of {', '.join(TOOL_FORMATS)}."}

        format = Choice(TOOL_FORMATS, required=False, default=DEFAULT_TOOL_FORMAT,
                        help_text="openai: strict function tools; anthropic: Anthropic tools; mcp: MCP tools; "
                                  "json-schema (default): {name, description, input_schema}.")
        turn = Text(required=False, max_length=64, help_text="A turn of the caller: only its tools (none while "
                                                             "memory is off for it). Needs workspace and a token.")
        workspace = Text(required=False, max_length=64, help_text="The turn's workspace (id or slug).")

    def perform_content_negotiation(self, request, force=False):
        # ``format`` names the tools' format here, not a renderer (DRF's URL_FORMAT_OVERRIDE).
        renderer = self.get_renderers()[0]
        return renderer, renderer.media_type

    @extend_schema(
        parameters=[Query],
        responses={200: PolymorphicProxySerializer(
            component_name="ToolDefinition", serializers=[c.ToolOut, c.OpenAIToolOut, c.MCPToolOut],
            resource_type_field_name=None, many=True), **errors(400, 401, 404, public=True)},
        auth=[],
    )
    def get(self, request):
        query = parse(self.Query, request.query_params)
        if query.get("turn") is None and query.get("workspace") is None:
            return Response(tool_definitions(query["format"]))
        if not request.user.is_authenticated:
            raise NotAuthenticated("A turn's tools are for the caller of the turn: send its token.")
        for needed in ("turn", "workspace"):
            if not query.get(needed):
                raise DomainError(f"{needed} is required with {'workspace' if needed == 'turn' else 'turn'}.",
                                  code="missing_field", field=needed)
        workspace = workspace_by_ref(query["workspace"])
        actor = actor_for(request.user, workspace) if workspace is not None else None
        return Response(tool_list_for_turn(actor=actor, turn_id=query["turn"], fmt=query["format"]))


class MeView(AppendaAPIView):
    @extend_schema(responses={200: c.MeOut, **errors()})
    def get(self, request):
        return Response({"id": request.user.pk, "email": request.user.email,
                         "instance_admin": is_instance_admin(request.user)})
