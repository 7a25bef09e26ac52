"""Build tests/data/outside/secrets/credsweeper.jsonl from CredSweeper's own test samples.

CredSweeper (Samsung's credential scanner, MIT) keeps some 230 sample files (``tests/samples``)
and, in ``tests/data/*.json``, what its tests expect it to report in them: ``output.json`` with
its default configuration (rules, filters and its ML model), ``no_filters_no_ml.json`` with the
rules alone. This script copies the reported lines out as notes; nothing is written by hand.

Not run by the tests. Run it by hand on a checkout of CredSweeper (see README.md):

    python tests/data/outside/secrets/build_credsweeper.py --credsweeper /tmp/credsweeper

Sample files were drawn for tuning before any case of theirs was looked at, as for the other
scanners: half of them (seed 1822), then half of the rest (seed 1823), to
``tests/data/secret_tuning_from_credsweeper.jsonl``. The last quarter, ``credsweeper.jsonl``,
is only measured.

Labels by rule (README):

* a line CredSweeper reports with its default configuration, for a rule of severity ``high`` or
  ``medium``, is ``secret``; a finding over several lines (a key id and its secret, a PEM block)
  is one note of those lines;
* a line only the bare rules report (``no_filters_no_ml.json``) and the default configuration
  does not is a format near miss (``near_miss:credsweeper-<rule>``), reported apart: the filters
  and the model say "not a credential", which is no proof that it is benign;
* left out: the rules of severity ``info`` and ``low`` (UUIDs, bucket names, domains, nonces,
  salts) and the ones for an identifier (``AWS Client ID``, ``Alibaba Access Key ID``, ``Tencent
  WeChat API App ID``), as identifiers are no secret in SPEC R-SAVE-2; findings inside archives
  and binary files; notes over the note size; format fillers (``build.without_fillers``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from build import note_sized
from build_gitleaks import split_and_write

HERE = Path(__file__).resolve().parent
COMMIT = "1ed2ca5cdd480667b938024464a37589b9af8564"  # Samsung/CredSweeper, the samples read (README)
TUNING_DRAWS = ((1822, "round 1"), (1823, "round 2"))
TUNING_OUT = HERE.parents[1] / "secret_tuning_from_credsweeper.jsonl"
SECRET_SEVERITIES = {"high", "medium"}
IDENTIFIER_RULES = {"AWS Client ID", "Alibaba Access Key ID", "Tencent WeChat API App ID"}
# Sample files a case of which was seen before the draw: they go to tuning whatever it says.
SEEN_BEFORE_THE_DRAW = {
    "1password": "its case was printed while reading the layout of output.json, before the draw",
}


def _sample(path: str) -> str | None:
    """The sample file's name for a finding's path, None when the finding is inside an archive
    or another file (``./tests/samples/a.zip/b``)."""
    prefix = "./tests/samples/"
    if not path.startswith(prefix) or "/" in path[len(prefix):]:
        return None
    return path[len(prefix):]


def _findings(report: Path) -> list[tuple[str, str, list[int]]]:
    """(sample, rule, line numbers) of each finding of a report that can be read as lines."""
    found = []
    for finding in json.loads(report.read_text(encoding="utf-8")):
        if finding["severity"] not in SECRET_SEVERITIES or finding["rule"] in IDENTIFIER_RULES:
            continue
        samples = {_sample(line["path"]) for line in finding["line_data_list"]}
        if len(samples) != 1 or None in samples:
            continue
        numbers = sorted({line["line_num"] for line in finding["line_data_list"]})
        found.append((samples.pop(), finding["rule"], numbers))
    return found


def _text(samples: Path, sample: str, numbers: list[int]) -> str | None:
    try:
        lines = (samples / sample).read_text(encoding="utf-8").splitlines()
    except (UnicodeDecodeError, OSError):
        return None  # a binary sample (a keystore, a class file)
    if not numbers or numbers[0] < 1 or numbers[-1] > len(lines):
        return None
    return "\n".join(lines[numbers[0] - 1:numbers[-1]]).strip("\n")


def cases(root: Path) -> tuple[list[dict], dict[str, int]]:
    samples, data = root / "tests" / "samples", root / "tests" / "data"
    out, left_out = [], {"not readable as text": 0, "over the note size": 0}
    secret_lines: set[tuple[str, int]] = set()
    for label, report in (("secret", "output.json"), ("near", "no_filters_no_ml.json")):
        for sample, rule, numbers in _findings(data / report):
            if label == "near" and any((sample, n) in secret_lines for n in numbers):
                continue
            text = _text(samples, sample, numbers)
            if text is None:
                left_out["not readable as text"] += 1
                continue
            if not note_sized(text):
                left_out["over the note size"] += 1
                continue
            if label == "secret":
                secret_lines.update((sample, n) for n in numbers)
            kind = rule if label == "secret" else f"near_miss:credsweeper-{rule}"
            out.append({"text": text, "label": "secret" if label == "secret" else "benign", "kind": kind,
                        "source": f"credsweeper {sample} {rule}"})
    return out, left_out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--credsweeper", type=Path, required=True, help="a checkout of Samsung/CredSweeper")
    parser.add_argument("--out", type=Path, default=HERE / "credsweeper.jsonl")
    parser.add_argument("--tuning-out", type=Path, default=TUNING_OUT)
    args = parser.parse_args()
    found, left_out = cases(args.credsweeper)
    split_and_write(found, left_out, draws=TUNING_DRAWS, scanner="credsweeper sample", unit="sample files",
                    out=args.out, tuning_out=args.tuning_out, moved=SEEN_BEFORE_THE_DRAW)

if __name__ == "__main__":
    main()
