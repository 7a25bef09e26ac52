"""Recall: the turn's context and memory_search, both as quoted data (R-RECALL-1..5).

The context holds, within a fixed budget, the instance's required rules, the person's pinned
``mine`` notes, the workspace's pinned notes, the bot's pinned notes and the notes about the
table in view: active notes only, of layers the turn may read. What does not fit is left out
in a stated order (rules are kept first) and counted, so the model knows to search.
"""

from __future__ import annotations

from dataclasses import dataclass

from appenda.errors import DomainError
from memories import search_cutoff
from memories.limits import SEARCH_LIMIT_MAX, SEARCH_MIN_SCORE
from memories.models import Layer, Note, Turn
from memories.quoting import MEMORY_OFF_TEMPLATE, encode_note, render_block
from memories.reasons import OFF_LEVEL_SENTENCES
from memories.scopes import (
    memory_off_level,
    person_settings_and_rules,
    turn_read_filter,
    turn_read_scopes,
)
from memories.search import hybrid, vectors
from memories.search.candidates import TurnNotes
from memories.selectors import context_rows, live_notes
from memories.turns import turn_bot, turn_for_actor
from workspaces.capabilities import Actor

TOTAL_BUDGET_BYTES = 6 * 1024
SECTION_MAX_LINES = 40
SECTION_MAX_BYTES = 2 * 1024
# Kept in this order; what comes later is what is left out first.
SECTIONS = ("instance", "mine", "workspace", "bot", "table")


@dataclass(frozen=True)
class RecalledNote:
    id: str
    key: str
    value: str
    layer: str
    pinned: bool
    subject: dict | None
    section: str = ""

    def as_model_data(self) -> dict:
        data = {"layer": self.layer, "key": self.key, "value": self.value}
        if self.subject:
            data["subject"] = self.subject
        return data

    def as_json(self) -> dict:
        return {"id": self.id, "key": self.key, "value": self.value, "layer": self.layer, "pinned": self.pinned,
                "subject": self.subject, "state": "active", "section": self.section}


#: The context's section of a readable scope's pinned notes, by the scope's kind ("user:7").
_SCOPE_SECTION = {"user": "mine", "workspace": "workspace", "bot": "bot", "conversation": "bot"}


def _recalled_row(row: tuple) -> RecalledNote:
    note_id, key, value, layer, pinned, subject_kind, subject_id = row
    subject = {"kind": subject_kind, "id": subject_id} if subject_kind else None
    return RecalledNote(str(note_id), key, value, layer, pinned, subject, "")


def _rules(rows: list[tuple[str, str, str]]) -> list[RecalledNote]:
    return [RecalledNote(rule_id, key, value, Layer.INSTANCE, True, None, "instance") for rule_id, key, value in rows]


def _readable_active(turn: Turn, bot, workspace):
    return live_notes(workspace).filter(turn_read_filter(turn, bot), state=Note.State.ACTIVE)


def _off_context(level: str) -> dict:
    how = OFF_LEVEL_SENTENCES.get(level, "")
    return {"memory": "off", "off_level": level, "text": MEMORY_OFF_TEMPLATE.format(level=level.replace("_", " "), how=how),
            "notes": [], "left_out": 0}


def _fit(sections: dict[str, list[RecalledNote]]) -> tuple[list[RecalledNote], list[str], int]:
    kept, lines, left_out, total = [], [], 0, 0
    seen = set()
    for section in SECTIONS:
        section_lines = section_bytes = 0
        for note in sections.get(section, []):
            if note.id in seen:
                continue
            seen.add(note.id)
            line = encode_note(note.as_model_data())
            size = len(line.encode()) + 1
            if (section_lines + 1 > SECTION_MAX_LINES or section_bytes + size > SECTION_MAX_BYTES
                    or total + size > TOTAL_BUDGET_BYTES):
                left_out += 1
                continue
            section_lines, section_bytes, total = section_lines + 1, section_bytes + size, total + size
            kept.append(RecalledNote(**{**note.__dict__, "section": section}))
            lines.append(line)
    return kept, lines, left_out


