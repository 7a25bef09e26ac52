"""Settings → Agents → Memory (R-MANAGE-1, R-MANAGE-2, R-TAINT-4, R-RECALL-5).

The tabs list what ``memory_list_visible`` lets the caller see; every action calls the same
service as the API (memory_update, memory_keep, memory_delete, workspace_memory_switch), so a
role that may not change a note is refused there, whatever the page showed. A plain form POST
redirects back with a toast; an htmx POST gets the refreshed list (and the tab counts, out of
band) for the tab and filters the page shows, read from ``HX-Current-URL``.

Issue 19 on this page: search is words first, then "Related by meaning" above the search cut-off
(``memories.search_cutoff``); each note says how it reaches an agent and the budget shows what a
new chat carries (``memories.context_preview``, the same ``turn_context`` the Playground shows);
held notes are kept or discarded all at once, or edited then kept (``memories.held_bulk``); a save
over a key says what it replaces; a refusal stands beside its field (``webapp.form_errors``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from urllib.parse import urlsplit

from django.http import QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from appenda.errors import DomainError, Forbidden
from memories import held_bulk, services
from memories.context_preview import context_budget, context_preview, reach_of
from memories.instance_rules import rules_active
from memories.models import Layer, Note
from memories.presenters import undo_handle
from memories.scopes import can_change_note, person_settings
from memories.selectors import memory_get_visible
from webapp.access import back_url, workspace_page
from webapp.form_errors import field_error
from webapp.selectors import (
    TAB_ORDER,
    ListFilters,
    memory_tabs,
    note_row,
    note_rows,
    owned_bots,
    replaced_before,
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


def _with_reach(actor: Actor, rows: list, person_context: dict, bots: list) -> list:
    """Each row with how its note reaches an agent: the person's chat, or its bot's."""
    bot_ids = {str(r.note.bot_id) for r in rows if r.note.bot_id}
    by_id = {str(bot.id): bot for bot in bots}
    bot_contexts = {str(bot.id): context_preview(actor, bot=bot) for bot in bots
                    if str(bot.id) in bot_ids and bot.deleted_at is None}
    return [replace(r, reach=reach_of(r.note, person_context, bot_contexts, by_id)) for r in rows]


def _list_context(actor: Actor, params) -> dict:
    tab = _tab(params)
    filters = ListFilters.from_request(params)
    tabs, bots = memory_tabs(actor)
    person_context = context_preview(actor)
    context = {"ws": actor.workspace, "actor": actor, "tab": tab, "tabs": tabs, "filters": filters,
               "tables": workspace_tables(actor), "page_url": _page_url(actor), "my_bots": bots["bots"],
               "held_total": next(t["count"] for t in tabs if t["name"] == "held"),
               "budget": context_budget(person_context), "person_context": person_context}
    if tab == "rules":
        context["rules"] = rules_active()
        context["can_edit_rules"] = actor.is_instance_admin
        return context
    found = tab_notes(actor, tab, filters, bots)
    all_bots = bots["bots"] + bots["deleted_bots"]
    rows = _with_reach(actor, note_rows(actor, found.notes), person_context, all_bots)
    context.update(rows=rows, related_rows=_with_reach(actor, note_rows(actor, found.related), person_context, all_bots),
                   below_cutoff=found.below_cutoff)
    if tab == "held":
        shown = rows + context["related_rows"]
        context["held_versions"] = [f"{r.note.id}:{r.note.version}" for r in shown if r.can_change]
    if tab in ("bots", "deleted_bots"):
        context["bot_groups"] = [(bot, [r for r in rows if r.note.bot_id == bot.id]) for bot in bots[tab]]
    return context


def _preview_context(actor: Actor, params, person_context: dict | None = None) -> dict:
    """The "Preview what an agent sees" drawer: a new chat of the person or of one of their bots,
    with a table in view or none — the Playground's rendering of ``recall.turn_context``.
    ``person_context``: the person's own chat's, when the page has it already."""
    bots = {str(b.id): b for b in owned_bots(actor, deleted=False)}
    bot = bots.get(params.get("preview_bot", ""))
    tables = {str(t.id): t for t in workspace_tables(actor)}
    table = tables.get(params.get("preview_table", ""))
    if bot is None and table is None and person_context is not None:
        preview = person_context
    else:
        preview = context_preview(actor, bot=bot, table_id=table.id if table else None)
    return {"ws": actor.workspace, "page_url": _page_url(actor), "preview": preview,
            "preview_json": json.dumps(preview, indent=2, ensure_ascii=False), "preview_bot": bot,
            "preview_table": table, "my_bots": list(bots.values()), "tables": list(tables.values()),
            "preview_budget": context_budget(preview)}


def _switch_context(actor: Actor) -> dict:
    return {"ws": actor.workspace, "can_switch": actor.can("agents:manage"), "page_url": _page_url(actor)}


@require_GET
@workspace_page("memory:read")
def memory_page(request, actor: Actor):
    context = _list_context(actor, request.GET)
    if request.htmx and request.htmx.target == "notes-list":
        return render(request, "webapp/memory/_list_response.html", context)
    context.update(_switch_context(actor))
    context.update(_preview_context(actor, request.GET, context["person_context"]))
    context["person_memory_on"] = person_settings(actor.user.pk).enabled
    context["can_add_workspace"] = actor.can("memory:write_workspace")
    return render(request, "webapp/memory/page.html", context)


@require_GET
@workspace_page("memory:read")
def memory_preview(request, actor: Actor):
    """The preview drawer's content for another bot or table (the page itself without htmx)."""
    if not request.htmx:
        return redirect(f"{_page_url(actor)}?{request.GET.urlencode()}")
    return render(request, "webapp/memory/_preview.html", _preview_context(actor, request.GET))


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


