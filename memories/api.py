"""API of memory: turns and the two tools, notes, keeping held notes, blind delete, instance rules."""

from __future__ import annotations

from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from appenda.api.base import AppendaAPIView, WorkspaceAPIView
from appenda.api.parsing import body, query_bool, query_int, required
from appenda.errors import DomainError, Forbidden
from memories import agent_undo, instance_rules, recall, services, turns
from memories.models import Layer, Note
from memories.presenters import agent_undo_json, note_json, rule_json, save_result_json, undo_handle
from memories.selectors import member_notes_blind, memory_get_visible, memory_list_visible
from memories.tools import tool_definitions
from workspaces.capabilities import is_instance_admin
from workspaces.services import membership_get


def _save_status(result) -> int:
    return status.HTTP_201_CREATED if result.created else status.HTTP_200_OK


def _save_fields(data: dict) -> dict:
    pinned = data.get("pin", data.get("pinned", False))
    return {"key": required(data, "key"), "value": required(data, "value"), "layer": data.get("layer") or None,
            "subject": data.get("subject"), "pinned": pinned}


class TurnStartView(WorkspaceAPIView):
    def post(self, request, ws):
        data = body(request)
        turn = turns.turn_start(
            actor=self.actor, kind=data.get("kind") or "chat", chat_id=data.get("chat_id"), bot_ref=data.get("bot"),
            table_ref=data.get("table"), private=data.get("private", False), channel=data.get("channel"),
        )
        context = recall.turn_context(turn=turn, workspace=self.workspace)
        return Response({"id": str(turn.id), "kind": turn.kind, "private": turn.private,
                         "expires_at": turn.expires_at.isoformat(), "context": context},
                        status=status.HTTP_201_CREATED)


class TurnReadView(WorkspaceAPIView):
    def post(self, request, ws, turn):
        data = body(request)
        read = turns.turn_record_read(actor=self.actor, turn_id=turn, source=required(data, "source"),
                                      ref=required(data, "ref"))
        return Response({"turn": turn, "tainted": True, "source": read.source, "ref": read.ref, "label": read.label,
                         "redacted": read.redacted, "stripped": list(read.stripped)}, status=status.HTTP_201_CREATED)


class TurnMemorySaveView(WorkspaceAPIView):
    def post(self, request, ws, turn):
        result = services.memory_save(actor=self.actor, turn_id=turn, **_save_fields(body(request)))
        return Response(save_result_json(self.workspace, result), status=_save_status(result))


class TurnMemorySearchView(WorkspaceAPIView):
    def post(self, request, ws, turn):
        data = body(request)
        return Response(recall.memory_search(
            actor=self.actor, turn_id=turn, turn=self.objects["turn"], query=data.get("query"),
            subject=data.get("subject"), layer=data.get("layer"), limit=data.get("limit", 10),
        ))


class TurnMemoryUndoView(WorkspaceAPIView):
    def post(self, request, ws, turn):
        result = agent_undo.memory_undo(actor=self.actor, turn_id=turn, change_set_id=body(request).get("change"))
        return Response(agent_undo_json(self.workspace, result),
                        status=status.HTTP_202_ACCEPTED if result.state == "held" else status.HTTP_200_OK)


def _subject_filter(request) -> tuple[str, str] | None:
    raw = request.query_params.get("subject")
    if not raw:
        return None
    kind, _, ref = raw.partition(":")
    if not ref:
        kind, ref = "table", kind
    return kind, ref


class MemoryListView(WorkspaceAPIView):
    def get(self, request, ws):
        layer = request.query_params.get("layer") or None
        state = request.query_params.get("state") or None
        if layer and layer not in Layer.values:
            raise DomainError(f"Unknown layer {layer!r}; use one of {', '.join(Layer.values)}.", code="invalid_layer")
        if state and state not in Note.State.values:
            raise DomainError("state is active or held.", code="invalid_filter")
        pinned = query_bool(request, "pinned")
        limit = query_int(request, "limit", 500, 1, 1000)
        offset = query_int(request, "offset", 0, 0, 10**9)
        results = []
        if layer in (None, Layer.INSTANCE) and state in (None, "active") and pinned in (None, True) \
                and not request.query_params.get("subject"):
            results = [rule_json(r) for r in instance_rules.rules_all()]
        if layer != Layer.INSTANCE:
            notes = memory_list_visible(actor=self.actor, layer=layer, state=state, subject=_subject_filter(request),
                                        pinned=pinned)
            query = request.query_params.get("q")
            if query:
                results = [note_json(n) for n in recall.rank_queryset(notes, query, limit, workspace=self.actor.workspace)]
            else:
                results += [note_json(n) for n in notes[offset: offset + limit]]
        return Response(results)

    def post(self, request, ws):
        data = body(request)
        result = services.memory_save(actor=self.actor, bot_ref=data.get("bot"), **_save_fields(data))
        return Response(save_result_json(self.workspace, result), status=_save_status(result))


