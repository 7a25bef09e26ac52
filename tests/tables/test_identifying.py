"""The index of a table's identifying values and the check of notes against it (R-SAVE-3).

Through the API where a client would see it (a person's save tied to a table), through the
services for the index's own bookkeeping (counts under inserts, deletes and CSV imports; no
plaintext stored), and on the labelled people corpus (tests/data/people_corpus.json) for the
measured recall and false refusals.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from django.db import connections
from hypothesis import given, settings
from hypothesis import strategies as st

from memories.refusals.phrases import phrase_digest, word_tokens
from tables import identifying
from tables.models import IdentifyingColumn, IdentifyingPhrase, Record
from tables.services import record_delete, records_add
from tests.factories import ALL_DATABASES, make_table, token_client, url
from tests.memories.helpers import person_save
from workspaces.capabilities import actor_for

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

CORPUS = Path(__file__).resolve().parent.parent / "data" / "people_corpus.json"
COLUMNS = [
    {"name": "name", "kind": "person"}, {"name": "email", "kind": "email"}, {"name": "phone", "kind": "phone"},
    {"name": "employee_id", "kind": "id"}, {"name": "status", "kind": "text"}, {"name": "company", "kind": "text"},
]
PEOPLE = [
    {"name": "Ana López", "email": "ana.lopez@example.com", "phone": "+1 415 555 0134", "employee_id": "EMP-00017",
     "status": "Shipped", "company": "Brightwater Analytics"},
    {"name": "Kenji Sato", "email": "kenji@example.com", "phone": "+81 3 1234 5678", "employee_id": "EMP-00018",
     "status": "Shipped", "company": "Northwind Traders"},
    {"name": "Luis Fernández", "email": "luis@example.com", "employee_id": "EMP-00019", "status": "Shipped",
     "company": "Contoso Pharma"},
    {"name": "María Fernández", "email": "maria.f@example.com", "employee_id": "EMP-00020", "status": "Pending",
     "company": "Fabrikam Foods"},
    {"name": "May Lin", "email": "may.lin@example.com", "employee_id": "EMP-00021", "status": "Shipped",
     "company": "Tailspin Toys"},
    {"name": "Will Turner", "email": "will.t@example.com", "employee_id": "EMP-00022", "status": "Shipped",
     "company": "Woodgrove Bank"},
]


def gate_text(key: str, value: str) -> str:
    """The text memories.refusals.gate checks: the key's words, then the value."""
    return f"{key.replace('.', ' ').replace('_', ' ')} {value}"


@pytest.fixture
def people_table(owner, eu_ws):
    return make_table(eu_ws, owner, name="People", columns=COLUMNS, rows=PEOPLE)


def save_about(client, workspace, table, value, key="people.note"):
    return person_save(client, workspace, key=key, value=value, subject={"kind": "table", "id": str(table.id)})


def phrase_rows(table, alias):
    return IdentifyingPhrase.objects.using(alias).filter(table_id=table.id)


# ----------------------------------------------------------------------------------------------
# Refusals through the API.


@pytest.mark.parametrize(
    "value, code, column",
    [
        ("Lunch with Ana López on Friday to review the churn dashboard.", "names_person", "name"),
        ("Ms. Lopez wants the totals split by region.", "names_person", "name"),
        ("kenji said the numbers for march look off", "names_person", "name"),
        ("forward the weekly export to ana lopez every monday", "names_person", "name"),
        ("ANA LOPEZ approved the new discount rules.", "names_person", "name"),
        ("Share the dashboard link with Ana.Lopez@Example.com please.", "names_record", "email"),
        ("Call (415) 555-0134 if the load fails.", "names_record", "phone"),
        ("SMS 415.555.0134 when the job is done.", "names_record", "phone"),
        ("Employee EMP-00017 asked to hide salary columns.", "names_record", "employee_id"),
        ("Row emp 00018 has the wrong hire date.", "names_record", "employee_id"),
        ("Brightwater Analytics renews in March; prepare the usage chart.", "names_record", "company"),
        ("Mrs. Fernandez prefers CSV exports.", "names_person", "name"),
        ("Ms. May approved the chart.", "names_person", "name"),
    ],
)
def test_R_SAVE_3_a_note_naming_a_person_or_record_of_its_table_is_refused(owner, eu_ws, people_table, value,
                                                                            code, column):
    response = save_about(token_client(owner), eu_ws, people_table, value)
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == code and body["column"] == column
    # The refusal names the column, never the record: nothing of it that the note did not hold.
    text = response.content.decode().casefold()
    for cell in ("ana.lopez@example.com", "emp-00017", "brightwater", "kenji@example.com", "555", "shipped"):
        if cell not in value.casefold():
            assert cell not in text


