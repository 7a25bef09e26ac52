"""Readings of code for the secret detector (memories.refusals.normalise): string literals joined
by an operator, a line break or a join call ("'ghp_' + 'R8x2…'", "['ghp_…', '…'].join('')"), and
character codes in a row ("String.fromCharCode(103, 104, …)"), each read as the string it makes.
"""

from __future__ import annotations

import re

from memories.refusals.view import View, replaced

__all__ = ["argument_lists", "char_codes", "joined_literals"]

# String literals joined in code: "+" (JS, Java, Go, C#), "." (PHP, Perl), ".." (Lua), "||"
# (SQL), "&" (VB), nothing (shell's "a""b"), or a line break (Python's and C's literals).
_LITERAL = r"([\"'`])((?:(?!\1)[^\\\n]|\\.){0,200})\1"
_LITERAL_RE = re.compile(_LITERAL)
_JOIN_RE = re.compile(r"\s*(?:\+|\.{1,2}|\|\||&)?\s*")
# Two literals with an operator or a line break between them, or two double-quoted ones side by
# side ("a""b"; two single quotes side by side are SQL's escaped quote). Two patterns: the second
# starts with any character, so re tries it at every position; it is searched only where '""' is.
_JOINED_LITERALS_HINT_RE = re.compile(
    r"[\"'`](?:[ \t]*(?:\+|\.{1,2}|\|\||&)\s*|[ \t]*\r?\n\s*)[\"'`]")
_SIDE_BY_SIDE_RE = re.compile(r"[^\s\"]\"\"[^\s\"]")
# A call that joins its literals whatever separates them in the source: "[…].join('')",
# "''.join([…])", "CONCAT(…)", "implode('', […])", "strings.Join(…)", "String.join(…)".
# Searched only where one of its words is (a case-blind pattern is searched position by position).
_JOIN_CALL_RE = re.compile(r"(?i)\b(?:join|concat|concat_ws|implode)\s*\(")
_JOIN_CALL_WORDS = ("join", "concat", "implode")
_COMMA_JOIN_RE = re.compile(r"\s*(?:,|\+|\.{1,2}|\|\||&)?\s*")
# Character codes in a row: "fromCharCode(103,104,112,…)", "bytes([103, 104, …])", "chr(103)+chr(104)",
# SQL's "CHAR(103)||CHAR(104)" (and "+", "&", "." between them: T-SQL, VB, PHP).
_CHAR_CODES_RE = re.compile(r"(?<![\w.])(?:(?:3[2-9]|[4-9]\d|1[01]\d|12[0-6])[ \t]*(?:,|\)?[ \t]*(?:\+|\|\||&|\.)[ \t]*(?i:chr|char)\()[ \t]*){11,}"
                            r"(?:3[2-9]|[4-9]\d|1[01]\d|12[0-6])(?![\w.])")
# The same in hex bytes ("0x67, 0x68, …", "67 68 70 5f …" as a hex dump prints them, "67:68:…")
# and in octal escapes ("\147\150\160…"); only runs of printable ASCII spell text.
_HEX_BYTES_RE = re.compile(r"(?<![\w:])(?:(?:0x)?[2-7][0-9a-fA-F](?:[ \t]*,[ \t]*|[ :])){11,}(?:0x)?[2-7][0-9a-fA-F](?![\w:])")
# Three bytes in a row first: one pass of this costs a quarter of the run pattern's.
_HEX_BYTES_HINT_RE = re.compile(r"[2-7][0-9a-fA-F][ :,] ?(?:0x)?[2-7][0-9a-fA-F][ :,] ?(?:0x)?[2-7][0-9a-fA-F][ :,]")
_OCTAL_ESCAPES_RE = re.compile(r"(?:\\(?:0[4-7]|1[0-7])[0-7]){12,}")
# Hex of printable ASCII written without separators ("6768705f52387832…"), quoted-printable's
# "=67=68=70…", bytes in binary ("01100111 01101000 …"), and a list of one-character strings
# ("['g', 'h', 'p', …]"). A hex run must decode to printable text, which a hash's bytes do not.
_HEX_RUN_RE = re.compile(r"(?<![0-9A-Za-z])(?:[2-7][0-9a-fA-F]){12,}(?![0-9A-Za-z])")
_QUOTED_PRINTABLE_RE = re.compile(r"(?:=[2-7][0-9A-F]){12,}")
_BINARY_BYTES_RE = re.compile(r"(?<![01])(?:0[01]{7}[ ,]{1,2}){11,}0[01]{7}(?![01])")
_CHAR_LIST_RE = re.compile(r"""(?:(["'])[^"'\\\s]\1\s*,\s*){11,}(["'])[^"'\\\s]\2""")


