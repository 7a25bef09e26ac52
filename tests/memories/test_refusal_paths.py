"""Every write path goes through the one refusal interface (R-SAVE-2, R-SAVE-3).

An agent's save in a turn, a person's own save, an edit of a note's value and an import of an
export zip: each is refused the same way when the note names a person or a record of the table
it is tied to, or holds a secret, and nothing is written.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

import pytest

from memories.models import ChangeSet, Note
from tests.factories import ALL_DATABASES, make_table, token_client, url
from tests.memories.helpers import keep_seen, person_save, start_turn, tool_save

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

PEOPLE = [{"name": "Ana López", "email": "ana.lopez@example.com", "status": "Shipped"},
          {"name": "Kenji Sato", "email": "kenji@example.com", "status": "Shipped"}]
SECRET = "AKIA" + "IOSFODNN7EXAMPLQ"
REFUSED = [
    ("Lunch with Ana López on Friday.", "names_person"),
    ("Send the export to kenji@example.com every Friday.", "names_record"),
    (f"deploy key is {SECRET}", "secret_detected"),
]


@pytest.fixture
def table(owner, eu_ws):
    return make_table(eu_ws, owner, name="People", rows=PEOPLE)


def subject(table) -> dict:
    return {"kind": "table", "id": str(table.id)}


def notes_in(workspace):
    return Note.objects.for_workspace(workspace)


@pytest.mark.parametrize("value, code", REFUSED)
def test_R_SAVE_3_an_agent_save_in_a_turn_is_refused(owner, eu_ws, table, value, code):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    response = tool_save(client, eu_ws, turn["id"], key="people.note", value=value, subject=subject(table))
    assert response.status_code == 400 and response.json()["code"] == code, response.json()
    assert not notes_in(eu_ws).exists()


@pytest.mark.parametrize("layer", ["mine", "workspace"])
@pytest.mark.parametrize("value, code", REFUSED)
def test_R_SAVE_3_a_persons_own_save_is_refused(owner, eu_ws, table, value, code, layer):
    response = person_save(token_client(owner), eu_ws, key="people.note", value=value, layer=layer,
                           subject=subject(table))
    assert response.status_code == 400 and response.json()["code"] == code, response.json()
    assert not notes_in(eu_ws).exists()


@pytest.mark.parametrize("value, code", REFUSED)
def test_R_SAVE_3_an_edit_is_refused_and_the_note_keeps_its_value(owner, eu_ws, table, value, code):
    client = token_client(owner)
    saved = person_save(client, eu_ws, key="people.note", value="Shipped orders are counted once.",
                        subject=subject(table))
    assert saved.status_code == 201, saved.json()
    note_id = saved.json()["note"]["id"]
    changes_before = ChangeSet.objects.for_workspace(eu_ws).count()
    edited = client.patch(url(eu_ws, f"memories/{note_id}/"), {"value": value}, format="json")
    assert edited.status_code == 400 and edited.json()["code"] == code, edited.json()
    assert notes_in(eu_ws).get(id=note_id).value == "Shipped orders are counted once."
    assert ChangeSet.objects.for_workspace(eu_ws).count() == changes_before
    fine = client.patch(url(eu_ws, f"memories/{note_id}/"), {"value": "Shipped orders are counted twice."},
                        format="json")
    assert fine.status_code == 200, fine.json()


def test_R_SAVE_3_keeping_a_held_note_checks_it_against_the_records_added_while_it_waited(owner, eu_ws, table):
    """A note held in a tainted turn named nobody of the table then; the person it names was added
    to the table before someone kept it: keeping it is refused, and it stays held."""
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    assert client.post(url(eu_ws, f"turns/{turn['id']}/reads/"), {"source": "table", "ref": str(table.id)},
                       format="json").status_code == 201
    saved = tool_save(client, eu_ws, turn["id"], key="people.note", value="Zoe Quinlan reviews the Shipped figures.",
                      subject=subject(table))
    assert saved.status_code == 201 and saved.json()["state"] == "held", saved.json()
    added = client.post(url(eu_ws, f"tables/{table.id}/records/"),
                        {"records": [{"name": "Zoe Quinlan", "email": "zoe@example.com", "status": "Open"}]},
                        format="json")
    assert added.status_code == 201, added.json()
    changes_before = ChangeSet.objects.for_workspace(eu_ws).count()

    kept = keep_seen(client, eu_ws, saved.json()["id"])
    assert kept.status_code == 400 and kept.json()["code"] == "names_person", kept.json()
    assert "Zoe" not in kept.json()["detail"]  # a refusal never repeats the record
    assert notes_in(eu_ws).get(id=saved.json()["id"]).state == Note.State.HELD
    assert ChangeSet.objects.for_workspace(eu_ws).count() == changes_before

    general = tool_save(client, eu_ws, turn["id"], key="people.shipped", value="Shipped figures are weekly.",
                        subject=subject(table))
    assert general.json()["state"] == "held", general.json()
    assert keep_seen(client, eu_ws, general.json()["id"]).status_code == 200


def export_zip(records_by_layer: dict[str, list[dict]]) -> bytes:
    """A zip in the export format (memories.export): one note per line, checksums in the manifest."""
    from memories.export import EXPORT_FORMAT

    files = {f"{layer}.json": ("[\n" + ",\n".join(json.dumps(r) for r in records) + "\n]\n").encode()
             for layer, records in records_by_layer.items()}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        archive.writestr("manifest.json", json.dumps({
            "format": EXPORT_FORMAT,
            "files": {name: {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
                      for name, data in files.items()},
        }))
    return buffer.getvalue()


@pytest.mark.parametrize("value, code", REFUSED)
def test_R_SAVE_3_an_import_is_refused_and_nothing_is_imported(owner, eu_ws, table, value, code):
    records = [
        {"layer": "workspace", "key": "orders.status", "value": "Shipped orders are counted once.",
         "subject": subject(table)},
        {"layer": "workspace", "key": "people.note", "value": value, "subject": subject(table)},
    ]
    response = token_client(owner).post(url(eu_ws, "memories/import/"), data=export_zip({"workspace": records}),
                                        content_type="application/zip")
    assert response.status_code == 400 and response.json()["code"] == code, response.json()
    assert "line 3" in response.json()["detail"]
    assert not notes_in(eu_ws).exists()


def test_R_SAVE_3_an_import_of_general_notes_about_the_table_goes_through(owner, eu_ws, table):
    records = [{"layer": "workspace", "key": "orders.status", "value": "Shipped orders are counted once.",
                "subject": subject(table)}]
    response = token_client(owner).post(url(eu_ws, "memories/import/"), data=export_zip({"workspace": records}),
                                        content_type="application/zip")
    assert response.status_code in (200, 201), response.json()
    assert notes_in(eu_ws).count() == 1


def test_R_SAVE_3_a_table_of_another_workspace_is_no_subject_here(owner, eu_ws, us_ws):
    foreign = make_table(us_ws, owner, name="People", rows=PEOPLE)
    response = person_save(token_client(owner), eu_ws, key="people.note", value="Lunch with Ana López on Friday.",
                           subject=subject(foreign))
    assert response.status_code == 400 and response.json()["code"] == "subject_not_found"
    assert not notes_in(eu_ws).exists() and not notes_in(us_ws).exists()
