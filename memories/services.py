"""Writes to notes. One save pipeline for every caller (R-SAVE-*, R-TAINT-*):

validate → inspect (refusals) → decide (memories.policy) → write in one transaction → audit.

The tool ``appenda_memory_save`` and a person's own save from the web app both call
``memory_save``; edits and keeps run the same inspection. Nothing is half-written: the note,
the turn's save count and the change set commit together or not at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from appenda.errors import Conflict, DomainError, Forbidden
from appenda.ids import parse_uuid
from memories import instance_rules
from memories.audit import change_set_record, note_snapshot
from memories.limits import SUBJECT_ID_MAX, SUBJECT_ID_PATTERN, SUBJECT_ID_SENTENCE, SUBJECT_KINDS
from memories.models import ChangeSet, Layer, Note, Turn
from memories.policy import Decision, SaveSituation, decide
from memories.reasons import hold_sentence, refusal_status
from memories.refusals.across_notes import inspect_across_notes
from memories.refusals.gate import inspect_note
from memories.scopes import (
    INSTANCE_SCOPE,
    WORKSPACE_SCOPE,
    bot_scope,
    can_change_note,
    conversation_id_of,
    conversation_scope,
    memory_off_level,
    person_settings,
    user_scope,
)
from memories.search.vectors import note_index_fields_soon, note_index_set
from memories.selectors import member_notes_blind, memory_get_visible
from memories.turns import turn_bot, turn_for_actor, turn_sources
from memories.validation import clean_note, require_version_seen
from tables.models import Table
from workspaces.capabilities import Actor
from workspaces.models import Bot


@dataclass
class SaveResult:
    note: Note | None
    decision: Decision
    created: bool = True
    change_set: ChangeSet | None = None
    stripped: tuple[str, ...] = ()
    rule: object | None = None  # an InstanceRule, for saves to the instance layer
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Target:
    layer: str
    scope: str
    owner_user_id: int | None = None
    bot_id: object | None = None
    conversation_id: str | None = None


def _subject(workspace, subject) -> tuple[str, str, Table | None] | None:
    if subject in (None, "", {}):
        return None
    if not isinstance(subject, dict) or subject.get("kind") not in SUBJECT_KINDS or not subject.get("id"):
        raise DomainError(
            'A subject is {"kind": "table|integration|workflow|skill", "id": "…"}.', code="invalid_subject"
        )
    kind, ref = subject["kind"], subject["id"]
    if kind == "table":
        table_id = parse_uuid(ref)
        table = Table.objects.for_workspace(workspace).filter(id=table_id).first() if table_id else None
        if table is None:
            raise DomainError("The subject table does not exist in this workspace.", code="subject_not_found")
        return kind, str(table.id), table
    if isinstance(ref, int) and not isinstance(ref, bool):
        ref = str(ref)  # some hosts number their workflows
    # Stored and shown as it is sent, so it is held to an id's form, never cut to fit (R-SAVE-8);
    # the sentence does not repeat it: a refused id may be a token.
    if not isinstance(ref, str) or not SUBJECT_ID_PATTERN.fullmatch(ref):
        length = f" (it has {len(ref)} characters)" if isinstance(ref, str) and len(ref) > SUBJECT_ID_MAX else ""
        raise DomainError(
            f"{SUBJECT_ID_SENTENCE}{length}.",
            code="invalid_subject",
        )
    return kind, ref, None


def _target_for_turn(actor: Actor, turn: Turn, bot: Bot | None, layer: str | None) -> tuple[Target | None, bool]:
    """Where a turn's save goes: (target, allowed). The host fills in the layer (R-AGENT-1).

    The bot's memory choice names the layers its saves may go to; a chat without a bot saves to
    the person's notes (and, for editors, the workspace's). A messaging chat saves to its
    conversation first; the layers of the bot's choice stay possible there, but the policy
    holds them for a paired sender's confirmation and refuses them for anyone else (R-MSG-1).
    """
    conversation = conversation_id_of(turn)
    mine = Target(Layer.MINE, user_scope(turn.user_id), owner_user_id=turn.user_id)
    own = Target(Layer.BOT, bot_scope(bot.id), bot_id=bot.id) if bot else None
    if bot is None:
        options, default = {Layer.MINE: mine}, Layer.MINE
    elif bot.memory in (Bot.MemoryChoice.MINE_AND_OWN, Bot.MemoryChoice.OWN):
        options, default = {Layer.BOT: own}, Layer.BOT
    elif bot.memory == Bot.MemoryChoice.MINE:
        options, default = {Layer.MINE: mine}, Layer.MINE
    elif bot.memory == Bot.MemoryChoice.NONE:
        options, default = {}, None
    else:  # "as before": the model chooses between the person's notes and the bot's own
        options, default = {Layer.MINE: mine, Layer.BOT: own}, Layer.BOT
    if conversation and default is not None:
        options[Layer.CONVERSATION] = Target(
            Layer.CONVERSATION, conversation_scope(conversation), conversation_id=conversation
        )
        default = Layer.CONVERSATION
    elif bot is None and actor.can("memory:write_workspace"):
        options[Layer.WORKSPACE] = Target(Layer.WORKSPACE, WORKSPACE_SCOPE)
    chosen = layer or default
    if chosen is None:
        return None, True  # memory is off at the bot level; the policy refuses
    return options.get(chosen), chosen in options


def _target_for_person(actor: Actor, layer: str | None, bot_ref) -> tuple[Target | None, bool]:
    layer = layer or Layer.MINE
    if layer == Layer.MINE:
        return Target(Layer.MINE, user_scope(actor.user.pk), owner_user_id=actor.user.pk), actor.can("memory:write_mine")
    if layer == Layer.WORKSPACE:
        return Target(Layer.WORKSPACE, WORKSPACE_SCOPE), actor.can("memory:write_workspace")
    if layer == Layer.BOT:
        bot_id = parse_uuid(bot_ref)
        bot = Bot.objects.filter(id=bot_id, workspace=actor.workspace, owner=actor.user).first() if bot_id else None
        if bot is None:
            raise DomainError("Name one of your bots in 'bot' to save to its notes.", code="bot_not_found")
        return Target(Layer.BOT, bot_scope(bot.id), bot_id=bot.id), True
    if layer == Layer.INSTANCE:
        return Target(Layer.INSTANCE, INSTANCE_SCOPE), actor.is_instance_admin
    return None, False


def _check_layer_name(layer) -> None:
    if layer not in (None, "") and layer not in Layer.values:
        raise DomainError(f"Unknown layer {layer!r}; use one of {', '.join(Layer.values)}.", code="invalid_layer")


def _upsert(workspace, target: Target, state: str, fields: dict) -> tuple[Note, dict | None, bool]:
    """Creates the note, or updates the one with the same key in the same scope and state."""
    alias = workspace.db_alias
    query = Note.objects.for_workspace(workspace).filter(
        scope=target.scope, key=fields["key"], state=state, trashed_at__isnull=True
    )
    existing = query.select_for_update().first()
    if existing is None:
        note = Note(workspace_id=workspace.id, layer=target.layer, scope=target.scope,
                    owner_user_id=target.owner_user_id, bot_id=target.bot_id,
                    conversation_id=target.conversation_id, state=state, **fields)
        try:
            with transaction.atomic(using=alias):
                note.save(using=alias)
            return note, None, True
        except IntegrityError:
            existing = query.select_for_update().first()  # a concurrent save of the same key won
            if existing is None:
                raise
    before = note_snapshot(existing)
    for name, value in fields.items():
        if name == "pinned" and not value:
            continue  # a save without pin keeps an existing pin
        setattr(existing, name, value)
    existing.save(using=alias)
    return existing, before, False


def memory_save(
    *, actor: Actor, key, value, layer=None, subject=None, pinned=False, turn_id=None, bot_ref=None,
    origin: str | None = None,
) -> SaveResult:
    _check_layer_name(layer)
    if not isinstance(pinned, bool):
        raise DomainError("pin is true or false.", code="invalid_pin")
    clean = clean_note(key, value)
    search_fields = note_index_fields_soon(clean.key, clean.value)  # the vector, while the detectors run
    workspace = actor.workspace
    subject_info = _subject(workspace, subject)
    if turn_id is None and actor.bot is not None:
        raise Forbidden("A bot saves notes through a turn: POST …/turns/{turn}/memory_save/.", code="bot_needs_turn")
    findings = inspect_note(workspace=workspace, key=clean.key, value=clean.value,
                            subject_table=subject_info[2] if subject_info else None,
                            subject_id=subject_info[1] if subject_info and subject_info[0] != "table" else None)
    alias = workspace.db_alias
    with transaction.atomic(using=alias):
        turn = bot = None
        settings_ = person_settings(actor.person_id)
        if turn_id is not None:
            turn = turn_for_actor(actor=actor, turn_id=turn_id, lock=True)
            bot = turn_bot(turn)
            target, allowed = _target_for_turn(actor, turn, bot, layer or None)
            off_level = memory_off_level(workspace=workspace, settings=settings_, bot=bot, turn=turn)
        else:
            target, allowed = _target_for_person(actor, layer or None, bot_ref)
            off_level = None  # people manage their notes in the web app even while memory is off
        channel = turn.channel if turn else {}
        if findings.refusal is None:  # half a token here, half in an earlier save (R-SAVE-2)
            findings = inspect_across_notes(
                workspace=workspace, turn_id=turn.id if turn else None,
                scope=target.scope if target else None, key=clean.key, value=clean.value,
            ) or findings
        decision = decide(
            SaveSituation(
                origin="agent" if turn else "person",
                layer=target.layer if target else (layer or "?"),
                layer_allowed=allowed and target is not None,
                memory_off_level=off_level,
                turn_kind=turn.kind if turn else None,
                tainted_sources=tuple(s["label"] for s in turn_sources(turn)) if turn and turn.tainted else (),
                saves_already_in_turn=turn.save_count if turn else 0,
                max_saves_per_turn=settings.APPENDA["MAX_SAVES_PER_TURN"],
                detector_refusal=findings.refusal,
                may_name_person=findings.may_name_person,
                person_save_mode=settings_.save_mode,
                bot_save_rule=bot.memory_save if bot else None,
                messaging_save=settings_.messaging_save,
                messaging_direct=channel.get("chat_kind") == "direct",
                sender_paired=bool(channel.get("sender_paired")),
            )
        )
        if decision.outcome == "refuse":
            raise DomainError(decision.detail, code=decision.code, status=refusal_status(decision.code),
                              **findings.refusal_fields, **decision.extra)
        if turn is None and target.layer == Layer.INSTANCE:
            rule, created = instance_rules.rule_save(actor=actor, key=clean.key, value=clean.value)
            return SaveResult(None, decision, created=created, stripped=clean.stripped, rule=rule)
        held = decision.outcome == "hold"
        sources = turn_sources(turn) if turn and turn.tainted else []
        fields = {
            "key": clean.key,
            "value": clean.value,
            **search_fields.result(),
            "subject_kind": subject_info[0] if subject_info else None,
            "subject_id": subject_info[1] if subject_info else None,
            "pinned": pinned,
            "origin": origin or (
                Note.Origin.BOT_ROUTINE if turn and turn.kind == Turn.Kind.ROUTINE
                else Note.Origin.AGENT_TURN if turn else Note.Origin.PERSON
            ),
            "created_by_user_id": actor.person_id,
            "created_by_bot_id": bot.id if bot else None,
            "turn_id": turn.id if turn else None,
            "held_reason": decision.reason if held else None,
            "held_sources": sources if held else [],
            "held_until": timezone.now() + settings.APPENDA["HELD_TTL"] if held else None,
        }
        note, before, created = _upsert(workspace, target, Note.State.HELD if held else Note.State.ACTIVE, fields)
        if turn is not None:
            Turn.objects.using(alias).filter(pk=turn.pk).update(save_count=turn.save_count + 1)
        change_set = change_set_record(
            workspace=workspace,
            action="hold" if held else ("save" if created else "update"),
            actor_user_id=actor.person_id,
            actor_bot_id=bot.id if bot else None,
            turn_id=turn.id if turn else None,
            changes=[(note, before, note_snapshot(note))],
            reason=hold_sentence(decision.reason) if decision.reason else "",
        )
    return SaveResult(note, decision, created=created, change_set=change_set, stripped=clean.stripped)


def _require_change(actor: Actor, note: Note) -> None:
    if not can_change_note(actor, note):
        raise Forbidden("You may see this note but not change it; ask someone who can change its layer.")


def _refuse_if_flagged(workspace, note: Note, *, value: str) -> None:
    """Raises the refusal the detectors find in ``note`` with this value (R-SAVE-2, R-SAVE-3),
    checked against its table's records as they are now."""
    table = None
    if note.subject_kind == "table":
        table = Table.objects.for_workspace(workspace).filter(id=parse_uuid(note.subject_id)).first()
    findings = inspect_note(workspace=workspace, key=note.key, value=value, subject_table=table,
                            subject_id=note.subject_id if note.subject_kind not in (None, "table") else None)
    if not findings.refusal:  # an edit that completes a secret with an earlier version (R-SAVE-2)
        findings = inspect_across_notes(workspace=workspace, turn_id=None, scope=note.scope, key=note.key,
                                        value=value) or findings
    if findings.refusal:
        code, detail = findings.refusal
        raise DomainError(detail, code=code, **findings.refusal_fields)


