"""Issue 18: the person detector on a second outside source, the GUM corpus (Georgetown
University Multilayer corpus; tests/data/outside/people/build_gum.py, README.md there):
sentences of biographies, news, interviews, court hearings, travel guides and academic papers,
labelled from GUM's own entity annotation. Half of its documents (seed 2031) are the tuning file
tests/data/people_tuning_from_gum.jsonl; the other half, gum.jsonl, is only measured.

The issue's targets (95 % of the notes naming someone held, at most 2 % false holds) are far from
met on this prose: the figures measured are asserted so that worse ones fail (README lists each
measurement).
"""

from __future__ import annotations

import pytest

from benchmarks.people_corpora import PROSE_SOURCES, prose_figures, prose_rows

_, HELD, TUNING = next(source for source in PROSE_SOURCES if source[0] == "GUM")


def test_the_two_halves_are_big_labelled_and_apart():
    held, tuning = prose_rows(HELD), prose_rows(TUNING)
    for rows in (held, tuning):
        assert {r["label"] for r in rows} == {"names_person_other", "benign"}
        assert sum(r["label"] == "names_person_other" for r in rows) >= 200
        assert sum(r["label"] == "benign" for r in rows) >= 400
    assert not {r["source"] for r in held} & {r["source"] for r in tuning}  # no document in both


@pytest.mark.parametrize("path, held_floor, false_ceiling", [
    # Measured before the rules written from the tuning half (907fde9): 63.9 % (163/255) held,
    # 2.6 % (11/421) false holds; after the first round 65.1 % (166/255) and 2.9 % (12/421);
    # after the second (births, "said X", "Twain, Mark.") 66.3 % (169/255) and 2.9 %; after the
    # third (roles in apposition, "X notes he", "X, who") 67.1 % (171/255) and 2.9 % (12/421).
    (HELD, 0.670, 0.029),
    # The tuning half: 78.9 % and 1.9 % before; 83.8 % (171/204) and 1.2 % (5/426) after two
    # rounds, 87.3 % (178/204) and 1.2 % after the third.
    (TUNING, 0.872, 0.012),
], ids=["held-half", "tuning-half"])
def test_the_gum_figures_do_not_fall(path, held_floor, false_ceiling, capsys):
    held_count, named, false_count, benign = prose_figures(prose_rows(path))
    held, false = held_count / named, false_count / benign
    with capsys.disabled():
        print(f"\n{path.name}: other people held {held:.4f}, false holds {false:.4f}")
    assert held >= held_floor
    assert false <= false_ceiling
