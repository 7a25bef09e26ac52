"""A throwaway PostgreSQL server for tests.

``ThrowawayPostgres`` runs ``initdb`` into a fresh temporary directory, starts
the server on a free TCP port on 127.0.0.1 (plus a unix socket inside the
temporary directory) with trust authentication and durability switched off for
speed, and removes everything again on ``stop()``.

PostgreSQL refuses to run as root, so when we are root the server binaries are
run as the ``postgres`` OS user (via ``runuser``, falling back to ``su``) and
the temporary directory is handed to that user.
"""

from __future__ import annotations

import os
import pwd
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from typing import TextIO

from infra.logs import tail

HOST = "127.0.0.1"
SUPERUSER = "postgres"

#: Settings appended to postgresql.conf.  They live in the config file (rather
#: than on the pg_ctl command line) so that tests which stop and restart the
#: server with plain ``pg_ctl -D $APPENDA_TEST_PG_DATA start`` get the same
#: port, socket directory and speed settings back.
FAST_SETTINGS = {
    "fsync": "off",
    "full_page_writes": "off",
    "synchronous_commit": "off",
    "max_connections": "300",
    # Tests need little; `make bench` gives its server room for the million-row tables it builds,
    # as a production server holding them would have (APPENDA_TEST_PG_SHARED_BUFFERS).
    "shared_buffers": os.environ.get("APPENDA_TEST_PG_SHARED_BUFFERS", "128MB"),
    "max_wal_size": "1GB",
    "wal_level": "minimal",
    "max_wal_senders": "0",
    "log_min_messages": "warning",
    "log_statement": "none",
    "log_line_prefix": "'%m [%p] '",
    "timezone": "'UTC'",
}


class StartCancelled(RuntimeError):
    """Raised by ``start()`` when ``cancel()`` was called while starting."""


def free_port(host: str = HOST) -> int:
    """Return a TCP port on *host* that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def port_is_open(port: int, host: str = HOST, timeout: float = 0.5) -> bool:
    """True if something accepts TCP connections on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def find_pg_bin() -> str:
    """Directory holding pg_ctl/initdb/postgres.

    ``$APPENDA_TEST_PG_BIN`` wins; otherwise the directory of the real (symlink
    resolved) ``pg_ctl`` found on PATH, so that ``postgres``, ``pg_isready``
    etc. sit next to it.
    """
    configured = os.environ.get("APPENDA_TEST_PG_BIN")
    if configured:
        return configured
    pg_ctl = shutil.which("pg_ctl")
    if not pg_ctl:
        raise RuntimeError(
            "pg_ctl not found on PATH; install PostgreSQL or set DATABASE_URL "
            "to an existing server"
        )
    return os.path.dirname(os.path.realpath(pg_ctl))


def server_version(dsn: str, connect_timeout: int = 5) -> str:
    """Return the server version of *dsn* as e.g. ``"15.10"``."""
    import psycopg

    with psycopg.connect(dsn, connect_timeout=connect_timeout, autocommit=True) as conn:
        num = conn.info.server_version
    if num >= 100000:
        return f"{num // 10000}.{num % 10000}"
    return f"{num // 10000}.{num // 100 % 100}.{num % 100}"


def print_server_version(dsn: str, file: TextIO | None = None) -> str:
    """Print ``PostgreSQL <version>`` for *dsn* and return the version."""
    version = server_version(dsn)
    print(f"PostgreSQL {version}", file=file or sys.stdout, flush=True)
    return version