def memory_update(*, actor: Actor, note_id, value=None, pinned=None) -> tuple[Note, ChangeSet]:
    if value is None and pinned is None:
        raise DomainError("Send value, pinned, or both.", code="nothing_to_change")
    if pinned is not None and not isinstance(pinned, bool):
        raise DomainError("pinned is true or false.", code="invalid_pin")
    workspace = actor.workspace
    alias = workspace.db_alias
    with transaction.atomic(using=alias):
        note = memory_get_visible(actor=actor, note_id=note_id, for_update=True)
        _require_change(actor, note)
        before = note_snapshot(note)
        action = "pin" if value is None else "edit"
        if value is not None:
            clean = clean_note(note.key, value)
            _refuse_if_flagged(workspace, note, value=clean.value)
            note.value = clean.value
            note_index_set(note)
        if pinned is not None:
            note.pinned = pinned
            if value is None:
                action = "pin" if pinned else "unpin"
        note.save(using=alias)
        change_set = change_set_record(
            workspace=workspace, action=action, actor_user_id=actor.person_id,
            actor_bot_id=actor.bot.id if actor.bot else None, changes=[(note, before, note_snapshot(note))],
        )
    return note, change_set


def memory_delete(*, actor: Actor, note_id, action: str = "delete") -> ChangeSet:
    workspace = actor.workspace
    with transaction.atomic(using=workspace.db_alias):
        note = memory_get_visible(actor=actor, note_id=note_id, for_update=True)
        _require_change(actor, note)
        before = note_snapshot(note)
        change_set = change_set_record(
            workspace=workspace, action=action, actor_user_id=actor.person_id,
            actor_bot_id=actor.bot.id if actor.bot else None, changes=[(note, before, None)],
        )
        note.delete()
    return change_set


