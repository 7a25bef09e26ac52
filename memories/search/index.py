"""A worker's search index of one workspace: what a turn's memory_search ranks (issue 20).

One per (database, workspace) in the worker, holding every active note of the workspace out of
the trash, whatever its scope:

* the note vectors as one float32 matrix, a row per note (``has_vector`` where it has one);
* per row, codes of its scope, layer and subject: a search's visibility is a boolean mask over
  the rows (``mask``: the turn's scopes, and the layer or subject asked for), never a query;
* an inverted index of the notes' terms (term -> rows and counts, from ``Note.search_terms``)
  and the words for prefix and typo matching, so BM25 reads the postings of the query's terms
  only (``memories.search.ranked`` scores them over the mask).

From ``ann.MIN_ROWS`` notes on it also has an ANN graph of its rows (``memories.search.ann``),
which searches ask instead of comparing every row.

It is kept current by the workspace's change marker (``memories.search.marker``): a search reads
one version row; when it moved, the notes changed since are read by id, their old rows dropped
from the mask and their new state appended (a row is never rewritten, so the postings only
grow). When a quarter of the rows are dropped ones, the index is read again whole.

Indexes are kept per worker within ``SEARCH_CACHE_BYTES`` (``APPENDA_SEARCH_CACHE_BYTES``,
default 384 MiB: one 100k-note workspace with its ANN graph, ``memories.search.ann``), least
recently searched forgotten first.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import uuid
from array import array
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
from django.db import DatabaseError, connections

from appenda.db.fast import execute, fast_cursor
from memories.models import Note
from memories.search import ann, marker, snapshot
from memories.search.embedding import DIMS
from memories.search.fulltext import Vocabulary
from memories.search.hybrid import Signals, note_id_text, signals_and_blobs
from memories.search.vectors import vectors_into
from memories.search.visible import Visible

logger = logging.getLogger(__name__)

SEARCH_CACHE_BYTES = int(os.environ.get("APPENDA_SEARCH_CACHE_BYTES", str(384 * 1024 * 1024)))
#: What a row of an index costs besides its vector and texts (Python objects, postings), measured
#: with tracemalloc at 100,000 notes of benchmarks/bench_scale.py.
ROW_OVERHEAD_BYTES = 600
_READ_BATCH = 500
_COLUMNS = ("scope", "key", "value", "layer", "pinned", "subject_kind", "subject_id", "search_text",
            "search_terms", "embedding")


def _column(name: str) -> str:
    return Note._meta.get_field(name).column


class WorkspaceIndex:
    """The active notes of one workspace, searchable by mask (see the module's docstring)."""

    def __init__(self, alias: str, workspace_id):
        self.alias, self.workspace_id = alias, workspace_id
        self.lock = threading.Lock()
        self.version = -1
        self.generation = 0
        self._clear(0)

    def _clear(self, capacity: int) -> None:
        self.n = 0
        # The ANN graph numbers these rows: a new set of rows is a new generation, and its graph
        # is built (or read) again (``ann_graph``). ``kept`` is the snapshot row's (version, rows).
        self.generation += 1
        self.graph: ann.Graph | None = None
        self.kept: tuple[int, int] | None = None
        self.matrix = np.empty((capacity, DIMS), dtype=np.float32)
        self.has_vector = np.zeros(capacity, dtype=bool)
        self.alive = np.zeros(capacity, dtype=bool)
        self.scope = np.zeros(capacity, dtype=np.int32)
        self.layer = np.zeros(capacity, dtype=np.int32)
        self.subject = np.zeros(capacity, dtype=np.int32)
        self.length = np.zeros(capacity, dtype=np.float64)
        self.signals: list[Signals | None] = []  # None until read, for rows loaded from a snapshot
        # Note ids: a snapshot's rows' as one hex string (made into a dict only when a change
        # needs it), then the appended rows'.
        self._base_hex, self._base_n, self._base_mapped = "", 0, True
        self.ids: list[str] = []
        self.row_of: dict[str, int] = {}
        self.codes: dict[tuple, int] = {}
        # Postings: a snapshot's, as flat arrays (``base_terms`` -> a slice of ``base_rows``), and
        # those of the rows appended since, per term.
        self.base_terms: dict[str, int] = {}
        self.base_offsets = np.zeros(1, dtype=np.int64)
        self.base_rows = np.zeros(0, dtype=np.int32)
        self.base_counts = np.zeros(0, dtype=np.float32)
        self.postings: dict[str, tuple[array, array]] = {}
        self._posting_arrays: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self.posting_arrays_nbytes = 0  # kept as they come and go: nbytes() runs after each search
        self.words: Vocabulary | None = None
        self.dead = 0
        self.text_bytes = 0
        self._masks: OrderedDict = OrderedDict()
        self._scratch: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self.scratch_nbytes = 0

    # ----------------------------------------------------------------- reading the database

    def _select(self, ids: Sequence[str] | None) -> list[tuple]:
        """The rows of these notes (all the workspace's when ``ids`` is None) as ``_append`` reads them."""
        connection = connections[self.alias]
        columns, where, params = self._note_query(connection, ids)
        sql = f"SELECT {columns} FROM {connection.ops.quote_name(Note._meta.db_table)} n WHERE {where}"
        with fast_cursor(connection) as cursor:
            execute(cursor, connection, sql, params, binary=True)
            return cursor.fetchall()

    def _note_query(self, connection, ids: Sequence[str] | None) -> tuple[str, str, list]:
        """The columns ``_append`` reads of a note ``n``, and the condition: the workspace's active
        notes out of the trash (of these ``ids``)."""
        quote, postgres = connection.ops.quote_name, connection.vendor == "postgresql"
        where = [f"n.{quote(_column('workspace_id'))} = %s", f"n.{quote(_column('state'))} = %s",
                 f"n.{quote(_column('trashed_at'))} IS NULL"]
        params = [marker.workspace_param(self.alias, self.workspace_id), Note.State.ACTIVE]
        if ids is not None:
            if postgres:
                where.append(f"n.{quote('id')} = ANY(%s::uuid[])")
                params.append(list(ids))
            else:  # ids as SQLite keeps them: 32 hex digits
                where.append(f"n.{quote('id')} IN ({', '.join(['%s'] * len(ids))})")
                params += [uuid.UUID(i).hex for i in ids]
        columns = ", ".join([f"CAST(n.{quote('id')} AS TEXT)", *(f"n.{quote(_column(name))}" for name in _COLUMNS)])
        return columns, " AND ".join(where), params

    def _first_read(self) -> tuple[int, int, bool, list[tuple] | None]:
        """A worker's first read of the workspace, in one statement (one round trip of the few a
        first search makes, benchmarks/bench_core.py): ``marker.version``, whether a snapshot is
        kept, and, when none is, the rows of its notes. On PostgreSQL one statement reads one
        snapshot of the database: the rows are those of that version."""
        connection = connections[self.alias]
        columns, where, params = self._note_query(connection, None)
        workspace = params[0]
        sql = (
            f"SELECT m.version, m.pruned_below, m.kept, {columns} FROM ("
            "SELECT (SELECT version FROM memories_search_version WHERE workspace_id = %s) AS version, "
            "(SELECT pruned_below FROM memories_search_version WHERE workspace_id = %s) AS pruned_below, "
            "EXISTS (SELECT 1 FROM memories_search_snapshot WHERE workspace_id = %s) AS kept) m "
            f"LEFT JOIN {connection.ops.quote_name(Note._meta.db_table)} n ON NOT m.kept AND {where}")
        with fast_cursor(connection) as cursor:
            execute(cursor, connection, sql, [workspace, workspace, workspace, *params], binary=True)
            found = cursor.fetchall()
        version, pruned_below, kept = found[0][:3]
        rows = None if kept else [row[3:] for row in found if row[3] is not None]
        return int(version or 0), int(pruned_below or 0), bool(kept), rows

    def refresh(self) -> None:
        """Brings the index to the workspace's current version (call with ``lock`` held)."""
        rows = None
        if self.version < 0:  # the worker's first search of the workspace
            current, pruned_below, kept, rows = self._first_read()
            if kept:
                self._from_snapshot(current, pruned_below)
        else:
            current, pruned_below = marker.version(self.alias, self.workspace_id)
            if current == self.version:
                return
        if self.version < 0 or current < self.version or pruned_below > self.version:
            self._load(current, rows)
            return
        if current == self.version:
            return
        changed = marker.changed_since(self.alias, self.workspace_id, self.version)
        rows = []
        for start in range(0, len(changed), _READ_BATCH):
            rows += self._select(changed[start:start + _READ_BATCH])
        for raw_id in changed:
            self._drop(note_id_text(raw_id))
        self._append(rows)
        self.version = current
        if self.dead > 1024 and self.dead * 4 > self.n:
            self._load(current)

    def _load(self, current: int, rows: list[tuple] | None = None) -> None:
        # The version is read before the rows (or with them, ``rows``): the rows are at least that
        # recent (a change read twice is harmless: it is dropped and appended again).
        rows = self._select(None) if rows is None else rows
        self._clear(len(rows) + 256)
        self._append(rows)
        self.version = current
        if self.n >= snapshot.MIN_ROWS:
            try:
                snapshot.write(self.alias, self.workspace_id, current, self._pack())
                self.kept = (current, self.n)
            except DatabaseError:  # the next fresh worker reads the notes instead
                logger.exception("The search index of workspace %s could not be kept.", self.workspace_id)

    def _pack(self) -> bytes:
        """The index as ``snapshot.pack`` keeps it (its rows are all live: called right after a load)."""
        n = self.n
        terms = [*self.base_terms, *(t for t in self.postings if t not in self.base_terms)]
        rows, counts, offsets = [], [], [0]
        for term in terms:
            posting = self.posting(term)
            rows.append(posting[0])
            counts.append(posting[1])
            offsets.append(offsets[-1] + len(posting[0]))
        arrays = {"ids": np.frombuffer(b"".join(uuid.UUID(i).bytes for i in self.ids), dtype="S16"),
                  "vectors": self.matrix[:n], "has_vector": self.has_vector[:n], "scope": self.scope[:n],
                  "layer": self.layer[:n], "subject": self.subject[:n], "length": self.length[:n],
                  "offsets": np.array(offsets), "rows": np.concatenate(rows) if rows else np.zeros(0),
                  "counts": np.concatenate(counts) if counts else np.zeros(0)}
        codes = [[kind, list(value) if isinstance(value, tuple) else value, code]
                 for (kind, value), code in self.codes.items()]
        return snapshot.pack(arrays, codes, terms, self.version)

    def _from_snapshot(self, current: int, pruned_below: int) -> None:
        """The workspace's kept index, if one is there and the changes since it are all known.
        Read in parts: the float16 vectors of each part are widened into the matrix by another
        thread while the next part is read (numpy and the driver's wait release the GIL)."""
        widening = snapshot.Widening(self)
        try:
            found = snapshot.read_in_parts(self.alias, self.workspace_id,
                                           lambda version: pruned_below <= version <= current, widening.part)
        except DatabaseError:
            logger.exception("The kept search index of workspace %s could not be read.", self.workspace_id)
            found = None
        finally:
            widened = widening.finish()
        unpacked = snapshot.unpack(found[1]) if found is not None else None
        if unpacked is None:
            self._clear(0)
            return
        arrays, codes, terms, version = unpacked
        n = len(arrays["ids"])
        if widened != n:  # not widened while reading (a payload of one part, say)
            self._clear(n + 256)
            self.matrix[:n] = arrays["vectors"]
        self.n = n
        for name in ("has_vector", "scope", "layer", "subject", "length"):
            getattr(self, name)[:n] = arrays[name]
        self.alive[:n] = True
        self._base_hex, self._base_n, self._base_mapped = arrays["ids"].tobytes().hex(), n, False
        self.signals = [None] * n
        self.codes = {(kind, tuple(value) if isinstance(value, list) else value): code for kind, value, code in codes}
        self.base_terms = dict(zip(terms, range(len(terms))))
        # Copies: the payload is not kept alive by views of it.
        self.base_offsets, self.base_rows, self.base_counts = (np.array(arrays[name]) for name in
                                                               ("offsets", "rows", "counts"))
        self.version = version
        self.kept = (version, n)

    # ---------------------------------------------------------------------- rows and postings

    def note_id(self, row: int) -> str:
        if row < self._base_n:
            h = self._base_hex[32 * row:32 * row + 32]
            return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
        return self.ids[row - self._base_n]

    def _map_base(self) -> None:
        if not self._base_mapped:
            self.row_of.update((self.note_id(r), r) for r in range(self._base_n))
            self._base_mapped = True

    def _code(self, kind: str, value) -> int:
        found = self.codes.get((kind, value))
        if found is None:
            found = self.codes[(kind, value)] = len(self.codes) + 1
        return found

    def _grow(self, needed: int) -> None:
        capacity = len(self.alive)
        if needed <= capacity:
            return
        capacity = max(needed, capacity * 2, 256)
        matrix = np.empty((capacity, DIMS), dtype=np.float32)
        matrix[: self.n] = self.matrix[: self.n]
        self.matrix = matrix
        for name in ("has_vector", "alive", "scope", "layer", "subject", "length"):
            old = getattr(self, name)
            grown = np.zeros(capacity, dtype=old.dtype)
            grown[: self.n] = old[: self.n]
            setattr(self, name, grown)

    def _append(self, rows: list[tuple]) -> None:
        """Appends the notes of these rows (as ``_select`` reads them) as new rows: the arrays
        are set one slice per batch, and only the postings are built term by term (a first
        search of a small workspace builds its whole index here: benchmarks/bench_core.py)."""
        if not rows:
            return
        # The rows' vectors live in the matrix only (their Signals have none): decoded into it.
        found, blobs = signals_and_blobs([(note_id_text(row[0]), *row[2:]) for row in rows])
        self._map_base()
        start = self.n
        end = start + len(found)
        self._grow(end)
        self.n = end
        ids = [signals.id for signals in found]
        self.signals += found
        self.ids += ids
        self.row_of.update(zip(ids, range(start, end)))
        self.alive[start:end] = True
        self.has_vector[start:end] = vectors_into(blobs, self.matrix[start:end])
        code = self._code
        self.scope[start:end] = [code("scope", row[1]) for row in rows]
        self.layer[start:end] = [code("layer", signals.layer) for signals in found]
        self.subject[start:end] = [code("subject", (signals.subject_kind, signals.subject_id))
                                   if signals.subject_kind else 0 for signals in found]
        self.length[start:end] = [signals.terms.length for signals in found]
        postings, cached, words, base_terms = self.postings, self._posting_arrays, self.words, self.base_terms
        text_bytes = 0
        for position, signals in enumerate(found, start):
            terms = signals.terms
            again = terms.again
            text_bytes += len(signals.key) + len(signals.value) + 2 * len(terms.distinct) + len(again)
            for term in terms.distinct.split():
                posting = postings.get(term)
                if posting is None:
                    posting = postings[term] = (array("i"), array("i"))
                    if words is not None and term not in base_terms:
                        words.add(term)
                posting[0].append(position)
                posting[1].append(1)
            for term in again.split():  # each term once more per repeat (terms.occurrences)
                postings[term][1][-1] += 1  # this note's count: the last one of the term
        self.text_bytes += text_bytes
        if cached:  # the joined postings of the terms that grew are made again when asked
            for signals in found:
                for term in signals.terms.distinct.split():
                    dropped = cached.pop(term, None)
                    if dropped is not None:
                        self.posting_arrays_nbytes -= dropped[0].nbytes + dropped[1].nbytes
        self._masks.clear()

    def _drop(self, note_id: str) -> None:
        self._map_base()
        position = self.row_of.pop(note_id, None)
        if position is not None:
            self.alive[position] = False
            self.dead += 1
            self._masks.clear()

    def posting(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        """(rows, counts) of the notes holding ``term``, dropped rows included (the mask drops them),
        as int32 and float32: a snapshot's own slices when no row appended since holds the term
        (no copy), else joined once and kept."""
        found = self._posting_arrays.get(term)
        if found is None:
            lists, base = self.postings.get(term), self.base_terms.get(term)
            if lists is None and base is None:
                return None
            if base is not None:
                start, end = self.base_offsets[base], self.base_offsets[base + 1]
                if lists is None:
                    return self.base_rows[start:end], self.base_counts[start:end]
            rows = [self.base_rows[start:end]] if base is not None else []
            counts = [self.base_counts[start:end]] if base is not None else []
            rows.append(np.array(lists[0], dtype=np.int32))
            counts.append(np.array(lists[1], dtype=np.float32))
            found = self._posting_arrays[term] = (np.concatenate(rows), np.concatenate(counts))
            self.posting_arrays_nbytes += found[0].nbytes + found[1].nbytes
        return found

    def signals_at(self, rows: Sequence[int]) -> list[Signals]:
        """The notes of these rows, those loaded from a snapshot read by id (one query)."""
        missing = [r for r in rows if self.signals[r] is None]
        if missing:
            read = {}
            for start in range(0, len(missing), _READ_BATCH):
                batch = self._select([self.note_id(r) for r in missing[start:start + _READ_BATCH]])
                found, _ = signals_and_blobs([(note_id_text(row[0]), *row[2:]) for row in batch])
                read.update(zip([note_id_text(row[0]) for row in batch], found))
            for r in missing:
                self.signals[r] = read.get(self.note_id(r))
        return [self.signals[r] for r in rows]

    def ann_graph(self) -> ann.Graph | None:
        """The ANN graph of these rows when it is ready, extended by a few of the rows appended
        since, else None (call with ``lock`` held)."""
        if self.graph is not None:
            self.graph.extend(self.matrix, min(self.n, self.graph.rows + ann.EXTEND_PER_SEARCH))
        return self.graph

    def graph_ready(self, generation: int, graph: ann.Graph) -> None:
        """Takes the graph the ANN thread made of generation ``generation``'s rows."""
        with self.lock:
            if generation == self.generation:
                self.graph = graph

    def word_index(self) -> Vocabulary:
        if self.words is None:  # built by the first query with a word no readable note holds
            self.words = Vocabulary(itertools.chain(self.base_terms, self.postings))
        return self.words

    def mask(self, scopes: Sequence[str], layer: str | None, subject: tuple[str, str] | None) -> Visible:
        """Which rows a search of these scopes (and layer, subject) may rank; kept per index version."""
        key = (tuple(scopes), layer, subject)
        found = self._masks.get(key)
        if found is not None:
            return found
        n = self.n
        codes = [self.codes[("scope", s)] for s in scopes if ("scope", s) in self.codes]
        mask = self.alive[:n] & np.isin(self.scope[:n], np.array(codes, dtype=np.int32))
        if layer:
            mask &= self.layer[:n] == self.codes.get(("layer", layer), -1)
        if subject:
            mask &= self.subject[:n] == self.codes.get(("subject", tuple(subject)), -1)
        found = self._masks[key] = Visible(mask, np.flatnonzero(mask & self.has_vector[:n]), int(mask.sum()),
                                           float(self.length[:n][mask].sum()),
                                           np.flatnonzero(mask & ~self.has_vector[:n]))
        # At most 32 masks, and their terms' caches together within twice what one may hold.
        while len(self._masks) > 32 or (len(self._masks) > 1 and sum(v.nbytes for v in self._masks.values())
                                        > 2 * found.terms_budget):
            self._masks.popitem(last=False)
        return found

    def nbytes(self) -> int:
        return (self.matrix.nbytes + len(self.alive) * 29 + self.text_bytes + self.n * ROW_OVERHEAD_BYTES
                + self.base_rows.nbytes + self.base_counts.nbytes + self.base_offsets.nbytes
                + self.scratch_nbytes + sum(visible.nbytes for visible in self._masks.values())
                + self.posting_arrays_nbytes + (self.graph.nbytes if self.graph is not None else 0))

    def scratch(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Buffers one search at a time uses (with ``lock`` held), a row each: cosines (float32),
        BM25 scores (float64, left all zero) and which rows hold a query word (left all False)."""
        n = self.n
        if self._scratch is None or len(self._scratch[0]) < n:
            capacity = len(self.alive)
            self._scratch = (np.empty(capacity, dtype=np.float32), np.zeros(capacity, dtype=np.float64),
                             np.zeros(capacity, dtype=bool))
            self.scratch_nbytes = capacity * 13
        return self._scratch


class Registry:
    """The worker's indexes, within ``budget`` bytes, least recently searched forgotten first.

    Each index's size is measured after its own searches (``fit``) and kept, so a search costs
    one measure, not one per index the worker holds (a worker may hold thousands of small
    workspaces' indexes). A graph built in the background counts from its index's next search."""

    def __init__(self, budget: int):
        self.budget = budget
        self._indexes: OrderedDict[tuple, WorkspaceIndex] = OrderedDict()
        self._sizes: dict[tuple, int] = {}
        self._total = 0
        self._lock = threading.Lock()

    def get(self, alias: str, workspace_id) -> WorkspaceIndex:
        key = (alias, str(workspace_id))
        with self._lock:
            found = self._indexes.get(key)
            if found is None:
                found = self._indexes[key] = WorkspaceIndex(alias, workspace_id)
                self._sizes[key] = 0
            self._indexes.move_to_end(key)
            return found

    def fit(self, keep: WorkspaceIndex) -> None:
        """Forgets the least recently searched indexes (never ``keep``) until all fit the budget."""
        with self._lock:
            key = (keep.alias, str(keep.workspace_id))
            if self._indexes.get(key) is keep:
                size = keep.nbytes()
                self._total += size - self._sizes[key]
                self._sizes[key] = size
            # Oldest first, without copying the keys of every index the worker holds; ``keep``
            # was searched last, so it is the newest (``get`` moved it to the end).
            while self._total > self.budget and len(self._indexes) > 1:
                oldest = next(iter(self._indexes))
                if self._indexes[oldest] is keep:  # others searched since: keep stays, as newest
                    self._indexes.move_to_end(oldest)
                    continue
                self._total -= self._sizes.pop(oldest)
                del self._indexes[oldest]

    def clear(self) -> None:
        with self._lock:
            self._indexes.clear()
            self._sizes.clear()
            self._total = 0

    def nbytes(self) -> int:
        return sum(index.nbytes() for index in self._indexes.values())


INDEXES = Registry(SEARCH_CACHE_BYTES)
