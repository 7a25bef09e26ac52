"""Issue 18, people (SPEC R-SAVE-3b), fourteenth session: a name a person reads in a note that the
rules read as code or as lone words, found by trying fifty ways a note names someone (no outside
case read; memories/refusals/people_rendered.py):

* Markdown emphasis and HTML tags around a name ("**Maria Garcia**", "<b>Maria</b>"): a word
  beside "*", "_" or "<" was code;
* a first-name field and a last-name field of one record, in JSON or a query string (in YAML
  they were held already);
* a name URL-encoded in a link ("?q=Maria%20Garcia");
* a capitalised given name that is also a word, joined to a surname by a dot or an underscore
  ("Maria.Garcia", "Tom_Becker"), or such a login as the value of a field that holds a person
  ('"owner": "maria_garcia"');
* a mention of someone by a capitalised given name that is also a word ("@Maria approved").

Technical notes of the same shapes pass: code spans, brands in bold, schemas with name columns,
encoded search terms, acronyms and settings in capitals, decorators (two of which, "@dataclass"
and "@pytest.mark.parametrize", were held at 8269590). Every held case fails against 8269590.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


@pytest.mark.parametrize("text", [
    "Call **Maria Garcia** about the renewal.",
    "Call *Kwame Mensah* about the renewal.",
    "Call __Priya Raman__ about the renewal.",
    "Call _Maria Garcia_ about the renewal.",
    "Call <b>Maria</b> <b>Garcia</b> about the renewal.",
    "<td>Kwame Mensah</td><td>renewal</td>",
    "Call **Maria** **Garcia** about the renewal.",
], ids=["bold", "italic", "underscores-bold", "underscores-italic", "html-tags", "table-cell", "bold-each"])
def test_a_name_in_markdown_or_html_is_held(text):
    assert find_person_mentions(text)


@pytest.mark.parametrize("text", [
    '{"first_name": "Maria", "last_name": "Garcia", "topic": "renewal"}',
    "https://crm.example.com/contacts?fname=Ana&lname=Lopez",
    "https://crm.example.com/search?q=Maria%20Garcia",
], ids=["json-fields", "query-fields", "url-encoded"])
def test_a_name_in_fields_or_a_link_is_held(text):
    assert find_person_mentions(text)


@pytest.mark.parametrize("text", [
    "Maria.Garcia approved the export.",
    "Tom_Becker approved the export.",
    '{"owner": "maria_garcia", "table": "renewals"}',
    "assignee=ana.lopez status=open",
    "@Maria approved the renewal.",
    "thanks @Tom for the fix",
], ids=["dotted", "underscored", "owner-field", "assignee-field", "mention", "mention-mid-line"])
def test_a_given_name_that_is_a_word_joined_to_a_surname_is_held(text):
    assert find_person_mentions(text)


@pytest.mark.parametrize("text", [
    "Run `Stan` with **4 chains**; see <b>README</b>.",
    "*Django* and *Flask* both work for the admin.",
    "The __Morgan Stanley__ feed lands at 6am.",
    "~~Bloomberg~~ Refinitiv feed replaces it in Q3.",
    "<td>Wells Fargo</td><td>12</td><td>Chase</td>",
    "**Jordan** region sales and *Georgia* state sales are in separate tables.",
    "Highlight **Austin** and **Denver** offices in the dashboard.",
    "first_name: string, last_name: string, email: string",
    '{"first": "Monday", "last": "Friday"} is the default week window.',
    "https://example.com/search?q=Apache%20Spark%20Streaming",
    "READ ME FIRST: GRANT ACCESS TO BI USERS BEFORE FRIDAY",
    "The KPI is LIFETIME VALUE; CHURN RATE is secondary.",
    "Use Python.Requests, not Node.Fetch, for the crawler.",
    "S.Pellegrino orders are up 4% in the EU table.",
    '{"owner": "data_eng", "lead": "sales_ops"}',
    "@Override public void run() { }",
    "@pytest.mark.parametrize marks the slow tests",
    "@dataclass makes it frozen",
    "@Summer(\"2024\") tags the seasonal model",
], ids=["code-span", "frameworks", "bank-in-bold", "struck-out", "banks-in-cells", "places-in-bold",
        "offices-in-bold", "schema", "week-window", "search-term", "shouted-setting", "kpis", "libraries",
        "brand", "team-fields", "annotation", "decorator", "python-decorator", "annotation-call"])
def test_technical_notes_of_the_same_shapes_pass(text):
    assert find_person_mentions(text) == []
