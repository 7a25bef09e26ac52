"""Issue 18, later records: a note saved before its record existed stops being recalled when the
record arrives (by the API's row create or a CSV import), in the same transaction as the index.

The note is moved to held with the reason ``names_record_later``, audited as a hold, and a
person cannot keep it while it names the record. Before issue 18 it stayed active and recalled.
"""

from __future__ import annotations

import pytest

from memories.models import ChangeSet, Note
from memories.reasons import hold_sentence
from tests.factories import ALL_DATABASES, make_table, token_client, url
from tests.memories.helpers import keep_seen, person_save

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

COLUMNS = [{"name": "name", "kind": "person"}, {"name": "phone", "kind": "phone"},
           {"name": "customer_id", "kind": "id"}]
NAMING = "Call +44 20 7946 0958 before the quarterly close."
GENERAL = "Quarterly close exports go to the finance share."


@pytest.fixture
def customers(owner, eu_ws):
    return make_table(eu_ws, owner, name="Customers", columns=COLUMNS, rows=[{"name": "Ana López"}])


def saved_active(client, workspace, key, value):
    response = person_save(client, workspace, key=key, value=value)
    assert response.status_code == 201 and response.json()["state"] == "active", response.json()
    return response.json()["id"]


def note(workspace, note_id) -> Note:
    return Note.objects.for_workspace(workspace).get(id=note_id)


def test_issue_18_a_note_saved_before_its_record_is_held_when_the_record_is_added(owner, eu_ws, customers):
    client = token_client(owner)
    naming = saved_active(client, eu_ws, "ops.phone", NAMING)
    general = saved_active(client, eu_ws, "ops.close", GENERAL)
    added = client.post(url(eu_ws, f"tables/{customers.id}/records/"),
                        {"records": [{"name": "Kenji Sato", "phone": "020 7946 0958"}]}, format="json")
    assert added.status_code == 201, added.json()

    held = note(eu_ws, naming)
    assert (held.state, held.held_reason) == (Note.State.HELD, "names_record_later")
    assert note(eu_ws, general).state == Note.State.ACTIVE
    shown = client.get(url(eu_ws, f"memories/{naming}/")).json()
    assert shown["state"] == "held" and shown["held_because"] == hold_sentence("names_record_later")
    # Audited like every hold: who added the records, and why.
    change = ChangeSet.objects.for_workspace(eu_ws).filter(action="hold").get()
    assert change.actor_user_id == owner.pk and change.reason == hold_sentence("names_record_later")
    # While it names the record, a person cannot make it active again.
    kept = keep_seen(client, eu_ws, naming)
    assert kept.status_code == 400 and kept.json()["code"] == "names_record", kept.json()
    assert note(eu_ws, naming).state == Note.State.HELD


def test_issue_18_a_csv_import_holds_the_notes_that_name_its_records(owner, eu_ws, customers):
    client = token_client(owner)
    naming = saved_active(client, eu_ws, "ops.refund", "Refund CUST-00999 before Friday.")
    imported = client.post(url(eu_ws, f"tables/{customers.id}/records/import/"),
                           data="name,customer_id\nKenji Sato,CUST-00999\n", content_type="text/csv")
    assert imported.status_code == 201, imported.json()
    assert note(eu_ws, naming).held_reason == "names_record_later"


def test_issue_18_records_added_elsewhere_leave_notes_here_alone(owner, eu_ws, us_ws, customers):
    client = token_client(owner)
    naming = saved_active(client, eu_ws, "ops.phone", NAMING)
    foreign = make_table(us_ws, owner, name="Customers", columns=COLUMNS)
    added = client.post(url(us_ws, f"tables/{foreign.id}/records/"),
                        {"records": [{"name": "Kenji Sato", "phone": "020 7946 0958"}]}, format="json")
    assert added.status_code == 201, added.json()
    assert note(eu_ws, naming).state == Note.State.ACTIVE


def test_issue_18_a_failed_import_holds_nothing(owner, eu_ws, customers):
    """The hold is in the records' transaction: an import refused as a whole changes no note."""
    client = token_client(owner)
    naming = saved_active(client, eu_ws, "ops.phone", NAMING)
    refused = client.post(url(eu_ws, f"tables/{customers.id}/records/import/"),
                          data="name,phone\nKenji Sato,020 7946 0958\nBad Row,not a phone\n", content_type="text/csv")
    assert refused.status_code == 400, refused.json()
    assert note(eu_ws, naming).state == Note.State.ACTIVE
    assert not ChangeSet.objects.for_workspace(eu_ws).filter(action="hold").exists()


def test_issue_18_a_held_note_of_the_same_key_keeps_its_place(owner, eu_ws, customers):
    """One held note per key: the active one that names the new record goes to the trash, held."""
    client = token_client(owner)
    naming = saved_active(client, eu_ws, "ops.phone", NAMING)
    waiting = person_save(client, eu_ws, key="ops.phone", value="Ask Priya Raman for the new number.")
    assert waiting.json()["state"] == "held", waiting.json()
    added = client.post(url(eu_ws, f"tables/{customers.id}/records/"),
                        {"records": [{"name": "Kenji Sato", "phone": "020 7946 0958"}]}, format="json")
    assert added.status_code == 201, added.json()
    moved = note(eu_ws, naming)
    assert moved.state == Note.State.HELD and moved.trashed_at is not None
    assert note(eu_ws, waiting.json()["id"]).trashed_at is None


def test_issue_21_a_held_save_that_lands_during_the_recheck_is_no_500(owner, eu_ws, customers, monkeypatch):
    """The re-check looks for a held note of the key, then writes: a held save of the same key
    between the two (another request) must not turn the record add into a 500."""
    from django.db.models.query import QuerySet

    client = token_client(owner)
    naming = saved_active(client, eu_ws, "ops.phone", NAMING)
    real_exists, raced = QuerySet.exists, []

    def exists_then_race(queryset):
        seen = real_exists(queryset)
        if queryset.model is Note and not raced and "held" in str(queryset.query) and "ops.phone" in str(queryset.query):
            raced.append(True)  # another request's held save lands right after the check
            racing = person_save(client, eu_ws, key="ops.phone", value="Ask Priya Raman for the new number.")
            assert racing.json()["state"] == "held", racing.json()
        return seen

    monkeypatch.setattr(QuerySet, "exists", exists_then_race)
    added = client.post(url(eu_ws, f"tables/{customers.id}/records/"),
                        {"records": [{"name": "Kenji Sato", "phone": "020 7946 0958"}]}, format="json")
    assert raced and added.status_code == 201, added.json()
    moved = note(eu_ws, naming)
    assert moved.state == Note.State.HELD and moved.trashed_at is not None


@pytest.mark.parametrize("value", [
    "请联系王小明关于续约",  # Han letters with no spaces between words
    "Invoice for customer 00777 is late.",  # the id's number after a word that says it is an id
])
def test_issue_18_later_records_are_found_in_every_form_the_check_reads(owner, eu_ws, customers, value):
    client = token_client(owner)
    note_id = saved_active(client, eu_ws, "ops.note", value)
    added = client.post(url(eu_ws, f"tables/{customers.id}/records/"),
                        {"records": [{"name": "王小明", "customer_id": "CUST-00777"}]}, format="json")
    assert added.status_code == 201, added.json()
    assert note(eu_ws, note_id).held_reason == "names_record_later"
