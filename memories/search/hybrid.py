"""Ranking of the notes one search may return: lexical (``fulltext``) and semantic (cosine of
stored note vectors with the query's vector), fused with ``memories.search.fusion.fuse``.

The caller passes the notes the turn (or the person) may read as a ``NoteSource`` (a turn's:
``memories.search.candidates``; a queryset's: ``QuerysetNotes``); this module never widens it:
it reads those rows' ids and only then the text and vectors of the ones it has not seen, so a
held, trashed, expired or invisible note is never a candidate, whatever its vector.

A turn's memory_search does not come through here row by row: its ``TurnNotes`` source ranks on
the workspace's index (``memories.search.index`` / ``ranked``: the same ranking over arrays, kept
current by a change marker). Measured before that index (benchmarks/bench_scale.py, one person
reading 100,000 notes; figures in benchmarks/RESULTS.md), the cosine was never the cost: the
revalidation below was (reading 100,000 (id, updated_at) rows, sorting them and hashing them into a cache
key), and BM25 postings found by scanning every note per new query word.

What still ranks here (the web list's ``QuerysetNotes``, ``search_cutoff``), with two caches per
process bounded in bytes, both checked against the database on every search:

* each note's terms and vector, by (database, id, updated_at): every save bumps ``updated_at``,
  so a changed note is read again, and a search reads two small columns per note instead of a
  thousand texts and 768-byte vectors;
* each set of candidates (the exact list of (id, updated_at) the search just read) with its
  vector matrix and BM25 postings, so a repeated search over an unchanged set costs one small
  query, the query's embedding and a matrix-vector product.

The final order is computed here in Python from signals that do not depend on the database
engine (the note's text, its stored float16 vector), with ties broken by key then id, so the
embedded SQLite default and PostgreSQL rank the same notes the same way.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

import numpy as np
from django.db import connections
from django.db.models import TextField
from django.db.models.functions import Cast

from memories.search import vectors
from memories.search.fulltext import LexicalIndex, NoteTerms
from memories.search.fusion import DEFAULT_WEIGHTS, fuse

HYBRID = "hybrid"
LEXICAL = "lexical"
_MISS_BATCH = 500
#: A note cached without a usable vector is read again after this long (``embed_notes`` fills
#: vectors without bumping ``updated_at``).
VECTOR_RECHECK_SECONDS = 60.0
#: Notes handed to ``fuse`` besides the lexical matches: the best by cosine (and the worst,
#: which fixes the min-max normalisation). The others cannot reach the top ``limit``.
SEMANTIC_SHORTLIST = 64
#: A note that matches no query word is returned only if its cosine reaches this. On the
#: paraphrase set (benchmarks/data) it leaves recall@5 as it is (0.835; 0.824 at 0.15) and drops
#: 65% of the notes a query is not about. A note the query is about can score little more
#: (0.22 for "how should I format my answer?" → "tone: keep replies short, no emoji"), so an
#: unrelated note above the floor is still returned when nothing better is readable.
MIN_SIMILARITY = 0.1


class Signals(NamedTuple):
    """What ranking needs of a note, and what a search result shows of it, as read from its row
    at one ``updated_at`` (every field here changes only through ``save()``, which bumps it).
    A named tuple: a first search builds one per candidate, and a frozen dataclass took five
    times as long to construct."""

    id: str
    key: str
    value: str
    layer: str
    pinned: bool
    subject_kind: str | None
    subject_id: str | None
    terms: NoteTerms
    vector: np.ndarray | None
    read_at: float


@dataclass(frozen=True, slots=True)
class ExtraCandidate:
    """A searchable text that is not a note row (an instance rule), ranked with the notes."""

    id: str
    key: str
    value: str
    layer: str = "instance"


@dataclass(frozen=True)
class Ranking:
    found: list[tuple[Signals, float]]  # best first
    ranking: str  # "hybrid" or "lexical"

    @property
    def scores(self) -> list[tuple[str, float]]:
        return [(signals.id, score) for signals, score in self.found]


def _size_of(value) -> int:
    """About how many bytes an entry of the search caches holds (its vectors and texts)."""
    if isinstance(value, Signals):
        vector = value.vector.nbytes if value.vector is not None else 0
        terms = value.terms
        return 400 + vector + len(value.key) + len(value.value) + len(terms.distinct) + len(terms.again)
    if isinstance(value, CandidateSet):
        return 200 + value.matrix.nbytes + 120 * len(value.signals)  # its notes are NOTE_CACHE's
    return 200


class BoundedCache:
    """A dict that forgets its oldest entries beyond ``capacity`` bytes (``_size_of`` each; thread-safe
    writes)."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self.nbytes = 0
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        found = self._items.get(key)
        return found[0] if found is not None else None

    def put(self, key, value) -> None:
        self.put_many([(key, value)])

    def put_many(self, items) -> None:
        with self._lock:
            for key, value in items:
                old = self._items.pop(key, None)
                if old is not None:
                    self.nbytes -= old[1]
                size = _size_of(value)
                self._items[key] = (value, size)
                self.nbytes += size
            while self.nbytes > self.capacity and self._items:
                self.nbytes -= self._items.popitem(last=False)[1][1]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.nbytes = 0

    def __len__(self) -> int:
        return len(self._items)


