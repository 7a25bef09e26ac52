"""Migrates the control database and every region database."""

from django.conf import settings
from django.core.management import BaseCommand, call_command


class Command(BaseCommand):
    help = "Apply migrations to the control database and to every region database."

    def handle(self, *args, **options):
        aliases = ["default", *settings.REGION_DB_ALIASES.values()]
        for alias in aliases:
            self.stdout.write(f"Migrating database {alias!r}…")
            call_command("migrate", database=alias, interactive=False, verbosity=max(0, options["verbosity"] - 1))
        self.stdout.write(self.style.SUCCESS(f"All {len(aliases)} databases are up to date."))
