"""Issue 18, people (SPEC R-SAVE-3b), twelfth session: a firm named after people is no person
when it is written as a firm, with a legal form after the name ("Prévost Lemaître S.A.S.",
"Auvinen Oy", "Łyskawa Sp. z o.o.") or a firm's word before it ("Grupo Castillo-Zúñiga",
"Fundacja Szlufik"); memories/refusals/people_firms.py, from Faker's company providers. Over
1,200 company names of Faker's 30 company providers in a note ("The invoice from <company> is
overdue"), 946 were held before, 504 after (seed 1812, designed on); seed 4242, drawn after and
measured once, 924 → 505. The rest are bare surnames ("Boulanger", "Robertson-Hernandez") and
lists of them, which may be people as well. Each firm below is held on 0bdc168.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


@pytest.mark.parametrize("firm", [
    "Prévost Lemaître S.A.S.",
    "Koch Zorbach KG",
    "Kuchciak-Wyrwich S.A.",
    "PPUH Łyskawa Sp. z o.o.",
    "Auvinen Oy",
    "Nagy Zrt.",
    "Grupo Castillo-Zúñiga",
    "Fundacja Szlufik",
    "Proyectos Murillo-Miramontes",
])
def test_a_firm_written_with_its_legal_form_or_firm_word_is_no_person(firm):
    assert find_person_mentions(f"The invoice from {firm} is overdue; ask accounting to chase it.") == []


@pytest.mark.parametrize("text, name", [
    ("Maria Garcia as the owner signed it.", "Maria Garcia"),  # "as", not Norway's "AS"
    ("Maria Garcia BA is our new analyst.", "Maria Garcia"),  # a degree, not a legal form
    ("Send Maria Garcia's CV to the hiring manager.", "Maria Garcia"),
])
def test_a_person_before_a_word_that_looks_like_a_legal_form_is_still_held(text, name):
    assert any(name in m.text for m in find_person_mentions(text))
