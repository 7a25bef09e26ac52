"""Issue 18, people (SPEC R-SAVE-3b), thirteenth session: a name that wordfreq ranks among the
frequent English words only because it is a name ("Stephanie", "Maggie", "Cohen") was read as
ambiguous, so "Maggie Cohen" alone was no name. Such names (people_names_frequent_as_names.txt
says how the list was made) are now names in a run of names, and alone with a cue, as tools,
places and brands are named with them ("the Stan model", "Carson City"). Places, peoples and
firms the list left out stay what they were; a firm's word after another capitalised word
("Kennedy Space Center") makes the run a firm's.

Held cases fail on 2f75704; the others pass on both.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


@pytest.mark.parametrize("text", [
    "Maggie Cohen",
    "Send the invoice to Natalie Sullivan",
    "Trevor Reynolds owns the ETL",
    "Sophie Webb",
])
def test_a_name_frequent_only_as_a_name_is_held(text):
    assert find_person_mentions(text)


@pytest.mark.parametrize("text", [
    "Fit the hierarchical model in Stan, not PyMC.",
    "Carson City sales doubled.",
    "Winston logger is noisy, switch to pino.",
    "Launch window at Kennedy Space Center moved to Friday.",
    "Gabriel Resources shares rose after the ruling.",
    "The French team ships the release on Friday.",
    "Christian holidays are in the calendar table.",
    "The Bristol office held the offsite.",
])
def test_places_firms_and_peoples_pass(text):
    assert find_person_mentions(text) == []
