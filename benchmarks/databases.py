"""Fresh PostgreSQL databases for a benchmark: a control database and one per region, on the
server DATABASE_URL names (`make bench` starts a throwaway one), wired into Django's settings."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


def with_db(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def prepare_bench_databases(db_name: str, *, bench: str) -> None:
    """Drops and creates ``db_name`` and its two region databases, and points Django at them."""
    import psycopg

    base = os.environ.get("DATABASE_URL")
    if not base or not base.startswith("postgres"):
        raise SystemExit(f"{bench} needs DATABASE_URL pointing at PostgreSQL; run it through `make bench`.")
    names = [db_name, f"{db_name}_region_eu", f"{db_name}_region_us"]
    with psycopg.connect(with_db(base, "postgres"), autocommit=True) as conn:
        for name in names:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = with_db(base, db_name)
    os.environ["REGION_EU_DATABASE_URL"] = with_db(base, names[1])
    os.environ["REGION_US_DATABASE_URL"] = with_db(base, names[2])
    os.environ["DJANGO_SETTINGS_MODULE"] = "appenda.settings.test"
    # Bulk loads and index builds of million-row tables run longer than a request's limits.
    os.environ.setdefault("APPENDA_DB_STATEMENT_TIMEOUT_MS", "0")
    os.environ.setdefault("APPENDA_DB_LOCK_TIMEOUT_MS", "0")
    os.environ.setdefault("APPENDA_DATA_DIR", str(ROOT / "var" / bench))
    # The search model `make bench` prepared (prepare_search_model writes it under ./var).
    os.environ.setdefault("APPENDA_MODEL_DIR", str(ROOT / "var" / "models" / "minilm"))


def settle_tables(alias: str, *tables: str) -> float:
    """VACUUM (ANALYZE) bulk-loaded tables, CHECKPOINT, and read them into shared_buffers
    (pg_prewarm), so a benchmark measures a table as a server that has been serving it has it
    (statistics, hint bits and visibility map set, the load's writes flushed, its pages in
    memory: `make bench` gives the server 2 GB) instead of paying for the load on its first
    reads. Returns the seconds it took."""
    import time

    from django.db import connections

    start = time.perf_counter()
    with connections[alias].cursor() as cursor:  # autocommit: VACUUM runs outside a transaction
        for table in tables:
            cursor.execute(f'VACUUM (ANALYZE) "{table}"')
        cursor.execute("CHECKPOINT")
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
        for table in tables:
            cursor.execute("SELECT pg_prewarm(%s)", [table])
    return time.perf_counter() - start