def _context_sections(turn: Turn, bot, workspace, rules: list[RecalledNote]
                      ) -> tuple[dict[str, list[RecalledNote]], int]:
    """The notes the context may show, by section, best first: the pinned notes of each layer
    (newest first) and the notes about the table in view (pinned first), read at most
    ``SECTION_MAX_LINES`` per section (``selectors.context_rows``); and how many notes the
    sections hold in all, so what was not read is counted as left out. A note in two sections
    is shown in the first one only (``_fit``)."""
    table_id = str(turn.table_id) if turn.table_id else None
    by_section: dict[str, list[str]] = {"mine": [], "workspace": [], "bot": []}
    for scope in turn_read_scopes(turn, bot):
        by_section[_SCOPE_SECTION.get(scope.partition(":")[0], "bot")].append(scope)
    rows, total = context_rows(workspace, by_section, table_id, SECTION_MAX_LINES)
    sections = {"instance": rules, "mine": [], "workspace": [], "bot": [], "table": []}
    for section, row in rows:
        sections[section].append(_recalled_row((hybrid.note_id_text(row[0]), *row[1:4], bool(row[4]), *row[5:])))
    return sections, total


def turn_context(*, turn: Turn, workspace) -> dict:
    bot = turn_bot(turn)
    settings, rules = person_settings_and_rules(turn.user_id)
    level = memory_off_level(workspace=workspace, settings=settings, bot=bot, turn=turn)
    if level:
        return _off_context(level)
    sections, total = _context_sections(turn, bot, workspace, _rules(rules))
    kept, lines, left_out = _fit(sections)
    # Notes of a section beyond what it can show were not read: they are left out too.
    left_out += total - len({note.id for section, notes in sections.items() if section != "instance" for note in notes})
    rule_lines = [line for note, line in zip(kept, lines) if note.section == "instance"]
    note_lines = [line for note, line in zip(kept, lines) if note.section != "instance"]
    text, boundary = render_block(note_lines, rule_lines=rule_lines, left_out=left_out,
                                  empty_sentence="No notes are saved for this context yet.")
    return {"memory": "on", "text": text, "boundary": boundary, "notes": [n.as_json() for n in kept],
            "left_out": left_out}


def rank_notes(source, query: str, limit: int, *, rules: list[RecalledNote] = (), query_vec=None
               ) -> tuple[list[tuple[RecalledNote, float]], str]:
    """The notes of ``source`` (a ``hybrid.NoteSource`` of what the caller may read, never
    widened) and the instance ``rules`` best matching ``query``, best first with their scores,
    and how they were ranked: ``"hybrid"`` (words and meaning), or ``"lexical"`` while the
    embedding model is missing (memories.search.hybrid). ``query_vec``: the query's vector,
    already being computed."""
    ranking = hybrid.search(source, query, limit, extras=[hybrid.ExtraCandidate(r.id, r.key, r.value) for r in rules],
                            query_vec=query_vec)
    by_id = {r.id: r for r in rules}
    found = []
    for row, score in ranking.found:
        subject = {"kind": row.subject_kind, "id": row.subject_id} if row.subject_kind else None
        note = by_id.get(row.id) or RecalledNote(row.id, row.key, row.value, row.layer, row.pinned, subject)
        found.append((note, round(score, 4)))
    return found, ranking.ranking


def rank_queryset(notes, query: str, limit: int, *, workspace=None) -> list[Note]:
    """The notes of a (visible) queryset best matching ``query``, best first: the API list's search,
    with memory_search's cut-off (memories.search_cutoff)."""
    scope = str(workspace.id) if workspace is not None else None
    ids = [found.signals.id for found in search_cutoff.search(hybrid.QuerysetNotes(notes, scope), query, limit).found]
    by_id = {str(n.id): n for n in notes.filter(id__in=ids)}
    return [by_id[i] for i in ids if i in by_id]


