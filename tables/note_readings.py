"""Other ways a note writes a table's value (R-SAVE-3, issue 18): read back into the form the
index holds, and checked as phrases of their own (tables.identifying.note_phrases).

* an email spelled out against scrapers: "ana dot lopez at example dot com", "ana.lopez [at]
  example.com", "ana.lopez at example.com";
* a name joined in CamelCase, as a handle or an identifier writes it: "AnaLopez", "@AnaLopez";
* a name or an id written letter by letter: "A n a L o p e z" (read as "AnaLopez", then as
  above), "C U S T - 0 0 4 1 7";
* a value under a disguise (memories.refusals.disguise): invisible characters inside it, a
  right-to-left override, digits for letters ("L0pez"), letters spelt apart ("A-n-a");
* an id's number with letters for digits ("CUST-OO417");
* a name written surname first ("Lopez, Ana", "LÓPEZ Ana"); an email with spaces around its "@" and dots
  ("ana . lopez @ example . com"); a phone written with any dash, with slashes, in groups of
  any size ("415 555 01 34"), or read out ("four one five …"); URL-encoding and HTML's
  character references undone ("ana.lopez%40example.com", "&#64;");
* a name in HTML or Markdown ("<b>Ana</b> <b>Lopez</b>"), or in a first-name and a last-name
  field ('{"first_name": "Ana", "last_name": "Lopez"}'; memories.refusals.disguise,
  memories.refusals.people_rendered).

A reading only adds phrases to look up: a note is refused only when one of them is a value of
the workspace's tables, so prose that happens to read as an address ("meet at example.com")
refuses nothing unless a record holds that address.
"""

from __future__ import annotations

import html
import re

from memories.refusals.disguise import markup_taken_off, spelt_apart, undigited, visible
from memories.refusals.normalise_spelt import spelt_digits
from memories.refusals.people_readings import camel_words
from memories.refusals.people_rendered import name_fields, url_decoded

__all__ = ["readings"]

_AT = r"(?:\s*[\[(]\s*at\s*[\])]\s*|\s+at\s+|\s*@\s*)"
_DOT = r"(?:\s*[\[(]\s*dot\s*[\])]\s*|\s+dot\s+| ?\. ?)"
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


# Two capitalised words side by side, which a record may hold the other way round: "Lopez Ana",
# "LÓPEZ Ana" (a surname first without a comma, as lists and forms write it). Overlapping pairs.
_WORD_PAIR_RE = re.compile(r"(?=(?<![\w'’\-])([A-Z][^\W\d_]+)[ \t]+([A-Z][^\W\d_]+)(?![\w'’\-]))")
_MAX_PAIRS = 12
# An id's number with letters that look like digits ("CUST-OO417", "cust-0O4l7"): O for 0, I or l
# for 1, in a run of digits after an id's letters; read with the digits.
_LOOKALIKE_NUMBER_RE = re.compile(r"(?<![\w])([A-Za-z]{2,10}[-_ #]?)((?=[0-9OoIl]*\d)(?=[0-9OoIl]*[OoIl])[0-9OoIl]{3,15})(?![\w])")
_DIGIT_LOOKALIKES = str.maketrans("OoIl", "0011")
# "Lopez, Ana" and "Lopez, Ana Maria": a surname, a comma, one or two given names.
_SURNAME_FIRST_RE = re.compile(r"\b([A-Z][^\W\d_]+(?:[ '\-][A-Z][^\W\d_]+)?), ([A-Z][^\W\d_]+(?: [A-Z][^\W\d_]+)?)\b")
# Digits in groups of any size separated by spaces, slashes or dots, 9 to 15 in all: a phone
# number however it is grouped ("415 555 01 34", "415/555/0134").
_DIGIT_GROUPS_RE = re.compile(r"(?<![\w.+/])\+?\d{1,5}(?:[ /.]\d{1,5}){2,6}(?![\w/]|\.\d)")
_DASHES = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"})


def _number_readings(text: str) -> list[str]:
    found = []
    for match in _DIGIT_GROUPS_RE.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if 9 <= len(digits) <= 15:
            found.append(("+" if match.group().startswith("+") else "") + digits)
    return found


def readings(text: str) -> list[str]:
    """Each other reading of ``text`` worth looking up; empty for most notes."""
    found: list[str] = []
    digits = spelt_digits(text)  # a view with the places the secret detector needs; here its text
    shown = markup_taken_off(text)
    for reading in (visible(text), undigited(text), spelt_apart(text), text.translate(_DASHES),
                    digits.text if digits is not None else None, url_decoded(text),
                    html.unescape(text) if "&" in text else None, shown.text if shown else None,
                    name_fields(text)):
        if reading is not None and reading != text:
            found.append(reading)
            found.extend(_plain_readings(reading))
    found.extend(_plain_readings(text))
    return found


def _plain_readings(text: str) -> list[str]:
    found: list[str] = []
    found.extend(f"{given} {surname}" for surname, given in _SURNAME_FIRST_RE.findall(text))
    found.extend(f"{second} {first}" for first, second in _WORD_PAIR_RE.findall(text)[:_MAX_PAIRS])
    found.extend(prefix + number.translate(_DIGIT_LOOKALIKES) for prefix, number in _LOOKALIKE_NUMBER_RE.findall(text))
    found.extend(_number_readings(text))
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
