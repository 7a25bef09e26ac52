"""Reads of notes, always scoped to what the caller may see (R-RBAC-1, R-RBAC-2).

Every function takes the Actor and filters by its workspace and visible layers; there is no
way to fetch a note by id alone.
"""

from __future__ import annotations

from django.db import connections
from django.db.models import Q, QuerySet
from django.utils import timezone

from appenda.db.fast import execute, fast_cursor
from appenda.errors import NotFound
from appenda.ids import parse_uuid
from memories.models import Layer, Note
from memories.scopes import owned_scopes, person_visible_filter
from workspaces.capabilities import Actor


def live_notes(workspace) -> QuerySet:
    """Notes not in the trash, and no held note past its expiry (checked at read time)."""
    now = timezone.now()
    return Note.objects.for_workspace(workspace).filter(trashed_at__isnull=True).exclude(
        state=Note.State.HELD, held_until__lte=now
    )


def memory_list_visible(
    *, actor: Actor, layer: str | None = None, state: str | None = None, subject: tuple[str, str] | None = None,
    pinned: bool | None = None, bot_id=None,
) -> QuerySet:
    notes = live_notes(actor.workspace).filter(person_visible_filter(actor))
    if layer:
        notes = notes.filter(layer=layer)
    if state:
        notes = notes.filter(state=state)
    if subject:
        notes = notes.filter(subject_kind=subject[0], subject_id=subject[1])
    if pinned is not None:
        notes = notes.filter(pinned=pinned)
    if bot_id:
        notes = notes.filter(bot_id=bot_id)
    return notes.order_by("-pinned", "layer", "key")


def memory_get_visible(*, actor: Actor, note_id, for_update: bool = False) -> Note:
    note_uuid = parse_uuid(note_id)
    query = live_notes(actor.workspace).filter(person_visible_filter(actor))
    if for_update:
        query = query.select_for_update()
    note = query.filter(id=note_uuid).first() if note_uuid else None
    if note is None:
        raise NotFound("No such note, or you may not see it.", code="not_found")
    return note


def trashed_note_visible(*, actor: Actor, note_id) -> Note:
    """A note in the trash as the caller sees it: a person, in their own trash; a bot, by the
    layers it could see (it may learn the note exists, then is told the trash is for people)."""
    note_uuid = parse_uuid(note_id)
    notes = Note.objects.for_workspace(actor.workspace).filter(trashed_at__isnull=False)
    if actor.bot is not None:
        notes = notes.filter(person_visible_filter(actor))
    else:
        notes = notes.filter(scope__in=owned_scopes(actor))
    note = notes.filter(id=note_uuid).first() if note_uuid else None
    if note is None:
        raise NotFound("No such note in your trash.", code="not_found")
    return note


def member_notes_blind(*, actor: Actor, user_id: int) -> QuerySet:
    """A member's ``mine`` notes for blind listing and deletion, those in their trash included (a
    blind delete that left them there would be undone by the member's restore); callers never
    read key or value."""
    return Note.objects.for_workspace(actor.workspace).filter(Q(layer=Layer.MINE, owner_user_id=user_id))


#: What the turn's context shows of a note (``memories.recall``), in this order.
CONTEXT_COLUMNS = ("id", "key", "value", "layer", "pinned", "subject_kind", "subject_id")


def _in(connection, column: str, values: list) -> tuple[str, list]:
    if connection.vendor == "postgresql":  # one array parameter: one prepared statement, whatever the count
        return f"{column} = ANY(%s)", [list(values)]
    return f"{column} IN ({', '.join(['%s'] * len(values))})", list(values)


def context_rows(workspace, sections: dict[str, list[str]], table_id: str | None, limit: int
                 ) -> tuple[list[tuple[str, tuple]], int]:
    """The notes a turn's context may show, read at most ``limit`` per section, and how many the
    sections hold in all (notes in two sections counted once).

    ``sections``: section name -> the readable scopes whose pinned active notes it shows, newest
    first; with ``table_id``, the section ``table`` holds the readable notes about that table,
    pinned first, then newest. Rows are ``(section, (CONTEXT_COLUMNS…))``, ids as text. One
    statement reads every section (each its own ``ORDER BY … LIMIT``: a workspace with thousands
    of pinned notes is read no further than the context can show); a second counts them only
    when a section was cut at ``limit``."""
    connection = connections[workspace.db_alias]
    quote = connection.ops.quote_name
    table = quote(Note._meta.db_table)
    workspace_param = Note._meta.get_field("workspace_id").get_db_prep_value(workspace.id, connection)
    postgres = connection.vendor == "postgresql"
    # Constants written out, not parameters: a prepared statement's generic plan can then use
    # the partial index of live pinned notes (migration memories.0008) that reads only the
    # newest ``limit`` of a section.
    live = f"{quote('workspace_id')} = %s AND {quote('state')} = 'active' AND {quote('trashed_at')} IS NULL"
    live_params = [workspace_param]
    columns = ", ".join(["CAST(id AS TEXT)" if postgres else "id", *(quote(c) for c in CONTEXT_COLUMNS[1:])])
    pinned = quote("pinned") if postgres else f"{quote('pinned')} = 1"
    parts, params, every_scope = [], [], []
    for number, (section, scopes) in enumerate(sections.items()):
        if not scopes:
            continue
        every_scope += scopes
        condition, scope_params = _in(connection, quote("scope"), scopes)
        parts.append(f"SELECT * FROM (SELECT %s AS section, {columns} FROM {table} WHERE {live} AND {pinned} AND "
                     f"{condition} ORDER BY {quote('updated_at')} DESC, id LIMIT %s) AS s{number}")
        params += [section, *live_params, *scope_params, limit]
    about = f"{quote('subject_kind')} = %s AND {quote('subject_id')} = %s"
    if table_id and every_scope:
        condition, scope_params = _in(connection, quote("scope"), every_scope)
        parts.append(f"SELECT * FROM (SELECT %s AS section, {columns} FROM {table} WHERE {live} AND {about} AND "
                     f"{condition} ORDER BY {quote('pinned')} DESC, {quote('updated_at')} DESC, id LIMIT %s) AS st")
        params += ["table", *live_params, "table", table_id, *scope_params, limit]
    if not parts:
        return [], 0
    with fast_cursor(connection) as cursor:
        execute(cursor, connection, " UNION ALL ".join(parts), params)
        rows = [(row[0], row[1:]) for row in cursor.fetchall()]
    counts: dict[str, int] = {}
    for section, _ in rows:
        counts[section] = counts.get(section, 0) + 1
    if all(count < limit for count in counts.values()):
        return rows, len({row[0] for _, row in rows})
    condition, scope_params = _in(connection, quote("scope"), every_scope)
    sql = f"SELECT count(*) FROM {table} WHERE {live} AND {condition} AND ({pinned}"
    count_params = [*live_params, *scope_params]
    if table_id:
        sql += f" OR ({about})"
        count_params += ["table", table_id]
    with fast_cursor(connection) as cursor:
        execute(cursor, connection, sql + ")", count_params)
        return rows, int(cursor.fetchone()[0])