def _joins_literals(text: str) -> bool:
    return (_JOINED_LITERALS_HINT_RE.search(text) is not None
            or ('""' in text and _SIDE_BY_SIDE_RE.search(text) is not None))


def _calls_a_join(text: str) -> bool:
    if "(" not in text:
        return False
    lowered = text.lower()
    return any(word in lowered for word in _JOIN_CALL_WORDS) and _JOIN_CALL_RE.search(text) is not None


def joined_literals(text: str, *, in_call: bool = False) -> View | None:
    """String literals joined in code read as the one string they make: "token = 'ghp_' +
    'R8x2…'" reads "token = 'ghp_R8x2…'". None when no two literals are joined.

    ``in_call``: the text calls a join ("[…].join('')", "CONCAT(…)"), so a comma between
    literals joins them too; such a view counts only findings of a format of its own (any two
    arguments side by side would otherwise make a random-looking string)."""
    if not (_calls_a_join(text) if in_call else _joins_literals(text)):
        return None
    join_re = _COMMA_JOIN_RE if in_call else _JOIN_RE
    out: list[str] = []
    places: list[tuple[int, int]] = []
    position = 0
    joined_any = False
    search_from = 0
    while (first := _LITERAL_RE.search(text, search_from)) is not None:
        parts = [first]
        while True:
            join = join_re.match(text, parts[-1].end())
            following = _LITERAL_RE.match(text, join.end())
            spaces_only = not join.group().strip()
            # Space alone joins literals only across lines (Python, C); on one line it
            # separates a shell's arguments ('--user "$1:$2" "$3"').
            if following is None or (spaces_only and join.group() and "\n" not in join.group()):
                break
            parts.append(following)
        search_from = parts[-1].end()
        if len(parts) < 2:
            search_from = first.end() - 1 if first.end() - first.start() > 2 else first.end()
            continue
        joined_any = True
        out.append(text[position: first.start() + 1])  # up to the first opening quote
        places.extend((i, i + 1) for i in range(position, first.start() + 1))
        for part in parts:
            out.append(part.group(2))
            places.extend((i, i + 1) for i in range(part.start(2), part.end(2)))
        out.append(first.group(1))
        places.append((parts[-1].end() - 1, parts[-1].end()))
        position = parts[-1].end()
    if not joined_any:
        return None
    out.append(text[position:])
    places.extend((i, i + 1) for i in range(position, len(text)))
    return View("".join(out), tuple(places), formats_only=in_call)


def char_codes(text: str) -> list[View]:
    """Twelve or more character codes in a row (printable ASCII: in decimal, in hex bytes or a
    hex run, in octal escapes, quoted-printable or binary), or one-character strings in a list,
    each run read as the text it spells; every character of it stands for the whole run."""
    result = []
    for pattern, hint, code_re, base in _SPELT_BYTES:
        if hint(text):
            for run in pattern.finditer(text):
                decoded = "".join(chr(int(code, base)) for code in code_re.findall(run.group()))
                if decoded.isprintable():
                    result.append(View(decoded, (run.span(),) * len(decoded)))
    if text.count("'") + text.count('"') >= 24:  # twelve one-character strings at least
        for run in _CHAR_LIST_RE.finditer(text):
            decoded = "".join(re.findall(r"[\"']([^\"'])[\"']", run.group()))
            result.append(View(decoded, (run.span(),) * len(decoded)))
    return result


