"""A note's other forms of a name for the person detector (R-SAVE-3b, issue 18): what a person
reads in it once it is shown or put back together.

* **Markup** is taken off by memories.refusals.disguise.markup_taken_off ("**Maria Garcia**",
  "<b>Maria</b> <b>Garcia</b>"): the rules read a word beside "*", "_", "<" as code.
* **URL-encoding**: "?name=Maria%20Garcia".
* **Name fields**: a first-name field and a last-name field of one record ('{"first_name":
  "Maria", "last_name": "Garcia"}', "fname=Maria lname=Garcia") read as "name: Maria Garcia".

Each function gives the reading, or None when the text has nothing of its kind; the caller
holds the whole text when a reading names someone (memories.refusals.people).
"""

from __future__ import annotations

import re
from urllib.parse import unquote

__all__ = ["name_fields", "url_decoded"]

_PERCENT_RE = re.compile(r"%[0-9A-Fa-f]{2}")
# A field of a record by its name, then its value: JSON, YAML, key=value, a form's query string.
_FIELD_RE = re.compile(
    r"""(?i)["']?\b(?P<key>[a-z][a-z_ \-]{1,20}?)["']?\s*[:=]\s*["']?(?P<value>[^\W\d_][^\W\d_'’\-]{1,30})(?![\w'’\-]|["']?\s*[:=])["']?""")
_FIRST_KEYS = frozenset("first firstname first_name fname given givenname given_name forename".split())
_LAST_KEYS = frozenset("last lastname last_name lname surname family familyname family_name".split())


def url_decoded(text: str) -> str | None:
    """``text`` with its percent-encoding undone ("Maria%20Garcia"); None when it has none."""
    if "%" not in text or _PERCENT_RE.search(text) is None:
        return None
    reading = unquote(text)
    return reading if reading != text else None


def name_fields(text: str) -> str | None:
    """"name: <first> <last>" when ``text`` holds a first-name field and a last-name field;
    None otherwise."""
    if ":" not in text and "=" not in text:
        return None
    first = last = None
    for field in _FIELD_RE.finditer(text):
        words = field.group("key").lower().replace("-", "_").split()  # "note fname", "first name"
        keys = {words[-1], "_".join(words[-2:])}
        if first is None and not keys.isdisjoint(_FIRST_KEYS):
            first = field.group("value")
        elif last is None and not keys.isdisjoint(_LAST_KEYS):
            last = field.group("value")
    if first is None or last is None:
        return None
    return f"name: {first} {last}"
