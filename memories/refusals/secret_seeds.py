"""Wallet recovery phrases (R-SAVE-2): twelve or more words of the BIP-39 English word list in a
row ("abandon ability able about …"), as a wallet writes its seed, numbered or not. Whoever reads
them holds the wallet; no label word is needed.

The 2,048 words come from the ``mnemonic`` package (Trezor's reference implementation of BIP-39,
MIT), read once. Ordinary prose does not run twelve of them in a row: they hold no "the", "a",
"of", "to" or "is".
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path

from memories.refusals.secret_formats import Candidate, Spans, _overlaps

__all__ = ["find_seed_phrases"]

_SHORTEST_PHRASE = 12  # BIP-39 phrases have 12, 15, 18, 21 or 24 words
_WORD_RE = re.compile(r"(?<![\w\-])[a-z]{3,8}(?![\w\-])")
# Between two words of a phrase: spaces, a comma, or the next word's number ("1. abandon 2. …").
_GAP_RE = re.compile(r"[\s,;]*(?:\d{1,2}[.):]?[ \t]*)?")


@functools.cache
def _bip39_words() -> frozenset[str]:
    import mnemonic

    path = Path(mnemonic.__file__).parent / "wordlist" / "english.txt"
    return frozenset(path.read_text(encoding="utf-8").split())


# Twelve or more short lower-case words in a row, whatever they are: the only places worth the
# word-by-word look (prose breaks such runs with "a", "of", "to" and longer words).
_RUN_RE = re.compile(r"(?<![\w\-])(?:[a-z]{3,8}[\s,;]+(?:\d{1,2}[.):]?[ \t]*)?){11,}[a-z]{3,8}(?![\w\-])")


def find_seed_phrases(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    for run in _RUN_RE.finditer(lowered):
        yield from _phrases_in(lowered, run.start(), run.end(), taken)


def _phrases_in(lowered: str, start: int, end: int, taken: Spans) -> Iterator[Candidate]:
    vocabulary = _bip39_words()
    run: list[re.Match] = []
    for word in _WORD_RE.finditer(lowered, start, end):
        joined = run and _GAP_RE.fullmatch(lowered, run[-1].end(), word.start()) is not None
        if word.group() in vocabulary:
            run = [*run, word] if joined else [word]
            continue
        yield from _phrase(run, taken)
        run = []
    yield from _phrase(run, taken)


def _phrase(run: list[re.Match], taken: Spans) -> Iterator[Candidate]:
    if len(run) >= _SHORTEST_PHRASE and not _overlaps(taken, run[0].start(), run[-1].end()):
        yield "seed_phrase", run[0].start(), run[-1].end(), 74
