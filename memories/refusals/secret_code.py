"""Credentials written as source code in a note (R-SAVE-2): a literal compared with or passed
to a name that says credential, the literal first.

    if ("s3cr3t-Value!" == password) { … }
    std::string secret("s3cr3t-Value!");
    secret.assign("s3cr3t-Value!", 13);
    new NetworkCredential("ops@example.com", "s3cr3t-Value!")

The last: a call whose arguments are a user name and a password by its library's signature
(data/secrets_credential_calls.txt), every argument up to the password a string literal. And a
pair of literals, user then password, given to a credential's name ("auth=('admin', '…')").

Assignments ("api_key = '…'") are read by secret_context, secret_prose and secret_assignments
(a quoted phrase, literal first or not); this module reads the shapes where the value comes
before the name, or inside a call on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_values import _TITLE_WORD_RE, _acceptable_password, _char_classes
from memories.refusals.wordlists import entries

__all__ = ["find_code_literals"]

_CREDENTIAL_NAME = (
    r"(?:[A-Za-z_][\w.]*?)?(?:password|passwd|pwd|secret|token|api_?key|apikey|private_?key|"
    r"credential|_pass(?![a-z]))\w*"  # "db_pass"; not "passenger"
)
_LITERAL_FIRST_RE = re.compile(
    r"(?P<q>[\"'`])(?P<val>[^\"'`\s]{8,256})(?P=q)\s*(?:===|!==|==|!=)\s*" + _CREDENTIAL_NAME,
    re.IGNORECASE,
)
# The credential word is the whole name ("secret(…)", "password.assign(…)"): a function named
# for what it fetches ("get_secret('payments/prod')") takes a reference, not the secret.
_CALL_RE = re.compile(
    r"(?<![\w.])(?:password|passwd|pwd|secret|token|api_?key|apikey|private_?key|credentials?)"
    r"(?:\.(?:assign|set))?\(\s*@?(?P<q>[\"'`])(?P<val>[^\"'`\s]{8,256})(?P=q)",
    re.IGNORECASE,
)


_STRING = r"(?P<q{i}>[\"'])[^\"'\n]{{0,256}}(?P=q{i})\s*,\s*"
_CREDENTIAL_CALLS = {name: int(position) for name, position in
                     (entry.split("\t") for entry in entries("secrets_credential_calls"))}
# One search for the calls' names; then, after a name, its own pattern of arguments.
_CREDENTIAL_CALL_RE = re.compile(r"(?<!\w)(?P<name>" + "|".join(map(re.escape, _CREDENTIAL_CALLS)) + r")\(\s*")
_CREDENTIAL_ARGUMENTS = {
    name: re.compile("".join(_STRING.format(i=i) for i in range(position))
                     + r"(?P<q>[\"'])(?P<val>[^\"'\n]{4,256})(?P=q)")
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
    r"(?P<uq>[\"'])[^\"'\n]{1,128}(?P=uq)\s*,\s*(?P<q>[\"'])(?P<val>[^\"'\n]{4,256})(?P=q)\s*[\])]",
    re.IGNORECASE,
)


def find_code_literals(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    if "(" not in text and "==" not in text and "!=" not in text and "[" not in text:
        return
    for match in _PAIR_RE.finditer(text):
        start, end = match.span("val")
        value = match.group("val")
        if (not _overlaps(taken, start, end) and _reads_as_password(value)
                and _acceptable_password(value, strength="weak", quoted=True)):
            yield "password_in_code", start, end, 62
    for pattern in (_LITERAL_FIRST_RE, _CALL_RE):
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