class MemoryDetailView(WorkspaceAPIView):
    def get(self, request, ws, note):
        found = memory_get_visible(actor=self.actor, note_id=note)
        # The version a keep names (R-TAINT-6), as the standard header for If-Match.
        return Response(note_json(found), headers={"ETag": f'"{found.version}"'})

    def patch(self, request, ws, note):
        data = body(request)
        unknown = set(data) - {"value", "pinned"}
        if unknown:
            raise DomainError(f"Only value and pinned can change; got {', '.join(sorted(unknown))}.",
                              code="invalid_field")
        updated, change_set = services.memory_update(actor=self.actor, note_id=note, value=data.get("value"),
                                                     pinned=data.get("pinned"))
        return Response({**note_json(updated), "undo": undo_handle(self.workspace, change_set)})

    def delete(self, request, ws, note):
        change_set = services.memory_delete(actor=self.actor, note_id=note)
        # 204 has no body: the undo handle travels in a header.
        return Response(status=status.HTTP_204_NO_CONTENT,
                        headers={"Appenda-Undo": undo_handle(self.workspace, change_set)["url"]})


class MemoryKeepView(WorkspaceAPIView):
    """Keeps the version of a held note the person saw (R-TAINT-6): from ``If-Match`` (the ETag of
    GET …/memories/{id}/, quoted or not) or ``{"version"}`` in the body. The service checks it."""

    def post(self, request, ws, note):
        kept, change_set = services.memory_keep(actor=self.actor, note_id=note, version=self._version_seen(request))
        return Response({**note_json(kept), "undo": undo_handle(self.workspace, change_set)})

    @staticmethod
    def _version_seen(request):
        """As sent: the service checks it after the note's visibility (R-RBAC-4)."""
        tags = [t.strip().removeprefix("W/").strip('"') for t in request.headers.get("If-Match", "").split(",")]
        tags = [t for t in tags if t]
        if tags:
            return tags[0] if len(tags) == 1 else tags
        return body(request).get("version")


class MemberMemoriesBlindView(WorkspaceAPIView):
    """A member's notes without their content (R-RBAC-3): ids, sizes, dates; delete them all."""

    def _target(self, user):
        if not self.actor.can("memory:blind_delete"):
            raise Forbidden("Only workspace admins and owners (or instance admins) can manage a member's notes.")
        return membership_get(actor=self.actor, user_ref=user)

    def get(self, request, ws, user):
        membership = self._target(user)
        notes = member_notes_blind(actor=self.actor, user_id=membership.user_id).only(
            "id", "key", "value", "state", "created_at", "updated_at", "trashed_at")
        items = [{"id": str(n.id), "size": n.size, "state": n.state, "created_at": n.created_at.isoformat(),
                  "updated_at": n.updated_at.isoformat(), "in_trash": n.trashed_at is not None} for n in notes]
        return Response({"user": membership.user_id, "count": len(items), "notes": items})

    def delete(self, request, ws, user):
        membership = self._target(user)
        change_set = services.member_notes_blind_delete(actor=self.actor, user_id=membership.user_id)
        return Response({"deleted": change_set.note_count if change_set else 0,
                         "change": str(change_set.id) if change_set else None})


class InstanceRuleListView(AppendaAPIView):
    def get(self, request):
        return Response([rule_json(r) for r in instance_rules.rules_all()])

    def post(self, request):
        data = body(request)
        rule, created = instance_rules.rule_save(user=request.user, key=required(data, "key"),
                                                 value=required(data, "value"))
        return Response(rule_json(rule), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class InstanceRuleDetailView(AppendaAPIView):
    def get(self, request, rule):
        return Response(rule_json(instance_rules.rule_get(rule)))

    def patch(self, request, rule):
        data = body(request)
        return Response(rule_json(instance_rules.rule_update(user=request.user, rule_id=rule, key=data.get("key"),
                                                             value=data.get("value"))))

    put = patch

    def delete(self, request, rule):
        instance_rules.rule_delete(user=request.user, rule_id=rule)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ToolListView(AppendaAPIView):
    permission_classes = [AllowAny]

    def get(self, request):
        return Response(tool_definitions())


class MeView(AppendaAPIView):
    def get(self, request):
        return Response({"id": request.user.pk, "email": request.user.email,
                         "instance_admin": is_instance_admin(request.user)})
