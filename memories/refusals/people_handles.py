"""Names in e-mail addresses, handles and logins (R-SAVE-3b): "ana.lopez@", "jsmith@", "@priya",
"@JacobRhines you're glossing over …", "priya_raman.csv", and names paired by a slash ("Kwame/Priya").
Split from people_cues.py, which reads the words around a name.
"""

from __future__ import annotations

import re

from memories.refusals.people_lexicon import (
    _key,
    _Lexicon,
)
from memories.refusals.people_tokens import _korean_given
from memories.refusals.people_words import (
    _EMAIL_ROLES,
    _FUNCTION,
    _GROUPS,
    _HANDLE_SERVICES,
    _PLACES,
    _TECH,
)

__all__ = ["_dotted_names", "_email_names_person", "handles", "names_apart_by_a_slash"]


def _nobodys_word(part: str) -> bool:
    """A word of an address or a handle that names a tool, a role, a team or nothing at all."""
    return part in _TECH or part in _EMAIL_ROLES or part in _GROUPS or part in _FUNCTION


def _common_surname(part: str, lex: _Lexicon) -> bool:
    return len(part) >= 3 and part in lex.last and (part not in lex.ambiguous or part in lex.english_surnames)


def _email_names_person(local: str, lex: _Lexicon) -> bool:
    """Does the local part of an email address hold a person's name?"""
    key = _key(local)
    if key in _EMAIL_ROLES:
        return False
    parts = [re.sub(r"\d+$", "", p) for p in re.split(r"[._+\-]+", key)]
    parts = [p for p in parts if p and p.isalpha()]
    if not parts or all(p in _EMAIL_ROLES or p in _GROUPS or p in _TECH for p in parts):
        return False

    def named(p: str) -> bool:
        if _nobodys_word(p):
            return False
        return p in lex.first or p in lex.last or (p not in lex.english and _korean_given(p))

    def strong(p: str) -> bool:
        return named(p) and p not in lex.ambiguous

    def surname_like(p: str) -> bool:
        return len(p) >= 3 and (strong(p) or p not in lex.english) and p not in _TECH

    if len(parts) >= 2:
        long_parts = [p for p in parts if len(p) > 1]
        if any(strong(p) for p in long_parts):
            return True  # "ana.lopez", "priya.ops"
        if len(long_parts) < len(parts):
            # "j.okafor", "d.tehrani": an initial and a surname; "j.smith" too (as "jsmith" below)
            return any(surname_like(p) or _common_surname(p, lex) for p in long_parts)
        if sum(named(p) for p in long_parts) >= 2:
            return True  # "will.young"
        # "mark_whitfield": a first name and a word that is no English word
        return any(p in lex.first for p in long_parts) and any(
            surname_like(p) for p in long_parts if p not in lex.first
        )
    word = parts[0]
    if word in lex.english:
        return strong(word) and word not in lex.wordlike and word not in lex.frequent
    if strong(word):
        return True  # "priya@"
    # "jokafor", "sdahl", "hlim": an initial and a surname
    rest = word[1:]
    if _common_surname(rest, lex):
        return True  # "jsmith", "kbrown": a common surname, even one that is a word
    for particle in ("von", "van", "de", "del", "della", "le", "la", "al", "el", "di", "da"):
        if rest.startswith(particle) and rest[len(particle) :] in lex.last:
            return True  # "fvonbulow"
    # "anamartinez", "taeyangsong"; a given name that is also a word before a surname that is
    # not ("analopez", "willokafor": fifteenth session)
    return any(
        named(word[:k]) and named(word[k:])
        and (word[:k] not in lex.ambiguous or (strong(word[k:]) and len(word) - k >= 4))
        for k in range(3, len(word) - 2)
    )


# "ping @priya", "cc @j.doe": a chat or code host's handle (not an email: no domain after it; not
# a URL's "user:password@host": a handle starts a word).
_HANDLE_RE = re.compile(r"(?:^|(?<=[\s(\[,;\"'>]))@(?P<handle>[A-Za-z][\w.\-]{1,38})(?![\w@])")


def handles(text: str, emails: list[tuple[int, int]], lex: _Lexicon) -> list[tuple[int, int, bool]]:
    """(start, end, whether it names a person) of each handle outside the emails, judged as an
    email's local part is ("@data-team" and "@dependabot" name nobody)."""
    if "@" not in text:
        return []
    found = []
    for match in _HANDLE_RE.finditer(text):
        if any(s <= match.start() < e for s, e in emails):
            continue
        handle = match.group("handle").rstrip(".-")
        end = match.start() + 1 + len(handle)
        # "@JacobRhines" reads as "Jacob.Rhines"; "@skooba you're …" opens a line spoken to someone.
        named = (_email_names_person(_CAMEL_HUMP_RE.sub(".", handle), lex)
                 or _addressed_handle(text, match.start(), end, handle, lex)
                 or _given_name_handle(text, end, handle, lex))
        found.append((match.start(), end, named))
    return found


_CAMEL_HUMP_RE = re.compile(r"(?<=[a-z])(?=[A-Z][a-z])")


