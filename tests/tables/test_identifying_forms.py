"""Issue 18, people and records: the forms a note names a record by that passed before.

Each class of the issue has a test named for it; each would fail on the code before issue 18
(the index held a value only as it was written, and only a note tied to that table was checked).
Through the API, as a client sees it: a person's save, refused with names_person/names_record.
"""

from __future__ import annotations

import pytest

from tests.factories import ALL_DATABASES, make_table, token_client
from tests.memories.helpers import person_save

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

COLUMNS = [
    {"name": "name", "kind": "person"}, {"name": "email", "kind": "email"}, {"name": "phone", "kind": "phone"},
    {"name": "customer_id", "kind": "id"}, {"name": "status", "kind": "text"},
]
PEOPLE = [
    {"name": "Ana López", "email": "ana.lopez@example.com", "phone": "+1 415 555 0134", "customer_id": "CUST-00417",
     "status": "Shipped"},
    {"name": "Jane Okafor", "email": "jane.o@example.com", "customer_id": "CUST-00418", "status": "Shipped"},
    {"name": "Peter Okafor", "email": "p.okafor@example.com", "customer_id": "CUST-00419", "status": "Pending"},
    {"name": "Дмитрий Иванов", "email": "d.ivanov@example.com", "customer_id": "CUST-00420", "status": "Shipped"},
    {"name": "Γιώργος Παπαδόπουλος", "customer_id": "CUST-00421", "status": "Pending"},
    {"name": "王小明", "customer_id": "CUST-00422", "status": "Shipped"},
    {"name": "김민준", "customer_id": "CUST-00423", "status": "Shipped"},
    {"name": "Ana Sousa", "customer_id": "CUST-00424", "status": "Pending"},  # two Anas: "Ana" alone says nobody
]


@pytest.fixture
def customers(owner, eu_ws):
    return make_table(eu_ws, owner, name="Customers", columns=COLUMNS, rows=PEOPLE)


def save(client, workspace, value, table=None, key="customers.note"):
    subject = {"kind": "table", "id": str(table.id)} if table is not None else None
    return person_save(client, workspace, key=key, value=value, subject=subject)


def assert_refused(response, code):
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == code, response.json()


@pytest.mark.parametrize("value", [
    "Refund CUST00417 before Friday.",  # without its dash
    "Customer 00417 asked for a refund.",  # a word in front, standing for the id's letters
    "customer #417 asked for a refund.",  # and the number without its zeros
    "cust 00417 asked for a refund.",
    "Cust_00417 asked for a refund.",
    "Record 00417 has the wrong region.",  # the id's number after a word that says it is an id
    "Refund CUST-OO417 before Friday.",  # letters for digits (fourteenth session; passed at 8269590)
    "Refund cust-0O4l7 before Friday.",
])
def test_issue_18_a_record_id_without_its_dash_or_with_a_word_in_front_is_refused(owner, eu_ws, customers, value):
    assert_refused(save(token_client(owner), eu_ws, value, customers), "names_record")


@pytest.mark.parametrize("value", [
    "Ask 王 小 明 about the renewal.",
    "王 小明 wants the invoices in one PDF.",
    "请联系王小明关于续约",  # inside a sentence written without spaces
])
def test_issue_18_a_name_with_spaces_between_cjk_letters_is_refused(owner, eu_ws, customers, value):
    assert_refused(save(token_client(owner), eu_ws, value, customers), "names_person")


@pytest.mark.parametrize("value", [
    "The J. Okafor account needs a new contract.",  # two Okafors: the initial says which
    "Contract for Okafor, J. is in the shared drive.",
    "The Ana L. contract renews in May.",  # first name and the surname's initial
    "Ms. A. L. asked for a refund.",  # initials only, after a title
])
def test_issue_18_initials_with_a_surname_or_first_name_are_refused(owner, eu_ws, customers, value):
    assert_refused(save(token_client(owner), eu_ws, value, customers), "names_person")


@pytest.mark.parametrize("value", [
    "Dmitry Ivanov wants weekly invoices.",
    "The Dmitrii Ivanov contract renews in May.",
    "Giorgos Papadopoulos prefers PDF invoices.",
    "Wang Xiaoming prefers PDF invoices.",
    "Kim Minjun prefers PDF invoices.",
])
def test_issue_18_a_name_romanised_is_refused(owner, eu_ws, customers, value):
    assert_refused(save(token_client(owner), eu_ws, value, customers), "names_person")


def test_issue_18_an_email_with_a_plus_tag_is_refused(owner, eu_ws, customers):
    response = save(token_client(owner), eu_ws, "Send the report to Ana.Lopez+reports@example.com.", customers)
    assert_refused(response, "names_record")
    assert response.json()["column"] == "email"


@pytest.mark.parametrize("value, code", [
    ("Call (415) 555-0134 if the load fails.", "names_record"),
    ("Refund CUST-00417 before Friday.", "names_record"),
    ("Lunch with Ana López on Friday.", "names_person"),
])
def test_issue_18_a_note_without_a_subject_naming_a_tables_person_or_record_is_refused(owner, eu_ws, customers,
                                                                                      value, code):
    response = save(token_client(owner), eu_ws, value)
    assert_refused(response, code)
    # Not tied to the table, the refusal does not say which table or column holds the person.
    body = response.content.decode()
    assert "Customers" not in body and "column" not in response.json()


def test_issue_18_a_note_tied_to_another_table_is_checked_against_every_table(owner, eu_ws, customers):
    other = make_table(eu_ws, owner, name="Warehouses", columns=[{"name": "site", "kind": "text"}],
                       rows=[{"site": "North"}])
    assert_refused(save(token_client(owner), eu_ws, "Refund CUST-00417 before Friday.", other), "names_record")


