"""Issue 18, people (SPEC R-SAVE-3b), thirteenth session: a name an agent disguises so that the
person detector's words are not the ones a person reads (memories/refusals/disguise.py; found by
trying the detector as an attacker would, no outside case read). Invisible characters and direction
controls never reach it through the API (memories.validation strips them first); the detector reads
them too, for every other caller. Held: invisible characters inside
the name, a right-to-left override, combining marks, digits for letters,
letters spelt apart with dashes or dots. Technical words with digits and abbreviations pass.
Every held case fails against the detector of commit 2f75704.
"""

from __future__ import annotations

import pytest

from memories.refusals.disguise import spelt_apart, undigited, visible
from memories.refusals.people import find_person_mentions


@pytest.mark.parametrize("text", [
    "Pri\u200bya Ra\u200dman approved the refund",
    "\u202enamaR ayirP\u202c approved the refund",
    "P\u0301riya R\u0301aman approved the refund",
    "Pr1ya R4man approved the refund",
    "P-r-i-y-a R-a-m-a-n approved the refund",
    "P.r.i.y.a R.a.m.a.n approved the refund",
], ids=["zero-width", "right-to-left-override", "combining-marks",
        "digits-for-letters", "spelt-with-dashes", "spelt-with-dots"])
def test_a_disguised_name_is_held(text):
    assert find_person_mentions(text)


@pytest.mark.parametrize("text", [
    "The S3 bucket and the k8s job run at p95 with log4j.",
    "U.S.A. and E.U. exports run nightly, e.g. the churn table.",
    "Mail han57@example.com about the v1.2.3 release.",
    "Web3 and B2B dashboards\u200b are refreshed at 07:00.",
], ids=["digits-in-tech-words", "abbreviations", "numbers-after-words", "invisible-character-in-prose"])
def test_technical_notes_pass(text):
    assert find_person_mentions(text) == []


@pytest.mark.parametrize("text, held", [
    ("the refund went to Maria Garcia", True),
    ("the invoice goes to Maria Garcia today", True),
    ("we returned to Feliciano by helicopter", False),
    ("the team went to Feliciano by bus", False),
])
def test_a_thing_sent_to_someone_is_no_journey(text, held):
    """Found while writing the cases above: "went to X" read X as a journey's end (a place) even
    when a thing went to a person (memories.refusals.people_addresses ``_THING_BEFORE``)."""
    assert bool(find_person_mentions(text)) is held


def test_the_readings_take_off_only_the_disguise():
    assert visible("Pri\u200bya") == "Priya"
    assert visible("plain ascii") is None
    assert undigited("Pr1ya L0pez, S3 and han57") == "Priya Lopez, S3 and han57"
    assert spelt_apart("P-r-i-y-a and U.S.A.") == "Priya and U.S.A."
