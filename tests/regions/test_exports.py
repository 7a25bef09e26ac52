"""Export and import of notes (R-MANAGE-4): a zip built in the region, served from its bucket,
expiring, and imported back losslessly through every refusal check."""

from __future__ import annotations

import io
import json
import time
import zipfile
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from appenda.storage import store_for_region
from memories.models import ChangeSet, Export, Note
from tests.factories import ALL_DATABASES, add_member, make_bot, make_table, token_client, url
from tests.memories.helpers import person_save, start_turn, tool_save
from tests.regions.helpers import (
    download,
    export_via_api,
    layer_records,
    one_note_per_line,
    zip_with,
)

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

ROUND_TRIP_FIELDS = ("layer", "key", "value", "pinned", "subject", "state")


def _note_set(workspace) -> set[tuple]:
    return {
        (n.layer, n.key, n.value, n.pinned, n.subject_kind, n.subject_id, n.state)
        for n in Note.objects.for_workspace(workspace).filter(trashed_at__isnull=True)
    }


def _seed(client, workspace, owner):
    table = make_table(workspace, owner)
    assert person_save(client, workspace, key="pref.tone", value="Short replies, no emoji.", pin=True).status_code == 201
    assert person_save(client, workspace, key="team.dates", value="Dates are ISO 8601.\nAlways.", layer="workspace",
                       subject={"kind": "table", "id": str(table.id)}).status_code == 201
    turn = start_turn(client, workspace)
    client.post(url(workspace, f"turns/{turn['id']}/reads/"), {"source": "web", "ref": "https://example.com"},
                format="json")
    held = tool_save(client, workspace, turn["id"], key="pref.charts", value="Blue charts please")
    assert held.json()["state"] == "held"
    return table


def test_R_MANAGE_4_export_is_stored_in_the_region_bucket_and_has_a_file_per_layer(owner, eu_ws):
    client = token_client(owner)
    _seed(client, eu_ws, owner)
    answer = export_via_api(client, eu_ws)
    assert set(answer) >= {"id", "url", "expires_at", "counts"}
    assert answer["counts"] == {"mine": 2, "workspace": 1}
    export = Export.objects.for_workspace(eu_ws).get(id=answer["id"])
    assert export.object_key == f"workspaces/{eu_ws.id}/exports/{answer['id']}.zip"
    assert export.expires_at - timezone.now() > timedelta(hours=23)
    assert export.object_key in set(store_for_region("eu").list(f"workspaces/{eu_ws.id}/"))
    assert not list(store_for_region("us").list(f"workspaces/{eu_ws.id}/"))

    data = download(client, answer["url"])
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = set(archive.namelist())
        assert names == {"manifest.json", "mine.md", "mine.json", "workspace.md", "workspace.json", "instance.json",
                         "instance.md"} or names == {"manifest.json", "mine.md", "mine.json", "workspace.md",
                                                     "workspace.json"}
        manifest = json.loads(archive.read("manifest.json"))
        import hashlib

        for name, entry in manifest["files"].items():
            assert hashlib.sha256(archive.read(name)).hexdigest() == entry["sha256"]
        assert manifest["counts"]["mine"] == 2
        markdown = archive.read("mine.md").decode()
        assert "**pref.charts**" in markdown and "(waiting to be kept)" in markdown
        lines = archive.read("mine.json").decode().splitlines()
        assert lines[0] == "[" and lines[-1] == "]" and json.loads(lines[1].rstrip(","))["layer"] == "mine"


def test_R_MANAGE_4_export_holds_only_what_the_caller_may_see(owner, eu_ws):
    person_save(token_client(owner), eu_ws, key="pref.private", value="Owner's own preference.")
    viewer = add_member(eu_ws, "viewer@example.com", "viewer")
    viewer_client = token_client(viewer)
    person_save(viewer_client, eu_ws, key="pref.viewer", value="Viewer likes tables.")
    records = layer_records(download(viewer_client, export_via_api(viewer_client, eu_ws)["url"]))
    assert [r["key"] for r in records["mine"]] == ["pref.viewer"]


