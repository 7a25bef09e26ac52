"""The API's JSON parser: DRF's, refusing as 400 the bodies that would otherwise fail later as 500.

* Nesting: no request of this API nests deeper than a few levels, and Python's decoder raises
  ``RecursionError`` (not a parse error) at about a thousand; a body deeper than
  ``MAX_JSON_DEPTH`` is refused here, whatever the view.
* Text: ``"\\ud800"`` decodes to an unpaired surrogate, which is not UTF-8: PostgreSQL cannot
  take it and the response could not even echo it. Bytes that are not UTF-8 are refused as
  DRF refuses them. NUL bytes and lengths are the contracts' (``appenda.api.contract``).
"""

from __future__ import annotations

import re

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.utils import json

from appenda.errors import DomainError

MAX_JSON_DEPTH = 32

TOO_DEEP = (f"The JSON body is nested more than {MAX_JSON_DEPTH} levels deep; no request of this API "
            "needs that many.")
SURROGATE = ("The JSON body has an unpaired surrogate (a \\ud800-\\udfff escape without its pair), "
             "which is not text; send plain UTF-8.")
# An escape of a surrogate in the JSON text: the only way one gets into a decoded body.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _deepest_or_surrogate(data, *, look_for_surrogates: bool) -> tuple[int, bool]:
    """How deep the containers nest (stopping past the limit) and whether a string holds a
    lone surrogate; iterative, so a deep body cannot exhaust the stack here either."""
    deepest = 0
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = [*value.keys(), *value.values()] if look_for_surrogates else value.values()
        elif isinstance(value, list):
            children = value
        else:
            if look_for_surrogates and isinstance(value, str) and _SURROGATE.search(value):
                return deepest, True
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_JSON_DEPTH:
            return deepest, False
        stack.extend((child, depth + 1) for child in children
                     if look_for_surrogates or isinstance(child, (dict, list)))
    return deepest, False


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding)
            data = json.loads(text, parse_constant=json.strict_constant if self.strict else None)
        except RecursionError:
            raise ParseError(TOO_DEEP) from None
        except ValueError as exc:  # not JSON, or bytes not in the encoding
            raise ParseError(f"JSON parse error - {exc}") from None
        look_for_surrogates = _SURROGATE_ESCAPE.search(text) is not None
        if look_for_surrogates or text.count("[") + text.count("{") > MAX_JSON_DEPTH:
            deepest, surrogate = _deepest_or_surrogate(data, look_for_surrogates=look_for_surrogates)
            if deepest > MAX_JSON_DEPTH:
                raise ParseError(TOO_DEEP)
            if surrogate:
                raise DomainError(SURROGATE, code="invalid_text")
        return data
