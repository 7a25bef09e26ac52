"""A workspace index kept in the region database, so a fresh worker loads it in binary parts.

A worker that has read a big workspace's notes whole (``WorkspaceIndex._load``: seconds at
100,000 notes, most of it per-note Python) writes what searching them needs as ``bytea`` rows
of ``memories_search_snapshot``, tagged with the change marker's version it was read at: note
ids, float16 vectors, the scope/layer/subject codes, term counts and the postings as flat arrays
(no texts: the notes a search returns are read by id). A field holds at most 1 GB, and a
million notes' snapshot is close to that, so a payload over ``PART_LIMIT`` takes several rows
(``seq`` 0, 1, …, written in one transaction); the ANN graph kept beside it is split the same
way. The next fresh worker reads those rows, and then only the notes changed since their
version (``memories.search.marker``).

The rows are read in 1 MiB slices of the uncompressed ``bytea`` (``read_in_parts``), and the
float16 vectors of each slice are widened to the index's float32 matrix on another thread while
the next one is read: at 100,000 notes the read (~0.24 s for 92 MB in one piece) and the
widening (~0.08 s) overlap. Keeping float32 vectors instead would need no widening but double
the bytes read, which is the larger cost.

The trigger that moves the marker deletes a workspace's rows whenever notes of the workspace
are deleted (a purge, a blind delete), so no deleted note outlives its row in a snapshot; an
edit leaves them (the index reads the changed note again on load, and drops its old row).
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from django.db import connections, transaction

from appenda.db.fast import execute, fast_cursor
from memories.search import marker
from memories.search.embedding import DIMS

FORMAT = 1
#: Below this many notes a fresh worker reads the notes themselves: as fast, and nothing to keep.
MIN_ROWS = 20000
#: A fresh worker reads a snapshot in parts of this many bytes (``read_in_parts``), and widens the
#: vectors of the parts it has while the next is read. Measured at 100,000 notes (92 MB), first
#: search of a fresh worker: one part 0.6-1.6 s, 16 MB 0.39-0.6 s, 4 MB 0.29-0.34 s, 1-2 MB
#: 0.22-0.27 s (the whole row in one read and widened after: 0.34-0.39 s).
PART_BYTES = 1024 * 1024
#: PostgreSQL keeps at most 1 GB in one field: a snapshot or graph is kept in rows of at most this
#: many bytes each (a million notes' snapshot is about 0.9 GB).
PART_LIMIT = 256 * 1024 * 1024
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


def header_of(payload, available: int | None = None) -> tuple[dict, int] | None:
    """A payload's header and where its arrays start; None until ``available`` bytes (all of
    them by default) hold the whole header."""
    buffer = memoryview(payload)
    available = len(buffer) if available is None else available
    if available < 4:
        return None
    (size,) = struct.unpack_from("<I", buffer)
    if available < 4 + size:
        return None
    return json.loads(bytes(buffer[4:4 + size])), 4 + size


def layout(header: dict, start: int) -> dict[str, tuple[str, list[int], int]]:
    """Where each array of a payload is: name -> (dtype, shape, offset)."""
    found, offset = {}, start
    for (name, dtype), (_, shape) in zip(_ARRAYS, header["arrays"]):
        found[name] = (dtype, shape, offset)
        offset += (int(np.prod(shape)) if shape else 0) * np.dtype(dtype).itemsize
    return found


def unpack(payload) -> tuple[dict[str, np.ndarray], list, list[str], int] | None:
    head = header_of(payload)
    if head is None or head[0].get("format") != FORMAT:
        return None
    header, start = head
    arrays = {}
    for name, (dtype, shape, offset) in layout(header, start).items():
        count = int(np.prod(shape)) if shape else 0
        arrays[name] = np.frombuffer(payload, dtype=dtype, count=count, offset=offset).reshape(shape)
    return arrays, header["codes"], header["terms"], header["version"]


def _split(data: bytes) -> list[bytes]:
    view = memoryview(data)
    return [bytes(view[at:at + PART_LIMIT]) for at in range(0, max(len(data), 1), PART_LIMIT)]


def _parts(cursor, connection, workspace) -> list[tuple[int, int, int]]:
    """(seq, version, payload length) of each kept part, in order."""
    execute(cursor, connection, "SELECT seq, version, length(payload) FROM memories_search_snapshot "
            "WHERE workspace_id = %s ORDER BY seq", [workspace])
    return [(int(seq), int(version), int(length)) for seq, version, length in cursor.fetchall()]


def _whole(parts: list[tuple[int, int, int]]) -> int | None:
    """The version of a complete snapshot (parts 0..n-1, all of one version), or None."""
    if not parts or [seq for seq, _, _ in parts] != list(range(len(parts))):
        return None
    versions = {version for _, version, _ in parts}
    return versions.pop() if len(versions) == 1 else None


def read(alias: str, workspace_id):
    """The workspace's snapshot as (version, payload), or None."""
    found = read_in_parts(alias, workspace_id, lambda version: True, lambda payload, end: None)
    return (found[0], bytes(found[1])) if found else None


