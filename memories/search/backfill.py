"""Search vectors and stored terms for notes that have none or whose text changed since (region
databases). Used by ``manage.py embed_notes`` and by the scheduled ``embed_notes`` job (ops.jobs):
notes saved while the model was missing, restored by an undo, imported held, saved before terms
were stored. Safe to run at any time and repeatedly; a note edited meanwhile is left to its own save.
"""

from __future__ import annotations

from collections.abc import Callable

from memories.models import Note
from memories.search.embedding import vector_to_bytes
from memories.search.fulltext import index_text, stored_terms


def notes_to_embed_count(*, alias: str) -> int:
    """An upper bound for progress: notes without a vector (outdated ones are found as they are read)."""
    return Note.objects.using(alias).filter(embedding__isnull=True).count()


def notes_embed_missing(*, alias: str, model, batch: int = 200, recompute: bool = False,
                        on_batch: Callable[[int, int], None] | None = None) -> int:
    """Embeds the notes of one region database that need it; returns how many were updated.
    ``on_batch(read, updated)`` is called after each batch (progress output)."""
    notes = Note.objects.using(alias)
    done, last = 0, None
    while True:
        page = notes.order_by("id").only("id", "key", "value", "search_text", "search_terms", "embedding")
        if last is not None:
            page = page.filter(id__gt=last)
        rows = list(page[:batch])
        if not rows:
            return done
        last = rows[-1].id
        updated = 0
        for note in rows:
            text = index_text(note.key, note.value)
            terms = stored_terms(note.key, note.value)
            vector_current = note.embedding is not None and note.search_text == text
            if not recompute and vector_current and note.search_terms == terms:
                continue
            fields = {"search_text": text, "search_terms": terms}
            if recompute or not vector_current:
                fields["embedding"] = vector_to_bytes(model.embed_note(note.key, note.value))
            # Only if the text is still the one embedded: a concurrent edit computed its own.
            # updated_at is left alone (an edit did not happen); search re-reads notes that
            # had no vector (memories.search.hybrid.VECTOR_RECHECK_SECONDS).
            updated += notes.filter(id=note.id, key=note.key, value=note.value).update(**fields)
        done += updated
        if on_batch is not None:
            on_batch(len(rows), updated)
