"""Issue 18, people (SPEC R-SAVE-3b), fifteenth session: fifty-four more verbs that say a person
did something ("spoke", "vowed", "sang", "apologised", "tweeted"; data/people_post_verbs.txt)
after a name that needs a cue alone ("Obama", "Madonna", a lower-case "raoul"); and a negative or
other contraction is no name ("Hasn't replied to the ticket", "Won't joined the call" were held at
eee87b7, "Hasn't" and "Won't" read as names before a person's verb; "Haven't tweeted" is the one
a new verb would have held). Every held case and the first two contractions fail against eee87b7;
the things that "spoke" or "posted" pass on both.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


@pytest.mark.parametrize("text, name", [
    ("then raoul spoke at the offsite", "raoul"),
    ("Obama vowed to veto the bill", "Obama"),
    ("Madonna sang at the Grammys", "Madonna"),
], ids=["spoke", "vowed", "sang"])
def test_a_name_before_a_persons_verb_is_held(text, name):
    assert [text[m.start:m.end] for m in find_person_mentions(text)] == [name]


@pytest.mark.parametrize("text", [
    "Hasn't replied to the ticket",
    "Won't joined the call",
    "Haven't tweeted since June",
], ids=["hasnt-replied", "wont-joined", "havent-tweeted"])
def test_a_contraction_before_a_persons_verb_is_no_name(text):
    assert find_person_mentions(text) == []


@pytest.mark.parametrize("text", [
    "the model spoke nonsense",
    "the API responded with a 500",
    "the job warned about nulls",
    "Slack posted the alert",
    "the Snowflake warehouse reacted slowly",
], ids=["model", "api", "job", "tool", "warehouse"])
def test_things_that_spoke_or_posted_pass(text):
    assert find_person_mentions(text) == []
