"""Other readings of a note for the secret detector: what a person or a model would read in it.

A token can be written so that its characters are not the ones the formats name:

* look-alike letters ("ghр_…" with a Cyrillic р, mathematical bold "𝐠𝐡𝐩_…");
* a space or a dash between every character, one character a line, or wrapped over lines;
* URL-encoding ("ghp%5F…"), or base64 / base32 of the token itself;
* escapes: JSON escaped into a string once or twice ("{\\"auth\\":\\"…\\"}", as CI variables
  hold it), characters spelt as escapes ("\\u0067hp_…", "\\x67hp_…", "&#103;hp_…");
* string literals joined in code ("'ghp_' + 'R8x2…'", "'ghp_' . '…'", "['ghp_', '…'].join('')",
  "CONCAT('ghp_', '…')"), or spelt as character codes ("String.fromCharCode(103, 104, …)",
  "bytes([103, 104, …])");
* a word processor's quotes ("‘password’: ‘…’", "«…»");
* Markdown or HTML around a password's name ("**password:** …", "<b>Password:</b> …").

Each ``View`` here is one such reading, with every character's place in the original text, so a
finding in a view is reported at the original characters it came from.

Views only add candidates: the detector scans the original text as before, and then each view.
All functions are pure; tables are read once (data/secrets_confusables.txt).
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import unicodedata
import zlib

from memories.refusals.disguise import UNREAD_CATEGORIES, display_order, markup_taken_off
from memories.refusals.normalise_code import char_codes, joined_literals
from memories.refusals.normalise_pieces import pieces
from memories.refusals.normalise_runs import separated_runs
from memories.refusals.normalise_spelt import spelt_digits, spelt_letters
from memories.refusals.view import View, replaced
from memories.refusals.wordlists import table

__all__ = ["View", "compressed_base64", "decode_base64_text", "views"]

# Look-alike letters and digits -> Latin (Unicode TR39 confusables; see the data file).
_CONFUSABLES = table("secrets_confusables")
_NON_ASCII_WORD_RE = re.compile(r"(?<!\S)\S*[^\x00-\x7f]\S*")
_PERCENT_RE = re.compile(r"%[0-9A-Fa-f]{2}")
# Typographic quotes as a word processor or a chat app writes them, one for one to ASCII.
_ASCII_QUOTES = str.maketrans({"‘": "'", "’": "'", "‚": "'", "‛": "'", "‹": "'", "›": "'",
                               "“": '"', "”": '"', "„": '"', "‟": '"', "«": '"', "»": '"'})
# Backslash escapes of JSON or a shell string, however deep ("\\\\\\"" is a quote escaped twice).
# Also the escapes that spell any character: "\\u0067" (JSON, JavaScript), "\\x67" (Python, C),
# and HTML's character references ("&#103;", "&#x67;", "&lowbar;").
_ESCAPE_RE = re.compile(r"\\+(?:u(?P<u>[0-9A-Fa-f]{4})|x(?P<x>[0-9A-Fa-f]{2})|(?P<c>[\"'/nt]))"
                        r"|&(?:#(?P<dec>\d{2,7})|#[xX](?P<hex>[0-9A-Fa-f]{2,6})|(?P<name>[A-Za-z]{2,8}));")
_ESCAPED_CHARS = {"n": "\n", "t": "\t"}
_PERCENT_WORD_RE = re.compile(r"(?<!\S)\S*%[0-9A-Fa-f]{2}\S*")
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


# The English stems of a credential's name: "pässwört" and "tökén" read without their accents.
_KEYWORD_STEM_RE = re.compile(r"(?i)pass|pwd|secret|token|key|auth|cred")
# A credential's name inside emphasis or an HTML element: "**password:**", "<b>Token:</b>",
# "__pw__" (code's "__init__" and "List<String>" hold no such name).
_CREDENTIAL_NAME_RE = re.compile(r"(?i)pass|pwd|secret|token|key|auth|cred|\bpw\b")
_MARK_BEFORE_RE = re.compile(r"(?i)(?:\*|_|<[a-z][a-z0-9]*>)[^*_<>\n]*$")
_MARK_AFTER_RE = re.compile(r"(?i)[^*_<>\n]*(?:\*|_|</[a-z][a-z0-9]*>)")
_AFTER_NAME = 160  # characters after the name read with it: its value


def _token_shaped(pieces: list[str]) -> bool:
    """Sixteen letters and digits or more with a digit: a token with accents put on its letters
    ("ghṕ_Ŕ8x2…"), not a word of French or German."""
    word = "".join(pieces)
    return len(word) >= 16 and any(c.isdigit() for c in word)


def _without_accents(piece: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", piece) if not unicodedata.combining(c))


def _word_pieces(chars: str) -> list[str] | None:
    """The Latin reading of one word with characters outside ASCII, one piece per character,
    or None when the word gives no token by it."""
    # Invisible characters (zero-width, tags, direction marks) and combining marks put on a
    # token's letters ("g\u0301h\u0301p…") are not read.
    normal = ["" if unicodedata.category(c) in UNREAD_CATEGORIES else unicodedata.normalize("NFKC", c)
              for c in chars]
    if all(n.isascii() for n in normal):
        pieces = normal  # mathematical alphanumerics, fullwidth forms
    elif any(c.isascii() and c.isalnum() for c in chars):
        # A look-alike is read as Latin only inside a word that mixes it with Latin letters or
        # digits ("ghр_…"): a Russian word made of look-alikes ("Сброс") is Russian.
        pieces = ["".join(_CONFUSABLES.get(x, x) for x in n) for n in normal]
        if not all(p.isascii() for p in pieces):
            # Accents put on a keyword's letters ("pässwört", "tökén") or a token's: read without
            # them. Only for such words: a reading of every accented word would scan most notes
            # written in French or German twice (benchmarks/bench_secrets.py).
            pieces = [p if p.isascii() else _without_accents(p) for p in pieces]
            if not all(p.isascii() for p in pieces) or not (
                    _KEYWORD_STEM_RE.search("".join(pieces)) or _token_shaped(pieces)):
                return None
    else:
        return None  # NFKC's changes inside CJK text (fullwidth "：") make no token
    return pieces if sum(c.isalnum() for c in "".join(pieces)) >= 4 else None


def _skeleton(text: str) -> View | None:
    """NFKC, then look-alikes to Latin, in the words that become Latin letters and digits by it.

    "ghр_…" (Cyrillic р) and "𝐠𝐡𝐩_…" (mathematical bold) become "ghp_…"; other words stay as
    written. None when no word changes.
    """
    if text.isascii():
        return None
    changes = []
    for word in _NON_ASCII_WORD_RE.finditer(text):
        pieces = _word_pieces(word.group())
        if pieces is not None:
            changes.append((word.start(), pieces))
    if not changes:
        return None
    out: list[str] = []
    places: list[tuple[int, int]] = []
    position = 0
    for start, pieces in changes:
        out.append(text[position:start])
        places.extend((i, i + 1) for i in range(position, start))
        for offset, piece in enumerate(pieces):
            out.append(piece)
            places.extend([(start + offset, start + offset + 1)] * len(piece))
        position = start + len(pieces)
    out.append(text[position:])
    places.extend((i, i + 1) for i in range(position, len(text)))
    return View("".join(out), tuple(places))


def _percent_decoded(text: str) -> list[View]:
    """URL-encoding undone for ASCII escapes, word by word: "ghp%5FAbC…" reads "ghp_AbC…"."""
    if "%" not in text:
        return []
    result = []
    for word in _PERCENT_WORD_RE.finditer(text):
        out, places, position = [], [], word.start()
        for escape in _PERCENT_RE.finditer(text, word.start(), word.end()):
            for index in range(position, escape.start()):
                out.append(text[index])
                places.append((index, index + 1))
            code = int(escape.group()[1:], 16)
            if 0x20 <= code < 0x7F:
                out.append(chr(code))
                places.append(escape.span())
            else:
                out.extend(escape.group())
                places.extend((i, i + 1) for i in range(escape.start(), escape.end()))
            position = escape.end()
        for index in range(position, word.end()):
            out.append(text[index])
            places.append((index, index + 1))
        result.append(View("".join(out), tuple(places)))
    return result


def _changed_lines(view: View, text: str) -> View | None:
    """Only the lines of ``view`` where it reads differently from ``text``: a note's other
    lines were scanned as written already, and scanning them again costs as much (a 1 KB note
    with one escaped quote is one line to read again, not a kilobyte)."""
    keep_text: list[str] = []
    keep_places: list[tuple[int, int]] = []
    line_start = 0
    reading = view.text
    while line_start <= len(reading):
        line_end = reading.find("\n", line_start)
        line_end = len(reading) if line_end == -1 else line_end
        places = view.places[line_start:line_end]
        if any(end - start != 1 or text[start] != reading[line_start + k]
               or (k and start != places[k - 1][1])  # characters left out between these two
               for k, (start, end) in enumerate(places)):
            if keep_text:
                keep_text.append("\n")
                keep_places.append(keep_places[-1])
            keep_text.append(reading[line_start:line_end])
            keep_places.extend(places)
        line_start = line_end + 1
    if not keep_text:
        return None
    return View("".join(keep_text), tuple(keep_places), formats_only=view.formats_only)


def _escaped_char(escape: re.Match) -> str | None:
    """The character an escape spells, or None when it spells none worth reading."""
    for group, base in (("u", 16), ("x", 16), ("dec", 10), ("hex", 16)):
        if escape.group(group) is not None:
            code = int(escape.group(group), base)
            if 0x20 <= code < 0x110000 and unicodedata.category(chr(code)) in UNREAD_CATEGORIES:
                return ""  # "&#8203;" between a token's characters draws nothing
            return chr(code) if 0x20 <= code < 0x110000 and not 0xD800 <= code < 0xE000 else None
    if escape.group("name") is not None:
        char = html.unescape(escape.group())
        return char if len(char) == 1 and char.isascii() and char.isprintable() else None
    return _ESCAPED_CHARS.get(escape.group("c"), escape.group("c"))


def _unescaped(text: str) -> View | None:
    """Escapes undone: JSON kept inside a string (a CI variable, a YAML value) reads as the JSON
    it is, so its fields are scanned as fields; "\\u0067" and "&#103;" read "g". None when
    nothing is escaped."""
    if "\\" not in text and "&" not in text:
        return None
    changes = []
    for escape in _ESCAPE_RE.finditer(text):
        char = _escaped_char(escape)
        if char is not None:  # "&nbsp;" and the like: not a character a token is written with
            changes.append((escape.start(), escape.end(), char, [escape.span()]))
    return replaced(text, changes)


def _ascii_quoted(text: str) -> View | None:
    """Typographic quotes as ASCII ones, so "‘password’: ‘Xk9#…’" reads as code quotes it;
    None when the text has none. One character for one: the places are the text's own."""
    if text.isascii():
        return None
    quoted = text.translate(_ASCII_QUOTES)
    if quoted == text:
        return None
    return View(quoted, tuple((i, i + 1) for i in range(len(text))))


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


