"""Names that stand for nobody (R-SAVE-3b): "John Doe", "Max Mustermann", "Taro Yamada", the
placeholders of forms, manuals and test fixtures (data/people_placeholder_names.txt). A mention
that lies inside one is no specific person; the same first name with another surname is.
"""

from __future__ import annotations

import re
from functools import cache

import ahocorasick

from memories.refusals.phrases import written_without_spaces
from memories.refusals.wordlists import entries

__all__ = ["inside_a_placeholder"]


@cache
def _placeholder_re() -> re.Pattern:
    names = sorted(entries("people_placeholder_names"), key=len, reverse=True)
    return re.compile("|".join(
        re.escape(name) if written_without_spaces(name[0]) else r"\s+".join(map(re.escape, name.split())) + r"(?!\w)"
        for name in names), re.IGNORECASE)


@cache
def _first_words() -> ahocorasick.Automaton:
    """Each placeholder's first word, lower case: the names' expression is tried only where one
    starts (a fixed list tried at every place of a note cost half a millisecond)."""
    automaton = ahocorasick.Automaton()
    for name in entries("people_placeholder_names"):
        word = name.lower() if written_without_spaces(name[0]) else name.split()[0].lower()
        automaton.add_word(word, (word, written_without_spaces(name[0])))
    automaton.make_automaton()
    return automaton


def _placeholders(text: str) -> list[tuple[int, int]]:
    lowered = text.lower()
    if len(lowered) != len(text):  # "İ" lowers to two characters: keep the places
        lowered = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    spans = []
    for end, (word, unspaced) in _first_words().iter(lowered):
        start = end - len(word) + 1
        if not unspaced and start and lowered[start - 1].isalnum():
            continue  # inside a word ("lines" holds "li")
        found = _placeholder_re().match(text, start)
        if found is not None:
            spans.append(found.span())
    return spans


def inside_a_placeholder(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` without those that lie inside a placeholder name written in full."""
    placeholders = _placeholders(text) if spans else []
    if not placeholders:
        return spans
    return [(s, e) for s, e in spans if not any(a <= s and e <= b for a, b in placeholders)]
