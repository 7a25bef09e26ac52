"""What the pages show, read through the memory core's selectors (never a second copy of the rules).

``memory_tabs`` and ``tab_notes`` narrow ``memories.selectors.memory_list_visible`` — they never
widen it — and ``note_rows`` adds what a person needs to read a row: who or what saved it, the
subject's name, why a held note waits and whether this caller may change it
(``memories.scopes.can_change_note``). Member counts come from ``member_notes_blind`` and never
touch a note's key or value.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Count, Q

from appenda.ids import parse_uuid
from memories.instance_rules import rules_active
from memories.models import Layer, Note, NoteChange
from memories.presenters import held_reason_sentence
from memories.scopes import can_change_note
from memories.search.hybrid import QuerysetNotes
from memories.search_cutoff import page_sections
from memories.selectors import member_notes_blind, memory_list_visible
from tables.models import Table
from workspaces.capabilities import Actor
from workspaces.models import Bot, Membership

TAB_ORDER = ("mine", "workspace", "bots", "rules", "held", "deleted_bots")
TAB_LABELS = {
    "mine": "Mine",
    "workspace": "Workspace",
    "bots": "Bots",
    "rules": "Instance rules",
    "held": "Waiting for you",
    "deleted_bots": "Deleted bots",
}
LIST_LIMIT = 200
RELATED_LIMIT = 10  # "Related by meaning": the closest few, never the whole list
ORIGIN_WORDS = {
    Note.Origin.PERSON: "in the web app",
    Note.Origin.AGENT_TURN: "in an agent's chat turn",
    Note.Origin.BOT_ROUTINE: "in a routine run",
    Note.Origin.IMPORT: "by an import",
}


@dataclass(frozen=True)
class ListFilters:
    query: str = ""
    state: str = ""  # "", "active", "held"
    pinned: bool | None = None
    subject: tuple[str, str] | None = None

    @classmethod
    def from_request(cls, params) -> ListFilters:
        state = params.get("state", "")
        pinned = {"yes": True, "no": False}.get(params.get("pinned", ""))
        subject = None
        table_id = parse_uuid(params.get("table", ""))
        if table_id:
            subject = ("table", str(table_id))
        return cls(
            query=params.get("q", "").strip()[:200],
            state=state if state in Note.State.values else "",
            pinned=pinned,
            subject=subject,
        )

    @property
    def active(self) -> bool:
        return bool(self.query or self.state or self.pinned is not None or self.subject)


@dataclass(frozen=True)
class NoteRow:
    note: Note
    can_change: bool
    saved_by: str
    subject_name: str | None
    held_because: str | None
    held_reads: list[str]
    reach: str | None = None  # how it reaches an agent (memories.context_preview.reach_of)


def owned_bots(actor: Actor, *, deleted: bool) -> list[Bot]:
    return list(
        Bot.objects.filter(workspace=actor.workspace, owner_id=actor.user.pk, deleted_at__isnull=not deleted)
        .order_by("name")
    )


def _tab_filter(tab: str, bots: dict[str, list[Bot]]) -> Q:
    """What narrows the visible notes to one tab (it never widens them)."""
    if tab == "mine":
        return Q(layer=Layer.MINE)
    if tab == "workspace":
        return Q(layer=Layer.WORKSPACE)
    if tab == "held":
        return Q(state=Note.State.HELD)
    if tab in ("bots", "deleted_bots"):
        return Q(layer=Layer.BOT, bot_id__in=[b.id for b in bots[tab]])
    raise ValueError(tab)


def memory_tabs(actor: Actor) -> tuple[list[dict], dict[str, list[Bot]]]:
    """The tabs with their counts (one query for all), and the person's live and deleted bots."""
    bots = {"bots": owned_bots(actor, deleted=False), "deleted_bots": owned_bots(actor, deleted=True)}
    note_tabs = [tab for tab in TAB_ORDER if tab != "rules"]
    counts = memory_list_visible(actor=actor).order_by().aggregate(
        **{tab: Count("id", filter=_tab_filter(tab, bots)) for tab in note_tabs}
    )
    counts["rules"] = len(rules_active())
    return [{"name": tab, "label": TAB_LABELS[tab], "count": counts[tab]} for tab in TAB_ORDER], bots


@dataclass(frozen=True)
class TabNotes:
    notes: list[Note]  # without a query: the tab's notes; with one: those holding its words
    related: list[Note]  # with a query: other notes close in meaning, above the cut-off
    below_cutoff: int  # with a query: the tab's other notes, not shown


