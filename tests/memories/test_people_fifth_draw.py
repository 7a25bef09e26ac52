"""Issue 18, people (SPEC R-SAVE-3b), thirteenth session: rules written from the fifth random
quarter of the outside other-people and benign notes (seed 1822, moved to the tuning set before
any was read; tests/data/outside/people/README.md): a list of first names in lower case ("they
had 6: silvana, adam, christopher, kristina, chad and caleb"), and a town in an address line
before its country and postcode ("…, Mora de Rubielos, Spain 16200"). The draw's list and the two addresses fail on 2f75704
("kids: emma, noah and liam" was held already); lists of words that are names too, and an
addressee, stay as they were.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


@pytest.mark.parametrize("text", [
    "they had 6: silvana, adam, christopher, kristina, chad and caleb.",
    "kids: emma, noah and liam",
])
def test_a_list_of_first_names_in_lower_case_is_held(text):
    assert find_person_mentions(text)


@pytest.mark.parametrize("text", [
    "we use python, ruby and julia",
    "months: june, july and august",
    "flowers: rose, lily and daisy",
    "tags: hope, faith, grace and joy",
    "The letter arrived at 2035 Gewerbepark 45 Apt. 815, Brú, Iceland 82407 last night.",
    "Ship it to 370 Fourth Avenue Suite 697, Mora de Rubielos, Spain 16200.",
])
def test_words_that_are_names_too_and_towns_pass(text):
    assert find_person_mentions(text) == []


def test_an_addressee_before_a_country_is_still_held():
    assert find_person_mentions("Maria Garcia, Spain 28013")
