"""Chinese names written the Hong Kong, Macau or Taiwan way (R-SAVE-3b): a surname and a given
name of two syllables joined by a hyphen, in either order ("Wong Yeung-tat", "Chi-wai Leung",
"Tsai Ing-wen"). Issue 18's "the name romanised": the names dataset the lexicon reads knows few of
these surnames and none of the given names, and each syllable alone is a word or nothing.

Only the pair is read: a hyphenated pair of syllables alone ("Tai-Chi", "Ping-Pong", "Wing-Chun")
names a thing as often as a person, and the surname alone is a word ("Law", "Ma", "Fan").
"""

from __future__ import annotations

import re

from memories.refusals.wordlists import words

__all__ = ["hyphenated_chinese_names"]

_SYLLABLES = words("people_hyphenated_given_syllables") | words("people_korean_syllables")
_SURNAMES = words("people_cantonese_taiwanese_surnames")
_GIVEN_RE = re.compile(r"(?<![\w\-])[A-Z][a-z]{1,6}-[a-z]{1,6}(?![\w\-])")
_SURNAME_BEFORE_RE = re.compile(r"(?<![\w\-])([A-Z][a-z]{1,7}) $")
_SURNAME_AFTER_RE = re.compile(r" ([A-Z][a-z]{1,7})(?![\w\-])")


def _given(word: str) -> bool:
    first, second = word.lower().split("-")
    return first in _SYLLABLES and second in _SYLLABLES


def hyphenated_chinese_names(text: str) -> list[tuple[int, int]]:
    if "-" not in text:
        return []
    found = []
    for given in _GIVEN_RE.finditer(text):
        if not _given(given.group()):
            continue
        before = _SURNAME_BEFORE_RE.search(text, max(0, given.start() - 9), given.start())
        after = _SURNAME_AFTER_RE.match(text, given.end())
        if before is not None and before.group(1).lower() in _SURNAMES:
            found.append((before.start(1), given.end()))
        elif after is not None and after.group(1).lower() in _SURNAMES:
            found.append((given.start(), after.end(1)))
    return found
