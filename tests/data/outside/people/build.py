"""Builds the outside people-and-records corpus (records.jsonl, notes.jsonl) from data this
repository did not write. See README.md beside this file for the sources and the rules.

    pip download presidio-evaluator==0.3.2 --no-binary :all: --no-deps -d /tmp/x
    tar xzf /tmp/x/presidio_evaluator-0.3.2.tar.gz -C /tmp/x
    pip install pypinyin==0.55.0 transliterate==1.10.2   # in a scratch venv: not project deps
    python tests/data/outside/people/build.py /tmp/x/presidio_evaluator-0.3.2

Deterministic (seeded); run once, the output is committed. Never edit the output by hand.
Notes moved to the tuning set (``tests/data/people_tuning_from_outside.jsonl``, lines with
``"kind": "note"``) are left out. After moving cases, ``build.py --drop-moved`` applies the same
filter to the committed notes.jsonl without the sdist (the result is what a full build gives).
``build.py --draw-for-tuning SEED`` moves a random quarter of the other-people and of the benign
notes left (with every copy of their texts) to the tuning set, before any is looked at.
"""

from __future__ import annotations

import csv
import json
import random
import re
import sys
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
TUNING = HERE.parents[1] / "people_tuning_from_outside.jsonl"
SEED = 18
TABLE_PEOPLE = 300
PLACEHOLDER = re.compile(r"{{(\w+)}}")
NAME_SLOTS = ("person", "name", "name_female", "name_male")
# Template slots Faker names otherwise; a slot Faker has no generator for gets a word.
FAKER_SLOTS = {"organization": "company", "nationality": "country", "nation_woman": "country",
               "nation_plural": "country", "us_driver_license": "ssn", "zipcode": "postcode"}


def deaccent(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def people_from_fake_name_generator(root: Path) -> list[dict]:
    path = root / "presidio_evaluator/data_generator/raw_data/FakeNameGenerator.com_3000.csv"
    rows = list(csv.DictReader(path.open(encoding="utf-8-sig")))
    out = []
    for row in rows[:TABLE_PEOPLE]:
        out.append({
            "name": f"{row['GivenName']} {row['Surname']}", "given": row["GivenName"], "surname": row["Surname"],
            "email": row["EmailAddress"], "phone": f"+{row['TelephoneCountryCode']} {row['TelephoneNumber']}",
            "customer_id": f"CUST-{int(row['Number']):05d}", "source": "presidio-evaluator FakeNameGenerator.com_3000",
        })
    return out


def people_in_other_scripts(rng: random.Random, start: int) -> list[dict]:
    """Faker el_GR, zh_CN and ru_RU names in their own scripts, romanised by pypinyin and
    transliterate (neither is what the index uses: it uses anyascii and its own scheme tables)."""
    from faker.providers.person.el_GR import Provider as Greek
    from faker.providers.person.ru_RU import Provider as Russian
    from faker.providers.person.zh_CN import Provider as Chinese
    from pypinyin import lazy_pinyin
    from transliterate import translit

    out = []
    number = start
    for _ in range(20):
        surname, given = rng.choice(list(Chinese.last_names)), rng.choice(list(Chinese.first_names))
        number += 1
        out.append({"name": surname + given, "given": given, "surname": surname,
                    "romanised": f"{''.join(lazy_pinyin(surname)).title()} {''.join(lazy_pinyin(given)).title()}",
                    "customer_id": f"CUST-{number:05d}", "source": "Faker zh_CN, romanised by pypinyin"})
    for provider, language, source in ((Greek, "el", "Faker el_GR"), (Russian, "ru", "Faker ru_RU")):
        for _ in range(20):
            given = rng.choice(list(provider.first_names_male))
            surname = rng.choice(list(provider.last_names_male))
            number += 1
            out.append({"name": f"{given} {surname}", "given": given, "surname": surname,
                        "romanised": translit(f"{given} {surname}", language, reversed=True),
                        "customer_id": f"CUST-{number:05d}", "source": f"{source}, romanised by transliterate"})
    return out


def fill(template: str, values: dict, faker) -> str:
    def one(match):
        slot = match.group(1)
        if slot in values:
            return values[slot]
        generator = getattr(faker, FAKER_SLOTS.get(slot, slot), None)
        return str(generator()) if callable(generator) else faker.word()
    # The templates write a line break as the two characters "\\n" (presidio's generator turns
    # them into line breaks; so does this).
    return PLACEHOLDER.sub(one, template).replace("\\n", "\n")


def name_forms(person: dict) -> list[tuple[str, str]]:
    forms = [("full_name", person["name"]), ("lower", person["name"].lower())]
    if "romanised" in person:
        forms.append(("romanised", person["romanised"]))
        if person["source"].startswith("Faker zh_CN"):
            forms.append(("cjk_spaced", " ".join(person["name"])))
    elif deaccent(person["name"]) != person["name"]:
        forms.append(("deaccented", deaccent(person["name"])))
    if person["given"].isascii() and person["given"][:1].isalpha():
        forms.append(("initial_surname", f"{person['given'][0]}. {person['surname']}"))
    return forms


def record_notes(root: Path, people: list[dict], rng: random.Random, faker) -> list[dict]:
    templates = (root / "presidio_evaluator/data_generator/raw_data/templates.txt").read_text(
        encoding="utf-8", errors="replace").splitlines()
    with_name = [t for t in templates if any(f"{{{{{s}}}}}" in t for s in NAME_SLOTS)]
    with_email = [t for t in templates if "{{email}}" in t]
    with_phone = [t for t in templates if "{{phone_number}}" in t]
    with_number = [t for t in templates if "{{credit_card_number}}" in t or "{{iban}}" in t]
    notes = []
    for person in people:
        for form, written in name_forms(person):
            template = rng.choice(with_name)
            values = dict.fromkeys(NAME_SLOTS, written)
            notes.append({"label": "names_record", "form": form, "value": fill(template, values, faker)})
        if "email" in person:
            local, _, domain = person["email"].partition("@")
            for form, written in (("email", person["email"]), ("email_plus_tag", f"{local}+notes@{domain}")):
                notes.append({"label": "names_record", "form": form,
                              "value": fill(rng.choice(with_email), {"email": written}, faker)})
        if "phone" in person:
            notes.append({"label": "names_record", "form": "phone",
                          "value": fill(rng.choice(with_phone), {"phone_number": person["phone"]}, faker)})
        letters, digits = person["customer_id"].split("-")
        for form, written in (("id", person["customer_id"]), ("id_no_dash", letters + digits),
                              ("id_word_in_front", f"Customer {digits}")):
            notes.append({"label": "names_record", "form": form, "value": fill(
                rng.choice(with_number), {"credit_card_number": written, "iban": written}, faker)})
    for note in notes:
        note["key"] = "customers.note"
        note["source"] = "presidio-evaluator templates.txt"
    return notes


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)[-9:]


