"""A workspace index kept in the region database, so a fresh worker loads it in one binary read.

A worker that has read a big workspace's notes whole (``WorkspaceIndex._load``: seconds at
100,000 notes, most of it per-note Python) writes what searching them needs as one ``bytea`` row
of ``memories_search_snapshot``, tagged with the change marker's version it was read at: note
ids, float16 vectors, the scope/layer/subject codes, term counts and the postings as flat arrays
(no texts: the notes a search returns are read by id). The next fresh worker reads that row, and
then only the notes changed since its version (``memories.search.marker``).

The trigger that moves the marker deletes the row whenever notes of the workspace are deleted
(a purge, a blind delete), so no deleted note outlives its row in a snapshot; an edit leaves it
(the index reads the changed note again on load, and drops its old row).
"""

from __future__ import annotations

import json
import struct

import numpy as np
from django.db import connections

from appenda.db.fast import execute, fast_cursor
from memories.search import marker

FORMAT = 1
#: Below this many notes a fresh worker reads the notes themselves: as fast, and nothing to keep.
MIN_ROWS = 20000
_ARRAYS = (("ids", "S16"), ("vectors", "<f2"), ("has_vector", "?"), ("scope", "<i4"), ("layer", "<i4"),
           ("subject", "<i4"), ("length", "<f8"), ("offsets", "<i8"), ("rows", "<i4"), ("counts", "<f4"))


def pack(arrays: dict[str, np.ndarray], codes: list, terms: list[str], version: int) -> bytes:
    header = {"format": FORMAT, "version": version, "codes": codes, "terms": terms, "arrays": []}
    blobs = []
    for name, dtype in _ARRAYS:
        data = np.ascontiguousarray(arrays[name], dtype=dtype)
        header["arrays"].append([name, list(data.shape)])
        blobs.append(data.tobytes())
    head = json.dumps(header, separators=(",", ":")).encode()
    return struct.pack("<I", len(head)) + head + b"".join(blobs)


def unpack(payload) -> tuple[dict[str, np.ndarray], list, list[str], int] | None:
    buffer = memoryview(payload)
    (size,) = struct.unpack_from("<I", buffer)
    header = json.loads(bytes(buffer[4:4 + size]))
    if header.get("format") != FORMAT:
        return None
    arrays, offset = {}, 4 + size
    for (name, dtype), (_, shape) in zip(_ARRAYS, header["arrays"]):
        count = int(np.prod(shape)) if shape else 0
        data = np.frombuffer(buffer, dtype=dtype, count=count, offset=offset).reshape(shape)
        arrays[name] = data
        offset += data.nbytes
    return arrays, header["codes"], header["terms"], header["version"]


def read(alias: str, workspace_id):
    """The workspace's snapshot row as (version, payload), or None."""
    connection = connections[alias]
    with fast_cursor(connection) as cursor:
        execute(cursor, connection, "SELECT version, payload FROM memories_search_snapshot WHERE workspace_id = %s",
                [marker.workspace_param(alias, workspace_id)], binary=True)
        row = cursor.fetchone()
    return (int(row[0]), row[1]) if row else None


def write(alias: str, workspace_id, version: int, payload: bytes) -> None:
    """Keeps ``payload`` as the workspace's snapshot unless a newer one is there already."""
    connection = connections[alias]
    with fast_cursor(connection) as cursor:
        execute(cursor, connection,
                "INSERT INTO memories_search_snapshot (workspace_id, version, payload) VALUES (%s, %s, %s) "
                "ON CONFLICT (workspace_id) DO UPDATE SET version = excluded.version, payload = excluded.payload "
                "WHERE memories_search_snapshot.version < excluded.version",
                [marker.workspace_param(alias, workspace_id), version, payload])
