"""Run a command against real test services: PostgreSQL and S3 (SeaweedFS).

    python -m infra.testenv [--no-storage] -- <command...>

* ``DATABASE_URL`` set   -> use that server; otherwise start a throwaway
  PostgreSQL (``infra.postgres.ThrowawayPostgres``) for this run.
* ``APPENDA_TEST_S3_ENDPOINT`` set -> use that S3 server; otherwise start a
  throwaway SeaweedFS (``infra.seaweedfs.ThrowawaySeaweed``) for this run.

Both are started in parallel. ``--no-storage`` starts (and exports) PostgreSQL only: for
benchmarks, which use no S3, because an idle SeaweedFS (master, volume, filer and S3 server,
with their timers and heartbeats) on the same two cores added ~0.9 ms to memory_search's
p50 and ~1.1 ms to its p95 (benchmarks/bench_core.py, one session, same machine).  The command gets, in its environment:

    DATABASE_URL, REGION_EU_DATABASE_URL, REGION_US_DATABASE_URL
    APPENDA_TEST_S3_ENDPOINT, REGION_EU_S3_ENDPOINT, REGION_US_S3_ENDPOINT
    REGION_EU_S3_BUCKET=appenda-test-eu, REGION_US_S3_BUCKET=appenda-test-us
    AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_DEFAULT_REGION (unless set)
    APPENDA_TEST_PG_BIN                       (directory of pg_ctl, if found)
    APPENDA_TEST_PG_DATA, APPENDA_TEST_PG_USER, APPENDA_TEST_PG_LOG
                                              (only if PostgreSQL was started here)
    APPENDA_TEST_WEED_PID                     (only if weed was started here)

The region database URLs point at other database names on the same server
(``<name>_region_eu`` / ``<name>_region_us``) unless already set; they need
not exist (pytest-django creates ``test_<name>`` databases itself).

The exit status is the command's.  Whatever was started is always stopped
again: on normal exit, on errors, on Ctrl-C and on SIGTERM/SIGHUP (which are
forwarded to the command first).  Status lines go to stderr, so the command's
stdout stays clean.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from urllib.parse import urlsplit, urlunsplit

from infra.postgres import StartCancelled as PgCancelled
from infra.postgres import ThrowawayPostgres, find_pg_bin, server_version
from infra.seaweedfs import StartCancelled as WeedCancelled
from infra.seaweedfs import ThrowawaySeaweed, ensure_bucket

EU_BUCKET = "appenda-test-eu"
US_BUCKET = "appenda-test-us"
TEST_CREDENTIAL = "appenda-test"

USAGE = "usage: python -m infra.testenv [--no-storage] -- <command> [args...]"


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def region_database_url(url: str, suffix: str) -> str:
    """``postgresql://h/app`` + ``_region_eu`` -> ``postgresql://h/app_region_eu``."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/") or parts.username or "postgres"
    return urlunsplit(parts._replace(path=f"/{name}{suffix}"))


