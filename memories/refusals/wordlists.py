"""Word lists kept as data, in ``memories/refusals/data/<name>.txt``.

Like Django's ``CommonPasswordValidator`` and its ``common-passwords.txt.gz``: the lists are
data, not code. Each file is read once, on the first request for it, and cached.

File format: UTF-8 text, one entry a line. ``#`` lines at the top say where the list comes
from and why it is there; blank lines are ignored. Entries are used exactly as written (no
case folding here: the files are already in the form the callers compare with).

The project is not installed as a package (``[tool.setuptools] packages = []``): it runs from
the source tree, so the files are found next to this module.
"""

from __future__ import annotations

import functools
from pathlib import Path

__all__ = ["DATA_DIR", "entries", "pairs", "table", "words"]

DATA_DIR = Path(__file__).resolve().parent / "data"


@functools.cache
def entries(name: str) -> tuple[str, ...]:
    """The entries of ``data/<name>.txt``, in file order."""
    text = (DATA_DIR / f"{name}.txt").read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        line = line.strip(" \r\n")
        if line and not line.startswith("#"):
            out.append(line)
    return tuple(out)


@functools.cache
def words(name: str) -> frozenset[str]:
    """The entries of ``data/<name>.txt`` as a set."""
    return frozenset(entries(name))


@functools.cache
def pairs(name: str) -> frozenset[tuple[str, str]]:
    """Two-word entries ("meeting with") of ``data/<name>.txt`` as ``(first, second)``."""
    out = []
    for entry in entries(name):
        first, second = entry.split(" ")
        out.append((first, second))
    return frozenset(out)


def table(name: str) -> dict[str, str]:
    """``key<TAB>value`` entries of ``data/<name>.txt``; a key with no tab maps to "".

    A new dict each call (the cached entries are shared, the dict is the caller's).
    """
    out: dict[str, str] = {}
    for entry in entries(name):
        key, _, value = entry.partition("\t")
        out[key] = value
    return out
