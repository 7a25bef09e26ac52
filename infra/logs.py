"""Reading the end of a launched server's log, for error messages a person can act on."""

from __future__ import annotations


def tail(path: str, lines: int = 30) -> str:
    try:
        with open(path, errors="replace") as fh:
            return "".join(fh.readlines()[-lines:])
    except OSError as exc:
        return f"(no log: {exc})"
