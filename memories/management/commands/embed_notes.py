"""Computes the search vector (and the stored terms) of notes that have none, or whose text
changed since theirs were computed (saved while the model was missing, restored by an undo,
imported held, saved before terms were stored), in every region database. Safe to run at any time and repeatedly; a note edited meanwhile is left to its
own save."""

import time

from django.conf import settings
from django.core.management import BaseCommand, CommandError

from memories.models import Note
from memories.search.embedding import vector_to_bytes
from memories.search.fulltext import index_text, stored_terms
from memories.search.vectors import embedder, model_dir


class Command(BaseCommand):
    help = "Compute missing or outdated search vectors of notes in every region database."

    def add_arguments(self, parser):
        parser.add_argument("--batch", type=int, default=200, help="notes read per query")
        parser.add_argument("--all", action="store_true", help="recompute every vector, not only missing ones")

    def handle(self, *args, batch=200, all=False, **options):
        model = embedder()
        if model is None:
            raise CommandError(f"The search model is not in {model_dir()}; run python manage.py prepare_search_model.")
        start, total = time.perf_counter(), 0
        for region, alias in settings.REGION_DB_ALIASES.items():
            done = self._region(model, alias, batch, recompute=all)
            total += done
            self.stdout.write(f"{region}: {done} note(s) embedded")
        elapsed = time.perf_counter() - start
        per_note = f", {elapsed / total * 1000:.1f} ms per note" if total else ""
        self.stdout.write(self.style.SUCCESS(f"Embedded {total} note(s) in {elapsed:.1f} s{per_note}."))

    def _region(self, model, alias: str, batch: int, *, recompute: bool) -> int:
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
                done += notes.filter(id=note.id, key=note.key, value=note.value).update(**fields)
