"""Issue 18: the person detector on a third outside source, casual text: WNUT 2017 (tweets,
Reddit and YouTube comments, Stack Overflow answers; tests/data/outside/people/build_wnut.py,
README.md there), labelled from WNUT's own person tags. Half of its sentences (seed 2032) are the
tuning file tests/data/people_tuning_from_wnut.jsonl; the other half, wnut.jsonl, is only
measured.

The issue's targets (95 % of the notes naming someone held, at most 2 % false holds) are far from
met on this text: the figures measured are asserted so that worse ones fail (README lists each
measurement).
"""

from __future__ import annotations

import pytest

from benchmarks.people_corpora import PROSE_SOURCES, prose_figures, prose_rows

_, HELD, TUNING = next(source for source in PROSE_SOURCES if source[0] == "WNUT 2017")


def test_the_two_halves_are_big_labelled_and_apart():
    held, tuning = prose_rows(HELD), prose_rows(TUNING)
    for rows in (held, tuning):
        assert {r["label"] for r in rows} == {"names_person_other", "benign"}
        assert sum(r["label"] == "names_person_other" for r in rows) >= 550
        assert sum(r["label"] == "benign" for r in rows) >= 1300
    assert not {r["value"] for r in held} & {r["value"] for r in tuning}  # no sentence in both


@pytest.mark.parametrize("path, held_floor, false_ceiling", [
    # Measured before any rule from WNUT (7541ebb): 49.9 % (286/573) held, 6.2 % (84/1361) false
    # holds; after the first round (handles, contractions): 55.7 % (319/573) and 6.0 % (82/1361);
    # after the second ("X and I", "thank you X"): 56.2 % (322/573), FH the same; after the third
    # (lower-case names only in English text): the same held, 5.7 % (78/1361) false holds.
    (HELD, 0.561, 0.058),
    # The tuning half: 53.0 % (316/596) and 4.1 % (54/1324) before; 58.6 % (349/596) and 3.9 %
    # (51/1324) after the first round, 59.2 % (353/596) after the second, 3.8 % (50/1324) false
    # holds after the third.
    (TUNING, 0.592, 0.038),
], ids=["held-half", "tuning-half"])
def test_the_wnut_figures_do_not_fall(path, held_floor, false_ceiling, capsys):
    held_count, named, false_count, benign = prose_figures(prose_rows(path))
    held, false = held_count / named, false_count / benign
    with capsys.disabled():
        print(f"\n{path.name}: other people held {held:.4f}, false holds {false:.4f}")
    assert held >= held_floor
    assert false <= false_ceiling
