"""Readings of a token cut into pieces that something else keeps apart (R-SAVE-2, for
memories.refusals.normalise; issue 18):

* markup inside it: "ghp_R8x2<b>Kq9L</b>mZ4…", "AKIAQ7XR**2MZ5**K3LP…", "glpat-`Kq9L`mZ4v…";
* a list of its pieces: '["ghp_R8", "x2Kq9L", …]', "`ghp_R` `8x2Kq` …", "'g' 'h' 'p' …",
  a table's cells "| g | h | p | … |";
* its pieces in the same note with words between: "first half AKIAQ7XR2M, second half
  Z5K3LP9WTN".

Each reading joins the pieces. Ids, words and cells side by side join into random-looking
strings too, so only a vendor's format found across a joint counts (``formats_only``).
"""

from __future__ import annotations

import re

from memories.refusals.secret_formats import prefix_starts
from memories.refusals.view import View, joined_lines, picked

__all__ = ["pieces"]

_CHUNK = r"[A-Za-z0-9_+/=\-.]"
# Markup between two characters of a token, with no space on either side: an HTML tag, a
# Markdown emphasis or code mark, a strike-through.
# A run of marks is matched whole (possessive) and the characters on its sides are checked apart,
# so each place of a note is tried once.
_INLINE_MARKUP_RE = re.compile(r"(?:</?[A-Za-z][A-Za-z0-9]*+(?:\s[^<>\n]{0,60})?/?>|[*`~])++")
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
# Three pieces or more, each in the same quotes or backticks, with list punctuation between.
_QUOTED_PIECES_RE = re.compile(
    rf"""(?P<q>["'`]){_CHUNK}{{1,24}}(?P=q)(?:[ \t]*[,;+|]?\s*(?P=q){_CHUNK}{{1,24}}(?P=q)){{2,}}""")
_QUOTED_PIECE_RE = re.compile(rf"""["'`]({_CHUNK}{{1,24}})["'`]""")
# Three cells or more of a table row, each one short piece.
_CELLS_RE = re.compile(rf"\|[ \t]*{_CHUNK}{{1,24}}[ \t]*(?:\|[ \t]*{_CHUNK}{{1,24}}[ \t]*){{2,}}\|")
_CELL_RE = re.compile(rf"(?<=\|)[ \t]*({_CHUNK}{{1,24}})[ \t]*(?=\|)")
# Pieces of a token in running text: a run with a digit or an upper-case letter after the first
# character, not a plain word.
_RUN_RE = re.compile(r"(?<![A-Za-z0-9_+/=\-])[A-Za-z0-9_+/=\-]{6,}(?![A-Za-z0-9_+/=\-])")
_SHAPED_RE = re.compile(r".[A-Za-z]*[0-9A-Z_\-]")
_MAX_STARTS = 6  # runs of one note that start with a vendor's prefix, each joined with the
# next one or two (a note holds one split token; scanners' test files hold dozens of prefixes)
_MIN_JOINED = 16  # characters: tokens are long
# A first piece longer than this is a whole token, or a half that reads as random by itself.
_MAX_FIRST_PIECE = 40


def pieces(text: str, known: list[tuple[int, int]]) -> list[View]:
    """Every reading of ``text`` that joins a token's pieces (module docstring); empty for most
    notes. ``known``: spans already found as secrets (a whole token is no first piece)."""
    result = []
    if "<" in text or "*" in text or "`" in text or "~" in text:
        unmarked = _unmarked(text)
        if unmarked is not None:
            result.append(unmarked)
    if "'" in text or '"' in text or "`" in text:
        result += _joined_groups(text, _QUOTED_PIECES_RE, _QUOTED_PIECE_RE)
    if "|" in text:
        result += _joined_groups(text, _CELLS_RE, _CELL_RE)
    neighbours = _neighbours(text, known)
    if neighbours is not None:
        result.append(neighbours)
    return result


def _unmarked(text: str) -> View | None:
    """Each token with markup inside it, the markup left out, one line each (the rest of the
    note was read as written); None when there is none."""
    marks = [mark.span() for mark in _INLINE_MARKUP_RE.finditer(text)
             if mark.start() and text[mark.start() - 1] in _TOKEN_CHARS
             and text[mark.end():mark.end() + 1] in _TOKEN_CHARS]
    if not marks:
        return None
    lines: list[list[int]] = []
    line_end = -1
    for start, end in marks:
        if start < line_end:
            continue  # inside the token of the last line already
        left = start
        while left and text[left - 1] in _TOKEN_CHARS:
            left -= 1
        kept = list(range(left, start))
        position = end
        while True:  # the token goes on, past more markup inside it
            right = position
            while right < len(text) and text[right] in _TOKEN_CHARS:
                right += 1
            kept += range(position, right)
            following = _INLINE_MARKUP_RE.match(text, right)
            if following is None or right == position or text[following.end():following.end() + 1] not in _TOKEN_CHARS:
                break
            position = following.end()
        lines.append(kept)
        line_end = right
    return joined_lines((picked(text, kept) for kept in lines), formats_only=True)


def _joined_groups(text: str, group_re: re.Pattern, piece_re: re.Pattern) -> list[View]:
    """Each group's pieces joined, from its first piece and from its second and third (the
    first may be a label: '["token", "ghp_R8", …]')."""
    result = []
    for group in group_re.finditer(text):
        spans = [(group.start() + p.start(1), group.start() + p.end(1)) for p in piece_re.finditer(group.group())]
        for first in range(min(3, len(spans) - 1)):
            kept = [i for start, end in spans[first:] for i in range(start, end)]
            if len(kept) >= _MIN_JOINED and any(text[i].isdigit() for i in kept):
                result.append(picked(text, kept, formats_only=True))
    return result


def _neighbours(text: str, known: list[tuple[int, int]]) -> View | None:
    """Each token-shaped run that starts like a vendor's token joined with the next one and
    with the next two, one line each: "AKIAQ7XR2M and Z5K3LP9WTN" reads "AKIAQ7XR2MZ5K3LP9WTN".
    None when no run starts so."""
    prefixes = prefix_starts(text.lower())
    if not prefixes:
        return None
    lines: list[list[int]] = []
    starts = 0
    joined_to = -1  # the end of the last line's pieces: a piece of a line starts none
    for start in sorted(prefixes):
        if start < joined_to or any(a <= start < b for a, b in known):
            continue
        first = _RUN_RE.match(text, start)
        if first is None or not _SHAPED_RE.match(first.group()) or first.end() - start > _MAX_FIRST_PIECE:
            continue
        starts += 1
        if starts > _MAX_STARTS:
            break
        following: list[tuple[int, int]] = []
        position = first.end()
        while len(following) < 2 and (run := _RUN_RE.search(text, position)) is not None:
            position = run.end()
            if _SHAPED_RE.match(run.group()):
                following.append(run.span())
        for count in (1, 2):
            if len(following) >= count and first.end() - start + sum(b - a for a, b in following[:count]) >= _MIN_JOINED:
                lines.append([k for a, b in (first.span(), *following[:count]) for k in range(a, b)])
                joined_to = following[count - 1][1]
    return joined_lines((picked(text, kept) for kept in lines), formats_only=True)
