"""Issue 18, people (SPEC R-SAVE-3b), fifteenth session: "the name romanised", the Hong Kong,
Macau and Taiwan way: a surname and a two-syllable given name joined by a hyphen, in either order
("Wong Yeung-tat", "Chi-wai Leung", "Tsai Ing-wen"); memories/refusals/people_hyphenated.py. The
names dataset knows few of these surnames and none of the given names. Found probing romanised
names (one GUM tuning sentence among them); every held case fails against eee87b7.

A hyphenated pair of syllables with no surname beside it names a thing as often as a person, and
the surname alone is a word: those pass as they did.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


def _held(text: str) -> list[str]:
    return [text[m.start:m.end] for m in find_person_mentions(text)]


@pytest.mark.parametrize("text, name", [
    ("Wong Yeung-tat owns the ingestion job", "Wong Yeung-tat"),
    ("Ask Chi-wai Leung about the export", "Chi-wai Leung"),
    ("Chan Yeung-tat signed off the schema", "Chan Yeung-tat"),
    ("Law Man-kit approved the change", "Law Man-kit"),
    ("the figures came from Tsang Ka-ho in finance", "Tsang Ka-ho"),
    ("the numbers in Hsieh Chih-hao sheet are off", "Hsieh Chih-hao"),
    ("send the deck to Kwok Wing-kei", "Kwok Wing-kei"),
], ids=["surname-first", "given-first", "given-unknown", "surname-a-word", "after-from",
        "wade-giles", "after-to"])
def test_a_surname_with_a_hyphenated_given_name_is_held(text, name):
    assert name in _held(text)


@pytest.mark.parametrize("text", [
    "Ping-Pong table in the lobby is booked",
    "the Check-In kiosk is down",
    "Hong Kong revenue is up 4%",
    "Law firms and Ma-and-Pa shops are out of scope",
    "the Yin-Yang chart on the dashboard",
    "Follow-up with finance on Monday",
], ids=["ping-pong", "check-in", "place", "words", "yin-yang", "follow-up"])
def test_hyphenated_words_that_name_no_one_pass(text):
    assert find_person_mentions(text) == []
