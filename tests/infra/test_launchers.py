"""Tests for the throwaway test-service launchers in ``infra/``.

They start real servers (PostgreSQL via initdb/pg_ctl, SeaweedFS via weed) and
need no Django:  .venv/bin/python -m pytest tests/infra -p no:django -q
"""

from __future__ import annotations

import json
import os
import pwd
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

import psycopg
import pytest

from infra.postgres import ThrowawayPostgres, port_is_open, print_server_version, server_version
from infra.seaweedfs import ThrowawaySeaweed, ensure_bucket, s3_client
from infra.testenv import region_database_url

REPO = Path(__file__).resolve().parents[2]

# Variables an enclosing `python -m infra.testenv` may have exported; removed
# so the testenv runs below start their own services.
_OUTER_VARS = (
    "DATABASE_URL", "REGION_EU_DATABASE_URL", "REGION_US_DATABASE_URL",
    "APPENDA_TEST_S3_ENDPOINT", "REGION_EU_S3_ENDPOINT", "REGION_US_S3_ENDPOINT",
    "REGION_EU_S3_BUCKET", "REGION_US_S3_BUCKET",
    "APPENDA_TEST_PG_DATA", "APPENDA_TEST_PG_USER", "APPENDA_TEST_PG_LOG", "APPENDA_TEST_WEED_PID",
)


