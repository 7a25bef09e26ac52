"""Notes saved before their record existed (R-SAVE-3, issue 18: "later records").

A note is checked against the workspace's tables when it is saved; a person or record added to
a table afterwards was not there to be matched. ``notes_recheck_after_records`` runs in the
transaction that adds the records and updates the index (tables.services.records_add, which
the API's row create and the CSV import both call), so there is no moment when the records are
in the index and a note naming them is still recalled: the workspace's active notes that hold a
phrase of the new records are checked again against the index as it now is, and each one that
names a person or a single record is moved to held with the reason ``names_record_later``
(memories.services.active_note_hold: audited like every hold, one change set per note).

Cost: the workspace's active notes are read once per record change (key and value only); a
note is cut into phrases and hashed only when it shares a plain word with the new records (or
holds 7 digits or more, a phone number's worth, or letters outside ASCII, whose words only the
full normalisation finds); only the notes sharing a phrase with the new records are looked up
and locked. benchmarks/bench_refusals.py measures an add with 1,000 and 10,000 notes.
"""

from __future__ import annotations

import re

from django.db import transaction

from memories.models import Note
from memories.refusals.phrases import strip_accents
from memories.services import active_note_hold
from tables import identifying
from tables.index_cells import INDEXED_KINDS, _Digester, cell_phrases

REASON = "names_record_later"
BATCH = 2000
_PLAIN_WORD = re.compile(r"[^\W_]+")
_DIGIT = re.compile(r"[0-9]")
_CJK = re.compile("[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
PHONE_DIGITS = 7  # as many digits as the shortest phone number memories.refusals.phrases reads


def gate_text(key: str, value: str) -> str:
    """The text memories.refusals.gate checks for a note: the key's words, then the value."""
    return f"{key.replace('.', ' ').replace('_', ' ')} {value}"


def _identifying_text_columns(table, using: str) -> set[str]:
    """The text columns whose values identify a record now (mostly unique, tables.identifying):
    a category column ("Shipped") names no record, so its values need no re-check."""
    from tables.models import IdentifyingColumn

    return {
        name for name, values, distinct in IdentifyingColumn.objects.using(using).filter(table_id=table.pk)
        .values_list("column_name", "values_count", "distinct_count")
        if values >= identifying.MIN_TEXT_VALUES and distinct >= identifying.MIN_TEXT_DISTINCT * values
    }


def _record_phrases(table, columns, records, using: str) -> tuple[set[bytes], set[str]]:
    """The digests of every phrase the records put in the index, and the plain words of them
    (of 3 characters or more: a phrase only of shorter words — initials, "ms", an id "42" — is
    not re-checked; the index counts those only after a title or an id cue anyway)."""
    digest = _Digester()
    found: set[bytes] = set()
    plain: set[str] = set()
    text_columns = _identifying_text_columns(table, using)
    indexed = [c for c in columns if c.kind in INDEXED_KINDS and (c.kind != "text" or c.name in text_columns)]
    for record in records:
        values = record.values or {}
        for column in indexed:
            if values.get(column.name) in (None, ""):
                continue
            wholes, parts = cell_phrases(column.kind, values[column.name])
            for phrase in (*wholes, *parts):
                words = [w for w in _PLAIN_WORD.findall(phrase) if len(w) > 2 or not w.isascii()]
                if words or not phrase.isascii():
                    found.add(digest(phrase))
                    plain.update(words)
    return found, plain


def _may_name(text: str, plain: set[str], phones: list[str]) -> bool:
    """A cheap necessary test: can this note hold a phrase of the records? Every phrase is made of
    words, so a note none of whose words is one of theirs holds none. A phone number is written
    in groups, so its digits are looked for in all the note's digits run together; Han, kana and
    Hangul (no spaces between words) are left to the full test."""
    if phones:
        digits = "".join(_DIGIT.findall(text))
        if len(digits) >= PHONE_DIGITS and any(phone in digits for phone in phones):
            return True
    if text.isascii():
        return not plain.isdisjoint(_PLAIN_WORD.findall(text.lower()))
    if _CJK.search(text):
        return True
    return not plain.isdisjoint(_PLAIN_WORD.findall(strip_accents(text).casefold()))


def notes_recheck_after_records(*, workspace, table, columns, records, actor_user_id=None) -> list[Note]:
    """Holds the workspace's active notes that name one of ``records`` (just added to ``table``
    and to its index, in the caller's transaction); returns them."""
    alias = workspace.db_alias
    added, plain = _record_phrases(table, columns, records, alias)
    if not added:
        return []
    phones = [w for w in plain if len(w) >= PHONE_DIGITS and w.isdigit()]
    active = Note.objects.for_workspace(workspace).filter(state=Note.State.ACTIVE, trashed_at__isnull=True)
    candidates = []
    last_id = None
    while True:  # keyset pages: the notes are read in batches, not held in memory all at once
        page = active.order_by("id")
        if last_id is not None:
            page = page.filter(id__gt=last_id)
        rows = list(page.values_list("id", "key", "value")[:BATCH])
        if not rows:
            break
        last_id = rows[-1][0]
        for note_id, key, value in rows:
            text = gate_text(key, value)
            if _may_name(text, plain, phones) and added.intersection(identifying.note_phrases(text)[1]):
                candidates.append(note_id)
    held = []
    with transaction.atomic(using=alias):
        for note in active.select_for_update().filter(id__in=candidates).order_by("id"):
            subject_table = table if note.subject_kind == "table" and note.subject_id == str(table.pk) else None
            match = identifying.find_workspace_match(workspace_id=workspace.id, text=gate_text(note.key, note.value),
                                                     using=alias, subject_table=subject_table)
            if match is not None:
                active_note_hold(workspace=workspace, note=note, reason=REASON, actor_user_id=actor_user_id)
                held.append(note)
    return held
