"""Readings of a token written apart (R-SAVE-2, for memories.refusals.normalise): a space, a
dash, a dot, an underscore or an invisible character between every character ("g h p _ a …"),
groups of a few characters ("AKIA IOSF ODNN …"), a token wrapped over lines, or a password a
character at a time after its name ("password: V x 7 ! p q …"), or with one filler between every
character ("g🔸h🔸p🔸_…"). Each reading is a
``View`` of the run with its separators taken out. Split from normalise.py, which gathers every
reading of a note.
"""

from __future__ import annotations

import re

from memories.refusals.view import View, picked

__all__ = ["separated_runs"]

# Separators people put between a token's characters: spaces of any width, punctuation, and
# invisible characters (zero-width, soft hyphen).
_SEPARATORS = frozenset(" \t\n\r.-·•|,/:;*~\u00a0\u202f\u205f\u3000\u2060\ufeff\u00ad"
                        + "".join(map(chr, range(0x2000, 0x200E))))
_SEPARATOR_CLASS = re.escape("".join(sorted(_SEPARATORS)))
# At least 12 single characters, each followed by one or two separator characters: "g h p _ a …",
# "a-b-c-d-…", one a line. Words never come one letter at a time this long.
_SPACED_RUN_RE = re.compile(
    rf"(?<![A-Za-z0-9])(?:[A-Za-z0-9_+/=](?:[{_SEPARATOR_CLASS}]{{1,2}})){{11,}}"
    r"[A-Za-z0-9_+/=](?![A-Za-z0-9])"
)
# The same with an underscore after each character ("s_k___l_i_v_e___5_1…"): an underscore of
# the token itself sits between two separating ones.
_UNDERSCORED_RUN_RE = re.compile(r"(?<![A-Za-z0-9_])(?:[A-Za-z0-9+/=\-](?:_|___)){11,}[A-Za-z0-9+/=\-](?![A-Za-z0-9_])")
# Groups of 3-8 token characters joined by one space or dash, at least 3 groups, as tokens are
# read out or written in blocks ("AKIA IOSF ODNN 7EXA MPLE"). Prose forms such runs too, so only
# a vendor format found in the joined text counts (``formats_only``).
# Two ways: blocks joined by dashes, or by spaces (a block may then hold the token's own dash).
_GROUPED_RUNS = (
    (re.compile(r"(?<![A-Za-z0-9_\-])(?:[A-Za-z0-9_]{3,8}-){2,}[A-Za-z0-9_]{1,8}(?![A-Za-z0-9_\-])"),
     re.compile(r"[A-Za-z0-9_]+")),
    (re.compile(r"(?<![A-Za-z0-9_\-/+=])(?:[A-Za-z0-9_\-/+=]{3,8} ){2,}[A-Za-z0-9_\-/+=]{1,8}(?![A-Za-z0-9_\-/+=])"),
     re.compile(r"[A-Za-z0-9_\-/+=]+")),
)
# Right before a run of blocks, a credential's name and its sign: "secret key wJalrXUt nFEMI/K7 …"
# is read with its name, so the rules for a key after its name see it (not ``formats_only``).
_CREDENTIAL_BEFORE_RE = re.compile(
    r"(?i)\b(?:pass(?:word|phrase)?|pwd|secret|token|(?:api|access|private|secret|signing)[ _\-]?key|credentials?)"
    r"\s*(?:(?:is|was)\s*)?[:=]?\s*$")
