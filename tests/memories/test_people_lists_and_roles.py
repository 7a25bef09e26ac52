"""Issue 18, person detector, what the tuning cases still missed after the second draw: names the
text says are people without a name's usual cues (SPEC R-SAVE-3b): a list of names said to be
engineers or founders, a name said to be an engineer or to be shy, "the gender of X"; and false
holds: "Sir bot", where a journey ends ("we returned to Feliciano by helicopter"), what the text
says is an organisation ("X is a 501(c)3"), a lower-case name before "country club". The names are made up here, not taken from the corpus (none is in a name list,
so only the rule can hold them).

Every test of a new rule has cases that fail against the detector of commit 57b455b (the
journeys and organisations: of b2bc32f).
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


def held_words(text: str) -> list[str]:
    return [mention.text for mention in find_person_mentions(text)]


@pytest.mark.parametrize("text, names", [
    ("Is there a better crafted pop song on this list? Zelwick and Quarnby were precision engineers.",
     ["Zelwick", "Quarnby"]),
    ("Zelwick, Quarnby and Thelwick are songwriters from Leeds.", ["Zelwick", "Quarnby", "Thelwick"]),
    ("Zelwick and Quarnby were married in 1998.", ["Zelwick", "Quarnby"]),
    ("It is the brainchild of our 2 founders: Thelwick, Marrowby and Quince.",
     ["Thelwick", "Marrowby", "Quince"]),
    ("Musicians: Zelwick and Quarnby", ["Zelwick", "Quarnby"]),
])
def test_names_listed_and_said_to_be_people_are_held(text, names):
    assert held_words(text) == names


@pytest.mark.parametrize("text", [
    "Sales and Marketing were partners on the launch.",
    "Kafka and Redis are workers in the pipeline.",
    "Editors: Vim, Emacs and Nano.",
    "Designers: Figma and Sketch.",
    "Owners: Finance and Legal.",
    "Writers: Parquet and Avro are the two formats.",
    "Revenue and Churn were flat in May.",
])
def test_lists_of_teams_tools_and_metrics_are_not_people(text):
    assert held_words(text) == []


@pytest.mark.parametrize("text, name", [
    ("Zelwick is a precision engineer at a mill.", "Zelwick"),
    ("Why is Osmerdine so impulsive?", "Osmerdine"),
    ("Osmerdine seems very shy in the standups.", "Osmerdine"),
    ("The true gender of Varnoth has been under debate for years.", "Varnoth"),
])
def test_a_name_said_to_be_a_person_is_held(text, name):
    assert held_words(text) == [name]


@pytest.mark.parametrize("text", [
    "Zorblax was a tool engineers love.",
    "Why is Postgres so slow?",
    "Revenue is very stubborn this quarter.",
    "The gender of the column is unknown.",
    "Excuse me, Sir bot, but I really don't like this tone.",
])
def test_things_said_to_be_slow_or_tools_are_not_people(text):
    assert held_words(text) == []


def test_a_lower_case_name_after_a_lower_case_title_is_still_held():
    assert held_words("lunch with dr. okafor on friday") == ["dr. okafor"]


@pytest.mark.parametrize("text", [
    "At my suggestion we returned to Marisol by helicopter.",
    "They flew back to Lorenzo in June.",
    "Celebrating its 10th year, Okafor-Briggs is a 501(c)3 that invites songwriters.",
    "Lindqvist is a small design agency in Malmö.",
    "where: cite eva lindqvist country club.",
    "The Okafor Club meets on Fridays.",
])
def test_places_travelled_to_and_organisations_are_not_people(text):
    assert held_words(text) == []


@pytest.mark.parametrize("text, name", [
    ("send it to Okafor by friday", "Okafor"),
    ("we flew to Okafor's wedding", "Okafor"),
    ("Lindqvist is a band member and a father of two.", "Lindqvist"),
    ("Lindqvist is a great engineer", "Lindqvist"),
])
def test_people_sent_to_or_called_members_are_still_held(text, name):
    assert held_words(text) == [name]
