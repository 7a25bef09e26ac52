"""Issue 18, people (SPEC R-SAVE-3b), fifteenth session: an email address whose local part glues a
given name that is also a word to a surname that is not ("analopez@…", "willokafor@…") was read
as nobody's: glued names needed a given name that is no word. Found probing the ways a note
writes a table person's email (no outside case read); each held case fails against eee87b7.
Team and role addresses, and a word glued to a word, pass as before.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


@pytest.mark.parametrize("address", [
    "analopez@example.com", "willokafor@example.com", "maylindqvist@example.org",
], ids=["ana-lopez", "will-okafor", "may-lindqvist"])
def test_a_given_name_that_is_a_word_glued_to_a_surname_is_held(address):
    text = f"Send the renewal to {address} by Friday."
    assert [text[m.start:m.end] for m in find_person_mentions(text)] == [address]


@pytest.mark.parametrize("address", [
    "rosegarden@example.com", "markbrown@example.com", "datateam@example.com", "salesops@example.com",
    "noreply@example.com", "infodesk@example.com",
], ids=["rose-garden", "mark-brown", "data-team", "sales-ops", "no-reply", "info-desk"])
def test_addresses_of_words_pass(address):
    assert find_person_mentions(f"Send the renewal to {address} by Friday.") == []
