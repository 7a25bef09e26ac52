"""What the OpenAPI document says beyond each view's contracts: the Token scheme, unique
operation ids, the one error body and the one page shape (R-API-1).

Views describe themselves with ``@extend_schema(request=…, responses={200: …, **errors(404)})``;
``errors`` adds the error body for each status named plus 401 and 403 (every endpoint but the
public ones may answer them) and 503 (a region that cannot be reached).
"""

from __future__ import annotations

import re

from drf_spectacular.extensions import (
    OpenApiAuthenticationExtension,
    OpenApiSerializerFieldExtension,
)
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, inline_serializer
from rest_framework import serializers

ERROR_SENTENCES = {
    400: "The request is not valid; `code` says why and `field` names the field.",
    401: "No valid credentials: send `Authorization: Token <key>` (or sign in).",
    403: "Visible, but not allowed for this caller (`person_required` for a bot's token).",
    404: "No such object, or the caller may not see it.",
    409: "The object changed or is in a state that does not allow this (`turn_save_limit`: the turn made all "
         "its saves; `idempotency_key_reused`: the Idempotency-Key was sent with another request).",
    410: "It existed, and has expired.",
    413: "The body is larger than this endpoint accepts.",
    428: "A precondition is required (the version the person saw).",
    429: "Too many requests from this caller right now; retry after `Retry-After` seconds.",
    503: "A region (or the control database) cannot be reached, or the server is overloaded; retry after "
         "`Retry-After` seconds.",
}


class ErrorOut(serializers.Serializer):
    code = serializers.CharField(help_text="A machine-readable snake_case code.")
    detail = serializers.CharField(help_text="A sentence a person understands.")
    field = serializers.CharField(required=False, help_text="The field the error is about, if one.")


def errors(*statuses: int, public: bool = False) -> dict[int, OpenApiResponse]:
    """Error responses for ``extend_schema(responses=…)``: those named, and 401, 403 and 503, which
    any endpoint that needs a caller may answer (403 ``person_required`` to a bot's token)."""
    named = set(statuses) | {503} | (set() if public else {401, 403})
    return {status: OpenApiResponse(ErrorOut, description=ERROR_SENTENCES[status]) for status in sorted(named)}


TURN_HEADER_PARAMETER = OpenApiParameter(
    "Appenda-Turn", str, OpenApiParameter.HEADER, required=False,
    description="The turn an agent reads this in: reading a table through the API in a turn taints it.",
)


def page_of(item: type[serializers.Serializer] | serializers.Serializer, name: str) -> serializers.Serializer:
    """The one list shape: ``{count, next, previous, results}``."""
    return inline_serializer(name=name, fields={
        "count": serializers.IntegerField(),
        "next": serializers.CharField(allow_null=True),
        "previous": serializers.CharField(allow_null=True),
        "results": item(many=True) if isinstance(item, type) else item,
    })


def close_request_bodies(result, generator, request, public):
    """Every request component says ``additionalProperties: false``: the contracts
    (``appenda.api.contract.Contract``) refuse unknown fields, and the document says so."""
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request") and component.get("type") == "object":
            component.setdefault("additionalProperties", False)
    return result


class AppendaAutoSchema(AutoSchema):
    """Operation ids from the view's name and the method (``memoryDetail_patch``): unique by
    construction, since every route has its own view."""

    def get_operation_id(self):
        name = re.sub(r"View$", "", type(self.view).__name__)
        return f"{name[:1].lower()}{name[1:]}_{self.method.lower()}"


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "workspaces.authentication.ApiTokenAuthentication"
    name = "TokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey", "in": "header", "name": "Authorization",
            "description": "`Token <key>`: a person's API token or a bot's token.",
        }


class TextFieldSchema(OpenApiSerializerFieldExtension):
    """Text of the contracts holds no NUL byte (``appenda.api.contract.Text`` refuses it): the
    document says so, so a client generating valid text from it is not refused."""

    target_class = "appenda.api.contract.Text"
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        if schema.get("type") == "string" and "pattern" not in schema:
            schema["pattern"] = "^[^\\u0000]*$"
        return schema
