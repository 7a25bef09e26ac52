"""Readings of a token written apart (R-SAVE-2, for memories.refusals.normalise): a space, a
dash, a dot, an underscore or an invisible character between every character ("g h p _ a …"),
groups of a few characters ("AKIA IOSF ODNN …"), or a token wrapped over lines. Each reading is a
``View`` of the run with its separators taken out. Split from normalise.py, which gathers every
reading of a note.
"""

from __future__ import annotations

import re

from memories.refusals.view import View

__all__ = ["separated_runs"]

# Separators people put between a token's characters; zero-width ones are invisible.
_SEPARATORS = " \t\n\r.\\-·•|,\u200b\u200c\u200d\u2060\ufeff\u00ad"
# At least 12 single characters, each followed by one or two separator characters: "g h p _ a …",
# "a-b-c-d-…", one a line. Words never come one letter at a time this long.
_SPACED_RUN_RE = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Za-z0-9_+/=](?:[ \t\n\r.\-·•|,\u200b\u200c\u200d\u2060\ufeff\u00ad]{1,2})){11,}"
    r"[A-Za-z0-9_+/=](?![A-Za-z0-9])"
)
# The same with an underscore after each character ("s_k___l_i_v_e___5_1…"): an underscore of
# the token itself sits between two separating ones.
_UNDERSCORED_RUN_RE = re.compile(r"(?<![A-Za-z0-9_])(?:[A-Za-z0-9+/=](?:_|___)){11,}[A-Za-z0-9+/=](?![A-Za-z0-9_])")
# Groups of 3-8 token characters joined by one space or dash, at least 4 groups, as tokens are
# read out or written in blocks ("AKIA IOSF ODNN 7EXA MPLE"). Prose forms such runs too, so only
# a vendor format found in the joined text counts (``formats_only``).
_GROUPED_RUN_RE = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:[A-Za-z0-9_]{3,8}[ \-]){3,}[A-Za-z0-9_]{3,8}(?![A-Za-z0-9_])"
)
# A token wrapped over lines, each line nothing but a piece of it ("ghp_R8x2Lq9Z\nt4Vw…"), as
# terminals and e-mails wrap long strings. Only a vendor format found in the joined text counts.
_WRAPPED_RE = re.compile(r"(?m)^[ \t]*[A-Za-z0-9+/=_\-]{8,}[ \t]*(?:\r?\n[ \t]*[A-Za-z0-9+/=_\-]{8,}[ \t]*)*"
                         r"\r?\n[ \t]*[A-Za-z0-9+/=_\-]{1,}[ \t]*$")


def separated_runs(text: str) -> list[View]:
    """Each run of ``text`` written apart, joined; groups and wrapped lines count only when a
    vendor's format is found in them (``formats_only``)."""
    return (_joined(text, _SPACED_RUN_RE, formats_only=False) + _underscored(text)
            + _joined(text, _GROUPED_RUN_RE, formats_only=True) + _unwrapped(text))


def _even_blocks(run: str) -> bool:
    """"AKIA IOSF ODNN 7EXA MPLE": blocks of one length (the last may be shorter), with a digit
    or a capital letter in them; prose words are not all of one length."""
    blocks = re.split(r"[ \-]", run)
    size = len(blocks[0])
    if any(len(b) != size for b in blocks[:-1]) or len(blocks[-1]) > size:
        return False
    return any(c.isdigit() or c.isupper() for c in run)


def _joined(text: str, pattern: re.Pattern, *, formats_only: bool) -> list[View]:
    """Each run of ``pattern`` with its separators taken out, as its own view. A separator
    with a space on each side ("g h p - a b") is a character of the token."""
    result = []
    for run in pattern.finditer(text):
        if formats_only and not _even_blocks(run.group()):
            continue
        kept = [i for i in range(run.start(), run.end()) if text[i] not in _SEPARATORS or (
            text[i] in "-." and text[i - 1] == " " and text[i + 1: i + 2] == " ")]
        result.append(_view(text, kept, formats_only=formats_only))
    return result


def _underscored(text: str) -> list[View]:
    """Each run of ``_UNDERSCORED_RUN_RE`` with its separating underscores taken out."""
    if "_" not in text:
        return []
    # A separator is dropped; the middle one of "___" is the token's own.
    return [_view(text, [i for i in range(run.start(), run.end())
                         if text[i] != "_" or (text[i - 1] == "_" and text[i + 1] == "_")], formats_only=False)
            for run in _UNDERSCORED_RUN_RE.finditer(text)]


def _unwrapped(text: str) -> list[View]:
    """Each block of lines that are all pieces of one string (``_WRAPPED_RE``), joined."""
    if "\n" not in text:
        return []
    result = []
    for block in _WRAPPED_RE.finditer(text):
        lengths = [len(line.strip()) for line in block.group().splitlines()]
        if len(set(lengths[:-1])) != 1 or lengths[-1] > lengths[0]:
            continue  # wrapped at one width, the last line shorter: not a list of names
        result.append(_view(text, [i for i in range(block.start(), block.end()) if not text[i].isspace()],
                            formats_only=True))
    return result


def _view(text: str, kept: list[int], *, formats_only: bool) -> View:
    """The characters of ``text`` at ``kept``, each standing for its own place."""
    return View("".join(text[i] for i in kept), tuple((i, i + 1) for i in kept), formats_only=formats_only)
