"""Django's SQLite backend, with errors that carry their alias (``appenda.db.backends.tagging``).

The embedded default's concurrency settings (WAL, busy timeout, ``BEGIN IMMEDIATE``) are plain
Django OPTIONS, set in ``appenda.settings.regions``.
"""

from __future__ import annotations

from django.db.backends.sqlite3 import base as sqlite_base

from appenda.db.backends.tagging import AliasTaggedErrors


class DatabaseWrapper(AliasTaggedErrors, sqlite_base.DatabaseWrapper):
    pass
