"""A name written so that the person detector's rules do not see its words (R-SAVE-3b, issue
18): joined in CamelCase ("MariaGarcia"), joined by an underscore ("Maria_Garcia"), or letter by
letter ("M a r i a G a r c i a"). Each such run is read back as words and held when the words
alone are a name the rules hold ("Maria Garcia"); "UserService", "order_id" are not.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["camel_words", "joined_name_spans"]

# Two or three capitalised words of three letters or more joined, or joined by one underscore
# each; not a hashtag's or an address's ("#StarWars", "/LoisCollis"), where words are joined by
# the medium, not to hide them.
_CAMEL_RE = re.compile(r"(?<![\w@.#/])(?:[A-Z][a-z]{2,20}){2,3}(?![\w.])")
_UNDERSCORED_RE = re.compile(r"(?<![\w@.#/])[A-Za-z][a-z]{2,20}(?:_[A-Za-z][a-z]{2,20}){1,2}(?![\w.])")
_HUMP_RE = re.compile(r"(?<=[a-z])(?=[A-Z])")
# Eight or more single letters, one space between each.
_LETTERS_RE = re.compile(r"(?<!\S)(?:[^\W\d_] ){7,}[^\W\d_](?!\S)")


def camel_words(word: str) -> str:
    """"MariaGarcia" -> "Maria Garcia": a space at each hump of a CamelCase word."""
    return _HUMP_RE.sub(" ", word)


def joined_name_spans(text: str, names: Callable[[str], bool]) -> list[tuple[int, int]]:
    """Spans of the runs of ``text`` whose reading as words ``names`` holds (the caller's test:
    the words alone are a name, and none of them an English word: "IndyCar" is no "Indy Car")."""
    found = []
    for match in _CAMEL_RE.finditer(text):
        if names(camel_words(match.group())):
            found.append(match.span())
    if "_" in text:
        for match in _UNDERSCORED_RE.finditer(text):
            words = match.group().split("_")
            if all(word[0].isupper() for word in words) and names(" ".join(words)):
                found.append(match.span())
    for match in _LETTERS_RE.finditer(text):
        joined = match.group().replace(" ", "")
        if names(camel_words(joined)):
            found.append(match.span())
    return found
