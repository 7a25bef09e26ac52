"""Passwords in prose with no label word right before the value (R-SAVE-2): the words around it
say it is a password, so the value itself must look like one: long enough, mixing letters with
digits or symbols, not a word, an identifier of words, a version, an e-mail or a path.

* "reset the shared mailbox password to X", "use X for the admin login", "the login for the VPN
  is X" (issue 18), "wifi key: X", "log in as admin with X", "sign in with ana@… and X";
* the value first: "X is the root password", "Tr0ub4dor&3 was our admin pw";
* "the new one": "my password expired, the new one is X";
* a passphrase of words: "keystore passphrase: correct horse battery staple" (four to eight
  words, none of them a word of talk about passwords), an unlock or secret phrase too;

Nothing joining noun and value, or no word at all: memories.refusals.secret_unjoined.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_prose import _QUOTED_VALUE, _tail_value
from memories.refusals.secret_stand_ins import (
    _COMMON_WORDS,
    _is_non_secret_value,
)
from memories.refusals.secret_values import (
    _DATE_LIKE_RE,
    _VERSION_RE,
    _char_classes,
    _compile,
    _is_identifier_of_words,
)
from memories.refusals.wordlists import words

_BARE_VALUE = r"(?:" + _QUOTED_VALUE + r"|(?P<val>[^\s\"'`]{6,64}))"
# The last word after "use X for/to/as ...": what one does with a password, not where.
_LOGIN_NOUNS = (
    r"log\s*-?\s*in|logon|sign\s*-?\s*in|password|passwort|passphrase|passcode|pw|pwd|credentials?"
)
_SET_TO_RE = _compile(  # "reset/set/change the shared mailbox password to X"
    r"(?:re)?set|chang(?:e|ed|ing)|updat(?:e|ed|ing)|rotat(?:e|ed|ing)"
)
_SET_TO_TAIL_RE = _compile(
    r"(?:\s+(?:the|our|my|your|its|their|a|an))?(?:\s+[\w.@'\-]{1,30}){0,3}?"
    r"\s+(?:password|passwort|passphrase|passcode|pw|pwd|pin|login|credentials?)"
    r"(?:\s+(?:for|of|on)(?:\s+[\w.@'\-]{1,30}){1,3}?)?"
    r"\s+(?:to|as|into)\s+(?:be\s+)?" + _BARE_VALUE,
    re.IGNORECASE,
)
_USE_RE = _compile(r"(?:use|try|enter|type)\s+")  # "use X for the admin login"
_USE_TAIL_RE = _compile(
    _BARE_VALUE + r"\s+(?:for|to|as|on|at|when)\s+(?:the|our|my|your|a|an)?\s*"
    r"(?:[\w.@'\-]{1,30}\s+){0,3}?(?:" + _LOGIN_NOUNS + r")(?![A-Za-z])",
    re.IGNORECASE,
)
_LOGIN_IS_RE = _compile(  # "the login for the VPN is X", "VPN login is X"
    r"(?:login|log-in|sign-in|logon|access code|door code|gate code|unlock code|wifi key|wi-fi key"
    r"|network key|network security key|wireless key|wlan key|wpa2? key|secret word|safe word|safeword)"
)
_LOGIN_IS_TAIL_RE = _compile(
    r"(?:\s+(?:for|of|on|to)(?:\s+[\w.@'\-]{1,30}){1,4}?)?"
    r"\s+(?:is|was|is\s+now|=)\s+" + _BARE_VALUE,
    re.IGNORECASE,
)
# A key that is a password by its name, after ":" too ("wifi key: Kaffee2024"); a login's ":" is
# often followed by the user name ("login: jsmith01"), so it is not here.
_KEY_LABEL_RE = _compile(
    r"(?:access code|door code|wifi key|wi-fi key|wlan key|wpa2? key|network key|network security key|wireless key)")
# The same keys with no sign between, where a key's name is always the password's: "network
# security key X" (Windows' name for a Wi-Fi password), "wireless key X".
_KEY_LABEL_SPACE_RE = _compile(r"(?:network security key|wireless key|wi-?fi key|wlan key|wpa2? key)")
_KEY_LABEL_TAIL_RE = _compile(r"\s*[:=]\s*" + _BARE_VALUE)
_KEY_LABEL_SPACE_TAIL_RE = _compile(r"[ \t]+" + _BARE_VALUE)
# "log in with X", "sign in as admin with X", "sign in with ana@example.com and X".
_LOG_IN_WITH_RE = _compile(r"(?:log\s*-?\s*in|sign\s*-?\s*in|logon|authenticate)")
_LOG_IN_WITH_TAIL_RE = _compile(
    r"(?:\s+(?:as|to)(?:\s+[\w.@'\-]{1,40}){1,3}?)?\s+(?:with|using)\s+"
    r"(?:[\w.+\-]+@[\w.\-]+\s+(?:and|\+|/)\s+|(?:the\s+)?password\s+)?" + _BARE_VALUE,
    re.IGNORECASE,
)
_EMAIL_RE = _compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
_PASSWORD_WORD_RE = _compile(r"(?=p)(?<![\w])(?:password|passwort|passphrase|passcode)(?![\w\-])")


def _password_shaped(value: str, *, quoted: bool) -> bool:
    """A password with no label next to it: mixed classes, not a word, id, version or path."""
    value = value.rstrip(".,;:!?)") if not quoted else value
    if len(value) < 6 or " " in value or _is_non_secret_value(value):
        return False
    if _EMAIL_RE.match(value) or _VERSION_RE.fullmatch(value) or _DATE_LIKE_RE.fullmatch(value):
        return False
    if value.isdigit() or (value.isalpha() and not quoted):
        return False
    if len(value) < 8 and not quoted:
        return False  # "Node-18", "Java21": a product and its version
    if _char_classes(value) < 2:
        return False
    if not any(c.isupper() for c in value) and _is_identifier_of_words(value):
        return False  # "orders-v2-hotfix", "release_2024"
    if "/" in value or "\\" in value:
        return False
    return True


def _bare_value(match: re.Match, taken: Spans, *, classes: int = 2) -> Iterator[Candidate]:
    """The value a tail pattern matched, when it is shaped like a password (an unquoted one
    without the sentence's closing punctuation) of at least ``classes`` kinds of characters."""
    value, start, end, quoted = _tail_value(match)
    if not quoted:
        value = value.rstrip(".,;:!?)")
        end = start + len(value)
    if (not _overlaps(taken, start, end) and _password_shaped(value, quoted=quoted)
            and _char_classes(value) >= classes):
        yield "password_in_prose", start, end, 66


# (words one of which the note must hold, where the words are, what follows them, how many kinds
# of characters the value mixes): a product after "sign in with" ("ORCID-ID", "Azure-AD") mixes two.
_LOGIN_HINTS = ("pass", "pw", "pin", "log", "sign", "credential")
_BARE_FINDERS = (
    (_LOGIN_HINTS, _SET_TO_RE, _SET_TO_TAIL_RE, 2),
    (_LOGIN_HINTS, _USE_RE, _USE_TAIL_RE, 2),
    (("log", "sign", "code", "key", "word"), _LOGIN_IS_RE, _LOGIN_IS_TAIL_RE, 2),
    (("key", "code"), _KEY_LABEL_RE, _KEY_LABEL_TAIL_RE, 3),
    (("key",), _KEY_LABEL_SPACE_RE, _KEY_LABEL_SPACE_TAIL_RE, 3),
    (("log", "sign", "authenticate"), _LOG_IN_WITH_RE, _LOG_IN_WITH_TAIL_RE, 3),
)


def _find_bare_passwords(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    for hints, finder, tail, classes in _BARE_FINDERS:
        if not any(hint in lowered for hint in hints):
            continue  # none of the words the tail needs: most notes, at the cost of a few "in"s
        for core in finder.finditer(lowered):
            if core.start() and (lowered[core.start() - 1].isalnum() or lowered[core.start() - 1] == "_"):
                continue  # inside a word; tested here, not by a lookbehind, which slows re's scan
            match = tail.match(text, core.end())
            if match is not None:
                yield from _bare_value(match, taken, classes=classes)
    yield from _later_colon_values(text, lowered, taken)


# "The password for the staging db is the same as prod: Xk9#mP2q": a ":" later in the sentence
# that names the password; the value must mix three kinds of characters ("policy: 12 chars" is no
# password).
_LATER_COLON_RE = _compile(r"[^.!?\n]{0,60}?:\s+(?P<val>[^\s\"'`]{8,64})")


def _later_colon_values(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    for core in _PASSWORD_WORD_RE.finditer(lowered):
        match = _LATER_COLON_RE.match(text, core.end())
        if match is None:
            continue
        value = match.group("val").rstrip(".,;!?)")
        start, end = match.start("val"), match.start("val") + len(value)
        if _char_classes(value) >= 3 and not _overlaps(taken, start, end) and _password_shaped(value, quoted=False):
            yield "password_in_prose", start, end, 66


# --- The value first, "the new one", a passphrase of words --------------------------------

_PASSWORD_NOUNS = r"(?:password|passwort|passphrase|passcode|pw|pwd)"
# "Tr0ub4dor&3 is the root password", "X was our admin pw": found from "is the … password" back.
_NAMED_AFTER_RE = _compile(
    r"\s(?:is|was|=)\s+(?:the|our|my|your|their|its)(?:\s+[\w.@'\-]{1,30}){0,3}?\s+" + _PASSWORD_NOUNS
    + r"(?![\w\-])"
)
_VALUE_BEFORE_RE = _compile(r"(?:(?<![^\s(\[{])(?P<val>[^\s\"'`]{6,64})|" + _QUOTED_VALUE + r")\s*$")
_NEW_ONE_RE = _compile(r"(?<![\w])(?:the\s+)?new\s+one")  # "…password expired, the new one is X"
_NEW_ONE_TAIL_RE = _compile(r"\s*(?::|=|\s+is(?:\s+now)?\s+|\s+will\s+be\s+)\s*" + _BARE_VALUE)
_PASSWORD_BEFORE_RE = _compile(r"(?<![\w])" + _PASSWORD_NOUNS + r"(?![\w\-])")
_PASSPHRASE_RE = _compile(  # "keystore passphrase: correct horse battery staple"
    r"(?<![\w])(?:passphrase|pass\s+phrase|unlock\s+phrase|secret\s+phrase)\s*(?::|=|\s+is)\s*"
    r"(?P<val>[a-z]{3,12}(?:[ \-][a-z]{3,12}){3,7})(?=\s*(?:[.;,!\n]|$))"
)
# Words of talk about a passphrase, not of one: "see the vault entry", "same as last year". A
# passphrase may hold one word of talk ("correct horse battery staple"), not a function word.
_FUNCTION_WORDS = words("people_function_words")


def _find_value_first_passwords(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    if "phrase" in lowered:
        yield from _passphrases(lowered, taken)
    if _PASSWORD_BEFORE_RE.search(lowered) is None:
        return
    for core in _NAMED_AFTER_RE.finditer(lowered):
        match = _VALUE_BEFORE_RE.search(text, max(0, core.start() - 140), core.start())
        if match is None:
            continue
        value, start, end, quoted = _tail_value(match)
        if not _overlaps(taken, start, end) and _password_shaped(value, quoted=quoted):
            yield "password_in_prose", start, end, 66
    for core in _NEW_ONE_RE.finditer(lowered):
        if _PASSWORD_BEFORE_RE.search(lowered, max(0, core.start() - 80), core.start()) is None:
            continue
        match = _NEW_ONE_TAIL_RE.match(text, core.end())
        if match is not None:
            yield from _bare_value(match, taken)


def _passphrases(lowered: str, taken: Spans) -> Iterator[Candidate]:
    for match in _PASSPHRASE_RE.finditer(lowered):
        start, end = match.span("val")
        phrase = re.split(r"[ \-]", match.group("val"))
        if any(word in _FUNCTION_WORDS for word in phrase) or sum(word in _COMMON_WORDS for word in phrase) > 1:
            continue
        if not _overlaps(taken, start, end):
            yield "password_in_prose", start, end, 66