class ThrowawayPostgres:
    """Start/stop a disposable PostgreSQL server.

    Usage::

        with ThrowawayPostgres() as pg:
            connect(pg.dsn)

    or ``dsn = pg.start()`` ... ``pg.stop()``.  ``stop()`` is idempotent.
    """

    def __init__(
        self,
        bin_dir: str | None = None,
        *,
        start_timeout: float = 60,
        settings: dict[str, str] | None = None,
    ) -> None:
        self.bin_dir = bin_dir or find_pg_bin()
        self.start_timeout = start_timeout
        self.settings = {**FAST_SETTINGS, **(settings or {})}
        self.as_root = os.geteuid() == 0
        self.user = SUPERUSER if self.as_root else pwd.getpwuid(os.geteuid()).pw_name
        self.tmpdir: str | None = None
        self.data_dir: str | None = None
        self.socket_dir: str | None = None
        self.log_path: str | None = None
        self.port: int | None = None
        self.host = HOST
        self._cancel = threading.Event()

    # -- public API ------------------------------------------------------
    @property
    def dsn(self) -> str:
        if self.port is None:
            raise RuntimeError("server not started")
        return f"postgresql://{SUPERUSER}@{self.host}:{self.port}/postgres"

    def start(self) -> str:
        """initdb + start; returns the DSN URL."""
        self._cancel.clear()
        try:
            self._make_tmpdir()
            self._initdb()
            for _attempt in range(3):
                self._check_cancel()
                self.port = free_port(self.host)
                self._write_conf()
                result = self.run_pg(
                    "pg_ctl", "-D", self.data_dir, "-l", self.log_path,
                    "-w", "-t", str(int(self.start_timeout)), "start",
                    new_session=True,
                )
                if result.returncode == 0:
                    return self.dsn
                log = tail(self.log_path, 30)
                if "could not bind" in log or "already in use" in log:
                    continue  # lost a race for the port; pick another
                break
            raise RuntimeError(
                f"pg_ctl start failed (exit {result.returncode}):\n"
                f"{result.stdout}{result.stderr}\n--- server log ---\n{log}"
            )
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Stop the server (``-m immediate``) and delete its directory."""
        if self.data_dir and os.path.exists(os.path.join(self.data_dir, "postmaster.pid")):
            self.run_pg("pg_ctl", "-D", self.data_dir, "-m", "immediate", "-w", "-t", "15", "stop")
            self._kill_leftover_postmaster()
        if self.tmpdir:
            shutil.rmtree(self.tmpdir, ignore_errors=True)
        self.tmpdir = self.data_dir = self.socket_dir = None

    def cancel(self) -> None:
        """Ask a concurrently running ``start()`` to give up (thread-safe)."""
        self._cancel.set()

    def __enter__(self) -> ThrowawayPostgres:
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def run_pg(self, program: str, *args: str, new_session: bool = False) -> subprocess.CompletedProcess:
        """Run a PostgreSQL binary from bin_dir as the server's OS user."""
        argv = [os.path.join(self.bin_dir, program), *args]
        if self.as_root:
            if shutil.which("runuser"):
                argv = ["runuser", "-u", self.user, "--", *argv]
            else:
                argv = ["su", "-s", "/bin/sh", self.user, "-c", shlex.join(argv)]
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env["LC_ALL"] = "C"
        return subprocess.run(
            argv,
            cwd=self.tmpdir or "/",
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            # pg_ctl start: keep the postmaster out of our process group so a
            # terminal Ctrl-C does not shut it down under the running tests.
            start_new_session=new_session,
        )

    # -- internals -------------------------------------------------------
    def _check_cancel(self) -> None:
        if self._cancel.is_set():
            raise StartCancelled("PostgreSQL start-up cancelled")

    def _make_tmpdir(self) -> None:
        self.tmpdir = tempfile.mkdtemp(prefix="appenda-pg-")
        if self.as_root:
            # mkdtemp gives root-only 0700; hand the whole directory to the
            # postgres user.  (Its parents -- normally /tmp -- must be
            # traversable by that user, which /tmp is.)
            pw = pwd.getpwnam(self.user)
            os.chown(self.tmpdir, pw.pw_uid, pw.pw_gid)
            self._check_traversable(os.path.dirname(self.tmpdir), pw)
        self.data_dir = os.path.join(self.tmpdir, "data")
        self.socket_dir = self.tmpdir
        self.log_path = os.path.join(self.tmpdir, "postgres.log")

    @staticmethod
    def _check_traversable(path: str, pw: pwd.struct_passwd) -> None:
        """Fail early (with a hint) if *pw* cannot reach *path*."""
        groups = set(os.getgrouplist(pw.pw_name, pw.pw_gid))
        current = os.path.abspath(path)
        while True:
            st = os.stat(current)
            if st.st_uid == pw.pw_uid:
                ok = st.st_mode & 0o100
            elif st.st_gid in groups:
                ok = st.st_mode & 0o010
            else:
                ok = st.st_mode & 0o001
            if not ok:
                raise RuntimeError(
                    f"{current} is not traversable by OS user {pw.pw_name!r}, so "
                    f"PostgreSQL cannot reach its data directory under {path}; "
                    "set TMPDIR to a directory it can reach (e.g. /tmp)"
                )
            parent = os.path.dirname(current)
            if parent == current:
                return
            current = parent

    def _initdb(self) -> None:
        self._check_cancel()
        result = self.run_pg(
            "initdb", "-D", self.data_dir, "-U", SUPERUSER, "-A", "trust",
            "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions",
        )
        if result.returncode != 0:
            raise RuntimeError(f"initdb failed (exit {result.returncode}):\n{result.stdout}{result.stderr}")

    def _write_conf(self) -> None:
        conf = os.path.join(self.data_dir, "postgresql.conf")
        base_path = conf + ".initdb"
        if not os.path.exists(base_path):
            shutil.copy2(conf, base_path)  # keep the pristine copy for retries
        with open(base_path) as fh:
            base = fh.read()
        settings = {
            **self.settings,
            "listen_addresses": f"'{self.host}'",
            "port": str(self.port),
            "unix_socket_directories": f"'{self.socket_dir}'",
        }
        extra = "".join(f"{k} = {v}\n" for k, v in settings.items())
        with open(conf, "w") as fh:
            fh.write(base + "\n# --- appenda throwaway test server ---\n" + extra)
        if self.as_root:
            pw = pwd.getpwnam(self.user)
            for path in (conf, base_path):
                os.chown(path, pw.pw_uid, pw.pw_gid)

    def _kill_leftover_postmaster(self) -> None:
        pidfile = os.path.join(self.data_dir, "postmaster.pid")
        try:
            with open(pidfile) as fh:
                pid = int(fh.readline().strip())
        except (OSError, ValueError):
            return
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if b"postgres" not in fh.read():
                    return  # stale pid file; the pid now belongs to something else
        except OSError:
            pass  # no /proc (or process gone); kill() below sorts it out
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)
