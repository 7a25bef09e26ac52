"""API of exports and imports (R-MANAGE-4): a zip built in the workspace's region, served from its
bucket through a short-lived link; and the import of such a zip through the save pipeline."""

from __future__ import annotations

from rest_framework import status
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from appenda.api.base import WorkspaceAPIView
from appenda.errors import DomainError
from memories.export import export_get_for_download, export_link, memory_export_create
from memories.imports import MAX_IMPORT_BYTES, ImportTooLarge, memory_import, spool_upload

ZIP_TYPES = ("application/zip", "application/x-zip-compressed", "application/octet-stream")


def _export_json(workspace, export) -> dict:
    url, url_expires_at = export_link(workspace=workspace, export=export)
    return {
        "id": str(export.id),
        "url": url,
        "url_expires_at": url_expires_at.isoformat(),
        "expires_at": export.expires_at.isoformat(),
        "counts": export.counts,
        "size": export.size,
        "sha256": export.sha256,
    }


class MemoryExportView(WorkspaceAPIView):
    """GET builds a new export of what the caller may see and answers with its download link."""

    def get(self, request, ws):
        export = memory_export_create(actor=self.actor)
        return Response(_export_json(self.workspace, export))


class ExportDetailView(WorkspaceAPIView):
    """A fresh link to one of the caller's exports; an expired one is deleted and answers 410."""

    def get(self, request, ws, export):
        return Response(_export_json(self.workspace, export_get_for_download(actor=self.actor, export_id=export)))


class MemoryImportView(WorkspaceAPIView):
    """POST an export zip, as a multipart ``file`` or as the body (``Content-Type: application/zip``)."""

    parser_classes = [MultiPartParser]

    def post(self, request, ws):
        if request.content_type.startswith("multipart/"):
            upload = request.FILES.get("file")
            if upload is None:
                raise DomainError("Send the zip as the multipart field 'file'.", code="missing_field", field="file")
            if upload.size > MAX_IMPORT_BYTES:
                raise ImportTooLarge(f"The file is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MiB.")
            outcome = memory_import(actor=self.actor, upload=upload)
        elif request.content_type.split(";")[0].strip() in ZIP_TYPES:
            if request.stream is None:
                raise DomainError("The request body is empty; send the export zip.", code="missing_field")
            with spool_upload(request.stream) as upload:
                outcome = memory_import(actor=self.actor, upload=upload)
        else:
            raise DomainError("Send the export zip as multipart field 'file' or with Content-Type application/zip.",
                              code="unsupported_media_type", status=415)
        return Response(
            {"imported": outcome.imported, "held": outcome.held, "skipped": outcome.skipped,
             "change": str(outcome.change_set.id) if outcome.change_set else None},
            status=status.HTTP_201_CREATED,
        )