def _given_name_handle(text: str, end: int, handle: str, lex: _Lexicon) -> bool:
    """A mention of someone by a given name written with its capital ("@Maria", "@Tom"), even one
    that is also a word; not an annotation or a decorator, which is called or followed by code
    ("@Override", "@Summer(…)", "@Mark.slow")."""
    return (handle.istitle() and handle.isalpha() and handle.lower() in lex.first
            and not text.startswith(("(", "."), end) and _ADDRESSED_AFTER_RE.match(text, end) is not None)
# What follows a handle that opens a line and speaks to its owner: words, not code ("@dataclass"
# alone on its line, "@app.route(" and "@Override" are decorators and annotations).
_ADDRESSED_AFTER_RE = re.compile(r":?[ \t]+(?!(?:public|private|protected|internal|static|final|void|class|"
                                 r"def|fun|function|async|export|const|val|var|override|abstract|interface)\b)"
                                 r"[A-Za-z']")


def _addressed_handle(text: str, start: int, end: int, handle: str, lex: _Lexicon) -> bool:
    """A handle opening a line, then words: "@skooba your are glossing over …", "@Steeven added a
    sketch"; not a word, a team, a role, a bot or a tool ("@here", "@data-team", "@mlops",
    "@dependabot", "@qa-bot"), nor an annotation before code ("@Transactional public void …")."""
    if text[text.rfind("\n", 0, start) + 1:start].strip() or not _ADDRESSED_AFTER_RE.match(text, end):
        return False
    if "." in handle or text.startswith("(", end):
        return False
    parts = [part for part in re.split(r"[_\-]+", _CAMEL_HUMP_RE.sub("_", handle).lower()) if part]
    return not any(part in lex.english or _nobodys_word(part) or part in _HANDLE_SERVICES
                   or part.endswith(("bot", "ops")) for part in parts)


# A first name and a surname joined by a dot or an underscore, as a login or a file name writes
# them ("priya_raman.csv"); not inside a path, a URL or a call ("ana.lopez(", "/srv/ana.lopez/").
_DOTTED_PAIR_RE = re.compile(r"(?<![\w.@/\\-])([^\W\d_]{3,})[._]([^\W\d_]{3,})"
                             r"(?:(?=\.[A-Za-z0-9]{2,5}(?![\w.@/\\(-]))|(?![\w.@/\\(-]))")


# A field that holds a person, right before its value: '"owner": "', "assignee=", "author: ".
_PERSON_FIELD_BEFORE_RE = re.compile(
    r"(?i)\b(?:owner|assignee|assigned[_ ]to|author|reviewer|approver|requester|reporter|"
    r"(?:created|updated|modified|approved|requested)[_ ]by|user(?:[_ ]?name)?|login|contact|manager|lead)"
    r"[\"']?\s*[:=]\s*[\"']?$")
_DOTTED_HINT_RE = re.compile(r"[^\W\d_][._][^\W\d_]")  # a letter, a dot or underscore, a letter: cheap to look for


def _dotted_names(text: str, taken: list[tuple[int, int]], lex: _Lexicon) -> list[tuple[int, int]]:
    """Rule 5b: "chidi.okonkwo", "Priya_Raman": a plain first name (no English word) and a known
    surname, joined as one identifier; or, both written with a capital ("Maria.Garcia",
    "Tom_Becker") or as the value of a field that holds a person ('"owner": "maria_garcia"'), a
    first name that is also a word and a surname frequent as a name."""
    if _DOTTED_HINT_RE.search(text) is None:
        return []
    found = []
    for match in _DOTTED_PAIR_RE.finditer(text):
        first, last = match.group(1).lower(), match.group(2).lower()
        if any(s <= match.start() < e for s, e in taken):
            continue
        if first not in lex.first or last not in lex.last or last in lex.ambiguous:
            continue
        if (first not in lex.english and first not in lex.ambiguous and last not in lex.frequent) or (
                match.group(1).istitle() and match.group(2).istitle()) or (
                _PERSON_FIELD_BEFORE_RE.search(text, max(0, match.start() - 30), match.start())):
            found.append(match.span())
    return found


# Two given names or surnames joined by a slash, as meeting notes pair people ("Kwame/Priya to
# pair"); a slash reads as code to the tokenizer, and a path has more of them ("docs/Priya/x").
_SLASHED_PAIR_RE = re.compile(r"(?<![\w/.\\])([A-Z][a-z]{2,})/([A-Z][a-z]{2,})(?![\w/.\\])")


def names_apart_by_a_slash(text: str, lex: _Lexicon) -> list[tuple[int, int]]:
    if "/" not in text:
        return []
    spans = []
    for pair in _SLASHED_PAIR_RE.finditer(text):
        keys = [pair.group(1).lower(), pair.group(2).lower()]
        if all((k in lex.first or k in lex.last) and k not in lex.wordlike and k not in lex.ambiguous
               and k not in _TECH and k not in _PLACES for k in keys):
            spans.append(pair.span())
    return spans