def read_in_parts(alias: str, workspace_id, wanted: Callable[[int], bool],
                  on_part: Callable[[bytearray, int], None]) -> tuple[int, bytearray] | None:
    """The workspace's snapshot as (version, payload), read ``PART_BYTES`` at a time (an
    uncompressed ``bytea`` is sliced without reading the rest), calling ``on_part(payload, bytes
    read so far)`` after each slice. None when there is none, ``wanted(version)`` is false, or
    the rows were replaced or deleted while they were read (every slice is read at the first
    one's version: slices of two snapshots are never mixed)."""
    connection = connections[alias]
    workspace = marker.workspace_param(alias, workspace_id)
    with fast_cursor(connection) as cursor:
        parts = _parts(cursor, connection, workspace)
        version = _whole(parts)
        if version is None or not wanted(version):
            return None
        payload, end = bytearray(sum(length for _, _, length in parts)), 0
        for seq, _, length in parts:
            done = 0
            while done < length:
                execute(cursor, connection,
                        "SELECT substr(payload, CAST(%s AS INTEGER), CAST(%s AS INTEGER)) FROM memories_search_snapshot "
                        "WHERE workspace_id = %s AND seq = %s AND version = %s",
                        [done + 1, PART_BYTES, workspace, seq, version], binary=True)
                row = cursor.fetchone()
                if row is None or not row[0]:
                    return None
                payload[end:end + len(row[0])] = row[0]
                end += len(row[0])
                done += len(row[0])
                on_part(payload, end)
    return version, payload


def _lock(cursor, connection, workspace_id) -> bool:
    """Whether this transaction may write the workspace's snapshot: one writer at a time, and the
    others skip rather than wait (what they would write is being kept already); SQLite has one
    writer at a time anyway."""
    if connection.vendor != "postgresql":
        return True
    cursor.execute("SELECT pg_try_advisory_xact_lock(hashtextextended(%s, 0))", [f"appenda-snapshot:{workspace_id}"])
    return bool(cursor.fetchone()[0])


def write(alias: str, workspace_id, version: int, payload: bytes) -> None:
    """Keeps ``payload`` as the workspace's snapshot unless a newer one is there already; in
    parts of at most ``PART_LIMIT`` bytes, in one transaction."""
    connection = connections[alias]
    workspace = marker.workspace_param(alias, workspace_id)
    with transaction.atomic(using=alias), fast_cursor(connection) as cursor:
        if not _lock(cursor, connection, workspace_id):
            return
        kept = _whole(_parts(cursor, connection, workspace))
        if kept is not None and kept >= version:
            return
        execute(cursor, connection, "DELETE FROM memories_search_snapshot WHERE workspace_id = %s", [workspace])
        for seq, part in enumerate(_split(payload)):
            execute(cursor, connection, "INSERT INTO memories_search_snapshot (workspace_id, seq, version, payload) "
                    "VALUES (%s, %s, %s, %s)", [workspace, seq, version, part])


