"""Helpers for region tests: download an export the way a client would, read a zip's layer files."""

from __future__ import annotations

import io
import json
import urllib.request
import zipfile

from tests.factories import url


def export_via_api(client, workspace) -> dict:
    """Creates an export (POST); it is built in the request, so it answers ready with its link."""
    response = client.post(url(workspace, "memories/export/"))
    assert response.status_code == 201, response.content
    assert response.json()["state"] == "ready", response.json()
    return response.json()


def download(client, link: str) -> bytes:
    """A presigned S3 URL is fetched over HTTP; a signed local link through the app."""
    if link.startswith("http://") or link.startswith("https://"):
        with urllib.request.urlopen(link, timeout=10) as answer:  # noqa: S310 - the test's own S3 server
            return answer.read()
    response = client.get(link)
    assert response.status_code == 200, response.content
    return b"".join(response.streaming_content)


def layer_records(zip_bytes: bytes) -> dict[str, list[dict]]:
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
        return {name.removesuffix(".json"): json.loads(archive.read(name))
                for name in archive.namelist() if name.endswith(".json") and name != "manifest.json"}


def zip_with(files: dict[str, str]) -> bytes:
    """A zip of ``files`` with a manifest whose checksums match (to craft imports)."""
    import hashlib

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        manifest = {"format": "appenda-memory-export/1", "files": {}, "counts": {}}
        for name, text in files.items():
            data = text.encode()
            archive.writestr(name, data)
            manifest["files"][name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
        archive.writestr("manifest.json", json.dumps(manifest))
    return buffer.getvalue()


def one_note_per_line(records: list[dict]) -> str:
    return "[\n" + ",\n".join(json.dumps(r) for r in records) + "\n]\n"
