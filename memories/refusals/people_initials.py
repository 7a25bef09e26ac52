"""Someone named by dotted initials only (R-SAVE-3b, issue 18's "initials only"): "J.O. asked for
a refund", "thanks J. O. for the fix". Initials alone say a person only where the words around
them do: a person's verb right after ("said", "asked", "signed") or a word said to or about a
person right before ("thanks", "ask", "ping"), the cue lists of the name rules
(people_words.py). Dotted capitals that are no one's initials ("U.S.", "Q.A.", "E.U.") are a data
file (data/people_dotted_abbreviations.txt).
"""

from __future__ import annotations

import re

from memories.refusals.people_words import _POST_VERBS_STRICT, _PRE_PERSONAL
from memories.refusals.wordlists import words

__all__ = ["dotted_initials"]

_ABBREVIATIONS = words("people_dotted_abbreviations")
_INITIALS_RE = re.compile(r"(?<![\w.])(?:[A-Z]\.[ ]?){1,2}[A-Z]\.(?![\w.])")
_WORD_AFTER_RE = re.compile(r",?\s+([a-z]+)")
_WORD_BEFORE_RE = re.compile(r"([A-Za-z]+),?\s+$")


def dotted_initials(text: str) -> list[tuple[int, int]]:
    if "." not in text:
        return []
    found = []
    for match in _INITIALS_RE.finditer(text):
        letters = "".join(c for c in match.group() if c.isalpha()).lower()
        if letters in _ABBREVIATIONS:
            continue
        after = _WORD_AFTER_RE.match(text, match.end())
        before = _WORD_BEFORE_RE.search(text, max(0, match.start() - 24), match.start())
        if (after is not None and after.group(1) in _POST_VERBS_STRICT) or (
                before is not None and before.group(1).lower() in _PRE_PERSONAL):
            found.append(match.span())
    return found
