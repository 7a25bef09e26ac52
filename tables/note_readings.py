"""Other ways a note writes a table's value (R-SAVE-3, issue 18): read back into the form the
index holds, and checked as phrases of their own (tables.identifying.note_phrases).

* an email spelled out against scrapers: "ana dot lopez at example dot com", "ana.lopez [at]
  example.com", "ana.lopez at example.com";
* a name joined in CamelCase, as a handle or an identifier writes it: "AnaLopez", "@AnaLopez";
* a name or an id written letter by letter: "A n a L o p e z" (read as "AnaLopez", then as
  above), "C U S T - 0 0 4 1 7".

A reading only adds phrases to look up: a note is refused only when one of them is a value of
the workspace's tables, so prose that happens to read as an address ("meet at example.com")
refuses nothing unless a record holds that address.
"""

from __future__ import annotations

import re

from memories.refusals.people_readings import camel_words

__all__ = ["readings"]

_AT = r"(?:\s*[\[(]\s*at\s*[\])]\s*|\s+at\s+|\s*@\s*)"
_DOT = r"(?:\s*[\[(]\s*dot\s*[\])]\s*|\s+dot\s+|\.)"
_SPELLED_EMAIL_RE = re.compile(
    rf"(?i)(?<![\w.+-])(?P<local>[a-z0-9_%+-]+(?:{_DOT}[a-z0-9_%+-]+)*){_AT}"
    rf"(?P<domain>[a-z0-9-]+(?:{_DOT}[a-z0-9-]+)*{_DOT}[a-z]{{2,12}})(?![\w-])"
)
_DOT_RE = re.compile(_DOT, re.IGNORECASE)
# Two to four capitalised words joined: "AnaLopez", "MariaDeLaCruz" (not "iPhone", "DataOps"
# is read too: a reading refuses only what a table holds).
_CAMEL_RE = re.compile(r"(?<![A-Za-z])(?:[A-Z][a-z]+){2,4}(?![A-Za-z])")
# Eight or more single letters or digits, one space (or a dash) between each: "A n a L o p e z",
# "C U S T - 0 0 4 1 7".
_LETTERS_RE = re.compile(r"(?<!\S)(?:[^\W_](?: - | |-)){7,}[^\W_](?!\S)")


def _joined_letters(match: re.Match) -> str:
    """"A n a" -> "Ana"; "C U S T - 0 0" -> "CUST-00" (a dash between spaces is the value's own);
    "C-U-S-T-0-0" -> "CUST00"."""
    run = match.group()
    if " " not in run:
        return run.replace("-", "")
    return run.replace(" - ", "\0").replace(" ", "").replace("\0", "-")


def readings(text: str) -> list[str]:
    """Each other reading of ``text`` worth looking up; empty for most notes."""
    found: list[str] = []
    lowered = text.lower()
    if "@" in text or " at " in lowered or "[at]" in lowered or "(at)" in lowered:
        for match in _SPELLED_EMAIL_RE.finditer(text):
            if "@" in match.group() and " " not in match.group():
                continue  # written as an email already: the note's own tokens hold it
            local = _DOT_RE.sub(".", match.group("local"))
            domain = _DOT_RE.sub(".", match.group("domain"))
            found.append(f"{local}@{domain}")
    letters = [_LETTERS_RE.sub(_joined_letters, text)] if _LETTERS_RE.search(text) else []
    if letters:
        found.append(letters[0])
    for source in [text, *letters]:
        found.extend(camel_words(match.group()) for match in _CAMEL_RE.finditer(source))
    return found
