"""The index of a table's identifying values (R-SAVE-3), kept in step with its records.

Interim: the index is built by the refusals work (issue 4); until then the hooks record
nothing and ``find_identifying_match`` finds nothing.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class IdentifyingMatch:
    column: str
    column_kind: str


def index_records_added(*, table, columns, records, using: str) -> None:
    return None


def index_records_removed(*, table, columns, records, using: str) -> None:
    return None


def find_identifying_match(*, table, text: str, using: str) -> IdentifyingMatch | None:
    return None
