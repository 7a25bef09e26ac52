"""The secret detector on data nobody here wrote (issue 18; SPEC R-SAVE-2).

tests/data/outside/secrets/ holds other scanners' test cases and fixtures and lines of other
people's files (corpus.jsonl), the quarter of gitleaks' rule tests and of Nosey Parker's rule
examples never looked at (gitleaks.jsonl, noseyparker.jsonl), half of TruffleHog's detector
tests (trufflehog.jsonl) and the quarter of CredSweeper's test samples and of Kingfisher's rule
examples never looked at (credsweeper.jsonl, kingfisher.jsonl); its README gives every source and
licence. No rule is tuned on them: a case a
rule was changed for moves to tests/data/secret_tuning_from_outside.jsonl first, and the gitleaks
rule files drawn for tuning are tests/data/secret_tuning_from_gitleaks.jsonl.

Plain tests: no database, no Django (run with ``-p no:django``). Scan time is measured by
``make bench BENCH=bench_secrets``, not here.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.bench_secrets import NEAR_MISS, outside_figures  # noqa: E402
from memories.refusals.secrets import find_secrets  # noqa: E402

OUTSIDE = ROOT / "tests" / "data" / "outside" / "secrets" / "corpus.jsonl"
OUTSIDE_GITLEAKS = OUTSIDE.parent / "gitleaks.jsonl"
OUTSIDE_NOSEYPARKER = OUTSIDE.parent / "noseyparker.jsonl"
OUTSIDE_TRUFFLEHOG = OUTSIDE.parent / "trufflehog.jsonl"
OUTSIDE_CREDSWEEPER = OUTSIDE.parent / "credsweeper.jsonl"
OUTSIDE_KINGFISHER = OUTSIDE.parent / "kingfisher.jsonl"
README = OUTSIDE.parent / "README.md"
TUNING = ROOT / "tests" / "data" / "secret_tuning_from_outside.jsonl"
TUNING_GITLEAKS = ROOT / "tests" / "data" / "secret_tuning_from_gitleaks.jsonl"
TUNING_NOSEYPARKER = ROOT / "tests" / "data" / "secret_tuning_from_noseyparker.jsonl"
TUNING_TRUFFLEHOG = ROOT / "tests" / "data" / "secret_tuning_from_trufflehog.jsonl"
TUNING_CREDSWEEPER = ROOT / "tests" / "data" / "secret_tuning_from_credsweeper.jsonl"
TUNING_KINGFISHER = ROOT / "tests" / "data" / "secret_tuning_from_kingfisher.jsonl"

# Issue 18's targets on the outside set.
RECALL_TARGET = 0.995
FALSE_REFUSAL_TARGET = 0.003
# Recall as measured on the outside files together (0.970, 1,200/1,237, then 0.972,
# 1,203/1,237 after short quoted keys, products' keys and numbered names: 196/198 of
# corpus.jsonl, 244/248 of gitleaks.jsonl, 74/85 of noseyparker.jsonl after psexec.yml moved to
# tuning, 689/706 of trufflehog.jsonl; with credsweeper.jsonl, 61/73 before and after the rules
# from its tuning draws, 0.965, 1,264/1,310; with kingfisher.jsonl, 84/108 as first measured
# with stand-ins left out, 86/107 after and trufflehog.jsonl 690/706, then 83/104 after odbc.yml
# moved to tuning, 0.953, 1,348/1,414; kingfisher.jsonl 86/104 after names glued to their values
# and typed values, 0.955, 1,351/1,414; trufflehog.jsonl 691/706 once "cache key …" no longer
# read every joined-name qualifier as a separate word, 0.957, 1,353/1,414; trufflehog.jsonl
# 692/706 with logins beside an e-mail, 0.958, 1,354/1,414; 0.960, 1,358/1,414 after the
# seventeenth session; 0.964, 1,363/1,414 after the eighteenth, kingfisher.jsonl 91/104): the
# issue's 0.995 is not reached (README). This floor
# keeps it from falling; raise it as misses are fixed, and replace it with RECALL_TARGET once that
# is met.
RECALL_FLOOR = 0.963
# The rule files of gitleaks and Nosey Parker drawn for tuning, as measured after tuning (0.979,
# 661/675, then 0.985, 665/675 with keys after a product's name, 0.991, 669/675 with products'
# keys as UUIDs and SonarQube tokens in both cases, 0.993, 670/675 with short header values,
# 0.994, 671/675 in the thirteenth session; 0.932, 245/263); the misses left are cases the
# detector disagrees with on purpose (README).
GITLEAKS_TUNING_RECALL_FLOOR = 0.997  # 673/675 after the seventeenth session
# With psexec.yml's 6 cases moved in (README): 0.915, 246/269; 4 of those 6 are placeholders or
# variables ("-p PASSWORD", "-p $Password"), which the detector lets through on purpose.
# 0.911, 245/269, since Ruby's "#{…}" is a template: "pwd=#{datastore['DBPASSWORD']}" in an ODBC
# string reads a setting, as "${DB_PASSWORD}" does, and is let through on purpose.
NOSEYPARKER_TUNING_RECALL_FLOOR = 0.914  # 246/269 after the eighteenth session ("-p dev_admin")
# TruffleHog's detector folders drawn for tuning, after its second round (0.955, 728/762) and the
# nearly-hex and secret_id rules (0.961, 732/762), keys after a product's name (0.967,
# 737/762) and short quoted keys, two formats and numbered names (0.976, 744/762; README); 0.979,
# 746/762 with the thirteenth session's rules.
TRUFFLEHOG_TUNING_RECALL_FLOOR = 0.985  # 748/762 after the seventeenth session, 751/762 after the eighteenth
# CredSweeper's sample files drawn for tuning: 0.889 (367/413) as first measured, 0.964
# (398/413) after the rules written from their misses (README), 0.966 (399/413) in the
# thirteenth session.
CREDSWEEPER_TUNING_RECALL_FLOOR = 0.975  # 402/413 after the seventeenth session, 403/413 after the eighteenth
# Kingfisher's rule files drawn for tuning: 0.870 (255/293) as first measured with stand-ins left
# out, 0.895 (256/286) after its rules and label fixes, 0.896 (259/289) with odbc.yml, 0.913
# (264/289) with names glued to their values and typed values (README), 0.917 (265/289) in the
# thirteenth session.
KINGFISHER_TUNING_RECALL_FLOOR = 0.944  # 268/289 after the seventeenth session, 273/289 after the eighteenth


def never_read(records: list[dict]) -> str:
    """What a failing assertion on the outside set may print: counts by scanner, never a text nor
    a rule's name (a case read to change a rule must move to tuning first; README)."""
    return f"{len(records)} cases; by source: {dict(Counter(r['source'].split(' ')[0] for r in records))}"


