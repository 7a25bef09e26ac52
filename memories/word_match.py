"""Does a note contain the words of a query? The Memory page's first section ("notes with these
words") and its honest empty state rest on this plain, explainable test.

A text's words are its letters and digits after NFKC folding, lower-casing and dropping accents,
with keys split at ``.``, ``_``, ``-``, ``:``, ``/`` and camelCase ("orders.amountCents" is
"orders amount cents"); each word is lightly stemmed ("replies" and "reply", "formatted" and
"format"). A note matches when every content word of the query (stop words left out) is one of
its words, or begins one of them (at least three letters: "emoj" finds "emoji", so the list
narrows while a person types). The stop words are data: ``memories/data/query_stopwords.txt``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

_WORD = re.compile(r"[^\W_]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SEPARATORS = re.compile(r"[._:/-]+")
MIN_PREFIX = 3
_SUFFIXES = (("ies", "y"), ("ied", "y"), ("ings", ""), ("ing", ""), ("edly", ""), ("ed", ""), ("es", ""),
             ("s", ""))
STOPWORDS_FILE = Path(__file__).parent / "data" / "query_stopwords.txt"


@lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    lines = STOPWORDS_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(word for line in lines if (word := line.strip()) and not word.startswith("#"))


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=1 << 15)
def stem(word: str) -> str:
    if len(word) <= 3 or word.isdigit():
        return word
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: -len(suffix)] + replacement
            break
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]  # "planned" → "plann" → "plan"
    return word


def words(text: str) -> list[str]:
    """The stemmed words of a text, stop words included."""
    text = _CAMEL.sub(" ", _SEPARATORS.sub(" ", _fold(text or "")))
    return [stem(w) for w in _WORD.findall(text.casefold())]


def query_words(query: str) -> tuple[str, ...]:
    """The content words of a query, each once, in order; all of it if it has only stop words."""
    found = words(query)
    content = [w for w in found if w not in stopwords()] or found
    return tuple(dict.fromkeys(content))


def note_matches(wanted: tuple[str, ...], key: str, value: str) -> bool:
    """Whether the note holds every wanted word (or a word that begins with it)."""
    if not wanted:
        return False
    have = set(words(key)) | set(words(value))
    for word in wanted:
        if word in have:
            continue
        if len(word) >= MIN_PREFIX and any(w.startswith(word) for w in have):
            continue
        return False
    return True
