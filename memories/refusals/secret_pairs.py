"""A login and its password written together (R-SAVE-2): "login admin / hunter2", "creds:
deploy/Xk9#mP2q", "user admin pass hunter2", "credentials are etl and …", a well-known account
and its password ("Router: admin/Adm1n2024", "router admin Tr0ub4dor3x"), and a quoted value
said to be the password ("Use 'R2d2C3po!' as the password"). Split from secret_prose.py, which
reads a password after its own word.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from memories.refusals.secret_formats import Candidate, Spans
from memories.refusals.secret_prose import _QUOTED_VALUE, _VALUE, _tail_value
from memories.refusals.secret_stand_ins import (
    _COMMON_WORDS,
    _PLACEHOLDER_RE,
    _PORT_OR_PATH_RE,
    _acceptable_password,
)
from memories.refusals.secret_values import (
    POLICY_SWITCHES,
    _compile,
    class_switches,
    grouped_alternation,
)

__all__ = ["_USER_WORD_RE", "find_user_password_pairs"]

# --- "login admin / hunter2", "creds: deploy/Xk9#mP2q", "user admin pass hunter2" ----------

# Grouped by first letter (secret_values.grouped_alternation), "u:" written with its lookbehind
# after the "u": the same matches, but every alternative now starts with a letter, so re skips to
# the positions one can start at instead of trying them all (benchmarks/bench_secrets.py).
_USER_WORD_RE = _compile(grouped_alternation([
    r"log\s*in", r"sign\s*in", "credentials", "creds?", "username", "user", "account", "acct", "benutzer",
    "utilisateur", "usuario", "wi-?fi", "wlan", "ssid", r"u(?<![\w.]u)(?=\s*[:=])",
]))
_USER_PASSWORD_TAIL_RE = _compile(
    r"(?:\s+(?:is|are|with|as|using|(?:for|on|to)(?:\s+[\w.@'\-]{1,40}){1,4}?))?"
    r"\s*[:=—–-]?\s*(?P<user>[A-Za-z0-9_@+][A-Za-z0-9_.@+\-]{1,63})"
    # "admin / …"; "admin: …", "admin, …", "etl | …" when a digit or a symbol follows
    r"(?:\s*/\s*|\s*[:,|]\s*(?=\S*[0-9!@#$%^&*])|(?P<and>\s+and\s+)(?=[^\s()]*[0-9!@#$%^&*][^\s()]*(?:[\s.,;]|$))"  # "… are etl and …", not "ssh(1)"
    r"|\s*,?\s+(?:and\s+|with\s+)?(?P<pw>password|passwort|pass|pwd|pw|mot\s+de\s+passe|"
    r"contrase(?:ñ|n)a)(?![A-Za-z])\s*[:=]?\s*"
    # "u: admin p: …": the letters alone, each with its colon
    r"|(?<=\S)\s+(?P<p>p)\s*[:=]\s*)"
    r"(?:(?:" + _QUOTED_VALUE + r")|(?P<val>" + _VALUE + r"))",
    re.IGNORECASE,
)


_NAMED_FILE_RE = _compile(r"\.[A-Za-z]{2,}$")
_DEFAULT_ACCOUNT_RE = _compile(  # searched in the lowercased note
    r"(?<![\w/.\-@:])(?:admin|administrator|root|sa|postgres|guest|ubuntu|pi|test|demo|"
    r"superuser|operator)\s*(?:/|:(?!//))\s*"
)
# "router admin Tr0ub4dor3x" ("login: admin / …" is _USER_PASSWORD_TAIL_RE's): a well-known
# account, a space, then a word drawn as a password policy asks (capitals, small letters and
# digits switching at least six times; "admin PR2024" and "root access" are no such draw).
# Matched only where one of the names starts a word (``_named_accounts``): searched, the pattern
# was tried at every position of the note (benchmarks/bench_secrets.py).
_DEFAULT_ACCOUNTS = ("admin", "root", "postgres", "superuser")
_DEFAULT_ACCOUNT_SPACE_RE = _compile(
    r"(?:administrator|admin|root|postgres|superuser)[ \t]+(?=[A-Za-z0-9][A-Za-z0-9!#$%&*?~^@._+\-]{7,63}(?:[\s.,;]|$))")


# "staging db: etl / Tr0ub4dor3x": a login in small letters, a slash between spaces, then such a word.
_LOGIN_SLASH_RE = _compile(r"(?<![\w/.\-@])[a-z][a-z0-9_.\-]{1,30}[ \t]+/[ \t]+(?=[^\s/]{8,64}(?:[\s.,;]|$))")


def _named_accounts(lowered: str) -> Iterator[re.Match]:
    """_DEFAULT_ACCOUNT_SPACE_RE's matches, tried only where a name starts a word."""
    for name in _DEFAULT_ACCOUNTS:
        position = lowered.find(name)
        while position != -1:
            if not position or not lowered[position - 1].isalnum():
                match = _DEFAULT_ACCOUNT_SPACE_RE.match(lowered, position)
                if match is not None:
                    yield match
            position = lowered.find(name, position + 1)


