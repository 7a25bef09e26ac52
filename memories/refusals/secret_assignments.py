"""A quoted phrase assigned to a credential name (R-SAVE-2), as code and configuration write it:

    password = "value with quotes and spaces"
    secret: 'blue horse under the bridge'
    api_key="red fox jumps high"          "db_password": "ocean wave tide"
    secret "red fox jumps high";          if ("red fox jumps high" == password)

and the value of an XML element named for a credential (``<password>…</password>``, as in
Maven's settings.xml), with or without spaces, and of an HTML password field
(``<input type="password" value="…">``).

In prose, a quoted phrase after "password is" is often talk ("their password is 'the usual
one'"), so secret_prose judges it by its words. After an assignment operator (``=``, ``:``,
``:=``, ``?=``, ``<-``, ``=>``, ``==`` …) the literal *is* the value, whatever its words: a
passphrase is words. It is refused unless it is a placeholder or template:

* template syntax anywhere in it: ``<…>``, ``${…}``, ``{{…}}``, ``%(…)s``;
* a stand-in said so: "your password here", "enter your password", "insert token here",
  "changeme", "fake" / "dummy" / "example" / "placeholder" / "redacted", only ``x`` or ``*``;
* a reference to where the value lives: "see vault", "from 1Password", "in the secret manager"
  (a value that starts with see / from / in / stored / ask / same as / set in / ...).

The name must say credential (secret…, password / passwd / pwd / passphrase / passcode, a
compound with "pass", token, api key, auth / access / private / signing / client key or token,
credentials), and not what the value is *about* ("password_hint", "secret_name", "token_type").
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_prose import _NOT_A_PASSWORD_PREFIX_RE, _NOT_A_PASSWORD_SUFFIX_RE
from memories.refusals.secret_stand_ins import (
    _acceptable_password,
    placeholder_phrase,
)
from memories.refusals.secret_values import (
    _compile,
    up_to_a_note,
)
from memories.refusals.wordlists import words

__all__ = ["NOT_CREDENTIAL_QUALIFIERS", "credential_name", "find_quoted_phrase_assignments", "name_parts"]

# A quoted literal with a space in it (or one line break). Written without backtracking: the
# literal-first form is searched across a whole note, and "[^'\n]*\s[^'\n]*" tried every split
# of the text after each apostrophe, the slowest step of a 1 KB note of prose
# (benchmarks/bench_secrets.py).
_PHRASE = r"(?:\"(?P<dq>[^\"\n]*+\n[^\"\n]*+|[^\"\n\s]*+\s[^\"\n]*+)\"|'(?P<sq>[^'\n]*+\n[^'\n]*+|[^'\n\s]*+\s[^'\n]*+)'|`(?P<bq>[^`\n]*+\n[^`\n]*+|[^`\n\s]*+\s[^`\n]*+)`)"
# Found from the credential word out (a scan of every word of a note is several times slower):
# the identifier around the word, then anchored after it what follows a name in an assignment.
_STEM_RE = _compile(r"secret|pass|pwd|token|key|cred")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_ASSIGNED_PHRASE_TAIL_RE = _compile(
    r"[\"']?(?:\[[^\]\n]{0,12}\]|\s*:\s*(?:str|string|String)(?=\s*=)|\s+(?:string|String)(?=\s*=))?"
    # An operator, or none in a configuration directive ('secret "…";', BIND / nginx).
    r"(?:\s*(?P<op>===|!==|==|!=|:{1,3}=|\?\??=|\.=|\+=|=>|<-|=|:)\s*@?|\s+)" + _PHRASE
)
# The literal first: 'if ("…" == password)'.
_PHRASE_FIRST_RE = _compile(
    _PHRASE + r"\s*(?:===|!==|==|!=)\s*(?P<name>[A-Za-z_$][A-Za-z0-9_.\->$]{1,60})"
)
# XML configuration (Maven's settings.xml, .NET, Tomcat): "<password>…</password>".
_XML_ELEMENT_RE = _compile(
    r"<(?P<name>[A-Za-z_][\w.\-]{1,60})(?:\s[^<>\n]{0,200})?>\s*(?P<val>[^<\n]" + up_to_a_note(1) + r"?)\s*</(?P=name)>"
)
_DIRECTIVE_END_RE = _compile(r"[ \t]*(?:;|\r?\n|$)")


def directive(text: str, name_start: int, literal_end: int) -> bool:
    """A configuration directive without an operator: the name first on its line, the literal
    last ('secret "…";' in BIND, nginx, Apache)."""
    line_start = text.rfind("\n", 0, name_start) + 1
    return (text[line_start:name_start].strip() == ""
            and _DIRECTIVE_END_RE.match(text, literal_end) is not None)
_NAME_PART_RE = _compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_KEYWORD_LOOKALIKES = words("secrets_keyword_lookalikes")
_PASSWORD_PARTS = frozenset({"password", "passwd", "pwd", "passphrase", "passcode", "passwords", "psk"})
_KEY_QUALIFIERS = frozenset(
    {"api", "auth", "access", "private", "priv", "signing", "client", "secret", "encryption",
     "master", "service", "account", "db", "database", "session", "webhook", "bearer", "refresh"}
)
# Words before "key" / "token" that make the name a map key, a position or a count
# ("sort_key", "next_page_token"): data/secrets_not_credential_qualifiers.txt.
NOT_CREDENTIAL_QUALIFIERS = words("secrets_not_credential_qualifiers")
_NOT_ABOUT_THE_VALUE_RE = _compile(
    r"(?i)[_\-.](?:id|ids|name|names|type|count|length|len|url|uri|path|file|hash|prefix|"
    r"column|field|header|ttl|expiry|expires|version|format|env|var|description|desc|help|"
    r"label|hint|text|message|msg|title|comment|note|notes|doc|docs)$"
)
_CAMEL_HUMP_RE = _compile(r"(?<=[a-z0-9])(?=[A-Z])")


def name_parts(name: str) -> list[str]:
    """The words of an identifier, lower case: "nextPageToken" -> next, page, token."""
    return [p.lower() for p in _NAME_PART_RE.findall(name)]


def credential_name(name: str) -> bool:
    snake = _CAMEL_HUMP_RE.sub("_", name)  # "passwordPolicy" reads as "password_Policy"
    # Only what follows the last credential word can say the name is about something else:
    # "password_login" is a setting, "administrator_login_password" a password.
    stems = list(_STEM_RE.finditer(snake.lower()))
    after = stems[-1].end() if stems else 0
    if _NOT_A_PASSWORD_SUFFIX_RE.search(snake, after) or _NOT_A_PASSWORD_PREFIX_RE.search(snake):
        return False
    if _NOT_ABOUT_THE_VALUE_RE.search(snake):
        return False
    parts = name_parts(name)
    for index, part in enumerate(parts):
        before = parts[index - 1] if index else ""
        if part.startswith("secret") and part not in _KEYWORD_LOOKALIKES:
            return True
        if part in _PASSWORD_PARTS or part in {"credential", "credentials", "creds", "apikey"}:
            return True
        if part == "pass" and len(parts) > 1:
            return True  # "db_pass", "smtpPass"; a bare "pass" is a verb as often
        if part == "key" and before in _KEY_QUALIFIERS:
            return True  # "api_key", "secretKey"; a bare "key" is any map's key
        if part == "token" and before not in NOT_CREDENTIAL_QUALIFIERS:
            return True
    return False


def find_quoted_phrase_assignments(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    if not any(w in lowered for w in ("secret", "pass", "pwd", "token", "key", "cred")):
        return
    if "</" in text:
        yield from _xml_elements(text, taken)
    if "<input" in lowered:
        yield from _password_inputs(text, taken)
    if not any(q in text for q in "\"'`"):
        return
    matches = list(_assigned_phrases(text, lowered))
    if "==" in text or "!=" in text:
        matches += [m for m in _PHRASE_FIRST_RE.finditer(text)
                    if credential_name(m.group("name").rsplit(">", 1)[-1].lstrip("$"))]
    for match in matches:
        group = next(g for g in ("dq", "sq", "bq") if match.group(g) is not None)
        start, end = match.span(group)
        if _overlaps(taken, start, end) or placeholder_phrase(match.group(group)):
            continue
        yield "generic_secret", start, end, 64


def _assigned_phrases(text: str, lowered: str) -> Iterator[re.Match]:
    done = -1
    for stem in _STEM_RE.finditer(lowered):
        if stem.start() < done:
            continue  # a second stem in a name already read ("secret_token")
        start, end = stem.span()
        while start and text[start - 1] in _NAME_CHARS:
            start -= 1
        while end < len(text) and text[end] in _NAME_CHARS:
            end += 1
        done = end
        while start < end and not (text[start].isalpha() or text[start] == "_"):
            start += 1  # a name starts with a letter or "_"
        while end > start and text[end - 1] in ".-":
            end -= 1  # "… the password." ends a sentence
        if start and text[start - 1] in "%{":
            continue  # "%PASSWORD%", "${PASSWORD}": a reference to a variable
        if not credential_name(text[start:end]):
            continue
        match = _ASSIGNED_PHRASE_TAIL_RE.match(text, end)
        if match is None:
            continue
        if match.group("bq") is not None and start and text[start - 1] == "`":
            continue  # "`credentials=` object when …": the name's own code span closes, no value opens
        if match.group("op") is None and not directive(text, start, match.end()):
            continue  # 'secret "…";' on a line of its own is a directive; 'the secret "…"' prose
        yield match


def _xml_elements(text: str, taken: Spans) -> Iterator[Candidate]:
    for match in _XML_ELEMENT_RE.finditer(text):
        value = match.group("val")
        start, end = match.span("val")
        if not credential_name(match.group("name")) or _overlaps(taken, start, end):
            continue
        if " " in value.strip():
            if placeholder_phrase(value):
                continue
        elif not _acceptable_password(value.strip(), strength="weak", quoted=True):
            continue
        yield "generic_secret", start, end, 64


# An HTML form's password field with its value written in: '<input type="password" value="…">'.
_PASSWORD_INPUT_RE = _compile(r"(?i)<input\b[^<>]*\btype\s*=\s*[\"']?password\b[^<>]*>")
_VALUE_ATTRIBUTE_RE = _compile(r"(?i)\bvalue\s*=\s*(?:\"(?P<dq>[^\"<>]" + up_to_a_note(1) + r")\"|'(?P<sq>[^'<>]" + up_to_a_note(1) + r")')")


def _password_inputs(text: str, taken: Spans) -> Iterator[Candidate]:
    for tag in _PASSWORD_INPUT_RE.finditer(text):
        value = _VALUE_ATTRIBUTE_RE.search(text, tag.start(), tag.end())
        if value is None:
            continue
        group = "dq" if value.group("dq") is not None else "sq"
        start, end = value.span(group)
        if not _overlaps(taken, start, end) and _acceptable_password(value.group(group), strength="weak",
                                                                     quoted=True):
            yield "generic_secret", start, end, 64
