"""Passwords given to command-line tools as a flag's value (R-SAVE-2): "sshpass -p 'Wq7!zR2p'",
"psexec \\\\web01 -u svc -p Summer2024!", "smbclient -U jdoe%Pa55w0rd!"; and a secret piped into a
command that reads it from its input ("echo '…' | docker login --password-stdin").

The tools and their password flags come from each tool's manual (data/secrets_cli_password_flags.txt):
a flag is a password only in its own tool ("-p" is a port in "docker run"), so the flag is looked
for after the tool's name on the same line. Variables and placeholders ("$DB_PASS", "%PW%",
"<password>") are not passwords.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_stand_ins import (
    _acceptable_password,
)
from memories.refusals.secret_values import (
    grouped_alternation,
    up_to_a_note,
)
from memories.refusals.wordlists import entries

__all__ = ["find_cli_passwords"]

_FLAGS: dict[str, list[tuple[str, str]]] = {}
for _entry in entries("secrets_cli_password_flags"):
    _command, _flag, _how = _entry.split("\t")
    _FLAGS.setdefault(_command.lower(), []).append((_flag, _how))

# A tool's name as a command: at a line's or a word's start, or after a path ("C:\Tools\PsExec.exe").
_COMMAND_RE = re.compile(
    r"(?:^|(?<=[\s\"'`(;|&/\\]))(?P<command>" + grouped_alternation(
        [re.escape(c).replace(r"\ ", r"\s+") for c in sorted(_FLAGS, key=len, reverse=True)])
    + r")(?:\.exe)?(?=\s)",
    re.IGNORECASE | re.MULTILINE,
)
_VALUE = r"(?:'(?P<sq>[^'\n]" + up_to_a_note(1) + r")'|\"(?P<dq>[^\"\n]" + up_to_a_note(1) + r")\"|(?P<val>[^\s'\"]" + up_to_a_note(1) + r"))"
_HOW = {"space": r"\s+" + _VALUE, "glued": _VALUE, "percent": r"\s+['\"]?[^\s%'\"]{1,64}%" + _VALUE,
        "comma": r"\s+['\"]?[^\s,'\"]{1,64}," + _VALUE,
        # Oracle's "user/password@service" as any argument (the flag is empty): "sqlplus etl/…@orcl".
        "slash": r"['\"]?[A-Za-z0-9_$#.\-]{1,64}/(?:'(?P<sq>[^'\n]" + up_to_a_note(1) + r")'"
                 r"|\"(?P<dq>[^\"\n]" + up_to_a_note(1) + r")\"|(?P<val>[^\s'\"@/]" + up_to_a_note(1) + r"))"}
_FLAG_RES = {command: [re.compile(r"(?<=\s)" + re.escape(flag) + _HOW[how]) for flag, how in flags if how in _HOW]
             for command, flags in _FLAGS.items()}
# "first" / "argN": the command's first (N-th) argument that is no flag is the password, when the
# line has the flag ("ConvertTo-SecureString 'Wq7!…' -AsPlainText", "htpasswd -b file user Wq7!…",
# "net use Z: \\srv\share Wq7!… /user:ana").
_ARG_WITH = {command: (flag, 1 if how == "first" else int(how[3:]))
             for command, flags in _FLAGS.items() for flag, how in flags if how not in _HOW}
_ARG_RE = re.compile(r"[ \t]+" + _VALUE)
_VARIABLE_RE = re.compile(r"^(?:\$\w+|\$\{[^}]*\}|%\w+%|\$\(.*\))$")
_FILE_ARGUMENT_RE = re.compile(r"^@[\w\-]*[./\\][\w./\\\-]*$")  # "--value @secret.txt": read from a file


# A secret piped into a command that reads it from its input: "echo '…' | docker login -u ci
# --password-stdin", "printf '%s' '…' | gh auth login --with-token", "gcloud secrets create db
# --data-file=- <<< '…'". The command's flag says what the input is.
_STDIN_FLAGS = (r"--password-stdin|--with-token|--token-stdin|--password-from-stdin|--data-file[= ]-(?!\S)"
                r"|\bsudo(?:\s+-[A-Za-z]+)*\s+-[A-Za-z]*S(?![\w\-])")  # sudo -S reads the user's password
# "echo 'etl:…' | chpasswd": a user and a password a line, read from the input.
_CHPASSWD_RE = re.compile(
    r"(?<![\w-])(?:echo(?:\s+-[ne]+)?|printf(?:\s+(?:'%s\\n'|\"%s\\n\"|'%s'|\"%s\"))?)\s+"
    r"(?P<quote>['\"]?)[\w.\-]{1,64}:(?P<val>[^\s'\":][^\s'\"]{0,255})(?P=quote)\s*\|\s*(?:sudo\s+)?chpasswd\b")
_PIPED_RE = re.compile(
    r"(?<![\w-])(?:echo(?:\s+-[ne]+)?|printf(?:\s+(?:'%s'|\"%s\"|%s))?)\s+" + _VALUE
    + r"\s*\|[^|\n]*?(?:" + _STDIN_FLAGS + r")")
_HERE_STRING_RE = re.compile(r"(?:" + _STDIN_FLAGS + r")[^\n]*?<<<\s*" + _VALUE)


def _piped_secrets(text: str, taken: Spans) -> Iterator[Candidate]:
    for pattern in (_PIPED_RE, _HERE_STRING_RE):
        for match in pattern.finditer(text):
            group = next(g for g in ("sq", "dq", "val") if match.group(g) is not None)
            value = match.group(group)
            start, end = match.span(group)
            if (not _VARIABLE_RE.match(value) and not _overlaps(taken, start, end)
                    and _acceptable_password(value, strength="weak", quoted=group != "val")):
                yield "cli_password", start, end, 66


def find_cli_passwords(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    if "stdin" in lowered or "--with-token" in lowered or "--data-file" in lowered or "sudo" in lowered:
        yield from _piped_secrets(text, taken)
    if "chpasswd" in lowered:
        for match in _CHPASSWD_RE.finditer(text):
            start, end = match.span("val")
            if (not _VARIABLE_RE.match(match.group("val")) and not _overlaps(taken, start, end)
                    and _acceptable_password(match.group("val"), strength="weak", quoted=True)):
                yield "cli_password", start, end, 66
    for command in _COMMAND_RE.finditer(text):
        key = " ".join(command.group("command").lower().split())
        line_end = text.find("\n", command.end())
        line_end = len(text) if line_end == -1 else line_end
        matches = [match for flag_re in _FLAG_RES[key] for match in flag_re.finditer(text, command.end(), line_end)]
        if key in _ARG_WITH and _ARG_WITH[key][0].lower() in text[command.end():line_end].lower():
            argument = _nth_argument(text, command.end(), line_end, _ARG_WITH[key][1])
            matches += [argument] if argument is not None else []
        for match in matches:
            group = next(g for g in ("sq", "dq", "val") if match.group(g) is not None)
            value = match.group(group)
            start, end = match.span(group)
            if group == "val" and value.startswith("-"):
                continue  # the next flag: no value given
            if _VARIABLE_RE.match(value) or _FILE_ARGUMENT_RE.match(value) or _overlaps(taken, start, end):
                continue
            # A flag's argument is a literal, as a quoted value is ("-p dev_admin"): a shell has
            # no bare variable names ("$PW", "%PW%" are _VARIABLE_RE's).
            if _acceptable_password(value, strength="weak", quoted=True):
                yield "cli_password", start, end, 66


def _nth_argument(text: str, start: int, end: int, n: int) -> re.Match | None:
    """The ``n``-th argument after ``start`` that is no flag ("-b", "/user:ana")."""
    position = start
    while (match := _ARG_RE.match(text, position, end)) is not None:
        position = match.end()
        if match.group("val") is not None and match.group("val")[:1] in "-/":
            continue
        n -= 1
        if n == 0:
            return match
    return None

