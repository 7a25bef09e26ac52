"""Deletes held notes nobody kept within APPENDA["HELD_TTL"] (24 h) in every region database.

Reads already ignore expired held notes, so this is housekeeping, not correctness: run it as
often as you like (each expiry is one audited change set). It also deletes the answers kept
for ``Idempotency-Key`` retries once they are older than 24 h (``memories.idempotency``).
"""

from django.core.management import BaseCommand

from memories.idempotency import idempotent_answers_purge
from memories.trash import held_expire, region_aliases


class Command(BaseCommand):
    help = "Delete held notes that were not kept in time; each expiry is recorded in the audit of changes."

    def handle(self, *args, **options):
        total = 0
        for region, alias in region_aliases().items():
            expired = held_expire(alias=alias)
            total += expired
            self.stdout.write(f"{region}: {expired} held note(s) expired")
            self.stdout.write(f"{region}: {idempotent_answers_purge(alias=alias)} idempotent answer(s) purged")
        self.stdout.write(self.style.SUCCESS(f"Expired {total} held note(s) in {len(region_aliases())} region(s)."))
