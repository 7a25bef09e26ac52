"""Keeps a hung database its own problem, in each worker process (R-REGION-3, R-OPS-1).

Two things per database alias, shared by the threads of one process:

* **A bulkhead**: at most ``APPENDA_REGION_BULKHEAD`` threads (default 16; gunicorn's config
  sets half its threads per worker) may wait on one region's
  database at a time (a query sent and not yet answered, or a connection being opened). A
  thread beyond that is refused at once, so a frozen ``eu`` server holds a few threads of a
  worker, never all of them, and ``us`` requests keep being served. The control database has no
  bulkhead: every request needs it, so when it hangs nothing can be served anyway.
* **Health**: a database whose query ran past its deadline, or that refused a connection, is
  marked down. While it is down, requests do not wait in the connection pool for a connection
  that will not come: they try one direct connection (inside the bulkhead, with the connect
  timeout), and the first that succeeds marks it up again.

Why the refusal says "region_unavailable" or "overloaded": a bulkhead that is full while its
oldest waiter has waited longer than ``STALLED_SECONDS`` and no query on that database got an
answer meanwhile is a region that does not answer; one full of queries that keep being answered
(slowly, on a loaded machine, or behind row locks) is a worker with more work than it can take.
"""

from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager

import psycopg

#: A wait longer than this on one database, with no answer to anyone meanwhile, means it does not
#: answer: longer than the lock timeout (2 s), since every waiter of a healthy database may be
#: queued on one hot row under load (a 3x overload run of benchmarks/bench_load.py was told
#: ``region_unavailable`` with 1 s here).
STALLED_SECONDS = 2.5
#: How long a thread waits for a slot of a full bulkhead whose waiters are not stuck (quick
#: queries, row-lock waits bounded by lock_timeout) before it is refused ``overloaded``; it is
#: refused ``region_unavailable`` as soon as the waiters are found stuck.
SLOT_WAIT_SECONDS = 3.0
_SLOT_POLL_SECONDS = 0.25


def bulkhead_size() -> int:
    return max(1, int(os.environ.get("APPENDA_REGION_BULKHEAD", "16")))


class RegionBusy(psycopg.OperationalError):
    """Refused before waiting: the region's bulkhead is full. ``kind`` is the 503 code."""

    def __init__(self, alias: str, kind: str):
        super().__init__(f"too many requests are waiting on database {alias!r} in this worker ({kind})")
        self.alias = alias
        self.kind = kind


class DatabaseDown(psycopg.OperationalError):
    """Found down while waiting for a pooled connection: answered at once, not after the pool timeout."""

    kind = "region_unavailable"


class QueryDeadlineExceeded(psycopg.OperationalError):
    """A query got no answer within its deadline; the connection was closed."""

    kind = "region_unavailable"


class DatabaseHealth:
    """The bulkhead and the up/down state of one database alias in this process."""

    def __init__(self, alias: str, limit: int | None):
        self.alias = alias
        self.limit = limit
        self._slots = threading.BoundedSemaphore(limit) if limit else None
        self._lock = threading.Lock()
        self._waiting_since: dict[object, float] = {}
        self.down_since: float | None = None
        self.saturated_at: float = 0.0  # the server said "too many clients"
        self.last_answer_at: float = 0.0  # the last wait on it that ended with an answer

    # --- bulkhead -----------------------------------------------------------------------------
    @contextmanager
    def slot(self):
        if self._slots is None:
            yield
            return
        if not self._slots.acquire(blocking=False):
            # Full: at once when its waiters look stuck; else quick queries or lock waits will
            # free a slot soon, unless they turn out stuck meanwhile.
            self._wait_for_slot()
        waiter = object()
        with self._lock:
            self._waiting_since[waiter] = time.monotonic()
        try:
            yield
            self.last_answer_at = time.monotonic()
        finally:
            with self._lock:
                self._waiting_since.pop(waiter, None)
            self._slots.release()

    def _wait_for_slot(self) -> None:
        deadline = time.monotonic() + SLOT_WAIT_SECONDS
        while True:
            if self.stalled():
                raise RegionBusy(self.alias, "region_unavailable")
            left = deadline - time.monotonic()
            if left <= 0:
                raise RegionBusy(self.alias, "overloaded")
            if self._slots.acquire(timeout=min(_SLOT_POLL_SECONDS, left)):
                return

    def stalled(self) -> bool:
        """Down, or its oldest waiter has waited more than STALLED_SECONDS while no wait on it
        ended meanwhile: a busy database keeps answering someone, a hung one answers no one."""
        if self.down_since is not None:
            return True
        now = time.monotonic()
        with self._lock:
            oldest = min(self._waiting_since.values(), default=None)
        return (oldest is not None and now - oldest > STALLED_SECONDS
                and now - self.last_answer_at > STALLED_SECONDS)

    def set_limit(self, limit: int) -> None:
        """A new bulkhead size (tests; a running worker keeps the size it started with)."""
        self.limit = limit
        self._slots = threading.BoundedSemaphore(limit)

    def in_flight(self) -> int:
        with self._lock:
            return len(self._waiting_since)

    # --- health -------------------------------------------------------------------------------
    def mark_down(self) -> None:
        if self.down_since is None:
            self.down_since = time.monotonic()

    def mark_up(self) -> None:
        self.down_since = None

    @property
    def is_down(self) -> bool:
        return self.down_since is not None

    def mark_saturated(self) -> None:
        self.saturated_at = time.monotonic()


_registry: dict[str, DatabaseHealth] = {}
_registry_lock = threading.Lock()


def health_for(alias: str, *, bulkhead: bool) -> DatabaseHealth:
    found = _registry.get(alias)
    if found is None:
        with _registry_lock:
            found = _registry.setdefault(alias, DatabaseHealth(alias, bulkhead_size() if bulkhead else None))
    return found


def known_health(alias: str | None) -> DatabaseHealth | None:
    return _registry.get(alias) if alias else None


def reset() -> None:
    """Forgets every state (tests that restart a server)."""
    with _registry_lock:
        _registry.clear()
