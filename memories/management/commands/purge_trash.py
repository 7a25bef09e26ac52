"""Deletes trash entries older than APPENDA["TRASH_TTL"] (30 days) in every region database."""

from django.conf import settings
from django.core.management import BaseCommand

from memories.trash import region_aliases, trash_purge


class Command(BaseCommand):
    help = "Delete notes that have been in the trash longer than the trash keeps them (default 30 days)."

    def handle(self, *args, **options):
        days = settings.APPENDA["TRASH_TTL"].days
        total = 0
        for region, alias in region_aliases().items():
            purged = trash_purge(alias=alias)
            total += purged
            self.stdout.write(f"{region}: {purged} note(s) purged from the trash (older than {days} days)")
        self.stdout.write(self.style.SUCCESS(f"Purged {total} note(s) in {len(region_aliases())} region(s)."))
