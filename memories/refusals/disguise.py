"""A note read as a person sees it, with the disguises an agent can put on a token or a name
taken off (R-SAVE-2, R-SAVE-3, R-SAVE-3b; issue 18):

* characters that draw nothing — zero-width spaces and joiners, word joiners, soft hyphens,
  direction marks, tag characters (Unicode's format characters) — and combining marks put on
  letters ("P\\u0301riya");
* a run stored backwards after a right-to-left override ("\\u202e"), which a screen shows
  forwards;
* digits standing for the letters they look like inside a word ("Pr1ya R4man", "L0pez"), one
  or two of them;
* a word spelt letter by letter with dashes or dots between ("P-r-i-y-a R-a-m-a-n");
* markup a screen renders and does not show: HTML tags and character references, Markdown's
  emphasis ("**password:** …", "<b>Maria</b> <b>Garcia</b>"). A code span ("`Stan`") stays, as
  does strike-through ("~~Bloomberg~~": a word no longer meant).

Each function gives another reading, or None when the text has nothing to take off. Callers read
it besides the text as written, never instead: a reading only adds what a detector can find.
Through the API, invisible characters and direction controls are stripped before any detector
reads a note (memories.validation); the detectors take them off too, for every other caller.
"""

from __future__ import annotations

import html
import re
import unicodedata

from memories.refusals.view import View, replaced

__all__ = ["UNREAD_CATEGORIES", "display_order", "markup_taken_off", "spelt_apart", "undigited", "visible"]

_OVERRIDDEN_RE = re.compile("\u202e([^\u202c\n]*)")
# Characters that draw nothing by themselves: format characters and combining marks.
UNREAD_CATEGORIES = frozenset({"Cf", "Mn", "Me"})
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t"})
_WORD_RE = re.compile(r"\w+")
_LETTER_DIGIT_LETTER_RE = re.compile(r"[a-zA-Z][013457]{1,2}[a-z]")
# A word spelt letter by letter with a dash or a dot between ("P-r-i-y-a", "R.a.m.a.n").
_SPELT_APART_RE = re.compile(r"(?<![\w.\-])[^\W\d_](?:[.\-][^\W\d_]){2,}(?![\w\-]|\.\w)")

# An HTML tag ("<b>", "</span>", '<td class="x">'): a block's tag parts words, an inline one not.
_TAG_RE = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)(?:\s[^<>\n]{0,80})?/?>")
_BLOCK_TAGS = frozenset("p br div li ul ol td th tr table h1 h2 h3 h4 h5 h6 blockquote pre hr".split())
# Markdown's emphasis: the same marks ("*", "**", "_", "__") before a word and after a word of one
# line, or its colon ("**Password:**"); an underscore inside a word ("first_name") or before one
# ("_cache") is the word's own.
# (The character before the marks is checked apart: a look-behind first is tried at every place.)
_EMPHASIS_RE = re.compile(r"(\*{1,3}|_{1,3})(?=[^\W_])([^*_\n]{1,80}?[^\W_][:.,;!?)]?)\1(?![\w*])")
_ENTITY_RE = re.compile(r"&(?:#\d{2,6}|#x[0-9A-Fa-f]{2,6}|[A-Za-z]{2,8});")


def display_order(text: str) -> View | None:
    """The text as a screen shows it when a right-to-left override turns a run around: a token
    stored backwards after one reads forwards. Every character keeps its place. None when the
    text has no override."""
    if "\u202e" not in text:
        return None
    return replaced(text, [(run.start(1), run.end(1), run.group(1)[::-1],
                            [(i, i + 1) for i in reversed(range(run.start(1), run.end(1)))])
                           for run in _OVERRIDDEN_RE.finditer(text)])


def markup_taken_off(text: str) -> View | None:
    """``text`` as Markdown or HTML shows it: tags, character references and emphasis marks
    taken off (a block's tag leaves a line break), each character at its place. None when it
    has none."""
    if not any(mark in text for mark in "*_<&"):
        return None
    changes = [(tag.start(), tag.end(), "\n" if tag.group(1).lower() in _BLOCK_TAGS else "",
                [tag.span()] if tag.group(1).lower() in _BLOCK_TAGS else [])
               for tag in _TAG_RE.finditer(text)] if "<" in text else []
    if "&" in text:
        for ref in _ENTITY_RE.finditer(text):
            char = html.unescape(ref.group())
            if len(char) == 1:
                changes.append((ref.start(), ref.end(), char, [ref.span()]))
    if "*" in text or "_" in text:
        for emphasis in _EMPHASIS_RE.finditer(text):
            if emphasis.start() and (text[emphasis.start() - 1].isalnum() or text[emphasis.start() - 1] in "_*"):
                continue
            changes.append((emphasis.start(1), emphasis.end(1), "", []))
            changes.append((emphasis.end(2), emphasis.end(), "", []))
    changes.sort()
    kept = []
    for change in changes:  # a mark inside a tag's attributes is the tag's
        if not kept or change[0] >= kept[-1][1]:
            kept.append(change)
    return replaced(text, kept)


def visible(text: str) -> str | None:
    """What a screen shows of ``text``: overridden runs turned around, characters that draw
    nothing and combining marks left out. None when that is the text itself."""
    if text.isascii():
        return None
    shown = display_order(text)
    reading = shown.text if shown is not None else text
    reading = "".join(c for c in reading if unicodedata.category(c) not in UNREAD_CATEGORIES)
    return reading if reading != text else None


def undigited(text: str) -> str | None:
    """``text`` with the digits that stand for letters in its words read as those letters
    ("Pr1ya R4man" -> "Priya Raman"): a word written as a name once read ("L0pez", not
    "deadbe3f"), that starts and ends with a letter, has three letters or more and one or two
    such digits and no other ("S3", "k8s", "B2B", "han57" stay). None when no
    word has them."""
    if _LETTER_DIGIT_LETTER_RE.search(text) is None:
        return None
    reading = _WORD_RE.sub(_undigited_word, text)
    return reading if reading != text else None


def _undigited_word(match: re.Match) -> str:
    word = match.group()
    if not word[0].isalpha() or not word[-1].isalpha():
        return word  # "han57", "user01": a number after a name, not letters
    stand_ins = sum(c in "013457" for c in word)
    letters = sum(c.isalpha() for c in word)
    if not 1 <= stand_ins <= 2 or letters < 3 or stand_ins + letters != len(word):
        return word
    read = word.translate(_LEET)
    return read if read[0].isupper() and read[1:].islower() else word  # written as a name: "L0pez"


def spelt_apart(text: str) -> str | None:
    """``text`` with its words spelt letter by letter ("P-r-i-y-a R.a.m.a.n") written whole;
    None when it has none. Abbreviations ("S.A.S.", "s.r.l.") are left as written."""
    if "-" not in text and "." not in text:
        return None
    reading = _SPELT_APART_RE.sub(_spelt_word, text)
    return reading if reading != text else None


def _spelt_word(match: re.Match) -> str:
    """"P-r-i-y-a" -> "Priya", written as a name: an abbreviation ("S.A.S.", "s.r.l.") stays."""
    run = match.group()
    if not run[0].isupper() or sum(c.islower() for c in run) < 2:
        return run
    return run.replace("-", "").replace(".", "")
