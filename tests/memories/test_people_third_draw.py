"""Issue 18, person detector, third random draw (seed 1820) of the outside set's clean notes: the
classes its misses and false holds showed, each with the ordinary notes the rule must let through
(SPEC R-SAVE-3b). The names are made up here or common ones, not taken from the corpus.

Every test of a new rule has cases that fail against the detector of commit b60c6de.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


def held_words(text: str) -> list[str]:
    return [mention.text for mention in find_person_mentions(text)]


@pytest.mark.parametrize("text, names", [
    ("This song by ex-Zombie Varnoth is a perfect example of the list's order.", ["Varnoth"]),
    ("The ex-Googler Osmerdine runs the data team now.", ["Osmerdine"]),
    ("Unlike the Quarnby novel, it's not about the sea.", ["Quarnby"]),
    ("Darren is a very sympathetic person.", ["Darren"]),
    ("Will is a great listener and a better boss.", ["Will"]),
    ("declan had given declan his address: 12 Rue Haute", ["declan", "declan"]),
    ("we sent Okafor her badge on Monday", ["Okafor"]),
])
def test_people_named_by_what_they_do_write_or_are_given_are_held(text, names):
    assert held_words(text) == names


@pytest.mark.parametrize("text", [
    "we gave Postgres its own disk",
    "told Finance their budget for Q3",
    "ex-Google engineers built the first version",
    "the Kafka novel is on my desk",
    "the Marketing memoir draft is late",
    "Summer is a people business for us",
])
def test_tools_teams_and_seasons_in_those_phrases_are_not_people(text):
    assert held_words(text) == []


@pytest.mark.parametrize("text", [
    "The Acme office is at Bożena and Petőfi u. 22.",
    "Russell Investments runs the pension fund.",
    "12 Rynkova 40\n Suite 9\n Klášterec nad Ohří\n Czech Republic 43151",
    "Our branch in Newcastle upon Tyne opens on Monday.",
])
def test_corners_firms_and_towns_on_rivers_are_not_people(text):
    assert held_words(text) == []


def test_a_title_glued_to_the_word_before_is_no_title():
    # Found among the paraphrase benchmark's notes (not the draw): "TL;DR" is no doctor.
    assert held_words("a TL;DR line at the top, then details") == []
    assert held_words("(Dr. Okafor) signs the export") == ["Dr. Okafor"]


@pytest.mark.parametrize("text, name", [
    ("ottavio r belcastro\nlabor relations director\n12 via roma, suite 4", "ottavio r belcastro"),
    ("zdenka m hrabalova\nunit 1009 box 0219", "zdenka m hrabalova"),
])
def test_a_lower_case_name_with_a_middle_initial_alone_on_its_line_is_held(text, name):
    # The shape of two misses left among the second draw's tuning cases ("<first> <initial>
    # <last>" at the top of a lower-case address); these names are made up.
    assert held_words(text) == [name]


@pytest.mark.parametrize("text", [
    "plot y vs x",
    "see table b below",
    "use option a instead",
    "merge step 2\nset a b c",
])
def test_lower_case_lines_with_one_letter_are_not_names(text):
    assert held_words(text) == []


def test_a_street_in_a_lower_case_address_is_no_person_but_a_name_sent_via_is():
    assert held_words("ottavio r belcastro\n12 via roma, suite 4") == ["ottavio r belcastro"]
    assert held_words("sent via priya yesterday") == ["priya"]


# Fourth random draw (seed 1820 + 1 = 1821): its misses and false holds, as classes.

@pytest.mark.parametrize("text", [
    "Our offices are located at USNS Okafor\nFPO AA 85844",
    "Thomas and Sons is a Brazilian investment bank.",
    "The Mint office is at 9243 Avenue Foch 109 Apt. 758, Villanueva del Arzobispo, Spain 23330",
])
def test_ships_family_firms_and_towns_after_an_address_are_not_people(text):
    assert held_words(text) == []


def test_the_name_field_of_a_form_holds_its_value():
    assert held_words("name:    ottavio r. belcastro\naddress:     unit 4526 box 0671") == ["ottavio r. belcastro"]
    assert held_words("name: weekly revenue\nowner: finance") == []
    assert held_words("kind: Secret\nmetadata:\n  name: mysecret\n  namespace: example-ns") == []
