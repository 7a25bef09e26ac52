"""The index of a table's identifying values (R-SAVE-3), kept in step with its records.

Region database: ``tables.models.IdentifyingPhrase`` (keyed hashes of values, with counts) and
``IdentifyingColumn`` (how unique each text column is), next to the records they describe.

A note tied to a table is refused when it names a person of the table or a single record of
it. This module keeps the index that answers that question in time that does not grow with
the table, and answers it (``find_identifying_match``), for memories.refusals.gate.

What is indexed (``index_records_added`` / ``index_records_removed``, called by
tables.services inside the transaction of every record change):

* cells of columns of kind person, email, phone and id, as whole values: the cell is
  normalised and cut into words by memories.refusals.phrases (so "Ana López", "ana lopez" and
  "ANA LOPEZ!" are one phrase; an email is one token; a phone is its last 9 digits), and the
  whole value, when it has 1 to 4 words, is stored as a keyed hash with the number of records
  holding it (``count``);
* the parts of person names: every shorter run of 1 to 4 words of the name ("lopez", "ana",
  "de la cruz") with the number of records whose name holds it (``part_count``), so "Ms. Lopez"
  is matched;
* cells of text columns of 1 to 4 words as whole values, with per-column totals (values and
  distinct values) in ``IdentifyingColumn``, so that a value identifies a record only when the
  column is mostly unique (a company name) and never when it is a category ("Shipped").

Counts are kept with ``INSERT … ON CONFLICT DO UPDATE SET count = count + excluded.count`` (an
upsert PostgreSQL and SQLite both run), so several app processes adding and deleting records
of one table at once keep them right: each phrase row is a counter that the database updates
under its row lock; rows are written in one global order (column, digest) so two such
transactions never wait on each other in a cycle; a row goes when its counts reach zero.
Nothing is stored in plaintext: only the 16-byte keyed BLAKE2b digests (the key is
settings.APPENDA["INDEX_KEY"]), the column's name and kind, and counts.

How a note is checked (``find_identifying_match``): the note's own 1–4-word phrases are hashed
the same way and looked up in one query on the (table, digest) index, so the cost is that of
the note's length whatever the table's size. A matched row counts when:

* it is the whole value of an email, phone or id column, or a person's full name of two words
  or more: always (a short all-digit id, like "42", only after a word that says it is an id —
  "id", "row", "record", "customer", or a word of the column's name — since notes are full of
  small numbers);
* it is a whole value of a text column: when exactly one record holds it and the column is
  mostly unique (at least 3 values, at least 90% of them distinct);
* it is a part of a person's name (or a one-word name): when exactly one person of the table
  has it, or when the words around it say it is a person (a title before it — Mr, Ms, Dr…; a
  role or a verb addressed to a person before it — "customer", "client", "user", "ask", "tell",
  "with"…; or a verb of which it is the subject, or a possessive, after it — "said", "prefers",
  "'s"…). A part that is a weak word — a common English word, a place, a month, a word of two
  letters — counts only after a title: "Will the export run on May 3?" is not about Will May,
  "Ms. May approved it" is.

The weak words (``COMMON_WORDS``, memories/refusals/data/identifying_common_words.txt) are a
short hand-kept list, tuned on tests/data/people_corpus.json: its table holds real people
called Will, May, Rose, Hope, Jordan, Grant, Summer, Bill, Mark, Frank and surnames like Lin,
Hong, Song or Park, and its benign table and technical notes use those words ("Rose gold
variants", "Hong Kong", "Julia is used for the pricing model"). The corpus test
(tests/tables/test_identifying.py) prints the words behind every false refusal; a word goes
on the list when it is more often a word than a name in notes about data (months, days,
places, modal verbs, flowers, technologies).
Measured: without the list 67 of the 410 benign table notes (16%) are refused ("Will the
report run…", "Hope this helps…", "Bill amounts…"); with it none are, and recall stays at
99.8% (the one miss: "Hope from sales wants…", a weak first name with no title).

Since issue 18 a note is checked against every table of its workspace, with or without a
subject (``find_workspace_match``: one query on the (workspace, digest) index), and a cell is
indexed under the other ways it is written (tables.index_cells: ids run together or without
leading zeros, initials, Latin spellings of other scripts). A note also holds, besides its own
phrases, their romanised forms and, before each number, the beginnings of the word in front of
it ("Customer 00417" → "cust 00417"; ``note_phrases``). One rule is added for a note not tied to
the matched table: a lone name word needs the words around it to say it is a person (``_rank``).
Records added later re-check the workspace's notes (memories.recheck).

Which column matched is all a refusal says (memories.refusals.gate words it); nothing here
returns a value, a record or a phrase.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import connections

from appenda.db.fast import execute, fast_cursor
from memories.refusals.phrases import MAX_PHRASE_WORDS, phrases, word_tokens
from memories.refusals.romanise import latin_tokens
from memories.refusals.wordlists import words
from tables.index_cells import (
    INDEXED_KINDS,
    MIN_ID_PREFIX_LETTERS,
    _Digester,
    cell_phrases,
    cell_tokens,
)
from tables.index_store import (
    _digest_chunks,
    _digest_in,
    index_records_added,
    index_records_removed,
    index_table_rebuild,
)
from tables.note_readings import readings

__all__ = [
    "INDEXED_KINDS", "IdentifyingMatch", "cell_phrases", "cell_tokens", "find_identifying_match",
    "find_workspace_match", "index_records_added", "index_records_removed", "index_table_rebuild",
]

WHOLE_VALUE_KINDS = frozenset({"email", "phone", "id"})
MIN_TEXT_VALUES = 3  # a text column identifies records once it holds at least this many values…
MIN_TEXT_DISTINCT = 0.9  # …and at least this share of them are distinct
SHORT_ID_DIGITS = 6  # an all-digit id shorter than this needs a word saying it is an id
MAX_ID_PREFIX_LETTERS = 8  # "Customer 00417" is tried as "cu 00417" … "customer 00417"

_CJK_LETTER = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")

# Before a name: titles. The only cue that lets a weak word (May, Rose, Lin…) count as a name.
TITLES = frozenset(
    "mr mrs ms miss mx dr doctor prof professor sir madam dame lord lady mme mlle herr frau "
    "sr sra srta dott sig mevr dhr".split()
)
# Before a name: a person's role, relation, or a verb addressed to a person.
PERSON_BEFORE = frozenset(
    "customer customers client clients user users employee employees patient member colleague "
    "coworker manager boss contact wife husband partner son daughter mother father mom dad "
    "brother sister friend assistant intern candidate applicant tenant guest student teacher "
    "ask asked tell told ping pinged email emailed message messaged dm text texted call called "
    "phone cc bcc thank thanks remind notify invite meet met with per by".split()
)
PERSON_BEFORE_PAIRS = frozenset({("loop", "in"), ("reach", "out"), ("hand", "over")})
# After a name: a possessive ("Omar's" is "omar s" once normalised) or a verb it is subject of.
PERSON_AFTER = frozenset(
    "s said says asked asks wants wanted prefers preferred likes liked thinks thought owns owned "
    "approved approves handles handled reviews reviewed signs signed joined left is was has had "
    "from mentioned replied wrote called emailed needs needed".split()
)
# Before a short all-digit id.
ID_CUES = frozenset(
    "id ids no nr num number record records row rows customer client user employee emp account "
    "order ticket case invoice member patient ref reference".split()
)
# Function words: never a name part on their own.
FUNCTION_WORDS = frozenset(
    "the and for are was were not but all any can could would should shall must might this that "
    "these those there their then than them they you your our out off now new old get got set "
    "run use used see via per who why how what when where which while with from into onto upon "
    "over under about after before again also only just very more most less least each every "
    "some such same other own both few many much one two three four five six seven eight nine "
    "ten first last next his her hers him she its yes day days week weeks month year years time "
    "way top end".split()
)
# Common words that are also name parts (see the module docstring for how this list is kept):
# memories/refusals/data/identifying_common_words.txt.
COMMON_WORDS = words("identifying_common_words")


@dataclass(frozen=True)
class IdentifyingMatch:
    column: str
    column_kind: str
    table_id: object = None
    table_name: str | None = None

# --------------------------------------------------------------------------------------------
# Checking a note.


def _spans(count: int) -> Iterable[tuple[int, int]]:
    """(start, end) of every phrase, in the order ``phrases.phrases`` yields them."""
    for start in range(count):
        for end in range(start + 1, min(start + MAX_PHRASE_WORDS, count) + 1):
            yield start, end


def _weak(word: str) -> bool:
    return len(word) <= 2 or word in COMMON_WORDS or word in FUNCTION_WORDS


def _cjk(words: Sequence[str]) -> bool:
    """Letters of a script written without spaces (phrases makes each one a word)."""
    return all(len(word) == 1 and _CJK_LETTER.match(word) for word in words)


def _short_number(words: Sequence[str]) -> bool:
    return len(words) == 1 and words[0].isdigit() and len(words[0]) < SHORT_ID_DIGITS


def _after_title(tokens: Sequence[str], start: int) -> bool:
    return start > 0 and tokens[start - 1] in TITLES


def _person_context(tokens: Sequence[str], start: int, end: int) -> bool:
    if start > 0 and (tokens[start - 1] in TITLES or tokens[start - 1] in PERSON_BEFORE):
        return True
    if start > 1 and (tokens[start - 2], tokens[start - 1]) in PERSON_BEFORE_PAIRS:
        return True
    return end < len(tokens) and tokens[end] in PERSON_AFTER


def _id_context(tokens: Sequence[str], start: int, column_name: str) -> bool:
    if start == 0:
        return False
    before = tokens[start - 1]
    return before in ID_CUES or before in set(word_tokens(column_name))


def _rank(row, tokens: Sequence[str], start: int, end: int, tied: bool = True) -> int | None:
    """How sure a match is (0 surest), or None when this occurrence does not count.

    ``tied``: the note is tied to the row's table. A note that is not (no subject, or another
    table) is read with one rule more: one word of a name alone ("Monika", "Music") counts
    only with words around it that say it is a person, even when one person of the table has
    it — across all the tables of a workspace, a lone first name or surname is more often a
    street, a band or somebody else."""
    column_name, kind, _, count, part_count, values_count, distinct_count = row[:7]
    words = tokens[start:end]
    if count > 0 and kind in WHOLE_VALUE_KINDS:
        if kind == "id" and _short_number(words):
            return 0 if _id_context(tokens, start, column_name) else None
        return 0
    if kind == "id":  # the number of an id as written ("00417"): after a word that says it is one
        return 1 if part_count > 0 and _id_context(tokens, start, column_name) else None
    if kind == "text":
        if count != 1 or values_count < MIN_TEXT_VALUES or distinct_count < MIN_TEXT_DISTINCT * values_count:
            return None
        if _short_number(words):
            return 1 if _id_context(tokens, start, column_name) else None
        return None if all(_weak(word) for word in words) else 1
    if kind != "person":
        return None
    weak = all(_weak(word) for word in words)
    if count > 0 and len(words) > 1:  # a full name (in Han or Hangul: one letter a word)
        return 0 if not weak or _cjk(words) or _after_title(tokens, start) else None
    if count + part_count <= 0:
        return None
    if weak:
        return 2 if _after_title(tokens, start) else None
    if _person_context(tokens, start, end) or (count + part_count == 1 and (tied or len(words) > 1)):
        return 2
    return None


def _select(connection) -> str:
    from tables.models import IdentifyingColumn, IdentifyingPhrase, Table

    quote = connection.ops.quote_name
    phrase = quote(IdentifyingPhrase._meta.db_table)
    column = quote(IdentifyingColumn._meta.db_table)
    table = quote(Table._meta.db_table)
    return (
        f"SELECT p.column_name, p.column_kind, p.digest, p.{quote('count')}, p.part_count, "
        f"c.values_count, c.distinct_count, p.table_id, t.name FROM {phrase} p "
        f"JOIN {table} t ON t.id = p.table_id LEFT JOIN {column} c "
        f"ON c.table_id = p.table_id AND c.column_name = p.column_name "
    )


def lookup_statements(connection, table, digests: Sequence[bytes]) -> Iterable[tuple[str, list]]:
    """The look-up of these digests in ``table``'s index, with their column's totals: one
    statement on the (table, digest) index (SQLite: as many as its limit on parameters needs)."""
    from tables.models import IdentifyingPhrase

    field = IdentifyingPhrase._meta.get_field
    workspace_id = field("workspace_id").get_db_prep_value(table.workspace_id, connection)
    table_id = field("table").get_db_prep_value(table.pk, connection)
    select = _select(connection) + "WHERE p.table_id = %s AND p.workspace_id = %s AND p."
    for chunk in _digest_chunks(connection, digests, reserved=2):
        condition, params = _digest_in(connection, chunk)
        yield select + condition, [table_id, workspace_id, *params]


def workspace_lookup_statements(connection, workspace_id, digests: Sequence[bytes]) -> Iterable[tuple[str, list]]:
    """The look-up of these digests in the index of every table of the workspace: one statement
    on the (workspace, digest) index, whatever the number and size of the tables."""
    from tables.models import IdentifyingPhrase

    workspace = IdentifyingPhrase._meta.get_field("workspace_id").get_db_prep_value(workspace_id, connection)
    select = _select(connection) + "WHERE p.workspace_id = %s AND p."
    for chunk in _digest_chunks(connection, digests, reserved=1):
        condition, params = _digest_in(connection, chunk)
        yield select + condition, [workspace, *params]


def _lookup(connection, table, digests: Sequence[bytes], *, workspace_id=None) -> list[tuple]:
    """The index rows of ``digests`` (of ``table``, or of every table of ``workspace_id``). On
    PostgreSQL the statement is prepared once per connection and the digests go as one binary
    parameter rather than escaped into the SQL text (``appenda.db.fast``): faster per check than
    Django's client-side binding at 100,000 records (benchmarks/bench_refusals.py)."""
    rows: list[tuple] = []
    statements = (workspace_lookup_statements(connection, workspace_id, digests) if table is None
                  else lookup_statements(connection, table, digests))
    with fast_cursor(connection) as cursor:
        for sql, params in statements:
            execute(cursor, connection, sql, params)
            rows += cursor.fetchall()
    return [(c, k, bytes(d), n, p, v or 0, u or 0, t, name) for c, k, d, n, p, v, u, t, name in rows]