def write_graph(alias: str, workspace_id, version: int, graph: bytes) -> bool:
    """Keeps ``graph`` (``memories.search.ann``) beside the snapshot of ``version``, whose rows it
    numbers, in parts of at most ``PART_LIMIT`` bytes (rows beyond the snapshot's own carry an
    empty payload); False when that snapshot is gone or was replaced."""
    connection = connections[alias]
    workspace = marker.workspace_param(alias, workspace_id)
    with transaction.atomic(using=alias), fast_cursor(connection) as cursor:
        if not _lock(cursor, connection, workspace_id):
            return False
        parts = _parts(cursor, connection, workspace)
        if _whole(parts) != version:
            return False
        execute(cursor, connection, "UPDATE memories_search_snapshot SET graph = NULL WHERE workspace_id = %s",
                [workspace])
        for seq, part in enumerate(_split(graph)):
            if seq < len(parts):
                execute(cursor, connection, "UPDATE memories_search_snapshot SET graph = %s "
                        "WHERE workspace_id = %s AND seq = %s", [part, workspace, seq])
            else:
                execute(cursor, connection, "INSERT INTO memories_search_snapshot "
                        "(workspace_id, seq, version, payload, graph) VALUES (%s, %s, %s, %s, %s)",
                        [workspace, seq, version, b"", part])
        return True


def build_lock_key(workspace_id) -> str:
    """The text whose hash names the workspace's graph-building advisory lock."""
    return f"appenda-graph:{workspace_id}"


def try_build_lock(alias: str, workspace_id) -> bool:
    """Whether this thread's connection may build the workspace's graph: a session-level advisory
    lock on PostgreSQL (``release_build_lock`` gives it back: a pooled connection outlives its
    user), so that one worker builds it and the others read it once kept; always True on SQLite
    (one process serves it)."""
    connection = connections[alias]
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", [build_lock_key(workspace_id)])
        return bool(cursor.fetchone()[0])


def release_build_lock(alias: str, workspace_id) -> None:
    connection = connections[alias]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [build_lock_key(workspace_id)])


def read_graph(alias: str, workspace_id, version: int):
    """The graph kept beside the snapshot of ``version`` (its parts joined), or None."""
    connection = connections[alias]
    with fast_cursor(connection) as cursor:
        execute(cursor, connection, "SELECT version, graph FROM memories_search_snapshot WHERE workspace_id = %s "
                "ORDER BY seq", [marker.workspace_param(alias, workspace_id)], binary=True)
        rows = cursor.fetchall()
    if not rows or any(int(v) != version for v, _ in rows):
        return None
    parts = [graph for _, graph in rows if graph is not None]
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else b"".join(parts)


class Widening:
    """Widens a snapshot's float16 vectors into an index's matrix as the parts of the snapshot
    arrive (``snapshot.read_in_parts``), on one thread of its own; ``finish`` waits for it and
    says how many rows were widened (all of them, or 0 when it could not start)."""

    def __init__(self, index):
        self.index = index
        self.rows = self.done = 0
        self.vectors_at = -1
        self.pool: ThreadPoolExecutor | None = None
        self.jobs: list = []

    def part(self, payload: bytearray, end: int) -> None:
        if self.vectors_at < 0:
            head = header_of(payload, end)
            if head is None or head[0].get("format") != FORMAT:
                return
            where = layout(*head)
            self.rows, self.vectors_at = where["vectors"][1][0], where["vectors"][2]
            self.index._clear(self.rows + 256)
            self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="appenda-snapshot")
        ready = min(self.rows, max(0, end - self.vectors_at) // (2 * DIMS))
        if ready > self.done:
            self.jobs.append(self.pool.submit(self._widen, payload, self.done, ready))
            self.done = ready

    def _widen(self, payload: bytearray, start: int, stop: int) -> None:
        half = np.frombuffer(payload, dtype="<f2", count=(stop - start) * DIMS, offset=self.vectors_at + start * 2 * DIMS)
        self.index.matrix[start:stop] = half.reshape(stop - start, DIMS)

    def finish(self) -> int:
        if self.pool is None:
            return 0
        self.pool.shutdown(wait=True)
        for job in self.jobs:
            job.result()
        return self.rows if self.done == self.rows else 0
