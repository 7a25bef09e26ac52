"""One object-store interface per region, with an S3 and a local-folder implementation.

Exports and other region objects are written to the bucket of the workspace's region and
nowhere else. S3 works with any S3 API (AWS, SeaweedFS, MinIO); the local folder is the
embedded default, with downloads served by a signed, short-lived link.
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO, Protocol

import boto3
from boto3.exceptions import S3UploadFailedError
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError
from django.conf import settings
from django.core import signing
from django.urls import reverse

LINK_SALT = "appenda.storage.local-link"
S3_CONNECT_TIMEOUT_SECONDS = float(os.environ.get("APPENDA_S3_CONNECT_TIMEOUT", "1"))
S3_READ_TIMEOUT_SECONDS = float(os.environ.get("APPENDA_S3_READ_TIMEOUT", "1.5"))
S3_ATTEMPTS = int(os.environ.get("APPENDA_S3_ATTEMPTS", "1"))
# The store of local workspaces (R-REGION-4): a folder next to their encrypted files. The name
# cannot be a region's (region names are letters and digits only).
LOCAL_STORE = "~local"


class StorageUnavailable(RuntimeError):
    """The region's object store could not be reached or refused the request."""

    def __init__(self, region: str, cause: Exception):
        super().__init__(f"the object store of region {region!r} is unavailable: {cause}")
        self.region = region


class ObjectStore(Protocol):
    region: str

    def put(self, key: str, data: bytes | BinaryIO, content_type: str = "application/octet-stream") -> None: ...
    def get(self, key: str) -> bytes: ...
    def delete(self, key: str) -> None: ...
    def list(self, prefix: str = "") -> Iterator[str]: ...
    def link(self, key: str, expires_in: int, filename: str | None = None) -> str: ...
    def modified(self, key: str) -> datetime: ...
    def check(self) -> None: ...


def _safe_key(key: str) -> str:
    parts = key.split("/")
    if not key or key.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise ValueError(f"object key {key!r} is not a plain relative path")
    return key


class LocalObjectStore:
    """Objects as files under a folder: the embedded default."""

    def __init__(self, region: str, root: Path):
        self.region = region
        self.root = root

    def _path(self, key: str) -> Path:
        return self.root / _safe_key(key)

    def _unavailable(self, exc: OSError) -> StorageUnavailable:
        # A folder that cannot be read or written is a store that is down, like an S3 endpoint
        # that refuses connections; a missing object stays FileNotFoundError.
        return StorageUnavailable(self.region, exc)

    def put(self, key, data, content_type="application/octet-stream"):
        path = self._path(key)
        tmp = path.with_name(path.name + ".part")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as out:
                if isinstance(data, bytes):
                    out.write(data)
                else:
                    shutil.copyfileobj(data, out)
            tmp.replace(path)  # readers never see a half-written object
        except OSError as exc:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass  # the folder itself is gone or unreadable: nothing was left behind
            raise self._unavailable(exc) from exc

    def get(self, key):
        try:
            return self._path(key).read_bytes()
        except FileNotFoundError:
            raise
        except OSError as exc:
            raise self._unavailable(exc) from exc

    def open(self, key) -> BinaryIO:
        try:
            return open(self._path(key), "rb")
        except FileNotFoundError:
            raise
        except OSError as exc:
            raise self._unavailable(exc) from exc

    def delete(self, key):
        try:
            self._path(key).unlink(missing_ok=True)
        except OSError as exc:
            raise self._unavailable(exc) from exc

    def list(self, prefix=""):
        try:
            if not self.root.exists():
                return
            paths = sorted(self.root.rglob("*"))
        except OSError as exc:
            raise self._unavailable(exc) from exc
        for path in paths:
            if path.is_file() and not path.name.endswith(".part"):
                key = path.relative_to(self.root).as_posix()
                if key.startswith(prefix):
                    yield key

    def modified(self, key):
        try:
            return datetime.fromtimestamp(self._path(key).stat().st_mtime, tz=UTC)
        except FileNotFoundError:
            raise
        except OSError as exc:
            raise self._unavailable(exc) from exc

    def link(self, key, expires_in, filename=None):
        token = signing.dumps({"r": self.region, "k": _safe_key(key), "f": filename, "t": expires_in}, salt=LINK_SALT)
        return reverse("object-download", kwargs={"token": token})

    def check(self):
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            probe = self.root / ".appenda-check"
            probe.write_bytes(b"ok")
            probe.unlink()
        except OSError as exc:
            raise self._unavailable(exc) from exc


