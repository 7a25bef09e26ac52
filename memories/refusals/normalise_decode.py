"""Runs of a note that encode text, decoded (R-SAVE-2, for memories.refusals.normalise): base64
(and base64url), base32, base85, and gzip or zlib data under base64 ("H4sI…", "eJ…"). Each run
that decodes to readable text is a ``View`` of that text, every character of it standing for the
whole run. Split from normalise.py, which gathers every reading of a note.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib

from memories.refusals.view import View

__all__ = ["compressed_base64", "decode_base64_text", "decoded_runs"]

_DIGIT_RE = re.compile(r"\d")
_BASE64_RUN_RE = re.compile(r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/_\-]{16,}={0,2}(?![A-Za-z0-9+/=_\-])")
# base32 in capitals, or in lower case (as TOTP apps and DNS names write it) with a digit: a long
# lower-case word is no base32 run.
_BASE32_RUN_RE = re.compile(r"(?<![A-Za-z0-9=])(?:[A-Z2-7]{16,}|[a-z2-7]{16,})={0,6}(?![A-Za-z0-9=])")
# base85 (Python's and git's alphabet): a run of it with one of the marks base64 has not.
_BASE85_CHARS = r"0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~"
_BASE85_RUN_RE = re.compile(rf"(?<![{_BASE85_CHARS}])[{_BASE85_CHARS}]{{20,}}(?![{_BASE85_CHARS}])")
_BASE85_ONLY = frozenset("!#$%&()*;<>?@^`{|}~")
_WITHOUT_BASE85_MARKS = str.maketrans(dict.fromkeys(_BASE85_ONLY))
_BASE85_RARE = frozenset("^`{|}~")  # six of those, rare in prose: one is in most runs of 20+


def _readable(raw: bytes) -> str | None:
    """``raw`` as text when it is printable UTF-8 (tabs and newlines allowed), else None."""
    try:
        return _printable(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return None


def _printable(decoded: str) -> str | None:
    if len(decoded) < 8 or not all(c.isprintable() or c in "\n\t\r" for c in decoded):
        return None
    return decoded


def decode_base64_text(token: str) -> str | None:
    """The text a base64 / base64url run encodes, when it encodes readable text; else None.

    A run cut mid-way (a note is at most 1 KB) still decodes: the tail that does not fill a
    quantum is dropped, and a character cut in half at the end is dropped too. Compressed data
    (gzip, zlib: "H4sI…", "eJ…", as Helm and Kubernetes keep blobs) is read as what it holds.
    """
    core = token.rstrip("=")
    alphabet_url = "-" in core or "_" in core
    if alphabet_url and ("+" in core or "/" in core):
        return None
    core = core[: len(core) - len(core) % 4] if len(core) % 4 == 1 else core
    padded = core + "=" * (-len(core) % 4)
    try:
        raw = (base64.urlsafe_b64decode if alphabet_url else base64.b64decode)(padded)
    except (binascii.Error, ValueError):
        return None
    if _compressed(raw):
        return _inflated(raw)  # gzip or zlib: what it holds is what it says
    for cut in range(0, 4):  # a UTF-8 character cut by the end of the run
        chunk = raw[: len(raw) - cut] if cut else raw
        try:
            decoded = chunk.decode("utf-8")
        except UnicodeDecodeError as error:
            if error.start < len(raw) - 3:
                return None  # no character cut by the end: no shorter reading decodes either
            continue  # (most runs are keys, whose bytes fail early: one decode, not four)
        text = _printable(decoded)
        if text is not None:
            return text
    return None


def _compressed(raw: bytes) -> bool:
    """gzip's magic, or a zlib header of one of its four levels."""
    return raw[:2] == b"\x1f\x8b" or (raw[:1] == b"\x78" and raw[1:2] in (b"\x01", b"\x5e", b"\x9c", b"\xda"))


def compressed_base64(token: str) -> bool:
    """Whether a base64 run holds gzip or zlib data (its first bytes say so)."""
    if not token.startswith(("H4sI", "eA", "eF", "eJ", "eN")):
        return False
    head = token[:8]
    try:
        return _compressed(base64.b64decode(head + "=" * (-len(head) % 4)))
    except (binascii.Error, ValueError):
        return False


def _inflated(raw: bytes) -> str | None:
    """The readable text a gzip or zlib stream holds (its first 4 KB; a stream cut by the end of
    a note gives what it holds so far), or None."""
    try:
        return _readable(zlib.decompressobj(wbits=47).decompress(raw, 4096))
    except zlib.error:
        return None


def _decode_base32_text(token: str) -> str | None:
    core = token.rstrip("=")
    core = core[: len(core) - len(core) % 8 + (len(core) % 8 if len(core) % 8 in (2, 4, 5, 7) else 0)]
    try:
        raw = base64.b32decode(core.upper() + "=" * (-len(core) % 8))
    except (binascii.Error, ValueError):
        return None
    return _readable(raw)


def _decode_base85_text(token: str) -> str | None:
    try:
        return _readable(base64.b85decode(token))
    except ValueError:
        return None


def decoded_runs(text: str, known: list[tuple[int, int]], *, again: bool = True) -> list[View]:
    """base64, base32 and base85 runs that encode readable text, each as a view of its decoded text;
    every character of it stands for the whole run; a run that decodes to another is decoded
    once more (``again``). Runs inside ``known`` (already found as a secret: a JWT's segments
    decode to JSON too) are not decoded again."""
    result = []
    seen: set[tuple[int, int]] = set(known)
    if any(c.isdigit() for c in text) or "=" in text or any(c.islower() for c in text):
        for run in _BASE64_RUN_RE.finditer(text):
            if _inside(run.span(), known):
                continue
            decoded = decode_base64_text(run.group())
            if decoded is not None:
                seen.add(run.span())
                result.append(View(decoded, (run.span(),) * len(decoded)))
    for run in _BASE32_RUN_RE.finditer(text):
        if run.span() in seen or _inside(run.span(), known) or (run.group()[0].islower() and not _DIGIT_RE.search(run.group())):
            continue
        decoded = _decode_base32_text(run.group())
        if decoded is not None:
            result.append(View(decoded, (run.span(),) * len(decoded)))
    if not _BASE85_RARE.isdisjoint(text):
        for run in _BASE85_RUN_RE.finditer(text):
            marks = len(run.group()) - len(run.group().translate(_WITHOUT_BASE85_MARKS))
            if marks < max(2, len(run.group()) // 16) or _inside(run.span(), known):
                continue  # base85 has a mark in every fifth place or so; most code runs fewer
            decoded = _decode_base85_text(run.group())
            if decoded is not None:
                result.append(View(decoded, (run.span(),) * len(decoded)))
    if again:
        result += [View(inner.text, (view.places[0],) * len(inner.text))
                   for view in list(result) for inner in decoded_runs(view.text, [], again=False)]
    return result


def _inside(span: tuple[int, int], known: list[tuple[int, int]]) -> bool:
    return any(start <= span[0] and span[1] <= end for start, end in known)
