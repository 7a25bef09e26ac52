"""Exports of notes (R-MANAGE-4): a zip built in the workspace's region and served from its bucket.

The zip holds one Markdown file and one JSON file per layer, and ``manifest.json`` with the
counts and the SHA-256 of every file. Each ``<layer>.json`` is a JSON array with **one note per
line** (line 2 is the first note), so an import can name the line of a note it refuses.

Bounded memory, whatever the number of notes: the zip is written into a
``SpooledTemporaryFile`` that stays in memory up to ``SPOOL_MAX_MEMORY`` (8 MiB) and then
moves to a temporary file on disk; a layer's Markdown is buffered the same way (another 8 MiB
at most) while its JSON is written straight into the zip; notes are read ``NOTES_PER_QUERY``
at a time in one query (one consistent snapshot). The finished file is streamed to the bucket
(S3 multipart upload or a file copy), never read into memory whole.

Order of writes, so nothing is half-written (R-REGION-3): the object is stored first, then the
row is recorded; when the row cannot be written the object is deleted again. An object left
without a row (the database died in between) is removed by ``purge_exports``. Exports expire
after ``APPENDA["EXPORT_TTL"]``: ``purge_exports`` deletes them, and asking for an expired one
deletes it on the spot and answers 410.

An export is a job (``POST …/memories/export/`` creates one, ``GET …/memories/exports/{id}/``
fetches it): its ``state`` is ``building``, then ``ready`` or ``failed``. Today the zip is built in
the request that asks for it and the row is written once the zip is stored, so every row is
``ready``; a build that fails answers ``export_failed`` and leaves nothing behind. A background
build would add a ``state`` column and answer ``building`` first; the API's shape already fits.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import uuid
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from tempfile import SpooledTemporaryFile
from typing import BinaryIO

from django.conf import settings
from django.core import signing
from django.db import DatabaseError
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from appenda.db.outage import is_region_outage
from appenda.errors import DomainError, Forbidden, NotFound
from appenda.ids import parse_uuid
from appenda.storage import LINK_SALT, LocalObjectStore, store_for_region, store_name_for_workspace
from memories import instance_rules
from memories.models import Export, Layer, Note
from memories.presenters import note_json, rule_json
from memories.selectors import memory_list_visible
from workspaces.capabilities import Actor

log = logging.getLogger("appenda.exports")

EXPORT_FORMAT = "appenda-memory-export/1"
SPOOL_MAX_MEMORY = 8 * 1024 * 1024  # bytes kept in memory before a spool moves to disk
NOTES_PER_QUERY = 500
COPY_CHUNK = 1024 * 1024
LINK_TTL = timedelta(minutes=15)  # a download link lives this long (or until the export expires)
EXPORT_BUILDING, EXPORT_READY, EXPORT_FAILED = "building", "ready", "failed"
EXPORT_STATES = (EXPORT_BUILDING, EXPORT_READY, EXPORT_FAILED)


class ExportExpired(DomainError):
    status = 410
    code = "export_expired"


class ExportFailed(DomainError):
    """The zip could not be built or stored, for a reason other than an unreachable region (that is
    ``region_unavailable``); nothing was kept, and trying again may work."""

    status = 503
    code = "export_failed"


def export_state(export: Export) -> str:
    """Where an export is: a row is written only once its zip is stored, so ``ready``."""
    return EXPORT_READY


@dataclass
class ExportSummary:
    counts: dict[str, int] = field(default_factory=dict)
    files: dict[str, dict] = field(default_factory=dict)


class _HashingWriter:
    """Writes to a zip entry while counting bytes and hashing them for the manifest."""

    def __init__(self, target: BinaryIO):
        self.target = target
        self.digest = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes) -> None:
        self.target.write(data)
        self.digest.update(data)
        self.size += len(data)

    def entry(self) -> dict:
        return {"sha256": self.digest.hexdigest(), "bytes": self.size}


def _markdown_line(record: dict) -> str:
    state = " (waiting to be kept)" if record.get("state") == Note.State.HELD else ""
    pin = " 📌" if record.get("pinned") else ""
    value = str(record["value"]).replace("\n", "\n  ")  # continuation lines stay inside the item
    return f"- **{record['key']}**{pin}{state}: {value}\n"


def _records_by_layer(notes: QuerySet | Iterable[Note], rules: list[dict]) -> Iterator[tuple[str, dict]]:
    """(layer, record) pairs grouped by layer, from a single query (one consistent snapshot)."""
    if isinstance(notes, QuerySet):
        # The search vectors are not part of an export: leave them in the database.
        ordered: Iterable[Note] = notes.defer("embedding").order_by("layer", "key", "state", "id").iterator(
            chunk_size=NOTES_PER_QUERY)
    else:
        ordered = sorted(notes, key=lambda n: (n.layer, n.key, n.state, str(n.id)))
    for note in ordered:
        yield note.layer, note_json(note)
    for rule in rules:
        yield Layer.INSTANCE, rule


def write_export_zip(
    *, workspace, notes: QuerySet | Iterable[Note], out: BinaryIO, rules: list[dict] | None = None
) -> ExportSummary:
    """Writes the zip of ``notes`` (already limited to what the caller may see) into ``out``."""
    summary = ExportSummary()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        current: str | None = None
        json_entry = json_writer = markdown = None

        def finish_layer():
            json_writer.write(b"\n]\n")  # the last note keeps its own line
            json_entry.close()
            summary.files[f"{current}.json"] = json_writer.entry()
            markdown.seek(0)
            with archive.open(f"{current}.md", "w", force_zip64=True) as md_entry:
                md_writer = _HashingWriter(md_entry)
                while chunk := markdown.read(COPY_CHUNK):
                    md_writer.write(chunk)
            summary.files[f"{current}.md"] = md_writer.entry()
            markdown.close()

        for layer, record in _records_by_layer(notes, rules or []):
            if layer != current:
                if current is not None:
                    finish_layer()
                current = layer
                summary.counts[layer] = 0
                json_entry = archive.open(f"{layer}.json", "w", force_zip64=True)
                json_writer = _HashingWriter(json_entry)
                json_writer.write(b"[\n")
                markdown = SpooledTemporaryFile(max_size=SPOOL_MAX_MEMORY)
                markdown.write(f"# Appenda memory: {layer} notes\n\n".encode())
            separator = b",\n" if summary.counts[layer] else b""
            json_writer.write(separator + json.dumps(record, ensure_ascii=False).encode())
            markdown.write(_markdown_line(record).encode())
            summary.counts[layer] += 1
        if current is not None:
            finish_layer()
        manifest = {
            "format": EXPORT_FORMAT,
            "workspace": {"id": str(workspace.id), "name": workspace.name, "kind": workspace.kind,
                          "region": workspace.region},
            "exported_at": timezone.now().isoformat(),
            "counts": dict(sorted(summary.counts.items())),
            "files": dict(sorted(summary.files.items())),
            "layout": "Each <layer>.json is a JSON array with one note per line; line 2 is the first note.",
        }
        archive.writestr("manifest.json", json.dumps(manifest, ensure_ascii=False, indent=2))
    return summary


def export_zip_bytes(*, workspace, notes: list, rules: list[dict] | None = None) -> bytes:
    """The zip of ``notes`` as bytes, for small exports answered in the same response (a bot's notes)."""
    buffer = io.BytesIO()
    write_export_zip(workspace=workspace, notes=notes, rules=rules, out=buffer)
    return buffer.getvalue()


def _export_key(workspace, export_id: uuid.UUID) -> str:
    return f"workspaces/{workspace.id}/exports/{export_id}.zip"


def _file_digest(handle: BinaryIO) -> tuple[str, int]:
    handle.seek(0)
    digest, size = hashlib.sha256(), 0
    while chunk := handle.read(COPY_CHUNK):
        digest.update(chunk)
        size += len(chunk)
    handle.seek(0)
    return digest.hexdigest(), size


def memory_export_create(*, actor: Actor) -> Export:
    """Builds the caller's export in the workspace's region, stores it in the region's bucket, records it."""
    if not actor.can("memory:read"):
        raise Forbidden("Your role in this workspace does not allow reading notes, so there is nothing to export.")
    workspace = actor.workspace
    export_id = uuid.uuid4()
    key = _export_key(workspace, export_id)
    notes = memory_list_visible(actor=actor)
    rules = [rule_json(rule) for rule in instance_rules.rules_active()]
    store = store_for_region(store_name_for_workspace(workspace))
    try:
        with SpooledTemporaryFile(max_size=SPOOL_MAX_MEMORY) as spool:
            summary = write_export_zip(workspace=workspace, notes=notes, rules=rules, out=spool)
            sha256, size = _file_digest(spool)
            store.put(key, spool, content_type="application/zip")
    except Exception as exc:
        if isinstance(exc, (DomainError, DatabaseError)) or is_region_outage(exc):
            raise  # region_unavailable (503) and the database's own answers keep their codes
        log.exception("Export %s of workspace %s failed; nothing was kept.", export_id, workspace.id)
        _delete_object_quietly(store, key)
        raise ExportFailed("Building the export failed and nothing was kept; try again in a minute.",
                           id=str(export_id), state=EXPORT_FAILED) from exc
    export = Export(
        id=export_id, workspace_id=workspace.id, object_key=key, created_by_user_id=actor.person_id,
        created_by_bot_id=actor.bot.id if actor.bot else None, size=size, sha256=sha256,
        counts=summary.counts, expires_at=timezone.now() + settings.APPENDA["EXPORT_TTL"],
    )
    try:
        export.save(using=workspace.db_alias, force_insert=True)
    except Exception:
        _delete_object_quietly(store, key)  # no object without its row either, when we can help it
        raise
    return export


def _delete_object_quietly(store, key: str) -> None:
    try:
        store.delete(key)
    except Exception as exc:  # the region's store is down too: purge_exports removes it later
        log.warning("Could not delete export object %s (%s); purge_exports will.", key, exc)


def export_link(*, workspace, export: Export) -> tuple[str, datetime]:
    """A short-lived download link: a presigned URL (S3) or a signed link to our download view."""
    now = timezone.now()
    link_expires = min(now + LINK_TTL, export.expires_at)
    seconds = max(1, int((link_expires - now).total_seconds()))
    store = store_for_region(store_name_for_workspace(workspace))
    filename = f"appenda-notes-{workspace.slug}-{export.created_at:%Y%m%d-%H%M}.zip"
    if isinstance(store, LocalObjectStore):
        token = signing.dumps(
            {"r": store.region, "k": export.object_key, "f": filename, "t": seconds,
             "x": int(export.expires_at.timestamp())},
            salt=LINK_SALT,
        )
        return reverse("object-download", kwargs={"token": token}), link_expires
    return store.link(export.object_key, seconds, filename=filename), link_expires


def _delete_export(workspace, export: Export) -> None:
    """Deletes the object first, then the row: a row never outlives its object."""
    store_for_region(store_name_for_workspace(workspace)).delete(export.object_key)
    Export.objects.using(workspace.db_alias).filter(pk=export.pk).delete()


def exports_of_caller(*, actor: Actor) -> QuerySet:
    """The caller's own exports that have not expired, newest first."""
    return Export.objects.for_workspace(actor.workspace).filter(
        created_by_user_id=actor.person_id, created_by_bot_id=actor.bot.id if actor.bot else None,
        expires_at__gt=timezone.now(),
    ).order_by("-created_at", "-id")


def export_visible(*, actor: Actor, export_id) -> Export:
    """One of the caller's own exports (expired or not)."""
    export_uuid = parse_uuid(export_id)
    query = Export.objects.for_workspace(actor.workspace).filter(
        id=export_uuid, created_by_user_id=actor.person_id, created_by_bot_id=actor.bot.id if actor.bot else None,
    ) if export_uuid else None
    export = query.first() if query is not None else None
    if export is None:
        raise NotFound("No such export, or it is not yours.", code="not_found")
    return export


def export_get_for_download(*, actor: Actor, export_id) -> Export:
    """One of the caller's own exports; an expired one is deleted now and refused (410)."""
    export = export_visible(actor=actor, export_id=export_id)
    if export.expires_at <= timezone.now():
        _delete_export(actor.workspace, export)
        raise ExportExpired("This export has expired and was deleted; export again to get a new one.")
    return export


@dataclass
class PurgeOutcome:
    rows: int = 0
    orphans: int = 0
    failures: list[str] = field(default_factory=list)


def exports_purge_expired(*, workspace, now: datetime | None = None, orphan_age: timedelta | None = None) -> PurgeOutcome:
    """Deletes the workspace's expired exports (object, then row) and objects left without a row.

    An object without a row is one whose row could not be written (the region's database went
    down in between); it is deleted once it is older than ``orphan_age`` so that an export being
    written right now is never taken for one.
    """
    now = now or timezone.now()
    orphan_age = orphan_age if orphan_age is not None else timedelta(hours=1)
    outcome = PurgeOutcome()
    store = store_for_region(store_name_for_workspace(workspace))
    for export in Export.objects.for_workspace(workspace).filter(expires_at__lte=now).iterator():
        _delete_export(workspace, export)
        outcome.rows += 1
    prefix = f"workspaces/{workspace.id}/exports/"
    keys = list(store.list(prefix))
    known = set(Export.objects.for_workspace(workspace).values_list("object_key", flat=True))
    for key in keys:
        if key in known:
            continue
        if store.modified(key) <= now - orphan_age:
            store.delete(key)
            outcome.orphans += 1
    return outcome
