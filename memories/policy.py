"""The ONE place that decides what happens to a save: refuse, hold, or save (pure function).

Callers describe the situation (who saves, into which layer, in what kind of turn, what the
turn had read, which switches are off, what the detectors found, the person's, the bot's and
the messaging row's save rules, the messaging chat's kind and sender) and get a Decision back.
Nothing here touches a database, so the decision is tested exhaustively over every combination
of its inputs (tests/memories/test_policy_truth_table.py); later rules extend this function,
not its callers.

Strictest wins (R-MODE-2). The save modes, loosest first, are ``auto`` (save and tell me),
``ask`` (ask me first), ``always`` (always confirm) and ``never``. The rules that have a say:

- the person's level (any of the four); for an agent's save it is the starting point;
- the bot's save rule: ``always`` or ``never`` only, it can ask more than the person, never less;
- the chat kind: a routine run, a sub-agent and a trigger are never looser than ``ask``;
- the messaging row (``ask``, ``paired_private``, ``never``), for messaging chats only: with the
  person's level ``auto`` or ``ask`` the row decides (``paired_private`` saves at once only for a
  paired sender in a one-to-one chat, everything else asks); with ``always`` or ``never`` the
  person's level stands and the row cannot loosen it.

A setting that cannot be read (None, or a value this code does not know) counts as ``ask``: the
host asks. A person's own save in the web app is not an agent's proposal: only the detectors
and the layer permission have a say there.

Order of the checks for a save (the first that applies wins):
1. memory off at some level → refuse ``memory_off`` naming the narrowest level that is off;
2. the strictest save rule is ``never`` → refuse ``saving_off`` (the model is told saving is off);
3. the layer is not one this caller may write, or a messaging chat names another layer for an
   unpaired sender → refuse ``layer_not_allowed``;
4. a detector refused the text (secret, a person or record of the table) → refuse with its code;
5. the turn already made its 5 saves → refuse ``turn_save_limit``;
6. something says a person must look first → hold, with the first reason that applies:
   routine run, tainted turn, may name a person, a messaging chat naming another layer (never
   saved at once), a messaging chat that asks, a sub-agent or trigger, the mode asks;
7. otherwise save.

The model's own undo (``action="undo"``, the ``memory_undo`` tool, R-AGENT-3) goes through the
same function: memory off, saving off and a layer it may not write refuse it as above; under
``always`` it waits for the person (refused ``undo_needs_person``: the person undoes with the
note's Undo); in a routine run, a tainted turn, a sub-agent or a trigger it is held like a
save (the undo is not made; the person sees the request and can make it). Otherwise it goes on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from memories.reasons import OFF_LEVEL_SENTENCES

SAVE_MODES_LOOSEST_FIRST = ("auto", "ask", "always", "never")
BOT_SAVE_RULES = ("always", "never")
MESSAGING_ROWS = ("ask", "paired_private", "never")
# Turn kinds nobody watches as they happen: never looser than "ask" (issue 8).
KINDS_FLOORED_AT_ASK = frozenset({"routine", "subagent", "trigger"})
MESSAGING = "messaging"
CONVERSATION_LAYER = "conversation"
# A bot rule that says "use the person's level" (stored as null).
USE_MINE = (None, "use_mine")


@dataclass(frozen=True)
class SaveSituation:
    origin: Literal["person", "agent"]
    layer: str
    layer_allowed: bool = True
    memory_off_level: str | None = None
    turn_kind: str | None = None
    tainted_sources: tuple[str, ...] = ()
    saves_already_in_turn: int = 0
    max_saves_per_turn: int = 5
    detector_refusal: tuple[str, str] | None = None  # (code, detail)
    may_name_person: bool = False
    # None (or an unknown value) means "could not be read": the answer is then at least "ask".
    person_save_mode: str | None = "auto"
    # None / "use_mine" = use the person's level; an unknown value could not be read → "ask".
    bot_save_rule: str | None = None
    messaging_save: str | None = "ask"
    # Messaging chats only (R-MSG-1): one-to-one chat, and the sender paired with the person.
    messaging_direct: bool = False
    sender_paired: bool = False
    # "save": a save; "undo": the model's own undo of a change (``always`` makes it wait).
    action: Literal["save", "undo"] = "save"


@dataclass(frozen=True)
class Decision:
    outcome: Literal["save", "hold", "refuse"]
    code: str | None = None
    reason: str | None = None
    detail: str = ""
    effective_mode: str = "auto"
    extra: dict = field(default_factory=dict)


def strictest(*modes: str | None) -> str:
    """The strictest of save modes; an unreadable (None or unknown) mode counts as "ask"."""
    ranked = [SAVE_MODES_LOOSEST_FIRST.index(m if m in SAVE_MODES_LOOSEST_FIRST else "ask") for m in modes]
    return SAVE_MODES_LOOSEST_FIRST[max(ranked)]


def _messaging_mode(situation: SaveSituation) -> str:
    """The mode of a messaging chat before the bot's rule: the row decides unless the person
    chose ``always``/``never``; an unreadable level or row asks."""
    person = situation.person_save_mode
    if person in ("always", "never"):
        return person
    row = situation.messaging_save
    if row == "never":
        mode = "never"
    elif row == "paired_private" and situation.messaging_direct and situation.sender_paired:
        mode = "auto"
    else:  # "ask", an unreadable row, or paired_private outside a paired one-to-one chat
        mode = "ask"
    if person not in SAVE_MODES_LOOSEST_FIRST:
        mode = strictest(mode, "ask")
    return mode


def effective_save_mode(situation: SaveSituation) -> str:
    """Strictest wins over the person's level, the bot's rule, the messaging row and the chat kind."""
    if situation.origin == "person":
        return "auto"
    if situation.turn_kind == MESSAGING:
        mode = _messaging_mode(situation)
    else:
        mode = strictest(situation.person_save_mode)
        if situation.turn_kind in KINDS_FLOORED_AT_ASK:
            mode = strictest(mode, "ask")
    rule = situation.bot_save_rule
    if rule not in USE_MINE:
        mode = strictest(mode, rule if rule in BOT_SAVE_RULES else "ask")
    return mode


def _saving_off_sentence(situation: SaveSituation) -> str:
    if situation.bot_save_rule == "never":
        who = "this bot's save rule is Never (its owner can change it in the bot form)"
    elif situation.person_save_mode == "never":
        who = "the person chose Never under Your settings → Memory"
    else:
        who = "the person chose Never for messaging apps under Your settings → Memory"
    return (f"Saving notes is off here: {who}. Do not propose notes; if asked to remember something, "
            "say that saving is off.")




def _unwatched_or_tainted(situation: SaveSituation) -> str | None:
    """The hold reasons an agent's undo shares with its saves: a routine run, a tainted turn, a
    sub-agent or a trigger."""
    if situation.turn_kind == "routine":
        return "routine_run"
    if situation.tainted_sources:
        return "tainted_turn"
    if situation.turn_kind in KINDS_FLOORED_AT_ASK:
        return "background_run"
    return None


def decide(situation: SaveSituation) -> Decision:
    if situation.memory_off_level:
        return Decision(
            "refuse",
            code="memory_off",
            detail=OFF_LEVEL_SENTENCES.get(situation.memory_off_level, "Memory is off."),
            extra={"level": situation.memory_off_level},
        )
    mode = effective_save_mode(situation)
    if mode == "never":
        return Decision("refuse", code="saving_off", detail=_saving_off_sentence(situation), effective_mode=mode)
    messaging = situation.origin == "agent" and situation.turn_kind == MESSAGING
    other_layer = messaging and situation.layer != CONVERSATION_LAYER
    if not situation.layer_allowed or (other_layer and not situation.sender_paired):
        detail = f"You may not save to the {situation.layer} layer here; leave the layer out to use the one allowed."
        if situation.layer_allowed:
            detail = ("From a messaging chat, only a paired sender can ask for a note beyond this conversation; "
                      "leave the layer out to save to the conversation's notes.")
        return Decision("refuse", code="layer_not_allowed", detail=detail, effective_mode=mode)
    if situation.action == "undo":
        if situation.origin == "agent" and mode == "always":
            return Decision(
                "refuse",
                code="undo_needs_person",
                detail="The person chose Always confirm: your own undo waits for them. Tell them to use the Undo "
                "of the note.",
                effective_mode=mode,
            )
        hold_reason = _unwatched_or_tainted(situation)
        if hold_reason:
            return Decision("hold", reason=hold_reason, effective_mode=mode)
        return Decision("save", effective_mode=mode)
    if situation.detector_refusal:
        code, detail = situation.detector_refusal
        return Decision("refuse", code=code, detail=detail, effective_mode=mode)
    if situation.turn_kind and situation.saves_already_in_turn >= situation.max_saves_per_turn:
        return Decision(
            "refuse",
            code="turn_save_limit",
            detail=f"A turn saves at most {situation.max_saves_per_turn} notes; merge what is left into fewer notes "
            "or save it in a later turn.",
            effective_mode=mode,
        )
    hold_reason = None
    if situation.turn_kind == "routine":
        hold_reason = "routine_run"
    elif situation.tainted_sources:
        hold_reason = "tainted_turn"
    elif situation.may_name_person:
        hold_reason = "may_name_person"
    elif other_layer:
        hold_reason = "messaging_other_layer"
    elif messaging and mode != "auto":
        hold_reason = "messaging_ask"
    elif situation.turn_kind in KINDS_FLOORED_AT_ASK:
        hold_reason = "background_run"
    elif mode in ("ask", "always"):
        hold_reason = "ask_first"
    if hold_reason:
        return Decision("hold", reason=hold_reason, effective_mode=mode)
    return Decision("save", effective_mode=mode)