def test_R_MANAGE_4_import_round_trips_losslessly_as_one_change_set(owner, eu_ws):
    client = token_client(owner)
    _seed(client, eu_ws, owner)
    before = _note_set(eu_ws)
    data = download(client, export_via_api(client, eu_ws)["url"])
    Note.objects.for_workspace(eu_ws).delete()

    answer = client.post(url(eu_ws, "memories/import/"), data=data, content_type="application/zip")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["imported"] == 3
    assert answer.json()["held"] == sum(1 for note in before if note[-1] == "held") >= 1
    assert _note_set(eu_ws) == before
    assert set(Note.objects.for_workspace(eu_ws).values_list("origin", flat=True)) == {"import"}
    change = ChangeSet.objects.for_workspace(eu_ws).get(id=answer.json()["change"])
    assert change.action == "import" and change.changes.count() == 3

    # Importing the same zip again changes nothing: the same notes, updated in place.
    again = client.post(url(eu_ws, "memories/import/"), {"file": io.BytesIO(data)}, format="multipart")
    assert again.status_code == 201, again.json()
    assert _note_set(eu_ws) == before


def test_R_MANAGE_4_a_refused_note_refuses_the_whole_import_naming_file_and_line(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="pref.keep", value="Already here.")
    records = [
        {"layer": "mine", "key": "pref.one", "value": "Fine note.", "pinned": False, "state": "active"},
        {"layer": "mine", "key": "ops.deploy", "value": "token ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
         "pinned": False, "state": "active"},
    ]
    zip_bytes = zip_with({"mine.json": one_note_per_line(records)})
    answer = client.post(url(eu_ws, "memories/import/"), data=zip_bytes, content_type="application/zip")
    assert answer.status_code == 400, answer.json()
    body = answer.json()
    assert body["code"] == "secret_detected" and body["file"] == "mine.json" and body["line"] == 3
    assert "mine.json line 3" in body["detail"] and "ghp_" not in body["detail"]
    assert {n.key for n in Note.objects.for_workspace(eu_ws)} == {"pref.keep"}


def test_R_MANAGE_4_import_applies_the_layer_rules_of_the_caller(owner, eu_ws):
    """A viewer may not write the workspace layer by hand, so not by import either."""
    viewer = token_client(add_member(eu_ws, "viewer@example.com", "viewer"))
    records = [{"layer": "workspace", "key": "team.tone", "value": "Formal replies.", "pinned": False,
                "state": "active"}]
    answer = viewer.post(url(eu_ws, "memories/import/"),
                         data=zip_with({"mine.json": one_note_per_line([]),
                                        "workspace.json": one_note_per_line(records)}),
                         content_type="application/zip")
    assert answer.status_code == 400 and answer.json()["code"] == "layer_not_allowed"
    assert answer.json()["file"] == "workspace.json" and answer.json()["line"] == 2
    assert not Note.objects.for_workspace(eu_ws).exists()


def test_R_MANAGE_4_a_changed_file_fails_its_checksum(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="pref.tone", value="Short.")
    data = download(client, export_via_api(client, eu_ws)["url"])
    source = zipfile.ZipFile(io.BytesIO(data))
    tampered = io.BytesIO()
    with zipfile.ZipFile(tampered, "w") as archive:
        for name in source.namelist():
            content = source.read(name)
            archive.writestr(name, content.replace(b"Short.", b"Long!!") if name == "mine.json" else content)
    answer = client.post(url(eu_ws, "memories/import/"), data=tampered.getvalue(), content_type="application/zip")
    assert answer.status_code == 400 and answer.json()["code"] == "import_checksum_mismatch"
    not_a_zip = client.post(url(eu_ws, "memories/import/"), data=b"hello", content_type="application/zip")
    assert not_a_zip.status_code == 400 and not_a_zip.json()["code"] == "invalid_import"


def test_R_AGENT_5_bots_neither_export_nor_import(owner, eu_ws):
    _, key = make_bot(eu_ws, owner)
    bot = token_client(key)
    exported = bot.post(url(eu_ws, "memories/export/"))
    assert exported.status_code == 403 and exported.json()["code"] == "person_required"
    listed = bot.get(url(eu_ws, "memories/exports/"))
    assert listed.status_code == 403 and listed.json()["code"] == "person_required"
    refused = bot.post(url(eu_ws, "memories/import/"), data=zip_with({}), content_type="application/zip")
    assert refused.status_code == 403 and refused.json()["code"] == "person_required"
    assert not Export.objects.for_workspace(eu_ws).exists()


