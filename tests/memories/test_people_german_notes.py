"""Issue 18, people (SPEC R-SAVE-3b), twelfth session: a data team's notes written in German.
German capitalises every noun, so a capitalised word no name list knows is no evidence of a name
there (memories/refusals/people_languages.py ``text_language``), and lower-case German words are not
read as a lower-case English name pair; German days and months are no names ("für Freitag").
Written here to probe false holds (no outside case): of the kept notes below, 5 were held on
5349397 (marked), and two names were held with a word of the sentence ("Bitte Lukas Brandtner").
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


@pytest.mark.parametrize("text", [
    "Der Export der Kundendaten läuft jede Nacht um zwei Uhr.",
    "Bitte die Rechnungen im Dashboard nach Region filtern.",
    "Die Tabelle Bestellungen hat doppelte Zeilen seit dem Update.",  # held on 5349397
    "Umsatz pro Filiale ist im Bericht für den Vorstand.",
    "Die Spalte Kundennummer darf nicht leer sein.",  # held on 5349397
    "Die Lieferung an das Lager verzögert sich um zwei Wochen.",  # held on 5349397
    "Der Abgleich mit der Buchhaltung ist für Freitag geplant.",  # held on 5349397
    "Die Kennzahlen für das dritte Quartal sind im Ordner Berichte.",  # held on 5349397
])
def test_german_notes_without_a_person_are_not_held(text):
    assert find_person_mentions(text) == []


@pytest.mark.parametrize("text, name", [
    ("Frau Schmidt möchte den Bericht als PDF.", "Frau Schmidt"),
    ("Bitte Lukas Brandtner fragen, ob der Export fertig ist.", "Lukas Brandtner"),
    ("Die Rechnung von Anna Krüger ist noch offen.", "Anna Krüger"),
])
def test_a_person_in_a_german_note_is_still_held(text, name):
    assert [m.text for m in find_person_mentions(text)] == [name]
