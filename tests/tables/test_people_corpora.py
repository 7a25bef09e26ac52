"""Issue 18: the people-and-records figures on both corpora, asserted (benchmarks/people_corpora.py
measures; `make bench BENCH=bench_refusals` prints the same figures).

* tuning: tests/data/people_corpus.json (generated here; the rules were tuned on it);
* outside: tests/data/outside/people/ (built from presidio-evaluator's data and Faker locales the
  detector's lists do not use; see its README). Never tuned on: the cases looked at to design a
  rule were moved to tests/data/people_tuning_from_outside.jsonl (part of the tuning corpus):
  the 32 false refusals that led to the "lone name word needs a person cue" rule, and a random
  quarter of its other-people and benign notes, drawn before they were looked at, on which the
  address and name-shape rules of the person detector were designed.

Each note is checked as a save without a subject is (every table of the workspace): the issue's
"without a subject" rule makes that the strictest reading of recall.
"""

from __future__ import annotations

import pytest

from benchmarks import people_corpora
from tests.factories import ALL_DATABASES
from workspaces.capabilities import actor_for

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)


def figures(corpus, owner, workspace, *, show_cases=False):
    """Measure ``corpus``; print its figures, and with ``show_cases`` (tuning data only) the cases
    missed: an outside note is never printed (tests/data/outside/people/README.md)."""
    people_corpora.load(corpus, actor=actor_for(owner, workspace))
    measured = people_corpora.measure(corpus, workspace_id=workspace.id, using=workspace.db_alias)
    print("\n" + "\n".join(measured.lines()))
    if not show_cases:
        return measured
    for note in measured.missed[:20]:
        print("  missed:", note["form"], "|", note["value"][:120])
    for note in measured.false_refusals[:20]:
        print("  false refusal:", note["label"], "|", note["value"][:120])
    return measured


def test_issue_18_outside_corpus_figures(owner, eu_ws):
    """People/records (R-SAVE-3) on the outside set: the issue's targets, recall >= 99.5 % and
    false refusals <= 0.5 % (measured on what is left after the moves: 99.65 %, 0 of 652). Other
    people held (R-SAVE-3b): the issue's targets (held >= 95 %, false holds <= 2 %) are NOT met
    by the person detector yet (benchmarks/RESULTS.md); the figures measured on what is left
    after the fourth random draw (seed 1821) and its rules are asserted, so that worse ones fail:
    91.2 % held and 2.7 % false holds, the same as on those notes before the fourth draw's rules,
    then 91.8 % and 2.7 % after the rules from the GUM corpus (README); thirteenth session 92.5 %
    and 2.3 % (136/147, 5/219), then a fifth random quarter (seed 1822) moved to tuning: what is left
    91.0 % (101/111) and 1.8 % (3/164) before and after the rules written from that draw."""
    measured = figures(people_corpora.outside_corpus(), owner, eu_ws)
    assert measured.records_notes >= 3000 and measured.clean_notes >= 275
    assert measured.recall >= 0.995
    assert measured.false_refusal_rate <= 0.005
    assert measured.other_notes >= 111 and measured.benign_notes >= 164
    assert measured.other_held_rate >= 0.909  # 101/111 after the fifth draw (seed 1822)
    assert measured.false_hold_rate <= 0.019  # 3/164 after the fifth draw


def test_issue_18_tuning_corpus_figures(owner, eu_ws):
    """The tuning corpus: generated notes plus the cases moved from the outside set. Its table
    holds the 23 outside people those cases name: their first names make 5 generated
    other-people notes refused ("Thank Maria Morales …": a table person is Maria, and "thank"
    says a person is meant), and 4 moved notes are refused too (2 of the 32, which the rule
    they motivated does not clear, and 2 of the random quarter that name a tuning-table
    person's name word after a cue), hence 17 of 1,592 (1.07 %; 8 of 1,258 before the move);
    18 of 1,812 (0.99 %) with the second draw's notes (seed 1819), 18 of 1,974 (0.91 %) with
    the third's (seed 1820), 18 of 2,095 (0.86 %) with the fourth's (seed 1821)."""
    measured = figures(people_corpora.tuning_corpus(), owner, eu_ws, show_cases=True)
    assert measured.recall >= 0.995
    assert measured.false_refusal_rate <= 0.011
    assert measured.other_held_rate >= 0.95
    assert measured.false_hold_rate <= 0.02
