"""A credential's name and its value written as one word (R-SAVE-2): "prospect-token-ba98cfe3…",
"signupgeniusPRIVATE.53e2ca67…", "acme-secret-Xq3kd93JdkeLs0aP2v". No "=" or space says where the
name ends, so the assignment rules (secret_context) read the whole word as a name; the random-run
rule (secret_random) sees a run whose words make it no key.

The word right before the dash, dot or underscore ("token_9f3a…") must be a credential's own (secret, token, private,
access, api key; or two: "secret-key-…"), and the value one run of letters and digits, judged as after "api_key="
(``_looks_random(..., with_keyword=True)``): "private-subnet-0a1b…" and
"secret-manager-projects-1234…" name things. UUIDs are left alone: "secret-<uuid>" is how generated resource names read
(a Kubernetes Secret's, a bucket's), and a file's name ("token-3f2c….json") is a name.
"""
from __future__ import annotations

from collections.abc import Iterator

from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_random import _context_names_an_id
from memories.refusals.secret_stand_ins import (
    _is_non_secret_value,
)
from memories.refusals.secret_values import (
    _HEX_RE,
    _UUID_RE,
    _compile,
    _looks_random,
    up_to_a_note,
)

__all__ = ["find_glued_credentials"]

# Searched in the lower-cased text (the same length as the note: secrets._lowercase_same_length),
# where a plain alternation is several times faster than a case-blind one over the note.
_GLUED_RE = _compile(
    # The second noun after the separator: an optional group before it doubled the search's cost.
    r"(?:secret|token|private|access|api[_\-]?key)[\-._](?P<noun>(?:key|token|secret)[\-._])?"
    r"(?P<value>[a-z0-9]" + up_to_a_note(16) + r")(?![a-z0-9_\-.@/])"
)


def find_glued_credentials(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    for match in _GLUED_RE.finditer(lowered):
        start, end = match.span("value")
        value = text[start:end]
        if _overlaps(taken, start, end) or _UUID_RE.fullmatch(value) or _is_non_secret_value(value):
            continue
        if not _looks_random(value, with_keyword=True):
            continue
        if match.group().startswith("access") and not match.group("noun") and len(value) < 24:
            continue  # "vpce-access-0a1b2c3d4e5f6a7b8": AWS names a resource "<kind>-<17 hex>"
        if _context_names_an_id(lowered, match.start(), hex_value=_HEX_RE.fullmatch(value) is not None,
                                named=True):
            continue
        yield "generic_secret", start, end, 58