def _seen_versions(request) -> dict[str, str]:
    """The held notes the page showed, as ``id:version`` pairs (R-TAINT-6)."""
    pairs = (raw.partition(":") for raw in request.POST.getlist("note"))
    return {note_id: version for note_id, _, version in pairs if note_id}


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


@require_POST
@workspace_page("memory:read")
def held_keep_all(request, actor: Actor):
    try:
        kept, change_set = held_bulk.held_keep_all(actor=actor, versions=_seen_versions(request))
    except DomainError as error:
        if error.code != "note_changed":
            raise
        return _after_note_action(request, actor, error.detail, kind="error")
    return _after_note_action(request, actor, f"Kept {_count(len(kept), 'note', 'notes')}: agents can recall "
                              f"{'it' if len(kept) == 1 else 'them'} from the next turn.", change_set)


@require_POST
@workspace_page("memory:read")
def held_discard_all(request, actor: Actor):
    try:
        doomed, change_set = held_bulk.held_discard_all(actor=actor, versions=_seen_versions(request))
    except DomainError as error:
        if error.code != "note_changed":
            raise
        return _after_note_action(request, actor, error.detail, kind="error")
    return _after_note_action(request, actor, f"Discarded {_count(len(doomed), 'held note', 'held notes')}.",
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
        value = request.POST.get("value", "")
        keep = current.state == Note.State.HELD and request.POST.get("keep") == "yes"
        try:
            if keep:
                updated, change_set = held_bulk.held_edit_keep(actor=actor, note_id=note, value=value,
                                                               version=request.POST.get("version"))
            else:
                updated, change_set = services.memory_update(actor=actor, note_id=note, value=value)
        except DomainError as error:
            if error.status in (403, 404):
                raise
            context.update(error=field_error(error, key=current.key, value=value), value=value)
        else:
            message = (f"Kept {updated.key} with your changes: agents can recall it from the next turn." if keep
                       else f"Saved {updated.key}. Replaces: “{current.value}”")
            return _after_note_action(request, actor, message, change_set)
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
    key, value = request.POST.get("key", ""), request.POST.get("value", "")
    try:
        result = services.memory_save(
            actor=actor, key=key, value=value, layer=layer, bot_ref=bot_ref,
            subject={"kind": "table", "id": table} if table else None, pinned=request.POST.get("pinned") == "on",
        )
    except DomainError as error:
        if error.status in (403, 404):
            raise
        return _add_form_refused(request, actor, error, key=key, value=value)
    where = {Layer.MINE: "your notes", Layer.WORKSPACE: "the workspace's notes", Layer.BOT: "the bot's notes"}
    message = f"Saved {result.note.key} to {where.get(result.note.layer, 'memory')}."
    before = None if result.created else replaced_before(actor.workspace, result.change_set)
    if before is not None:
        message += f" Replaces: “{before.get('value', '')}”"
    if result.stripped:
        message += f" Removed invisible characters: {', '.join(result.stripped)}."
    return _after_note_action(request, actor, message, result.change_set)


def _add_form_refused(request, actor: Actor, error: DomainError, *, key: str, value: str):
    """A refused "Add a note yourself": the form again, the sentence next to the field, the words marked."""
    tab = _tab(QueryDict(urlsplit(request.htmx.current_url or "").query)) if request.htmx else "mine"
    typed = {"key": key, "value": value, "layer": request.POST.get("layer", ""),
             "table": request.POST.get("table", ""), "pinned": request.POST.get("pinned") == "on"}
    form = {"ws": actor.workspace, "tab": tab, "my_bots": owned_bots(actor, deleted=False),
            "tables": workspace_tables(actor), "can_add_workspace": actor.can("memory:write_workspace"),
            "add_error": field_error(error, key=key, value=value), "add": typed}
    if request.htmx:
        response = render(request, "webapp/memory/_add.html", form, status=422)
        return reswap(retarget(response, "#add-note"), "outerHTML")
    page = _list_context(actor, QueryDict(f"tab={tab}"))
    for part in (_switch_context(actor), _preview_context(actor, QueryDict(), page["person_context"]), form):
        page.update(part)
    page["person_memory_on"] = person_settings(actor.user.pk).enabled
    return render(request, "webapp/memory/page.html", page, status=422)


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

