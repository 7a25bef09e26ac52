"""Issue 18, person detector, found by trying it as an attacker would (SPEC R-SAVE-3b): a name
written in capitals ("Call PRIYA RAMAN about the invoice") and a first name and surname joined as
one identifier ("chidi.okonkwo", "Priya_Raman", "priya_raman.csv") were never held, since
capitals were read as acronyms and identifiers as code. Acronyms, shouting, code, paths and URLs
still pass.

Every positive case fails against the detector of commit 61aab43.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


def held_words(text: str) -> list[str]:
    return [mention.text for mention in find_person_mentions(text)]


@pytest.mark.parametrize("text, names", [
    ("Call PRIYA RAMAN about the invoice.", ["PRIYA RAMAN"]),
    ("CHIDI OKONKWO prefers CSV exports", ["CHIDI OKONKWO"]),
    ("Send the contract to MARIA LOPEZ today", ["MARIA LOPEZ"]),
], ids=["call", "prefers", "send-to"])
def test_a_name_in_capitals_is_held(text, names):
    assert held_words(text) == names


@pytest.mark.parametrize("text, names", [
    ("chidi.okonkwo prefers CSV", ["chidi.okonkwo"]),
    ("Chidi_Okonkwo asked for the export", ["Chidi_Okonkwo"]),
    ("the file priya_raman.csv has her rows", ["priya_raman"]),
], ids=["dotted", "underscored", "file-name"])
def test_a_name_joined_as_one_identifier_is_held(text, names):
    assert held_words(text) == names


@pytest.mark.parametrize("text", [
    "SQL SERVER is down again",
    "AWS KMS KEY rotation is due",
    "GRANT ACCESS TO the staging role",
    "HAPPY NEW YEAR from the data team",
    "MAX POOL SIZE is 20",
    "KAFKA STREAMS lag is high",
    "import pandas.DataFrame",
    "set user.name in git before committing",
    "first_name and last_name columns are required",
    "see /home/priya.raman/notes for the script",
    "https://acme.com/priya.raman",
    "call ana.lopez() twice in the test",
    "max_value is 10",
], ids=lambda text: text[:30])
def test_acronyms_code_paths_and_urls_are_not_held(text):
    assert held_words(text) == []