def _drawn_as_a_password(value: str) -> bool:
    return (any(c.isupper() for c in value) and any(c.islower() for c in value) and any(c.isdigit() for c in value)
            and class_switches(value) >= POLICY_SWITCHES)


_NUMBER_RE = _compile(r"\d+(?:[.,]\d+)*")
_VALUE_RE = _compile(r"(?:" + _QUOTED_VALUE + r")|(?P<val>" + _VALUE + r")")
# What follows "test/" in a path: a file or a folder, names of words joined, or with an extension.
_IN_A_PATH_RE = _compile(
    r"\.[\w.\-]+$"  # ".gitignore"
    r"|[\w*\-]+(?:\.[\w\-]+)*\.(?:[A-Za-z][A-Za-z0-9]{0,5}|[a-z]{6,10})$"  # "mk-test.awk", "test*.py", "out271.expected"
    r"|[\w.\-]*\{[\w.,\-]*\}?$"  # "{overlay.c", "{exp.b,fact.b}", "ann_module{,2,3}": a shell's braces
    r"|\d+(?:\.\d+)+(?:[\-+~][\w.+~]+)?$"  # "ubuntu/2.13.2-9ubuntu7": a release
    r"|[a-z]+(?:[\-_][a-z]+)+$"  # "bitmap-font", "glyph-test"
)
_QUOTED_BEFORE_PASSWORD_RE = _compile(
    r"(?:" + _QUOTED_VALUE + r")\s+(?:is|was|as|=)\s+(?:the|our|my|your|a|an)?\s*"
    r"(?:[\w\-]+\s+){0,2}?(?:password|passwort|passphrase|pwd|pw|passcode)(?![A-Za-z])",
    re.IGNORECASE,
)


def find_user_password_pairs(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    for core in _USER_WORD_RE.finditer(lowered):
        start, end = core.span()
        if (start and (lowered[start - 1].isalnum() or lowered[start - 1] == "_")) or (
                end < len(text) and (text[end].isalnum() or text[end] == "_")):
            continue  # "Flask_Login", "user_id": part of a name
        if lowered[max(0, start - 3): start].endswith(("://", "/")):
            continue  # "postgres://USER:PASSWORD@HOST": a URL template, handled as a URL
        match = _USER_PASSWORD_TAIL_RE.match(text, end)
        if match is None:
            continue
        value, v_start, v_end, quoted = _tail_value(match)
        user = match.group("user")
        if user.lower() in _COMMON_WORDS and user.lower() not in {"admin", "root"}:
            continue
        if _NUMBER_RE.fullmatch(user):
            continue  # "scputimes(user=3961.46, nice=169.729, …)": a measure named user, not a login
        if _PLACEHOLDER_RE.match(user.split("@")[0]) or _PORT_OR_PATH_RE.match(value):
            continue
        if not match.group("pw") and not quoted and ("/" in value or ":" in value):
            continue  # "user: app:x:1001:1001::/srv/app" is a passwd line, not a password
        if match.group("and") and (user[0].isdigit() or _NAMED_FILE_RE.search(value)):
            continue  # "user-1000.slice and user-1001.slice": two names of things
        strength = "weak" if match.group("pw") else "strong"
        if _acceptable_password(value, strength=strength, quoted=quoted):
            yield "password_in_prose", v_start, v_end, 68
    # "Router: admin/Adm1n2024", "root:Toor2024!": a well-known account name, then a password.
    for account in _DEFAULT_ACCOUNT_RE.finditer(lowered):
        match = _VALUE_RE.match(text, account.end())
        if match is None:
            continue
        value, v_start, v_end, quoted = _tail_value(match)
        if not quoted and ("/" in value or ":" in value):
            continue
        if account.group().endswith("/") and not quoted and _IN_A_PATH_RE.match(value):
            continue  # "test/.gitignore", "test/mk-test.awk", "test/glyph-test": a folder and a file
        if _acceptable_password(value, strength="strong", quoted=quoted):
            yield "password_in_prose", v_start, v_end, 67
    logins = _LOGIN_SLASH_RE.finditer(text) if " / " in text else ()
    for account in [*_named_accounts(lowered), *logins]:
        if account.start() and lowered[account.start() - 1] in "/.-@:_":
            continue  # "/root", "db.admin", "ana@root": a path's, a name's or an address's part
        match = _VALUE_RE.match(text, account.end())
        if match is None:
            continue
        value, v_start, v_end, quoted = _tail_value(match)
        value = value.rstrip(".,;")
        if _drawn_as_a_password(value) and _acceptable_password(value, strength="strong", quoted=quoted):
            yield "password_in_prose", v_start, v_start + len(value), 66
    # "Use 'R2d2C3po!' as the password": the quoted value comes first.
    has_quote = "'" in text or '"' in text or "`" in text or "“" in text
    if has_quote and any(word in lowered for word in ("pass", "pw")):
        for match in _QUOTED_BEFORE_PASSWORD_RE.finditer(text):
            value, v_start, v_end, _ = _tail_value(match)
            if _acceptable_password(value, strength="strong", quoted=True) and " " not in value:
                yield "password_in_prose", v_start, v_end, 67
