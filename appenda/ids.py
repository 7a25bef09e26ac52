"""Parsing ids that arrive in URLs and bodies."""

from __future__ import annotations

import uuid


def parse_uuid(value) -> uuid.UUID | None:
    """The UUID, or None when the value is not one (an unknown id then reads as not found)."""
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except (ValueError, TypeError, AttributeError):
        return None