# -- helpers -----------------------------------------------------------------
def pid_alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def processes_mentioning(text: str) -> list[str]:
    """Live processes whose command line contains *text*."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in cmdline and pid_alive(int(entry)):
            found.append(f"{entry}: {cmdline}")
    return found


def wait_until(predicate, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


@pytest.fixture
def scratch_tmp():
    """A private TMPDIR (reachable by the postgres OS user) so leak checks
    only see what this test started."""
    path = tempfile.mkdtemp(prefix="appenda-launcher-test-", dir="/tmp")
    os.chmod(path, 0o711)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def shared():
    """One PostgreSQL and one SeaweedFS, started in parallel and shared by the
    tests that only *use* servers; teardown checks that stop() cleans up."""
    pg, weed = ThrowawayPostgres(), ThrowawaySeaweed()
    errors = []

    def start(launcher):
        try:
            launcher.start()
        except BaseException as exc:
            errors.append(exc)

    # weed would turn AWS_* credentials in its environment into enforced auth;
    # the launcher must keep them away (test_seaweed_put_get uses another key).
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("AWS_ACCESS_KEY_ID", "launcher-env-key")
        mp.setenv("AWS_SECRET_ACCESS_KEY", "launcher-env-secret")
        threads = [threading.Thread(target=start, args=(x,)) for x in (pg, weed)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    try:
        if errors:
            raise errors[0]
        yield pg, weed
    finally:
        pg_port, pg_dir = pg.port, pg.tmpdir
        weed_pid, weed_ports, weed_dir = weed.pid, dict(weed.ports), weed.tmpdir
        weed.stop()
        pg.stop()
    assert not port_is_open(pg_port) and not os.path.exists(pg_dir)
    assert not pid_alive(weed_pid)
    assert not any(port_is_open(port) for port in weed_ports.values())
    assert not os.path.exists(weed_dir)
    assert not os.path.exists(f"/tmp/seaweedfs-master-grpc-{weed_ports['master_grpc']}.sock")


def _clean_env(scratch: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _OUTER_VARS}
    env["TMPDIR"] = scratch
    env["PYTHONUNBUFFERED"] = "1"
    return env


def assert_nothing_left(scratch: str) -> None:
    assert wait_until(lambda: not processes_mentioning(scratch)), processes_mentioning(scratch)
    assert os.listdir(scratch) == []


# -- PostgreSQL ----------------------------------------------------------------
def test_postgres_start_query_restart_stop(capsys):
    pg = ThrowawayPostgres()
    dsn = pg.start()
    port, tmpdir = pg.port, pg.tmpdir
    try:
        assert dsn == f"postgresql://postgres@127.0.0.1:{port}/postgres"
        with psycopg.connect(dsn, autocommit=True) as conn:
            version = conn.execute("select version()").fetchone()[0]
            settings = dict(conn.execute(
                "select name, setting from pg_settings where name in "
                "('fsync', 'full_page_writes', 'synchronous_commit', 'max_connections',"
                " 'listen_addresses', 'unix_socket_directories')"
            ).fetchall())
            # pytest-django creates test_<name> databases itself: must be allowed.
            conn.execute("create database launcher_check")
            conn.execute("drop database launcher_check")
        assert version.startswith("PostgreSQL ")
        assert settings["fsync"] == settings["full_page_writes"] == settings["synchronous_commit"] == "off"
        assert int(settings["max_connections"]) >= 200
        assert settings["listen_addresses"] == "127.0.0.1"
        assert settings["unix_socket_directories"] == tmpdir
        assert os.path.exists(os.path.join(tmpdir, f".s.PGSQL.{port}"))

        assert server_version(dsn).split(".")[0] == version.split()[1].split(".")[0]
        printed = print_server_version(dsn)
        assert capsys.readouterr().out == f"PostgreSQL {printed}\n"

        # Outage simulation as the test suite does it: plain pg_ctl on the data
        # dir, as the server's OS user; the config keeps the port.
        assert pg.run_pg("pg_ctl", "-D", pg.data_dir, "-m", "fast", "-w", "stop").returncode == 0
        assert not port_is_open(port)
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(dsn, connect_timeout=2)
        result = pg.run_pg("pg_ctl", "-D", pg.data_dir, "-l", pg.log_path, "-w", "start", new_session=True)
        assert result.returncode == 0, result.stderr
        with psycopg.connect(dsn) as conn:
            assert conn.execute("select 1").fetchone() == (1,)
    finally:
        pg.stop()
    assert not port_is_open(port)
    assert not os.path.exists(tmpdir)
    assert not processes_mentioning(tmpdir)
    pg.stop()  # idempotent


def test_postgres_context_manager_stops_on_error():
    with pytest.raises(ZeroDivisionError):
        with ThrowawayPostgres() as pg:
            port, tmpdir = pg.port, pg.tmpdir
            assert port_is_open(port)
            raise ZeroDivisionError("a test failing inside the with block")
    assert not port_is_open(port)
    assert not os.path.exists(tmpdir)


# -- SeaweedFS -----------------------------------------------------------------
def test_seaweed_put_get(shared):
    _, weed = shared
    endpoint = weed.endpoint
    assert endpoint == f"http://127.0.0.1:{weed.ports['s3']}"
    assert pid_alive(weed.pid)
    ensure_bucket(endpoint, "launcher-check")
    ensure_bucket(endpoint, "launcher-check")  # idempotent
    s3 = s3_client(endpoint, access_key="anything", secret_key="goes")
    s3.put_object(Bucket="launcher-check", Key="dir/hello.txt", Body=b"hello appenda")
    body = s3.get_object(Bucket="launcher-check", Key="dir/hello.txt")["Body"].read()
    assert body == b"hello appenda"
    listed = s3.list_objects_v2(Bucket="launcher-check")["Contents"]
    assert [o["Key"] for o in listed] == ["dir/hello.txt"]
    # ListBuckets answers (it is the readiness probe) -- but note SeaweedFS
    # 4.x without an IAM config lists no buckets (owner filtering), so
    # bucket existence is checked with HeadBucket.
    assert s3.list_buckets()["ResponseMetadata"]["HTTPStatusCode"] == 200
    s3.head_bucket(Bucket="launcher-check")


def test_seaweed_stop_is_idempotent():
    weed = ThrowawaySeaweed()
    weed.stop()  # never started: no-op
    assert weed.pid is None


# -- infra.testenv -------------------------------------------------------------
def test_region_database_url():
    assert region_database_url("postgresql://u:p%40ss@db:5433/appenda?sslmode=require", "_region_eu") == (
        "postgresql://u:p%40ss@db:5433/appenda_region_eu?sslmode=require"
    )
    assert region_database_url("postgresql://postgres@127.0.0.1:1/postgres", "_region_us") == (
        "postgresql://postgres@127.0.0.1:1/postgres_region_us"
    )


CHILD = textwrap.dedent("""
    import json, os, subprocess, sys, time
    import boto3, psycopg

    e = os.environ

    def pg_ctl(*args):
        argv = [os.path.join(e["APPENDA_TEST_PG_BIN"], "pg_ctl"), "-D", e["APPENDA_TEST_PG_DATA"], *args]
        if os.geteuid() == 0:
            argv = ["runuser", "-u", e["APPENDA_TEST_PG_USER"], "--", *argv]
        subprocess.run(argv, check=True, capture_output=True, cwd="/", start_new_session=True)

    with psycopg.connect(e["DATABASE_URL"]) as conn:
        conn.execute("select 1")
    # Simulated outage, the way the suite's tests do it.
    pg_ctl("-m", "fast", "-w", "stop")
    try:
        psycopg.connect(e["DATABASE_URL"], connect_timeout=2).close()
        outage = False
    except psycopg.OperationalError:
        outage = True
    pg_ctl("-l", e["APPENDA_TEST_PG_LOG"], "-w", "start")
    with psycopg.connect(e["DATABASE_URL"]) as conn:
        back = conn.execute("select 1").fetchone()[0] == 1

    s3 = boto3.client("s3", endpoint_url=e["REGION_EU_S3_ENDPOINT"])  # AWS_* from testenv
    s3.put_object(Bucket=e["REGION_EU_S3_BUCKET"], Key="k", Body=b"v")
    got = s3.get_object(Bucket=e["REGION_EU_S3_BUCKET"], Key="k")["Body"].read().decode()
    s3.head_bucket(Bucket=e["REGION_US_S3_BUCKET"])

    keys = [k for k in e if "DATABASE_URL" in k or "S3" in k or k.startswith(("APPENDA_TEST_", "AWS_"))]
    print(json.dumps({"env": {k: e[k] for k in keys}, "outage": outage, "back": back, "got": got}), flush=True)
    time.sleep(60)  # until the test sends SIGTERM to testenv
