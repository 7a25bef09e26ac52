"""The edge contract (R-API-1): every request is parsed once, by a declared serializer.

A view nests its input contracts (``class Input(Contract)``) and calls ``parse``; the same
classes make the OpenAPI document, so the document is what the server checks. Fields here
are strict where DRF's are lenient: text is a JSON string (a number or a list is refused, not
turned into text), booleans are ``true``/``false``, whole numbers are not strings or floats,
NUL bytes and unpaired surrogates are refused (PostgreSQL would refuse them later, as a 500).

A failed contract leaves as the API's one error body, ``{"code", "detail", "field"}``, with the
codes clients already rely on: ``missing_field`` for a field left out, ``invalid_text`` for text
that is not plain text, ``too_long``, ``unknown_field``, and per field the code its contract
names in ``error_codes`` (``"layer": "invalid_layer"``, or by kind of error:
``"value": {"max_length": "too_large", "*": "invalid_note"}``); otherwise ``invalid_field``.
"""

from __future__ import annotations

import re
from typing import ClassVar

from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from appenda.errors import DomainError

_INVALID_TEXT = re.compile("[\x00\ud800-\udfff]")


class Text(serializers.CharField):
    """A JSON string, and nothing that would become one: no numbers, lists or objects."""

    default_error_messages = {
        "not_text": "must be text (a JSON string).",
        "invalid_text": "contains a NUL byte or an unpaired surrogate; send plain UTF-8 text.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)
        # DRF's own NUL/surrogate validators run after max_length; ours run first (one code).
        self.validators = [v for v in self.validators if type(v).__name__ not in (
            "ProhibitNullCharactersValidator", "ProhibitSurrogateCharactersValidator")]

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_text")
        if _INVALID_TEXT.search(data):
            self.fail("invalid_text")
        return super().to_internal_value(data)


class Identifier(Text):
    """An id a platform gives: text, or a whole number (Telegram's chat ids are numbers)."""

    default_error_messages = {"not_text": "must be text or a whole number."}

    def to_internal_value(self, data):
        if isinstance(data, int) and not isinstance(data, bool):
            data = str(data)
        return super().to_internal_value(data)


class Bool(serializers.BooleanField):
    """``true`` or ``false`` as JSON booleans (query strings also take "true"/"false")."""

    default_error_messages = {"invalid": "is true or false."}

    def to_internal_value(self, data):
        if isinstance(data, bool):
            return data
        if isinstance(data, str) and data.lower() in ("true", "false"):
            return data.lower() == "true"
        self.fail("invalid")


class Integer(serializers.IntegerField):
    """A whole number as a JSON number (query strings: digits), never a boolean or a float."""

    default_error_messages = {"invalid": "must be a whole number."}

    def to_internal_value(self, data):
        if isinstance(data, bool) or isinstance(data, float):
            self.fail("invalid")
        if isinstance(data, str) and not re.fullmatch(r"-?[0-9]{1,18}", data):
            self.fail("invalid")
        return super().to_internal_value(data)


class Choice(serializers.ChoiceField):
    default_error_messages = {"invalid_choice": "{input!r} is not one of {choices}."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid_choice", input=data, choices=", ".join(self.choices))
        if data not in self.choices:
            self.fail("invalid_choice", input=data[:40], choices=", ".join(self.choices))
        return data


class Contract(serializers.Serializer):
    """An input contract. Unknown fields are refused (``unknown_field``): a client that sends a
    field the server would ignore learns it at once, as the tool schemas say
    (``additionalProperties: false``)."""

    error_codes: ClassVar[dict[str, str | dict[str, str]]] = {}
    # A field whose errors read better as the domain's own sentence than as the field's message.
    error_sentences: ClassVar[dict[str, str]] = {}
    unknown_field_code: ClassVar[str] = "unknown_field"
    allow_unknown: ClassVar[bool] = False


def _first_error(errors, path: str = "") -> tuple[str, ErrorDetail | str]:
    if isinstance(errors, dict):
        name, value = next(iter(errors.items()))
        child = path if name == "non_field_errors" else (f"{path}.{name}" if path else str(name))
        return _first_error(value, child)
    if isinstance(errors, list) and errors:
        first = errors[0]
        if isinstance(first, (dict, list)):
            index = next((i for i, e in enumerate(errors) if e), 0)
            return _first_error(errors[index], f"{path}[{index}]" if isinstance(errors[index], dict) else path)
        return path, first
    return path, str(errors)


_GENERIC_CODES = {
    "required": "missing_field", "null": "missing_field", "blank": "missing_field",
    "invalid_text": "invalid_text", "null_characters_not_allowed": "invalid_text",
    "surrogate_characters_not_allowed": "invalid_text", "not_text": "invalid_text", "max_length": "too_long",
}


def _code(contract: type[Contract], field: str, kind: str) -> str:
    """A field's own code for this kind of error (``error_codes``), else the generic one."""
    if kind in ("required", "null", "blank", "invalid_text", "null_characters_not_allowed",
                "surrogate_characters_not_allowed"):
        return _GENERIC_CODES[kind]  # these mean the same on every field
    mapping = contract.error_codes.get(field.split(".")[0].split("[")[0])
    if isinstance(mapping, dict):
        mapping = mapping.get(kind, mapping.get("*"))
    return mapping or _GENERIC_CODES.get(kind, "invalid_field")


def contract_error(contract: type[Contract], errors) -> DomainError:
    """The first problem of a failed contract as the API's error, in the codes clients know."""
    field, detail = _first_error(errors)
    kind = getattr(detail, "code", "invalid")
    shown = field or "the request"
    code = _code(contract, field, kind)
    if code == "missing_field":
        return DomainError(f"{shown} is required.", code=code, field=field)
    sentence = contract.error_sentences.get(field.split(".")[0].split("[")[0])
    if sentence is None or code == "invalid_text":
        sentence = f"{shown} {detail}" if str(detail)[:1].islower() else f"{shown}: {detail}"
    return DomainError(sentence, code=code, field=field)


def parse(contract: type[Contract], data, *, context: dict | None = None) -> dict:
    """The request's data as ``contract`` declares it, or a 400 ``{"code", "detail", "field"}``."""
    if hasattr(data, "getlist"):  # a QueryDict (form or query string): one value a name, no HTML rules
        data = data.dict()
    if not isinstance(data, dict):
        raise DomainError("Send a JSON object as the request body.", code="malformed_request")
    if not contract.allow_unknown:
        unknown = sorted(set(data) - set(contract().fields))
        if unknown:
            raise DomainError(
                f"Unknown field {unknown[0]!r}; this request takes {', '.join(contract().fields) or 'no fields'}.",
                code=contract.unknown_field_code, field=unknown[0],
            )
    serializer = contract(data=data, context=context or {})
    if not serializer.is_valid():
        raise contract_error(contract, serializer.errors)
    return dict(serializer.validated_data)
