"""Issue 18, people (SPEC R-SAVE-3b), thirteenth session, found probing fifty ways a note names
someone (no outside case read): a surname that is also a word ("Smith", "Grant") with an initial
before it ("J. Smith") or after it and a comma ("Smith, J."), a mailbox of an initial, a dot and
such a surname ("j.smith@"), and a name that opens a question to "you" after a colon ("Tom: can
you rerun?"). A question and its answer ("Q. Will the export run?") and a heading before a
colon pass. Held cases fail on 2f75704.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


@pytest.mark.parametrize("text", [
    "J. Smith approved the refund",
    "Smith, J. approved the refund",
    "K. Grant approved the refund",
    "j.smith@example.com asked for access",
    "Tom: can you rerun the export?",
])
def test_a_name_with_an_initial_or_spoken_to_is_held(text):
    assert find_person_mentions(text)


@pytest.mark.parametrize("text", [
    "Q. Will the export run tonight?",
    "A. Yes, at nine.",
    "Note: can you rerun the export?",
    "Section A. Will we ship it?",
    "U.S. Bank report is late",
])
def test_questions_headings_and_abbreviations_pass(text):
    assert find_person_mentions(text) == []


@pytest.mark.parametrize("text, held", [
    ("Goode has appeared in numerous television shows.", True),   # GUM's tuning half
    ("Ana had said the export was late.", True),
    ("Gotta love the bumper stickers of Fayette County.", False),  # WNUT's tuning half
    ("Jefferson Parish sheriff posted the numbers.", False),
])
def test_a_verb_after_has_or_had_and_a_county_named_after_someone(text, held):
    """From the tuning halves' misses and false holds: a verb people do after "has", "had" or
    "will" ("has appeared"), and a county or parish named after someone. Each fails on 2f75704
    but "Jefferson Parish …", which was not held before either."""
    assert bool(find_person_mentions(text)) is held