def test_issue_18_a_table_of_another_workspace_does_not_refuse_notes_here(owner, eu_ws, us_ws):
    make_table(us_ws, owner, name="Customers", columns=COLUMNS, rows=PEOPLE)
    other_eu = make_table(eu_ws, owner, name="Customers EU", columns=COLUMNS, rows=[{"name": "Someone Else"}])
    assert other_eu is not None
    response = save(token_client(owner), eu_ws, "Refund CUST-00417 before Friday.")
    assert response.status_code == 201, response.json()


@pytest.mark.parametrize("value, code", [
    ("Send it to ana dot lopez at example dot com.", "names_record"),
    ("ana.lopez at example.com wants weekly totals.", "names_record"),
    ("Write to ana.lopez [at] example [dot] com.", "names_record"),
    ("Ping @AnaLopez about the renewal.", "names_person"),
    ("A n a L o p e z wants the invoices in one PDF.", "names_person"),
    ("Refund C U S T - 0 0 4 1 7 before Friday.", "names_record"),
    ("Refund C-U-S-T-0-0-4-1-7 before Friday.", "names_record"),
    ("Call 4 1 5 5 5 5 0 1 3 4 if the load fails.", "names_record"),
    ("customer no. 417 asked for a refund.", "names_record"),
    ("Customer number 00417 asked for a refund.", "names_record"),
])
def test_issue_18_a_value_written_otherwise_is_refused(owner, eu_ws, customers, value, code):
    """The same classes written as people hide them (twelfth session; tables/note_readings.py):
    an email spelled out, a name joined in CamelCase or letter by letter, an id's number after
    "no." or "number". Each fails on f08a31e but "Customer number 00417", refused before as the
    id's number after a word that says an id follows; it is kept beside "customer no. 417"."""
    assert_refused(save(token_client(owner), eu_ws, value, customers), code)


@pytest.mark.parametrize("value", [
    "Customers with more than 417 orders get the bulk discount.",
    "Meet at example.com headquarters on Friday.",
    "The DataOps team owns AnaLytics exports.",
    "Order number 418 of the export is a header line.",
    "Rows a-b-c-d-e-f-g-h-i-j are the test fixtures.",
    "Release 2024.417 fixed the export.",
    "Shipped orders are counted once.",
    "The Cyrillic and Greek exports use UTF-8.",
    "Order 417 of the export is a header line.",  # a number after a cue, but no id holds it as written
    "The 王 character is a common surname.",
])
def test_issue_18_general_notes_still_pass(owner, eu_ws, customers, value):
    response = save(token_client(owner), eu_ws, value, customers, key="general.note")
    assert response.status_code == 201, response.json()


@pytest.mark.parametrize("value, code", [
    ("Ana L0pez wants the invoices in one PDF.", "names_person"),               # a digit for a letter
    ("A-n-a L-o-p-e-z wants the invoices in one PDF.", "names_person"),         # letters spelt apart
    ("Send it to Lopez, Ana today.", "names_person"),                           # surname first
    ("Send it to Okafor, Jane today.", "names_person"),
    ("Send it to ana . lopez @ example . com today.", "names_record"),
    ("Send it to ana.lopez%40example.com today.", "names_record"),
    ("Send it to ana.lopez&#64;example.com today.", "names_record"),
    ("Call 415/555/0134 if the load fails.", "names_record"),
    ("Call 415 555 01 34 if the load fails.", "names_record"),
    ("Call +1 (415) 555\u20110134 if the load fails.", "names_record"),         # a non-breaking hyphen
    ("Call four one five five five five zero one three four if it fails.", "names_record"),
])
def test_issue_18_a_value_under_a_disguise_is_refused(owner, eu_ws, customers, value, code):
    """Thirteenth session, found by trying the index as an attacker would (tables/note_readings.py,
    memories/refusals/disguise.py). Saved without a subject, where a lone name word needs a cue
    (tied to the table, "Lopez" alone is its one person's and was refused before); each fails on
    2f75704. Invisible characters and direction controls are stripped before any detector reads a
    note (memories.validation), so they are tested on the detectors themselves."""
    assert_refused(save(token_client(owner), eu_ws, value), code)


@pytest.mark.parametrize("value", [
    "Smith, Martin and the others signed off the export.",  # a surname first, but of no table person
    "The S3 bucket and the k8s job run at p95 with log4j.",
    "Call 415 555 01 99 for the vendor's hotline.",
    "Totals for 2024/2025/2026 are in the sheet.",
    "U.S.A. and E.U. exports run nightly.",
])
def test_issue_18_notes_that_only_look_disguised_pass(owner, eu_ws, customers, value):
    response = save(token_client(owner), eu_ws, value, customers, key="general.note")
    assert response.status_code == 201, response.json()


@pytest.mark.parametrize("value", [
    "Call <b>Ana</b> <b>López</b> about the invoices.",                 # a tag between name words
    '{"first_name": "Jane", "last_name": "Okafor", "note": "invoices"}',  # name fields
    "fname=Ana&lname=Lopez&topic=invoices",
    "Send the invoices to Okafor Jane today.",                          # surname first, no comma
    "Send the invoices to OKAFOR Peter today.",
])
def test_issue_18_a_name_in_html_in_name_fields_or_surname_first_is_refused(owner, eu_ws, customers, value):
    """Fourteenth session, found by trying fifty ways a note names someone (tables/note_readings.py,
    memories/refusals/people_rendered.py): a tag's letters stood between the name's words, a
    first-name and a last-name field were two lone words, and a surname written first without a
    comma was no phrase the index holds. Saved without a subject; each fails on 8269590 (the same
    name in Markdown emphasis, URL-encoded or in capitals was refused already)."""
    assert_refused(save(token_client(owner), eu_ws, value), "names_person")
