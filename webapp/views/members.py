"""Members, for those who may delete a member's notes without reading them (R-RBAC-3).

The page shows each member with a count of their notes, never a key or a value: the counts
come from ``member_notes_blind`` and the delete calls ``member_notes_blind_delete``, which
records the deletion without content.
"""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from memories.services import member_notes_blind_delete
from webapp.access import workspace_page
from webapp.selectors import members_with_note_counts
from webapp.toasts import after_action
from workspaces.capabilities import Actor
from workspaces.services import membership_get


@require_GET
@workspace_page("memory:blind_delete")
def members_page(request, actor: Actor):
    return render(request, "webapp/members.html", {
        "ws": actor.workspace, "actor": actor, "members": members_with_note_counts(actor),
    })


@require_POST
@workspace_page("memory:blind_delete")
def member_notes_delete(request, actor: Actor, user: str):
    membership = membership_get(actor=actor, user_ref=user)
    change_set = member_notes_blind_delete(actor=actor, user_id=membership.user_id)
    count = change_set.note_count if change_set else 0
    message = f"Deleted {count} note{'s' if count != 1 else ''} of {membership.user.email}, unread."
    # No undo: a blind delete keeps no content to restore, by design.
    return after_action(request, redirect(reverse("members", kwargs={"ws": actor.workspace.slug})), message)
