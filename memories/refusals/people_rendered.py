"""A note's other forms of a name for the person detector (R-SAVE-3b, issue 18): what a person
reads in it once it is shown or put back together.

* **Markup**: Markdown emphasis, HTML tags and character references ("**Maria Garcia**",
  "_Maria Garcia_", "<b>Maria</b> <b>Garcia</b>"). The rules read a word beside "*", "_", "<"
  as code, so a name an agent put in bold passed. A code span ("`Stan`") stays code, and
  strike-through ("~~Bloomberg~~") marks a word as no longer meant.
* **URL-encoding**: "?name=Maria%20Garcia".
* **Name fields**: a first-name field and a last-name field of one record ('{"first_name":
  "Maria", "last_name": "Garcia"}', "fname=Maria lname=Garcia") read as "name: Maria Garcia".

Each function gives the reading, or None when the text has nothing of its kind; the caller
holds the whole text when a reading names someone (memories.refusals.people).
"""

from __future__ import annotations

import html
import re
from urllib.parse import unquote

__all__ = ["name_fields", "rendered", "url_decoded"]

# An HTML tag ("<b>", "</span>", '<td class="x">'): a block's tag parts words, an inline one not.
_TAG_RE = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)(?:\s[^<>\n]{0,80})?/?>")
_BLOCK_TAGS = frozenset("p br div li ul ol td th tr table h1 h2 h3 h4 h5 h6 blockquote pre hr".split())
# Markdown's emphasis: the same marks ("*", "**", "_", "__") before a word and after a word of one
# line; an underscore inside a word ("first_name") or before one ("_cache") is the word's own.
_EMPHASIS_RE = re.compile(r"(?<![\w*])(\*{1,3}|_{1,3})(?=[^\W_])([^*_\n]{1,80}?[^\W_])\1(?![\w*])")
_ENTITY_RE = re.compile(r"&(?:#\d{2,6}|#x[0-9A-Fa-f]{2,6}|[A-Za-z]{2,8});")
_PERCENT_RE = re.compile(r"%[0-9A-Fa-f]{2}")
# A field of a record by its name, then its value: JSON, YAML, key=value, a form's query string.
_FIELD_RE = re.compile(
    r"""(?i)["']?\b(?P<key>[a-z][a-z_ \-]{1,20}?)["']?\s*[:=]\s*["']?(?P<value>[^\W\d_][^\W\d_'’\-]{1,30})(?![\w'’\-]|["']?\s*[:=])["']?""")
_FIRST_KEYS = frozenset("first firstname first_name fname given givenname given_name forename".split())
_LAST_KEYS = frozenset("last lastname last_name lname surname family familyname family_name".split())


def rendered(text: str) -> str | None:
    """``text`` as Markdown or HTML shows it: tags, character references and emphasis marks
    taken off. None when it has none."""
    if not any(mark in text for mark in "*_<&"):
        return None
    reading = _TAG_RE.sub(lambda tag: "\n" if tag.group(1).lower() in _BLOCK_TAGS else "", text)
    reading = _ENTITY_RE.sub(lambda ref: html.unescape(ref.group()), reading)
    reading = _EMPHASIS_RE.sub(r"\2", reading)
    return reading if reading != text else None


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
