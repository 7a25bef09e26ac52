"""Build tests/data/outside/secrets/trufflehog.jsonl from TruffleHog's detector pattern tests.

Each of TruffleHog's ~900 detectors (``pkg/detectors/<vendor>/<vendor>_test.go``) has a pattern
test: inputs its authors wrote with a vendor's key in them, and the keys the detector must find
(``want``). This script reads those Go files and evaluates the inputs' string expressions
(string literals, the file's string constants, ``+`` and ``fmt.Sprintf`` with ``%s``); nothing
is written by hand. A case whose input it cannot evaluate is left out and counted.

Not run by the tests. Run it by hand (see README.md) on a checkout of TruffleHog:

    python tests/data/outside/secrets/build_trufflehog.py --repo /tmp/trufflehog

Labels: an input with at least one wanted key is ``secret``. An input with none is left out:
TruffleHog's negative cases are mostly a real-looking key too far from the vendor's name for its
detector, which is still a secret in a note, or one character short of the format, which is
neither a secret nor ordinary text.

Detectors were drawn for tuning before any case of theirs was looked at, as for gitleaks and
Nosey Parker: half of the detector folders (seed 1822) to
``tests/data/secret_tuning_from_trufflehog.jsonl``; the other half, ``trufflehog.jsonl``, is only
ever measured.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

from build import note_sized, without_fillers
from build_gitleaks import split_for_tuning

HERE = Path(__file__).resolve().parent
COMMIT = "3ab759fef"  # trufflesecurity/trufflehog, the tests read (README)
TUNING_DRAWS = ((1822, "round 1"),)
TUNING_OUT = HERE.parents[1] / "secret_tuning_from_trufflehog.jsonl"

_TOKEN_RE = re.compile(r'\s*(?:(`[^`]*`)|("(?:[^"\\\n]|\\.)*")|(fmt\.Sprintf)|([A-Za-z_][\w.]*)|(.))', re.S)
_ASSIGN_RE = re.compile(r'^\s*(?:var\s+|const\s+)?([A-Za-z_]\w*)\s*(?::=|=)\s*(?=[`"]|fmt\.Sprintf|[A-Za-z_])', re.M)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "a": "\a", "b": "\b",
            "f": "\f", "v": "\v"}


class Unknown(Exception):
    """An expression this reader does not evaluate."""


def _unquote(literal: str) -> str:
    if literal[0] == "`":
        return literal[1:-1].replace("\r", "")

    def escape(match: re.Match) -> str:
        body = match[1]
        if body[0] in _ESCAPES:
            return _ESCAPES[body[0]] + body[1:]
        if body[0] in "xuU":
            return chr(int(body[1:], 16))
        raise Unknown(body)
    return re.sub(r'\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)', escape, literal[1:-1])


class _Reader:
    """Reads one Go string expression at ``pos`` of ``text``."""

    def __init__(self, text: str, constants: dict[str, str], pos: int):
        self.text, self.constants, self.pos = text, constants, pos

    def _token(self) -> tuple[int, str]:
        match = _TOKEN_RE.match(self.text, self.pos)
        if match is None:
            raise Unknown("end")
        self.pos = match.end()
        return match.lastindex, match[match.lastindex]

    def _peek(self) -> tuple[int, str]:
        saved = self.pos
        try:
            return self._token()
        finally:
            self.pos = saved

    def expression(self) -> str:
        value = self._term()
        while self._peek() == (5, "+"):
            self._token()
            value += self._term()
        return value

    def _term(self) -> str:
        kind, token = self._token()
        if kind in (1, 2):
            return _unquote(token)
        if kind == 3:
            if self._token() != (5, "("):
                raise Unknown("Sprintf")
            args = [self.expression()]
            while self._peek() == (5, ","):
                self._token()
                if self._peek() == (5, ")"):
                    break
                args.append(self.expression())
            if self._token() != (5, ")"):
                raise Unknown("Sprintf args")
            return _sprintf(args[0], args[1:])
        if kind == 4 and token in self.constants:
            return self.constants[token]
        raise Unknown(token)


def _sprintf(pattern: str, args: list[str]) -> str:
    values = iter(args)

    def verb(match: re.Match) -> str:
        if match[0] == "%%":
            return "%"
        if match[0] not in ("%s", "%v"):
            raise Unknown(match[0])
        return next(values)
    try:
        return re.sub(r"%[-+# 0-9.]*[a-zA-Z%]", verb, pattern)
    except StopIteration as error:
        raise Unknown("too few args") from error


def constants_of(text: str) -> dict[str, str]:
    """The file's string variables and constants, in order (a later one may use an earlier one)."""
    found: dict[str, str] = {}
    for match in _ASSIGN_RE.finditer(text):
        try:
            found.setdefault(match[1], _Reader(text, found, match.end()).expression())
        except Unknown:
            continue
    return found


