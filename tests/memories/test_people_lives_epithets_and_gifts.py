"""Issue 18, people (SPEC R-SAVE-3b), eighteenth session: classes the GUM and WNUT tuning draws'
misses pointed at (tests/data/people_tuning_from_{gum,wnut}.jsonl; the outside notes were counted,
never read). A rule for credit lines ("Image: Snbehnke.") held three tuning notes, no outside
one, and one more benign outside note (counted with the rule on and off, not read): left out.
Each line of ``_HELD`` passed at 7b4519b; each line of ``_NOT_HELD`` passes on both.

* **Born, married, buried**: "Paris was born in Switzerland" is a person's life, though "Paris" is
  a city's name and "Grant was awarded" a grant's (data/people_post_passive_lives.txt).
* **An epithet**: "Constantine the Great", "Pliny the Elder" (data/people_epithets.txt).
* **A name given a thing**: "We bought Riley a onesie", "give Riley a call"; a tool is given a try
  or a restart ("give Airflow a try", "give Grant a chance" is said of no one in particular).
* **A face, a voice, hair**: "Ollie's nose", "Mal's blonde hair", as "Will's birthday" was
  (data/people_person_nouns.txt).
* **Spoken to at the end**: "Where are my testicles, Summer?", "Well done, Nick!": a name after a
  comma that ends a question or an exclamation.
* **A sentence's subject that the sentence calls "his" or "her"**: "Pyrion continues his
  streak", "Kwiruka left her group", also after a short opening phrase ("In 2007, Paris left …
  her …") or "that" ("claims that Paris not having her passport"), no other name between; not
  "he" or "she", often a clause's own subject ("Snowpipe loaded the files she sent").
* **Credited for what is "his" or "hers"**: "Hats off to Nick for his patience" (not "their":
  "we switched to Snowpipe for their lower latency").
* **More of what people are** after "X is a …" (data/people_roles.txt: volunteer, rapper, striker,
  senator, pope, comedian, youtuber …).
* **Asked where someone is**: "Where's Grant?", "where is Riley now?" ("Where is Airflow
  installed?" asks no such thing).
* **A song's other singer**: "Makonnen feat. Drake", "ft. Grant".
* **A past tense after an unknown name**: "Heald noted the findings", "Rathke explained it";
  "noted" is no plural noun as "notes" is ("Release notes").
* Tried and left out: traits of looks ("is cute", "is hilarious"): three more WNUT tuning notes,
  none of the held half, one more of its benign notes held.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions

_HELD = [
    "Paris was born in Switzerland but moved to the United Kingdom when she was six.",
    "Will was married in 2001.",
    "Constantine the Great was first proclaimed Emperor in the city.",
    "the account of Pliny the Elder survives in two letters",
    "We bought Riley a onesie today.",
    "can you give Riley a call tomorrow?",
    "what happened to Ollie's nose",
    "I like Mal's blonde hair",
    "Where are my testicles, Summer?",
    "Well done on the migration, Nick!",
    "I LOVE MAKONNEN Feat. Drake - Tuesday",
    "new single ft. Grant out now",
    "Heald noted the findings show pollution reduction is also important.",
    "Rathke explained the result to the board.",
    "Where's Grant?",
    "where is Riley now?",
    "Pyrion continues his streak as the worst detective.",
    "Kwiruka left her group several times.",
    "Womble knew the palace had a second floor because his crosshair is so bad.",
    "In 2007, Paris left the ship after a row with her managers.",
    "The Church also claims that Paris not having her passport was procedure.",
    "Hats off to Nick for his patience with the backfill.",
    "Ntep is a good striker",
    "Tanner is a good dude.",
]

_NOT_HELD = [
    "Image: Bitnami PostgreSQL 16",
    "Image: postgres:16-alpine",
    "Video: 1080p, 30 fps.",
    "Credit: 30 days after the invoice.",
    "The grant was awarded in March.",
    "Grant was awarded to the lab in 2019.",
    "Paris was chosen for the offsite.",
    "the Great Lakes region table",
    "give Airflow a try before Friday",
    "we should give Grant a chance",
    "Valgrind complains about the allocation size.",
    "Autoconf recommends quoting these statements.",
    "Excel's expression builder is slow",
    "Spark ft. Delta Lake",
    "Release notes for 2.1 are out.",
    "Requested changes: 3",
    "Where is Airflow installed?",
    "where is the grant report?",
    "Airflow retries its tasks three times.",
    "Snowpipe loaded the files she sent.",
    "we switched to Snowpipe for their lower latency",
    "feat: Grant access to the reporting role",
    "Which season is busiest, summer?",
]


@pytest.mark.parametrize("text", _HELD)
def test_a_credited_born_or_given_name_is_held(text):
    assert find_person_mentions(text), text


@pytest.mark.parametrize("text", _NOT_HELD)
def test_works_grants_and_tools_are_not_held(text):
    assert find_person_mentions(text) == [], text