def load(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="module")
def outside() -> list[dict]:
    return (load(OUTSIDE) + load(OUTSIDE_GITLEAKS) + load(OUTSIDE_NOSEYPARKER) + load(OUTSIDE_TRUFFLEHOG)
            + load(OUTSIDE_CREDSWEEPER) + load(OUTSIDE_KINGFISHER))


@pytest.fixture(scope="module")
def figures(outside) -> dict:
    return outside_figures(outside)


def test_the_outside_corpus_is_big_labelled_and_sourced(outside):
    assert {r["label"] for r in outside} == {"secret", "benign"}
    # corpus.jsonl: 207 secret notes were cut, 9 moved to the tuning set since (README), 198 are
    # left; gitleaks.jsonl: 248 of the 923 cut, noseyparker.jsonl: 85 of the 354 cut,
    # trufflehog.jsonl: 706 of the 1,468 cut, credsweeper.jsonl: 73 of the 486 cut,
    # kingfisher.jsonl: 104 of the 393 left (the rest of each was drawn for tuning).
    assert sum(r["label"] == "secret" for r in outside) >= 1410
    assert sum(r["label"] == "benign" and not r["kind"].startswith(NEAR_MISS) for r in outside) >= 300
    assert len({r["text"] for r in outside}) == len(outside)
    readme = README.read_text(encoding="utf-8")
    for record in outside:
        assert set(record) == {"text", "label", "kind", "source"}
        assert len(record["text"].encode("utf-8")) <= 1024  # a note is at most 1 KB
        origin = record["source"].split(" ")[0].split("/")[0]
        named = "dist-info" if origin.endswith(".dist-info") else origin.split("-")[0]
        assert named.lower() in readme.lower(), record["source"]
        assert not origin.startswith("appenda"), record["source"]  # nothing of this project


