"""Private chats (R-PRIVATE-1): the chats a person made private in a workspace, each with a switch
that turns private off (memory back for that chat) and on again, and a form to make a chat
private by its id. The switch calls ``memories.turns.private_chat_switch``; the API does the
same through a turn's ``private`` (true, false, or left out to keep the chat as it is).
"""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from appenda.errors import DomainError
from memories.turns import private_chat_switch, private_chats_of
from webapp.access import workspace_page
from webapp.toasts import after_action
from workspaces.capabilities import Actor


def _page(request, actor: Actor, *, error: DomainError | None = None, chat_id: str = "", status: int = 200):
    return render(request, "webapp/private_chats.html", {
        "ws": actor.workspace, "actor": actor, "chats": private_chats_of(actor=actor), "error": error,
        "chat_id": chat_id,
    }, status=status)


@require_GET
@workspace_page("turns:start")
def private_chats_page(request, actor: Actor):
    return _page(request, actor)


@require_POST
@workspace_page("turns:start")
def private_chat_toggle(request, actor: Actor):
    """One chat's switch. From the list (htmx) it answers the row in its new state, so the
    person can flip it straight back; the plain form goes back to the page."""
    chat_id = request.POST.get("chat_id", "")
    wanted = request.POST.get("private") == "true"
    try:
        private = private_chat_switch(actor=actor, chat_id=chat_id, private=wanted)
    except DomainError as error:
        if error.status in (403, 404) or request.htmx:
            raise
        return _page(request, actor, error=error, chat_id=chat_id, status=422)
    message = (f"The chat {chat_id} is private: it neither reads nor saves memory." if private
               else f"The chat {chat_id} uses memory again.")
    if request.htmx:
        response = render(request, "webapp/_private_chat_row.html", {"ws": actor.workspace, "chat_id": chat_id,
                                                                     "private": private})
        return after_action(request, response, message)
    return after_action(request, redirect(reverse("private-chats", kwargs={"ws": actor.workspace.slug})), message)
