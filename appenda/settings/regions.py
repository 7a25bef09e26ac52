"""Region configuration read from the environment.

Each region has its own database and its own object-storage bucket. With nothing configured,
the embedded default is used: SQLite files and local folders under APPENDA_DATA_DIR, so a
newcomer needs no service to try the product.

Environment:
  REGIONS                       comma-separated region names (default "eu,us")
  DATABASE_URL                  control database; with it set, regions default to databases
                                named <name>_region_<region> on the same server
  REGION_<NAME>_DATABASE_URL    one region's database
  REGION_<NAME>_S3_ENDPOINT     one region's S3 endpoint (any S3 API); unset = local folder
  REGION_<NAME>_S3_BUCKET       one region's bucket (default appenda-<region>)
  APPENDA_DB_POOL_SIZE          PostgreSQL: most connections per database per process (default 8)
  APPENDA_DB_POOL_MIN_SIZE      PostgreSQL: connections per database per process kept open even
                                when idle (default 1; gunicorn: one per thread)
  APPENDA_DB_POOL_TIMEOUT       seconds a request waits for a pooled connection (default 3)
  APPENDA_DB_STATEMENT_TIMEOUT_MS / APPENDA_DB_LOCK_TIMEOUT_MS   server-side limits (3000 / 2000;
                                0 = none, e.g. for a long migration)
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import dj_database_url

REGION_ALIAS_PREFIX = "region_"
CONNECT_TIMEOUT_SECONDS = 2
#: PostgreSQL connections are pooled (psycopg_pool through Django's OPTIONS["pool"]) and bounded
#: per process: a gunicorn worker needs one per thread and database, runserver's thread per
#: request waits for one instead of opening more (R-OPS-1). Waiting past the timeout is a 503
#: ``overloaded``.
POOL_SIZE = int(os.environ.get("APPENDA_DB_POOL_SIZE", "8"))
POOL_TIMEOUT_SECONDS = float(os.environ.get("APPENDA_DB_POOL_TIMEOUT", "3"))
#: Connections a pool keeps open while idle. A pool that must grow makes a request wait for a new
#: connection to open (one at a time), and a new connection is cold (its own catalog caches and
#: prepared statements); gunicorn's workers keep one per thread open (benchmarks/bench_load.py).
POOL_MIN_SIZE = int(os.environ.get("APPENDA_DB_POOL_MIN_SIZE", "1"))
#: Server-side limits on one statement and on one lock wait; a query that gets no answer at all
#: (a frozen server) is abandoned one second after the statement limit (appenda.db.backends).
STATEMENT_TIMEOUT_MS = int(os.environ.get("APPENDA_DB_STATEMENT_TIMEOUT_MS", "3000"))
LOCK_TIMEOUT_MS = int(os.environ.get("APPENDA_DB_LOCK_TIMEOUT_MS", "2000"))


@dataclass(frozen=True)
class RegionStorageConfig:
    region: str
    s3_endpoint: str | None
    bucket: str
    local_root: Path


def region_names() -> list[str]:
    raw = os.environ.get("REGIONS", "eu,us")
    names = [name.strip().lower() for name in raw.split(",") if name.strip()]
    for name in names:
        if not re.fullmatch(r"[a-z][a-z0-9]{0,15}", name):
            raise ValueError(f"REGIONS has an invalid region name {name!r}: use short lowercase names like eu, us.")
    return names


def region_alias(region: str) -> str:
    return f"{REGION_ALIAS_PREFIX}{region}"


def _database_from_url(url: str) -> dict:
    # Health checks: a connection kept from before a region went down is tested at the start of
    # the next request and replaced, so the outage is a fast 503, not a broken worker (R-REGION-3).
    config = dj_database_url.parse(url, conn_max_age=0, conn_health_checks=True)
    if config["ENGINE"] == "django.db.backends.postgresql":
        config["ENGINE"] = "appenda.db.backends.postgresql"
        options = config.setdefault("OPTIONS", {})
        # A region that is down must fail fast (R-REGION-3), not hang a worker.
        options["connect_timeout"] = CONNECT_TIMEOUT_SECONDS
        options["options"] = f"-c statement_timeout={STATEMENT_TIMEOUT_MS} -c lock_timeout={LOCK_TIMEOUT_MS}"
        options["pool"] = {"min_size": max(1, min(POOL_MIN_SIZE, POOL_SIZE)), "max_size": max(POOL_SIZE, 1),
                           "timeout": POOL_TIMEOUT_SECONDS, "max_idle": 60}
        config["QUERY_DEADLINE"] = STATEMENT_TIMEOUT_MS / 1000 + 1 if STATEMENT_TIMEOUT_MS else None
    return config


def _sqlite(path: Path) -> dict:
    # Concurrent saves on the embedded default: WAL lets readers and one writer work at once, a
    # write transaction takes the write lock when it begins (BEGIN IMMEDIATE: no "database is
    # locked" when a reader turns writer), and a writer waits up to 10 s for it (busy timeout).
    return {"ENGINE": "appenda.db.backends.sqlite3", "NAME": str(path), "OPTIONS": {
        "timeout": 10, "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    }}


def _derived_region_url(control_url: str, region: str) -> str:
    # Same server as the control database, a database of the region's own.
    base, _, query = control_url.partition("?")
    head, _, name = base.rpartition("/")
    derived = f"{head}/{name or 'appenda'}_region_{region}"
    return f"{derived}?{query}" if query else derived


def build_databases(data_dir: Path) -> dict[str, dict]:
    control_url = os.environ.get("DATABASE_URL")
    databases = {
        "default": _database_from_url(control_url) if control_url else _sqlite(data_dir / "control.sqlite3")
    }
    for region in region_names():
        url = os.environ.get(f"REGION_{region.upper()}_DATABASE_URL")
        if not url and control_url:
            url = _derived_region_url(control_url, region)
        databases[region_alias(region)] = (
            _database_from_url(url) if url else _sqlite(data_dir / f"region_{region}.sqlite3")
        )
    return databases


def build_storage(data_dir: Path) -> dict[str, RegionStorageConfig]:
    return {
        region: RegionStorageConfig(
            region=region,
            s3_endpoint=os.environ.get(f"REGION_{region.upper()}_S3_ENDPOINT") or None,
            bucket=os.environ.get(f"REGION_{region.upper()}_S3_BUCKET", f"appenda-{region}"),
            local_root=data_dir / "objects" / region,
        )
        for region in region_names()
    }
