"""Local workspaces (R-REGION-4): one encrypted SQLCipher file each, registered as a database alias.

A workspace of kind ``local`` keeps its region data (notes, turns, tables, audit) in
``APPENDA_DATA_DIR/local/<workspace id hex>.db`` instead of a region database. The file is a
SQLCipher database (``appenda.db.backends.sqlcipher``); its alias is ``local_<hex>``, which the
router treats as a region alias.

The key: scrypt (``hashlib.scrypt``, N=2^15, r=8, p=1: 32 MiB and about 0.1 s per derivation)
of the passphrase ``APPENDA_LOCAL_PASSPHRASE`` (environment or settings), salted with the
workspace's id, which is random and unique, so the same passphrase gives every file its own
key, and a copy of the file (a backup) opens with the same passphrase. The derived key is kept
in memory only.

Aliases are added to ``django.db.connections`` when a local workspace is created
(``local_database_create``, which also migrates the file) and when one is resolved for a request
(``local_database_register``); pytest-django never sees them, since they are not in the settings
the test databases are made from.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connections

from appenda.db.router import REGION_APPS
from appenda.errors import DomainError

log = logging.getLogger("appenda.local")

LOCAL_ALIAS_PREFIX = "local_"
ENGINE = "appenda.db.backends.sqlcipher"
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 1
SCRYPT_MAXMEM = 64 * 1024 * 1024
KEY_BYTES = 32


class LocalPassphraseMissing(DomainError):
    status = 400
    code = "local_passphrase_missing"


class LocalFileMissing(DomainError):
    status = 503
    code = "local_workspace_missing"


def local_alias(workspace_id) -> str:
    return f"{LOCAL_ALIAS_PREFIX}{workspace_id.hex}"


def local_path(workspace_id) -> Path:
    return Path(settings.APPENDA_DATA_DIR) / "local" / f"{workspace_id.hex}.db"


def local_passphrase() -> str:
    passphrase = getattr(settings, "APPENDA_LOCAL_PASSPHRASE", None) or os.environ.get("APPENDA_LOCAL_PASSPHRASE")
    if not passphrase:
        raise LocalPassphraseMissing(
            "Local workspaces are encrypted with a passphrase, and none is set: set APPENDA_LOCAL_PASSPHRASE "
            "(at least 12 characters) and restart Appenda."
        )
    if len(passphrase) < 12:
        raise LocalPassphraseMissing("APPENDA_LOCAL_PASSPHRASE is too short; use at least 12 characters.")
    return passphrase


@functools.lru_cache(maxsize=64)
def _derive(passphrase: str, salt: bytes) -> str:
    return hashlib.scrypt(passphrase.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P,
                          maxmem=SCRYPT_MAXMEM, dklen=KEY_BYTES).hex()


def local_key(workspace_id, passphrase: str | None = None) -> str:
    """The file's 256-bit key, hex: scrypt(passphrase, salt = "appenda-local:" + workspace id)."""
    return _derive(passphrase or local_passphrase(), b"appenda-local:" + workspace_id.bytes)


def local_database_settings(workspace_id, *, path: Path | None = None, passphrase: str | None = None) -> dict:
    return {
        "ENGINE": ENGINE,
        "NAME": str(path or local_path(workspace_id)),
        "CIPHER_KEY": local_key(workspace_id, passphrase),
        "OPTIONS": {"timeout": 20},
        # One process serves one person's computer: keep the connection (and its key check) open.
        "CONN_MAX_AGE": None,
    }


def register_alias(alias: str, config: dict) -> str:
    """Adds (or replaces) a database alias at run time, with Django's defaults filled in."""
    current = connections.settings.get(alias)
    if current is not None and all(current.get(k) == v for k, v in config.items()):
        return alias
    if current is not None:
        local_database_forget(alias)
    connections.configure_settings({DEFAULT_DB_ALIAS: connections.settings[DEFAULT_DB_ALIAS], alias: config})
    connections.settings[alias] = config
    try:
        # Open it now: a wrong passphrase fails here, when the workspace is resolved, with its
        # sentence, before any view starts writing.
        connections[alias].connect()
    except BaseException:
        local_database_forget(alias)
        raise
    return alias


def local_database_forget(alias: str) -> None:
    """Closes this thread's connection to ``alias`` and removes the alias."""
    if alias not in connections.settings:
        return
    try:
        connections[alias].close()
    finally:
        try:
            del connections[alias]  # this thread's connection object
        except AttributeError:
            pass
        connections.settings.pop(alias, None)


def local_database_available(workspace) -> bool:
    return local_path(workspace.id).exists()


def local_database_register(workspace) -> str:
    """Makes ``workspace.db_alias`` usable in this process; the file must exist."""
    if not local_database_available(workspace):
        raise LocalFileMissing(
            f"The file of local workspace {workspace.name!r} is not on this computer "
            f"({local_path(workspace.id)}); restore it from a backup or open Appenda where it lives."
        )
    return register_alias(local_alias(workspace.id), local_database_settings(workspace.id))


def local_database_create(workspace) -> str:
    """Creates the workspace's encrypted file and its tables (the region apps' migrations)."""
    passphrase = local_passphrase()  # refuse before anything is written
    path = local_path(workspace.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    alias = register_alias(local_alias(workspace.id), local_database_settings(workspace.id, passphrase=passphrase))
    try:
        # Only the region apps have tables there (the router says so); naming them spares
        # rendering every control app's migration state for nothing.
        for app_label in sorted(REGION_APPS):
            call_command("migrate", app_label, database=alias, interactive=False, verbosity=0)
    except BaseException:
        local_database_forget(alias)
        path.unlink(missing_ok=True)
        raise
    log.info("Created local workspace file %s", path)
    return alias
