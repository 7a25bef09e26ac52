"""API of exports and imports (R-MANAGE-4): a zip built in the workspace's region, served from its
bucket through a short-lived link; and the import of such a zip through the save pipeline.

An export is a job: ``POST …/memories/export/`` creates one (201, ``{id, state, url?, …}``),
``GET …/memories/exports/{id}/`` fetches it with a fresh link (410 once expired) and
``GET …/memories/exports/`` lists the caller's own. ``GET …/memories/export/`` writes nothing: 405.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import MethodNotAllowed
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from appenda.api.base import WorkspaceAPIView
from appenda.api.contract import parse
from appenda.api.pagination import PageQuery, paginated
from appenda.api.schema import ErrorOut, errors
from appenda.errors import DomainError
from memories import contract_history as c
from memories.export import (
    export_get_for_download,
    export_link,
    export_state,
    exports_of_caller,
    memory_export_create,
)
from memories.imports import MAX_IMPORT_BYTES, ImportTooLarge, memory_import, spool_upload

ZIP_TYPES = ("application/zip", "application/x-zip-compressed", "application/octet-stream")


def _export_json(workspace, export, *, link: bool) -> dict:
    """An export as the API shows it; ``link`` mints a fresh download link (a ready export only)."""
    body = {
        "id": str(export.id),
        "state": export_state(export),
        "created_at": export.created_at.isoformat(),
        "expires_at": export.expires_at.isoformat(),
        "counts": export.counts,
        "size": export.size,
        "sha256": export.sha256,
    }
    if link and body["state"] == "ready":
        url, url_expires_at = export_link(workspace=workspace, export=export)
        body.update(url=url, url_expires_at=url_expires_at.isoformat())
    return body


def _export_location(workspace, export) -> str:
    return f"/api/v1/workspaces/{workspace.id}/memories/exports/{export.id}/"


class MemoryExportView(WorkspaceAPIView):
    """POST builds a new export of what the caller may see. GET used to, on every call: it
    writes nothing now and answers 405, before the workspace is looked up (nothing to learn)."""

    def _access(self, request):
        if not hasattr(self, request.method.lower()):
            raise MethodNotAllowed(request.method, detail=(
                f"{request.method} is not allowed here: POST creates an export; GET …/memories/exports/ "
                "lists yours and GET …/memories/exports/{id}/ fetches one."))
        return super()._access(request)

    @extend_schema(request=None, responses={201: c.ExportOut, **errors(403, 404, 503)},
                   description="Builds a zip of the notes the caller may see, in the workspace's region, and "
                               "answers the export (state ready, with a short-lived url). 503 export_failed when "
                               "the build failed (nothing was kept), region_unavailable when the region is down.")
    def post(self, request, ws):
        export = memory_export_create(actor=self.actor)
        return Response(_export_json(self.workspace, export, link=True), status=status.HTTP_201_CREATED,
                        headers={"Location": _export_location(self.workspace, export)})


class ExportListView(WorkspaceAPIView):
    """The caller's own exports that have not expired, newest first (GET one for its link)."""

    @extend_schema(parameters=[PageQuery], responses={200: c.EXPORT_PAGE, **errors(400, 403, 404)})
    def get(self, request, ws):
        parse(PageQuery, request.query_params)
        return paginated(request, self, exports_of_caller(actor=self.actor),
                         lambda export: _export_json(self.workspace, export, link=False))


class ExportDetailView(WorkspaceAPIView):
    """A fresh link to one of the caller's exports; an expired one is deleted and answers 410."""

    @extend_schema(responses={200: c.ExportOut, **errors(403, 404, 410)})
    def get(self, request, ws, export):
        found = export_get_for_download(actor=self.actor, export_id=export)
        return Response(_export_json(self.workspace, found, link=True))


_ZIP_BODY = {media_type: OpenApiTypes.BINARY for media_type in ZIP_TYPES}


class MemoryImportView(WorkspaceAPIView):
    """POST an export zip, as a multipart ``file`` or as the body (``Content-Type: application/zip``)."""

    parser_classes = [MultiPartParser]

    @extend_schema(
        request={"multipart/form-data": c.ImportUploadIn, **_ZIP_BODY},
        responses={201: c.ImportOut, **errors(400, 403, 404, 413),
                   415: OpenApiResponse(ErrorOut, description="Neither multipart nor a zip body.")},
    )
    def post(self, request, ws):
        if request.content_type.startswith("multipart/"):
            upload = parse(c.ImportUploadIn, request.data)["file"]
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
