"""API of tables and records. Reading records with an ``Appenda-Turn`` header taints that turn."""

from __future__ import annotations

from rest_framework import status
from rest_framework.parsers import BaseParser
from rest_framework.response import Response

from appenda.api.base import WorkspaceAPIView
from appenda.api.parsing import body, query_int, required
from appenda.errors import DomainError
from memories.turns import turn_record_read
from tables import services
from tables.models import Record, Table

TURN_HEADER = "HTTP_APPENDA_TURN"


class CSVParser(BaseParser):
    media_type = "text/csv"

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise DomainError("The CSV must be UTF-8 text.", code="invalid_csv") from None


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
    def get(self, request, ws):
        tables = Table.objects.for_workspace(self.workspace).prefetch_related("columns")
        return Response([table_json(t) for t in tables])

    def post(self, request, ws):
        data = body(request)
        table = services.table_create(actor=self.actor, name=required(data, "name"), columns=data.get("columns"))
        return Response(table_json(table), status=status.HTTP_201_CREATED)


class TableDetailView(WorkspaceAPIView):
    def get(self, request, ws, table):
        return Response(table_json(services.table_visible(actor=self.actor, table_id=table)))


class RecordListView(WorkspaceAPIView):
    def get(self, request, ws, table):
        found = services.table_visible(actor=self.actor, table_id=table)
        turn_id = request.META.get(TURN_HEADER)
        if turn_id:
            # Reading a table through our API in a turn taints the turn (R-TAINT-1).
            turn_record_read(actor=self.actor, turn_id=turn_id, source="table", ref=str(found.id))
        limit = query_int(request, "limit", 100, 1, 1000)
        offset = query_int(request, "offset", 0, 0, 10**9)
        records = Record.objects.for_workspace(self.workspace).filter(table=found).order_by("created_at", "id")
        count = records.count()
        page = records[offset: offset + limit]
        return Response({"count": count, "results": [record_json(r) for r in page]})

    def post(self, request, ws, table):
        found = services.table_visible(actor=self.actor, table_id=table)
        records = services.records_add(actor=self.actor, table=found, rows=body(request).get("records"))
        return Response({"created": len(records), "ids": [str(r.id) for r in records]}, status=status.HTTP_201_CREATED)


class RecordImportView(WorkspaceAPIView):
    parser_classes = [CSVParser]

    def post(self, request, ws, table):
        found = services.table_visible(actor=self.actor, table_id=table)
        if not isinstance(request.data, str):
            raise DomainError("Send the CSV as the body with Content-Type: text/csv.", code="invalid_csv")
        records = services.records_import_csv(actor=self.actor, table=found, text=request.data)
        return Response({"created": len(records), "ids": [str(r.id) for r in records]}, status=status.HTTP_201_CREATED)


class RecordDetailView(WorkspaceAPIView):
    def delete(self, request, ws, table, record):
        found = services.table_visible(actor=self.actor, table_id=table)
        services.record_delete(actor=self.actor, table=found, record_id=record)
        return Response(status=status.HTTP_204_NO_CONTENT)
