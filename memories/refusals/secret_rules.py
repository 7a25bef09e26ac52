"""What a secret-format rule is: one regex, one kind, the substrings it needs, and the checks
on its match (R-SAVE-2). The rules themselves live in secret_formats (library and structural
rules) and secret_vendors (vendors' published token formats).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memories.refusals.secret_values import _compile, _looks_random

Candidate = tuple[str, int, int, int]  # kind, start, end, priority
Spans = list[tuple[int, int]]

# ============================================================================================
# Regex rules: one pattern, one kind
# ============================================================================================

Accept = Callable[[re.Match, str], bool]


@dataclass(frozen=True)
class _Rule:
    kind: str
    pattern: re.Pattern
    needs: tuple[str, ...]  # the lowercased note must contain one of these, or the rule is skipped
    group: int | str = 0  # the group whose span is the secret
    accept: Accept | None = None
    priority: int = 50  # higher wins when findings overlap
    extend: str | None = None  # characters a token may continue with past the regex
    min_run: int = 0  # needs a run of token characters at least this long
    classify: Callable[[re.Match], str] | None = None  # kind decided per match


_TOKEN_TAIL = "A-Za-z0-9_\\-"


def _bounded(match: re.Match, text: str) -> bool:
    """The token is not glued to other letters or digits (no "XAKIA..." false hits)."""
    start, end = match.span()
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return not before.isalnum() and not after.isalnum()


def _bounded_left(match: re.Match, text: str) -> bool:
    start = match.start()
    return start == 0 or not text[start - 1].isalnum()


def _random_group(group: int | str) -> Accept:
    def accept(match: re.Match, text: str) -> bool:
        return _looks_random(match.group(group), with_keyword=True)

    return accept


def _vendor(kind: str, pattern: str, needs: tuple[str, ...], **options) -> _Rule:
    options.setdefault("priority", 90)
    return _Rule(kind=kind, pattern=_compile(pattern), needs=needs, **options)
