"""Credentials written as source code in a note (R-SAVE-2): a literal compared with or passed
to a name that says credential, the literal first.

    if ("s3cr3t-Value!" == password) { … }
    std::string secret("s3cr3t-Value!");
    secret.assign("s3cr3t-Value!", 13);
    new NetworkCredential("ops@example.com", "s3cr3t-Value!")

The last: a call whose arguments are a user name and a password by its library's signature
(data/secrets_credential_calls.txt), every argument up to the password a string literal. And a
pair of literals, user then password, given to a credential's name ("auth=('admin', '…')").

And a password in a statement's or an API's own place for it: SQL's "IDENTIFIED BY '…'",
libcurl's "CURLOPT_USERPWD", an environment lookup's fallback ("os.getenv('DB_PASSWORD', '…')").

Assignments ("api_key = '…'") are read by secret_context, secret_prose and secret_assignments
(a quoted phrase, literal first or not); this module reads the shapes where the value comes
before the name, or inside a call on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memories.refusals.secret_assignments import credential_name
from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_stand_ins import (
    _TITLE_WORD_RE,
    _acceptable_password,
)
from memories.refusals.secret_values import (
    _char_classes,
    _looks_random,
    grouped_alternation,
    up_to_a_note,
)
from memories.refusals.wordlists import entries

__all__ = ["find_code_literals"]

_CREDENTIAL_NAME = (
    r"(?:[A-Za-z_][\w.]*?)?(?:password|passwd|pwd|secret|token|api_?key|apikey|private_?key|"
    r"credential|_pass(?![a-z]))\w*"  # "db_pass"; not "passenger"
)
_LITERAL_FIRST_RE = re.compile(
    r"(?P<q>[\"'`])(?P<val>[^\"'`\s]" + up_to_a_note(8) + r")(?P=q)\s*(?:===|!==|==|!=)\s*" + _CREDENTIAL_NAME,
    re.IGNORECASE,
)
# The credential word is the whole name ("secret(…)", "password.assign(…)") or a setter's
# ("setPassword(…)", "builder.withApiKey(…)", "set_token(…)"): a function named for what it
# fetches ("get_secret('payments/prod')") takes a reference, not the secret.
_CALL_RE = re.compile(
    r"(?:(?<![\w.])|(?<!\w)(?:set|with|use)_?)"
    r"(?:password|passwd|pwd|secret|token|api_?key|apikey|private_?key|credentials?)"
    r"(?:\.(?:assign|set))?\(\s*@?(?P<q>[\"'`])(?P<val>[^\"'`\s]" + up_to_a_note(8) + r")(?P=q)",
    re.IGNORECASE,
)


# What each pattern cannot match without (the lowered note is searched for them first).
_PAIR_NEEDS = ("auth", "cred", "login")
_ENV_NEEDS = ("getenv", "env.get", "environ.get", "env.fetch")
_CALL_NEEDS = ("password(", "passwd(", "pwd(", "secret(", "token(", "key(", "credential(", "credentials(",
               ".assign(", ".set(")


_STRING = r"(?P<q{i}>[\"'])[^\"'\n]{{0,256}}(?P=q{i})\s*,\s*"
_CREDENTIAL_CALLS = {name: int(position) for name, position in
                     (entry.split("\t") for entry in entries("secrets_credential_calls"))}
# One search for the calls' names; then, after a name, its own pattern of arguments.
_CREDENTIAL_CALL_RE = re.compile(
    r"(?<!\w)(?P<name>" + grouped_alternation(list(map(re.escape, _CREDENTIAL_CALLS))) + r")\(\s*")
_CREDENTIAL_ARGUMENTS = {
    name: re.compile("".join(_STRING.format(i=i) for i in range(position))
                     + r"(?P<q>[\"'])(?P<val>[^\"'\n]" + up_to_a_note(4) + r")(?P=q)")
    for name, position in _CREDENTIAL_CALLS.items()
}


def _reads_as_password(value: str) -> bool:
    """A call's literal that mixes classes ("Rrhh1234"), or a long run of one case of letters (an
    app password, "kqtrwbnvmzpelxsy"); not a word ("reporting", "json", "Continue")."""
    if _char_classes(value) >= 2:
        return not _TITLE_WORD_RE.match(value)
    return len(value) >= 14 and value.isalpha()


# A user name and a password as a pair of literals given to a credential's name: requests'
# "auth=('admin', '…')", "creds = ['admin', '…']", "credentials: ('ops', '…')".
_PAIR_RE = re.compile(
    r"(?<![\w.])(?:auth|basic_auth|http_auth|creds?|credentials|login)\s*[:=]\s*[\[(]\s*"
    r"(?P<uq>[\"'])[^\"'\n]{1,128}(?P=uq)\s*,\s*(?P<q>[\"'])(?P<val>[^\"'\n]" + up_to_a_note(4) + r")(?P=q)\s*[\])]",
    re.IGNORECASE,
)


# SQL's own place for a password (MySQL, MariaDB and Oracle: "CREATE USER … IDENTIFIED BY '…'",
# "ALTER USER … IDENTIFIED WITH mysql_native_password BY '…'", unquoted in Oracle, a database
# link's "CONNECT TO … IDENTIFIED BY"): the word after BY, in such a statement (prose says "rows
# identified by customer_id"), unless it is a bind variable or a template (":pw", "?", "${PW}").
_SQL_IDENTIFIED_RE = re.compile(
    r"\b(?:(?:CREATE|ALTER)\s+(?:USER|ROLE|LOGIN)|CONNECT\s+TO|GRANT)\b[^;\n]{0,200}?"
    r"\bIDENTIFIED\s+(?:WITH\s+['\"]?\w+['\"]?\s+)?BY\s+(?:PASSWORD\s+)?"
    r"(?:(?P<q>['\"])(?P<qval>[^'\"\n]" + up_to_a_note(1) + r")(?P=q)|(?P<val>[^\s;'\"\\,)]" + up_to_a_note(1) + r"))",
    re.IGNORECASE,
)
# libcurl's options that carry a password (curl.se/libcurl/c/curl_easy_setopt.html), set to a
# literal: "curl_easy_setopt(curl, CURLOPT_PROXYUSERPWD, "user:…")".
_CURL_OPTION_RE = re.compile(
    r"\bCURLOPT_(?P<option>USERPWD|PROXYUSERPWD|PASSWORD|PROXYPASSWORD|KEYPASSWD|SSLKEYPASSWD|SSLCERTPASSWD|"
    r"TLSAUTH_PASSWORD|PROXY_TLSAUTH_PASSWORD|PROXY_KEYPASSWD|XOAUTH2_BEARER)\s*,\s*"
    r"(?P<q>[\"'])(?P<val>[^\"'\n]" + up_to_a_note(1) + r")(?P=q)"
)
_BOUND_RE = re.compile(r"^(?:[:?@$%{]|&\w)")
# A fallback written beside an environment lookup is in the code for anyone to read:
# "os.getenv('DB_PASSWORD', '…')", "SECRET = os.environ.get('S') or '…'". The variable's or the
# assigned name must say credential.
_ENV_DEFAULT_RE = re.compile(
    r"(?<![\w.])(?:os\.)?(?:environ\.get|getenv|Getenv|env\.get|ENV\.fetch|System\.getenv)\(\s*"
    r"(?P<eq>[\"'])(?P<env>[^\"'\n]{1,128})(?P=eq)\s*"
    r"(?:,\s*(?P<q>[\"'])(?P<val>[^\"'\n]" + up_to_a_note(1) + r")(?P=q)\s*\)"
    r"|\)\s*(?:or|\|\||\?\?|\?:)\s*(?P<q2>[\"'])(?P<val2>[^\"'\n]" + up_to_a_note(1) + r")(?P=q2))"
)
# The same fallback in a reference to a variable: the shell's and Compose's "${DB_PASSWORD:-…}"
# ("-", ":-", "=", ":="), Spring's "${DB_PASSWORD:…}"; not "${X:?message}" (an error's words).
_REFERENCE_DEFAULT_RE = re.compile(
    r"\$\{(?P<env>[A-Za-z_][\w.\-]{0,127}?)(?::[-=]?|[-=])(?P<val>[^{}$\s?+][^{}\s]{0,511}?)\}")
# The name the lookup is assigned to, read back from the call ("SECRET := getenv(…)").
_ASSIGNED_NAME_RE = re.compile(r"(?P<name>[A-Za-z_][\w.]{0,80})\s*:?=\s*(?:os\.)?$")
_CREDENTIAL_NAME_RE = re.compile(_CREDENTIAL_NAME, re.IGNORECASE)


def _statement_passwords(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    """Passwords given by a statement's or an API's own syntax (SQL, libcurl, an environment
    lookup's fallback)."""
    if "identified" in lowered:
        for match in _SQL_IDENTIFIED_RE.finditer(text):
            group = "qval" if match.group("qval") is not None else "val"
            start, end = match.span(group)
            value = match.group(group)
            if (not _BOUND_RE.match(value) and not _overlaps(taken, start, end)
                    and _acceptable_password(value, strength="weak", quoted=group == "qval")):
                yield "password_in_code", start, end, 62
    if any(need in lowered for need in _ENV_NEEDS):
        for match in _ENV_DEFAULT_RE.finditer(text):
            assigned = _ASSIGNED_NAME_RE.search(text, max(0, match.start() - 100), match.start())
            names = [match.group("env"), assigned.group("name") if assigned else ""]
            if not any(_CREDENTIAL_NAME_RE.search(name) for name in names):
                continue
            group = "val" if match.group("val") is not None else "val2"
            start, end = match.span(group)
            if (not _overlaps(taken, start, end)
                    and _acceptable_password(match.group(group), strength="weak", quoted=True)):
                yield "password_in_code", start, end, 62
    if "${" in text:
        for match in _REFERENCE_DEFAULT_RE.finditer(text):
            assigned = _ASSIGNED_NAME_RE.search(text, max(0, match.start() - 100), match.start())
            names = [match.group("env"), assigned.group("name") if assigned else ""]
            start, end = match.span("val")
            if (any(_CREDENTIAL_NAME_RE.search(name) for name in names) and not _overlaps(taken, start, end)
                    and _acceptable_password(match.group("val"), strength="weak", quoted=True)):
                yield "password_in_code", start, end, 62
    if "curlopt_" in lowered:
        for match in _CURL_OPTION_RE.finditer(text):
            start, end = match.span("val")
            value = match.group("val")
            if match.group("option").endswith("USERPWD"):
                user, colon, password = value.partition(":")
                if not colon:
                    continue
                start += len(user) + 1
                value = password
            if not _overlaps(taken, start, end) and _acceptable_password(value, strength="weak", quoted=True):
                yield "password_in_code", start, end, 62


# A credential's name as a string literal, then its value as the next one: a pair in a list or a
# tuple ('("password", "…")'), a setter's last two arguments ('config.set("db", "password", "…")',
# 'params.put("password", "…")', 'setattr(s, "password", "…")'), an item assigned
# ('os.environ["DB_PASSWORD"] = "…"', 'secrets["api_key"] = "…"'). Lists of field names
# ('("username", "password", "email")') hold words, so the value must be shaped like a password.
_NAMED_LITERAL_RE = re.compile(
    r"(?P<nq>[\"'])(?P<name>[A-Za-z][\w.\-]{1,63})(?P=nq)\s*(?:,|\]\s*=)\s*"
    r"(?=(?P<q>[\"'])(?P<val>[^\"'\n]" + up_to_a_note(4) + r")(?P=q))")  # the value a look-ahead: it may name the next


_PASSWORD_NAME_RE = re.compile(r"(?i)pass|pwd|pw(?![a-z])")


def _named_literals(text: str, taken: Spans) -> Iterator[Candidate]:
    for match in _NAMED_LITERAL_RE.finditer(text):
        start, end = match.span("val")
        value = match.group("val")
        name = match.group("name")
        if not credential_name(name) or _overlaps(taken, start, end) or " " in value:
            continue
        if not (_reads_as_password(value) and _acceptable_password(value, strength="strong")):
            continue
        if not _PASSWORD_NAME_RE.search(name) and not _looks_random(value, with_keyword=True):
            continue  # a token's or a key's value is key material ("'token', 'jwt_abc123'" is a fixture)
        yield "password_in_code", start, end, 62


def find_code_literals(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    yield from _statement_passwords(text, lowered, taken)
    if '", "' in text or "', '" in text or '"]' in text or "']" in text or '","' in text:
        yield from _named_literals(text, taken)
    if "(" not in text and "==" not in text and "!=" not in text and "[" not in text:
        return
    pairs = _PAIR_RE.finditer(text) if any(need in lowered for need in _PAIR_NEEDS) else ()
    for match in pairs:
        start, end = match.span("val")
        value = match.group("val")
        if (not _overlaps(taken, start, end) and _reads_as_password(value)
                and _acceptable_password(value, strength="weak", quoted=True)):
            yield "password_in_code", start, end, 62
    patterns = [_LITERAL_FIRST_RE] if "==" in text or "!=" in text else []
    if any(need in lowered for need in _CALL_NEEDS):
        patterns.append(_CALL_RE)
    for pattern in patterns:
        for match in pattern.finditer(text):
            start, end = match.span("val")
            if _overlaps(taken, start, end):
                continue
            if _acceptable_password(match.group("val"), strength="weak", quoted=True):
                yield "generic_secret", start, end, 62
    if "(" not in text:
        return
    for call in _CREDENTIAL_CALL_RE.finditer(text):
        match = _CREDENTIAL_ARGUMENTS[call.group("name")].match(text, call.end())
        if match is not None:
            start, end = match.span("val")
            # A user name comes first, so the call is the credential's; the value must still
            # read as a password, not a label ("login('Sign in', 'Continue')").
            value = match.group("val")
            if (not _overlaps(taken, start, end) and _reads_as_password(value)
                    and _acceptable_password(value, strength="weak", quoted=True)):
                yield "password_in_code", start, end, 62