def _tab_queryset(actor: Actor, tab: str, filters: ListFilters, bots: dict[str, list[Bot]]):
    notes = memory_list_visible(actor=actor).filter(_tab_filter(tab, bots))
    if filters.state and tab != "held":
        notes = notes.filter(state=filters.state)
    if filters.pinned is not None:
        notes = notes.filter(pinned=filters.pinned)
    if filters.subject:
        notes = notes.filter(subject_kind=filters.subject[0], subject_id=filters.subject[1])
    return notes


def tab_notes(actor: Actor, tab: str, filters: ListFilters, bots: dict[str, list[Bot]]) -> TabNotes:
    """The notes of a tab; with a query, words first, then related by meaning (memories.search_cutoff)."""
    notes = _tab_queryset(actor, tab, filters, bots)
    if not filters.query:
        return TabNotes(list(notes[:LIST_LIMIT]), [], 0)
    found = page_sections(QuerysetNotes(notes, str(actor.workspace.id)), filters.query,
                          words_limit=LIST_LIMIT, meaning_limit=RELATED_LIMIT)
    by_id = {str(n.id): n for n in notes.filter(id__in=[*found.by_words, *found.by_meaning])}
    return TabNotes([by_id[i] for i in found.by_words if i in by_id], [by_id[i] for i in found.by_meaning if i in by_id],
                    found.below_cutoff)


def held_count(actor: Actor) -> int:
    """How many notes wait for this person (the "Waiting for you" tab's count)."""
    if not actor.can("memory:read"):
        return 0
    return memory_list_visible(actor=actor).filter(state=Note.State.HELD).count()


def workspace_tables(actor: Actor) -> list[Table]:
    return list(Table.objects.for_workspace(actor.workspace).order_by("name"))


def _saved_by(note: Note, actor: Actor, people: dict[int, str], bot_names: dict[str, str]) -> str:
    how = ORIGIN_WORDS.get(note.origin, "")
    if note.created_by_bot_id:
        who = bot_names.get(str(note.created_by_bot_id), "a deleted bot")
    elif note.created_by_user_id == actor.user.pk:
        who = "You"
    else:
        who = people.get(note.created_by_user_id, "a former member")
    return f"{who}, {how}" if how else who


def note_rows(actor: Actor, notes: list[Note]) -> list[NoteRow]:
    user_ids = {n.created_by_user_id for n in notes if n.created_by_user_id}
    bot_ids = {n.created_by_bot_id for n in notes if n.created_by_bot_id}
    table_ids = {parse_uuid(n.subject_id) for n in notes if n.subject_kind == "table"} - {None}
    people = dict(get_user_model().objects.filter(id__in=user_ids).values_list("id", "email"))
    bot_names = {str(b.id): b.name for b in Bot.objects.filter(id__in=bot_ids)}
    tables = {str(t.id): t.name for t in Table.objects.for_workspace(actor.workspace).filter(id__in=table_ids)}
    rows = []
    for note in notes:
        subject_name = None
        if note.subject_kind == "table":
            subject_name = f"table {tables.get(note.subject_id, '(deleted)')}"
        elif note.subject_kind:
            subject_name = f"{note.subject_kind} {note.subject_id}"
        rows.append(NoteRow(
            note=note,
            can_change=can_change_note(actor, note),
            saved_by=_saved_by(note, actor, people, bot_names),
            subject_name=subject_name,
            held_because=held_reason_sentence(note),
            held_reads=[s.get("label") or s.get("ref", "") for s in note.held_sources or []],
        ))
    return rows


def note_row(actor: Actor, note: Note) -> NoteRow:
    return note_rows(actor, [note])[0]


@dataclass(frozen=True)
class MemberRow:
    user_id: int
    email: str
    role: str
    note_count: int


def members_with_note_counts(actor: Actor) -> list[MemberRow]:
    """Each member with how many ``mine`` notes they have — a count, never their content (R-RBAC-3)."""
    memberships = Membership.objects.filter(workspace=actor.workspace).select_related("user").order_by("user__email")
    return [
        MemberRow(m.user_id, m.user.email, m.role, member_notes_blind(actor=actor, user_id=m.user_id).count())
        for m in memberships
    ]


def replaced_before(workspace, change_set) -> dict | None:
    """What a save over an existing key replaced: the note's earlier snapshot, or None if it was new."""
    if change_set is None:
        return None
    change = NoteChange.objects.for_workspace(workspace).filter(change_set=change_set).order_by("id").first()
    return change.before if change is not None else None
