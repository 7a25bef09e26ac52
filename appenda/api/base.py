"""The base view of every workspace endpoint: resolves the workspace and the caller once.

Subclasses get ``self.workspace`` and ``self.actor`` (capabilities, role, bot) and call
``self.require("memory:write_workspace")``. A workspace the caller may not see answers 404 —
never 403 — so its existence does not leak (R-RBAC-1); a visible workspace with a missing
capability answers 403.
"""

from __future__ import annotations

import uuid

from rest_framework.views import APIView

from appenda.db.fast import select_one
from appenda.db.local import local_database_register
from appenda.errors import Forbidden, NotFound
from workspaces.capabilities import Actor, actor_for
from workspaces.models import Workspace

NOT_FOUND_SENTENCE = "No such workspace, or you are not a member of it."


def workspace_by_ref(ref: str) -> Workspace | None:
    """A workspace by its id (as in URLs) or its slug; a local one gets its database alias registered."""
    try:
        workspace_id = uuid.UUID(str(ref))
    except ValueError:
        workspace = Workspace.objects.filter(slug=ref).first()
    else:  # on every API request: a prepared read (appenda.db.fast)
        workspace = select_one(Workspace, "default", id=workspace_id)
    if workspace is not None and workspace.kind == Workspace.Kind.LOCAL:
        local_database_register(workspace)
    return workspace


class WorkspaceAPIView(APIView):
    workspace: Workspace
    actor: Actor

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        workspace = workspace_by_ref(kwargs["ws"])
        actor = actor_for(request.user, workspace) if workspace is not None else None
        if actor is None:
            raise NotFound(NOT_FOUND_SENTENCE)
        self.workspace = request.workspace = workspace
        self.actor = actor

    def require(self, capability: str, detail: str | None = None) -> None:
        if not self.actor.can(capability):
            raise Forbidden(detail or "Your role in this workspace does not allow this; ask a workspace admin.")
