"""Domain errors. Services raise them; one handler (appenda.api.errors) turns each into
``{"code", "detail"}`` with its status, and the web pages show ``detail`` to the person."""

from __future__ import annotations


class DomainError(Exception):
    status = 400
    code = "invalid"

    def __init__(self, detail: str, *, code: str | None = None, status: int | None = None, **fields):
        super().__init__(detail)
        self.detail = detail
        if code:
            self.code = code
        if status:
            self.status = status
        self.fields = fields

    def as_dict(self) -> dict:
        return {"code": self.code, "detail": self.detail, **self.fields}


class NotFound(DomainError):
    status = 404
    code = "not_found"


class Forbidden(DomainError):
    status = 403
    code = "forbidden"


class Conflict(DomainError):
    status = 409
    code = "conflict"


class RegionUnavailable(DomainError):
    status = 503
    code = "region_unavailable"
