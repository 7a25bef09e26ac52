"""The shape of a note: key form, size, text hygiene (R-SAVE-1, R-SAVE-7).

Invisible and direction-changing characters are stripped before anything else sees the text,
and the response says which kinds were stripped. Control characters and undecodable text are
refused: a note is short readable text, not binary.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from django.conf import settings

from appenda.errors import DomainError

KEY_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$")
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e\u00ad")
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
ALLOWED_CONTROLS = frozenset("\n\t")


@dataclass(frozen=True)
class CleanNote:
    key: str
    value: str
    stripped: tuple[str, ...]  # kinds of characters removed: "zero_width", "bidi_control"


def _strip_invisible(text: str, stripped: set[str]) -> str:
    kept = []
    for char in text:
        if char in ZERO_WIDTH:
            stripped.add("zero_width")
        elif char in BIDI_CONTROLS:
            stripped.add("bidi_control")
        else:
            kept.append(char)
    return "".join(kept)


def _refuse_controls(text: str, field: str) -> None:
    for char in text:
        if char in ALLOWED_CONTROLS:
            continue
        if unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn") or char == "\ufffd":
            raise DomainError(
                f"The {field} contains control or unreadable characters (U+{ord(char):04X}); "
                "a note must be plain readable text.",
                code="invalid_text",
            )


def clean_note(key, value) -> CleanNote:
    if not isinstance(key, str) or not isinstance(value, str):
        raise DomainError("Send key and value as text.", code="invalid_note")
    stripped: set[str] = set()
    value = value.replace("\r\n", "\n").replace("\r", "\n")
    key = _strip_invisible(key, stripped).strip()
    value = _strip_invisible(value, stripped).strip()
    _refuse_controls(key, "key")
    _refuse_controls(value, "value")
    if not KEY_PATTERN.match(key):
        raise DomainError(
            "A key is a short slug: 1 to 64 letters, digits, '.', '_', ':' or '-', starting with a letter or "
            f"digit (like pref.tone); got {key[:70]!r}.",
            code="invalid_key",
        )
    if not value:
        raise DomainError("The note is empty; say in a short sentence what to remember.", code="empty_note")
    size = len(key.encode()) + len(value.encode())
    limit = settings.APPENDA["NOTE_MAX_BYTES"]
    if size > limit:
        raise DomainError(
            f"Key and value together are {size} bytes; a note holds at most {limit}. Save a shorter fact.",
            code="too_large",
            size=size,
            limit=limit,
        )
    return CleanNote(key, value, tuple(sorted(stripped)))
