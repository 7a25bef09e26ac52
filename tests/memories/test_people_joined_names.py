"""Issue 18, people (SPEC R-SAVE-3b), twelfth session: a name written so that the detector's
rules do not see its words, found by trying the detector as an attacker would (no outside case
read): joined in CamelCase, joined by underscores, written letter by letter
(memories/refusals/people_readings.py). Each run is read back as words and held when the words
alone are a name and none of them an English word. Each held case passes unheld on c114efc.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


@pytest.mark.parametrize("text, written", [
    ("MariaGarcia called about the renewal.", "MariaGarcia"),
    ("Maria_Garcia called about the renewal.", "Maria_Garcia"),
    ("M a r i a G a r c i a called about the renewal.", "M a r i a G a r c i a"),
    ("ChidiOkonkwo approved the refund.", "ChidiOkonkwo"),
])
def test_a_name_joined_or_spelt_out_is_held(text, written):
    assert [m.text for m in find_person_mentions(text)] == [written]


@pytest.mark.parametrize("text", [
    "UserService calls OrderDetails on every save.",
    "KafkaConsumer lags on the orders topic.",
    "IndyCar has always been my favorite series.",
    "Not only is it #StarWars day, tonight is #TheCloneWars.",
    "order_id and customer_name are the join columns.",
    "The Great_Expectations suite failed.",
    "see https://example.com/LoisCollis for the design",
])
def test_identifiers_hashtags_and_joined_words_are_not_names(text):
    assert find_person_mentions(text) == []
