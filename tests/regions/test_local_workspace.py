"""Local workspaces (R-REGION-4): the region data is one SQLCipher file, unreadable without the key,
served by the same API, backed up by copying the file."""

from __future__ import annotations

import shutil
import uuid

import pytest
import sqlcipher3  # noqa: E402 - a dependency (sqlcipher3-binary): a missing one must fail, not skip
from django.db import connections

from appenda.db.local import (
    local_alias,
    local_database_forget,
    local_database_settings,
    local_path,
    register_alias,
)
from memories.models import Note
from tests.factories import ALL_DATABASES, make_table, token_client, url
from tests.memories.helpers import context_keys, person_save, start_turn, tool_save, tool_search
from workspaces.models import Workspace

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

PASSPHRASE = "correct horse battery staple"
KEY = "pref.zanzibar_marker"
VALUE = "Quarterly figures use the Quillwort convention."


@pytest.fixture
def passphrase(settings):
    settings.APPENDA_LOCAL_PASSPHRASE = PASSPHRASE
    yield PASSPHRASE
    for alias in [a for a in connections.settings if a.startswith("local_")]:
        local_database_forget(alias)


def create_local(client, name="My laptop") -> Workspace:
    response = client.post("/api/v1/workspaces/", {"name": name, "kind": "local"}, format="json")
    assert response.status_code == 201, response.json()
    return Workspace.objects.get(id=response.json()["id"])


def test_R_REGION_4_a_local_workspace_is_one_file_without_plaintext(owner, passphrase, settings):
    client = token_client(owner)
    workspace = create_local(client)
    table = make_table(workspace, owner, name="Zanzibar ledger")
    assert person_save(client, workspace, key=KEY, value=VALUE, layer="workspace",
                       subject={"kind": "table", "id": str(table.id)}).status_code == 201
    turn = start_turn(client, workspace)
    client.post(url(workspace, f"turns/{turn['id']}/reads/"), {"source": "web", "ref": "https://quillwort.example"},
                format="json")

    folder = local_path(workspace.id).parent
    assert sorted(p.name for p in folder.iterdir() if p.is_file()) == [f"{workspace.id.hex}.db"]
    data = local_path(workspace.id).read_bytes()
    assert not data.startswith(b"SQLite format 3")
    for text in (KEY, VALUE, "Quillwort", "zanzibar", "Zanzibar ledger", "quillwort.example", str(workspace.id),
                 workspace.id.hex):
        assert text.encode() not in data, text
        assert text.encode("utf-16-le") not in data, text
    # Nothing of it reached the regions' databases either.
    for alias in settings.REGION_DB_ALIASES.values():
        assert not Note.objects.using(alias).filter(workspace_id=workspace.id).exists()


def test_R_REGION_4_the_same_api_serves_a_local_workspace(owner, passphrase):
    client = token_client(owner)
    workspace = create_local(client)
    saved = person_save(client, workspace, key="pref.units", value="Metric units in every report.", pin=True)
    assert saved.status_code == 201 and saved.json()["state"] == "active"
    turn = start_turn(client, workspace)
    assert "pref.units" in context_keys(turn)
    found = tool_search(client, workspace, turn["id"], "metric units report").json()
    assert [n["key"] for n in found["notes"]] == ["pref.units"]
    assert tool_save(client, workspace, turn["id"], key="pref.tone", value="Short replies.").status_code == 201
    note_id = saved.json()["id"]
    assert client.patch(url(workspace, f"memories/{note_id}/"), {"value": "Metric, always."},
                        format="json").status_code == 200
    listed = client.get(url(workspace, "memories/")).json()["results"]
    assert {n["key"]: n["value"] for n in listed if n["layer"] != "instance"} == {
        "pref.units": "Metric, always.", "pref.tone": "Short replies."}
    export = client.post(url(workspace, "memories/export/"))
    assert export.status_code == 201 and export.json()["counts"]["mine"] == 2
    assert client.delete(url(workspace, f"memories/{note_id}/")).status_code == 204
    assert Note.objects.for_workspace(workspace).count() == 1


def test_R_REGION_4_a_wrong_passphrase_fails_with_a_clear_message(owner, passphrase, settings):
    client = token_client(owner)
    workspace = create_local(client)
    person_save(client, workspace, key=KEY, value=VALUE)
    local_database_forget(workspace.db_alias)

    settings.APPENDA_LOCAL_PASSPHRASE = "not the right passphrase"
    refused = client.get(url(workspace, "memories/"))
    assert refused.status_code == 503, refused.json()
    assert refused.json()["code"] == "local_workspace_locked"
    assert "cannot be opened with this passphrase" in refused.json()["detail"]
    # The raw file does not open with a wrong key either, not even its catalog.
    raw = sqlcipher3.connect(str(local_path(workspace.id)))
    raw.execute("PRAGMA key = 'not the right passphrase'")
    with pytest.raises(sqlcipher3.DatabaseError, match="not a database"):
        raw.execute("SELECT name FROM sqlite_master").fetchall()
    raw.close()

    local_database_forget(workspace.db_alias)
    settings.APPENDA_LOCAL_PASSPHRASE = PASSPHRASE
    assert client.get(url(workspace, "memories/")).status_code == 200


def test_R_REGION_4_backup_is_a_copy_of_the_file(owner, passphrase, tmp_path):
    client = token_client(owner)
    workspace = create_local(client)
    person_save(client, workspace, key=KEY, value=VALUE)
    backup = tmp_path / "backup" / "laptop.db"
    backup.parent.mkdir()
    shutil.copyfile(local_path(workspace.id), backup)

    alias = register_alias(f"local_{uuid.uuid4().hex}", local_database_settings(workspace.id, path=backup))
    try:
        restored = Note.objects.using(alias).get(workspace_id=workspace.id, key=KEY)
        assert restored.value == VALUE
    finally:
        local_database_forget(alias)
    assert local_alias(workspace.id) == workspace.db_alias


def test_R_REGION_4_no_passphrase_no_local_workspace(owner, settings, monkeypatch):
    settings.APPENDA_LOCAL_PASSPHRASE = None
    monkeypatch.delenv("APPENDA_LOCAL_PASSPHRASE", raising=False)
    response = token_client(owner).post("/api/v1/workspaces/", {"name": "Laptop", "kind": "local"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "local_passphrase_missing"
    assert not Workspace.objects.filter(name="Laptop").exists()


def test_R_REGION_4_a_local_workspace_is_404_to_others(owner, passphrase, eu_ws):
    from tests.factories import make_user

    workspace = create_local(token_client(owner))
    stranger = token_client(make_user("stranger@example.com"))
    assert stranger.get(url(workspace, "memories/")).status_code == 404