# (run, a cheap test that the text may hold one, one code, its base), for char_codes.
_SPELT_BYTES = (
    (_CHAR_CODES_RE, lambda text: "," in text or "chr(" in text or "CHAR(" in text or "char(" in text, re.compile(r"\d+"), 10),
    (_HEX_BYTES_RE, _HEX_BYTES_HINT_RE.search, re.compile(r"(?:0x)?([0-9a-fA-F]{2})"), 16),
    (_OCTAL_ESCAPES_RE, lambda text: "\\" in text, re.compile(r"[0-7]{3}"), 8),
    (_HEX_RUN_RE, lambda text: True, re.compile(r"[0-9a-fA-F]{2}"), 16),
    (_QUOTED_PRINTABLE_RE, lambda text: "=" in text and any(f"={d}" in text for d in "234567"),
     re.compile(r"(?<==)[0-9A-F]{2}"), 16),
    (_BINARY_BYTES_RE, lambda text: "0110" in text or "0100" in text, re.compile(r"[01]{8}"), 2),
)


# A command line written as a list of its arguments, as code runs one (Python's subprocess, a
# Dockerfile's exec form, Kubernetes' "args:", a CI step): '["mysql", "-uroot", "-pX"]'. A flag
# among the items says it is one.
_ARGUMENT = r"(?:\"(?:[^\"\\\n]|\\.){1,200}\"|'(?:[^'\\\n]|\\.){1,200}')"
_ARGUMENT_LIST_RE = re.compile(r"\[\s*" + _ARGUMENT + r"(?:\s*,\s*" + _ARGUMENT + r")+\s*,?\s*\]")
_FLAG_ITEM_HINT_RE = re.compile(r"[\[,]\s*[\"']-")


# The same as YAML writes it, an item a line: "args:\n  - --password\n  - X".
_YAML_ITEM_RE = re.compile(r"^(?P<indent>[ \t]*)-[ \t]+(?P<item>[^\n]*[^\s])[ \t]*$", re.MULTILINE)


def argument_lists(text: str) -> View | None:
    """Each list of arguments that holds a flag read as the command line it stands for:
    '["mysql", "-uroot", "-pX"]' and YAML's "- mysql\n- -uroot\n- -pX" read 'mysql -uroot -pX',
    so the command-line rules see it. None when the text has no such list."""
    changes = []
    if "[" in text and _FLAG_ITEM_HINT_RE.search(text) is not None:
        for listed in _ARGUMENT_LIST_RE.finditer(text):
            items = [(listed.start() + m.start() + 1, m.group()[1:-1])
                     for m in re.finditer(_ARGUMENT, listed.group())]
            changes.append((listed.start(), listed.end(), items))
    if "- -" in text or '- "-' in text or "- '-" in text:
        changes += _yaml_argument_lists(text)
    readings = []
    for start, end, items in sorted(changes):
        if not any(item.startswith("-") for _, item in items):
            continue
        reading: list[str] = []
        places: list[tuple[int, int]] = []
        for number, (item_start, item) in enumerate(items):
            if number:
                reading.append(" ")
                before = items[number - 1][0] + len(items[number - 1][1])
                places.append((before, item_start))
            reading.append(item)
            places.extend((item_start + k, item_start + k + 1) for k in range(len(item)))
        readings.append((start, end, "".join(reading), places))
    return replaced(text, readings)


def _yaml_argument_lists(text: str) -> list[tuple[int, int, list[tuple[int, str]]]]:
    """(start, end, items) of each run of two or more YAML items a line, at one indent."""
    runs = []
    run: list[re.Match] = []
    for item in _YAML_ITEM_RE.finditer(text):
        if run and (item.group("indent") != run[-1].group("indent") or item.start() != run[-1].end() + 1):
            runs.append(run)
            run = []
        run.append(item)
    runs.append(run)
    found = []
    for run in runs:
        if len(run) < 2:
            continue
        items = []
        for item in run:
            start, value = item.start("item"), item.group("item")
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                start, value = start + 1, value[1:-1]
            items.append((start, value))
        found.append((run[0].start("item") - 2, run[-1].end(), items))
    return found
