"""Typed answers of the turn API. Each keeps the server's JSON as ``raw`` for fields a newer
server adds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal


@dataclass(frozen=True)
class Note:
    """A note as recalled (context) or found (search): always active, quoted data for the model."""

    id: str
    key: str
    value: str
    layer: str
    pinned: bool = False
    subject: dict[str, str] | None = None
    section: str | None = None
    score: float | None = None

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> Note:
        score = body.get("score")
        return cls(id=str(body["id"]), key=body["key"], value=body["value"], layer=body["layer"],
                   pinned=bool(body.get("pinned", False)), subject=body.get("subject"),
                   section=body.get("section"), score=float(score) if score is not None else None)


@dataclass(frozen=True)
class Context:
    """A turn's context: the rendered block (``text``, give it to the model as data, never as the
    system prompt) and the same notes structured."""

    memory: Literal["on", "off"] | str
    text: str
    notes: list[Note]
    left_out: int = 0
    boundary: str | None = None
    off_level: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> Context:
        return cls(memory=body.get("memory", "on"), text=body.get("text", ""),
                   notes=[Note.from_json(n) for n in body.get("notes", [])],
                   left_out=int(body.get("left_out", 0)), boundary=body.get("boundary"),
                   off_level=body.get("off_level"), raw=body)


@dataclass(frozen=True)
class ReadResult:
    """A reported read: the turn is tainted from now on."""

    tainted: bool
    source: str
    ref: str
    label: str = ""
    redacted: bool = False
    stripped: list[str] = field(default_factory=list)

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> ReadResult:
        return cls(tainted=bool(body.get("tainted", True)), source=body.get("source", ""),
                   ref=body.get("ref", ""), label=body.get("label", ""),
                   redacted=bool(body.get("redacted", False)), stripped=list(body.get("stripped", [])))


@dataclass(frozen=True)
class SaveResult:
    """``memory_save``'s answer. ``show`` is what to tell the person ("Saved to memory" or
    "Waiting for you to keep it"); ``undo_change`` is what ``Turn.undo`` takes."""

    id: str
    state: Literal["active", "held"] | str
    show: str
    reason: str | None = None
    held_because: str | None = None
    undo_change: str | None = None
    undo_url: str | None = None
    key: str | None = None
    value: str | None = None
    layer: str | None = None
    pinned: bool = False
    created: bool = True
    stripped: list[str] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def held(self) -> bool:
        return self.state == "held"

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> SaveResult:
        undo = body.get("undo") or {}
        return cls(id=str(body["id"]), state=body["state"], show=body.get("show", ""),
                   reason=body.get("reason"), held_because=body.get("held_because"),
                   undo_change=undo.get("change"), undo_url=undo.get("url"), key=body.get("key"),
                   value=body.get("value"), layer=body.get("layer"), pinned=bool(body.get("pinned", False)),
                   created=bool(body.get("created", True)), stripped=list(body.get("stripped", [])), raw=body)


@dataclass(frozen=True)
class SearchResult:
    """``memory_search``'s answer: active notes best first, and the same as a quoted text block."""

    notes: list[Note]
    text: str
    boundary: str | None = None
    ranking: str | None = None
    min_score: float | None = None  # the cut-off: notes sharing no word with the query and less similar are left out
    left_out_below_cutoff: int = 0  # how many readable notes that cut-off left out
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> SearchResult:
        return cls(notes=[Note.from_json(n) for n in body.get("notes", [])], text=body.get("text", ""),
                   boundary=body.get("boundary"), ranking=body.get("ranking"), min_score=body.get("min_score"),
                   left_out_below_cutoff=int(body.get("left_out_below_cutoff", 0)), raw=body)


@dataclass(frozen=True)
class UndoResult:
    """``memory_undo``'s answer: ``state`` "done", or "held" when it waits for a person."""

    state: str
    change: str
    show: str
    action: str | None = None
    reason: str | None = None
    undo_change: str | None = None
    notes: list[dict[str, str]] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> UndoResult:
        undo = body.get("undo") or {}
        return cls(state=body["state"], change=str(body.get("change", "")), show=body.get("show", ""),
                   action=body.get("action"), reason=body.get("reason"), undo_change=undo.get("change"),
                   notes=list(body.get("notes", [])), raw=body)
