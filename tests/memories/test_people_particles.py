"""Issue 18, people (SPEC R-SAVE-3b), twelfth session: Dutch and German names with a particle,
from the outside set's tuning cases (tests/data/people_tuning_from_outside.jsonl: "a Dutch
particle before an English word", left in the third draw).

* A given name no list knows, "ten" / "ter" / "van" / "von" / "zu", then a surname that is an
  English word: "Gerbrich ten Pas" (memories/refusals/people.py ``_germanic_particle_name``).
* Two particles in a row ("van der", "van den"): the whole name, not its last word alone.
* Kept: Romance place names with "de" / "del" ("Rio de Janeiro", "Costa del Sol"), and a Dutch or
  German word before the particle is no given name's (wordfreq's Dutch and German lists).

The names are made up from common Frisian and Dutch given names no list here has. Each held case
fails (or is held only in part) on commit 797f310.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


@pytest.mark.parametrize("text, name", [
    ("Gerbrich ten Pas will present the roadmap", "Gerbrich ten Pas"),
    ("Hiltje van der Wal sent the file", "Hiltje van der Wal"),
    ("Jantiene van der Poel asked for the export", "Jantiene van der Poel"),
    ("Sjoukje van den Berg approved it", "Sjoukje van den Berg"),
])
def test_a_name_with_a_dutch_or_german_particle_is_held_whole(text, name):
    assert [m.text for m in find_person_mentions(text)] == [name]


@pytest.mark.parametrize("text", [
    "Rio de Janeiro office opens Monday",
    "We flew to Costa del Sol",
    "The Museo del Prado dataset is public",
    "Pays de la Loire sales rose",
])
def test_romance_place_names_with_a_particle_are_kept(text):
    assert find_person_mentions(text) == []
