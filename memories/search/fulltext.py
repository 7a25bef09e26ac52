"""The lexical signal of note search: BM25 with OR semantics, keys split into words, stemming,
and partial words and typos matched against the words of the notes being searched.

One interface for both engines (PostgreSQL and the embedded SQLite default): a note's terms are
computed in Python from its key and value (``note_terms``), kept on its row at save time
(``stored_terms``), and scored over the candidate notes of one search (``LexicalIndex``, built
once per set of candidates). ``benchmarks/bench_search_service.py`` decided this over the
databases' own full-text indexes (PostgreSQL GIN on ``to_tsvector('english', search_text)`` and
``pg_trgm``, SQLite FTS5 porter), for a turn that reads 1,000 of 124,000 notes (benchmarks/
RESULTS.md, 2026-12-03, a 2-vCPU machine about 1.2x slower than a laptop core):

  =========================================================  ===============  ===============
  lexical signal (p50 / p95 per query)                        PostgreSQL       SQLite
  =========================================================  ===============  ===============
  ids read + cached postings, BM25 in Python (this design)    1.9 / 2.1 ms     1.6 / 1.8 ms
  previous: every text read and tokenised per query           13.1 / 14.6      14.0 / 14.8
  database index, OR of terms (ts_rank_cd / FTS5 bm25)        7.8 / 8.9        8.3 / 19.5
  database index + partial words (pg_trgm / FTS5 prefixes)    25.9 / 42.2      9.4 / 27.2
  =========================================================  ===============  ===============

The BM25 itself is 0.2 ms; the rest of "this design" is the read of the candidates' ids, which
the semantic signal needs anyway, so the database-side rank would be an extra query on top.
Besides:

* a database index is global: a common word matches notes of every workspace, which are then
  filtered down to the turn's; scoring only the candidates keeps statistics per scope too;
* ``ts_rank_cd`` and FTS5's ``bm25()`` rank differently, so the two engines would not give the
  same order for the same notes (issue 9 asks that they do); one scorer in Python does;
* the fusion weights of ``memories.search.fusion`` were chosen on this kind of BM25;
* stored terms are tagged with a checksum of the key and value they were computed from
  (``fields_tag``), and terms of any other text are recomputed from the row's current text at
  read time, so no trigger, generated column or index can be stale (a migration that rebuilds
  the SQLite table drops triggers).

Partial words and typos: a query word that no candidate note contains is matched against the
candidates' words that start with it (``emoj`` → ``emoji``) or are one edit away from it
(``emjoi`` → ``emoji``, symmetric-delete lookup), at a discount. Nothing here imports Django.
"""

from __future__ import annotations

import bisect
import math
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from memories.search.embedding import note_text
from memories.search.lexical import terms

K1 = 1.2
B = 0.75
#: A query word matched only as the beginning of a note's word counts this much of a full match.
PREFIX_DISCOUNT = 0.8
#: A query word matched only with one typo counts this much of a full match.
TYPO_DISCOUNT = 0.6
#: Shorter words match too much by prefix or by one edit.
MIN_PREFIX_LENGTH = 3
MIN_TYPO_LENGTH = 5
#: At most this many note words stand in for one unmatched query word.
MAX_EXPANSIONS = 8


def index_text(key: str, value: str) -> str:
    """The text a note is searched by: its key split into words (``pref.replyTone`` → ``pref reply
    Tone``), a colon, its value. Also the text its vector is computed from, and kept on the row
    as ``Note.search_text`` so a stored vector can be checked against the note's current text."""
    return note_text(key, value)


class NoteTerms(NamedTuple):
    """A note's terms as two strings, so that reading a hundred notes' stored terms builds no
    dict per note: ``distinct``, each term once (``" a b "``), and ``again``, each term once more
    for every further time it occurs, each with its own spaces around it (``" a  a "``), so
    that ``str.count`` counts every occurrence. (A named tuple, built per candidate, for the
    same reason as ``hybrid.Signals``.)"""

    distinct: str
    again: str
    length: int  # how many terms the note has, repeats included

    @classmethod
    def of(cls, words: Sequence[str]) -> NoteTerms:
        counts = Counter(words)
        distinct = " ".join(counts)
        again = "".join(f" {term} " * (count - 1) for term, count in counts.items())
        return cls(f" {distinct} " if distinct else "", again, len(words))

    def occurrences(self, term: str) -> int:
        """How many times ``term`` occurs in the note."""
        padded = f" {term} "
        return 1 + self.again.count(padded) if padded in self.distinct else 0


def note_terms(key: str, value: str) -> NoteTerms:
    return text_terms(index_text(key, value))