def _indexed_cut(notes: TurnNotes, query: str, limit: int, *, extras, query_vec,
                 min_score: float = SEARCH_MIN_SCORE) -> search_cutoff.CutRanking:
    """``search_cutoff.search`` of a turn's notes, from the workspace's index
    (``memories.search.ranked``): the same ranking, scores and count of what the cut-off left out,
    without ranking every readable note in Python (issue 20)."""
    found = notes.ranked(query, limit, extras=extras, query_vec=query_vec, min_score=min_score)
    kept = [search_cutoff.Found(signals, score, found.similarity.get(signals.id), found.by_words.get(signals.id, False))
            for signals, score in found.ranking.found]
    return search_cutoff.CutRanking(kept, found.left_out, found.ranking.ranking, min_score)


def memory_search(*, actor: Actor, turn_id, query, subject=None, layer=None, limit=10, turn: Turn | None = None
                  ) -> dict:
    """``turn``: the caller's turn of ``turn_id``, when the view has already looked it up."""
    if not isinstance(query, str) or not query.strip():
        raise DomainError("Say what to look for in query.", code="invalid_query")
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= SEARCH_LIMIT_MAX:
        raise DomainError(f"limit is a whole number from 1 to {SEARCH_LIMIT_MAX}.", code="invalid_limit")
    if layer not in (None, "") and layer not in Layer.values:
        raise DomainError(f"Unknown layer {layer!r}; use one of {', '.join(Layer.values)}.", code="invalid_layer")
    if subject and (not isinstance(subject, dict) or not subject.get("kind") or not subject.get("id")):
        raise DomainError('A subject is {"kind": "table", "id": "…"}.', code="invalid_subject")
    # The query's vector is computed while the turn, the settings, the rules and the notes are
    # read: started here, it is ready when ranking needs it (started after the checks, it was
    # not: p50 +0.25 ms, p95 +0.4 ms in three alternating runs of benchmarks/bench_core.py).
    query_vec = vectors.query_vector_soon(query)
    try:
        turn = turn if turn is not None else turn_for_actor(actor=actor, turn_id=turn_id)
    except DomainError:
        query_vec.cancel()
        raise
    bot = turn_bot(turn)
    settings, rule_rows = person_settings_and_rules(turn.user_id)
    level = memory_off_level(workspace=actor.workspace, settings=settings, bot=bot, turn=turn)
    if level:
        query_vec.cancel()
        raise DomainError(OFF_LEVEL_SENTENCES.get(level, "Memory is off."), code="memory_off", status=403, level=level)
    notes = TurnNotes(actor.workspace, turn_read_scopes(turn, bot), layer=layer or None,
                      subject=(str(subject["kind"]), str(subject["id"])) if subject else None)
    rules = _rules(rule_rows) if layer in (None, "", Layer.INSTANCE) and not subject else []
    cut = _indexed_cut(notes, query, limit, extras=[hybrid.ExtraCandidate(r.id, r.key, r.value) for r in rules],
                       query_vec=query_vec)
    by_id = {r.id: r for r in rules}
    ranked = []
    for found in cut.found:
        row = found.signals
        subject = {"kind": row.subject_kind, "id": row.subject_id} if row.subject_kind else None
        ranked.append((by_id.get(row.id) or RecalledNote(row.id, row.key, row.value, row.layer, row.pinned, subject),
                       round(found.score, 4)))
    text, boundary = render_block(
        [encode_note(n.as_model_data()) for n, _ in ranked if n.layer != Layer.INSTANCE],
        rule_lines=[encode_note(n.as_model_data()) for n, _ in ranked if n.layer == Layer.INSTANCE],
        below_cutoff=cut.below_cutoff, empty_sentence="No saved note matches this search.")
    return {"notes": [{**n.as_json(), "score": score} for n, score in ranked], "text": text, "boundary": boundary,
            "ranking": cut.ranking, "min_score": cut.min_score, "left_out_below_cutoff": cut.below_cutoff}