# A token broken at a line's end after other words ("the key is AKIAIOSFOD\nNN7EXAMPLE"): the
# last word of a line and the first of the next, both of a token's characters.
_TOKEN_PIECE_RE = re.compile(r"[A-Za-z0-9+/=_\-]{4,}")
_FIRST_WORD_RE = re.compile(r"[ \t]*([A-Za-z0-9+/=_\-]{4,})")
_DIGIT_RE = re.compile(r"\d")
# A token wrapped over lines, each line nothing but a piece of it ("ghp_R8x2Lq9Z\nt4Vw…"), as
# terminals and e-mails wrap long strings. Only a vendor format found in the joined text counts.
# Four characters a line at the least ("ghp_R\n8x2Lq\n…"): the lines are of one width, and only a
# vendor's format in the joined text counts, so a list of short words joins to nothing.
_WRAPPED_RE = re.compile(r"(?m)^[ \t]*[A-Za-z0-9+/=_\-]{4,}[ \t]*(?:\r?\n[ \t]*[A-Za-z0-9+/=_\-]{4,}[ \t]*)*"
                         r"\r?\n[ \t]*[A-Za-z0-9+/=_\-]{1,}[ \t]*$")
# One filler between every character of a token: an emoji ("g🔸h🔸p🔸_…"), an emoji with its
# variation selector, a mark; sixteen characters at the least. Only a vendor's format in the text
# without the fillers counts. (A letter as the filler, "gxhxpx…", is left: looking for it with a
# back-reference cost a tenth of a scan.)
_TOKEN_CHAR = r"[A-Za-z0-9_+/=\-]"
_FILLED_RUN_RE = re.compile(rf"{_TOKEN_CHAR}(?:[^\sA-Za-z0-9_+/=\-]{{1,2}}{_TOKEN_CHAR}){{15,}}")
_TOKEN_CHAR_RE = re.compile(_TOKEN_CHAR)


def separated_runs(text: str) -> list[View]:
    """Each run of ``text`` written apart, joined; groups and wrapped lines count only when a
    vendor's format is found in them (``formats_only``)."""
    return (_joined(text, _SPACED_RUN_RE) + _underscored(text) + _grouped(text) + _unwrapped(text)
            + _broken(text) + _spaced_after_name(text) + _unfilled(text))


def _unfilled(text: str) -> list[View]:
    """Each run of ``_FILLED_RUN_RE`` without its fillers."""
    return [picked(text, [run.start() + m.start() for m in _TOKEN_CHAR_RE.finditer(run.group())], formats_only=True)
            for run in _FILLED_RUN_RE.finditer(text)]


# A password written a character at a time after its name ("password: V x 7 ! p q 2 L m 9"):
# shorter than a token and with any mark, so read only after a credential's name, with it.
_SPACED_CHARACTERS_RE = re.compile(r"(?<!\S)(?:\S[ \u00a0]){5,}\S(?!\S)")


def _spaced_after_name(text: str) -> list[View]:
    result = []
    for run in _SPACED_CHARACTERS_RE.finditer(text):
        before = _CREDENTIAL_BEFORE_RE.search(text, max(0, run.start() - 40), run.start())
        if before is not None:
            result.append(picked(text, [*range(before.start(), run.start()),
                                       *(i for i in range(run.start(), run.end()) if not text[i].isspace())],
                                 formats_only=False))
    return result


def _even_windows(sizes: list[int], text_blocks: list[str]) -> list[tuple[int, int]]:
    """The runs of blocks of one length ("AKIA IOSF ODNN 7EXA MPLE"), as (first, past last)
    indexes. The first block may be longer or shorter when it holds "_" or "-" (a prefix:
    "sk_live_ 51Hx …"); the last may be shorter, so a run is given with and without it."""
    windows = []
    i = 0
    while i < len(sizes) - 1:
        size = sizes[i + 1] if "_" in text_blocks[i] or "-" in text_blocks[i] else sizes[i]
        j = i + 1
        while j < len(sizes) and sizes[j] == size:
            j += 1
        shorter = j < len(sizes) and sizes[j] < size
        if j - i >= 2 and j - i + shorter >= 3:
            windows.append((i, j))
            if shorter:
                windows.append((i, j + 1))
            i = j
        else:
            i += 1
    return windows


