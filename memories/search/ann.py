"""Approximate nearest neighbours for a big workspace's index (issue 20).

Below ``MIN_ROWS`` notes a search computes every readable note's cosine (``matrix @ q``): exact
and cheap. Above it that product reads the whole float32 matrix per search (154 MB at 100,000
notes), which is memory-bound and the largest part of a search there, so a worker keeps a faiss
HNSW graph of the workspace's rows (``Graph``) and asks it for the nearest notes instead:

* the graph stores 8-bit scalar-quantised vectors (a quarter of the float32 bytes); the notes it
  proposes are scored again with the exact float32 cosine, so a returned note's score is the
  exact one, and only which notes are proposed is approximate;
* visibility is faiss's own filter: the turn's mask as a bitmap (``IDSelectorBitmap``), checked
  for each node the search visits, so a note outside the turn's scopes is never proposed;
* the graph is built on a thread of its own when a workspace first reaches ``MIN_ROWS`` (searches
  are exact until it is ready), by one worker at a time (a PostgreSQL advisory lock: the others
  wait for it), kept with the workspace's snapshot row (``memories.search.snapshot``) so a fresh
  worker reads it instead of building it, and extended
  with the rows appended since, a few at a time per search (the rows not in it yet are scored
  exactly);
* a note holding a query word is scored too when its words could lift it above the best found;
  when too many could (``WORDS_ASKED_ABOVE``), the graph is first asked for the nearest of them
  (the same filter, with their bitmap), which bounds the cosines of the rest;
* the ranking's normalisation needs the least cosine of the readable notes: the graph's nearest
  note to ``-q`` (the farthest from ``q``); how many notes are above the cut-off is counted from
  the proposed notes, or estimated from a fixed sample of the readable rows when every proposed
  note is above it.

``benchmarks/bench_scale.py`` measures the searches and recall@5 against exact ranking on real,
non-duplicated notes; ``tests/memories/test_search_ann.py`` checks that ANN and exact searches
return the same visible notes.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from memories.search.embedding import DIMS

logger = logging.getLogger(__name__)

#: A workspace index gets a graph from this many rows on, and a search uses it when the turn reads
#: at least ``MIN_VISIBLE`` of them with a vector and a fifth of the rows (a narrower mask makes
#: a filtered graph search slow, and its exact gather is cheap). Where the graph starts to pay
#: (benchmarks/bench_scale.py, RESULTS.md): exact is faster at 20,000 notes, even at 50,000.
MIN_ROWS = int(os.environ.get("APPENDA_ANN_MIN_ROWS", "50000"))
MIN_VISIBLE = MIN_ROWS * 4 // 5
MIN_VISIBLE_SHARE = 0.2
#: HNSW's links per node, and the candidate lists' lengths when building and searching.
LINKS = 32
EF_CONSTRUCTION = 80
EF_SEARCH = 256
#: The candidate list when looking for the least cosine (the nearest to ``-q``): an estimate of
#: the normalisation's lower end, not a note to return.
EF_FARTHEST = 32
#: Notes proposed per search, scored again exactly: more than a page, so that the exact order of
#: the best ones does not depend on the graph's order.
PROPOSED = 64
#: When more rows than this hold a query word that could lift them into the best notes, the
#: graph is asked again, for the nearest of those rows only (their bitmap), and only those that
#: can still rank are scored: scoring them all gathers a vector each (up to ~77,000 a search at
#: 1,000,000 notes of ``benchmarks/bench_scale.py``).
WORDS_ASKED_ABOVE = 2048
#: Rows added to the graph per search (the rest of the new rows are scored exactly meanwhile).
EXTEND_PER_SEARCH = 256
#: How long a worker waits for the graph another worker is building for the same snapshot (then
#: builds one itself), and how often it looks.
BUILD_WAIT_SECONDS = 600.0
WAIT_POLL_SECONDS = 2.0
#: Readable rows whose cosines estimate how many notes are above a cut-off.
SAMPLE = 2048

_builds = ThreadPoolExecutor(max_workers=1, thread_name_prefix="appenda-ann")


def _faiss():
    import faiss

    return faiss


class Graph:
    """A faiss ``IndexHNSWSQ`` over rows ``[0, rows)`` of one workspace index's matrix; its labels
    are the rows. Not thread-safe: searched and extended with the index's lock held."""

    def __init__(self, index, rows: int):
        self.index, self.rows = index, rows

    @classmethod
    def build(cls, matrix: np.ndarray, rows: int) -> Graph:
        faiss = _faiss()
        vectors = np.ascontiguousarray(matrix[:rows], dtype=np.float32)
        index = faiss.IndexHNSWSQ(DIMS, faiss.ScalarQuantizer.QT_8bit, LINKS, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = EF_CONSTRUCTION
        index.train(vectors[:: max(1, rows // 20000)])
        index.add(vectors)
        return cls(index, rows)

    def extend(self, matrix: np.ndarray, upto: int) -> None:
        """Adds rows ``[rows, upto)``."""
        if upto > self.rows:
            self.index.add(np.ascontiguousarray(matrix[self.rows:upto], dtype=np.float32))
            self.rows = upto

    def search(self, q: np.ndarray, allowed: np.ndarray, k: int, ef: int = 0) -> np.ndarray:
        """The rows (ascending distance) of at most ``k`` notes nearest to ``q`` among the rows
        whose bit is set in ``allowed`` (a bitmap as ``bitmap`` packs it); ``ef``: the length of
        the search's candidate list (``EF_SEARCH`` by default)."""
        faiss = _faiss()
        params = faiss.SearchParametersHNSW()
        params.efSearch = max(ef or EF_SEARCH, k)
        selector = faiss.IDSelectorBitmap(len(allowed), faiss.swig_ptr(allowed))
        params.sel = selector
        _, labels = self.index.search(q.reshape(1, -1).astype(np.float32, copy=False), k, params=params)
        found = labels[0]
        return found[found >= 0]

    @property
    def nbytes(self) -> int:
        # Codes (one byte per dimension) and level-0 links (two per link slot), the rest is small.
        return self.rows * (DIMS + 2 * LINKS * 4 + 16)

    def to_bytes(self) -> bytes:
        faiss = _faiss()
        return faiss.serialize_index(self.index).tobytes()

    @classmethod
    def from_bytes(cls, payload) -> Graph | None:
        faiss = _faiss()
        try:
            index = faiss.deserialize_index(np.frombuffer(payload, dtype=np.uint8))
        except RuntimeError:
            logger.warning("A kept search graph could not be read; it will be built again.", exc_info=True)
            return None
        return cls(index, int(index.ntotal))


def bitmap(allowed: np.ndarray) -> np.ndarray:
    """Rows whose flag is set, as faiss's ``IDSelectorBitmap`` reads them (bit ``i % 8`` of byte
    ``i // 8``)."""
    return np.packbits(allowed, bitorder="little")


class Builder:
    """Builds one index's graph on the worker's ANN thread, once at a time per index."""

    def __init__(self):
        self._lock = threading.Lock()
        self._pending: set[int] = set()

    def start(self, index, generation: int, make, done) -> None:
        """Runs ``make()`` (a graph, read or built) and calls ``done(generation, graph)``; at most
        one per index at a time."""
        key = id(index)
        with self._lock:
            if key in self._pending:
                return
            self._pending.add(key)

        def run():
            try:
                done(generation, make())
            except Exception:  # a failed build leaves exact search, which is correct
                logger.exception("The search graph of workspace %s could not be built; searches stay exact.",
                                 getattr(index, "workspace_id", "?"))
            finally:
                with self._lock:
                    self._pending.discard(key)

        _builds.submit(run)

    def wait(self) -> None:
        """Waits for the builds started so far (tests, benchmarks)."""
        _builds.submit(lambda: None).result()


BUILDER = Builder()


def _kept_graph(alias: str, workspace, kept: tuple[int, int]) -> Graph | None:
    """The graph kept beside the snapshot ``kept`` = (version, rows), when it numbers its rows."""
    from memories.search import snapshot

    payload = snapshot.read_graph(alias, workspace, kept[0])
    graph = Graph.from_bytes(payload) if payload is not None else None
    return graph if graph is not None and graph.rows == kept[1] else None


def _keep(alias: str, workspace, version: int, graph: Graph) -> None:
    """Keeps a built graph for the other workers; one that cannot be kept is still used here."""
    from django.db import DatabaseError

    from memories.search import snapshot

    try:
        snapshot.write_graph(alias, workspace, version, graph.to_bytes())
    except DatabaseError:
        logger.exception("The search graph of workspace %s was built but could not be kept; other workers "
                         "build their own.", workspace)


def request_graph(index) -> None:
    """Asks the worker's ANN thread for the graph of a big workspace index (the one kept beside
    its snapshot, or a new one), unless it has it; called after a search, so that the search does
    not share the process with it (call with the index's lock held)."""
    if index.graph is not None or index.n < MIN_ROWS:
        return
    kept = index.kept
    # The kept snapshot's rows, when this index has them first: the graph can be kept with it.
    rows = kept[1] if kept is not None and kept[1] <= index.n else index.n
    matrix, alias, workspace = index.matrix, index.alias, index.workspace_id  # rows are never rewritten

    def make() -> Graph:
        from django.db import connections

        from memories.search import snapshot

        locked = False
        try:
            if kept is None:
                return Graph.build(matrix, rows)
            graph = _kept_graph(alias, workspace, kept)
            if graph is not None:
                return graph
            # One worker builds the graph of a snapshot; the others wait for it to be kept.
            waited_until = time.monotonic() + BUILD_WAIT_SECONDS
            while not (locked := snapshot.try_build_lock(alias, workspace)):
                if time.monotonic() > waited_until:
                    break  # the builder is stuck or gone: build here
                time.sleep(WAIT_POLL_SECONDS)
                graph = _kept_graph(alias, workspace, kept)
                if graph is not None:
                    return graph
            graph = _kept_graph(alias, workspace, kept)  # kept while this one waited for the lock
            if graph is None:
                graph = Graph.build(matrix, rows)
                if rows == kept[1]:
                    _keep(alias, workspace, kept[0], graph)
            return graph
        finally:
            try:
                if locked:
                    snapshot.release_build_lock(alias, workspace)
            finally:
                connections[alias].close()  # this thread's own connection

    BUILDER.start(index, index.generation, make, index.graph_ready)
