"""Credentials written the way people hand over a login (R-SAVE-2, issue 18, thirteenth session):

* an e-mail address and a password side by side, either first ("ana@example.com / Verano2024!",
  "zipbooks = SecureP@ss123 / admin@secure.com");
* a token given to curl as the user with an empty password ("curl -u 'd2LkV78zLx!t:' …"), as
  APIs that take a key by basic auth ask;
* a password written bare after PowerShell's ConvertTo-SecureString ("-String -Force
  dsjUE#$gds8s"), the quoted form being found already;
* a login and its password joined by a colon with nothing around ("etl:Vq7#mZ2!pL9x"), as
  basic auth and htpasswd-style lists write them: the password must also hold a mark that names
  of things do not ("!", "#", "$", "%" …), so image tags and settings ("node:Lts-Alpine3") pass.

Values must look like a password (secret_bare's shape test), hold a digit and mix three kinds of
characters, and not be words and numbers joined, so "ana@example.com / Sales-Team", "… /
2024-Q3-Report" and "curl -u admin: …" pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memories.refusals.secret_bare import _password_shaped
from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_values import _char_classes, _compile, up_to_a_note

__all__ = ["find_login_values"]

_SIDE = r"\s*[/|]\s*"
# An address read out from its "@": a pattern that starts with the local part is tried at every
# character of a note, the costliest step of the finder (benchmarks/RESULTS.md, bench_secrets).
_LOCAL_PART_RE = _compile(r"[\w.+\-]+$")
_DOMAIN_RE = _compile(r"[\w\-]+(?:\.[\w\-]+)+")
# Read from each address found: the value after it, or the value before it.
_VALUE_AFTER_RE = _compile(rf"{_SIDE}(?P<val>[^\s\"'`/|]{{8,64}})")
_VALUE_BEFORE_RE = _compile(rf"(?<![^\s=:(\[])(?P<val>[^\s\"'`/|=:]{{8,64}}){_SIDE}$")
_CURL_USER_RE = _compile(r"(?:-u|--user)\s+([\"']?)(?P<val>[^\s\"':]" + up_to_a_note(8) + r"):\1(?=\s|$)")
# Read from each colon: the login before it, the password after it.
_LOGIN_BEFORE_RE = _compile(r"(?<![\w@:/.\-])[a-z][a-z0-9._\-]{1,31}$")
_PASSWORD_AFTER_RE = _compile(r"(?P<val>[^\s:/@\"'`]{8,64})(?=[\s,;)]|$)")
_PASSWORD_MARKS = frozenset("!#$%&*+=?^~")
_HEX_COLOUR_RE = _compile(r"#(?:[0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})(?![0-9A-Za-z])")  # "fill:#E5484D"
_SECURE_STRING_RE = _compile(r"(?i)convertto-securestring(?:\s+-\w+)*\s+(?P<val>[^\s\"'$(\-][^\s\"']{5,63})")


def find_login_values(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    at = text.find("@")
    while at != -1:
        local = _LOCAL_PART_RE.search(text, max(0, at - 64), at)
        domain = _DOMAIN_RE.match(text, at + 1)
        if local is not None and domain is not None:
            after = _VALUE_AFTER_RE.match(text, domain.end())
            before = _VALUE_BEFORE_RE.search(text, max(0, local.start() - 72), local.start())
            yield from _strong_values([m for m in (after, before) if m is not None], taken)
        at = text.find("@", at + 1)
    if "-u" in text or "--user" in text:
        yield from _strong_values(_CURL_USER_RE.finditer(text), taken)
    if ":" in text:
        yield from _strong_values(_login_pairs(text), taken)
    if "securestring" in lowered:
        yield from _strong_values(_SECURE_STRING_RE.finditer(text), taken)


def _login_pairs(text: str) -> Iterator[re.Match]:
    colon = text.find(":")
    while colon != -1:
        after = _PASSWORD_AFTER_RE.match(text, colon + 1)
        if (after is not None and not _PASSWORD_MARKS.isdisjoint(after.group("val"))
                and not _HEX_COLOUR_RE.match(after.group("val"))
                and _LOGIN_BEFORE_RE.search(text, max(0, colon - 32), colon)):
            yield after
        colon = text.find(":", colon + 1)


def _named_parts(value: str) -> bool:
    """"2024-Q3-Report", "Sales_Team_2": words and numbers joined, as names of things are."""
    parts = re.split(r"[-_.]", value)
    return len(parts) > 1 and all(p.isalpha() or p.isdigit() or len(p) <= 3 for p in parts)


def _strong_values(matches, taken: Spans) -> Iterator[Candidate]:
    for match in matches:
        value = match.group("val").rstrip(".,;!?)")
        start = match.start("val")
        end = start + len(value)
        if (_char_classes(value) >= 3 and any(c.isdigit() for c in value) and not _named_parts(value)
                and _password_shaped(value, quoted=True) and not _overlaps(taken, start, end)):
            yield "password_in_prose", start, end, 66