def _grouped(text: str) -> list[View]:
    """Each run of blocks of one length (``_even_windows``) joined, and the same without the
    prose words of its start ("uses ghp_ R8x2 …" is read "ghp_R8x2…" too); only a vendor's
    format found in it counts."""
    result = []
    for run_re, block_re in _GROUPED_RUNS:
        for run in run_re.finditer(text):
            if _DIGIT_RE.search(run.group()) is None:
                continue  # no window of it can hold a digit
            spans = [(run.start() + m.start(), run.start() + m.end()) for m in block_re.finditer(run.group())]
            words = [text[start:end] for start, end in spans]
            for first, last in _even_windows([len(w) for w in words], words):
                if sum(map(len, words[first:last])) < 16 or not any(c.isdigit() for w in words[first:last] for c in w):
                    continue  # tokens are long, and random ones hold a digit; prose's equal words do not
                before = _CREDENTIAL_BEFORE_RE.search(text, max(0, spans[first][0] - 40), spans[first][0])
                if before is not None:
                    result.append(picked(text, [*range(before.start(), spans[first][0]),
                                               *(i for a, b in spans[first:last] for i in range(a, b))],
                                        formats_only=False))
                start = first
                while True:
                    result.append(picked(text, [i for a, b in spans[start:last] for i in range(a, b)],
                                        formats_only=True))
                    if not (words[start].isalpha() and words[start].islower()) or last - start <= 3:
                        break
                    start += 1
    return result


def _broken(text: str) -> list[View]:
    """A word broken at a line's end joined to the next line's first word (and on, while a line
    is that word alone), when they make a long string with a digit; only a vendor's format found
    in it counts. Where the token ends is not known, so the first joint, the whole chain and
    the chain without its last piece are each read."""
    result = []
    line_end = text.find("\n")
    while line_end != -1:
        line_start = text.rfind("\n", 0, line_end) + 1
        line = text[line_start:line_end].rstrip()
        word = line[line.rfind(" ") + 1:]
        start = line_start + line.rfind(" ") + 1
        # A line that is the piece alone is _unwrapped's (a wrapped key); a PEM block's armour
        # ("-----BEGIN … KEY-----") is no token.
        pieces = [(start, start + len(word))] if (len(word) >= 8 and word != line.strip() and "-----" not in word
                                                  and _TOKEN_PIECE_RE.fullmatch(word)) else []
        while pieces and (first := _FIRST_WORD_RE.match(text, line_end + 1)):
            pieces.append(first.span(1))
            line_end = text.find("\n", first.end())
            if line_end == -1 or text[first.end(): line_end].strip():
                break  # the line goes on after the piece: the token ends there
        for count in sorted({2, len(pieces) - 1, len(pieces)}) if len(pieces) >= 2 else ():
            kept = [i for a, b in pieces[:count] for i in range(a, b)]
            if count >= 2 and len(kept) >= 16 and any(text[i].isdigit() for i in kept):
                result.append(picked(text, kept, formats_only=True))
        line_end = text.find("\n", line_end + 1) if line_end != -1 else -1
    return result


def _joined(text: str, pattern: re.Pattern) -> list[View]:
    """Each run of ``pattern`` with its separators taken out, as its own view. A separator
    with a space on each side ("g h p - a b") is a character of the token."""
    result = []
    for run in pattern.finditer(text):
        kept = [i for i in range(run.start(), run.end()) if text[i] not in _SEPARATORS or (
            text[i] in "-./" and text[i - 1] == " " and text[i + 1: i + 2] == " ")]
        result.append(picked(text, kept, formats_only=False))
    return result


def _underscored(text: str) -> list[View]:
    """Each run of ``_UNDERSCORED_RUN_RE`` with its separating underscores taken out."""
    if "_" not in text:
        return []
    # A separator is dropped; the middle one of "___" is the token's own.
    return [picked(text, [i for i in range(run.start(), run.end())
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
        result.append(picked(text, [i for i in range(block.start(), block.end()) if not text[i].isspace()],
                            formats_only=True))
    return result
