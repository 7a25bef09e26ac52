"""Django's SQLite backend on SQLCipher: every page of the file is encrypted (AES-256, HMAC-SHA512).

Why this is built the way it is: a local workspace keeps its notes, turns, tables and audit in
one file on the user's computer, and without the key the file must reveal nothing (R-REGION-4).
We never write a cipher ourselves. SQLCipher (through the ``sqlcipher3`` DB-API module, the
same API as the standard ``sqlite3``) encrypts every page of the database, its journal and its
temporary files; Django's own SQLite backend does everything else, so the SQL, the schema
editor and the migrations are exactly those of SQLite.

The key is a raw 256-bit key (``PRAGMA key = "x'…'"``) derived from a passphrase with scrypt by
``appenda.db.local``; it is given in the settings entry ``CIPHER_KEY`` (hex), never written to
disk. The key is checked when the connection opens, so a wrong passphrase fails at once with
``LocalWorkspaceLocked`` and a sentence, not later with "file is not a database".
"""

from __future__ import annotations

import datetime
import decimal
import re
from collections.abc import Mapping
from itertools import tee

from django.db.backends.sqlite3 import base as sqlite_base
from django.db.backends.sqlite3._functions import register as register_functions
from django.utils.asyncio import async_unsafe
from django.utils.dateparse import parse_date, parse_datetime, parse_time
from sqlcipher3 import dbapi2 as Database

from appenda.errors import DomainError

# The converters and adapters Django registers on the standard sqlite3 module, on this one.
Database.register_converter("bool", b"1".__eq__)
Database.register_converter("date", sqlite_base.decoder(parse_date))
Database.register_converter("time", sqlite_base.decoder(parse_time))
Database.register_converter("datetime", sqlite_base.decoder(parse_datetime))
Database.register_converter("timestamp", sqlite_base.decoder(parse_datetime))
Database.register_adapter(decimal.Decimal, str)
Database.register_adapter(datetime.date, sqlite_base.adapt_date)
Database.register_adapter(datetime.datetime, sqlite_base.adapt_datetime)

_HEX_KEY = re.compile(r"[0-9a-f]{64}")
_FORMAT_QMARK = re.compile(r"(?<!%)%s")


class LocalWorkspaceLocked(DomainError):
    """The file cannot be opened with the key derived from this passphrase."""

    status = 503
    code = "local_workspace_locked"


class SQLCipherCursorWrapper(Database.Cursor):
    """Django's "format"/"pyformat" parameters on SQLCipher's cursor (as SQLiteCursorWrapper does)."""

    def execute(self, query, params=None):
        if params is None:
            return super().execute(query)
        param_names = list(params) if isinstance(params, Mapping) else None
        return super().execute(self.convert_query(query, param_names=param_names), params)

    def executemany(self, query, param_list):
        peekable, param_list = tee(iter(param_list))
        first = next(peekable, None)
        param_names = list(first) if first and isinstance(first, Mapping) else None
        return super().executemany(self.convert_query(query, param_names=param_names), param_list)

    def convert_query(self, query, *, param_names=None):
        if param_names is None:
            return _FORMAT_QMARK.sub("?", query).replace("%%", "%")
        return query % {name: f":{name}" for name in param_names}


class DatabaseWrapper(sqlite_base.DatabaseWrapper):
    display_name = "SQLCipher"
    Database = Database

    def get_connection_params(self):
        params = super().get_connection_params()
        params["detect_types"] = Database.PARSE_DECLTYPES | Database.PARSE_COLNAMES
        return params

    def _cipher_key(self) -> str:
        key = str(self.settings_dict.get("CIPHER_KEY") or "").lower()
        if not _HEX_KEY.fullmatch(key):
            raise LocalWorkspaceLocked("No key was given for this local workspace's file; set APPENDA_LOCAL_PASSPHRASE.")
        return key

    @async_unsafe
    def get_new_connection(self, conn_params):
        key = self._cipher_key()
        conn = Database.connect(**conn_params)
        try:
            # The key must be the first statement on the connection (SQLCipher's rule).
            conn.execute(f"PRAGMA key = \"x'{key}'\"")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except Database.DatabaseError:
            conn.close()
            raise LocalWorkspaceLocked(
                f"The local workspace file {self.settings_dict['NAME']} cannot be opened with this passphrase: "
                "APPENDA_LOCAL_PASSPHRASE is wrong, or the file is not an Appenda workspace. Nothing was read "
                "or changed."
            ) from None
        register_functions(conn)
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA legacy_alter_table = OFF")
        for init_command in self.init_commands:
            if init_command := init_command.strip():
                conn.execute(init_command)
        return conn

    def create_cursor(self, name=None):
        return self.connection.cursor(factory=SQLCipherCursorWrapper)
