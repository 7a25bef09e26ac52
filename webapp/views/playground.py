"""The playground: play an agent's turn by hand and watch what memory does (the `make run` demo).

Start a turn as yourself or one of your bots, let it "read" a table (turn_record_read: the turn
is tainted), save a note through the same ``memory_save`` the tool calls (saved, held or
refused, with the code and the sentence), search, and see the context exactly as a model gets
it: the rendered block and its JSON. Nothing here decides anything: every outcome is the
services' answer, refusals included (a DomainError's code and detail are shown as they are).
"""

from __future__ import annotations

import json

from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from appenda.errors import DomainError
from memories import recall, services, turns
from memories.history import change_set_undo
from memories.models import Note, Turn
from memories.presenters import SHOW_HELD, SHOW_SAVED, held_reason_sentence
from webapp.access import workspace_page
from webapp.selectors import owned_bots, replaced_before, workspace_tables
from workspaces.capabilities import Actor

TURN_KINDS = [("chat", "A chat turn"), ("routine", "A routine run (a bot's scheduled job)")]


def _turn_view(actor: Actor, turn: Turn, *, with_context: bool = True) -> dict:
    """What the page shows of a turn: who runs it, what it read, its context as the model gets it."""
    shown = {"turn": turn, "bot": turns.turn_bot(turn), "reads": turns.turn_sources(turn)}
    if with_context:
        context = recall.turn_context(turn=turn, workspace=actor.workspace)
        shown.update(context=context, context_json=json.dumps(context, indent=2, ensure_ascii=False))
    return shown


def _base_context(actor: Actor) -> dict:
    return {
        "ws": actor.workspace,
        "bots": owned_bots(actor, deleted=False),
        "tables": workspace_tables(actor),
        "kinds": TURN_KINDS,
        "can_write_workspace": actor.can("memory:write_workspace"),
        "memory_url": reverse("memory", kwargs={"ws": actor.workspace.slug}),
    }


def _live_turn(actor: Actor, turn_id) -> tuple[Turn | None, DomainError | None]:
    try:
        return turns.turn_for_actor(actor=actor, turn_id=turn_id), None
    except DomainError as error:
        return None, error


def _answer(request, actor: Actor, section: str, extra: dict):
    """The full page for a plain POST; for htmx only the section the action changed."""
    context = {**_base_context(actor), **extra}
    if request.htmx:
        return render(request, f"webapp/playground/_{section}.html", context)
    return render(request, "webapp/playground/page.html", context)


@require_GET
@workspace_page("turns:start")
def playground_page(request, actor: Actor):
    return render(request, "webapp/playground/page.html", _base_context(actor))


@require_POST
@workspace_page("turns:start")
def playground_turn(request, actor: Actor):
    try:
        turn = turns.turn_start(actor=actor, kind=request.POST.get("kind") or "chat",
                                bot_ref=request.POST.get("bot") or None, table_ref=request.POST.get("table") or None)
    except DomainError as error:
        if error.status == 404:
            raise
        return _answer(request, actor, "turn", {"turn_error": error})
    return _answer(request, actor, "turn", _turn_view(actor, turn))


@require_POST
@workspace_page("turns:start")
def playground_read(request, actor: Actor):
    turn, error = _live_turn(actor, request.POST.get("turn"))
    if turn is None:
        return _answer(request, actor, "turn", {"turn_error": error})
    read_error = None
    try:
        turns.turn_record_read(actor=actor, turn_id=turn.id, source="table", ref=request.POST.get("table", ""))
    except DomainError as error_:
        read_error = error_
    turn.refresh_from_db()
    shown = _turn_view(actor, turn, with_context=not request.htmx)
    return _answer(request, actor, "reads", {**shown, "read_error": read_error})


@require_POST
@workspace_page("turns:start")
def playground_save(request, actor: Actor):
    turn, error = _live_turn(actor, request.POST.get("turn"))
    if turn is None:
        return _answer(request, actor, "turn", {"turn_error": error})
    table = request.POST.get("subject")
    outcome = {"key": request.POST.get("key", ""), "value": request.POST.get("value", "")}
    try:
        result = services.memory_save(
            actor=actor, turn_id=turn.id, key=outcome["key"], value=outcome["value"],
            layer=request.POST.get("layer") or None, subject={"kind": "table", "id": table} if table else None,
            pinned=request.POST.get("pinned") == "on",
        )
    except DomainError as refusal:
        outcome.update(state="refused", code=refusal.code, detail=refusal.detail)
    else:
        note = result.note
        held = note.state == Note.State.HELD
        outcome.update(
            state=note.state, note=note, code=note.held_reason, stripped=result.stripped,
            show=SHOW_HELD if held else SHOW_SAVED, detail=held_reason_sentence(note),
            replaced=None if result.created else replaced_before(actor.workspace, result.change_set),
            change=str(result.change_set.id) if result.change_set else None,
        )
    turn.refresh_from_db()
    shown = _turn_view(actor, turn, with_context=not request.htmx)
    return _answer(request, actor, "save", {**shown, "outcome": outcome})


@require_POST
@workspace_page("turns:start")
def playground_undo(request, actor: Actor):
    """The Undo of a save shown in step 3: the same undo as the toast's (``change_set_undo``)."""
    turn, error = _live_turn(actor, request.POST.get("turn"))
    if turn is None:
        return _answer(request, actor, "turn", {"turn_error": error})
    try:
        change_set_undo(actor=actor, change_set_id=request.POST.get("change"))
    except DomainError as refusal:
        if refusal.status == 404:
            raise
        outcome = {"state": "refused", "code": refusal.code, "detail": refusal.detail}
    else:
        outcome = {"state": "undone", "key": request.POST.get("key", "")}
    shown = _turn_view(actor, turn, with_context=not request.htmx)
    return _answer(request, actor, "save", {**shown, "outcome": outcome})


@require_POST
@workspace_page("turns:start")
def playground_search(request, actor: Actor):
    turn, error = _live_turn(actor, request.POST.get("turn"))
    if turn is None:
        return _answer(request, actor, "turn", {"turn_error": error})
    query = request.POST.get("q", "")
    try:
        found = recall.memory_search(actor=actor, turn_id=turn.id, query=query)
    except DomainError as refusal:
        search = {"query": query, "code": refusal.code, "detail": refusal.detail}
    else:
        search = {"query": query, "result": found, "json": json.dumps(found, indent=2, ensure_ascii=False)}
    shown = _turn_view(actor, turn, with_context=not request.htmx)
    return _answer(request, actor, "search", {**shown, "search": search})
