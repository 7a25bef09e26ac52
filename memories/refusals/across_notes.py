"""A secret split over several notes (R-SAVE-2): half of a token in one save, the other half in
the next. Each note alone holds nothing the detector knows; read together they form a known
format ("ghp_…" + the rest).

``find_split_secrets`` is pure: it joins each token-shaped run of the earlier values with each
run of the new value (both orders), and two runs of two of the latest saves with the new one (a
token in three parts), and asks the format rules (not the prose or random-string
rules: two ids side by side look random too) whether a secret crosses the join.
A wallet's recovery phrase split over notes (six words here, six there) is found the same way,
each earlier text joined whole with the new one (``find_seed_phrases``).
``inspect_across_notes`` reads the earlier values: what this turn saved before in the same scope
(layer), and the versions this key had there, from the notes and their change rows (R-MANAGE-3).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memories.refusals.gate import Findings
from memories.refusals.normalise import views
from memories.refusals.secret_seeds import find_seed_phrases
from memories.refusals.secrets import find_secret_formats

__all__ = ["SplitSecret", "find_split_secrets", "inspect_across_notes"]

REASON = "secret_across_notes"
# Token-shaped runs; a half of a token is at least 6 characters and not a plain word.
_RUN_RE = re.compile(r"[A-Za-z0-9_\-+/=.:]{6,}")
_MAX_RUNS = 8  # per text: the longest token-shaped runs
_MAX_EARLIER = 20  # earlier values looked at
_TRIPLE_TEXTS = 4  # for a token in three parts: the latest saves looked at …
_TRIPLE_RUNS = 2  # … and the longest runs of each


@dataclass(frozen=True)
class SplitSecret:
    kind: str
    start: int  # where the new value's part lies in the new value
    end: int


def _runs(text: str) -> list[tuple[int, int, str]]:
    """The longest token-shaped runs of ``text``, as written and as its readings give them (a half
    written "g h p _ R 8 x 2 …" or in look-alike letters is a run once read; memories.refusals.
    normalise), each with its place in ``text``."""
    runs = _runs_of(text)
    for view in views(text):
        runs += [(*view.original(start, end), run) for start, end, run in _runs_of(view.text)]
    runs = list({run: (start, end, run) for start, end, run in runs}.values())
    runs.sort(key=lambda r: -(r[1] - r[0]))
    return runs[:_MAX_RUNS]


def _runs_of(text: str) -> list[tuple[int, int, str]]:
    runs = []
    for match in _RUN_RE.finditer(text):
        run = match.group().strip(".:=")
        if len(run) < 6 or run.isalpha() and run.islower():
            continue  # a plain word is no half of a token
        start = match.start() + match.group().find(run)
        runs.append((start, start + len(run), run))
    return runs


def find_split_secrets(earlier: Sequence[str], value: str) -> list[SplitSecret]:
    """Secrets of a known format that a run of ``value`` forms with a run of an earlier text."""
    return _split_tokens(earlier, value) + _split_phrases(earlier, value)


def _split_phrases(earlier: Sequence[str], value: str) -> list[SplitSecret]:
    """Recovery phrases whose words start in one text and end in the other."""
    found = []
    for text in earlier[:_MAX_EARLIER]:
        if text == value:
            continue
        for first, second, value_first in ((text, value, False), (value, text, True)):
            joined = f"{first}\n{second}"
            join = len(first)
            for kind, start, end, _ in find_seed_phrases(joined, joined.lower(), []):
                if start < join < end:
                    part = (start, join) if value_first else (0, end - join - 1)
                    found.append(SplitSecret(kind, *part))
    return found[:1]


def _split_tokens(earlier: Sequence[str], value: str) -> list[SplitSecret]:
    new_runs = _runs(value)
    if not new_runs:
        return []
    lines: list[str] = []
    joins: list[tuple[int, int, int, int]] = []  # line start, join offset, new start, new end
    position = 0
    # Each earlier text's runs, read once (a run's readings make it the costly step); the same
    # text again (a keep, a re-save) is no second part.
    earlier_runs = {i: _runs(text) for i, text in enumerate(earlier[:_MAX_EARLIER]) if text != value}
    for runs in earlier_runs.values():
        for _, _, old in runs:
            for new_start, new_end, new in new_runs:
                for first, second in ((old, new), (new, old)):
                    lines.append(first + second)
                    joins.append((position, len(first), new_start, new_end))
                    position += len(first) + len(second) + 1
    # A token in three parts: two earlier runs of different saves, then the new one.
    recent = [[run for _, _, run in earlier_runs[i][:_TRIPLE_RUNS]] for i in range(_TRIPLE_TEXTS) if i in earlier_runs]
    for i, first_runs in enumerate(recent):
        for j, second_runs in enumerate(recent):
            if i == j:
                continue
            for first, second in ((a, b) for a in first_runs for b in second_runs):
                for new_start, new_end, new in new_runs[:_TRIPLE_RUNS]:
                    lines.append(first + second + new)
                    joins.append((position, len(first) + len(second), new_start, new_end))
                    position += len(first) + len(second) + len(new) + 1
    if not lines:
        return []
    joined = "\n".join(lines)
    found: list[SplitSecret] = []
    line_starts = [j[0] for j in joins]
    for finding in find_secret_formats(joined):
        index = _line_of(line_starts, finding.start)
        line_start, join, new_start, new_end = joins[index]
        if finding.start - line_start < join < finding.end - line_start:
            found.append(SplitSecret(finding.kind, new_start, new_end))
    return found


def _line_of(line_starts: list[int], offset: int) -> int:
    low, high = 0, len(line_starts) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if line_starts[middle] <= offset:
            low = middle
        else:
            high = middle - 1
    return low


def _earlier_values(*, workspace, turn_id, scope: str | None, key: str) -> list[str]:
    """What this turn saved before in ``scope``, and every version ``key`` had there.

    Read through indexed columns only: notes by (workspace, scope[, key]) and their change rows
    by note id; a save is checked in its transaction, so this stays a few index look-ups.
    """
    from memories.models import Note, NoteChange  # Django models: imported on use, the rest is pure

    if scope is None:
        return []
    notes = Note.objects.for_workspace(workspace).filter(scope=scope)
    values: list[str] = []
    if turn_id is not None:
        values += list(notes.filter(turn_id=turn_id).values_list("value", flat=True)[:_MAX_EARLIER])
    same_key = list(notes.filter(key=key).values_list("id", "value")[:_MAX_EARLIER])
    values += [value for _, value in same_key]
    if same_key:
        rows = (NoteChange.objects.for_workspace(workspace).filter(note_id__in=[i for i, _ in same_key])
                .order_by("-id")[:_MAX_EARLIER])
        for row in rows:
            for snapshot in (row.after, row.before):
                if snapshot and snapshot.get("value"):
                    values.append(snapshot["value"])
    unique = list(dict.fromkeys(v for v in values if v))
    return unique[: 2 * _MAX_EARLIER]


def inspect_across_notes(*, workspace, turn_id, scope: str | None, key: str, value: str) -> Findings | None:
    """The refusal when ``value`` completes a secret with what this turn
    saved before or with an earlier version of ``key`` in ``scope``; None otherwise."""
    earlier = _earlier_values(workspace=workspace, turn_id=turn_id, scope=scope, key=key)
    if not earlier:
        return None
    found = find_split_secrets(earlier, value)
    if not found:
        return None
    kinds = ", ".join(sorted({f.kind.replace("_", " ") for f in found}))
    first = found[0]
    detail = (
        f"This note, read together with a note saved before it (earlier in this turn or an earlier "
        f"version of this key), makes up a secret ({kinds}); its part is in the value at characters "
        f"{first.start}–{first.end}. Nothing was stored: secrets never go into memory, whole or in "
        "parts. Save where the credential is kept instead, and remove the earlier part."
    )
    places = [{"field": "value", "kind": f.kind, "start": f.start, "end": f.end} for f in found]
    return Findings(refusal=(REASON, detail), refusal_fields={"secrets": places})
