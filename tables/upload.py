"""Reading a CSV upload as it arrives: capped in bytes, decoded as UTF-8, one line at a time.

The import (``tables.services.records_import_csv``) parses the lines as they come and stops at
the row after its limit, so a request body is never held whole in memory, and a body larger
than ``MAX_CSV_BYTES`` is refused (413) as soon as that many bytes have been read.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

from appenda.errors import DomainError

# 10,000 rows (the import's row limit) of about 2 KiB each: room for any table a person
# exports from a spreadsheet, small enough to parse within one request.
MAX_CSV_BYTES = 20 * 1024 * 1024
_CHUNK_BYTES = 64 * 1024


def too_large(max_bytes: int) -> DomainError:
    return DomainError(
        f"A CSV import is at most {max_bytes / (1024 * 1024):g} MiB; split the file and import the parts.",
        code="too_large", status=413,
    )


class _CappedStream(io.RawIOBase):
    """The request body as a raw stream that refuses to read past ``max_bytes``."""

    def __init__(self, stream, max_bytes: int):
        self._stream = stream
        self._left = max_bytes
        self._max_bytes = max_bytes

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        # One byte more than is left tells a body of exactly max_bytes from a longer one.
        chunk = self._stream.read(min(len(buffer), _CHUNK_BYTES, self._left + 1))
        if len(chunk) > self._left:
            raise too_large(self._max_bytes)
        self._left -= len(chunk)
        buffer[:len(chunk)] = chunk
        return len(chunk)


class CSVLines:
    """The lines of an uploaded CSV, line endings kept (as ``csv.reader`` wants them): iterate
    once. Bytes that are not UTF-8 are refused as ``invalid_csv``; a leading BOM is dropped."""

    def __init__(self, stream, *, max_bytes: int = MAX_CSV_BYTES):
        self._text = io.TextIOWrapper(io.BufferedReader(_CappedStream(stream, max_bytes), _CHUNK_BYTES),
                                      encoding="utf-8-sig", errors="strict", newline="")

    def __iter__(self) -> Iterator[str]:
        try:
            yield from self._text
        except UnicodeDecodeError:
            raise DomainError("The CSV must be UTF-8 text; save it as \"CSV UTF-8\" and import it again.",
                              code="invalid_csv") from None
