"""Export of notes as a zip: one Markdown and one JSON file per layer, plus a manifest with
counts and a SHA-256 checksum of every file (R-MANAGE-4)."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections import defaultdict

from django.utils import timezone

from memories.presenters import note_json


def _markdown(layer: str, notes: list[dict]) -> str:
    lines = [f"# Appenda memory: {layer} notes", ""]
    for note in notes:
        state = " (waiting to be kept)" if note["state"] == "held" else ""
        pin = " 📌" if note.get("pinned") else ""
        lines.append(f"- **{note['key']}**{pin}{state}: {note['value']}")
    return "\n".join(lines) + "\n"


def export_zip_bytes(*, workspace, notes: list, rules: list[dict] | None = None) -> bytes:
    """The zip of ``notes`` (already limited to what the caller may see)."""
    by_layer: dict[str, list[dict]] = defaultdict(list)
    for note in notes:
        by_layer[note.layer].append(note_json(note))
    if rules:
        by_layer["instance"] = rules
    buffer = io.BytesIO()
    manifest = {
        "format": "appenda-memory-export/1",
        "workspace": {"id": str(workspace.id), "name": workspace.name, "region": workspace.region},
        "exported_at": timezone.now().isoformat(),
        "counts": {layer: len(items) for layer, items in sorted(by_layer.items())},
        "files": {},
    }
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for layer, items in sorted(by_layer.items()):
            for name, content in (
                (f"{layer}.md", _markdown(layer, items)),
                (f"{layer}.json", json.dumps(items, ensure_ascii=False, indent=2)),
            ):
                data = content.encode()
                archive.writestr(name, data)
                manifest["files"][name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
        archive.writestr("manifest.json", json.dumps(manifest, indent=2))
    return buffer.getvalue()