def describe_address(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or "local socket"
    return f"{host}:{parts.port or 5432}"


class _Starter(threading.Thread):
    """Run one start-up function in a thread, keeping result/error/duration."""

    def __init__(self, name: str, fn) -> None:
        super().__init__(name=f"testenv-{name}", daemon=True)
        self.fn = fn
        self.result = None
        self.error: BaseException | None = None
        self.elapsed = 0.0

    def run(self) -> None:
        started = time.monotonic()
        try:
            self.result = self.fn()
        except BaseException as exc:  # reported by the main thread
            self.error = exc
        finally:
            self.elapsed = time.monotonic() - started


class _Interrupted(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _we_are_terminal_foreground() -> bool:
    """True if a terminal Ctrl-C reaches our whole process group (and so the
    child too) -- then SIGINT must not be forwarded a second time."""
    for fd in (0, 1, 2):
        try:
            if os.isatty(fd):
                return os.tcgetpgrp(fd) == os.getpgrp()
        except OSError:
            continue
    return False


def run(command: list[str], *, storage: bool = True) -> int:
    env = dict(os.environ)
    for key, value in (("AWS_ACCESS_KEY_ID", TEST_CREDENTIAL),
                       ("AWS_SECRET_ACCESS_KEY", TEST_CREDENTIAL),
                       ("AWS_DEFAULT_REGION", "us-east-1")):
        if not env.get(key):
            env[key] = value

    pg = None if env.get("DATABASE_URL") else ThrowawayPostgres()
    weed = None if env.get("APPENDA_TEST_S3_ENDPOINT") or not storage else ThrowawaySeaweed()

    def start_database():
        dsn = pg.start() if pg else env["DATABASE_URL"]
        try:
            version = server_version(dsn)
        except Exception as exc:
            if pg:
                raise
            lines = str(exc).strip().splitlines()
            version = f"(unreachable: {lines[0] if lines else exc.__class__.__name__})"
        return dsn, version

    def start_storage():
        endpoint = weed.start() if weed else env["APPENDA_TEST_S3_ENDPOINT"]
        for bucket in (EU_BUCKET, US_BUCKET):
            ensure_bucket(endpoint, bucket,
                          access_key=env["AWS_ACCESS_KEY_ID"],
                          secret_key=env["AWS_SECRET_ACCESS_KEY"],
                          region=env["AWS_DEFAULT_REGION"])
        return endpoint

    starters = [_Starter("postgres", start_database)]
    if storage:
        starters.append(_Starter("seaweedfs", start_storage))
    child: subprocess.Popen | None = None
    old_handlers = {}

    def on_signal(signum, frame):
        if child is None:
            # Still starting up: unwind into the finally block below.
            if signum == signal.SIGINT:
                raise KeyboardInterrupt
            raise _Interrupted(signum)
        if child.poll() is None:
            if signum == signal.SIGINT and _we_are_terminal_foreground():
                return  # the terminal already delivered it to the child
            try:
                child.send_signal(signum)
            except ProcessLookupError:
                pass

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        old_handlers[signum] = signal.signal(signum, on_signal)

    try:
        t0 = time.monotonic()
        for starter in starters:
            starter.start()
        while any(s.is_alive() for s in starters):
            for starter in starters:
                starter.join(0.1)  # short joins keep signals deliverable
            if any(s.error is not None for s in starters):
                for launcher in (pg, weed):  # one failed: don't wait for the other
                    if launcher:
                        launcher.cancel()
        errors = [s.error for s in starters if s.error is not None]
        if any(not isinstance(e, (PgCancelled, WeedCancelled)) for e in errors):
            errors = [e for e in errors if not isinstance(e, (PgCancelled, WeedCancelled))]
        if errors:
            for error in errors:
                say(f"testenv: {error.__class__.__name__}: {error}")
            return 1
        total = time.monotonic() - t0

        dsn, version = starters[0].result
        env["DATABASE_URL"] = dsn
        env.setdefault("REGION_EU_DATABASE_URL", region_database_url(dsn, "_region_eu"))
        env.setdefault("REGION_US_DATABASE_URL", region_database_url(dsn, "_region_us"))
        if storage:
            endpoint = starters[1].result
            env["APPENDA_TEST_S3_ENDPOINT"] = endpoint
            env["REGION_EU_S3_ENDPOINT"] = endpoint
            env["REGION_US_S3_ENDPOINT"] = endpoint
            env["REGION_EU_S3_BUCKET"] = EU_BUCKET
            env["REGION_US_S3_BUCKET"] = US_BUCKET
        try:
            env["APPENDA_TEST_PG_BIN"] = find_pg_bin()
        except RuntimeError:
            pass
        if pg:
            env["APPENDA_TEST_PG_BIN"] = pg.bin_dir
            env["APPENDA_TEST_PG_DATA"] = pg.data_dir
            env["APPENDA_TEST_PG_USER"] = pg.user
            env["APPENDA_TEST_PG_LOG"] = pg.log_path
        if weed:
            env["APPENDA_TEST_WEED_PID"] = str(weed.pid)

        origin_db = "started for this run" if pg else "from DATABASE_URL"
        say(f"Database: PostgreSQL {version} at {describe_address(dsn)} ({origin_db})")
        if not storage:
            say("Object storage: none (--no-storage)")
        elif weed:
            say(f"Object storage: SeaweedFS S3 at {endpoint} (started for this run)")
        else:
            say(f"Object storage: S3 at {endpoint} (from APPENDA_TEST_S3_ENDPOINT)")
        if pg or weed:
            timings = ", ".join(
                f"{name} {s.elapsed:.1f} s"
                for name, s, used in zip(("PostgreSQL", "SeaweedFS"), starters, (pg, weed))
                if used
            )
            say(f"Test services ready in {total:.1f} s ({timings})")

        try:
            child = subprocess.Popen(command, env=env)
        except OSError as exc:
            say(f"testenv: cannot run {command[0]!r}: {exc}")
            return 127
        while True:
            try:
                code = child.wait()
                break
            except InterruptedError:  # pragma: no cover - PEP 475 retries
                continue
        return 128 - code if code < 0 else code
    except KeyboardInterrupt:
        say("testenv: interrupted")
        return 130
    except _Interrupted as exc:
        say(f"testenv: got {exc}")
        return 128 + exc.signum
    finally:
        # No more interruptions: cleaning up is bounded and must finish.
        for signum in old_handlers:
            signal.signal(signum, signal.SIG_IGN)
        try:
            for launcher in (pg, weed):
                if launcher:
                    launcher.cancel()
            for starter in starters:
                if starter.ident is not None:
                    starter.join()
            for launcher in (weed, pg):
                if launcher:
                    try:
                        launcher.stop()
                    except Exception as exc:  # keep stopping the others
                        say(f"testenv: error while stopping {launcher.__class__.__name__}: {exc}")
        finally:
            for signum, handler in old_handlers.items():
                signal.signal(signum, handler)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    storage = True
    if args and args[0] == "--no-storage":
        storage, args = False, args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args or args[0] in ("-h", "--help"):
        say(USAGE)
        say(__doc__.split("\n\n", 2)[1] if __doc__ else "")
        return 0 if args else 2
    return run(args, storage=storage)


if __name__ == "__main__":
    sys.exit(main())
