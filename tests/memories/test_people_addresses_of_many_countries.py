"""Issue 18, people (SPEC R-SAVE-3b), twelfth session: an address is no person, in the forms
addresses take across countries. Faker's address providers name streets and towns after people
("rue de Prévost", "Camino Elisabet Villegas 19, Segovia", "North Larry, HI 03815"); a note that
quotes a shipping address was held for a person to confirm 28 % of the time.

The rules (memories/refusals/people_addresses.py, data/people_street_prefixes.txt): the street
prefixes of Faker's es, it, pt, ro and id providers; a street's word before a particle ("rue de
Prévost"); a town before a state and postcode ("North Larry, HI 03815", "Melo / PA") or a compass
word in it ("West Victor"); a town after its postcode ("47911 Gaillard-les-Bains") or, inside an
address line, before one ("19, Segovia, 49808"). Designed on 2,040 addresses of seed 1812 (580
held before, 119 after); seed 4242, drawn after, measured once: 578 → 130 of 2,040 (6.4 %).
A second round (a lower-case street word, "chemin Colette Dupuy"; a German street in one
hyphenated word, "Gotthard-Klingelhöfer-Allee"; a surname alone after "in", "an office in
Zamora"), designed on Faker's street and city names alone (seed 1812: streets 131 → 71, cities
70 → 22 of 640): addresses of seed 1812 119 → 92.
No outside case was read; the outside and tuning sets' figures did not move.
"""

from __future__ import annotations

import pytest
from faker import Faker

from memories.refusals.people import find_person_mentions

LOCALES = ["en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "pl_PL", "pt_BR", "cs_CZ", "da_DK",
           "sv_SE", "fi_FI", "hu_HU", "ro_RO", "hr_HR", "sk_SK", "sl_SI", "et_EE", "lv_LV", "lt_LT", "no_NO",
           "de_AT", "de_CH", "fr_CH", "en_AU", "en_CA", "en_IE", "es_MX", "pt_PT", "tr_TR", "id_ID", "en_NZ",
           "el_GR"]


def test_shipping_addresses_of_34_countries_are_rarely_held():
    held = total = 0
    for locale in LOCALES:
        fake = Faker(locale)
        fake.seed_instance(4242)
        for _ in range(60):
            address = fake.address().replace("\n", ", ")
            held += bool(find_person_mentions(f"Please ship the replacement to {address}."))
            total += 1
    # 130 of 2,040 (6.4 %) when written, 101 after the second round, from 578 (28.3 %); Faker's data may move a little
    # between its releases (pyproject allows 30-40), so the bound leaves room.
    assert held / total <= 0.09, (held, total)


@pytest.mark.parametrize("address", [
    "57, rue de Prévost, 47911 Gaillard-les-Bains",
    "147, avenue Paul Foucher, 25693 Paul-sur-Blanchard",
    "Camino Elisabet Villegas 19, Segovia, 49808",
    "Loteamento Melina da Mata, 625, Vila Tirol, 22985969 Aparecida / CE",
    "7619 Allison Haven Apt. 200, North Larry, HI 03815",
    "52 Mannix Street N07N8K3 Laura Ville",
    "Rotonda Martino, 77 Appartamento 3, 87073, Oriolo (CS)",
    "Jl. Asia Afrika No. 3, Lhokseumawe, KB 70871",
    # street and town names alone (a second round, same session)
    "the depot on chemin Colette Dupuy",
    "the depot on boulevard Jacques Blanchard",
    "the depot on Gotthard-Klingelhöfer-Allee",
    "our new office in Zamora",
])
def test_a_street_or_town_named_after_someone_is_no_person(address):
    assert find_person_mentions(f"Please ship the replacement to {address}.") == []


@pytest.mark.parametrize("text, name", [
    ("Send it to Maria Garcia, 28013 Madrid", "Maria Garcia"),  # the addressee, written first
    ("Thanks Maria Garcia, 2024 was a great year", "Maria Garcia"),
    ("Ronda Smith approved the refund.", "Ronda Smith"),  # a given name, not the street's word
    ("Lunch in Okafor's office at noon.", "Okafor"),  # a possessive after "in": a person's
    ("Met Maria in Zamora.", "Maria"),
])
def test_a_person_beside_an_address_or_a_number_is_still_held(text, name):
    assert any(name in m.text for m in find_person_mentions(text))
