"""Django's PostgreSQL backend, made to degrade cleanly (R-OPS-1, R-REGION-3).

Why it is built this way: Django's pool (``OPTIONS["pool"]``, psycopg_pool) bounds the
connections a process opens, and PostgreSQL's ``statement_timeout``/``lock_timeout`` bound what
a live server spends on one statement. Neither helps when a server stops answering (a frozen
host, a network partition): the kernel still acknowledges the socket, so a query waits for
ever, and a pool whose server refuses connections keeps its waiting clients waiting until the
pool timeout. So, on top of Django's backend:

* every wait for a server's answer (psycopg's ``Connection.wait``, which every query, commit
  and pool check goes through) has a deadline (``QUERY_DEADLINE`` in the database settings); past
  it the connection is closed and the database is marked down;
* that wait is also where the per-region bulkhead is taken (``appenda.db.bulkhead``);
* a connection is asked of the pool in short slices: if meanwhile the database was marked down
  (a refused connection, a deadline), the request stops waiting (503 at once, not after the pool
  timeout); a server saying "too many clients" ends the wait as overload;
* while a database is down, requests skip the pool and try one direct connection each (inside
  the bulkhead): refused at once, or given up after the connect timeout when the server hangs;
  the first that connects marks it up, and the pool serves again.

Errors carry their alias (``appenda.db.backends.tagging``); ``appenda.db.outage`` names them.
"""

from __future__ import annotations

import functools
import time

import psycopg
from django.db.backends.postgresql import base as postgresql_base
from django.utils.functional import cached_property
from psycopg import IsolationLevel
from psycopg_pool import PoolTimeout

from appenda.db.backends.tagging import AliasTaggedErrors
from appenda.db.bulkhead import DatabaseDown, DatabaseHealth, QueryDeadlineExceeded, health_for

#: A request asks the pool for a connection in slices this long, to notice an outage meanwhile.
POOL_POLL_SECONDS = 0.2
_TOO_MANY_CLIENTS = ("too many clients", "remaining connection slots", "too many connections")


def is_too_many_clients(exc: BaseException) -> bool:
    return getattr(exc, "sqlstate", None) == "53300" or any(words in str(exc) for words in _TOO_MANY_CLIENTS)


class GuardedConnection(psycopg.Connection):
    """A psycopg connection whose waits have a deadline and go through its database's bulkhead."""

    health: DatabaseHealth
    query_deadline: float | None = None

    @classmethod
    def connect(cls, conninfo: str = "", **kwargs):
        try:
            connection = super().connect(conninfo, **kwargs)
        except psycopg.OperationalError as exc:
            if is_too_many_clients(exc):
                cls.health.mark_saturated()
            else:
                cls.health.mark_down()
            raise
        cls.health.mark_up()
        return connection

    def wait(self, gen, interval=0.1, timeout=None):
        with self.health.slot():
            try:
                return super().wait(gen, interval=interval, timeout=timeout if timeout is not None
                                    else self.query_deadline)
            except psycopg.errors._WaitTimeout:
                # The server did not answer: the protocol is mid-query, so the connection is lost.
                self.health.mark_down()
                self.pgconn.finish()
                raise QueryDeadlineExceeded(
                    f"database {self.health.alias!r} did not answer within {self.query_deadline} s"
                ) from None


@functools.cache
def connection_class_for(alias: str, deadline: float | None, bulkhead: bool) -> type[GuardedConnection]:
    return type(f"GuardedConnection_{alias}", (GuardedConnection,),
                {"health": health_for(alias, bulkhead=bulkhead), "query_deadline": deadline})


class DatabaseWrapper(AliasTaggedErrors, postgresql_base.DatabaseWrapper):
    @cached_property
    def connection_class(self) -> type[GuardedConnection]:
        from appenda.db.router import is_region_alias

        return connection_class_for(self.alias, self.settings_dict.get("QUERY_DEADLINE"), is_region_alias(self.alias))

    @property
    def health(self) -> DatabaseHealth:
        return self.connection_class.health

    @property
    def pool(self):
        options = self.settings_dict["OPTIONS"].get("pool")
        # The OPTIONS dict may be shared with the "no database" wrapper (test set-up), which has no pool.
        if (isinstance(options, dict) and self.alias != postgresql_base.NO_DB_ALIAS
                and options.get("connection_class") is not self.connection_class):
            self.settings_dict["OPTIONS"]["pool"] = {**options, "connection_class": self.connection_class}
        return super().pool

    def get_new_connection(self, conn_params):
        if self.settings_dict["OPTIONS"].get("isolation_level") is not None:
            return super().get_new_connection(conn_params)
        self.isolation_level = IsolationLevel.READ_COMMITTED
        if self.pool is None or self.health.is_down:
            return self._direct_connection(conn_params)
        return self._pooled_connection(conn_params)

    def _direct_connection(self, conn_params):
        with self.health.slot():
            connection = self.connection_class.connect(**conn_params)
        if self.pool is not None:  # the pool configures its own connections; this one is not its
            self._configure_connection(connection)
        return connection

    def _pooled_connection(self, conn_params):
        pool = self.pool
        pool.open()
        timeout = float(self.settings_dict["OPTIONS"]["pool"].get("timeout", 30))
        started = time.monotonic()
        deadline = started + timeout
        while True:
            try:
                return pool.getconn(timeout=max(0.01, min(POOL_POLL_SECONDS, deadline - time.monotonic())))
            except PoolTimeout:
                if self.health.is_down:  # marked down while this request waited: do not wait more
                    raise DatabaseDown(f"database {self.alias!r} is not answering") from None
                if self.health.saturated_at >= started:
                    raise PoolTimeout(f"the server of database {self.alias!r} has no connection slot left "
                                      "(too many clients)") from None
                if time.monotonic() >= deadline:
                    raise PoolTimeout(f"no free connection to database {self.alias!r} within {timeout:g} s") from None

    def _close(self):
        if self.connection is not None and self.pool is not None and getattr(self.connection, "_pool", None) is None:
            connection, self.connection = self.connection, None
            with self.wrap_database_errors:
                return connection.close()  # a direct connection, opened while the pool's server was down
        return super()._close()
