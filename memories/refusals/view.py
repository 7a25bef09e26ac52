"""A reading of a note for the secret detector, with every character's place in the note
(memories.refusals.normalise makes them)."""

from __future__ import annotations

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
