"""The ONE place that decides what happens to a save: refuse, hold, or save (pure function).

Callers describe the situation (who saves, into which layer, in what kind of turn, what the
turn had read, which switches are off, what the detectors found, the person's and the bot's
save rules) and get a Decision back. Nothing here touches a database, so the decision can be
tested exhaustively; later rules extend this function, not its callers.

Order of the checks (the first that applies wins):
1. memory off at some level → refuse ``memory_off`` naming the narrowest level that is off;
2. the layer is not one this caller may write → refuse ``layer_not_allowed``;
3. a detector refused the text (secret, a person or record of the table) → refuse with its code;
4. the turn already made its 5 saves → refuse ``turn_save_limit``;
5. the strictest save rule is ``never`` → refuse ``saving_off``;
6. something says a person must look first → hold, with the first reason that applies
   (routine run, tainted turn, may name a person, messaging chat, ask first);
7. otherwise save.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

SAVE_MODES_LOOSEST_FIRST = ("auto", "ask", "always", "never")
# Turn kinds that are never looser than "ask" (issue 8): nobody is watching them happen.
KINDS_FLOORED_AT_ASK = frozenset({"routine", "subagent", "trigger", "messaging"})


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
    # None means "could not be read": the answer is then "ask".
    person_save_mode: str | None = "auto"
    bot_save_rule: str | None = None  # "always" | "never" | None (use the person's)
    messaging_save: str | None = "ask"
    messaging_direct: bool = False
    sender_paired: bool = False


@dataclass(frozen=True)
class Decision:
    outcome: Literal["save", "hold", "refuse"]
    code: str | None = None
    reason: str | None = None
    detail: str = ""
    effective_mode: str = "auto"
    extra: dict = field(default_factory=dict)


def strictest(*modes: str | None) -> str:
    """The strictest of save modes; an unreadable (None) mode counts as "ask"."""
    ranked = [SAVE_MODES_LOOSEST_FIRST.index(m if m in SAVE_MODES_LOOSEST_FIRST else "ask") for m in modes]
    return SAVE_MODES_LOOSEST_FIRST[max(ranked)]


def effective_save_mode(situation: SaveSituation) -> str:
    """Strictest wins over the person's level, the bot's rule, the messaging row and the chat kind."""
    if situation.origin == "person":
        return "auto"
    modes = [situation.person_save_mode, situation.bot_save_rule or "auto"]
    if situation.turn_kind in KINDS_FLOORED_AT_ASK:
        modes.append("ask")
    if situation.turn_kind == "messaging":
        row = situation.messaging_save
        if row == "never":
            modes.append("never")
        elif row == "paired_private" and situation.messaging_direct and situation.sender_paired:
            # The row may loosen the chat-kind floor for a paired sender in a one-to-one chat,
            # but never the person's own "always"/"never" (nor a bot's rule).
            modes = [situation.person_save_mode, situation.bot_save_rule or "auto"]
        elif row not in ("ask", "paired_private", "never"):
            modes.append("ask")
    return strictest(*modes)


OFF_LEVEL_SENTENCES = {
    "private_chat": "This chat is private: it neither reads nor saves memory. Turn memory on in the chat's Tools menu.",
    "bot": "This bot's memory choice is None: it reads and saves no notes. Its owner can change that in the bot form.",
    "user": "Memory is off in your settings. Turn it on under Your settings → Memory.",
    "workspace": "Memory is off for this workspace. Someone who manages its agents can turn it on in "
    "Settings → Agents → Memory.",
}


def decide(situation: SaveSituation) -> Decision:
    if situation.memory_off_level:
        return Decision(
            "refuse",
            code="memory_off",
            detail=OFF_LEVEL_SENTENCES.get(situation.memory_off_level, "Memory is off."),
            extra={"level": situation.memory_off_level},
        )
    if not situation.layer_allowed:
        return Decision(
            "refuse",
            code="layer_not_allowed",
            detail=f"You may not save to the {situation.layer} layer here; leave the layer out to use the one allowed.",
        )
    if situation.detector_refusal:
        code, detail = situation.detector_refusal
        return Decision("refuse", code=code, detail=detail)
    if situation.turn_kind and situation.saves_already_in_turn >= situation.max_saves_per_turn:
        return Decision(
            "refuse",
            code="turn_save_limit",
            detail=f"A turn saves at most {situation.max_saves_per_turn} notes; merge what is left into fewer notes "
            "or save it in a later turn.",
        )
    mode = effective_save_mode(situation)
    if mode == "never":
        return Decision(
            "refuse",
            code="saving_off",
            detail="Saving notes is off for this chat by the person's or the bot's setting; tell the person "
            "that saving is off if they ask you to remember something.",
            effective_mode=mode,
        )
    hold_reason = None
    if situation.turn_kind == "routine":
        hold_reason = "routine_run"
    elif situation.tainted_sources:
        hold_reason = "tainted_turn"
    elif situation.may_name_person:
        hold_reason = "may_name_person"
    elif situation.turn_kind == "messaging" and mode != "auto":
        hold_reason = "messaging_ask"
    elif mode in ("ask", "always"):
        hold_reason = "ask_first"
    if hold_reason:
        return Decision("hold", reason=hold_reason, effective_mode=mode)
    return Decision("save", effective_mode=mode)
