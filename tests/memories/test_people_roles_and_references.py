"""Issue 18, person detector, what GUM's tuning half still missed after two rounds (SPEC
R-SAVE-3b): a name the text calls a person in apposition ("Zelwick, a chartered surveyor, …",
"Quarnby, former editor-in-chief, …"), "is a Professor", a verb of saying followed by "he" or
"she" ("Zelwick notes he favors …"), "Zelwick, who …"; and two brothers named after a comma
("He had two brothers, Zelwick and Quarnby."), which the firms' rule took for "Lopez, Santos and
Coleman"; a mailbox of an initial and a common surname that is also a word ("jsmith@",
"kbrown@"; Faker's en_US and en_GB surnames); and streets written as one word before a house
number ("Ostvik Storgatan 14", "Haldor Kirkegade 7"), which were taken for a name. The roles are data/people_roles.txt and the head nouns of Faker's English job titles,
less those that also name programs (data/people_job_heads_not_people.txt: "agent", "manager").

The names are made up here (no name list knows them, so only the rule can hold them). Every
positive case fails against the detector of commit 882cad9; the benign ones pass on both.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


def held_words(text: str) -> list[str]:
    return [mention.text for mention in find_person_mentions(text)]


@pytest.mark.parametrize("text, names", [
    ("Zelwick, a chartered surveyor, signed the plans.", ["Zelwick"]),
    ("Zelwick, an actuary at the insurer, checked the tables.", ["Zelwick"]),
    ("Quarnby, a silver and bronze Paralympic medalist in fencing, retired in 2016.", ["Quarnby"]),
    ("The best advice came when Quarnby, former editor-in-chief, read the draft.", ["Quarnby"]),
    ("The best advice came when Grant Lantern, former editor-in-chief, read the draft.", ["Grant Lantern"]),
    ("Currently Zelwick is a Professor at the Institute of Mathematics.", ["Zelwick"]),
    ("Thelwick, our new hydrologist, starts on Monday.", ["Thelwick"]),
], ids=["surveyor", "actuary", "medalist-four-words-before", "editor-in-chief", "a-run-so-called", "capital-role",
        "our-new-role"])
def test_a_name_called_a_person_in_apposition_is_held(text, names):
    assert held_words(text) == names


@pytest.mark.parametrize("text, names", [
    ("On his campaign website, Zelwick notes he favors school vouchers.", ["Zelwick"]),
    ("Quarnby claims that she was working from 6am to midnight.", ["Quarnby"]),
    ("Thelwick hopes she will run again.", ["Thelwick"]),
    ("Zelwick, who played the lead in both films, moved to Leeds.", ["Zelwick"]),
], ids=["notes-he", "claims-that-she", "hopes-she", "comma-who"])
def test_a_name_referred_to_as_he_she_or_who_is_held(text, names):
    assert held_words(text) == names


def test_two_people_after_a_comma_are_no_firm():
    assert held_words("He had two brothers, Niklaus and Johann.") == ["Niklaus", "Johann"]
    # A firm's three names are still a firm's.
    assert held_words("Lopez, Santos and Coleman is an agency in Leeds.") == []


@pytest.mark.parametrize("text", [
    # What programs are: the job titles' heads that name programs too are no roles.
    "Airflow, the scheduler, ran late again.",
    "Kestra is a planner for the nightly jobs.",
    "Celery, a task runner, retries it three times.",
    "Redpanda, a Kafka-compatible broker, is faster here.",
    "Vault, our secrets manager, rotates the keys.",
    "Trino, a query engine, reads the Iceberg tables.",
    "Dagster, the orchestrator, is new this quarter.",
    "Nessie, a catalog, versions our tables.",
    "The Lookout, a thriller, was filmed in 2007.",
    "Envoy, the sidecar proxy, is an agent on each node.",
    # "who" in a question about a tool is not a relative clause about a person.
    "Check the dashboard in Retool, who owns it?",
    "Grafana, who owns this panel?",
    # A team and a system may say things; "he" after them is someone else.
    "Ask Finance, who approve the budgets.",
    "Metabase shows the question he asked.",
], ids=lambda text: text[:30])
def test_programs_teams_and_questions_are_not_held(text):
    assert held_words(text) == []


@pytest.mark.parametrize("text", [
    "Send the export to jsmith@acme-logistics.com every Friday.",
    "Loop in kbrown@univ.edu on the survey results.",
    "cc rwood@partnerco.com when the feed lands.",
], ids=["jsmith", "kbrown", "rwood"])
def test_an_initial_and_a_common_surname_that_is_a_word_is_a_persons_mailbox(text):
    # Faker's en_US and en_GB surnames: "smith", "brown", "wood" are words and surnames both.
    assert len(held_words(text)) == 1


@pytest.mark.parametrize("text", [
    "Invoices go to ebilling@acme-logistics.com.",
    "Forward the letters to epost@partnerco.com.",
    "The form posts to ilink@vendor.io.",
    "Tickets land in iwork@acme.com.",
], ids=["ebilling", "epost", "ilink", "iwork"])
def test_a_mailbox_of_a_letter_and_a_word_no_surname_list_has_is_not_held(text):
    assert held_words(text) == []


@pytest.mark.parametrize("text", [
    "Haldor Kirkegade 7 is the new depot.",
    "Ostvik Storgatan 14 has the samples.",
    "Billing address Ostvik Storgatan 14 for the card",
    "Grünwalder Müllerstraße 5 takes the returns.",
    "Hoorne Kerkstraat 4 opens at nine.",
], ids=["danish-gade", "swedish-gatan", "billing-address", "german-strasse", "dutch-straat"])
def test_a_street_written_as_one_word_before_a_house_number_is_no_person(text):
    # Danish, Swedish, German and Dutch street names end in their street word ("Brovej",
    # "Storgatan", "Müllerstraße"); Faker's addresses of those countries are written so.
    assert held_words(text) == []


def test_a_person_before_such_an_address_on_its_line_is_still_held():
    assert held_words("Anna Lindqvist, Storgatan 12, Stockholm") == ["Anna Lindqvist"]


def test_a_list_of_works_with_their_years_is_no_list_of_cited_authors():
    # GUM's tuning half: a film list. (Unknown words after "the", "the Gújjolaay Eegimaa", were
    # tried as no name too and withdrawn: GUM's held half lost a sentence naming someone.)
    text = "Roles include The Lookout (2007), A Single Man (2009), Cemetery Junction (2010), Quarnby (2013)."
    assert held_words(text) == []


def test_cited_authors_are_still_held():
    assert held_words("As shown by Zelwick (1971), Quarnby (1956) and Thelwick (2004), it holds.") == [
        "Zelwick", "Quarnby", "Thelwick"]
