"""R-REGION-1: a cloud workspace's data lives only in its region's database and bucket; R-REGION-2:
control data lives only in the control database.

A realistic workload runs for an ``eu`` workspace and a ``us`` workspace through the API (tables
and records, turns and reads, saves, holds, keeps, edits, deletes, a search, an export). Then
every table of each region's database, enumerated from the database's own catalog (so a new
model cannot slip past a hand-kept list), and every object of each region's bucket (zips opened)
is read: nothing of the other region's workspace may be there, not its id, not its text.
"""

from __future__ import annotations

import io
import uuid
import zipfile
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.db import connections

from appenda.storage import store_for_region
from memories.models import Note
from tests.factories import ALL_DATABASES, make_workspace, token_client, url
from tests.memories.helpers import keep_seen, person_save, start_turn, tool_save, tool_search
from tests.regions.helpers import export_via_api
from workspaces.models import Membership, Workspace

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

# One made-up word per region: every text the workload writes carries it.
WORDS = {"eu": "Edelweissor", "us": "Sequoianth"}
COLUMNS = [{"name": "name", "kind": "person"}, {"name": "email", "kind": "email"},
           {"name": "status", "kind": "text"}, {"name": "plan", "kind": "text"}]


def run_workload(client, workspace, word: str) -> None:
    low = word.lower()
    table = client.post(url(workspace, "tables/"), {"name": f"{word} accounts", "columns": COLUMNS}, format="json")
    assert table.status_code == 201, table.json()
    table_id = table.json()["id"]
    added = client.post(url(workspace, f"tables/{table_id}/records/"), {"records": [
        {"name": f"{word}ina Brightwater", "email": f"{low}@example.org", "status": f"{low}-active", "plan": f"{word} Pro"},
        {"name": f"Tom {word}son", "email": f"tom.{low}@example.org", "status": "churned", "plan": f"{word} Free"},
    ]}, format="json")
    assert added.status_code == 201, added.json()

    tainted = start_turn(client, workspace, chat_id=f"{low}-chat-1", table=table_id)
    read = client.post(url(workspace, f"turns/{tainted['id']}/reads/"),
                       {"source": "web", "ref": f"https://{low}.example/pricing"}, format="json")
    assert read.status_code == 201, read.json()
    held = tool_save(client, workspace, tainted["id"], key=f"{low}.charts", value=f"{word} charts use blue bars.")
    assert held.status_code == 201 and held.json()["state"] == "held", held.json()
    assert keep_seen(client, workspace, held.json()["id"]).status_code == 200

    clean = start_turn(client, workspace, chat_id=f"{low}-chat-2")
    saved = tool_save(client, workspace, clean["id"], key=f"{low}.units", value=f"{word} reports use metric units.")
    assert saved.status_code == 201, saved.json()
    assert tool_search(client, workspace, clean["id"], f"{word} metric units").status_code == 200

    team = person_save(client, workspace, key=f"{low}.team", value=f"{word} team meets on Mondays.",
                       layer="workspace", subject={"kind": "table", "id": table_id})
    assert team.status_code == 201, team.json()
    edited = client.patch(url(workspace, f"memories/{team.json()['id']}/"),
                          {"value": f"{word} team meets on Tuesdays.", "pinned": True}, format="json")
    assert edited.status_code == 200, edited.json()
    temp = person_save(client, workspace, key=f"{low}.temp", value=f"{word} temporary note.")
    assert client.delete(url(workspace, f"memories/{temp.json()['id']}/")).status_code == 204

    export = export_via_api(client, workspace)
    assert export["counts"]


def needles(workspace, word: str) -> list[str]:
    return [str(workspace.id), workspace.id.hex, word.lower()]


def _as_text(value) -> str:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("latin-1")
    if isinstance(value, uuid.UUID):
        return f"{value} {value.hex}"
    return str(value)


def database_texts(alias: str) -> Iterator[tuple[str, str]]:
    """(table, text of one row) for every row of every table the database's catalog lists."""
    connection = connections[alias]
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor, include_views=True)
        assert "memories_note" in tables and "tables_record" in tables, tables
        for table in tables:
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            for row in cursor.fetchall():
                yield table, " ".join(_as_text(value) for value in row).lower()


def bucket_texts(region: str) -> Iterator[tuple[str, str]]:
    """(object key, text) for every object of the region's bucket; zips are opened."""
    store = store_for_region(region)
    for key in store.list(""):
        data = store.get(key)
        yield key, key.lower()
        yield key, data.decode("latin-1").lower()
        if zipfile.is_zipfile(io.BytesIO(data)):
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                for name in archive.namelist():
                    yield f"{key}!{name}", archive.read(name).decode("utf-8", "replace").lower()


def leaks(texts: Iterator[tuple[str, str]], words: list[str]) -> list[tuple[str, str]]:
    return [(where, word) for where, text in texts for word in words if word.lower() in text]


def test_R_REGION_1_no_row_or_object_of_a_workspace_reaches_the_other_region(owner, settings):
    workspaces = {region: make_workspace(owner, name=f"{WORDS[region]} workspace", region=region)
                  for region in ("eu", "us")}
    client = token_client(owner)
    for region, workspace in workspaces.items():
        run_workload(client, workspace, WORDS[region])

    for region, workspace in workspaces.items():
        own_alias = settings.REGION_DB_ALIASES[region]
        other = "us" if region == "eu" else "eu"
        other_alias = settings.REGION_DB_ALIASES[other]
        words = needles(workspace, WORDS[region])
        # The scan is not vacuous: it finds the workspace's data where it belongs…
        found_home = {where for where, _ in leaks(database_texts(own_alias), words)}
        assert {"memories_note", "memories_turn", "memories_turnread", "memories_changeset", "memories_notechange",
                "memories_export", "tables_table", "tables_record"} <= found_home, found_home
        assert leaks(bucket_texts(region), words), f"the {region} export is not in the {region} bucket"
        # …and nowhere in the other region.
        assert leaks(database_texts(other_alias), words) == [], f"{region} data in the {other} database"
        assert leaks(bucket_texts(other), words) == [], f"{region} data in the {other} bucket"


def test_R_REGION_1_the_control_database_holds_no_region_table(db):
    connection = connections["default"]
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
    assert not [t for t in tables if t.startswith(("memories_", "tables_"))]


def test_R_REGION_2_control_data_lives_in_the_control_database_and_regions_refer_to_it_by_id(owner, eu_ws, us_ws):
    control = ("auth_user", "workspaces_workspace", "workspaces_membership", "workspaces_bot",
               "workspaces_instancerule", "workspaces_apitoken")
    connection = connections["default"]
    with connection.cursor() as cursor:
        assert set(control) <= set(connection.introspection.table_names(cursor))
    assert Workspace.objects.filter(pk=eu_ws.pk).exists() and Membership.objects.filter(workspace=eu_ws).exists()
    for alias in settings.REGION_DB_ALIASES.values():
        region = connections[alias]
        with region.cursor() as cursor:
            tables = region.introspection.table_names(cursor)
            for table in control:
                if table in tables:  # the schema may be migrated everywhere; the rows are not
                    cursor.execute(f"SELECT count(*) FROM {region.ops.quote_name(table)}")
                    assert cursor.fetchone()[0] == 0, f"{table} has rows in {alias}"
    # Region rows hold the workspace's id, not a foreign key into another database.
    assert not Note._meta.get_field("workspace_id").is_relation