def _decoded_runs(text: str, known: list[tuple[int, int]], *, again: bool = True) -> list[View]:
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
                   for view in list(result) for inner in _decoded_runs(view.text, [], again=False)]
    return result


def _inside(span: tuple[int, int], known: list[tuple[int, int]]) -> bool:
    return any(start <= span[0] and span[1] <= end for start, end in known)


def views(text: str, known: list[tuple[int, int]] | None = None) -> list[View]:
    """Every other reading of ``text`` worth scanning; empty for most notes. ``known``: spans
    already found as secrets in the text as written."""
    known = known or []
    result: list[View] = []
    skeleton = _skeleton(text)
    base = skeleton.text if skeleton is not None else text
    joined = separated_runs(base)
    if skeleton is not None:
        result.append(skeleton)
        joined = [_through(view, skeleton) for view in joined]  # back to the original text
    result += joined
    decoded = _decoded_runs(text, known)
    for percent in _percent_decoded(text):
        result.append(percent)
        decoded += [_through(view, percent) for view in _decoded_runs(percent.text, [])]
    result += decoded
    result += char_codes(text)
    result += pieces(text, known)
    for reading in (_ascii_quoted(text), display_order(text), _named_in_markup(text), spelt_digits(text),
                    *spelt_letters(text), joined_literals(text), joined_literals(text, in_call=True)):
        if reading is not None and (changed := _changed_lines(reading, text)) is not None:
            result.append(changed)
    unescaped = _unescaped(text)
    if unescaped is not None and (changed := _changed_lines(unescaped, text)) is not None:
        result.append(changed)
        result += [_through(view, changed) for view in _decoded_runs(changed.text, known)]
    return result


