"""The decision vocabulary: every reason a save is held or refused, in one registry.

Each entry is the rule's code, the HTTP status a refusal answers with, the sentence a person
reads, and whether a sender in a messaging chat may confirm a note held for it (R-MSG-1).
``memories.policy.decide`` picks the reason; services, the chat confirmation and the
presenters read its words and status here, so a reason is added or reworded in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Reason:
    code: str
    outcome: Literal["hold", "refuse"]
    sentence: str  # what a person reads (a refusal's detail may say more about the case)
    status: int = 400  # a refusal's HTTP status; a held save answers like a save
    chat_confirmable: bool = False  # a paired sender may confirm the held note from the chat


_REASONS = (
    # Held: a person looks first (R-TAINT-2, R-TAINT-3, R-SAVE-3b, R-MODE-1, R-MSG-1).
    Reason("routine_run", "hold", "saved in a routine run"),
    Reason("tainted_turn", "hold", "saved after the agent read other data in this turn"),
    Reason("may_name_person", "hold", "it may name a person"),
    Reason("messaging_ask", "hold", "it came from a messaging app", chat_confirmable=True),
    Reason("messaging_other_layer", "hold",
           "it came from a messaging app and is meant for notes beyond that conversation", chat_confirmable=True),
    Reason("background_run", "hold", "saved by a sub-agent or a trigger, which nobody watches as it runs"),
    Reason("ask_first", "hold", "your settings ask you first"),
    Reason("names_record_later", "hold",
           "it names a person or record that was added to a table after the note was saved"),
    # Refused: nothing is written.
    Reason("memory_off", "refuse", "Memory is off.", status=403),
    Reason("saving_off", "refuse", "Saving notes is off here.", status=403),
    Reason("layer_not_allowed", "refuse", "You may not save to that layer here.", status=403),
    Reason("undo_needs_person", "refuse", "The person chose Always confirm: your own undo waits for them.",
           status=403),
    # 409, not 429: the limit is the turn's state, not a rate; waiting and retrying cannot help.
    Reason("turn_save_limit", "refuse", "This turn has made all the saves a turn may make.", status=409),
    Reason("secret_detected", "refuse", "This note looks like it holds a secret; secrets never go into memory."),
    Reason("secret_across_notes", "refuse",
           "This note and one saved before it together hold a secret; secrets never go into memory, whole or in parts."),
    Reason("names_person", "refuse", "This note names a person of its table."),
    Reason("names_record", "refuse", "This note names a single record of its table."),
)
REASONS: dict[str, Reason] = {reason.code: reason for reason in _REASONS}

OFF_LEVEL_SENTENCES = {
    "private_chat": "This chat is private: it neither reads nor saves memory. Turn memory on in the chat's Tools menu.",
    "bot": "This bot's memory choice is None: it reads and saves no notes. Its owner can change that in the bot form.",
    "user": "Memory is off in your settings. Turn it on under Your settings → Memory.",
    "workspace": "Memory is off for this workspace. Someone who manages its agents can turn it on in "
    "Settings → Agents → Memory.",
}


def refusal_status(code: str | None) -> int:
    reason = REASONS.get(code or "")
    return reason.status if reason is not None and reason.outcome == "refuse" else 400


def hold_sentence(code: str | None) -> str:
    reason = REASONS.get(code or "")
    return reason.sentence if reason is not None else (code or "")


def chat_confirmable(code: str | None) -> bool:
    reason = REASONS.get(code or "")
    return reason is not None and reason.chat_confirmable


def held_because(*, state: str, held_reason: str | None, held_sources: list | None) -> str | None:
    """The sentence a person reads about why a note waits; None for a note that does not."""
    if state != "held":
        return None
    labels = [s.get("label") for s in held_sources or [] if s.get("label")]
    if held_reason == "tainted_turn" and labels:
        return f"saved after reading {', '.join(labels)}"
    return hold_sentence(held_reason)