# Words between an id's word and its number: "customer no. 417", "customer number 417".
_NUMBER_WORDS = frozenset("no nr num number".split())


def note_phrases(text: str) -> tuple[list[str], dict[bytes, list[tuple[int, int]]]]:
    """The note's tokens, and the digest of each phrase it holds with where it stands.

    Besides its runs of 1 to 4 words: the same runs with every word not in Latin letters
    romanised (memories.refusals.romanise), and, before each number, the beginnings of the word
    in front of it ("Customer 00417" holds "cust 00417" and "cust 417"), so an id whose letters
    stand for a word is matched when the word is written out.
    """
    tokens = word_tokens(text or "")
    where: dict[bytes, list[tuple[int, int]]] = {}
    if not tokens:
        return tokens, where
    digest = _Digester()
    spans = list(_spans(len(tokens)))
    for (start, end), phrase in zip(spans, phrases(tokens)):
        where.setdefault(digest(phrase), []).append((start, end))
    romanised = latin_tokens(tokens)
    if romanised is not None:
        for (start, end), phrase in zip(spans, phrases(romanised)):
            where.setdefault(digest(phrase), []).append((start, end))
    for i in range(1, len(tokens)):
        before = i - 1
        if tokens[before] in _NUMBER_WORDS and before > 0:
            before -= 1  # "customer no. 417", "customer number 00417"
        number, word = tokens[i], tokens[before]
        if not (number.isdigit() and word.isascii() and word.isalpha() and len(word) > MIN_ID_PREFIX_LETTERS):
            continue
        for size in range(MIN_ID_PREFIX_LETTERS, min(len(word), MAX_ID_PREFIX_LETTERS + 1)):
            for written in dict.fromkeys((number, number.lstrip("0") or "0")):
                where.setdefault(digest(f"{word[:size]} {written}"), []).append((before, i + 1))
            where.setdefault(digest(f"{word[:size]}{number}"), []).append((before, i + 1))
    _add_readings(text, tokens, where, digest)
    return tokens, where