@pytest.mark.parametrize(
    "value",
    [
        "The Fernandez account rollup runs weekly.",  # two Fernández in the table: no single record
        "Shipped orders are counted twice before March.",  # a category value of the status column
        "Will the export run on May 3?",  # May Lin and Will Turner are in the table
        "May revenue excludes refunds; Will call orders have channel will_call.",
        "Rose gold variants share the same sku prefix.",
        "Hope this helps: use orders.status for the split.",
        "Lane 4 in the warehouse maps to store_id 22.",
        "Row 17 of the export is a header line.",  # 17 is not an employee id here
        "Pending rows wait for the nightly job.",
        "Turnover is computed per region, not per company.",
    ],
)
def test_R_SAVE_3_general_notes_about_the_table_are_accepted(owner, eu_ws, people_table, value):
    response = save_about(token_client(owner), eu_ws, people_table, value)
    assert response.status_code == 201, response.json()


def test_R_SAVE_3_a_person_cue_makes_a_shared_surname_a_person(owner, eu_ws, people_table):
    response = save_about(token_client(owner), eu_ws, people_table, "Ask Mr. Fernandez about the Q3 numbers.")
    assert response.status_code == 400 and response.json()["code"] == "names_person"


def test_R_SAVE_3_the_index_follows_deletes(owner, eu_ws, people_table):
    client = token_client(owner)
    value = "Escalate data quality issues to Kenji Sato before noon."
    assert save_about(client, eu_ws, people_table, value).status_code == 400
    kenji = Record.objects.for_workspace(eu_ws).get(table=people_table, values__name="Kenji Sato")
    deleted = client.delete(url(eu_ws, f"tables/{people_table.id}/records/{kenji.id}/"))
    assert deleted.status_code == 204
    assert save_about(client, eu_ws, people_table, value).status_code == 201
    assert save_about(client, eu_ws, people_table, "Call +81 3 1234 5678 first.", key="other").status_code == 201


def test_R_SAVE_3_the_index_follows_csv_imports(owner, eu_ws, people_table):
    client = token_client(owner)
    value = "Thank Chiamaka Okonkwo for fixing the fiscal calendar mapping."
    assert save_about(client, eu_ws, people_table, value).status_code == 201
    imported = client.post(url(eu_ws, f"tables/{people_table.id}/records/import/"),
                           data="name,email,status\nChiamaka Okonkwo,c.okonkwo@example.com,Shipped\n",
                           content_type="text/csv")
    assert imported.status_code == 201
    refused = save_about(client, eu_ws, people_table, value, key="thanks")
    assert refused.status_code == 400 and refused.json()["code"] == "names_person"
    by_email = save_about(client, eu_ws, people_table, "Reply-to is c.okonkwo@example.com.", key="reply")
    assert by_email.status_code == 400 and by_email.json()["column"] == "email"


def test_R_SAVE_3_a_table_of_another_workspace_or_region_does_not_leak_into_the_check(owner, eu_ws, us_ws):
    make_table(us_ws, owner, name="People", columns=COLUMNS, rows=PEOPLE)
    other = make_table(eu_ws, owner, name="Other", columns=COLUMNS, rows=[{"name": "Someone Else"}])
    response = save_about(token_client(owner), eu_ws, other, "Lunch with Ana López on Friday.")
    assert response.status_code == 201, response.json()
    assert not IdentifyingPhrase.objects.using(eu_ws.db_alias).filter(workspace_id=us_ws.id).exists()
    assert IdentifyingPhrase.objects.using(us_ws.db_alias).filter(workspace_id=us_ws.id).exists()


# ----------------------------------------------------------------------------------------------
# The index's bookkeeping.


