"""Issue 18, people (SPEC R-SAVE-3b), fifteenth session: someone named by dotted initials only
("J.O. asked for a refund", "thanks J.O. for the fix"), held when a person's verb follows or a
word said to a person comes before (memories/refusals/people_initials.py). Found probing how a
note names a table's person (no outside case read); every held case fails against eee87b7.

Dotted capitals that are no one's initials, and initials with no such word beside them, pass.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


@pytest.mark.parametrize("text, initials", [
    ("J.O. asked for a refund", "J.O."),
    ("J. O. said the export is broken", "J. O."),
    ("thanks J.O. for the fix", "J.O."),
    ("cc J.O.B. on the thread", "J.O.B."),
    ("ask A.L. about the renewal", "A.L."),
], ids=["verb-after", "spaced-said", "thanks-before", "three-letters", "ask-before"])
def test_initials_a_person_is_named_by_are_held(text, initials):
    assert [text[m.start:m.end] for m in find_person_mentions(text)] == [initials]


@pytest.mark.parametrize("text", [
    "U.S. sales grew 4% in Q3",
    "the U.K. team will review the draft",
    "Q.A. signed off on the release",
    "ask Q.A. to retest the export",
    "ping I.T. about the laptop",
    "meet at 9 A.M. tomorrow",
    "E.U. data stays in the region",
    "J.O. is the column for the job owner",
], ids=["us", "uk-team", "qa-signed", "ask-qa", "ping-it", "am", "eu", "no-cue"])
def test_dotted_capitals_that_name_no_one_pass(text):
    assert find_person_mentions(text) == []