def _add_readings(text: str, tokens: list[str], where: dict, digest) -> None:
    """The phrases of each other reading of the note (tables.note_readings), placed after its
    own words and an empty word, so that no phrase runs from one into the other and the words
    around a reading's phrase are the reading's."""
    for reading in readings(text):
        reading_tokens = word_tokens(reading)
        offset = len(tokens) + 1
        tokens.append("")
        tokens.extend(reading_tokens)
        for (start, end), phrase in zip(_spans(len(reading_tokens)), phrases(reading_tokens)):
            where.setdefault(digest(phrase), []).append((start + offset, end + offset))


def _best(rows, tokens, where, subject_table_id=None) -> IdentifyingMatch | None:
    best: tuple | None = None
    for row in rows:
        for start, end in where[row[2]]:
            rank = _rank(row, tokens, start, end, tied=row[7] == subject_table_id)
            if rank is None:
                continue
            key = (rank, row[7] != subject_table_id, row[8] or "", row[0])
            if best is None or key < best[0]:
                best = (key, row)
    if best is None:
        return None
    row = best[1]
    return IdentifyingMatch(column=row[0], column_kind=row[1], table_id=row[7], table_name=row[8])


def find_identifying_match(*, table, text: str, using: str) -> IdentifyingMatch | None:
    """The column whose value the note names, when it names a person or a single record of the
    table; None otherwise. One indexed query, whatever the table's size."""
    tokens, where = note_phrases(text)
    if not where:
        return None
    return _best(_lookup(connections[using], table, list(where)), tokens, where, table.pk)


def find_workspace_match(*, workspace_id, text: str, using: str, subject_table=None) -> IdentifyingMatch | None:
    """The table and column whose value the note names, when it names a person or a single
    record of any table of the workspace (R-SAVE-3, issue 18: a note without a subject, or tied
    to another table, is checked the same way); None otherwise. On a tie the subject's table wins.
    One indexed query, whatever the number and size of the tables."""
    tokens, where = note_phrases(text)
    if not where:
        return None
    rows = _lookup(connections[using], None, list(where), workspace_id=workspace_id)
    return _best(rows, tokens, where, subject_table.pk if subject_table is not None else None)
