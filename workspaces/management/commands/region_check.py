"""Prints whether each region's database and bucket answer, and how fast (README: troubleshooting).

    python manage.py region_check
    control   database  ok     3 ms  postgresql appenda @ db.internal:5432
    eu        database  ok     4 ms  postgresql appenda_region_eu @ db.internal:5432
    eu        bucket    ok    11 ms  s3 appenda-eu @ http://s3.eu.internal:8333
    us        database  DOWN 2004 ms connection timeout expired

Exits 1 when anything is down, so it can gate a deploy or a health probe.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management import BaseCommand, CommandError
from django.db import connections

from appenda.storage import S3ObjectStore, store_for_region


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _timed(check) -> tuple[bool, float, str]:
    started = time.perf_counter()
    try:
        check()
    except Exception as exc:
        return False, (time.perf_counter() - started) * 1000, _first_line(exc)
    return True, (time.perf_counter() - started) * 1000, ""


def _database_check(alias: str):
    def check():
        connection = connections[alias]
        connection.close()  # a fresh connection: the check measures connecting, as a request would
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    return check


def _database_label(alias: str) -> str:
    config = connections.settings[alias]
    vendor = config["ENGINE"].rsplit(".", 1)[-1]
    where = f" @ {config.get('HOST') or 'localhost'}:{config.get('PORT') or 5432}" if vendor == "postgresql" else ""
    return f"{vendor} {config['NAME']}{where}"


def _bucket_label(store) -> str:
    if isinstance(store, S3ObjectStore):
        return f"s3 {store.bucket} @ {store.client.meta.endpoint_url}"
    return f"folder {store.root}"


class Command(BaseCommand):
    help = "Check every region's database and bucket (and the control database): status and latency."

    def handle(self, *args, **options):
        rows = [("control", "database", _database_label("default"), _database_check("default"))]
        for region in settings.REGIONS:
            alias = settings.REGION_DB_ALIASES[region]
            rows.append((region, "database", _database_label(alias), _database_check(alias)))
            store = store_for_region(region)
            rows.append((region, "bucket", _bucket_label(store), store.check))
        down = []
        for where, what, label, check in rows:
            ok, millis, error = _timed(check)
            status = self.style.SUCCESS("ok  ") if ok else self.style.ERROR("DOWN")
            self.stdout.write(f"{where:<9} {what:<9} {status} {millis:6.0f} ms  {label if ok else error}")
            if not ok:
                down.append(f"{where} {what}")
        if down:
            raise CommandError(f"Not reachable: {', '.join(down)}. Requests to those regions answer 503 "
                               "region_unavailable until they are back.")