_MB = 1024 * 1024
#: Per worker, in bytes (``APPENDA_SEARCH_CACHE_*_BYTES``): the notes and candidate sets of the
#: searches that do not go through a workspace's index (``memories.search.index``: the web
#: list's); the index has its own budget.
NOTE_CACHE = BoundedCache(int(os.environ.get("APPENDA_SEARCH_CACHE_NOTES_BYTES", str(96 * _MB))))
SET_CACHE = BoundedCache(int(os.environ.get("APPENDA_SEARCH_CACHE_SETS_BYTES", str(64 * _MB))))
#: Scopes (a workspace, say) this process searched lately. The first search of any other scope
#: finds none of its notes cached, so it reads every candidate's text and vector at once instead
#: of the ids first and then all of them again by id (one round trip, and no list of ids to send).
RECENT_SCOPES = BoundedCache(int(os.environ.get("APPENDA_SEARCH_CACHE_SCOPES_BYTES", str(1 * _MB))))


def caches_clear() -> None:
    """Forgets every search cache of this process, the workspaces' indexes included."""
    NOTE_CACHE.clear()
    SET_CACHE.clear()
    RECENT_SCOPES.clear()
    from memories.search.index import INDEXES  # imports this module

    INDEXES.clear()


@dataclass
class CandidateSet:
    signals: list[Signals]  # sorted by (key, id): ties break the same way on every engine
    ids: list[str] = field(init=False)
    by_id: dict[str, Signals] = field(init=False)
    with_vector: np.ndarray = field(init=False)  # positions of the candidates that have a vector
    matrix: np.ndarray = field(init=False)  # their vectors, one row each
    row_of: np.ndarray = field(init=False)  # each candidate's row in ``matrix``, or -1
    lexicon: LexicalIndex = field(init=False)
    built_at: float = field(init=False)

    def __post_init__(self):
        self.signals = sorted(self.signals, key=lambda s: (s.key, s.id))
        self.ids = [s.id for s in self.signals]
        self.by_id = dict(zip(self.ids, self.signals))
        positions = [i for i, s in enumerate(self.signals) if s.vector is not None]
        self.with_vector = np.array(positions, dtype=np.int64)
        self.row_of = np.full(len(self.signals), -1, dtype=np.int64)
        self.row_of[self.with_vector] = np.arange(len(positions))
        self.built_at = time.monotonic()
        self.matrix = (np.stack([self.signals[i].vector for i in positions]) if positions
                       else np.zeros((0, 1), dtype=np.float32))
        self.lexicon = LexicalIndex([s.terms for s in self.signals])