""")


def _read_line(proc: subprocess.Popen, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 0.2)
        if ready:
            return proc.stdout.readline()
        if proc.poll() is not None:
            break
    if proc.poll() is None:
        proc.kill()
    raise AssertionError(f"no output from testenv (exit {proc.wait()}): {proc.stderr.read()}")


def test_testenv_starts_exports_and_cleans_up_on_sigterm(scratch_tmp):
    """Full run: services started, env exported, outage restart works, and a
    SIGTERM to testenv is forwarded to the command and everything is stopped."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "infra.testenv", "--", sys.executable, "-c", CHILD],
        cwd=REPO, env=_clean_env(scratch_tmp), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        data = json.loads(_read_line(proc, 90))
        assert processes_mentioning(scratch_tmp)  # services are up
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=30)
        assert proc.returncode == 128 + signal.SIGTERM, stderr
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

    env = data["env"]
    assert data["outage"] and data["back"] and data["got"] == "v"
    dsn = env["DATABASE_URL"]
    port = int(dsn.rsplit(":", 1)[1].split("/")[0])
    assert dsn == f"postgresql://postgres@127.0.0.1:{port}/postgres"
    assert env["REGION_EU_DATABASE_URL"] == dsn + "_region_eu"
    assert env["REGION_US_DATABASE_URL"] == dsn + "_region_us"
    endpoint = env["APPENDA_TEST_S3_ENDPOINT"]
    assert env["REGION_EU_S3_ENDPOINT"] == env["REGION_US_S3_ENDPOINT"] == endpoint
    assert env["REGION_EU_S3_BUCKET"] == "appenda-test-eu"
    assert env["REGION_US_S3_BUCKET"] == "appenda-test-us"
    assert env["AWS_DEFAULT_REGION"]
    assert env["AWS_ACCESS_KEY_ID"] and env["AWS_SECRET_ACCESS_KEY"]
    assert os.path.exists(os.path.join(env["APPENDA_TEST_PG_BIN"], "pg_ctl"))
    assert env["APPENDA_TEST_PG_DATA"].startswith(scratch_tmp)
    assert env["APPENDA_TEST_PG_USER"] == ("postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name)

    assert f"Database: PostgreSQL {_printed_version(stderr)} at 127.0.0.1:{port} (started for this run)" in stderr
    assert f"Object storage: SeaweedFS S3 at {endpoint} (started for this run)" in stderr

    assert not pid_alive(int(env["APPENDA_TEST_WEED_PID"]))
    assert not port_is_open(port)
    assert not port_is_open(int(endpoint.rsplit(":", 1)[1]))
    assert_nothing_left(scratch_tmp)


def _printed_version(stderr: str) -> str:
    line = next(text for text in stderr.splitlines() if text.startswith("Database: PostgreSQL "))
    version = line.split()[2]
    assert version[0].isdigit(), line
    return version


def test_testenv_reuses_configured_services(scratch_tmp, shared):
    """With DATABASE_URL / APPENDA_TEST_S3_ENDPOINT set nothing is started;
    the command's exit status is passed through."""
    pg, weed = shared
    env = _clean_env(scratch_tmp)
    env["DATABASE_URL"] = pg.dsn.rsplit("/", 1)[0] + "/appenda"
    env["REGION_US_DATABASE_URL"] = "postgresql://elsewhere/us"
    env["APPENDA_TEST_S3_ENDPOINT"] = weed.endpoint
    show = "import json, os, sys; print(json.dumps(dict(os.environ))); sys.exit(7)"
    result = subprocess.run(
        [sys.executable, "-m", "infra.testenv", sys.executable, "-c", show],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 7, result.stderr
    child = json.loads(result.stdout)
    assert child["DATABASE_URL"] == env["DATABASE_URL"]
    assert child["REGION_EU_DATABASE_URL"] == env["DATABASE_URL"] + "_region_eu"
    assert child["REGION_US_DATABASE_URL"] == "postgresql://elsewhere/us"
    assert child["REGION_EU_S3_ENDPOINT"] == child["REGION_US_S3_ENDPOINT"] == weed.endpoint
    assert "APPENDA_TEST_WEED_PID" not in child and "APPENDA_TEST_PG_DATA" not in child
    assert f"at 127.0.0.1:{pg.port} (from DATABASE_URL)" in result.stderr
    assert f"S3 at {weed.endpoint} (from APPENDA_TEST_S3_ENDPOINT)" in result.stderr
    s3 = s3_client(weed.endpoint)
    for bucket in ("appenda-test-eu", "appenda-test-us"):
        s3.head_bucket(Bucket=bucket)  # created by testenv
    assert os.listdir(scratch_tmp) == []
    assert port_is_open(pg.port) and pid_alive(weed.pid)  # left running


def test_testenv_no_storage_starts_and_exports_no_s3(scratch_tmp, shared):
    """``--no-storage`` (make bench) runs the command with PostgreSQL only: no SeaweedFS is
    started, and no S3 variable points anywhere."""
    pg, _ = shared
    env = _clean_env(scratch_tmp)
    env["DATABASE_URL"] = pg.dsn.rsplit("/", 1)[0] + "/appenda"
    show = "import json, os; print(json.dumps(dict(os.environ)))"
    result = subprocess.run(
        [sys.executable, "-m", "infra.testenv", "--no-storage", "--", sys.executable, "-c", show],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    child = json.loads(result.stdout)
    assert child["DATABASE_URL"] == env["DATABASE_URL"]
    assert not {"APPENDA_TEST_S3_ENDPOINT", "REGION_EU_S3_ENDPOINT", "APPENDA_TEST_WEED_PID"} & set(child)
    assert "Object storage: none (--no-storage)" in result.stderr
    assert os.listdir(scratch_tmp) == []  # no weed data directory was made


def test_testenv_ctrl_c_during_startup_cleans_up(scratch_tmp):
    # Like a terminal Ctrl-C: SIGINT to the whole process group, while the
    # services are still starting.
    proc = subprocess.Popen(
        [sys.executable, "-m", "infra.testenv", "--", "true"],
        cwd=REPO, env=_clean_env(scratch_tmp), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True,
    )
    try:
        assert wait_until(lambda: any(n.startswith("appenda-weed-") for n in os.listdir(scratch_tmp)), 10)
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGINT)
        _, stderr = proc.communicate(timeout=30)
        assert proc.returncode == 130, stderr
        assert "Object storage:" not in stderr
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert_nothing_left(scratch_tmp)