def text_terms(text: str) -> NoteTerms:
    """The terms of a note's ``index_text`` (for callers that have computed it already)."""
    return NoteTerms.of(terms(text))


#: Names how a row's search fields were computed (``stored_terms``, ``index_text``, the note
#: vector of ``memories.search.vectors``): change it with ``lexical.terms`` (stemming, stopwords)
#: or ``index_text``, and every row's stored terms and vector are checked against its text again
#: (and the terms recomputed) until the note is saved again.
TERMS_FORMAT = "t4"


def fields_tag(key: str, value: str) -> str:
    """What a row's search fields were computed from: this format, and a checksum of the note's
    key and value. A search checks it instead of recomputing ``index_text`` for every note."""
    return f"{TERMS_FORMAT}:{zlib.crc32((key + chr(0) + value).encode()):08x}"


def stored_terms(key: str, value: str) -> str:
    """A note's terms as kept on its row (``Note.search_terms``), computed once at save time: a
    search's first read of a hundred notes then checks a checksum and splits three lines instead
    of tokenising and stemming texts (benchmarks/bench_core.py). The lines: ``fields_tag``, then
    ``NoteTerms.distinct`` and ``NoteTerms.again``; so terms of another text or format are never
    used."""
    found = note_terms(key, value)
    return "\n".join([fields_tag(key, value), found.distinct, found.again])