#: What a search reads of each note, after its id and updated_at (every ``NoteSource.read``).
NOTE_COLUMNS = ("key", "value", "layer", "pinned", "subject_kind", "subject_id", "search_text",
                "search_terms", "embedding")


class NoteSource(Protocol):
    """Where a search's candidates come from: the notes the caller may read, never more.

    ``versions`` reads each candidate's (id, updated_at) as text; ``read`` reads them (or only
    ``ids`` of them) with ``NOTE_COLUMNS`` after those two; both in any order. Ids come back as
    the database writes them as text (canonical on PostgreSQL, 32 hex digits on SQLite) and are
    passed back to ``read`` as they came. ``scope`` names where the notes come from (a workspace id)."""

    alias: str
    scope: str | None

    def versions(self) -> list[tuple]: ...

    def read(self, ids: Sequence[str] | None = None) -> list[tuple]: ...


def _raw_rows(queryset, *fields: str) -> list[tuple]:
    """(id, updated_at) as text, then ``fields``, as the database driver returns them.

    No model or field conversion, and no uuid/timestamptz parsing in the driver: for a
    thousand rows on PostgreSQL, psycopg's UUID and datetime loaders cost ~12 ms of CPU on the
    benchmark machine, the same rows as text ~1.5 ms (benchmarks/bench_search_service.py).
    """
    texts = queryset.annotate(search_note_id=Cast("id", TextField()), search_version=Cast("updated_at", TextField()))
    # Compiled for the queryset's own database (``sql_with_params`` would use the control one's
    # dialect: a local SQLCipher workspace under a PostgreSQL control database).
    query = texts.values_list("search_note_id", "search_version", *fields).query
    sql, params = query.get_compiler(using=queryset.db).as_sql()
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


class QuerysetNotes:
    """The notes of a (visible) queryset as a ``NoteSource``: the web list's search."""

    def __init__(self, notes, scope: str | None = None):
        self.notes, self.alias, self.scope = notes, notes.db, scope

    def versions(self) -> list[tuple]:
        return _raw_rows(self.notes.order_by())

    def read(self, ids: Sequence[str] | None = None) -> list[tuple]:
        notes = self.notes if ids is None else self.notes.filter(id__in=list(ids))
        return _raw_rows(notes.order_by(), *NOTE_COLUMNS)


def note_id_text(raw) -> str:
    """A note id as text in its canonical form, whichever way the database wrote it."""
    if isinstance(raw, str) and len(raw) == 36:
        return raw  # PostgreSQL's uuid as text: canonical already
    return str(raw if isinstance(raw, uuid.UUID) else uuid.UUID(str(raw)))


def _parts_and_blobs(notes: Sequence[tuple]) -> tuple[list[tuple], list[bytes | None]]:
    parts, blobs = [], []
    for note_id, key, value, layer, pinned, subject_kind, subject_id, search_text, search_terms, embedding in notes:
        terms, blob = vectors.current_index(key, value, search_text, search_terms, embedding)
        parts.append((note_id, key, value, layer, bool(pinned), subject_kind, subject_id, terms))
        blobs.append(blob)
    return parts, blobs


def signals_of(notes: Sequence[tuple]) -> list[Signals]:
    """Signals of notes given as (id, *NOTE_COLUMNS), their vectors decoded in one go."""
    read_at = time.monotonic()
    parts, blobs = _parts_and_blobs(notes)
    return [Signals(*part, vector, read_at) for part, vector in zip(parts, vectors.vectors_of(blobs))]


def signals_and_blobs(notes: Sequence[tuple]) -> tuple[list[Signals], list[bytes | None]]:
    """Signals of notes given as (id, *NOTE_COLUMNS) with no vector, and their usable stored
    vectors' bytes: for a caller that keeps the vectors in a matrix of its own and decodes them
    there (``vectors.vectors_into``), so no array is made per note."""
    read_at = time.monotonic()
    parts, blobs = _parts_and_blobs(notes)
    return [Signals(*part, None, read_at) for part in parts], blobs


