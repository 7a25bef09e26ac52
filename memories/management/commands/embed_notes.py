"""Computes the search vector (and the stored terms) of notes that have none, or whose text
changed since theirs were computed, in every region database (``memories.search.backfill``).
Safe to run at any time and repeatedly; the ``embed_notes`` scheduled job (ops.jobs) runs the
same function. Prints counts and rate as it goes (a bar on a terminal, lines in a log)."""

import time

from django.conf import settings
from django.core.management import BaseCommand, CommandError

from memories.models import Note
from memories.search.backfill import notes_embed_missing
from memories.search.vectors import embedder, model_dir
from ops.progress import Progress


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
            progress = Progress(self.stdout, f"{region}: notes read", total=Note.objects.using(alias).count(),
                                unit="note")
            done = notes_embed_missing(alias=alias, model=model, batch=batch, recompute=all,
                                       on_batch=lambda read, updated, p=progress: p.advance(read))
            self.stdout.write(progress.finish())
            total += done
            self.stdout.write(f"{region}: {done} note(s) embedded")
        elapsed = time.perf_counter() - start
        per_note = f", {elapsed / total * 1000:.1f} ms per note" if total else ""
        self.stdout.write(self.style.SUCCESS(f"Embedded {total} note(s) in {elapsed:.1f} s{per_note}."))
