"""Credential URLs and connection strings (R-SAVE-2): ``scheme://user:password@host`` and
ADO.NET / ODBC ``Server=...;Password=...;``. The patterns and their filters; ``secret_formats``
turns them into rules.

Which passwords in a URL are placeholders
-----------------------------------------
SPEC R-SAVE-2 refuses text that *looks like* a credential URL, so the form decides, not whether
the password is a good one: ``ftp://user:pass@example.com`` and ``https://admin:secret@host``
are refused (every scanner we compared reports them, and a real password can be "secret").
What stays benign is a password written *as a template*, where the form says "fill this in":

* template syntax: ``<password>``, ``{password}``, ``${DB_PASSWORD}``, ``$PGPASSWORD``,
  ``%(password)s``, ``[password]``;
* a name in capitals: ``postgres://USER:PASSWORD@HOST`` (the documentation convention for a
  value to replace; ``DB_PASSWORD`` the same);
* masking: ``***``, ``xxx``, ``...``, ``redacted`` / ``hidden`` / ``masked`` / ``removed``;
  ``your_password``, ``your-password-here``;
* the password repeating the user name (``postgres:postgres@localhost``): an image's default.
"""
from __future__ import annotations

import re

from memories.refusals.secret_stand_ins import (
    _is_placeholder,
)
from memories.refusals.secret_values import (
    _compile,
    up_to_a_note,
)

# Masked or removed, said in one word: the note keeps the URL's shape without its password.
_MASKED_WORDS = frozenset({"redacted", "hidden", "masked", "removed"})


def is_url_placeholder(password: str) -> bool:
    """A URL password written as a template or masked (module docstring); a lower-case word
    such as "pass" or "password" is not one: the URL is credential-shaped all the same."""
    if not _is_placeholder(password):
        return False
    if password.isalpha() and not password.isupper():
        return set(password.lower()) == {"x"} or password.lower() in _MASKED_WORDS
    return True


# Credential URLs: scheme://user:password@host. detect-secrets' BasicAuthDetector excludes RFC
# 3986 sub-delimiters from the password; people paste unencoded passwords ("S3cr3t!"), so this
# accepts them and filters placeholders instead. The user may be empty ("redis://:pw@host").
DB_SCHEMES = frozenset((
    "postgres", "postgresql", "mysql", "mariadb", "mongodb", "redis", "rediss", "amqp", "amqps",
    "mssql", "sqlserver", "oracle", "jdbc", "clickhouse", "cockroachdb", "snowflake", "neo4j",
    "bolt", "cassandra", "couchdb", "elasticsearch", "memcached", "kafka", "nats", "ldap", "ldaps",
    "ftp", "ftps", "sftp", "smtp", "smtps", "imap", "imaps", "ssh", "rabbitmq", "db2",
))

CREDENTIAL_URL_PATTERN = (
    r"(?<![A-Za-z0-9+.\-])(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]{1,30})://"
    # The password runs to the last "@" before the host: people paste unencoded passwords
    # with "@", "&" or "$" in them ("https://ci:p@ss&w$rd@git.example.com").
    r"(?P<user>[^\s:/@\"'<>]{0,128}):(?P<password>[^\s/\"'<>]" + up_to_a_note(1) + r")@"
    r"(?P<host>[A-Za-z0-9\-._~%\[\]:]+)"
)


def password_is_user(match: re.Match, text: str) -> bool:
    """"postgres://postgres:postgres@…": the password repeats the user name (an image default)."""
    password = match.group(1)
    start = match.start(1)
    return text[max(0, start - len(password) - 3): start] == f"//{password}:"


def basic_auth_url_accept(match: re.Match, text: str) -> bool:
    """For detect-secrets' BasicAuthDetector pattern (group 1 is the password)."""
    return not is_url_placeholder(match.group(1)) and not password_is_user(match, text)


def credential_url_accept(match: re.Match, text: str) -> bool:
    password = match.group("password")
    if is_url_placeholder(password):
        return False
    if password.isdigit() and len(password) <= 5 and "." in match.group("user"):
        return False  # "host.example:8080@..." is a host and a port, not a user and a password
    if password == match.group("user"):
        return False  # "postgres://postgres:postgres@localhost": an image's default, not a secret
    return True


def credential_url_kind(match: re.Match) -> str:
    scheme = match.group("scheme").lower().split("+")[0]
    return "connection_string" if scheme in DB_SCHEMES else "basic_auth_url"


# ADO.NET / ODBC / JDBC key-value connection strings: "Server=...;User Id=...;Password=...;".
_ADO_CONTEXT_RE = _compile(
    r"(?:server|data source|host|user id|uid|username|initial catalog|database|driver|"
    r"dsn|port|addr|address)\s*="
)
ADO_PATTERN = (
    r"(?i)(?<![A-Za-z])(?:password|pwd|passwd)\s*=\s*[\"'{]?"
    r"(?P<value>[^;\"'}\s]" + up_to_a_note(1) + r")(?=[\"'}]?\s*(?:;|$|\s))"
)


def ado_accept(match: re.Match, text: str) -> bool:
    window = text[max(0, match.start() - 300): match.end() + 200].lower()
    value = match.group("value")
    return bool(_ADO_CONTEXT_RE.search(window)) and not _is_placeholder(value) and len(value) >= 3