_note_id, _signals_of = note_id_text, signals_of


def _signals_of_rows(source: NoteSource, rows: Sequence[tuple]) -> list[Signals]:
    """Signals of rows as ``source.read`` returns them, each cached by its (id, updated_at)."""
    found = _signals_of([(_note_id(row[0]), *row[2:]) for row in rows])
    NOTE_CACHE.put_many([((source.alias, row[0], row[1]), signals) for row, signals in zip(rows, found)])
    return found


def _read_misses(source: NoteSource, missing: list[tuple]) -> dict:
    """Signals of the notes not in the cache, read from the same (visible) source."""
    read = {}
    for start in range(0, len(missing), _MISS_BATCH):
        rows = source.read([raw_id for raw_id, _ in missing[start:start + _MISS_BATCH]])
        # The read decides: a note changed since the ids were read is cached as it is now.
        read.update(zip([row[0] for row in rows], _signals_of_rows(source, rows)))
    return read


def _note_signals(source: NoteSource, rows: list[tuple]) -> list[Signals]:
    found = [NOTE_CACHE.get((source.alias, raw_id, updated_at)) for raw_id, updated_at in rows]
    stale_before = time.monotonic() - VECTOR_RECHECK_SECONDS
    missing, have_model = [], None
    for row, hit in zip(rows, found):
        if hit is None:
            missing.append(row)
        elif hit.vector is None and hit.read_at < stale_before:
            if have_model is None:
                have_model = vectors.embedder() is not None
            if have_model:
                missing.append(row)
    if not missing:
        return found
    read = _read_misses(source, missing)
    # A note changed or removed between the two reads is taken as read, or left out.
    return [read.get(row[0], hit) for row, hit in zip(rows, found) if row[0] in read or hit is not None]


def _all_signals(source: NoteSource) -> tuple[list[tuple], list[Signals]]:
    """The (id, updated_at) rows of the source and every note's signals, in one query."""
    read = sorted(source.read(), key=lambda row: row[0])  # by id, as the rows a set is cached by
    versions = [row[:2] for row in read]
    found = [NOTE_CACHE.get((source.alias, raw_id, updated_at)) for raw_id, updated_at in versions]
    unusable = [i for i, hit in enumerate(found) if hit is None or hit.vector is None]
    for i, signals in zip(unusable, _signals_of_rows(source, [read[i] for i in unusable])):
        found[i] = signals
    return versions, found


def extra_signals(extras: Sequence[ExtraCandidate]) -> list[Signals]:
    """Signals of texts that are not note rows (instance rules): cached by their text, with
    their vector computed on first use (there are few, and they change rarely)."""
    out = []
    for extra in extras:
        key = ("extra", extra.id, extra.key, extra.value)
        hit = NOTE_CACHE.get(key)
        if hit is None or (hit.vector is None and vectors.embedder() is not None):
            fields = vectors.note_index_fields(extra.key, extra.value)
            (hit,) = _signals_of([(extra.id, extra.key, extra.value, extra.layer, True, None, None,
                                   fields["search_text"], fields["search_terms"], fields["embedding"])])
            NOTE_CACHE.put(key, hit)
        out.append(hit)
    return out


def _set_key(alias: str, rows: list[tuple], extras: Sequence[ExtraCandidate]) -> tuple:
    """What a candidate set is cached by: the exact rows read and the extra texts."""
    return alias, tuple(rows), tuple((e.id, e.key, e.value) for e in extras)


