"""Rule 2 of the person detector (memories.refusals.people): when capitalised words in a row
are a person's name. Known name words, a run with a word no list knows, a first name and a famous
surname, a name with a Dutch or German particle. Split from people.py, which walks the runs.
"""

from __future__ import annotations

import re

from wordfreq import zipf_frequency

from memories.refusals.people_cues import _joined
from memories.refusals.people_lexicon import _Lexicon
from memories.refusals.people_tokens import _Token
from memories.refusals.people_words import _CALENDAR, _PLACES

__all__ = ["PLACE_BEFORE", "first_and_rare_surname", "germanic_particle_name", "initial", "is_name_word",
           "run_is_name", "unknown_run"]


def run_is_name(run: list[_Token], lex: _Lexicon) -> bool:
    """Rule 2: two or more capitalised name words in a row."""
    kinds = [t.kind for t in run]
    if any(k not in "SLWTUE" for k in kinds):
        return False
    strong = [t for t in run if t.kind in "SL"]
    if strong and (
        any(t.key not in lex.wordlike for t in strong) or all(k in "SLW" for k in kinds)
    ):
        # "Chidi Okonkwo", "Grant Holloway", "Ruby Chen", "Priya Raman", "Handler Pearson"
        # but not "General Decimal Arithmetic" (words a dictionary knows around a name).
        return True
    # "Mark Whitfield": an ambiguous first name, then a word no list or dictionary knows.
    head = run[0]
    return (
        head.kind == "W"
        and head.key in lex.first
        and head.key not in _PLACES
        and head.key not in _CALENDAR
        and all(k == "U" for k in kinds[1:])
    )


# Words before a place more often than before a person: an unknown run after one is a place.
PLACE_BEFORE = frozenset("in at near into across inside outside around".split())


def initial(tok: _Token) -> bool:
    return len(tok.text) == 1 and tok.text.isupper() and not tok.possessive


def unknown_run(text: str, run: list[_Token], lex: _Lexicon, initials: bool) -> bool:
    """Name words in a row that rule 2 does not take: with a middle initial between them
    ("Mohmad R. Vizirov"); or two or three, one of them a word no list knows and no English word
    ("under Chihiro Fukunaga", "Júlia Gyarmathy", "Charlotte Mathiassen")."""
    kinds = {t.kind for t in run}
    if initials:
        return kinds <= set("SLWU") and len(run) <= 3
    if not kinds <= set("SLWTU") or len(run) > 3:
        return False
    unknown = [t for t in run if t.kind == "U"]
    if not unknown or any(len(t.key) < 4 or t.key in lex.english for t in unknown):
        return False
    before = re.search(r"([^\W\d_]+)\s+$", text[max(0, run[0].start - 12) : run[0].start])
    return before is None or before.group(1).lower() not in PLACE_BEFORE  # "in Villafranca del Cid"


# Particles of Dutch and German surnames: places are rarely written with them ("Rio de Janeiro",
# "Costa del Sol" are Romance), names often ("Willemine ten Pas", "Jaap van der Poel").
_GERMANIC_PARTICLES = frozenset("van von ten ter zu".split())


def germanic_particle_name(text: str, span: list[_Token], run: list[_Token]) -> bool:
    """A given name (known, or a word of no language's list, English, Dutch or German), a Dutch or
    German particle, a surname that may be an English word: "Willemine ten Pas", "Anouk van der
    Poel"."""
    if len(run) not in (2, 3) or run[0].kind not in "SU" or run[0].possessive:
        return False
    if run[0].kind == "U" and max(zipf_frequency(run[0].key, language) for language in ("nl", "de")) >= 3.0:
        return False  # a Dutch or German word: "Kaap van Goede Hoop", "Stadt von Berlin"
    if not any(t.key in _GERMANIC_PARTICLES and t.lower for t in span):
        return False
    if not all(t.kind in "SLWUE" and t.key not in _PLACES for t in run):
        return False
    before = re.search(r"([^\W\d_]+)\s+$", text[max(0, run[0].start - 12) : run[0].start])
    return before is None or before.group(1).lower() not in PLACE_BEFORE


_ARTICLES = frozenset("the a an".split())


def first_and_rare_surname(text: str, tokens: list[_Token], i: int, j: int, lex: _Lexicon) -> bool:
    """"Clint Eastwood", "Lindsay Lohan": a first name, then a surname that a dictionary knows
    only as a rarer word (wordfreq counts famous surnames as words). Alone: not after an article
    ("the Rice Owls") nor inside a run of capitalised words (a title: "Max Calorie Burn Workout")."""
    if j != i + 1:
        return False
    head, tail = tokens[i], tokens[j]
    if not (head.kind in "SW" and head.key in lex.first and head.key not in _PLACES
            and head.key not in _CALENDAR and tail.kind == "E" and not head.possessive):
        return False
    if i > 0 and (tokens[i - 1].key in _ARTICLES or (tokens[i - 1].cap and _joined(text, tokens[i - 1], head))):
        return False
    return not (j + 1 < len(tokens) and tokens[j + 1].cap and _joined(text, tail, tokens[j + 1]))


def is_name_word(tok: _Token) -> bool:
    return tok.cap and tok.kind in "SLWTUE" and not tok.code