def test_R_MANAGE_4_an_export_is_created_by_post_then_fetched_by_get(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="pref.tone", value="Short replies.")
    created = client.post(url(eu_ws, "memories/export/"))
    assert created.status_code == 201, created.content
    answer = created.json()
    assert answer["state"] == "ready" and answer["counts"]["mine"] == 1
    assert set(answer) >= {"id", "state", "url", "url_expires_at", "created_at", "expires_at", "size", "sha256"}
    assert created["Location"].endswith(f"/memories/exports/{answer['id']}/")
    fetched = client.get(url(eu_ws, f"memories/exports/{answer['id']}/"))
    assert fetched.status_code == 200
    again = fetched.json()
    assert {k: again[k] for k in ("id", "state", "counts", "size", "sha256", "expires_at")} == {
        k: answer[k] for k in ("id", "state", "counts", "size", "sha256", "expires_at")}
    assert again["url"] and again["url_expires_at"]
    assert layer_records(download(client, again["url"]))["mine"][0]["value"] == "Short replies."
    assert Export.objects.for_workspace(eu_ws).count() == 1  # fetching it built nothing new


def test_R_MANAGE_4_get_on_export_writes_nothing_and_answers_405(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="pref.tone", value="Short replies.")
    objects_before = set(store_for_region("eu").list(f"workspaces/{eu_ws.id}/"))
    for _ in range(2):
        response = client.get(url(eu_ws, "memories/export/"))
        assert response.status_code == 405, response.content
        assert response.json()["code"] == "method_not_allowed" and "POST" in response.json()["detail"]
    assert not Export.objects.for_workspace(eu_ws).exists()
    assert set(store_for_region("eu").list(f"workspaces/{eu_ws.id}/")) == objects_before
    assert not list(store_for_region("eu").list(f"workspaces/{eu_ws.id}/exports/"))