def candidate_set(source: NoteSource, extras: Sequence[ExtraCandidate] = ()) -> CandidateSet:
    """Every note of ``source`` and the ``extras``, with what ranking them needs; the same set
    as the last search over the same rows is reused. The first search of the source's scope
    in this process reads every note in one query (none of them can be cached)."""
    alias, scope = source.alias, source.scope
    if scope is not None and RECENT_SCOPES.get((alias, scope)) is None:
        rows, found = _all_signals(source)
        RECENT_SCOPES.put((alias, scope), True)
        built = CandidateSet(found + extra_signals(extras))
        SET_CACHE.put(_set_key(alias, rows, extras), built)
        return built
    rows = sorted(source.versions())
    set_key = _set_key(alias, rows, extras)
    cached = SET_CACHE.get(set_key)
    if cached is not None and (len(cached.with_vector) == len(cached.signals)
                               or cached.built_at >= time.monotonic() - VECTOR_RECHECK_SECONDS
                               or vectors.embedder() is None):
        return cached
    built = CandidateSet(_note_signals(source, rows) + extra_signals(extras))
    SET_CACHE.put(set_key, built)
    return built


def rank(candidates: CandidateSet, query: str, limit: int, query_vec: Future | None = None) -> Ranking:
    """The best ``limit`` candidates for ``query``; lexical only while the model is missing.
    ``query_vec``: the query's vector being computed (``vectors.query_vector_soon``)."""
    if query_vec is None:
        query_vec = vectors.query_vector_soon(query)
    if not candidates.signals:
        query_vec.cancel()
        return Ranking([], HYBRID if vectors.embedder() is not None else LEXICAL)
    lexical = candidates.lexicon.scores(query)
    query_vec = query_vec.result()
    ids = candidates.ids
    if query_vec is None:
        signals = candidates.signals
        best = sorted((-score, signals[i].key, ids[i]) for i, score in lexical.items() if score > 0)[:limit]
        return Ranking([(candidates.by_id[note_id], -negative) for negative, _, note_id in best], LEXICAL)
    semantic = {}
    if len(candidates.with_vector):
        similarities = candidates.matrix @ query_vec
        shortlist = max(SEMANTIC_SHORTLIST, limit)
        if len(similarities) > shortlist + 1:
            # Exactly the order ``fuse`` gives over every candidate, for the first ``limit``:
            # the notes left out match no query word and have a lower cosine than ``shortlist``
            # others, and the best and the worst cosine (the normalisation) are kept.
            rows = candidates.row_of[list(lexical)] if lexical else np.zeros(0, dtype=np.int64)
            kept = np.union1d(np.argpartition(-similarities, shortlist)[:shortlist],
                              np.append(rows[rows >= 0], int(np.argmin(similarities))))
        else:
            kept = np.arange(len(similarities))
        positions = candidates.with_vector
        semantic = {ids[positions[j]]: float(similarities[j]) for j in kept.tolist()}
    matched = {ids[i]: score for i, score in sorted(lexical.items()) if score > 0}
    # Filtered after fusion, so the order of what is kept is fuse's over every candidate.
    fused = [(note_id, score) for note_id, score in fuse(matched, semantic, DEFAULT_WEIGHTS)
             if note_id in matched or semantic.get(note_id, 0.0) >= MIN_SIMILARITY][:limit]
    # No candidate with a vector yet (all saved before the model was prepared): words only.
    return Ranking([(candidates.by_id[note_id], score) for note_id, score in fused], HYBRID if semantic else LEXICAL)


def search(source: NoteSource, query: str, limit: int, *, extras: Sequence[ExtraCandidate] = (),
           query_vec: Future | None = None) -> Ranking:
    """Rank the notes of ``source`` (the caller's visible set) and ``extras``. The query's
    vector is computed while the candidates are read (``query_vec``: started by the caller,
    earlier still)."""
    if query_vec is None:
        query_vec = vectors.query_vector_soon(query)
    indexed = getattr(source, "search", None)
    if indexed is not None:  # a turn's notes: the workspace's index (memories.search.ranked)
        return indexed(query, limit, extras=extras, query_vec=query_vec)
    return rank(candidate_set(source, extras), query, limit, query_vec)
