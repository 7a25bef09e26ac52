"""Deletes expired exports (object, then row) and export objects left without a row; meant for cron.

Every workspace is visited in its own region; a region that cannot be reached is reported and
skipped (the others are still purged) and the command exits non-zero so cron mails about it.
"""

from __future__ import annotations

from datetime import timedelta

from django.core.management import BaseCommand, CommandError

from appenda.db.local import local_database_available, local_database_register
from appenda.db.outage import is_region_outage, region_label
from appenda.errors import DomainError
from memories.export import exports_purge_expired
from workspaces.models import Workspace


class Command(BaseCommand):
    help = "Delete exports older than APPENDA['EXPORT_TTL'] (24 h) and objects of exports that have no row."

    def add_arguments(self, parser):
        parser.add_argument("--orphan-age-minutes", type=int, default=60,
                            help="delete an export object without a row once it is this old (default 60)")

    def handle(self, *args, orphan_age_minutes, **options):
        rows = orphans = 0
        failed: dict[str, str] = {}
        for workspace in Workspace.objects.order_by("region", "created_at").iterator():
            # A region is skipped whole once it failed; a local file only by itself.
            where = f"local workspace {workspace.name}" if workspace.kind == Workspace.Kind.LOCAL \
                else region_label(workspace)
            if where in failed:
                continue
            if workspace.kind == Workspace.Kind.LOCAL and not local_database_available(workspace):
                continue  # its file lives on another computer
            try:
                if workspace.kind == Workspace.Kind.LOCAL:
                    local_database_register(workspace)
                outcome = exports_purge_expired(workspace=workspace, orphan_age=timedelta(minutes=orphan_age_minutes))
            except Exception as exc:
                if not is_region_outage(exc) and not isinstance(exc, DomainError):
                    raise  # a bug, not an outage: let cron report the traceback
                failed[where] = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                self.stderr.write(f"{where}: cannot be reached ({failed[where]}); skipped")
                continue
            rows += outcome.rows
            orphans += outcome.orphans
        self.stdout.write(f"Purged {rows} expired export(s) and {orphans} object(s) without an export row.")
        if failed:
            raise CommandError(f"Region(s) not reached: {', '.join(sorted(failed))}; run again when they are back.")
