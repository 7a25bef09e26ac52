"""Build tests/data/outside/secrets/gitleaks.jsonl from gitleaks' own rule tests.

Every rule of gitleaks (``cmd/generate/config/rules/*.go``) carries the cases its authors check it
against: ``tps`` (true positives, the rule must find them) and ``fps`` (false positives, it must
not). This script reads those Go expressions without Go: a small evaluator knows string literals,
``+``, slices, maps, ``append`` and the generator helpers (``secrets.NewSecret`` draws a string
from a regular expression, as gitleaks does with reggen; here ``rstr``, seeded).
``utils.GenerateSampleSecrets`` writes one secret into some 30 config and code templates; three
of them, drawn with a seed per rule, are kept so that no rule outweighs the others. An expression
the evaluator does not know is left out and counted, never guessed.

Not run by the tests. Run it by hand (``pip install rstr`` first; see README.md):

    python tests/data/outside/secrets/build_gitleaks.py --gitleaks /tmp/gitleaks

Labels by rule (README): a ``tps`` case is ``secret``; an ``fps`` case is a format near miss
(``near_miss:gitleaks-<rule>``), reported apart, as detect-secrets' ``should_flag=False`` cases
are. Rules that find an identifier or a public key, not a secret, are left out.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

from build import (
    TUNING,
    first_of_each_text,
    move_to_tuning,
    note_sized,
    without_fillers,
    write_records,
)

HERE = Path(__file__).resolve().parent
SAMPLES_PER_CALL = 3
# An identifier or a public key is no secret (SPEC R-SAVE-2): these rules' cases are left out.
NOT_SECRETS = re.compile(r"(-id|-access-id|public-key|pub-key|pub-api-key)$")

_TOKEN = re.compile(
    r"""(?P<space>\s+|//[^\n]*|/\*.*?\*/)
      | (?P<raw>`[^`]*`)
      | (?P<str>"(?:[^"\\\n]|\\.)*")
      | (?P<num>\d+(?:\.\d+)?)
      | (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)
      | (?P<op>\.\.\.|:=|\[\]|[-+(){}\[\],:=*&])
      | (?P<other>.)""", re.X | re.S)


class Unknown(Exception):
    """An expression this evaluator does not know; its case is left out."""


def _tokens(text: str) -> list[tuple[str, str]]:
    out, position = [], 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match:
            raise Unknown(text[position:position + 20])
        position = match.end()
        if match.lastgroup != "space":
            out.append((match.lastgroup, match.group()))
    return out


def _go_string(kind: str, literal: str) -> str:
    if kind == "raw":
        return literal[1:-1]
    return json.loads(literal.replace("\\'", "'").replace("\\x60", "`"))


class Evaluator:
    def __init__(self, rule: str, variables: dict, generator) -> None:
        self.rule, self.variables, self.generator = rule, variables, generator
        self.calls = 0

    def parse(self, tokens: list[tuple[str, str]]):
        self.tokens, self.at = tokens, 0
        return self.expr()  # what follows is the next statement (`return ...`)

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.at] if self.at < len(self.tokens) else ("", "")

    def take(self, text: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if text is not None and token[1] != text:
            raise Unknown(f"expected {text}, got {token[1]}")
        self.at += 1
        return token

    def expr(self):
        value = self.term()
        while self.peek()[1] == "+":
            self.take()
            right = self.term()
            if not isinstance(value, str) or not isinstance(right, str):
                raise Unknown("+ of non-strings")
            value += right
        return value

    def elements(self, closing: str, pairs: bool = False) -> list:
        items = []
        while self.peek()[1] != closing:
            if pairs:
                self.expr()
                self.take(":")
            start = self.at
            depth = 0
            while True:  # find the element's end so one unknown element skips only itself
                kind, text = self.peek()
                if text in "({[" and text:
                    depth += 1
                elif text in ")}]" and text:
                    if depth == 0:
                        break
                    depth -= 1
                elif text == "," and depth == 0:
                    break
                if not text:
                    raise Unknown("unterminated")
                self.take()
            end = self.at
            self.at = start
            try:
                value = self.expr()
                if self.at != end:
                    raise Unknown("trailing")
                items.append(value)
            except Unknown:
                items.append(Unknown)
            self.at = end
            if self.peek()[1] == ",":
                self.take()
        self.take(closing)
        return items

    def term(self):
        kind, text = self.take()
        if kind in ("raw", "str"):
            return _go_string(kind, text)
        if kind == "num":
            return int(float(text))
        if text == "[]":
            self.take("string")
            self.take("{")
            return self.elements("}")
        if text == "map":
            for expected in ("[", "string", "]", "string", "{"):
                self.take(expected)
            return self.elements("}", pairs=True)
        if kind == "name" and self.peek()[1] == "(":
            self.take("(")
            args = []
            while self.peek()[1] != ")":
                args.append(self.expr())
                if self.peek()[1] == "...":
                    self.take()
                if self.peek()[1] == ",":
                    self.take()
            self.take(")")
            return self.call(text, args)
        if kind == "name" and text in self.variables:
            return self.variables[text]
        raise Unknown(text)

    def call(self, name: str, args: list):
        patterns = {"utils.Numeric": "[0-9]{%s}", "utils.Hex": "[a-f0-9]{%s}",
                    "utils.AlphaNumeric": "[a-z0-9]{%s}", "utils.AlphaNumericExtendedShort": "[a-z0-9_-]{%s}",
                    "utils.AlphaNumericExtended": r"[a-z0-9=_\-]{%s}",
                    "utils.AlphaNumericExtendedLong": r"[a-z0-9\/=_\+\-]{%s}"}
        if name in patterns:
            return patterns[name] % args[0]
        if name == "utils.Hex8_4_4_4_12":
            return "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
        if name == "secrets.NewSecret":
            return self.generator(args[0])
        if name == "utils.GenerateSampleSecret":
            return f'{args[0]}_api_token = "{args[1]}"'
        if name == "utils.GenerateSampleSecrets":
            self.calls += 1
            picked = random.Random(f"{self.rule}:{self.calls}").sample(TEMPLATES, SAMPLES_PER_CALL)
            return [t.replace("{i}", args[0]).replace("{I}", args[0].upper()).replace("{s}", args[1])
                    for t in picked]
        if name == "append":
            base = list(args[0])
            for extra in args[1:]:
                base.extend(extra if isinstance(extra, list) else [extra])
            return base
        if name == "fmt.Sprintf":
            return re.sub(r"%[sdv]", lambda _: str(args.pop(1)), args[0])
        if name == "strings.Repeat":
            return args[0] * args[1]
        if name == "base64.StdEncoding.EncodeToString":
            return base64.b64encode(args[0].encode()).decode()
        if name in ("string", "byte"):
            return args[0]
        raise Unknown(name)


TEMPLATES: list[str] = []


def _templates(gitleaks: Path) -> list[str]:
    """GenerateSampleSecrets' templates, read from its source (the ones not commented out)."""
    source = (gitleaks / "cmd/generate/config/utils/generate.go").read_text(encoding="utf-8")
    body = source[source.index("samples := map[string]string{"):source.index("replacer :=")]
    found = []
    for line in body.splitlines():
        line = line.strip()
        if line.startswith("//") or ":" not in line:
            continue
        tokens = _tokens(line.rstrip(","))
        if len(tokens) == 3 and tokens[1][1] == ":":
            found.append(_go_string(*tokens[2]))
    return found


def _functions(source: str):
    for match in re.finditer(r"^func (\w+)\(\) \*config\.Rule \{\n(.*?)^\}", source, re.S | re.M):
        yield match.group(1), match.group(2)


def _statements(body: str):
    """Top-level statements of a function body: `name := expr` / `name = expr`."""
    tokens = _tokens(body)
    start, depth = 0, 0
    for index, (_, text) in enumerate(tokens + [("", ";")]):
        if text in "({[" and text:
            depth += 1
        elif text in ")}]" and text:
            depth -= 1
        if depth == 0 and index + 1 < len(tokens) and tokens[index + 1][1] in (":=", "=") \
                and tokens[index][0] == "name" and index > start:
            yield tokens[start:index]
            start = index
    yield tokens[start:]


def rule_cases(path: Path, generator_for) -> tuple[list[dict], int]:
    out, unknown = [], 0
    source = path.read_text(encoding="utf-8")
    package = {}  # `var name = []string{...}` at the file's top level, shared by its rules
    for match in re.finditer(r"^var (\w+) = (.*?\n\}|[^\n]*)$", source, re.S | re.M):
        try:
            package[match.group(1)] = Evaluator("", package, generator_for(path.name)).parse(_tokens(match.group(2)))
        except Unknown:
            pass
    for function, body in _functions(source):
        rule = re.search(r'RuleID:\s*"([^"]+)"', body)
        if not rule or NOT_SECRETS.search(rule.group(1)):
            continue
        rule = rule.group(1)
        evaluator = Evaluator(rule, dict(package), generator_for(rule))
        for statement in _statements(body):
            if len(statement) < 3 or statement[1][1] not in (":=", "="):
                continue
            name = statement[0][1]
            try:
                value = evaluator.parse(statement[2:])
            except Unknown:
                if name in ("tps", "fps"):
                    unknown += 1
                continue
            evaluator.variables[name] = value
        for name, label in (("tps", "secret"), ("fps", "benign")):
            values = evaluator.variables.get(name)
            for value in values if isinstance(values, list) else []:
                if value is Unknown or not isinstance(value, str):
                    unknown += 1
                    continue
                if not note_sized(value):
                    continue
                kind = f"gitleaks-{rule}" if label == "secret" else f"near_miss:gitleaks-{rule}"
                out.append({"text": value, "label": label, "kind": kind,
                            "source": f"gitleaks cmd/generate/config/rules/{path.name} {function}"})
    return out, unknown


# Rule files drawn for tuning before any case of theirs was looked at (README): half of them
# (seed 1818), then half of the rest (seed 1819). The last quarter was only ever measured.
TUNING_DRAWS = ((1818, "round 1"), (1819, "round 2"))
TUNING_OUT = HERE.parents[1] / "secret_tuning_from_gitleaks.jsonl"


def _rule_file(record: dict) -> str:
    return record["source"].split(" ")[1]


def split_for_tuning(records: list[dict], draws=TUNING_DRAWS, scanner: str = "gitleaks") -> tuple[list[dict], list[dict]]:
    """(kept, tuning): each draw takes half of the rule files left, by ``random.Random(seed)``."""
    left = sorted({_rule_file(r) for r in records})
    drawn: dict[str, str] = {}
    for seed, name in draws:
        for path in random.Random(seed).sample(left, len(left) // 2):
            drawn[path] = f"{scanner} rule file drawn for tuning ({name}, seed {seed})"
        left = [p for p in left if p not in drawn]
    kept = [r for r in records if _rule_file(r) not in drawn]
    tuning = [{**r, "tuned_for": drawn[_rule_file(r)]} for r in records if _rule_file(r) in drawn]
    return kept, tuning


def split_and_write(found: list[dict], left_out: dict[str, int], *, draws, scanner: str, unit: str,
                    out: Path, tuning_out: Path, moved: dict[str, str] | None = None,
                    after_draw: tuple[str, Callable[[list[dict]], tuple[list[dict], int]]] | None = None) -> None:
    """What a scanner's build does with the cases it cut (build_noseyparker, _credsweeper,
    _kingfisher): fillers and repeated texts out, the draw by source file, the files ``moved`` to
    tuning after measuring, ``after_draw`` (a name and a filter) applied to both sets after the
    draw so it cannot move a file, then both sets written and what was left out printed."""
    found, left_out["format fillers"] = without_fillers(found)
    unique, left_out["repeated texts"] = first_of_each_text(found)
    kept, tuning = move_to_tuning(*split_for_tuning(unique, draws, scanner), moved or {})
    if after_draw is not None:
        name, keep = after_draw
        (kept, dropped_kept), (tuning, dropped_tuning) = keep(kept), keep(tuning)
        left_out[name] = dropped_kept + dropped_tuning
    write_records(out, kept, unit)
    write_records(tuning_out, tuning, unit)
    print(f"left out: {left_out}")


def main() -> None:
    import importlib

    import rstr  # only to build: draws strings from regular expressions

    importlib.import_module("rstr.xeger").STAR_PLUS_LIMIT = 400  # rstr caps every repeat at 100 by default ("{138}")

    parser = argparse.ArgumentParser()
    parser.add_argument("--gitleaks", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=HERE / "gitleaks.jsonl")
    parser.add_argument("--tuning-out", type=Path, default=TUNING_OUT)
    args = parser.parse_args()
    TEMPLATES.extend(_templates(args.gitleaks))

    def generator_for(rule: str):
        drawer = rstr.Rstr(random.Random(f"gitleaks:{rule}"))

        def generate(pattern: str) -> str:
            # rstr caps an open repeat at 100, below some lower bounds ("{250,}")
            pattern = re.sub(r"\{(\d+),\}", lambda m: f"{{{m[1]},{int(m[1]) + 20}}}", pattern)
            try:
                return drawer.xeger(pattern)
            except Exception as error:  # a Go-only regex construct
                raise Unknown(pattern) from error
        return generate

    records, unknown = [], 0
    for path in sorted((args.gitleaks / "cmd/generate/config/rules").glob("*.go")):
        if path.name.endswith("_test.go"):
            continue
        found, skipped = rule_cases(path, generator_for)
        records += found
        unknown += skipped
    records, fillers = without_fillers(records)
    moved = {json.loads(line)["text"] for line in TUNING.read_text(encoding="utf-8").splitlines() if line.strip()}
    records = [r for r in records if r["text"] not in moved]
    unique, seen = [], set()
    for record in records:
        if record["text"] not in seen:
            seen.add(record["text"])
            unique.append(record)
    kept, tuning = split_for_tuning(unique)
    for path, records in ((args.out, kept), (args.tuning_out, tuning)):
        with path.open("w", encoding="utf-8") as out:
            for record in records:
                out.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
        print(f"{len(records)} notes: {sum(r['label'] == 'secret' for r in records)} secret, "
              f"{sum(r['label'] == 'benign' for r in records)} near misses -> {path}")
    print(f"{unknown} expressions left out (not known to the evaluator); {fillers} filler cases dropped")


if __name__ == "__main__":
    main()
