"""Issue 18, person detector: a first name followed by a surname that the English dictionary
(wordfreq) also lists, as a rarer word, because the surname is famous ("Clint Eastwood", "Lindsay
Lohan", "Donnie Hathaway"); from the WNUT 2017 tuning half's misses.

Such a pair is held when it stands alone: not after an article ("the Rice Owls", a team) and not
inside a longer run of capitalised words (a title: "Max Calorie Burn Workout"). On the tuning
halves it held 6 more WNUT notes and no more benign ones, GUM's unchanged.

The names in the held cases are made up of a listed first name and a surname wordfreq knows.
Every held case fails against the detector of commit 3f699d5; the kept ones pass on both.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


def held(text: str) -> bool:
    return bool(find_person_mentions(text))


@pytest.mark.parametrize("text", [
    "the churn report was checked by Clint Eastwood",
    "Lindsay Lohan failed the data quality review",
    "every quarter Donnie Hathaway signs off the revenue numbers",
    "the export was rebuilt by Lindsay Eastwood yesterday",
], ids=["after-by", "opens-the-note", "mid-sentence", "other-first-name"])
def test_a_first_name_and_a_rare_surname_are_held(text):
    assert held(text)


@pytest.mark.parametrize("text", [
    "he hit 12 home runs for the Rice Owls",
    "Kickboxing Workout - Max Calorie Burn Workout with no equipment",
    "Quick Question: Have You Ever Scratched Before?",
    "the Grant Procurement dashboard is stale",
    "export the Crystal Reports files to S3",
], ids=["after-article", "title-run", "title-question", "after-article-word", "product"])
def test_what_is_no_person_is_kept(text):
    assert not held(text)