def _holds_table_value(item: dict, table_words: set[str], table_phones: set[str]) -> bool:
    for span in item["spans"]:
        value = span["entity_value"]
        if span["entity_type"] == "PERSON":
            if {deaccent(w).lower() for w in re.findall(r"\w+", value)} & table_words:
                return True
        elif span["entity_type"] == "PHONE_NUMBER" and _digits(value) in table_phones:
            return True
    return False


def synth_notes(root: Path, table_words: set[str], table_phones: set[str]) -> list[dict]:
    """presidio-evaluator's labelled synthetic sentences: with a PERSON span, a note naming
    someone outside the table; with no PERSON and no email address, a benign note."""
    data = json.loads((root / "data/synth_dataset_v2.json").read_text(encoding="utf-8"))
    notes = []
    for item in data:
        text = item["full_text"].strip()
        if not text or len(text.encode()) > 1000:
            continue
        kinds = {span["entity_type"] for span in item["spans"]}
        persons = [span["entity_value"] for span in item["spans"] if span["entity_type"] == "PERSON"]
        if _holds_table_value(item, table_words, table_phones):
            continue  # the same name, phone or email as someone of the table: not "outside" it
        if persons:
            notes.append({"label": "names_person_other", "form": "synth_person", "value": text})
        elif "EMAIL_ADDRESS" not in kinds:
            notes.append({"label": "benign", "form": "synth_" + ("_".join(sorted(kinds)).lower() or "plain"),
                          "value": text})
    for note in notes:
        note["key"] = "notes.general"
        note["source"] = "presidio-evaluator data/synth_dataset_v2.json"
    return notes


def plain_templates(root: Path) -> list[dict]:
    templates = (root / "presidio_evaluator/data_generator/raw_data/templates.txt").read_text(
        encoding="utf-8", errors="replace").splitlines()
    return [{"label": "benign", "form": "template_plain", "key": "notes.general", "value": t.strip(),
             "source": "presidio-evaluator templates.txt"} for t in templates if t.strip() and "{{" not in t]


