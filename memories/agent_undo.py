"""The model's own undo: the ``memory_undo`` tool of a turn (R-AGENT-3, R-MANAGE-3).

An agent undoes only a change its own turns made (turns started by the same token, for the
same bot), and only from inside a turn, so its undo is decided like its saves by
``memories.policy.decide``: memory off, saving off and a layer it may not write refuse it;
under Always confirm it waits for the person (``undo_needs_person``); in a routine run, a
tainted turn, a sub-agent or a trigger it is **held**: nothing is undone, the request is
recorded in the audit (``undo_requested``) and the person makes it with the change's Undo.
An undo said in a messaging chat is the sender's (``memories.messaging.chat_undo_check``).

Answers carry ids and states, never a note's text: what an undo brings back may be text the
agent never wrote (a person's earlier version), and a bot's token reads notes only through
its context and search (R-AGENT-5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from django.db import transaction

from appenda.errors import DomainError, Forbidden, NotFound
from memories.audit import change_set_record
from memories.history import change_set_get_visible, undo_change_set, undoable_note_changes
from memories.models import ChangeSet, Turn
from memories.policy import Decision, SaveSituation, decide
from memories.reasons import hold_sentence
from memories.scopes import memory_off_level, person_settings
from memories.turns import turn_bot, turn_for_actor, turn_sources
from workspaces.capabilities import Actor

NOT_YOURS = "No change made by your turns has this id; an agent undoes only the changes its own turns made."


@dataclass(frozen=True)
class AgentUndo:
    state: Literal["done", "held"]
    target: ChangeSet  # the change the agent asked to undo
    undo: ChangeSet | None = None  # the undo's own change set, when done
    reason: str | None = None  # the hold reason, when held


def _decision(actor: Actor, turn: Turn, change_set: ChangeSet) -> Decision:
    bot = turn_bot(turn)
    person = person_settings(turn.user_id)
    channel = turn.channel or {}
    decision = decide(SaveSituation(
        origin="agent", action="undo", layer=change_set.layer or "?",
        memory_off_level=memory_off_level(workspace=actor.workspace, settings=person, bot=bot, turn=turn),
        turn_kind=turn.kind, person_save_mode=person.save_mode,
        tainted_sources=tuple(s["label"] for s in turn_sources(turn)) if turn.tainted else (),
        bot_save_rule=bot.memory_save if bot else None, messaging_save=person.messaging_save,
        messaging_direct=channel.get("chat_kind") == "direct", sender_paired=bool(channel.get("sender_paired")),
    ))
    if decision.outcome == "refuse":
        raise Forbidden(decision.detail, code=decision.code, **decision.extra)
    return decision


def _made_by_own_turn(workspace, turn: Turn, change_set: ChangeSet) -> bool:
    if change_set.turn_id is None:
        return False
    origin = Turn.objects.for_workspace(workspace).filter(id=change_set.turn_id).first()
    return origin is not None and origin.caller_user_id == turn.caller_user_id and origin.bot_id == turn.bot_id


def _undo_in_turn(actor: Actor, turn: Turn, change_set: ChangeSet) -> AgentUndo:
    """Decides and makes (or holds) one undo; the caller holds the transaction and the locks."""
    decision = _decision(actor, turn, change_set)
    if turn.kind == Turn.Kind.MESSAGING:
        from memories.messaging import chat_undo_check  # messaging builds on the save pipeline

        chat_undo_check(workspace=actor.workspace, turn=turn, change_set=change_set)
    undoable_note_changes(actor.workspace, change_set)  # 409 for what no one can undo, held or not
    if decision.outcome == "hold":
        change_set_record(
            workspace=actor.workspace, action="undo_requested", actor_user_id=turn.user_id,
            actor_bot_id=turn.bot_id, turn_id=turn.id, changes=[], layer=change_set.layer, scope=change_set.scope,
            reason=f"an agent asked to undo {change_set.action} {change_set.id} ({hold_sentence(decision.reason)})",
        )
        return AgentUndo("held", change_set, reason=decision.reason)
    return AgentUndo("done", change_set, undo_change_set(actor, change_set, turn_id=turn.id))


def memory_undo(*, actor: Actor, turn_id, change_set_id) -> AgentUndo:
    """The ``memory_undo`` tool: undo one change this agent's turns made."""
    if change_set_id in (None, ""):
        raise DomainError("Name the change to undo in change (the id of a save's undo handle).",
                          code="missing_field", field="change")
    with transaction.atomic(using=actor.workspace.db_alias):
        turn = turn_for_actor(actor=actor, turn_id=turn_id, lock=True)
        try:
            change_set = change_set_get_visible(actor=actor, change_set_id=change_set_id, for_update=True)
        except NotFound:
            raise NotFound(NOT_YOURS, code="not_found") from None
        if not _made_by_own_turn(actor.workspace, turn, change_set):
            raise NotFound(NOT_YOURS, code="not_found")
        return _undo_in_turn(actor, turn, change_set)


def turn_undo(*, actor: Actor, turn_id) -> list[AgentUndo]:
    """Undoes everything one turn changed, newest first, all or nothing."""
    with transaction.atomic(using=actor.workspace.db_alias):
        turn = turn_for_actor(actor=actor, turn_id=turn_id, lock=True)
        change_sets = list(
            ChangeSet.objects.for_workspace(actor.workspace).select_for_update().filter(
                turn_id=turn.id, undo_of__isnull=True, undone_at__isnull=True,
            ).exclude(action="undo_requested").order_by("-created_at")
        )
        return [_undo_in_turn(actor, turn, change_set) for change_set in change_sets]
