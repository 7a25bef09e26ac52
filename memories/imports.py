"""Import of an export zip (R-MANAGE-4): the notes come back losslessly, and every refusal applies.

Every note goes through the one save pipeline, ``memories.services.memory_save(origin="import")``,
so a secret, a person of a table, a layer the caller may not write… is refused exactly as when
it is saved by hand. The import is all or nothing: one transaction on the workspace's database;
the first refused note answers 400 naming its file, its line and the refusal's code, and nothing
is imported. The notes imported together become one change set (``import``), undone as one.

What comes back: layer, key, value, pinned, subject and state. A note exported while held
(waiting to be kept) comes back held: it passes the pipeline's checks like any other note, and
when the pipeline would save it at once the save is rolled back and the note is written held,
with its own change set, so the person still has to keep it.

Not imported, and counted under ``skipped``: the ``instance`` layer (required rules belong to the
instance, not the workspace; instance admins manage them) and the ``conversation`` layer (those
notes belong to a messaging conversation and are written by its turns only).

The upload is read in chunks into a temporary file (8 MiB in memory, then disk) of at most
``MAX_IMPORT_BYTES``; the zip's JSON files are read line by line.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass, field
from tempfile import SpooledTemporaryFile
from typing import BinaryIO

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from appenda.errors import DomainError, Forbidden
from memories.audit import change_set_record, note_snapshot
from memories.export import COPY_CHUNK, EXPORT_FORMAT, SPOOL_MAX_MEMORY
from memories.models import ChangeSet, Layer, Note, NoteChange
from memories.search.vectors import note_index_refresh
from memories.services import memory_save
from workspaces.capabilities import Actor

MAX_IMPORT_BYTES = 100 * 1024 * 1024
IMPORTED_LAYERS = (Layer.MINE, Layer.WORKSPACE, Layer.BOT)
SKIPPED_LAYERS = (Layer.INSTANCE, Layer.CONVERSATION)


class ImportRefused(DomainError):
    status = 400
    code = "invalid_import"


class ImportTooLarge(DomainError):
    status = 413
    code = "import_too_large"


@dataclass
class ImportOutcome:
    imported: int = 0
    held: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    change_set: ChangeSet | None = None


class _WriteHeld(Exception):
    """Rolls back the pipeline's immediate save of a note that was exported held."""

    def __init__(self, note: Note):
        self.note = note


def spool_upload(stream: BinaryIO, *, limit: int = MAX_IMPORT_BYTES) -> SpooledTemporaryFile:
    """Copies an upload into a temporary file (bounded memory), refusing one larger than ``limit``."""
    spool = SpooledTemporaryFile(max_size=SPOOL_MAX_MEMORY)
    total = 0
    while chunk := stream.read(COPY_CHUNK):
        total += len(chunk)
        if total > limit:
            spool.close()
            raise ImportTooLarge(f"The file is larger than {limit // (1024 * 1024)} MiB; split the export.")
        spool.write(chunk)
    spool.seek(0)
    return spool


def _open_archive(upload: BinaryIO) -> tuple[zipfile.ZipFile, dict]:
    try:
        archive = zipfile.ZipFile(upload)
    except zipfile.BadZipFile:
        raise ImportRefused("This is not a zip file; import the zip that Export gave you.") from None
    try:
        manifest = json.loads(archive.read("manifest.json"))
    except KeyError:
        raise ImportRefused("The zip has no manifest.json, so it is not an Appenda export.") from None
    except ValueError:
        raise ImportRefused("manifest.json is not valid JSON.", file="manifest.json") from None
    if not isinstance(manifest, dict) or manifest.get("format") != EXPORT_FORMAT:
        raise ImportRefused(f"manifest.json does not describe an {EXPORT_FORMAT} export.", file="manifest.json")
    if not isinstance(manifest.get("files"), dict):
        raise ImportRefused("manifest.json lists no files.", file="manifest.json")
    return archive, manifest


def _check_checksums(archive: zipfile.ZipFile, manifest: dict) -> None:
    for name, entry in manifest["files"].items():
        try:
            digest = hashlib.sha256()
            with archive.open(name) as handle:
                while chunk := handle.read(COPY_CHUNK):
                    digest.update(chunk)
        except KeyError:
            raise ImportRefused(f"{name} is listed in manifest.json but missing from the zip.", file=name) from None
        if not isinstance(entry, dict) or digest.hexdigest() != entry.get("sha256"):
            raise ImportRefused(
                f"{name} does not match its checksum in manifest.json: the file was changed or damaged.",
                code="import_checksum_mismatch", file=name,
            )


def _records(archive: zipfile.ZipFile, name: str):
    """(line number, record) for each note of a layer file: a JSON array with one note per line."""
    with io.TextIOWrapper(archive.open(name), encoding="utf-8") as text:
        for number, line in enumerate(text, start=1):
            line = line.strip()
            if line in ("[", "]", ""):
                continue
            try:
                record = json.loads(line.removesuffix(","))
            except ValueError:
                raise ImportRefused(f"{name} line {number} is not one note in JSON.", file=name, line=number) from None
            if not isinstance(record, dict):
                raise ImportRefused(f"{name} line {number} is not one note in JSON.", file=name, line=number)
            yield number, record


