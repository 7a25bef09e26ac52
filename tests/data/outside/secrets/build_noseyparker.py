"""Build tests/data/outside/secrets/noseyparker.jsonl from Nosey Parker's own rule examples.

Every rule of Nosey Parker (Praetorian's secret scanner, ``crates/noseyparker/data/default/
builtin/rules/*.yml``) carries ``examples`` its authors check it finds, and often
``negative_examples`` it must not find. This script copies them out as notes; nothing is written
by hand.

Not run by the tests. Run it by hand (see README.md):

    python tests/data/outside/secrets/build_noseyparker.py --rules /tmp/noseyparker/rules

Rule files were drawn for tuning before any case of theirs was looked at, as for gitleaks: half
of them (seed 1820), then half of the rest (seed 1821), to
``tests/data/secret_tuning_from_noseyparker.jsonl``. The last quarter, ``noseyparker.jsonl``, was
only ever measured.

Labels by rule (README): an ``examples`` case of a rule in the category ``secret`` is ``secret``;
a ``negative_examples`` case is a format near miss (``near_miss:noseyparker-<rule id>``),
reported apart, as detect-secrets' ``should_flag=False`` cases are (some of them are secrets the
rule does not match yet, as their comments say, so they are not benign either). Rules that find
an identifier, a hostname or a public key but no secret (no ``secret`` category) are left out,
as are cases over the note size and format fillers (``build.without_fillers``).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import yaml
from build import note_sized
from build_gitleaks import split_and_write

HERE = Path(__file__).resolve().parent
COMMIT = "2e6e7f36"  # praetorian-inc/noseyparker, the rules read (README)
TUNING_DRAWS = ((1820, "round 1"), (1821, "round 2"))
TUNING_OUT = HERE.parents[1] / "secret_tuning_from_noseyparker.jsonl"
# Rule files of the last quarter whose misses were printed, then moved to tuning to write a rule
# (README): the file, and why.
MOVED_AFTER_MEASURING = {
    "psexec.yml": "moved from the measured quarter after its 6 misses were printed by make bench, "
                  "to write the command-line password-flag rule (secret_cli.py)",
}


def rule_examples(rules_dir: Path, scanner: str) -> Iterator[tuple[dict, str, list[tuple[str, str, str]]]]:
    """(rule, source, [(text, label, kind)]) of every rule of a folder of Nosey Parker-style rule
    files (Kingfisher's too): ``examples`` are secrets, ``negative_examples`` near misses."""
    for path in sorted(rules_dir.glob("*.yml")):
        for rule in yaml.safe_load(path.read_text(encoding="utf-8")).get("rules", []):
            found = [(text.strip("\n"), "secret", rule["id"]) for text in rule.get("examples") or []]
            found += [(text.strip("\n"), "benign", f"near_miss:{scanner}-{rule['id']}")
                      for text in rule.get("negative_examples") or []]
            yield rule, f"{scanner} {path.name} {rule['id']}", found


def cases(rules_dir: Path) -> tuple[list[dict], dict[str, int]]:
    out, left_out = [], {"not a secret rule": 0, "over the note size": 0}
    for rule, source, found in rule_examples(rules_dir, "noseyparker"):
        if "secret" not in set(rule.get("categories") or []):
            left_out["not a secret rule"] += len(found)
            continue
        for text, label, kind in found:
            if not note_sized(text):
                left_out["over the note size"] += 1
                continue
            out.append({"text": text, "label": label, "kind": kind, "source": source})
    return out, left_out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", type=Path, required=True, help="Nosey Parker's builtin rules folder")
    parser.add_argument("--out", type=Path, default=HERE / "noseyparker.jsonl")
    parser.add_argument("--tuning-out", type=Path, default=TUNING_OUT)
    args = parser.parse_args()
    found, left_out = cases(args.rules)
    split_and_write(found, left_out, draws=TUNING_DRAWS, scanner="noseyparker", unit="rule files",
                    out=args.out, tuning_out=args.tuning_out, moved=MOVED_AFTER_MEASURING)

if __name__ == "__main__":
    main()
