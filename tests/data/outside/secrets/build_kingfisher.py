"""Build tests/data/outside/secrets/kingfisher.jsonl from Kingfisher's own rule examples.

Every rule of Kingfisher (MongoDB's secret scanner, Apache-2.0, ``data/rules/*.yml``) carries
``examples`` its tests check it finds, and a few ``negative_examples`` it must not find. Its rules
began as Nosey Parker's and grew to some 750 (most vendors' keys after a keyword), so its examples
repeat some of Nosey Parker's and add vendors none of the other sources has. This script copies
them out as notes; nothing is written by hand.

Not run by the tests. Run it by hand (see README.md):

    python tests/data/outside/secrets/build_kingfisher.py --rules /tmp/kingfisher/data/rules

Rule files were drawn for tuning before any case of theirs was looked at, as for the other
scanners: half of them (seed 1824), then half of the rest (seed 1825), to
``tests/data/secret_tuning_from_kingfisher.jsonl``. The last quarter, ``kingfisher.jsonl``, is
only measured.

Labels by rule (README): an ``examples`` case is ``secret``; a ``negative_examples`` case is a
format near miss (``near_miss:kingfisher-<rule id>``), reported apart. Left out: the rules
Kingfisher itself hides (``visible: false``: the ids, hosts and domains that a secret's check
depends on) and the rules for an identifier or a public value by their names (an id, a user
name, a domain, a host, an email address, a public key or token), as those are no secret in SPEC
R-SAVE-2; every text already in another source's file (Nosey Parker's examples, mostly), cases
over the note size, format fillers (``build.without_fillers``) and, for this source only, values
typed as the alphabet or the digits in order or as RFC 4122's example UUID (``without_stand_ins``:
most of Kingfisher's examples are written so).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from build import _RUN_RE, note_sized
from build_gitleaks import split_and_write
from build_noseyparker import rule_examples

HERE = Path(__file__).resolve().parent
COMMIT = "ee7c0db3ef87575768f817820c24736249ffcdef"  # mongodb/kingfisher, the rules read (README)
TUNING_DRAWS = ((1824, "round 1"), (1825, "round 2"))
TUNING_OUT = HERE.parents[1] / "secret_tuning_from_kingfisher.jsonl"
# Rule files of the last quarter moved to tuning after a case of theirs was read (README): the
# file, and why.
MOVED_AFTER_MEASURING = {
    "odbc.yml": "moved from the measured quarter after a scratch comparison of verdicts printed its "
                "two near misses, to write the Ruby interpolation rule (\"#{password}\" is a template)",
}
# A rule's name that ends with what it finds, when that is no secret: "Auth0 Client ID",
# "Snowflake Username", "Okta Domain", "Azure Search URL" (an address with no credential in its
# name); and public values ("Mapbox Public Access Token").
_IDENTIFIER_NAME_RE = re.compile(
    r"(?:\b(?:ID|Id|Identifier|Username|Domain|Host|Hostname|Email|Name|Region|Recipient)"
    r"(?:\s*\([^)]*\))?$|\bPublic\b|^(?!.*(?:Password|Secret|Credential|Token|Key|Webhook)).*\bURL$)"
)


# The digits end with 0 again: "1234567890" is how a keyboard's row types them.
_ALPHABET, _DIGITS = "abcdefghijklmnopqrstuvwxyz", "01234567890"
# RFC 4122's example UUID, which most of the rules' UUID examples are.
_EXAMPLE_UUID = "123e4567-e89b-12d3"


def _written_in_order(run: str) -> bool:
    """A value typed as the alphabet or the digits in order ("abcdefghijklmnop", "1234567890ab",
    "ABCD1234EFGH5678IJKL"), or RFC 4122's example UUID: a hand-written stand-in, not a
    credential. Most of Kingfisher's examples are written so; a random key's letters hold no 8 of
    the alphabet in order, nor its digits 10 in order."""
    lowered = run.lower()
    if _EXAMPLE_UUID in lowered or _EXAMPLE_UUID.replace("-", "") in lowered:
        return True
    # The letters and the digits each read apart, runs of one character as one: "ABCD1234EFGH5678",
    # "abc123def456ghi789", "aaaabbbbccccdddd" are the alphabet typed in order.
    letters = re.sub(r"(.)\1+", r"\1", "".join(c for c in lowered if c.isalpha()))
    digits = "".join(c for c in lowered if c.isdigit())
    for text in (lowered, letters, digits):
        for sequence, length in ((_ALPHABET, 8), (_DIGITS, 10)):
            for backwards in (False, True):
                ordered = sequence[::-1] if backwards else sequence
                if any(ordered[i:i + length] in text for i in range(len(ordered) - length + 1)):
                    return True
    return False


def without_stand_ins(records: list[dict]) -> tuple[list[dict], int]:
    """Cases with a run written in order are dropped, whatever their label."""
    kept = [r for r in records if not any(_written_in_order(run) for run in _RUN_RE.findall(r["text"]))]
    return kept, len(records) - len(kept)


def _is_secret_rule(rule: dict) -> bool:
    return rule.get("visible", True) is not False and not _IDENTIFIER_NAME_RE.search(rule["name"])


def _known_texts() -> set[str]:
    """Every text of the other sources' files, tuning and measured: a case already there is left out."""
    known = set()
    for path in [*HERE.glob("*.jsonl"), *HERE.parents[1].glob("secret_tuning_from_*.jsonl")]:
        if "kingfisher" in path.name:
            continue
        with path.open(encoding="utf-8") as lines:
            known |= {json.loads(line)["text"] for line in lines if line.strip()}
    return known


def cases(rules_dir: Path) -> tuple[list[dict], dict[str, int]]:
    known = _known_texts()
    out = []
    left_out = {"an identifier's or a hidden rule": 0, "in another source's file": 0, "over the note size": 0}
    for rule, source, found in rule_examples(rules_dir, "kingfisher"):
        if not _is_secret_rule(rule):
            left_out["an identifier's or a hidden rule"] += len(found)
            continue
        for text, label, kind in found:
            if text in known:
                left_out["in another source's file"] += 1
                continue
            if not note_sized(text):
                left_out["over the note size"] += 1
                continue
            out.append({"text": text, "label": label, "kind": kind, "source": source})
    return out, left_out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", type=Path, required=True, help="Kingfisher's data/rules folder")
    parser.add_argument("--out", type=Path, default=HERE / "kingfisher.jsonl")
    parser.add_argument("--tuning-out", type=Path, default=TUNING_OUT)
    args = parser.parse_args()
    found, left_out = cases(args.rules)
    # The draw is over the rule files as they were first cut, before values written in order
    # were left out: that rule came after the first measurement, and a new draw would have put
    # files whose cases had been read among the measured ones.
    split_and_write(found, left_out, draws=TUNING_DRAWS, scanner="kingfisher", unit="rule files",
                    out=args.out, tuning_out=args.tuning_out, moved=MOVED_AFTER_MEASURING,
                    after_draw=("values written in order", without_stand_ins))

if __name__ == "__main__":
    main()
