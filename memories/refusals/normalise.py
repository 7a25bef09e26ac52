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

import html
import re
import unicodedata

from memories.refusals.disguise import UNREAD_CATEGORIES, display_order, markup_taken_off
from memories.refusals.normalise_code import argument_lists, char_codes, joined_literals
from memories.refusals.normalise_decode import decoded_runs
from memories.refusals.normalise_pieces import pieces
from memories.refusals.normalise_runs import separated_runs
from memories.refusals.normalise_spelt import spelt_digits, spelt_letters
from memories.refusals.secret_assignments import credential_name
from memories.refusals.secret_values import up_to_a_note
from memories.refusals.view import View, joined_lines, replaced
from memories.refusals.wordlists import table

__all__ = ["View", "views"]

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


# The English stems of a credential's name: "pässwört" and "tökén" read without their accents.
_KEYWORD_STEM_RE = re.compile(r"(?i)pass|pwd|secret|token|key|auth|cred")
# A credential's name inside emphasis or an HTML element: "**password:**", "<b>Token:</b>",
# "__pw__" (code's "__init__" and "List<String>" hold no such name).
# The lookahead on a name's first letter lets re skip the letters no name starts with (a
# third of the time of the alternation alone: benchmarks/bench_secrets.py).
_CREDENTIAL_NAME_RE = re.compile(r"(?i)(?=[pstkac])(?:" + _KEYWORD_STEM_RE.pattern.removeprefix("(?i)") + r"|\bpw\b)")
_MARK_BEFORE_RE = re.compile(r"(?i)(?:\*|_|<[a-z][a-z0-9]*>)[^*_<>\n]*$")
_MARK_AFTER_RE = re.compile(r"(?i)[^*_<>\n]*(?:\*|_|</[a-z][a-z0-9]*>)")
_AFTER_NAME = 160  # characters after the name read with it: its value
# An XML element with a value of one word, on the tag's line or a line of its own, or in CDATA
# (a phrase between tags is secret_assignments' to judge).
_ELEMENT_RE = re.compile(
    r"<(?P<name>[A-Za-z_][\w.\-]{0,60})(?:\s[^<>]{0,200})?>\s*"
    r"(?:<!\[CDATA\[(?P<cdata>[^\]\s]" + up_to_a_note(1) + r")\]\]>|(?P<val>[^<\s]" + up_to_a_note(1) + r"))"
    r"\s*</(?P=name)>")


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
    kept: list[View] = []
    line_start = 0
    reading = view.text
    while line_start <= len(reading):
        line_end = reading.find("\n", line_start)
        line_end = len(reading) if line_end == -1 else line_end
        places = view.places[line_start:line_end]
        if any(end - start != 1 or text[start] != reading[line_start + k]
               or (k and start != places[k - 1][1])  # characters left out between these two
               for k, (start, end) in enumerate(places)):
            kept.append(View(reading[line_start:line_end], places))
        line_start = line_end + 1
    return joined_lines(kept, formats_only=view.formats_only)


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
    decoded = decoded_runs(text, known)
    for percent in _percent_decoded(text):
        result.append(percent)
        decoded += [_through(view, percent) for view in decoded_runs(percent.text, [])]
    result += decoded
    result += char_codes(text)
    result += pieces(text, known)
    for reading in (_ascii_quoted(text), display_order(text), _named_in_markup(text),
                    _elements_as_settings(text), spelt_digits(text),
                    *spelt_letters(text), joined_literals(text), joined_literals(text, in_call=True),
                    argument_lists(text)):
        if reading is not None and (changed := _changed_lines(reading, text)) is not None:
            result.append(changed)
    unescaped = _unescaped(text)
    if unescaped is not None and (changed := _changed_lines(unescaped, text)) is not None:
        result.append(changed)
        result += [_through(view, changed) for view in decoded_runs(changed.text, known)]
    return result


def _named_in_markup(text: str) -> View | None:
    """Each credential's name in Markdown or HTML ("**password:** …", "<b>Token:</b> …") with
    what follows it on its line, as a screen shows them, one line each; the rules that need no
    name read the text as written already, and the rest of the note is not read again."""
    snippets: list[View] = []
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
        snippets.append(View(shown.text, tuple((a + first, b + first) for a, b in shown.places)))
        covered = end
    return joined_lines(snippets)


def _elements_as_settings(text: str) -> View | None:
    """Each XML element named for a credential with a one-word value, read as the same setting in
    a YAML or .env file, one line each: "<snykToken>\\n  1234…\\n</snykToken>" and "<password><![CDATA[…]]>
    </password>" read "snykToken: 1234…", "password: …", so every rule about a name and its
    value judges the element as it judges "name: value". None when no element names one."""
    if "</" not in text:
        return None
    settings: list[View] = []
    for element in _ELEMENT_RE.finditer(text):
        if not credential_name(element.group("name")):
            continue
        value = "cdata" if element.group("cdata") is not None else "val"
        colon = (element.end("name"), element.end("name") + 1)  # stands for the rest of the tag
        places = ([(i, i + 1) for i in range(*element.span("name"))] + [colon, colon]
                  + [(i, i + 1) for i in range(*element.span(value))])
        settings.append(View(f"{element.group('name')}: {element.group(value)}", tuple(places)))
    return joined_lines(settings)


def _through(view: View, base: View) -> View:
    """A view of ``base``'s text, re-pointed at the original text ``base`` was made from."""
    places = tuple((base.places[start][0], base.places[end - 1][1]) for start, end in view.places)
    return View(view.text, places, formats_only=view.formats_only)