def test_R_SAVE_3_counts_follow_inserts_and_deletes_down_to_no_rows(owner, eu_ws):
    table = make_table(eu_ws, owner, name="Counts", columns=COLUMNS)
    actor = actor_for(owner, eu_ws)
    alias = eu_ws.db_alias
    added = records_add(actor=actor, table=table, rows=[
        {"name": "Ana López", "status": "Shipped", "company": "A"},
        {"name": "Luis López", "status": "Shipped", "company": "B"},
        {"name": "Kenji Sato", "status": "Open", "company": "C"},
    ])
    digest = identifying._Digester()
    lopez = phrase_rows(table, alias).get(column_name="name", digest=digest("lopez"))
    assert (lopez.count, lopez.part_count) == (0, 2)
    shipped = phrase_rows(table, alias).get(column_name="status", digest=digest("shipped"))
    assert shipped.count == 2
    stats = {c.column_name: (c.values_count, c.distinct_count)
             for c in IdentifyingColumn.objects.using(alias).filter(table_id=table.id)}
    assert stats == {"status": (3, 2), "company": (3, 3)}
    record_delete(actor=actor, table=table, record_id=added[0].id)
    lopez.refresh_from_db(using=alias)
    assert lopez.part_count == 1
    assert not phrase_rows(table, alias).filter(column_name="name", digest=digest("ana lopez")).exists()
    for record in added[1:]:
        record_delete(actor=actor, table=table, record_id=record.id)
    assert not phrase_rows(table, alias).exists()
    stats = {c.column_name: (c.values_count, c.distinct_count)
             for c in IdentifyingColumn.objects.using(alias).filter(table_id=table.id)}
    assert stats == {"status": (0, 0), "company": (0, 0)}


def test_R_SAVE_3_the_index_holds_no_plaintext(owner, eu_ws, people_table):
    alias = eu_ws.db_alias
    quote = connections[alias].ops.quote_name
    with connections[alias].cursor() as cursor:
        for model in (IdentifyingPhrase, IdentifyingColumn):
            cursor.execute(f"SELECT * FROM {quote(model._meta.db_table)}")
            rows = cursor.fetchall()
            assert rows
            dump = b"".join(bytes(v) if isinstance(v, (bytes, memoryview)) else str(v).encode()
                            for row in rows for v in row)
            for plain in ("lopez", "lópez", "kenji", "example.com", "4155550134", "155550134", "emp-00017",
                          "00017", "shipped", "brightwater", "fernandez", "fernández"):
                assert plain.encode() not in dump.lower(), plain


def test_R_SAVE_3_a_rebuild_gives_the_same_index(owner, eu_ws, people_table):
    alias = eu_ws.db_alias

    def snapshot():
        phrases = sorted((p.column_name, bytes(p.digest), p.count, p.part_count)
                         for p in phrase_rows(people_table, alias))
        columns = sorted(IdentifyingColumn.objects.using(alias).filter(table_id=people_table.id)
                         .values_list("column_name", "values_count", "distinct_count"))
        return phrases, columns

    before = snapshot()
    assert identifying.index_table_rebuild(table=people_table, using=alias, batch_size=4) == len(PEOPLE)
    assert snapshot() == before


@pytest.mark.django_db(databases=ALL_DATABASES, transaction=True)
@pytest.mark.skipif(connections["default"].vendor != "postgresql",
                    reason="row locks need PostgreSQL; make test runs it")
def test_R_SAVE_3_counts_stay_right_with_concurrent_writers(owner, eu_ws):
    """Eight connections add and delete records sharing values at once: no deadlock, no lost
    count — the index they leave is the one a rebuild from the records gives."""
    import threading

    table = make_table(eu_ws, owner, name="Concurrent", columns=COLUMNS)
    actor = actor_for(owner, eu_ws)
    alias = eu_ws.db_alias
    existing = records_add(actor=actor, table=table, rows=[
        {"name": "Ana López", "status": "Shipped", "company": f"Old {i}"} for i in range(4)])
    barrier = threading.Barrier(8)
    errors: list = []

    def work(index):
        try:
            barrier.wait()
            for round_ in range(3):
                records_add(actor=actor, table=table, rows=[
                    {"name": "Ana López", "status": "Shipped", "company": f"Co {index}-{round_}"},
                    {"name": f"Luis López {index}", "status": "Pending", "company": "Shared Co"},
                ])
            if index < len(existing):
                record_delete(actor=actor, table=table, record_id=existing[index].id)
        except Exception as exc:  # noqa: BLE001 - the test reports what each thread got
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors

    def snapshot():
        phrases = sorted((p.column_name, bytes(p.digest), p.count, p.part_count) for p in phrase_rows(table, alias))
        columns = sorted(IdentifyingColumn.objects.using(alias).filter(table_id=table.id)
                         .values_list("column_name", "values_count", "distinct_count"))
        return phrases, columns

    concurrent = snapshot()
    identifying.index_table_rebuild(table=table, using=alias)
    assert concurrent == snapshot()
    ana = phrase_rows(table, alias).get(column_name="name", digest=identifying._Digester()("ana lopez"))
    assert ana.count == 8 * 3