def _named_in_markup(text: str) -> View | None:
    """Each credential's name in Markdown or HTML ("**password:** …", "<b>Token:</b> …") with
    what follows it on its line, as a screen shows them, one line each; the rules that need no
    name read the text as written already, and the rest of the note is not read again."""
    out: list[str] = []
    places: list[tuple[int, int]] = []
    covered = 0
    for name in _CREDENTIAL_NAME_RE.finditer(text):
        if name.start() < covered:
            continue
        opening = _MARK_BEFORE_RE.search(text, max(0, name.start() - 32), name.start())
        if opening is None or _MARK_AFTER_RE.match(text, name.end(), name.end() + 32) is None:
            continue
        first = opening.start()
        while first and text[first - 1] in "*_":
            first -= 1  # the whole run of marks: "**password:**"
        line_end = text.find("\n", name.end())
        end = min(len(text) if line_end == -1 else line_end, name.end() + _AFTER_NAME)
        shown = markup_taken_off(text[first:end])
        if shown is None or not shown.text:
            continue
        if out:
            out.append("\n")
            places.append(places[-1])
        out.append(shown.text)
        places.extend((a + first, b + first) for a, b in shown.places)
        covered = end
    return View("".join(out), tuple(places)) if out else None


def _through(view: View, base: View) -> View:
    """A view of ``base``'s text, re-pointed at the original text ``base`` was made from."""
    places = tuple((base.places[start][0], base.places[end - 1][1]) for start, end in view.places)
    return View(view.text, places, formats_only=view.formats_only)