def memory_keep(*, actor: Actor, note_id, version) -> tuple[Note, ChangeSet]:
    """A person keeps a held note: it becomes active (replacing an active note with the same key).

    ``version`` is the ``Note.version`` the person saw (R-TAINT-6), as the client sent it. An
    agent's later save of the same key rewrites the held note, so without it a keep could make
    active a text nobody read. It is compared under the row lock, which every save of the note
    takes too."""
    if actor.bot is not None:
        raise Forbidden("Only a person can keep a held note; a bot cannot approve its own saves.", code="person_required")
    workspace = actor.workspace
    alias = workspace.db_alias
    with transaction.atomic(using=alias):
        held = memory_get_visible(actor=actor, note_id=note_id, for_update=True)
        _require_change(actor, held)
        version = require_version_seen(version, what="note")
        if held.state != Note.State.HELD:
            raise DomainError("This note is not waiting; only held notes can be kept.", code="not_held", status=409)
        if version != held.version:
            raise DomainError(
                "This note changed since you saw it; look at it again before keeping it.",
                code="note_changed", status=409,
            )
        kept, changes = held_note_activate(workspace=workspace, held=held)
        change_set = change_set_record(workspace=workspace, action="keep", actor_user_id=actor.user.pk, changes=changes)
    return kept, change_set


