"""What a region that cannot be reached looks like to callers (R-REGION-3).

A region's database refusing connections (psycopg ``OperationalError``), a connection that
died (``InterfaceError``), a local workspace file that cannot be opened, or a bucket that does
not answer (``StorageUnavailable``) all mean the same to a client: this workspace's data store
is down right now, nothing was changed, try again. One body says so everywhere: the API's
exception handler, and the 500 handler for errors raised outside a view (a middleware).
"""

from __future__ import annotations

from django.db import DatabaseError, InterfaceError, OperationalError

from appenda.storage import StorageUnavailable

RETRY_AFTER_SECONDS = 30


def is_region_outage(exc: BaseException | None) -> bool:
    if exc is None:
        return False
    return isinstance(exc, (StorageUnavailable, OperationalError, InterfaceError)) or type(exc) is DatabaseError


def region_label(workspace) -> str | None:
    """The name a client sees for where the workspace's data lives: its region, or ``local``."""
    if workspace is None:
        return None
    return "local" if getattr(workspace, "kind", None) == "local" else workspace.region


def outage_region(exc: BaseException, workspace=None) -> str | None:
    region = getattr(exc, "region", None)
    if region and not str(region).startswith("~"):
        return region
    return region_label(workspace)


def region_unavailable_body(region: str | None) -> dict:
    where = f"region {region!r}" if region else "this workspace's region"
    return {
        "code": "region_unavailable",
        "detail": f"The data store of {where} cannot be reached right now; nothing was changed. Try again in a minute.",
        "region": region,
    }
