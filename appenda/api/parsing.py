"""Small helpers for reading request bodies and query strings with clear errors."""

from __future__ import annotations

from appenda.errors import DomainError

_MISSING = object()


def body(request) -> dict:
    data = request.data
    if not isinstance(data, dict):
        if hasattr(data, "dict"):
            return data.dict()
        raise DomainError("Send a JSON object as the request body.", code="malformed_request")
    return data


def required(data: dict, name: str):
    value = data.get(name, _MISSING)
    if value is _MISSING or value is None or value == "":
        raise DomainError(f"{name} is required.", code="missing_field", field=name)
    return value


def query_bool(request, name: str) -> bool | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if raw.lower() in ("true", "1", "yes"):
        return True
    if raw.lower() in ("false", "0", "no"):
        return False
    raise DomainError(f"{name} is true or false.", code="invalid_filter")


def query_int(request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return default
    try:
        value = int(raw)
    except ValueError:
        raise DomainError(f"{name} is a whole number.", code="invalid_filter") from None
    if not low <= value <= high:
        raise DomainError(f"{name} is from {low} to {high}.", code="invalid_filter")
    return value