def _note_key(note: dict) -> tuple:
    return note["label"], note["form"], note["value"]


def drop_moved(notes: list[dict]) -> list[dict]:
    """The notes not moved to the tuning set (README.md, "Rules")."""
    lines = TUNING.read_text(encoding="utf-8").splitlines() if TUNING.exists() else []
    moved = {_note_key(case) for case in map(json.loads, filter(str.strip, lines)) if case["kind"] == "note"}
    return [note for note in notes if _note_key(note) not in moved]


def write_notes(notes: list[dict]) -> None:
    with (HERE / "notes.jsonl").open("w", encoding="utf-8") as out:
        for note in notes:
            out.write(json.dumps({k: note[k] for k in ("label", "form", "key", "value", "source")},
                                 ensure_ascii=False) + "\n")


def main(root: Path) -> None:
    from faker import Faker

    rng = random.Random(SEED)
    faker = Faker("en_US")
    faker.seed_instance(SEED)
    people = people_from_fake_name_generator(root)
    people += people_in_other_scripts(rng, start=TABLE_PEOPLE)
    table_words = {deaccent(w).lower() for p in people for w in re.findall(r"\w+", p.get("romanised", p["name"]))}
    table_words |= {deaccent(w).lower() for p in people for w in re.findall(r"\w+", p["name"])}
    table_phones = {_digits(p["phone"]) for p in people if "phone" in p}
    notes = (record_notes(root, people, rng, faker) + synth_notes(root, table_words, table_phones)
             + plain_templates(root))
    notes = drop_moved(notes)
    columns = ("name", "email", "phone", "customer_id", "source")
    with (HERE / "records.jsonl").open("w", encoding="utf-8") as out:
        for person in people:
            out.write(json.dumps({k: person[k] for k in columns if k in person}, ensure_ascii=False) + "\n")
    write_notes(notes)
    print(f"{len(people)} records, {len(notes)} notes")


def draw_for_tuning(seed: int) -> None:
    """Moves a random quarter of each clean label's notes left, and every copy of their texts,
    to the tuning set (README.md, "Rules"), then drops them from notes.jsonl."""
    notes = [json.loads(line) for line in (HERE / "notes.jsonl").read_text(encoding="utf-8").splitlines()
             if line.strip()]
    rng = random.Random(seed)
    drawn = set()
    for label in ("names_person_other", "benign"):
        of_label = [note for note in notes if note["label"] == label]
        drawn |= {_note_key(note) for note in rng.sample(of_label, len(of_label) // 4)}
    rounds = {1819: "after the seed-1818 draw, moved before being looked at, to design the other-people "
                    "rules of memories.refusals.people (issue 18, second round)",
              1820: "after the seed-1818 and seed-1819 draws, moved before being looked at, to design the "
                    "other-people rules of memories.refusals.people (issue 18, third round)",
              1821: "after the seed-1818, 1819 and 1820 draws, moved before being looked at, to design the "
                    "other-people rules of memories.refusals.people (issue 18, fourth round)",
              1822: "after the seed-1818, 1819, 1820 and 1821 draws, moved before being looked at, to design "
                    "the other-people rules of memories.refusals.people (issue 18, fifth round)"}
    why = (f"random quarter (seed {seed}) of the outside names_person_other and benign notes left "
           + rounds.get(seed, "after the earlier draws, moved before being looked at (issue 18)"))
    moved = [note for note in notes if _note_key(note) in drawn]
    with TUNING.open("a", encoding="utf-8") as out:
        for note in {_note_key(note): note for note in moved}.values():
            out.write(json.dumps({**note, "kind": "note", "tuned_for": why}, ensure_ascii=False, sort_keys=True)
                      + "\n")
    write_notes(drop_moved(notes))
    print(f"{len(moved)} notes ({len(drawn)} distinct texts) moved to the tuning set")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draw-for-tuning"]:
        draw_for_tuning(int(sys.argv[2]))
    elif sys.argv[1:] == ["--drop-moved"]:
        committed = [json.loads(line) for line in (HERE / "notes.jsonl").read_text(encoding="utf-8").splitlines()
                     if line.strip()]
        kept = drop_moved(committed)
        write_notes(kept)
        print(f"{len(committed) - len(kept)} notes moved to the tuning set; {len(kept)} left")
    else:
        main(Path(sys.argv[1]))
