"""Credentials written as source code in a note (R-SAVE-2): a literal compared with or passed
to a name that says credential, the literal first.

    if ("s3cr3t-Value!" == password) { … }
    std::string secret("s3cr3t-Value!");
    secret.assign("s3cr3t-Value!", 13);

Assignments ("api_key = '…'") are read by secret_context, secret_prose and secret_assignments
(a quoted phrase, literal first or not); this module reads the shapes where the value comes
before the name, or inside a call on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_values import _acceptable_password

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


def find_code_literals(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    if "(" not in text and "==" not in text and "!=" not in text:
        return
    for pattern in (_LITERAL_FIRST_RE, _CALL_RE):
        for match in pattern.finditer(text):
            start, end = match.span("val")
            if _overlaps(taken, start, end):
                continue
            if _acceptable_password(match.group("val"), strength="weak", quoted=True):
                yield "generic_secret", start, end, 62
