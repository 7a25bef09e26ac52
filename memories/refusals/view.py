"""A reading of a note for the secret detector, with every character's place in the note
(memories.refusals.normalise makes them)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class View:
    """Another reading of a text. ``places[i]`` is the original (start, end) of ``text[i]``.

    ``formats_only``: only a finding of a format with a shape of its own counts in this view
    (prose and random-string rules are for text as people write it, not for re-joined runs).
    """

    text: str
    places: tuple[tuple[int, int], ...]
    formats_only: bool = False

    def original(self, start: int, end: int) -> tuple[int, int]:
        first, last = self.places[start], self.places[end - 1]
        return min(first[0], last[0]), max(first[1], last[1])  # a run read backwards, too


def replaced(text: str, changes) -> View | None:
    """``text`` with some runs read otherwise, as a view: each change is (start, end, what the run
    reads, the place of each character read), in order. None when there is no change."""
    out: list[str] = []
    places: list[tuple[int, int]] = []
    position = 0
    for start, end, reading, reading_places in changes:
        out.append(text[position:start])
        places.extend((i, i + 1) for i in range(position, start))
        out.append(reading)
        places.extend(reading_places)
        position = end
    if not out:
        return None
    out.append(text[position:])
    places.extend((i, i + 1) for i in range(position, len(text)))
    return View("".join(out), tuple(places))


def picked(text: str, kept: Iterable[int], *, formats_only: bool = False) -> View:
    """The characters of ``text`` at the places ``kept``, each standing for its own place."""
    kept = list(kept)
    return View("".join(text[i] for i in kept), tuple((i, i + 1) for i in kept), formats_only=formats_only)


def joined_lines(parts: Iterable[View], *, formats_only: bool = False) -> View | None:
    """Views one a line, as one view; each line break stands for the place before it. None
    when every part is empty."""
    out: list[str] = []
    places: list[tuple[int, int]] = []
    for part in parts:
        if not part.text:
            continue
        if out:
            out.append("\n")
            places.append(places[-1])
        out.append(part.text)
        places.extend(part.places)
    return View("".join(out), tuple(places), formats_only=formats_only) if out else None
