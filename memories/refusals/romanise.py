"""Latin spellings of names written in other scripts (R-SAVE-3, issue 18).

A table may hold "Дмитрий Иванов" and a note say "Dmitry Ivanov"; a table may hold "王小明"
and a note say "Wang Xiaoming". Both sides of the index go through memories.refusals.phrases,
which keeps each script as it is; this module gives the other spellings:

* ``name_spellings(tokens)``: for a table's cell (its normalised tokens), the token lists of
  its Latin spellings. Cyrillic and Greek letters go through the romanisation schemes people
  actually use (``data/romanisation_cyrillic.txt``, ``data/romanisation_greek.txt``: ISO 9,
  BGN/PCGN, ICAO passports, ELOT 743), each token in every spelling the schemes allow (capped);
  a Han or Hangul name of 2 to 4 letters is also written as a surname and a given name joined
  ("wang xiaoming", "xiaoming wang"), with Korean surnames in their usual spellings
  (``data/romanisation_korean_surnames.txt``: "Kim", "Lee", "Park"); anything else goes through
  ``anyascii`` (a transliteration table for every script, ISC licence).
* ``latin_tokens(tokens)``: for a note, each token that is not in Latin letters written with
  ``anyascii``, so a note in Cyrillic matches the Latin spellings of the index.

Nothing here guesses: a name written in a spelling no scheme gives is not matched.
"""

from __future__ import annotations

import functools
import itertools
import re

from anyascii import anyascii

from memories.refusals.wordlists import entries

__all__ = ["latin_tokens", "name_spellings"]

MAX_SPELLINGS_PER_TOKEN = 12
MAX_SPELLINGS_PER_NAME = 24
_HAN_OR_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_HANGUL = re.compile("[\uac00-\ud7af]")
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


@functools.cache
def _scheme(name: str) -> tuple[dict[str, tuple[str, ...]], int]:
    """A scheme file as {letters: spellings} and the length of its longest key."""
    table: dict[str, tuple[str, ...]] = {}
    for entry in entries(name):
        letters, _, spellings = entry.partition("\t")
        table[letters] = tuple("" if s == "-" else s for s in spellings.split())
    return table, max(len(k) for k in table)


@functools.cache
def _korean_surnames() -> dict[str, tuple[str, ...]]:
    out = {}
    for entry in entries("romanisation_korean_surnames"):
        surname, _, spellings = entry.partition("\t")
        out[surname] = tuple(spellings.split())
    return out


def _plain(text: str) -> str:
    return _NOT_ALNUM.sub("", anyascii(text).lower())


def _token_spellings(token: str) -> list[str]:
    """Every spelling of one token by the Cyrillic and Greek schemes (capped), then anyascii's."""
    if token.isascii():
        return [token]
    options: list[tuple[str, ...]] = []
    pos = 0
    cyrillic, cyrillic_len = _scheme("romanisation_cyrillic")
    greek, greek_len = _scheme("romanisation_greek")
    longest = max(cyrillic_len, greek_len)
    while pos < len(token):
        for size in range(longest, 0, -1):
            piece = token[pos : pos + size]
            found = cyrillic.get(piece) or greek.get(piece)
            if found is not None and len(piece) == size:
                options.append(found)
                pos += size
                break
        else:
            options.append((_plain(token[pos]),))
            pos += 1
    if token[0] in "еє":
        options[0] = (*options[0], "ye")  # "Елена" is "Elena" and "Yelena"
    spellings = ["".join(parts) for parts in itertools.islice(itertools.product(*options), MAX_SPELLINGS_PER_TOKEN)]
    spellings.append(_plain(token))
    return [s for s in dict.fromkeys(spellings) if s]


def _cjk_name_spellings(tokens: list[str]) -> list[list[str]]:
    """A Han or Hangul name of 2 to 4 letters, one token each: surname + given name joined."""
    syllables = [_plain(t) for t in tokens]
    if not all(syllables):
        return []
    given = "".join(syllables[1:])
    surnames = [syllables[0]]
    if _HANGUL.fullmatch(tokens[0]):
        surnames = list(dict.fromkeys([*_korean_surnames().get(tokens[0], ()), syllables[0]]))
    out = [syllables]
    for surname in surnames:
        out += [[surname, given], [given, surname]]
    return out


def name_spellings(tokens: list[str]) -> list[list[str]]:
    """The Latin spellings of a cell's tokens (not the tokens themselves); [] when all are Latin."""
    if all(t.isascii() for t in tokens):
        return []
    if 2 <= len(tokens) <= 4 and all(len(t) == 1 and _HAN_OR_HANGUL.match(t) for t in tokens):
        return _cjk_name_spellings(tokens)
    # Each token in each of its spellings, the others in their first (a full product would
    # grow as the product of the tokens' counts; a name is written in one scheme at a time,
    # and the scheme's spelling of each token is among the first ones).
    per_token = [_token_spellings(t) for t in tokens]
    out = [[spellings[min(i, len(spellings) - 1)] for spellings in per_token]
           for i in range(max(len(s) for s in per_token))]
    for position, spellings in enumerate(per_token):
        for spelling in spellings[1:]:
            out.append([spelling if j == position else per_token[j][0] for j in range(len(tokens))])
    unique = [list(s) for s in dict.fromkeys(tuple(s) for s in out)]
    return [s for s in unique if s != tokens and all(s)][:MAX_SPELLINGS_PER_NAME]


def latin_tokens(tokens: list[str]) -> list[str] | None:
    """The note's tokens with every non-Latin one written by anyascii; None when none changes."""
    if all(t.isascii() for t in tokens):
        return None
    out = [t if t.isascii() else (_plain(t) or t) for t in tokens]
    return out if out != tokens else None
