"""Settings → Agents → Memory (R-MANAGE-1, R-MANAGE-2, R-TAINT-4, R-RECALL-5).

The tabs list what ``memory_list_visible`` lets the caller see; every action calls the same
service as the API (memory_update, memory_keep, memory_delete, workspace_memory_switch), so a
role that may not change a note is refused there, whatever the page showed. A plain form POST
redirects back with a toast; an htmx POST gets the refreshed list (and the tab counts, out of
band) for the tab and filters the page shows, read from ``HX-Current-URL``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.http import QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from appenda.errors import DomainError, Forbidden
from memories import services
from memories.instance_rules import rules_all
from memories.models import Layer
from memories.presenters import undo_handle
from memories.scopes import can_change_note, person_settings
from memories.selectors import memory_get_visible
from webapp.access import back_url, workspace_page
from webapp.selectors import (
    TAB_ORDER,
    ListFilters,
    memory_tabs,
    note_row,
    note_rows,
    tab_notes,
    workspace_tables,
)
from webapp.toasts import after_action
from workspaces.capabilities import Actor
from workspaces.services import workspace_memory_switch


def _page_url(actor: Actor) -> str:
    return reverse("memory", kwargs={"ws": actor.workspace.slug})


def _tab(params) -> str:
    tab = params.get("tab", "mine")
    return tab if tab in TAB_ORDER else "mine"


def _list_context(actor: Actor, params) -> dict:
    tab = _tab(params)
    filters = ListFilters.from_request(params)
    tabs, bots = memory_tabs(actor)
    context = {"ws": actor.workspace, "actor": actor, "tab": tab, "tabs": tabs, "filters": filters,
               "tables": workspace_tables(actor), "page_url": _page_url(actor), "my_bots": bots["bots"]}
    if tab == "rules":
        context["rules"] = rules_all()
        context["can_edit_rules"] = actor.is_instance_admin
        return context
    rows = note_rows(actor, tab_notes(actor, tab, filters, bots))
    context["rows"] = rows
    if tab in ("bots", "deleted_bots"):
        context["bot_groups"] = [(bot, [r for r in rows if r.note.bot_id == bot.id]) for bot in bots[tab]]
    return context


def _switch_context(actor: Actor) -> dict:
    return {"ws": actor.workspace, "can_switch": actor.can("agents:manage"), "page_url": _page_url(actor)}


@require_GET
@workspace_page("memory:read")
def memory_page(request, actor: Actor):
    context = _list_context(actor, request.GET)
    if request.htmx and request.htmx.target == "notes-list":
        return render(request, "webapp/memory/_list_response.html", context)
    context.update(_switch_context(actor))
    context["person_memory_on"] = person_settings(actor.user.pk).enabled
    context["can_add_workspace"] = actor.can("memory:write_workspace")
    return render(request, "webapp/memory/page.html", context)


def _after_note_action(request, actor: Actor, message: str, change_set=None, *, kind: str = "ok"):
    """The answer to a row action: the refreshed list for htmx, a redirect back otherwise."""
    undo = undo_handle(actor.workspace, change_set)
    if request.htmx:
        current = urlsplit(request.htmx.current_url or "")
        params = QueryDict(current.query) if current.path == _page_url(actor) else QueryDict()
        response = render(request, "webapp/memory/_list_response.html", _list_context(actor, params))
    else:
        response = redirect(back_url(request, _page_url(actor)))
    return after_action(request, response, message, kind=kind, undo=undo)


@require_POST
@workspace_page("memory:read")
def note_pin(request, actor: Actor, note: str):
    pinned = request.POST.get("pinned") == "true"
    updated, change_set = services.memory_update(actor=actor, note_id=note, pinned=pinned)
    verb = "Pinned" if pinned else "Unpinned"
    return _after_note_action(request, actor, f"{verb} {updated.key}.", change_set)


@require_POST
@workspace_page("memory:read")
def note_keep(request, actor: Actor, note: str):
    """Keeps the version of the note the page showed (R-TAINT-6). A note saved again since is not
    kept: the person gets the list back, with its new text, and is asked to read it again."""
    try:
        kept, change_set = services.memory_keep(actor=actor, note_id=note, version=request.POST.get("version"))
    except DomainError as error:
        if error.code != "note_changed":
            raise
        return _after_note_action(request, actor, error.detail, kind="error")
    return _after_note_action(request, actor, f"Kept {kept.key}: agents can recall it from the next turn.",
                              change_set)


@require_POST
@workspace_page("memory:read")
def note_discard(request, actor: Actor, note: str):
    held = memory_get_visible(actor=actor, note_id=note)
    change_set = services.memory_delete(actor=actor, note_id=note, action="discard")
    return _after_note_action(request, actor, f"Discarded {held.key}.", change_set)


@require_POST
@workspace_page("memory:read")
def note_delete(request, actor: Actor, note: str):
    doomed = memory_get_visible(actor=actor, note_id=note)
    change_set = services.memory_delete(actor=actor, note_id=note)
    return _after_note_action(request, actor, f"Deleted {doomed.key}.", change_set)


@require_http_methods(["GET", "POST"])
@workspace_page("memory:read")
def note_edit(request, actor: Actor, note: str):
    """GET: the edit form (a row in place for htmx, a page otherwise). POST: memory_update."""
    current = memory_get_visible(actor=actor, note_id=note)
    if not can_change_note(actor, current):
        raise Forbidden("You may see this note but not change it; ask someone who can change its layer.")
    context = {"ws": actor.workspace, "row": note_row(actor, current), "page_url": _page_url(actor),
               "next": back_url(request, _page_url(actor))}
    if request.method == "POST":
        try:
            updated, change_set = services.memory_update(actor=actor, note_id=note, value=request.POST.get("value", ""))
        except DomainError as error:
            if error.status in (403, 404):
                raise
            context.update(error=error, value=request.POST.get("value", ""))
        else:
            return _after_note_action(request, actor, f"Saved {updated.key}.", change_set)
        if not request.htmx:
            return render(request, "webapp/memory/note_edit.html", context, status=422)
        # The form was aimed at the list; a refused edit goes back into its own row instead.
        response = render(request, "webapp/memory/_note_edit.html", context, status=422)
        return reswap(retarget(response, f"#note-{current.id}"), "outerHTML")
    template = "webapp/memory/_note_edit.html" if request.htmx else "webapp/memory/note_edit.html"
    return render(request, template, {**context, "value": current.value})


@require_GET
@workspace_page("memory:read")
def note_row_view(request, actor: Actor, note: str):
    """One row, as the list shows it (the edit form's Cancel puts it back)."""
    row = note_row(actor, memory_get_visible(actor=actor, note_id=note))
    return render(request, "webapp/memory/_note.html", {"ws": actor.workspace, "row": row, "page_url": _page_url(actor)})


@require_POST
@workspace_page("memory:read")
def note_add(request, actor: Actor):
    """A person's own save from the page: the same memory_save as the API's POST …/memories/."""
    layer = request.POST.get("layer") or Layer.MINE
    bot_ref = None
    if layer.startswith("bot:"):
        layer, bot_ref = Layer.BOT, layer.removeprefix("bot:")
    table = request.POST.get("table")
    result = services.memory_save(
        actor=actor, key=request.POST.get("key", ""), value=request.POST.get("value", ""), layer=layer,
        bot_ref=bot_ref, subject={"kind": "table", "id": table} if table else None,
        pinned=request.POST.get("pinned") == "on",
    )
    where = {Layer.MINE: "your notes", Layer.WORKSPACE: "the workspace's notes", Layer.BOT: "the bot's notes"}
    message = f"Saved {result.note.key} to {where.get(result.note.layer, 'memory')}."
    if result.stripped:
        message += f" Removed invisible characters: {', '.join(result.stripped)}."
    return _after_note_action(request, actor, message, result.change_set)


@require_POST
@workspace_page("memory:read")
def memory_switch(request, actor: Actor):
    enabled = request.POST.get("enabled") == "true"
    workspace_memory_switch(actor=actor, enabled=enabled)
    message = ("Memory is on: agents get their notes again." if enabled
               else "Memory is off: no notes reach a chat. Nothing was deleted.")
    if request.htmx:
        response = render(request, "webapp/memory/_switch.html", _switch_context(actor))
    else:
        response = redirect(back_url(request, _page_url(actor)))
    return after_action(request, response, message)


def workspace_home(request, ws: str):
    return redirect("memory", ws=ws)

