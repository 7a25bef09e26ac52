"""What a data store that cannot serve looks like to callers (R-REGION-3, R-OPS-1).

Three answers, each a 503 with its own code and a ``Retry-After``:

* ``region_unavailable``: the workspace's region cannot be reached: its database refuses
  connections or does not answer within its deadline (``InterfaceError``, a connection that
  died), a local workspace file cannot be opened, or its bucket does not answer
  (``StorageUnavailable``). Nothing was changed; other regions keep working.
* ``control_unavailable``: the same, of the control database (users, workspaces, tokens),
  which every request needs.
* ``overloaded``: the store is up but this server has more work than it can take now: no free
  pooled connection in time, the server has no connection slot left ("too many clients"), a
  lock or a statement ran past its limit, SQLite's write lock stayed busy, or the region's
  bulkhead in this worker is full of quick queries. Never reported as a region outage.

Plus one 409: two transactions that deadlocked or could not be serialized
(``concurrent_change``): the request lost a race and can be sent again.

One body says so everywhere: the API's exception handler, and the 500 handler for errors raised
outside a view (a middleware).
"""

from __future__ import annotations

from django.db import DatabaseError, InterfaceError, OperationalError

from appenda.storage import StorageUnavailable

RETRY_AFTER_SECONDS = 30
#: Overload passes in seconds; a client told to wait 30 s would wait for nothing.
OVERLOAD_RETRY_AFTER_SECONDS = 2
CONTROL_ALIAS = "default"

# SQLSTATEs: 53xxx insufficient resources (53300 too many connections), 55P03 lock not
# available (lock_timeout), 57014 query canceled (statement_timeout).
_OVERLOAD_SQLSTATES = ("53", "55P03", "57014")
_CONFLICT_SQLSTATES = ("40001", "40P01")  # serialization failure, deadlock detected
_OVERLOAD_WORDS = ("too many clients", "remaining connection slots", "database is locked",
                   "database table is locked", "couldn't get a connection", "no free connection",
                   "no connection slot left")


def _causes(exc: BaseException):
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


def _declared_kind(exc: BaseException) -> str | None:
    for cause in _causes(exc):
        kind = getattr(cause, "kind", None)
        if kind in ("region_unavailable", "overloaded"):
            return kind
        if type(cause).__name__ in ("PoolTimeout", "TooManyRequests"):
            return _pool_timeout_kind(exc)
        sqlstate = getattr(cause, "sqlstate", None) or ""
        if sqlstate.startswith(_CONFLICT_SQLSTATES):
            return "concurrent_change"
        if sqlstate.startswith(_OVERLOAD_SQLSTATES):
            return "overloaded"
    message = str(exc).lower()
    if any(words in message for words in _OVERLOAD_WORDS):
        return "overloaded"
    return None


def _pool_timeout_kind(exc: BaseException) -> str:
    """No pooled connection in time: overload, unless the database was marked down meanwhile."""
    from appenda.db.bulkhead import known_health

    health = known_health(getattr(exc, "db_alias", None))
    return "region_unavailable" if health is not None and health.is_down else "overloaded"


def is_region_outage(exc: BaseException | None) -> bool:
    """Any data-store failure this module answers (with a 503, or a 409 for a lost race)."""
    if exc is None:
        return False
    return isinstance(exc, (StorageUnavailable, OperationalError, InterfaceError)) or type(exc) is DatabaseError


def outage_code(exc: BaseException) -> str:
    """``region_unavailable``, ``control_unavailable``, ``overloaded`` or ``concurrent_change``."""
    kind = _declared_kind(exc)
    if kind in ("overloaded", "concurrent_change"):
        return kind
    if getattr(exc, "db_alias", None) == CONTROL_ALIAS:
        return "control_unavailable"
    return "region_unavailable"


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


def outage_answer(exc: BaseException, workspace=None) -> tuple[int, dict, dict]:
    """(status, body, headers) for a data-store failure ``exc`` met while serving ``workspace``."""
    code = outage_code(exc)
    if code == "concurrent_change":
        return 409, {"code": code, "detail": "Another request changed the same data at the same moment; "
                                             "nothing of this one was saved. Send it again."}, {}
    if code == "overloaded":
        return 503, {"code": code, "detail": "The server is busier than it can handle right now; nothing was "
                                             "changed. Try again in a few seconds."}, \
            {"Retry-After": str(OVERLOAD_RETRY_AFTER_SECONDS)}
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if code == "control_unavailable":
        return 503, {"code": code, "detail": "The directory of users and workspaces cannot be reached right now; "
                                             "nothing was changed. Try again in a minute."}, headers
    return 503, region_unavailable_body(outage_region(exc, workspace)), headers
