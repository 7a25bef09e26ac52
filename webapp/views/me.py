"""Your memory settings (R-MODE-1), in the reference page's words, saved through
``workspaces.services.person_memory_settings_update``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from appenda.errors import DomainError
from memories.scopes import person_settings
from webapp.toasts import toast
from workspaces.services import person_memory_settings_update

SAVE_MODES = [
    ("auto", "Save it and tell me", "In your own chats the note is saved at once. The chat shows “Saved to memory” "
     "with an Undo."),
    ("ask", "Ask me first", "The agent proposes the note and it waits for you to keep it."),
    ("always", "Always confirm", "Like Ask me first, and nothing can loosen it: no bot rule and no messaging "
     "setting can override it."),
    ("never", "Never", "Agents cannot save notes. They say that saving is off if you ask them to remember something."),
]
MESSAGING_SAVES = [
    ("ask", "Ask me first", "A note proposed in a chat from a messaging app waits for you."),
    ("paired_private", "Save it for a paired sender in a private chat",
     "Saved at once only when the sender is paired and the chat is one-to-one; otherwise it waits."),
    ("never", "Never", "No note is saved from messaging apps."),
]


@require_http_methods(["GET", "POST"])
@login_required
def my_memory_settings(request):
    current = person_settings(request.user.pk)
    error = None
    if request.method == "POST":
        fields = {
            "enabled": request.POST.get("enabled") == "on",
            "save_mode": request.POST.get("save_mode", current.save_mode),
            "messaging_save": request.POST.get("messaging_save", current.messaging_save),
        }
        try:
            person_memory_settings_update(user=request.user, **fields)
        except DomainError as error_:
            error = error_
        else:
            toast(request, "Your memory settings are saved.")
            return redirect("my-memory-settings")
    return render(request, "webapp/my_settings.html", {
        "current": current, "save_modes": SAVE_MODES, "messaging_saves": MESSAGING_SAVES, "error": error,
    }, status=422 if error else 200)
