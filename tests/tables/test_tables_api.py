"""Tables and records: typed columns, bulk and CSV import, bad input, region routing."""

from __future__ import annotations

import pytest
from django.db import connections

from tables.models import Record, Table
from tests.factories import ALL_DATABASES, add_member, token_client, url

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

COLUMNS = [{"name": "name", "kind": "person"}, {"name": "email", "kind": "email"},
           {"name": "signed_up", "kind": "date"}, {"name": "seats", "kind": "number"}]


def create_table(client, workspace, name="Customers"):
    response = client.post(url(workspace, "tables/"), {"name": name, "columns": COLUMNS}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_tables_and_records_round_trip(owner, eu_ws):
    client = token_client(owner)
    table = create_table(client, eu_ws)
    assert [c["kind"] for c in table["columns"]] == ["person", "email", "date", "number"]
    added = client.post(url(eu_ws, f"tables/{table['id']}/records/"), {"records": [
        {"name": "Ana Lopez", "email": "ana@example.com", "signed_up": "2024-05-31", "seats": 3},
        {"name": "Kenji Sato", "email": "kenji@example.com", "seats": "7"},
    ]}, format="json")
    assert added.status_code == 201 and added.json()["created"] == 2
    listed = client.get(url(eu_ws, f"tables/{table['id']}/records/")).json()
    assert listed["count"] == 2
    assert {r["values"]["seats"] for r in listed["results"]} == {3, 7}


@pytest.mark.parametrize(
    "record, code",
    [({"name": "A", "seats": "many"}, "invalid_value"), ({"name": "A", "signed_up": "31/05/2024"}, "invalid_value"),
     ({"name": "A", "email": "not-an-email"}, "invalid_value"), ({"nickname": "A"}, "unknown_column")],
)
def test_a_bad_record_refuses_the_whole_batch(owner, eu_ws, record, code):
    client = token_client(owner)
    table = create_table(client, eu_ws)
    response = client.post(url(eu_ws, f"tables/{table['id']}/records/"),
                           {"records": [{"name": "Fine Person"}, record]}, format="json")
    assert response.status_code == 400 and response.json()["code"] == code
    assert "Record 2" in response.json()["detail"]
    assert Record.objects.for_workspace(eu_ws).count() == 0


def test_csv_import_and_a_wrong_header(owner, eu_ws):
    client = token_client(owner)
    table = create_table(client, eu_ws)
    good = client.post(url(eu_ws, f"tables/{table['id']}/records/import/"),
                       data="name,email,seats\nAna Lopez,ana@example.com,2\nLi Wei,li@example.com,4\n",
                       content_type="text/csv")
    assert good.status_code == 201 and good.json()["created"] == 2
    bad = client.post(url(eu_ws, f"tables/{table['id']}/records/import/"), data="nom,courriel\nA,b\n",
                      content_type="text/csv")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_csv_header"
    assert Record.objects.for_workspace(eu_ws).count() == 2


def test_unknown_column_kind_is_refused(owner, eu_ws):
    response = token_client(owner).post(url(eu_ws, "tables/"), {"name": "T", "columns": [{"name": "a", "kind": "blob"}]},
                                        format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_column_kind"


def test_viewers_read_but_cannot_write_tables(owner, eu_ws):
    table = create_table(token_client(owner), eu_ws)
    viewer = token_client(add_member(eu_ws, "viewer@example.com", "viewer"))
    assert viewer.get(url(eu_ws, f"tables/{table['id']}/records/")).status_code == 200
    assert viewer.post(url(eu_ws, "tables/"), {"name": "X", "columns": COLUMNS}, format="json").status_code == 403
    refused = viewer.post(url(eu_ws, f"tables/{table['id']}/records/"), {"records": [{"name": "A"}]}, format="json")
    assert refused.status_code == 403


def test_R_REGION_1_an_eu_table_and_its_records_live_in_the_eu_database_only(owner, eu_ws):
    client = token_client(owner)
    table = create_table(client, eu_ws)
    client.post(url(eu_ws, f"tables/{table['id']}/records/"), {"records": [{"name": "Ana Lopez"}]}, format="json")
    for alias, expected in (("region_eu", 1), ("region_us", 0)):
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM tables_table WHERE name = %s", ["Customers"])
            assert cursor.fetchone()[0] == expected
            cursor.execute("SELECT COUNT(*) FROM tables_record")
            assert cursor.fetchone()[0] == expected
    with connections["default"].cursor() as cursor:
        tables = connections["default"].introspection.table_names(cursor)
    assert "tables_table" not in tables and "memories_note" not in tables


def test_a_region_query_without_a_database_fails_closed(eu_ws):
    from appenda.db.router import UnroutedRegionQuery

    with pytest.raises(UnroutedRegionQuery):
        list(Table.objects.all())


def test_tables_of_another_workspace_are_404(owner, eu_ws, us_ws):
    table = create_table(token_client(owner), us_ws)
    response = token_client(owner).get(url(eu_ws, f"tables/{table['id']}/records/"))
    assert response.status_code == 404
