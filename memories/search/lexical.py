"""Lexical ranking of notes: OR of the query's terms, keys split into words, light stemming, BM25.

AND semantics never match a paraphrase, and a key like ``pref.tone`` or ``Orders.amount`` is
two words, not one; both lessons come from the search study in issue 9.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
STOPWORDS = frozenset(
    "a an and are as at be by do does for from how i in is it its me my of on or our should the their this "
    "to us we what when where which who why with you your".split()
)


def _stem(word: str) -> str:
    for suffix in ("ational", "ization", "ingly", "ments", "ement", "ness", "ings", "ing", "ies", "ied", "edly",
                   "ed", "ly", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
    return word


@lru_cache(maxsize=1 << 16)
def _term(raw: str) -> str | None:
    """The term a word of a text counts as, or None for a stopword. Words repeat across notes,
    so a cold search over a hundred notes stems a few hundred distinct words, not thousands."""
    word = raw.lower()
    return None if word in STOPWORDS else _stem(word)


def terms(text: str) -> list[str]:
    found = (_term(raw) for raw in _WORD.findall(_CAMEL.sub(" ", text or "")))
    return [term for term in found if term is not None]


def note_text(key: str, value: str) -> str:
    return f"{key} {value}"


def bm25_scores(query: str, documents: dict[object, str], k1: float = 1.2, b: float = 0.75) -> dict[object, float]:
    """BM25 with OR semantics over a small candidate set; documents with no query term are left out."""
    query_terms = set(terms(query))
    if not query_terms or not documents:
        return {}
    tokenized = {doc_id: terms(text) for doc_id, text in documents.items()}
    average = sum(len(t) for t in tokenized.values()) / len(tokenized) or 1.0
    frequency = Counter(term for words in tokenized.values() for term in set(words) if term in query_terms)
    n = len(tokenized)
    scores = {}
    for doc_id, words in tokenized.items():
        counts = Counter(w for w in words if w in query_terms)
        if not counts:
            continue
        score = 0.0
        for term, count in counts.items():
            idf = math.log(1 + (n - frequency[term] + 0.5) / (frequency[term] + 0.5))
            score += idf * count * (k1 + 1) / (count + k1 * (1 - b + b * len(words) / average))
        scores[doc_id] = score
    return scores
