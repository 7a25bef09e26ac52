"""A refused note as a form shows it: the sentence next to the field it is about, and the words
that caused it highlighted in what the person typed (never "characters 0–20").

The secret detector says where it found a secret (``secrets``: field and character span, of the
key, the value, or "key: value" read together); the page marks those words in the person's own
text, which is in their browser already — nothing new is echoed.
"""

from __future__ import annotations

from dataclasses import dataclass

from appenda.errors import DomainError

SECRET_SENTENCE = ("The highlighted words look like a secret ({kinds}). Secrets never go into memory: save the fact "
                   "without the secret (for example, where the credential is kept, not the credential).")


@dataclass(frozen=True)
class FieldError:
    field: str  # "key" or "value": the field the sentence stands next to
    message: str
    marked: list[tuple[str, bool]]  # the field's text in pieces, True for the highlighted ones
    code: str


def _pieces(text: str, spans: list[tuple[int, int]]) -> list[tuple[str, bool]]:
    pieces, at = [], 0
    for start, end in sorted(spans):
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        if start > at:
            pieces.append((text[at:start], False))
        pieces.append((text[start:end], True))
        at = end
    if at < len(text):
        pieces.append((text[at:], False))
    return pieces


def field_error(error: DomainError, *, key: str, value: str) -> FieldError:
    places = error.fields.get("secrets") or []
    if not places:
        field = "key" if error.code in ("invalid_key", "key_too_long") else "value"
        return FieldError(field, error.detail, [], error.code)
    spans: dict[str, list[tuple[int, int]]] = {"key": [], "value": []}
    value_start = len(key) + 2  # the detector reads "key: value"
    for place in places:
        start, end = place["start"], place["end"]
        if place["field"] == "key":
            spans["key"].append((start, end))
        elif place["field"] == "value":
            spans["value"].append((start, end))
        elif place["field"] == "key_and_value":
            spans["key"].append((start, min(end, len(key))))
            spans["value"].append((max(0, start - value_start), end - value_start))
    field = "value" if spans["value"] else "key"
    kinds = ", ".join(sorted({p["kind"].replace("_", " ") for p in places}))
    text = value if field == "value" else key
    return FieldError(field, SECRET_SENTENCE.format(kinds=kinds), _pieces(text, spans[field]), error.code)
