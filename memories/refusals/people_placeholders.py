"""Names that stand for nobody (R-SAVE-3b): "John Doe", "Max Mustermann", "Taro Yamada", the
placeholders of forms, manuals and test fixtures (data/people_placeholder_names.txt). A mention
that lies inside one is no specific person; the same first name with another surname is.
"""

from __future__ import annotations

import re
from functools import cache

from memories.refusals.wordlists import entries

__all__ = ["inside_a_placeholder"]


@cache
def _placeholder_re() -> re.Pattern:
    names = sorted(entries("people_placeholder_names"), key=len, reverse=True)
    # Words of a Latin script end where a letter does; a name in Han or Hangul runs on into its
    # sentence ("山田太郎さん"), as those scripts write no spaces.
    alternatives = (r"\s+".join(map(re.escape, name.split())) if name.isascii() or name[0].isalpha()
                    and ord(name[0]) < 0x2E80 else re.escape(name) for name in names)
    return re.compile("|".join(f"(?<!\\w){a}(?!\\w)" if ord(n[0]) < 0x2E80 else a
                               for a, n in zip(alternatives, names)), re.IGNORECASE)


def inside_a_placeholder(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` without those that lie inside a placeholder name written in full."""
    placeholders = [m.span() for m in _placeholder_re().finditer(text)]
    if not placeholders:
        return spans
    return [(s, e) for s, e in spans if not any(a <= s and e <= b for a, b in placeholders)]