def test_R_SAVE_3_the_backfill_migration_indexes_tables_that_had_records(owner, eu_ws, people_table):
    import importlib
    from types import SimpleNamespace

    from django.apps import apps

    alias = eu_ws.db_alias
    before = sorted((p.column_name, bytes(p.digest), p.count, p.part_count) for p in phrase_rows(people_table, alias))
    phrase_rows(people_table, alias).delete()
    IdentifyingColumn.objects.using(alias).filter(table_id=people_table.id).delete()
    backfill = importlib.import_module("tables.migrations.0003_identifying_phrases_backfill")
    backfill.build_indexes(apps, SimpleNamespace(connection=connections[alias]))
    after = sorted((p.column_name, bytes(p.digest), p.count, p.part_count) for p in phrase_rows(people_table, alias))
    assert after == before
    response = save_about(token_client(owner), eu_ws, people_table, "Lunch with Ana López on Friday.")
    assert response.status_code == 400 and response.json()["code"] == "names_person"


def test_the_fast_hasher_gives_phrase_digest():
    digester = identifying._Digester()
    for phrase in ("ana lopez", "ana.lopez@example.com", "155550134", "ß", "emp 00017"):
        assert digester(phrase) == phrase_digest(phrase, digester.key)


def test_cell_tokens_agree_with_word_tokens_on_the_corpus():
    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    for person in corpus["people"]:
        for kind, value in (("person", person["full_name"]), ("email", person["email"]), ("phone", person["phone"]),
                            ("phone", person["phone_other_format"]), ("id", person["id"])):
            assert identifying.cell_tokens(kind, value) == word_tokens(value), value


@settings(max_examples=500, deadline=None)
@given(kind=st.sampled_from(["person", "email", "phone", "text", "id"]),
       value=st.text(alphabet=st.sampled_from("abtzXYZ0129 .-_@'+/:()é"), max_size=30))
def test_cell_tokens_agree_with_word_tokens_on_generated_values(kind, value):
    assert identifying.cell_tokens(kind, value) == word_tokens(value)


@settings(max_examples=200, deadline=None)
@given(digits=st.text(alphabet="0123456789", min_size=7, max_size=15))
def test_cell_tokens_agree_with_word_tokens_on_e164_phones(digits):
    assert identifying.cell_tokens("phone", f"+{digits}") == word_tokens(f"+{digits}")


# ----------------------------------------------------------------------------------------------
# The labelled corpus: measured recall and false refusals.


def test_R_SAVE_3_corpus_recall_at_least_98_percent_and_false_refusals_at_most_1_percent(owner, eu_ws):
    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    columns = [{"name": "name", "kind": "person"}, {"name": "email", "kind": "email"},
               {"name": "phone", "kind": "phone"}, {"name": "employee_id", "kind": "id"}]
    rows = [{"name": p["full_name"], "email": p["email"], "phone": p["phone"], "employee_id": p["id"]}
            for p in corpus["people"]]
    table = make_table(eu_ws, owner, name="Corpus people", columns=columns, rows=rows)

    def refused(note) -> bool:
        text = gate_text(note["key"], note["value"])
        return identifying.find_identifying_match(table=table, text=text, using=eu_ws.db_alias) is not None

    by_label: dict[str, list] = {}
    for note in corpus["notes"]:
        by_label.setdefault(note["label"], []).append(note)
    missed = [n for n in by_label["names_record"] if not refused(n)]
    false = [n for n in by_label["benign"] if refused(n)]
    false_tech = [n for n in by_label["benign_tech"] if refused(n)]
    other = [n for n in by_label["names_person_other"] if refused(n)]
    recall = 1 - len(missed) / len(by_label["names_record"])
    false_rate = len(false) / len(by_label["benign"])
    print(f"\nR-SAVE-3 corpus ({len(rows)} people): recall {recall:.2%} on {len(by_label['names_record'])} "
          f"names_record notes (missed by form: {dict(Counter(n['form'] for n in missed))}); "
          f"false refusals {false_rate:.2%} of {len(by_label['benign'])} benign table notes, "
          f"{len(false_tech) / len(by_label['benign_tech']):.2%} of {len(by_label['benign_tech'])} technical notes; "
          f"{len(other) / len(by_label['names_person_other']):.2%} of notes naming people outside the table refused")
    for note in missed:
        print("  missed:", note["form"], "|", note["value"])
    for note in false + false_tech:
        print("  false refusal:", note["value"])
    assert recall >= 0.98
    assert false_rate <= 0.01