def _check_record(name: str, number: int, layer: str, record: dict) -> None:
    if record.get("layer") != layer:
        raise ImportRefused(f"{name} line {number}: a note of layer {record.get('layer')!r} in the {layer} file.",
                            file=name, line=number)
    for key in ("key", "value"):
        if not isinstance(record.get(key), str):
            raise ImportRefused(f"{name} line {number}: the note has no {key}.", file=name, line=number)
    if record.get("state", Note.State.ACTIVE) not in Note.State.values:
        raise ImportRefused(f"{name} line {number}: state is active or held.", file=name, line=number)


def _write_held(actor: Actor, saved: Note, record: dict) -> tuple[Note, ChangeSet]:
    """Writes a note that was exported held as held again, after the pipeline accepted it."""
    workspace = actor.workspace
    alias = workspace.db_alias
    fields = {
        "value": saved.value, "pinned": saved.pinned, "subject_kind": saved.subject_kind,
        "subject_id": saved.subject_id, "origin": Note.Origin.IMPORT, "created_by_user_id": actor.person_id,
        "held_reason": record.get("held_reason") or "imported_held",
        "held_sources": record.get("held_sources") or [],
        "held_until": timezone.now() + settings.APPENDA["HELD_TTL"],
    }
    note = Note.objects.for_workspace(workspace).select_for_update().filter(
        scope=saved.scope, key=saved.key, state=Note.State.HELD, trashed_at__isnull=True).first()
    before = note_snapshot(note) if note is not None else None
    if note is None:
        note = Note(workspace_id=workspace.id, layer=saved.layer, scope=saved.scope, key=saved.key,
                    owner_user_id=saved.owner_user_id, bot_id=saved.bot_id, conversation_id=saved.conversation_id,
                    state=Note.State.HELD, **fields)
    else:
        for name, value in fields.items():
            setattr(note, name, value)
    note_index_refresh(note)
    note.save(using=alias)
    change_set = change_set_record(workspace=workspace, action="hold", actor_user_id=actor.person_id,
                                   changes=[(note, before, note_snapshot(note))],
                                   reason="imported as waiting to be kept")
    return note, change_set


def _import_one(actor: Actor, record: dict) -> tuple[Note, ChangeSet]:
    alias = actor.workspace.db_alias
    want_held = record.get("state") == Note.State.HELD
    try:
        with transaction.atomic(using=alias):
            result = memory_save(
                actor=actor, key=record["key"], value=record["value"], layer=record["layer"],
                subject=record.get("subject"), pinned=record.get("pinned", False), bot_ref=record.get("bot"),
                origin=Note.Origin.IMPORT,
            )
            if want_held and result.note.state != Note.State.HELD:
                raise _WriteHeld(result.note)
            return result.note, result.change_set
    except _WriteHeld as rolled_back:
        return _write_held(actor, rolled_back.note, record)


def _merge_change_sets(actor: Actor, new_ids: list, count: int) -> ChangeSet | None:
    """Folds the per-note change sets of this import into one ``import`` change set (R-MANAGE-3)."""
    workspace = actor.workspace
    alias = workspace.db_alias
    if not new_ids:
        return None
    merged = ChangeSet(workspace_id=workspace.id, action="import", actor_user_id=actor.person_id,
                       note_count=count, reason="import of an export zip")
    merged.save(using=alias)
    for start in range(0, len(new_ids), 500):  # bounded IN lists
        batch = new_ids[start:start + 500]
        NoteChange.objects.for_workspace(workspace).filter(change_set_id__in=batch).update(change_set=merged)
        ChangeSet.objects.for_workspace(workspace).filter(id__in=batch).delete()
    return merged


def memory_import(*, actor: Actor, upload: BinaryIO) -> ImportOutcome:
    """Imports an export zip into the caller's workspace; all notes or none."""
    if actor.bot is not None:
        raise Forbidden("Only a person can import notes.", code="person_required")
    archive, manifest = _open_archive(upload)
    with archive:
        _check_checksums(archive, manifest)
        outcome = ImportOutcome()
        layer_files = sorted(name for name in manifest["files"] if name.endswith(".json"))
        alias = actor.workspace.db_alias
        change_set_ids = []
        with transaction.atomic(using=alias):
            for name in layer_files:
                layer = name.removesuffix(".json")
                if layer in SKIPPED_LAYERS:
                    outcome.skipped[layer] = sum(1 for _ in _records(archive, name))
                    continue
                if layer not in IMPORTED_LAYERS:
                    raise ImportRefused(f"{name}: unknown layer {layer!r}.", file=name)
                for number, record in _records(archive, name):
                    _check_record(name, number, layer, record)
                    try:
                        note, change_set = _import_one(actor, record)
                    except DomainError as refusal:
                        raise ImportRefused(
                            f"{name} line {number}: {refusal.detail} Nothing was imported.",
                            code=refusal.code, file=name, line=number, **refusal.fields,
                        ) from None
                    outcome.imported += 1
                    outcome.held += note.state == Note.State.HELD
                    change_set_ids.append(change_set.id)
            outcome.change_set = _merge_change_sets(actor, change_set_ids, outcome.imported)
    return outcome
