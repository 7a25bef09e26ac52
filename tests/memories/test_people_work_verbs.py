"""Issue 18, people (SPEC R-SAVE-3b), seventeenth session: a name the lists hold but that also
names brands and places alone ("Diego", "Ahmed": people_names_frequent_as_names.txt) needs a
word after it that a person does; what a data team's notes say people do at work ("fixed the
join", "owns the pipeline", "reviewed the PR") now counts (data/people_post_work_verbs.txt).
Each held note here passed at e99780c; the look-alikes pass on both. No verdict changed over
37,111 other texts (tests/data and 30,000 documentation paragraphs), nor on GUM's or WNUT's
halves.

The same for two names joined by a slash, as meeting notes pair people ("Kwame/Priya to pair on
the migration"): the slash read as code; pairs of words, tools, places and months stay words.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions

_HELD = {
    "fixed": ("Diego fixed the join on orders yesterday", "Diego"),
    "reviewed": ("Ahmed reviewed the PR for the churn model", "Ahmed"),
    "owns": ("Alice owns the revenue pipeline now", "Alice"),
    "deployed": ("Andrea deployed the new dbt models", "Andrea"),
    "flagged": ("Allison flagged the duplicate invoices", "Allison"),
}

_SLASHED_PAIRS = {
    "given-names": ("Kwame/Priya to pair on the migration", "Kwame/Priya"),
    "given-and-surname": ("Sarah/Okafor review the PR", "Sarah/Okafor"),
}

_PASSING = {
    "month-adjective": "May fixed-rate loans are in the loans table",
    "ambiguous-word": "Will merged into main after the review",
    "tool": "Airflow fixed the retry bug in 2.7",
    "team": "Finance owns the revenue pipeline now",
    "name-without-a-verb": "Diego, the Spanish locale, is in the lookup table",
    "slashed-words": "Input/Output errors in the log",
    "slashed-tools": "Django/Flask comparison",
    "slashed-places": "Paris/London offices",
    "slashed-months": "Jan/Feb numbers",
    "a-path": "see docs/Priya/notes.md",
}


@pytest.mark.parametrize(("text", "name"), list(_HELD.values()), ids=list(_HELD))
def test_a_name_before_what_a_person_does_at_work_is_held(text, name):
    assert name in [text[m.start:m.end] for m in find_person_mentions(text)]


@pytest.mark.parametrize(("text", "names"), list(_SLASHED_PAIRS.values()), ids=list(_SLASHED_PAIRS))
def test_two_names_joined_by_a_slash_are_held(text, names):
    assert names in [m.text for m in find_person_mentions(text)]


@pytest.mark.parametrize("text", list(_PASSING.values()), ids=list(_PASSING))
def test_look_alikes_pass(text):
    assert find_person_mentions(text) == []