def test_R_MANAGE_4_the_exports_list_shows_only_the_callers_own(owner, eu_ws, us_ws):
    client = token_client(owner)
    editor = add_member(eu_ws, "editor@example.com", "editor")
    editor_client = token_client(editor)
    first, second = export_via_api(client, eu_ws), export_via_api(client, eu_ws)
    theirs = export_via_api(editor_client, eu_ws)
    export_via_api(client, us_ws)  # another workspace's export is not listed here
    listed = client.get(url(eu_ws, "memories/exports/"))
    assert listed.status_code == 200
    page = listed.json()
    assert set(page) == {"count", "next", "previous", "results"}
    assert page["count"] == 2 and [e["id"] for e in page["results"]] == [second["id"], first["id"]]
    assert all(e["state"] == "ready" and "url" not in e for e in page["results"])
    assert [e["id"] for e in editor_client.get(url(eu_ws, "memories/exports/")).json()["results"]] == [theirs["id"]]
    one = client.get(url(eu_ws, "memories/exports/"), {"limit": 1, "offset": 1}).json()
    assert one["count"] == 2 and [e["id"] for e in one["results"]] == [first["id"]] and one["previous"]
    assert client.get(url(eu_ws, "memories/exports/"), {"limit": 0}).json()["code"] == "invalid_filter"
    # An expired export is no longer listed.
    Export.objects.for_workspace(eu_ws).filter(id=first["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert [e["id"] for e in client.get(url(eu_ws, "memories/exports/")).json()["results"]] == [second["id"]]


def test_R_MANAGE_4_an_export_that_fails_to_build_keeps_nothing_and_says_so(owner, eu_ws, monkeypatch):
    import memories.export as export_module

    client = token_client(owner)
    person_save(client, eu_ws, key="pref.tone", value="Short replies.")

    def broken(**kwargs):
        raise OSError("No space left on device")

    monkeypatch.setattr(export_module, "write_export_zip", broken)
    response = client.post(url(eu_ws, "memories/export/"))
    assert response.status_code == 503, response.content
    body = response.json()
    assert body["code"] == "export_failed" and body["state"] == "failed" and body["id"]
    assert not Export.objects.for_workspace(eu_ws).exists()
    assert not list(store_for_region("eu").list(f"workspaces/{eu_ws.id}/exports/"))


def test_R_MANAGE_4_an_expired_export_is_refused_and_deleted_lazily(owner, eu_ws):
    client = token_client(owner)
    person_save(client, eu_ws, key="pref.tone", value="Short.")
    answer = export_via_api(client, eu_ws)
    export = Export.objects.for_workspace(eu_ws).get(id=answer["id"])
    fresh = client.get(url(eu_ws, f"memories/exports/{export.id}/"))
    assert fresh.status_code == 200 and fresh.json()["id"] == str(export.id)
    Export.objects.for_workspace(eu_ws).filter(id=export.id).update(expires_at=timezone.now() - timedelta(seconds=1))
    gone = client.get(url(eu_ws, f"memories/exports/{export.id}/"))
    assert gone.status_code == 410 and gone.json()["code"] == "export_expired"
    assert not Export.objects.for_workspace(eu_ws).filter(id=export.id).exists()
    assert export.object_key not in set(store_for_region("eu").list(f"workspaces/{eu_ws.id}/"))


def test_R_MANAGE_4_someone_else_cannot_fetch_my_export(owner, eu_ws, us_ws):
    client = token_client(owner)
    answer = export_via_api(client, eu_ws)
    editor = token_client(add_member(eu_ws, "editor@example.com", "editor"))
    assert editor.get(url(eu_ws, f"memories/exports/{answer['id']}/")).status_code == 404
    # Cross-region: the id of an eu export asked for in the us workspace is not found.
    assert client.get(url(us_ws, f"memories/exports/{answer['id']}/")).status_code == 404


def test_R_MANAGE_4_purge_exports_deletes_expired_exports_and_orphan_objects(owner, eu_ws, us_ws):
    client = token_client(owner)
    old = export_via_api(client, eu_ws)
    kept = export_via_api(client, us_ws)
    Export.objects.for_workspace(eu_ws).filter(id=old["id"]).update(expires_at=timezone.now() - timedelta(minutes=1))
    orphan_key = f"workspaces/{eu_ws.id}/exports/00000000-0000-0000-0000-000000000000.zip"
    store_for_region("eu").put(orphan_key, b"left behind when the database died")
    out = io.StringIO()
    call_command("purge_exports", "--orphan-age-minutes", "0", stdout=out)
    assert not Export.objects.for_workspace(eu_ws).exists()
    assert Export.objects.for_workspace(us_ws).filter(id=kept["id"]).exists()
    assert not list(store_for_region("eu").list(f"workspaces/{eu_ws.id}/exports/"))
    assert len(list(store_for_region("us").list(f"workspaces/{us_ws.id}/exports/"))) == 1
    assert "1 expired" in out.getvalue()


def test_R_MANAGE_4_large_exports_stream_within_the_stated_bound(owner, eu_ws, monkeypatch, capsys):
    """3,000 notes of ~0.9 KB of poorly compressible text: with the spool's bound lowered to 1 MiB the
    zip (about 2.7 MB) goes to disk and the export's peak Python memory stays a few MiB."""
    import random
    import string
    import tracemalloc

    from memories import export as export_module
    from workspaces.capabilities import actor_for

    rng = random.Random(4)
    words = ["".join(rng.choices(string.ascii_lowercase, k=rng.randint(3, 9))) for _ in range(5000)]
    notes = [Note(workspace_id=eu_ws.id, layer="workspace", scope="workspace", key=f"fact.{i:05d}",
                  value=" ".join(rng.choices(words, k=120))[:900], origin="person") for i in range(3_000)]
    Note.objects.using(eu_ws.db_alias).bulk_create(notes, batch_size=1000)
    del notes
    monkeypatch.setattr(export_module, "SPOOL_MAX_MEMORY", 1024 * 1024)
    rolled = []
    real_spool = export_module.SpooledTemporaryFile

    def watched_spool(*args, **kwargs):
        spool = real_spool(*args, **kwargs)
        rolled.append(spool)
        return spool

    monkeypatch.setattr(export_module, "SpooledTemporaryFile", watched_spool)
    started = time.perf_counter()
    tracemalloc.start()
    export = export_module.memory_export_create(actor=actor_for(owner, eu_ws))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    elapsed = time.perf_counter() - started
    assert export.counts == {"workspace": 3_000}
    assert export.size > 2 * 1024 * 1024 and rolled[0]._rolled  # the zip went to disk, not memory
    with capsys.disabled():
        print(f"\nexport of 3000 notes: {export.size / 1e6:.1f} MB zip stored in {elapsed:.1f} s "
              f"(traced), peak Python memory {peak / 1e6:.1f} MB with a 1 MiB spool bound")
    assert peak < 12 * 1024 * 1024