def read_stored_terms(key: str, value: str, stored: str | None) -> NoteTerms | None:
    """The terms ``stored_terms(key, value)`` wrote, or None when ``stored`` was computed from
    another key and value, in another format, or is missing."""
    tag = fields_tag(key, value)
    if not stored or not stored.startswith(tag):
        return None
    lines = stored.split("\n")
    if len(lines) != 3 or lines[0] != tag:
        return None
    _, distinct, again = lines
    if distinct[:1] not in ("", " ") or distinct[-1:] not in ("", " ") or again.count(" ") % 2:
        return None  # not as stored_terms writes them: recomputed from the text
    return NoteTerms(distinct, again, (distinct.count(" ") - 1 if distinct else 0) + again.count(" ") // 2)


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


class WordIndex:
    """The words of a set of notes by prefix and by one-letter deletion: which of them a query
    word not found as such may be the beginning of, or a typo of."""

    def __init__(self, words: Iterable[str]):
        self._words: set[str] = set()
        self._by_prefix: dict[str, set[str]] = {}
        self._by_deletion: dict[str, set[str]] = {}
        for word in words:
            self.add(word)

    def add(self, word: str) -> None:
        """Adds one word (a workspace index adds the words of each note it takes in)."""
        if word in self._words:
            return
        self._words.add(word)
        for end in range(MIN_PREFIX_LENGTH, len(word)):
            self._by_prefix.setdefault(word[:end], set()).add(word)
        if len(word) >= MIN_TYPO_LENGTH - 1:
            for deleted in _deletions(word):
                self._by_deletion.setdefault(deleted, set()).add(word)

    def near(self, word: str, keep: Callable[[str], bool] | None = None) -> list[tuple[str, float]]:
        """Words that ``word`` may be the beginning of, or a typo of, with their discounts; with
        ``keep``, only the words it accepts (a workspace's words that occur in a note the search
        may read), chosen before the list is cut to ``MAX_EXPANSIONS``."""
        found: dict[str, float] = {}
        if len(word) >= MIN_PREFIX_LENGTH:
            for other in self._by_prefix.get(word, ()):
                found[other] = PREFIX_DISCOUNT
        if len(word) >= MIN_TYPO_LENGTH:
            typos = set(self._by_deletion.get(word, ()))  # one letter missing from the query
            for deleted in _deletions(word):
                if deleted in self._words:  # one letter too many in the query
                    typos.add(deleted)
                typos.update(self._by_deletion.get(deleted, ()))  # one letter changed or swapped
            for other in typos:
                if other != word and abs(len(other) - len(word)) <= 1:
                    found.setdefault(other, TYPO_DISCOUNT)
        if keep is not None:
            found = {other: discount for other, discount in found.items() if keep(other)}
        return sorted(found.items(), key=lambda item: (-item[1], item[0]))[:MAX_EXPANSIONS]


class Vocabulary:
    """``WordIndex.near`` without its index of every word's prefixes and deletions, for a
    workspace's whole vocabulary (100,000 notes with a unique word each: 1.2 million deletions,
    seconds to build and over 100 MB): prefixes are a range of the sorted words, and the words one
    letter away are found by inserting each letter of the vocabulary's alphabet into the query
    word and its deletions (a few thousand set lookups). The same words, in the same order."""

    #: With a larger alphabet (a vocabulary of many scripts) the insertions cost more than an index.
    MAX_ALPHABET = 160

    def __init__(self, words: Iterable[str] = ()):
        self._words: set[str] = set()
        self._alphabet: set[str] = set()
        self._sorted: list[str] | None = None
        self._index: WordIndex | None = None
        for word in words:
            self.add(word)

    def add(self, word: str) -> None:
        if word in self._words:
            return
        self._words.add(word)
        self._alphabet.update(word)
        if self._sorted is not None:
            bisect.insort(self._sorted, word)
        if self._index is not None:
            self._index.add(word)

    def _inserted(self, stem: str) -> set[str]:
        letters = self._alphabet
        return {word for i in range(len(stem) + 1) for letter in letters
                if (word := stem[:i] + letter + stem[i:]) in self._words}

    def near(self, word: str, keep: Callable[[str], bool] | None = None) -> list[tuple[str, float]]:
        if len(self._alphabet) > self.MAX_ALPHABET:
            if self._index is None:
                self._index = WordIndex(self._words)
            return self._index.near(word, keep)
        found: dict[str, float] = {}
        if len(word) >= MIN_PREFIX_LENGTH:
            if self._sorted is None:
                self._sorted = sorted(self._words)
            position, words = bisect.bisect_right(self._sorted, word), self._sorted
            while position < len(words) and words[position].startswith(word):
                found[words[position]] = PREFIX_DISCOUNT
                position += 1
        if len(word) >= MIN_TYPO_LENGTH:
            typos = self._inserted(word)  # one letter missing from the query
            for deleted in _deletions(word):
                if deleted in self._words:  # one letter too many in the query
                    typos.add(deleted)
                typos.update(self._inserted(deleted))  # one letter changed or swapped
            for other in typos:
                if other != word and abs(len(other) - len(word)) <= 1:
                    found.setdefault(other, TYPO_DISCOUNT)
        if keep is not None:
            found = {other: discount for other, discount in found.items() if keep(other)}
        return sorted(found.items(), key=lambda item: (-item[1], item[0]))[:MAX_EXPANSIONS]


def query_terms(query: str) -> list[str]:
    return sorted(set(terms(query)))


class LexicalIndex:
    """BM25 over one search's candidate notes (OR of the query's terms).

    Statistics (document frequency, average length) are those of the candidates: the notes this
    search may return, never notes of other scopes. Built once per set of candidates and reused
    while that set does not change. A term's postings are found the first time a query asks for
    it (a scan of the candidates' ``distinct`` strings) and kept: a first search over a hundred
    notes builds no index of every word of theirs, and a repeated term costs a lookup.
    """

    def __init__(self, documents: Sequence[NoteTerms]):
        self.n = len(documents)
        self._documents = list(documents)
        average = (sum(doc.length for doc in documents) / self.n if self.n else 0.0) or 1.0
        self._norm = [K1 * (1 - B + B * doc.length / average) for doc in documents]
        self._postings: dict[str, list[tuple[int, int]]] = {}
        self._words: WordIndex | None = None

    def postings(self, term: str) -> list[tuple[int, int]]:
        """(position, count) of the candidates holding ``term``."""
        found = self._postings.get(term)
        if found is None:
            padded = f" {term} "
            found = [(position, 1 + doc.again.count(padded)) for position, doc in enumerate(self._documents)
                     if padded in doc.distinct]
            self._postings[term] = found
        return found

    def _near(self, term: str) -> list[tuple[str, float]]:
        if self._words is None:  # built on the first query that needs it
            self._words = WordIndex(" ".join(doc.distinct for doc in self._documents).split())
        return self._words.near(term)

    def scores(self, query: str) -> dict[int, float]:
        """{position of a candidate: BM25 score} for the candidates matching at least one term.

        A query word found in no candidate is replaced by the candidates' words it is a prefix
        or a one-letter typo of, at a discount.
        """
        weights: dict[str, float] = {}
        for term in query_terms(query):
            if self.postings(term):
                weights[term] = 1.0
                continue
            for other, discount in self._near(term):
                if discount > weights.get(other, 0.0):
                    weights[other] = discount
        found: dict[int, float] = {}
        n, norm = self.n, self._norm
        for term, weight in weights.items():
            postings = self.postings(term)
            idf = weight * math.log(1 + (n - len(postings) + 0.5) / (len(postings) + 0.5))
            for position, count in postings:
                found[position] = found.get(position, 0.0) + idf * count * (K1 + 1) / (count + norm[position])
        return found


def lexical_scores(documents: Sequence[NoteTerms], query: str) -> list[float]:
    """BM25 of each document for ``query``; 0.0 where nothing matched."""
    found = LexicalIndex(documents).scores(query)
    return [found.get(position, 0.0) for position in range(len(documents))]
