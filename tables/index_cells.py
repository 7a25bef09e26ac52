"""What a record's cells put in the index of identifying values (R-SAVE-3), and the keyed hash.

Every cell of an indexed column is cut into words by memories.refusals.phrases and gives
*whole values* (counted in ``IdentifyingPhrase.count``) and *parts* (``part_count``); see
tables.identifying for how a note's phrases are matched against them. Besides the cell as
written, a cell is indexed under the other ways people write the same value (issue 18):

* an id: its words run together ("CUST-00417" is also "cust00417"), and its letters with its
  number without leading zeros ("cust 417", which "Customer 417" is read as); its number as written ("00417") is a part, which
  counts only after a word that says it is an id;
* a person: the initial of the first name with the surname ("j okafor", "okafor j"), the first
  name with the surname's initial ("ana l"), the initials ("a l", "al", with the middle names'
  initials before the surname: "a m lopez") — all parts, so they count only when one person of
  the table has them or the words around say it is a person;
* a value in another script: its Latin spellings (memories.refusals.romanise), each with its
  own parts.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

from django.conf import settings

from memories.refusals.phrases import (
    DIGEST_SIZE,
    MAX_PHRASE_WORDS,
    PHONE_KEEP_DIGITS,
    PHONE_MIN_DIGITS,
    word_tokens,
)
from memories.refusals.romanise import name_spellings

INDEXED_KINDS = frozenset({"person", "email", "phone", "id", "text"})
MIN_ID_PREFIX_LETTERS = 2  # "cust 417" is indexed for "CUST-00417", not "r 2024" for "R-02024"

# --------------------------------------------------------------------------------------------
# Hashing: the same phrases and digests as memories.refusals.phrases, with a cheaper hasher.


@lru_cache(maxsize=4)
def _derived_key(secret: str | bytes) -> bytes:
    """A 32-byte key for the index, derived from INDEX_KEY (which may be any length)."""
    raw = secret.encode("utf-8") if isinstance(secret, str) else bytes(secret)
    return hashlib.blake2b(raw, digest_size=32, person=b"appenda.index").digest()


class _Digester:
    """``phrase_digest(phrase, key)`` without re-keying BLAKE2b for every phrase.

    phrases.phrase_digest builds a keyed hash per call; copying a hash already keyed gives the
    same digest (tests check it) at about half the cost, which counts when a table of a million
    records is indexed. The key is read from settings each time a digester is made, so a test
    that changes INDEX_KEY sees it.
    """

    def __init__(self) -> None:
        key = _derived_key(settings.APPENDA["INDEX_KEY"])
        self.key = key
        self._keyed = hashlib.blake2b(digest_size=DIGEST_SIZE, key=key)

    def __call__(self, phrase: str) -> bytes:
        hasher = self._keyed.copy()
        hasher.update(phrase.encode("utf-8"))
        return hasher.digest()


# --------------------------------------------------------------------------------------------
# What a cell contributes.

_PLAIN_EMAIL = re.compile(
    r"[a-z0-9]+(?:[._+-][a-z0-9]+)*@[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+", re.IGNORECASE
)
_E164 = re.compile(r"\+[0-9]{7,15}")
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
_LETTERS_AND_DIGITS = re.compile(r"[a-z][0-9]|[0-9][a-z]")
_DROP_DIGITS = str.maketrans("", "", "0123456789")


def cell_tokens(kind: str, value: str) -> list[str]:
    """The words of a cell, exactly as ``phrases.word_tokens`` gives them, faster for plain cells.

    word_tokens runs a few regular expressions (emails, dates, phone numbers) over the text; for
    a million records that is most of the time of indexing. Plain shapes give the same words
    without them, by the rules phrases.py documents:

    * ASCII with no "@" and fewer than 7 digits, no digit touching a letter ("Ana Lopez",
      "EMP-00017", "Shipped"): no email, and too few digits for a phone number, so the words
      are the lower-cased runs of letters or digits;
    * an ASCII email address of the common shape: one token, lower case;
    * a phone cell in E.164 form ("+14155550134"): its last 9 digits.

    Anything else goes through word_tokens. tests/tables/test_identifying.py checks that the
    two agree, on the corpus and on generated values.
    """
    if value.isascii():
        lowered = value.lower()
        if "@" not in value and len(value) - len(value.translate(_DROP_DIGITS)) < PHONE_MIN_DIGITS:
            if not _LETTERS_AND_DIGITS.search(lowered):
                return [word for word in _NOT_ALNUM.split(lowered) if word]
        elif kind == "email" and "+" not in value:
            stripped = lowered.strip()
            if _PLAIN_EMAIL.fullmatch(stripped):
                return [stripped]
        elif kind == "phone" and _E164.fullmatch(value):
            return [value[1:][-PHONE_KEEP_DIGITS:]]
    return word_tokens(value)


_RUNS = re.compile(r"[a-z]+|[0-9]+")


def _name_parts(tokens: list[str]) -> set[str]:
    """Every shorter run of 1 to 4 words of a name, and the ways it is written with initials."""
    count = len(tokens)
    parts = {
        " ".join(tokens[start:end])
        for start in range(count)
        for end in range(start + 1, min(start + MAX_PHRASE_WORDS, count) + 1)
        if (start, end) != (0, count)
    }
    if count >= 2 and all(t.isascii() and t.isalpha() for t in tokens):
        first, last = tokens[0], tokens[-1]
        initials = [t[0] for t in tokens]
        parts |= {f"{first[0]} {last}", f"{last} {first[0]}", f"{first} {last[0]}", " ".join(initials)}
        if count >= 3:
            # Run together only from three letters: two ("to", "is", "am") are words.
            parts |= {" ".join([*initials[:-1], last]), "".join(initials), "".join(initials[:-1]) + f" {last}"}
    return parts


def _id_forms(tokens: list[str]) -> set[str]:
    """Other ways to write an id: run together, letters apart from digits, no leading zeros."""
    runs = [run for token in tokens for run in _RUNS.findall(token)]
    forms = {"".join(tokens), " ".join(runs)} if len(runs) > 1 else set()
    letters = [r for r in runs if r.isalpha()]
    if letters and len(letters[0]) >= MIN_ID_PREFIX_LETTERS and any(r.isdigit() for r in runs):
        # Not also run together without zeros ("cust417"): one more row per record for a form
        # nobody was seen to write (benchmarks/RESULTS.md, index size).
        stripped = [r.lstrip("0") or "0" if r.isdigit() else r for r in runs]
        forms.add(" ".join(stripped))
    return forms


def id_number_parts(tokens: list[str]) -> set[str]:
    """The numbers of an id as written ("00417" of "CUST-00417"): parts, counted after an id cue."""
    runs = [run for token in tokens for run in _RUNS.findall(token)]
    if len(runs) < 2:
        return set()
    return {r for r in runs if r.isdigit() and len(r) >= 3}


def cell_phrases(kind: str, value) -> tuple[list[str], list[str]]:
    """(whole values, parts) a cell puts in the index; ([], []) when it puts nothing.

    The first whole value is the cell's words joined by one space when there are 1 to 4 of them
    (a longer value can never be one phrase of a note); the others are the same value written
    another way (see the module docstring). Parts are for person names (every shorter run of 1
    to 4 words, and initials) and the numbers of ids.
    """
    if kind not in INDEXED_KINDS or value is None or value == "" or isinstance(value, bool):
        return [], []
    tokens = cell_tokens(kind, str(value))
    if not tokens:
        return [], []
    wholes: dict[str, None] = {}
    if len(tokens) <= MAX_PHRASE_WORDS:
        wholes[" ".join(tokens)] = None
    parts: set[str] = set()
    if kind == "id":
        wholes.update(dict.fromkeys(sorted(_id_forms(tokens))))
        parts = id_number_parts(tokens)
    elif kind == "person":
        spellings = [tokens, *name_spellings(tokens)]
        for spelling in spellings:
            if len(spelling) <= MAX_PHRASE_WORDS:
                wholes[" ".join(spelling)] = None
            if len(spelling) > 1:
                parts |= _name_parts(spelling)
    elif kind != "text":
        for spelling in name_spellings(tokens):
            if len(spelling) <= MAX_PHRASE_WORDS:
                wholes[" ".join(spelling)] = None
    return list(wholes), sorted(parts - set(wholes))
