"""Characters read out as words (R-SAVE-2, for memories.refusals.normalise and the table
index): "the pin is four eight two one" reads "the pin is 4821".
"""

from __future__ import annotations

import re

from memories.refusals.view import View, replaced

__all__ = ["spelt_digits"]

_DIGIT_WORDS = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
                "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_DIGIT_WORD = "(?:" + "|".join(_DIGIT_WORDS) + ")"
_DIGIT_WORD_SET = frozenset(_DIGIT_WORDS)
# Four digits or more read out one word each ("four eight two one", "4 five 3 nine"): a PIN or a
# card number spelt so that no digit is in it.
_SPELT_DIGITS_RE = re.compile(rf"(?i)\b(?:{_DIGIT_WORD}|\d)(?:[ ,\-]+(?:{_DIGIT_WORD}|\d)){{3,}}\b")
_ONE_DIGIT_RE = re.compile(rf"(?i){_DIGIT_WORD}|\d")


def spelt_digits(text: str) -> View | None:
    """The text with digits read out as words written as digits: "the pin is four eight two
    one" reads "the pin is 4821". None when no four digits are spelt in a row."""
    if _DIGIT_WORD_SET.isdisjoint(text.lower().replace(",", " ").replace("-", " ").split()):
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