def test_no_case_the_rules_were_tuned_on_is_left_in_the_outside_corpus(outside):
    tuned = {r["text"] for r in load(TUNING) + load(TUNING_GITLEAKS) + load(TUNING_NOSEYPARKER)
             + load(TUNING_TRUFFLEHOG) + load(TUNING_CREDSWEEPER) + load(TUNING_KINGFISHER)}
    assert tuned and not tuned & {r["text"] for r in outside}
    for tuning, measured in ((TUNING_GITLEAKS, OUTSIDE_GITLEAKS), (TUNING_NOSEYPARKER, OUTSIDE_NOSEYPARKER),
                             (TUNING_TRUFFLEHOG, OUTSIDE_TRUFFLEHOG), (TUNING_CREDSWEEPER, OUTSIDE_CREDSWEEPER),
                             (TUNING_KINGFISHER, OUTSIDE_KINGFISHER)):
        tuned_files = {r["source"].split(" ")[1] for r in load(tuning)}
        measured_files = {r["source"].split(" ")[1] for r in load(measured)}
        assert tuned_files and measured_files and not tuned_files & measured_files


@pytest.mark.parametrize("path, least, floor", [
    (TUNING_GITLEAKS, 600, GITLEAKS_TUNING_RECALL_FLOOR),
    (TUNING_NOSEYPARKER, 250, NOSEYPARKER_TUNING_RECALL_FLOOR),
    (TUNING_TRUFFLEHOG, 750, TRUFFLEHOG_TUNING_RECALL_FLOOR),
    (TUNING_CREDSWEEPER, 400, CREDSWEEPER_TUNING_RECALL_FLOOR),
    (TUNING_KINGFISHER, 280, KINGFISHER_TUNING_RECALL_FLOOR),
], ids=["gitleaks", "noseyparker", "trufflehog", "credsweeper", "kingfisher"])
def test_recall_on_the_rule_files_drawn_for_tuning_does_not_fall(path, least, floor, capsys):
    figures = outside_figures(load(path))
    with capsys.disabled():
        print(f"\n{path.name}: recall {figures['recall']:.4f} "
              f"({figures['secrets'] - len(figures['missed'])}/{figures['secrets']})")
    assert figures["secrets"] >= least
    assert figures["recall"] >= floor, [r["text"][:80] for r in figures["missed"]]


def test_the_cases_moved_to_tuning_are_decided_as_their_sources_label_them():
    wrong = [r["text"][:80] for r in load(TUNING) if bool(find_secrets(r["text"])) != (r["label"] == "secret")]
    assert not wrong


def test_false_refusals_on_outside_benign_notes_meet_the_target(figures, capsys):
    with capsys.disabled():
        print(f"\nOutside corpus: false refusals {figures['false_refusals']:.4f} "
              f"({len(figures['refused'])}/{figures['benign']}), near misses flagged "
              f"{figures['near_flagged']:.4f} ({len(figures['flagged'])}/{figures['near']})")
    assert figures["false_refusals"] <= FALSE_REFUSAL_TARGET, never_read(figures["refused"])


def test_recall_on_outside_secrets_does_not_fall(figures, capsys):
    with capsys.disabled():
        print(f"\nOutside corpus: recall {figures['recall']:.4f} "
              f"({figures['secrets'] - len(figures['missed'])}/{figures['secrets']}); "
              f"target {RECALL_TARGET}, floor {RECALL_FLOOR}")
    assert figures["recall"] >= RECALL_FLOOR, never_read(figures["missed"])
