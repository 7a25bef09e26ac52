"""The shape of a note and of every other short text an agent sends: key form, size, text
hygiene (R-SAVE-1, R-SAVE-7, R-SAVE-8).

Invisible and direction-changing characters are stripped before anything else sees the text,
and the response says which kinds were stripped: every format character (Unicode category Cf:
zero-width, bidi controls, tags, invisible operators ...) and the invisible characters of other
categories (variation selectors, fillers, the combining grapheme joiner). They render as
nothing, so a person reviewing a note cannot see them, yet they reach the model and can split
a name or a token so that the detectors miss it. Control characters and undecodable text are
refused: a note is short readable text, not binary.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from appenda.errors import DomainError
from memories.limits import KEY_PATTERN, NOTE_MAX_BYTES

# The key's form and the subject id's form are stated once in memories.limits (match with
# fullmatch, as "$" also matches before a final newline).

ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e\u00ad\u034f")
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
# Invisible characters outside category Cf: Mongolian free variation selectors, and fillers
# that render as blank space (Hangul fillers, Khmer inherent vowels, the braille blank).
MONGOLIAN_VARIATION_SELECTORS = frozenset("\u180b\u180c\u180d\u180f")
FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u17b4\u17b5\u2800")
LINE_SEPARATORS = frozenset("\u2028\u2029")
ALLOWED_CONTROLS = frozenset("\n\t")
# Everything below U+00AD (the first invisible character) is kept as it is, without a look-up.
_MAYBE_INVISIBLE = re.compile("[\u00ad-\U0010ffff]")


@dataclass(frozen=True)
class CleanNote:
    key: str
    value: str
    stripped: tuple[str, ...]  # kinds of characters removed: "zero_width", "bidi_control", "tag" ...


@dataclass(frozen=True)
class CleanText:
    text: str
    stripped: tuple[str, ...]


def invisible_kind(char: str) -> str | None:
    """The kind of an invisible character (as reported in ``stripped``), or None for a visible one."""
    if char in ZERO_WIDTH:
        return "zero_width"
    if char in BIDI_CONTROLS:
        return "bidi_control"
    if char in FILLERS:
        return "filler"
    code = ord(char)
    if 0xE0000 <= code <= 0xE007F:
        return "tag"
    if char in MONGOLIAN_VARIATION_SELECTORS or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        return "variation_selector"
    # The rest of the tag plane and U+2065, U+FFF0-FFF8 are reserved as default-ignorable: a
    # renderer shows them as nothing, even before they are assigned.
    if unicodedata.category(char) == "Cf" or 0xE0000 <= code <= 0xE0FFF or code == 0x2065 \
            or 0xFFF0 <= code <= 0xFFF8:
        return "format"
    return None


def _strip_invisible(text: str, stripped: set[str], *, line_separator: str = "") -> str:
    """``text`` without invisible characters; U+2028/U+2029 become ``line_separator``."""

    def replace(match: re.Match) -> str:
        char = match.group()
        if char in LINE_SEPARATORS:
            if not line_separator:
                stripped.add("line_separator")
            return line_separator
        kind = invisible_kind(char)
        if kind is None:
            return char
        stripped.add(kind)
        return ""

    return _MAYBE_INVISIBLE.sub(replace, text)


def _refuse_controls(text: str, field: str, *, allowed=ALLOWED_CONTROLS, what: str = "a note") -> None:
    for char in text:
        if char in allowed:
            continue
        if unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn") or char == "\ufffd":
            raise DomainError(
                f"The {field} contains control or unreadable characters (U+{ord(char):04X}); "
                f"{what} must be plain readable text.",
                code="invalid_text",
            )


def clean_note(key, value) -> CleanNote:
    if not isinstance(key, str) or not isinstance(value, str):
        raise DomainError("Send key and value as text.", code="invalid_note")
    stripped: set[str] = set()
    value = value.replace("\r\n", "\n").replace("\r", "\n")
    key = _strip_invisible(key, stripped).strip()
    value = _strip_invisible(value, stripped, line_separator="\n").strip()
    _refuse_controls(key, "key")
    _refuse_controls(value, "value")
    if not KEY_PATTERN.fullmatch(key):
        raise DomainError(
            "A key is a short slug: 1 to 64 letters, digits, '.', '_', ':' or '-', starting with a letter or "
            f"digit (like pref.tone); got {key[:70]!r}.",
            code="invalid_key",
        )
    if not value:
        raise DomainError("The note is empty; say in a short sentence what to remember.", code="empty_note")
    size = len(key.encode()) + len(value.encode())
    limit = NOTE_MAX_BYTES
    if size > limit:
        raise DomainError(
            f"Key and value together are {size} bytes; a note holds at most {limit}. Save a shorter fact.",
            code="too_large",
            size=size,
            limit=limit,
        )
    return CleanNote(key, value, tuple(sorted(stripped)))


def clean_text(text, *, field: str, max_length: int) -> CleanText:
    """Any other short text an agent sends that is stored or shown (a chat id, a channel field):
    invisible characters stripped, control characters and over-long text refused (R-SAVE-8)."""
    if not isinstance(text, str):
        raise DomainError(f"Send {field} as text.", code="invalid_text", field=field)
    stripped: set[str] = set()
    text = _strip_invisible(text, stripped).strip()
    _refuse_controls(text, field, allowed=frozenset(), what=f"the {field}")
    if len(text) > max_length:
        raise DomainError(
            f"The {field} is {len(text)} characters long; it may be at most {max_length}.",
            code="too_long", field=field, limit=max_length,
        )
    return CleanText(text, tuple(sorted(stripped)))


def readable_text(text: str, *, max_length: int) -> CleanText:
    """``text`` made storable without refusing it: invisible characters stripped, control and
    unreadable characters replaced by U+FFFD, cut to ``max_length``. For what must be recorded
    whatever it holds: refusing a turn's read would spare the turn its taint (R-TAINT-1)."""
    stripped: set[str] = set()
    text = _strip_invisible(text, stripped, line_separator=" ")
    if not text.isprintable():
        text = "".join(_readable_char(char) for char in text)
    return CleanText(text.strip()[:max_length], tuple(sorted(stripped)))


def _readable_char(char: str) -> str:
    if char.isspace():
        return " "
    return "\ufffd" if unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn") else char


def require_version_seen(version, *, what: str) -> str:
    """The version of a held ``what`` ("note", "rule") the person saw, as a keep names it
    (R-TAINT-6); 428 when none is named, 400 when it is not one string."""
    if version in (None, "", "*"):  # "*" is If-Match's "any version": not one the person saw
        raise DomainError(
            f"Say which version of the {what} you saw, in the If-Match header or as \"version\" in the body "
            f"(the {what}'s ETag, or its \"version\" in a listing), so that what you keep is what you read.",
            code="version_required", status=428,
        )
    if not isinstance(version, str):
        raise DomainError("Name one version, as a string: the one you saw.", code="invalid_version")
    return version
