"""Passwords in a table's column or a Terraform variable's default (R-SAVE-2, issue 18,
thirteenth session; found probing structured notes, no outside case read):

* a header row (Markdown "| user | password |", CSV, TSV or ";") names a credential column, and a
  row below it holds a value there ("| admin | Xk9#mP2qLr |");
* a table of settings, a name and its value a row ("| password | Xk9#mP2qLr |", fifteenth
  session);
* ``variable "db_password" { … default = "Xk9#mP2qLr" }``: the variable's name says what the
  default is.

Values are read as after "password:" (secret_stand_ins._acceptable_password, weak): "hashed",
"n/a", "********", "see vault", a template or a variable pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memories.refusals.secret_assignments import credential_name
from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_stand_ins import (
    _acceptable_password,
)
from memories.refusals.secret_values import (
    _compile,
    up_to_a_note,
)

__all__ = ["find_table_passwords"]

_CREDENTIAL_COLUMN_RE = _compile(
    r"(?i)(?:[a-z0-9]+[_ \-])*(?:password|passwd|pwd|passphrase|secret|token|api[_ \-]?key|access[_ \-]?key"
    r"|secret[_ \-]?key|private[_ \-]?key|credentials?)s?")
# Every name ``_CREDENTIAL_COLUMN_RE`` takes holds one of these: a line without them heads no
# credential column, and is not cut into cells.
_COLUMN_WORDS = ("pass", "pwd", "secret", "token", "key", "credential")
_DELIMITERS = ("|", "\t", ";", ",")
_SEPARATOR_ROW_RE = _compile(r"^[\s|:\-+]+$")
_ROWS_READ = 20
_VARIABLE_RE = _compile(
    r"variable\s+\"(?P<name>[\w\-]*(?:password|passwd|secret|token|api_?key|private_?key)[\w\-]*)\"\s*\{"
    r"[^{}]{0,400}?\bdefault\s*=\s*\"(?P<val>[^\"\n]" + up_to_a_note(1) + r")\"", re.IGNORECASE)


def find_table_passwords(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    if any(word in lowered for word in _COLUMN_WORDS):
        if "\n" in text:
            yield from _column_values(text, taken)
        if "|" in text or "\t" in text:
            yield from _pair_rows(text, taken)
    if "variable" in lowered and "default" in lowered:
        for match in _VARIABLE_RE.finditer(text):
            if _acceptable_password(match.group("val"), strength="weak", quoted=True) and not _overlaps(
                    taken, *match.span("val")):
                yield "password_in_prose", match.start("val"), match.end("val"), 66


def _cells(line: str, delimiter: str) -> list[tuple[int, int]]:
    """The (start, end) of each cell of ``line``, spaces and a Markdown row's outer bars left out."""
    spans, start = [], 0
    for cell in line.split(delimiter):
        left = len(cell) - len(cell.lstrip())
        spans.append((start + left, start + len(cell.rstrip())))
        start += len(cell) + 1
    if delimiter == "|" and line.strip().startswith("|"):
        spans = spans[1:-1] if line.strip().endswith("|") else spans[1:]
    return spans


def _column_values(text: str, taken: Spans) -> Iterator[Candidate]:
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for number, line in enumerate(lines):
        delimiter = next((d for d in _DELIMITERS if d in line), None)
        if delimiter is None or not any(word in line.lower() for word in _COLUMN_WORDS):
            continue
        if (delimiter == "|" and not line.lstrip().startswith("|") and number + 1 < len(lines)
                and lines[number + 1].lstrip().startswith("|")):
            # A Markdown table after other words on its first line ("wifi.notes: | user | …", as
            # the gate reads a note: its key, then its value): the table starts at the bar.
            line = line[line.index("|"):]
        header = [line[a:b] for a, b in _cells(line, delimiter)]
        columns = [k for k, cell in enumerate(header) if _CREDENTIAL_COLUMN_RE.fullmatch(cell.strip("`*\"' "))]
        if not columns or len(header) < 2 or not all(header):
            continue  # a header names every column: "signing_key.key," is code cut at its comma
        for row_number in range(number + 1, min(len(lines), number + 1 + _ROWS_READ)):
            row = lines[row_number]
            if _SEPARATOR_ROW_RE.match(row):
                continue
            cells = _cells(row, delimiter)
            if len(cells) != len(header):
                break  # the table ends
            for k in columns:
                start, end = cells[k]
                value = row[start:end].strip("`\"'")
                begin = offsets[row_number] + start + (len(row[start:end]) - len(row[start:end].lstrip("`\"'")))
                if (value and " " not in value and _acceptable_password(value, strength="weak")
                        and not _overlaps(taken, begin, begin + len(value))):
                    yield "password_in_prose", begin, begin + len(value), 66


def _pair_rows(text: str, taken: Spans) -> Iterator[Candidate]:
    """A table of settings, a name and its value a row ("| password | Xk9#mP2qLr |"): a row of two
    cells whose first names a credential; not a header (a separator row follows one)."""
    lines = text.split("\n")
    offset = 0
    for number, line in enumerate(lines):
        start_of_line, offset = offset, offset + len(line) + 1
        delimiter = "|" if "|" in line else "\t" if "\t" in line else None
        if delimiter is None:
            continue
        cells = _cells(line, delimiter)
        cell = line[cells[0][0]:cells[0][1]].strip("`*\"' ") if len(cells) == 2 else ""
        name = cell.lower()
        if not name or len(name.split()) > 3 or not (_CREDENTIAL_COLUMN_RE.fullmatch(name) or credential_name(cell)):
            continue  # "password", "API key", "accessToken"; not a sentence cut at a bar
        if number + 1 < len(lines) and _SEPARATOR_ROW_RE.match(lines[number + 1]):
            continue  # "| password | notes |" heads a table
        start, end = cells[1]
        raw = line[start:end]
        value = raw.strip("`*\"'")
        begin = start_of_line + start + (len(raw) - len(raw.lstrip("`*\"'")))
        # A password's name takes any word ("| password | Pineapple |"); a token's or a key's a
        # value that looks like one ("| token | count |" heads a table of token counts).
        strength = "weak" if "pass" in name or "pwd" in name else "strong"
        if (value and " " not in value and _acceptable_password(value, strength=strength)
                and not _overlaps(taken, begin, begin + len(value))):
            yield "password_in_prose", begin, begin + len(value), 66
