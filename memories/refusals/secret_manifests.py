"""Secrets written the way configuration files hold them (R-SAVE-2):

* a Kubernetes ``Secret`` manifest: every value under ``data:`` is the secret, base64-encoded
  (``reporting: cmVwb3J0aW5nLTIwMjQ=``), and every value under ``stringData:`` is it in plain text;
* NuGet / .NET ``<add key="ClearTextPassword" value="…" />``, Maven's ``<property name="…"
  value="…"/>``, Java's ``<entry key="password">…</entry>``: the name is an attribute, the
  secret the next one or the element's text; the same in an entry of a list of variables, where a ``name`` (or ``key``,
  ``ParameterKey``) field names a credential and a ``value`` field holds it (a Kubernetes
  container's ``env``, an ECS task definition, Azure app settings, CloudFormation parameters);
* Docker's ``config.json``: ``"auth": "<base64 of user:password>"``;
* a PostgreSQL password file line, ``hostname:port:database:username:password``.

Elsewhere a base64 value without a keyword is judged by its randomness; here the manifest says
what it is.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from memories.refusals.normalise_decode import decode_base64_text
from memories.refusals.secret_assignments import credential_name
from memories.refusals.secret_context import basic_credentials
from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_stand_ins import (
    _acceptable_password,
    _is_placeholder,
)
from memories.refusals.secret_values import (
    _compile,
    up_to_a_note,
)

_SECRET_KIND_RE = _compile(r"(?im)^[ \t]*kind:[ \t]*[\"']?secret[\"']?[ \t]*$")
_DATA_RE = _compile(r"(?m)^(?P<indent>[ \t]*)(?P<block>data|stringData):[ \t]*$")
_ENTRY_RE = _compile(r"(?m)^(?P<indent>[ \t]*)[\w.\-]+:[ \t]*[\"']?(?P<val>[^\s\"'#]" + up_to_a_note(1) + r")[\"']?[ \t]*$")
_DOCKER_AUTH_RE = _compile(r"\"auth\"\s*:\s*\"(?P<val>[A-Za-z0-9+/]{8,}={0,2})\"")
# The host has a dot or is localhost / "*" (so IPv6 groups and clock times do not read as one).
_PGPASS_RE = _compile(
    r"(?<![\w.:/\-])(?P<host>[A-Za-z0-9\-]*\.[A-Za-z0-9.\-]+|localhost|\*):(?:\d{1,5}|\*)"
    r":[\w*\-.]+:[\w*\-.@]+:(?P<val>[^\s:]" + up_to_a_note(4) + r")"
)
# Postfix's sasl_passwd (postconf's smtp_sasl_password_maps): "[relay]:port user:password" a line.
_SASL_PASSWD_RE = _compile(
    r"(?m)^[ \t]*\[[A-Za-z0-9\-]+\.[A-Za-z0-9.\-]+\](?::\d{1,5})?[ \t]+[^\s:/]{1,128}:(?P<val>[^\s/]"
    + up_to_a_note(1) + r")[ \t]*$")
# A variable's entry, its name then its value: "- name: DB_PASSWORD\n  value: …" (YAML),
# '{"name": "DB_PASSWORD", "value": "…"}' (JSON), "ParameterKey=DbPassword,ParameterValue=…".
_NAME_THEN_VALUE_RE = _compile(
    r"(?i)[\"']?(?:name|key|parameterkey)[\"']?[ \t]*[:=][ \t]*[\"']?(?P<name>[\w.\-]{2,80})[\"']?"
    r"[ \t]*(?:,[ \t]*|\r?\n[ \t]*(?:-[ \t]+)?)"
    r"[\"']?(?:value|parametervalue)[\"']?[ \t]*[:=][ \t]*(?:\"(?P<dq>[^\"\n]" + up_to_a_note(1) + r")\"|'(?P<sq>[^'\n]" + up_to_a_note(1) + r")'"
    r"|(?P<val>[^\s\"',}\]]" + up_to_a_note(1) + r"))")
# Any element whose name attribute names a credential and whose value attribute or text holds it:
# NuGet's '<add key="ClearTextPassword" value="…" />', Maven's and Spring's '<property
# name="password" value="…"/>', Java's properties XML '<entry key="password">…</entry>', .NET's '<setting name="…"><value>…'.
_ATTRIBUTE_PAIR_RE = _compile(
    r"<[\w:.\-]+\s[^<>]*?\b(?:key|name)\s*=\s*\"(?P<name>[^\"<>]{1,80})\"[^<>]*?"
    r"\bvalue\s*=\s*\"(?P<val>[^\"<>\n]" + up_to_a_note(1) + r")\"",
    re.IGNORECASE,
)
_NAMED_ELEMENT_RE = _compile(
    r"<(?P<tag>[\w:.\-]+)\s[^<>]*?\b(?:key|name)\s*=\s*\"(?P<name>[^\"<>]{1,80})\"[^<>/]*>"
    r"\s*(?:<value>\s*)?(?P<val>[^<\s]" + up_to_a_note(1) + r")\s*(?:</value>\s*)?</(?P=tag)>",  # .NET's <setting><value>
    re.IGNORECASE,
)


def _kubernetes_secret_values(text: str) -> Iterator[tuple[int, int]]:
    for block in _DATA_RE.finditer(text):
        indent = len(block.group("indent").expandtabs())
        position = block.end() + 1
        for entry in _ENTRY_RE.finditer(text, position):
            if entry.start() != position or len(entry.group("indent").expandtabs()) <= indent:
                break  # the block ends at the first line that is not one of its entries
            position = entry.end() + 1
            value = entry.group("val")
            if block.group("block") == "data" and decode_base64_text(value) is None:
                continue
            if block.group("block") == "stringData" and (len(value) < 4 or _is_placeholder(value)):
                continue
            yield entry.span("val")


def find_manifest_secrets(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    if "kind" in lowered and "secret" in lowered and _SECRET_KIND_RE.search(text):
        for start, end in _kubernetes_secret_values(text):
            if not _overlaps(taken, start, end):
                yield "kubernetes_secret", start, end, 74
    if "<" in text and ("key" in lowered or "name" in lowered):
        for pattern in (_ATTRIBUTE_PAIR_RE, _NAMED_ELEMENT_RE):
            for match in pattern.finditer(text):
                start, end = match.span("val")
                if (credential_name(match.group("name")) and not _overlaps(taken, start, end)
                        and _acceptable_password(match.group("val"), strength="weak", quoted=True)):
                    yield "generic_secret", start, end, 64
    if "value" in lowered:
        for match in _NAME_THEN_VALUE_RE.finditer(text):
            group = next(g for g in ("dq", "sq", "val") if match.group(g) is not None)
            start, end = match.span(group)
            if (credential_name(match.group("name")) and not _overlaps(taken, start, end)
                    and _acceptable_password(match.group(group), strength="weak", quoted=group != "val")):
                yield "generic_secret", start, end, 64
    if '"auth"' in lowered:
        for match in _DOCKER_AUTH_RE.finditer(text):
            start, end = match.span("val")
            if basic_credentials(match.group("val")) and not _overlaps(taken, start, end):
                yield "basic_auth", start, end, 73
    if "]" in text:
        for match in _SASL_PASSWD_RE.finditer(text):
            start, end = match.span("val")
            if not _overlaps(taken, start, end) and _acceptable_password(match.group("val"), strength="strong"):
                yield "password_file_line", start, end, 70
    if text.count(":") >= 4:
        for match in _PGPASS_RE.finditer(text):
            start, end = match.span("val")
            if (not _overlaps(taken, start, end)
                    and _acceptable_password(match.group("val"), strength="weak")):
                yield "password_file_line", start, end, 70
