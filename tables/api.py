"""API of tables and records. Reading records with an ``Appenda-Turn`` header taints that turn."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.parsers import BaseParser
from rest_framework.response import Response

from appenda.api.base import WorkspaceAPIView
from appenda.api.contract import parse
from appenda.api.pagination import PageQuery, paginated
from appenda.api.schema import TURN_HEADER_PARAMETER, ErrorOut, errors, page_of
from appenda.errors import DomainError
from memories.turns import turn_record_read
from tables import contract as c
from tables import services
from tables.models import Record, Table
from tables.upload import MAX_CSV_BYTES, CSVLines, too_large

TURN_HEADER = "HTTP_APPENDA_TURN"


class CSVParser(BaseParser):
    """A ``text/csv`` body as its lines, read while the import parses them (never whole)."""

    media_type = "text/csv"

    def parse(self, stream, media_type=None, parser_context=None):
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and declared.isascii() and declared.isdigit() and int(declared) > MAX_CSV_BYTES:
            raise too_large(MAX_CSV_BYTES)  # refused before a byte is read
        return CSVLines(stream, max_bytes=MAX_CSV_BYTES)


def table_json(table: Table) -> dict:
    return {
        "id": str(table.id),
        "name": table.name,
        "columns": [{"name": c.name, "kind": c.kind} for c in table.columns.all()],
        "created_at": table.created_at.isoformat(),
    }


def record_json(record: Record) -> dict:
    return {"id": str(record.id), "values": record.values, "created_at": record.created_at.isoformat()}


class TableListView(WorkspaceAPIView):
    """The workspace's tables; create one with its typed columns."""

    @extend_schema(parameters=[PageQuery], responses={200: page_of(c.TableOut, "TablePage"), **errors(400, 403, 404)})
    def get(self, request, ws):
        parse(PageQuery, request.query_params)
        tables = Table.objects.for_workspace(self.workspace).prefetch_related("columns").order_by("name", "id")
        return paginated(request, self, tables, table_json)

    @extend_schema(request=c.TableIn, responses={201: c.TableOut, **errors(400, 403, 404)})
    def post(self, request, ws):
        data = parse(c.TableIn, request.data)
        table = services.table_create(actor=self.actor, name=data["name"], columns=data["columns"])
        return Response(table_json(table), status=status.HTTP_201_CREATED)


class TableDetailView(WorkspaceAPIView):
    """One table and its columns."""

    @extend_schema(responses={200: c.TableOut, **errors(403, 404)})
    def get(self, request, ws, table):
        return Response(table_json(self.objects["table"]))


class RecordListView(WorkspaceAPIView):
    """A table's records, oldest first (read in a turn, with Appenda-Turn, they taint it); add up
    to 10,000 at once, all or none."""

    @extend_schema(parameters=[PageQuery, TURN_HEADER_PARAMETER],
                   responses={200: page_of(c.RecordOut, "RecordPage"), **errors(400, 403, 404)})
    def get(self, request, ws, table):
        parse(PageQuery, request.query_params)
        found = self.objects["table"]
        turn_id = request.META.get(TURN_HEADER)
        if turn_id:
            # Reading a table through our API in a turn taints the turn (R-TAINT-1).
            turn_record_read(actor=self.actor, turn_id=turn_id, source="table", ref=str(found.id))
        records = Record.objects.for_workspace(self.workspace).filter(table=found).order_by("created_at", "id")
        return paginated(request, self, records, record_json)

    @extend_schema(request=c.RecordsIn, responses={201: c.RecordsCreatedOut, **errors(400, 403, 404)})
    def post(self, request, ws, table):
        data = parse(c.RecordsIn, request.data)
        records = services.records_add(actor=self.actor, table=self.objects["table"], rows=data["records"])
        return Response({"created": len(records), "ids": [str(r.id) for r in records]}, status=status.HTTP_201_CREATED)


class RecordImportView(WorkspaceAPIView):
    parser_classes = [CSVParser]

    @extend_schema(
        request={"text/csv": OpenApiTypes.STR},
        responses={201: c.RecordsCreatedOut, **errors(400, 403, 404, 413),
                   415: OpenApiResponse(ErrorOut, description="The body is not sent as text/csv.")},
        description="Records from a CSV whose first line names columns of the table, all or none: at most "
                    f"{services.MAX_RECORDS_PER_REQUEST:,} rows and {MAX_CSV_BYTES // (1024 * 1024)} MiB, "
                    "UTF-8, each value checked against its column's kind.",
    )
    def post(self, request, ws, table):
        found = services.table_visible(actor=self.actor, table_id=table)
        if not isinstance(request.data, CSVLines):
            raise DomainError("Send the CSV as the body with Content-Type: text/csv.", code="invalid_csv")
        records = services.records_import_csv(actor=self.actor, table=found, text=request.data)
        return Response({"created": len(records), "ids": [str(r.id) for r in records]}, status=status.HTTP_201_CREATED)


class RecordDetailView(WorkspaceAPIView):
    """Delete one record."""

    @extend_schema(responses={204: None, **errors(403, 404)})
    def delete(self, request, ws, table, record):
        services.record_delete(actor=self.actor, table=self.objects["table"], record_id=record)
        return Response(status=status.HTTP_204_NO_CONTENT)