def _wanted(text: str, pos: int) -> bool | None:
    """Whether the case's ``want`` (after ``pos``) names a key: True, False, or None if not read."""
    match = re.compile(r"\bwant\w*:\s*").search(text, pos)
    if match is None:
        return None
    rest = text[match.end():match.end() + 400]
    if rest.startswith("nil"):
        return False
    opened = re.match(r"\[\][\w.]+\{", rest)
    if opened is None:
        return None
    body, depth = [], 1
    for char in rest[opened.end():]:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            break
        body.append(char)
    return bool("".join(body).strip())


def cases(repo: Path, commit: str) -> tuple[list[dict], dict[str, int]]:
    listing = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "--name-only", commit, "pkg/detectors"],
                             check=True, capture_output=True, text=True).stdout.split()
    out, left_out = [], {"input not read": 0, "want not read": 0, "nothing wanted": 0, "over the note size": 0}
    for path in sorted(p for p in listing if p.endswith("_test.go") and not p.endswith("_integration_test.go")):
        folder = path.split("/")[2]
        if folder.endswith(".go"):
            continue  # the package's own tests, not a detector's
        text = subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{path}"], check=True,
                              capture_output=True, text=True).stdout
        constants = constants_of(text)
        for match in re.finditer(r"\binput:\s*", text):
            name = re.findall(r'\bname:\s*"([^"]*)"', text[max(0, match.start() - 300):match.start()])
            try:
                reader = _Reader(text, constants, match.end())
                note = reader.expression()
            except Unknown:
                left_out["input not read"] += 1
                continue
            wanted = _wanted(text, reader.pos)
            if wanted is None:
                left_out["want not read"] += 1
                continue
            if not wanted:
                left_out["nothing wanted"] += 1
                continue
            note = note.strip("\n")
            if not note_sized(note):
                left_out["over the note size"] += 1
                continue
            case = name[-1] if name else "case"
            out.append({"text": note, "label": "secret", "kind": f"trufflehog.{folder}",
                        "source": f"trufflehog {folder} {path.split('/', 2)[2]}: {case}"})
    return out, left_out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, required=True, help="a git checkout of trufflesecurity/trufflehog")
    parser.add_argument("--commit", default=COMMIT)
    parser.add_argument("--out", type=Path, default=HERE / "trufflehog.jsonl")
    parser.add_argument("--tuning-out", type=Path, default=TUNING_OUT)
    args = parser.parse_args()
    found, left_out = cases(args.repo, args.commit)
    found, left_out["format fillers"] = without_fillers(found)
    unique = list({r["text"]: r for r in reversed(found)}.values())[::-1]  # the first of each text
    left_out["repeated texts"] = len(found) - len(unique)
    kept, tuning = split_for_tuning(unique, TUNING_DRAWS, "trufflehog")
    for path, records in ((args.out, kept), (args.tuning_out, tuning)):
        with path.open("w", encoding="utf-8") as out:
            for record in records:
                out.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
        print(f"{len(records)} notes, {len({r['kind'] for r in records})} detectors -> {path}")
    print(f"left out: {left_out}")


if __name__ == "__main__":
    main()