class S3ObjectStore:
    """Objects in one S3 bucket per region."""

    def __init__(self, region: str, endpoint: str, bucket: str):
        self.region = region
        self.bucket = bucket
        self.client = boto3.client(
            "s3",
            endpoint_url=endpoint,
            # A bucket that hangs answers 503 within a few seconds (R-REGION-3), not after
            # botocore's default 60 s and retries: short socket timeouts and, by default, one
            # attempt. A PUT to a frozen server costs ~3 s (1 s waiting for "100 Continue", then
            # the read timeout); a retry would double it, and the client retries after Retry-After.
            config=Config(
                connect_timeout=S3_CONNECT_TIMEOUT_SECONDS,
                read_timeout=S3_READ_TIMEOUT_SECONDS,
                retries={"total_max_attempts": S3_ATTEMPTS, "mode": "standard"},
                s3={"addressing_style": "path"},
                signature_version="s3v4",
            ),
        )

    def _call(self, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (BotoCoreError, ClientError, S3UploadFailedError) as exc:
            code = exc.response.get("Error", {}).get("Code") if isinstance(exc, ClientError) else None
            if code in ("NoSuchKey", "404", "NotFound"):
                raise FileNotFoundError(kwargs.get("Key", "")) from exc
            raise StorageUnavailable(self.region, exc) from exc

    def put(self, key, data, content_type="application/octet-stream"):
        if isinstance(data, bytes):
            self._call(self.client.put_object, Bucket=self.bucket, Key=_safe_key(key), Body=data, ContentType=content_type)
        else:
            self._call(
                self.client.upload_fileobj, data, self.bucket, _safe_key(key), ExtraArgs={"ContentType": content_type}
            )

    def get(self, key):
        return self._call(self.client.get_object, Bucket=self.bucket, Key=_safe_key(key))["Body"].read()

    def delete(self, key):
        self._call(self.client.delete_object, Bucket=self.bucket, Key=_safe_key(key))

    def list(self, prefix=""):
        paginator = self.client.get_paginator("list_objects_v2")
        try:
            for page in paginator.paginate(Bucket=self.bucket, Prefix=prefix):
                for item in page.get("Contents", []):
                    yield item["Key"]
        except (BotoCoreError, ClientError) as exc:
            raise StorageUnavailable(self.region, exc) from exc

    def modified(self, key):
        return self._call(self.client.head_object, Bucket=self.bucket, Key=_safe_key(key))["LastModified"]

    def link(self, key, expires_in, filename=None):
        params = {"Bucket": self.bucket, "Key": _safe_key(key)}
        if filename:
            params["ResponseContentDisposition"] = f'attachment; filename="{filename}"'
        return self._call(self.client.generate_presigned_url, "get_object", Params=params, ExpiresIn=expires_in)

    def check(self):
        try:
            self.client.head_bucket(Bucket=self.bucket)
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("404", "NoSuchBucket"):
                self._call(self.client.create_bucket, Bucket=self.bucket)
                return
            raise StorageUnavailable(self.region, exc) from exc
        except BotoCoreError as exc:
            raise StorageUnavailable(self.region, exc) from exc


@functools.cache
def store_for_region(region: str) -> ObjectStore:
    if region == LOCAL_STORE:
        return LocalObjectStore(LOCAL_STORE, Path(settings.APPENDA_DATA_DIR) / "local" / "objects")
    config = settings.REGION_STORAGE.get(region)
    if config is None:
        raise KeyError(f"unknown region {region!r}")
    if config.s3_endpoint:
        return S3ObjectStore(region, config.s3_endpoint, config.bucket)
    return LocalObjectStore(region, config.local_root)


def store_name_for_workspace(workspace) -> str:
    """A cloud workspace's objects go to its region's bucket; a local workspace's stay on the computer."""
    return LOCAL_STORE if workspace.kind == "local" else workspace.region


def store_for_workspace(workspace) -> ObjectStore:
    return store_for_region(store_name_for_workspace(workspace))
