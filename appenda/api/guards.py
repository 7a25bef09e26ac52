"""Text in a request's URL and query string that no query may take, refused for the whole API.

PostgreSQL refuses a NUL byte in text (psycopg raises before the query is sent), and an
unpaired surrogate is not UTF-8: either in a URL or a query parameter would reach some filter
and answer 500. The base views (``appenda.api.base``) call these before any view reads its
input: an object named in the path that cannot exist is not found (404), in the order of
R-RBAC-4; a query parameter no view can use is a 400 that names it.
"""

from __future__ import annotations

import re

from appenda.errors import DomainError, NotFound

# Longer than any search query (memories.limits.QUERY_MAX_CHARS), id or date a filter takes.
MAX_QUERY_VALUE_CHARS = 2000
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def url_kwargs_check(kwargs: dict) -> None:
    """404 for a path segment with a NUL byte, a surrogate or past the length of any id or slug."""
    for value in kwargs.values():
        if isinstance(value, str) and (_UNSTORABLE.search(value) or len(value) > MAX_QUERY_VALUE_CHARS):
            raise NotFound("Nothing was found at this address, or you may not see it.")


def query_params_check(query_params) -> None:
    """400 for a query parameter whose name or value no database would take."""
    for name, values in query_params.lists():
        named = {} if _UNSTORABLE.search(name) else {"field": name[:40]}
        for text in (name, *values):
            if _UNSTORABLE.search(text):
                raise DomainError(
                    f"The query parameter {name[:40]!r} contains a NUL byte or an unpaired surrogate; "
                    "send plain text.", code="invalid_text", **named,
                )
            if len(text) > MAX_QUERY_VALUE_CHARS:
                raise DomainError(
                    f"The query parameter {name[:40]!r} is at most {MAX_QUERY_VALUE_CHARS:,} characters long.",
                    code="too_long", **named,
                )
