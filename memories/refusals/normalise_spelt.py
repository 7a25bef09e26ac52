"""Characters read out as words (R-SAVE-2, for memories.refusals.normalise and the table
index): "the pin is four eight two one" reads "the pin is 4821", and a key dictated in the
spelling alphabet ("golf hotel papa underscore …") reads "ghp_…".
"""

from __future__ import annotations

import re

from memories.refusals.view import View, replaced
from memories.refusals.wordlists import table

__all__ = ["spelt_digits", "spelt_letters"]

_DIGIT_WORDS = table("spoken_digits")  # seven languages' digit words (data/spoken_digits.txt)
# Longest first: "seis" before "sei", "eins" before "ein".
_DIGIT_WORD = "(?:" + "|".join(sorted(map(re.escape, _DIGIT_WORDS), key=len, reverse=True)) + ")"
_DIGIT_WORD_SET = frozenset(_DIGIT_WORDS)
# Four digits or more read out one word each ("four eight two one", "4 five 3 nine", "quatre huit
# deux un"): a PIN or a card number spelt so that no digit is in it.
_SPELT_DIGITS_RE = re.compile(rf"(?i)\b(?:{_DIGIT_WORD}|\d)(?:[ ,\-]+(?:{_DIGIT_WORD}|\d)){{3,}}\b")
_PUNCTUATION = ".!?;:()[]{}\"'"  # around a word, besides the separators
_ONE_DIGIT_RE = re.compile(rf"(?i){_DIGIT_WORD}|\d")


def _spelt_run_likely(text: str) -> bool:
    """Whether four digit words or digits stand in a row in ``text``, one of them a word: a
    cheap look before the pattern, which tries every place."""
    words = text.lower().replace(",", " ").replace("-", " ").split()
    if _DIGIT_WORD_SET.isdisjoint(words):
        return False  # most notes: no digit word stands alone
    run = 0
    spelt = False
    for word in words:
        word = word.strip(_PUNCTUATION)
        if word in _DIGIT_WORD_SET:
            run, spelt = run + 1, True
        elif word.isdigit() and len(word) == 1:
            run += 1
        else:
            run, spelt = 0, False
            continue
        if run >= 4 and spelt:
            return True
    return False


def spelt_digits(text: str) -> View | None:
    """The text with digits read out as words written as digits: "the pin is four eight two
    one" reads "the pin is 4821". None when no four digits are spelt in a row."""
    if not _spelt_run_likely(text):
        return None
    changes = []
    for run in _SPELT_DIGITS_RE.finditer(text):
        digits = list(_ONE_DIGIT_RE.finditer(run.group()))
        if all(d.group().isdigit() for d in digits):
            continue  # digits as written are scanned already
        changes.append((run.start(), run.end(),
                        "".join(_DIGIT_WORDS.get(d.group().lower(), d.group()) for d in digits),
                        [(run.start() + d.start(), run.start() + d.end()) for d in digits]))
    return replaced(text, changes)


# Letters read out in the NATO / ICAO spelling alphabet, with digits and a token's punctuation
# read out too ("golf hotel papa underscore capital romeo eight …"), as a key is dictated.
_SPELLING_ALPHABET = {word: word[0] for word in (
    "alfa alpha bravo charlie delta echo foxtrot golf hotel india juliett juliet kilo lima mike "
    "november oscar papa quebec romeo sierra tango uniform victor whiskey whisky xray x-ray "
    "yankee zulu").split()}
_SPOKEN_SYMBOLS = {"underscore": "_", "dash": "-", "hyphen": "-", "minus": "-", "dot": ".", "period": ".",
                   "slash": "/", "plus": "+", "equals": "=", "niner": "9", **_DIGIT_WORDS}
_UPPER_WORDS = frozenset({"capital", "cap", "uppercase", "upper"})
_LOWER_WORDS = frozenset({"lowercase", "lower", "small"})
_SPOKEN_WORD_RE = re.compile(r"(?i)[a-z]+(?:-ray)?")
_SPOKEN_GAP_RE = re.compile(r"[ \t\r\n,;/]*")
_MIN_SPELT = 12  # characters: a word or two spelt out is no token


def spelt_letters(text: str) -> list[View]:
    """The text with each run of twelve or more characters read out in the spelling alphabet
    written as the characters: "golf hotel papa underscore capital romeo eight …" reads
    "ghp_R8…". A run that never says "capital" or "lower case" is read in small letters and
    again in capitals (keys of one case are dictated so). Empty when no such run is in it."""
    if sum(word in _SPELLING_ALPHABET for word in text.lower().replace(",", " ").split()) < _MIN_SPELT // 2:
        return []
    words = list(_SPOKEN_WORD_RE.finditer(text))
    lowered = [word.group().lower() for word in words]
    runs: list[list[tuple[str, tuple[int, int]]]] = []
    run: list[tuple[str, tuple[int, int]]] = []
    cased = False
    case = None
    previous_end = None
    for word, low in zip(words, lowered):
        if previous_end is None or not _SPOKEN_GAP_RE.fullmatch(text, previous_end, word.start()):
            runs.append(run)
            run, case = [], None
        previous_end = word.end()
        if low in _UPPER_WORDS or low in _LOWER_WORDS:
            case, cased = low in _UPPER_WORDS, True
            continue
        char = _SPELLING_ALPHABET.get(low) or _SPOKEN_SYMBOLS.get(low)
        if char is None:
            runs.append(run)
            run, case, previous_end = [], None, None
            continue
        run.append((char.upper() if case else char, word.span()))
        case = None
    runs.append(run)
    runs = [run for run in runs if len(run) >= _MIN_SPELT and any(char.isalpha() for char, _ in run)]
    if not runs:
        return []
    readings = [replaced(text, [_change(run, str) for run in runs])]
    if not cased:
        readings.append(replaced(text, [_change(run, str.upper) for run in runs]))
    return readings


def _change(run: list[tuple[str, tuple[int, int]]], case):
    """``run`` as a change for ``replaced``, its characters put in ``case``."""
    return run[0][1][0], run[-1][1][1], case("".join(char for char, _ in run)), [place for _, place in run]