def held_note_activate(*, workspace, held: Note) -> tuple[Note, list]:
    """Makes a (locked) held note active, replacing an active note with the same key; returns the
    kept note and the changes for its change set. The caller holds the transaction and has
    checked that this keep is allowed (a person's keep, or a paired sender's confirmation).

    The note is checked again first: records added to its table while it waited may be named by
    it now, and a kept note is recalled (R-SAVE-3)."""
    alias = workspace.db_alias
    _refuse_if_flagged(workspace, held, value=held.value)
    active = _active_same_key(workspace, held)
    if active is None:
        before = note_snapshot(held)
        held.state, held.held_until = Note.State.ACTIVE, None
        try:
            with transaction.atomic(using=alias):
                held.save(using=alias)
            return held, [(held, before, note_snapshot(held))]
        except IntegrityError:
            # A save of the same key made an active note while this keep ran and committed
            # first: the keep replaces it, as if it had come just after (R-OPS-1: no 500).
            held.refresh_from_db(using=alias)
            active = _active_same_key(workspace, held)
            if active is None:
                raise Conflict("Another change to this note's key happened at the same moment; look at the "
                               "note again and keep it once more.", code="concurrent_change") from None
    before = note_snapshot(active)
    changes = [(held, note_snapshot(held), None)]
    active.value, active.subject_kind, active.subject_id = held.value, held.subject_kind, held.subject_id
    active.search_text, active.search_terms, active.embedding = held.search_text, held.search_terms, held.embedding
    active.pinned = active.pinned or held.pinned
    # A queryset delete keeps ``held.id`` for the change set (``held.delete()`` would clear it).
    Note.objects.for_workspace(workspace).filter(id=held.id).delete()
    active.save(using=alias)
    changes.append((active, before, note_snapshot(active)))
    return active, changes


