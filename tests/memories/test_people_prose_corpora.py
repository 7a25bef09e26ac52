"""Issue 18: the person detector on the outside prose sources (tests/data/outside/people, README
there), each labelled from its own annotation and split in two halves: one for tuning, one only
measured (``benchmarks.people_corpora.PROSE_SOURCES``).

* **GUM** (Georgetown University Multilayer corpus; build_gum.py): sentences of biographies,
  news, interviews, court hearings, travel guides and academic papers. Half of its documents
  (seed 2031) are tests/data/people_tuning_from_gum.jsonl; the other half, gum.jsonl, is measured.
* **WNUT 2017** (build_wnut.py): casual text, tweets, Reddit and YouTube comments, Stack Overflow
  answers, labelled from WNUT's person tags. Half of its sentences (seed 2032) are
  tests/data/people_tuning_from_wnut.jsonl; the other half, wnut.jsonl, is measured.

The issue's targets (95 % of the notes naming someone held, at most 2 % false holds) are far from
met on either: the figures measured are asserted so that worse ones fail (the README lists each
measurement).
"""

from __future__ import annotations

import pytest

from benchmarks.people_corpora import PROSE_SOURCES, prose_figures, prose_rows

SOURCES = {name: (held, tuning) for name, held, tuning in PROSE_SOURCES}


@pytest.mark.parametrize("source, least_named, least_benign, unit", [
    ("GUM", 200, 400, "source"),  # no document in both halves
    ("WNUT 2017", 550, 1300, "value"),  # no sentence in both halves
])
def test_the_two_halves_are_big_labelled_and_apart(source, least_named, least_benign, unit):
    held, tuning = (prose_rows(path) for path in SOURCES[source])
    for rows in (held, tuning):
        assert {r["label"] for r in rows} == {"names_person_other", "benign"}
        assert sum(r["label"] == "names_person_other" for r in rows) >= least_named
        assert sum(r["label"] == "benign" for r in rows) >= least_benign
    assert not {r[unit] for r in held} & {r[unit] for r in tuning}


@pytest.mark.parametrize("source, half, held_floor, false_ceiling", [
    # GUM, measured before the rules written from its tuning half (907fde9): 63.9 % (163/255) held,
    # 2.6 % (11/421) false holds; after the first round 65.1 % (166/255) and 2.9 % (12/421);
    # after the second (births, "said X", "Twain, Mark.") 66.3 % (169/255) and 2.9 %; after the
    # third (roles in apposition, "X notes he", "X, who") 67.1 % (171/255) and 2.9 % (12/421).
    # Eleventh session (a first name and a famous surname): 67.5 % (172/255). Thirteenth (names
    # frequent only as names are names in a run, alone with a cue): 69.0 % (176/255; 71.0 % while
    # they were plain names, given up for the brands and tools named with them, README).
    # Fifteenth (more verbs of what a person does): 69.4 % (177/255). Eighteenth ("Heald noted"):
    # 69.8 % (178/255); then 70.6 % (180/255, a subject the sentence calls "his" or "her"), 71.4 %
    # (182/255, the same after "In 2007, " or "that").
    ("GUM", 0, 0.713, 0.029),
    # GUM's tuning half: 78.9 % and 1.9 % before; 83.8 % (171/204) and 1.2 % (5/426) after two
    # rounds, 87.3 % (178/204) and 1.2 % after the third; thirteenth session 87.7 % (179/204,
    # "Goode has appeared …"), false holds 0.9 % (4/426). Fifteenth: 88.2 % (180/204, a Hong Kong
    # name with a hyphenated given name). Eighteenth: 89.2 % (182/204; "X was born", "Constantine
    # the Great"; the held half unchanged, README), then 89.7 % (183/204, "Heald noted"), 90.2 %
    # (184/204, "In 2007, Paris left … her …"), 90.7 % (185/204, more roles).
    ("GUM", 1, 0.906, 0.012),
    # WNUT, measured before any rule from it (7541ebb): 49.9 % (286/573) held, 6.2 % (84/1361)
    # false holds; after the first round (handles, contractions): 55.7 % (319/573) and 6.0 %
    # (82/1361); after the second ("X and I", "thank you X"): 56.2 % (322/573), FH the same; after
    # the third (lower-case names only in English text): the same held, 5.7 % (78/1361) false holds.
    # Eleventh session: 57.1 % (327/573); twelfth (notes in German): false holds 5.5 % (75/1361).
    # Thirteenth (names frequent only as names, in a run or with a cue): 58.3 % (334/573; 60.2 %
    # while they were plain names) and 5.4 % (74/1361). Fourteenth (names in markup, mentions by
    # a given name that is a word, logins in person fields): 58.8 % (337/573), false holds the same.
    # Fifteenth (a given name that is a word glued to a surname in an email): 59.0 % (338/573); then
    # 58.8 % (337/573) once a contraction is no name ("Hasn't replied …" was held; README).
    # Seventeenth (a note's language decides whether its common words are names): false holds
    # 5.4 % (73/1361, from 74). Eighteenth: 59.0 % (338/573; a name spoken to at the end, "…, Nick!"),
    # then 59.2 % (339/573, "Where's Grant?"), 59.3 % (340/573, a subject called "his"/"her").
    ("WNUT 2017", 0, 0.593, 0.054),
    # WNUT's tuning half: 53.0 % (316/596) and 4.1 % (54/1324) before; 58.6 % (349/596) and 3.9 %
    # (51/1324) after the first round, 59.2 % (353/596) after the second, 3.8 % (50/1324) false
    # holds after the third.
    # Eleventh session: 60.2 % (359/596); twelfth: 60.1 % (358/596, "Murphy's law: …" no longer held).
    # Thirteenth: 61.1 % (364/596; 63.3 % while those names were plain), false holds 3.7 % (49/1324).
    # Fourteenth: false holds 3.8 % (50/1324): "i love her *Danielle ily*" read once emphasis is
    # taken off (a person WNUT did not tag). Fifteenth: 61.2 % (365/596). Seventeenth: false holds
    # 3.5 % (46/1324, from 50; lower-case words of other languages' notes are no names).
    # Eighteenth: 62.4 % (372/596: "We bought Riley a onesie", "Ollie's nose", "…, Summer?",
    # "feat. Drake"), 62.8 % (374/596, "Pyrion continues his streak"), 62.9 % (375/596, "Hats off
    # to Nick for his …"), 63.1 % (376/596, more roles).
    ("WNUT 2017", 1, 0.630, 0.035),
], ids=["gum-held-half", "gum-tuning-half", "wnut-held-half", "wnut-tuning-half"])
def test_the_prose_figures_do_not_fall(source, half, held_floor, false_ceiling, capsys):
    path = SOURCES[source][half]
    held_count, named, false_count, benign = prose_figures(prose_rows(path))
    held, false = held_count / named, false_count / benign
    with capsys.disabled():
        print(f"\n{path.name}: other people held {held:.4f}, false holds {false:.4f}")
    assert held >= held_floor
    assert false <= false_ceiling
