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
        return self.places[start][0], self.places[end - 1][1]