def _active_same_key(workspace, held: Note) -> Note | None:
    """The active note with the held note's key in its scope, locked."""
    return Note.objects.for_workspace(workspace).select_for_update().filter(
        scope=held.scope, key=held.key, state=Note.State.ACTIVE, trashed_at__isnull=True
    ).first()


def active_note_hold(*, workspace, note: Note, reason: str, actor_user_id: int | None = None) -> ChangeSet:
    """Moves a (locked) active note to held for ``reason`` (a memories.reasons code), audited as a
    hold; the caller holds the transaction. The twin of ``held_note_activate``: used when
    something learnt after the save (a record added to a table, issue 18) says a person should
    look at the note again. When a held note of the same key already waits, this one goes to
    the trash held (one held note per key), from where a person can bring it back."""
    before = note_snapshot(note)
    now = timezone.now()
    note.state, note.held_reason, note.held_sources = Note.State.HELD, reason, []
    note.held_until = now + settings.APPENDA["HELD_TTL"]
    if Note.objects.for_workspace(workspace).filter(
        scope=note.scope, key=note.key, state=Note.State.HELD, trashed_at__isnull=True
    ).exclude(id=note.id).exists():
        note.trashed_at = now
    try:
        with transaction.atomic(using=workspace.db_alias):  # a savepoint: a held save may win the race
            note.save(using=workspace.db_alias)
    except IntegrityError:
        # A save of the same key was held between the check and this write: this note goes to
        # the trash held instead, as if that save had come first.
        note.trashed_at = now
        note.save(using=workspace.db_alias)
    return change_set_record(workspace=workspace, action="hold", actor_user_id=actor_user_id,
                             changes=[(note, before, note_snapshot(note))], reason=hold_sentence(reason))


def member_notes_blind_delete(*, actor: Actor, user_id: int) -> ChangeSet | None:
    """Deletes a member's ``mine`` notes without reading them (R-RBAC-3)."""
    if not actor.can("memory:blind_delete"):
        raise Forbidden("Only workspace admins and owners (or instance admins) can delete a member's notes.")
    workspace = actor.workspace
    with transaction.atomic(using=workspace.db_alias):
        notes = list(member_notes_blind(actor=actor, user_id=user_id).select_for_update().only(
            "id", "key", "value", "layer", "scope"))
        if not notes:
            return None
        change_set = change_set_record(
            workspace=workspace, action="blind_delete", actor_user_id=actor.user.pk,
            changes=[(n, None, None) for n in notes], blind=True, target_user_id=user_id,
        )
        Note.objects.using(workspace.db_alias).filter(id__in=[n.id for n in notes]).delete()
    return change_set
