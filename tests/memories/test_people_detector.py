"""The person detector: notes that look like they name someone are held (R-SAVE-3b).

Plain pytest, no database, no Django:
    .venv/bin/python -m pytest tests/memories/test_people_detector.py -p no:django -q -s

The corpus (tests/data/people_corpus.json, made by tests/data/make_people_corpus.py) holds
notes naming people outside a table ("names_person_other": must be held, >= 90 %), benign
table notes full of words that are also names ("benign": <= 3 % held) and benign technical
notes ("benign_tech": <= 3 % held). The rates are printed (run with -s to see them).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from memories.refusals import people_lexicon
from memories.refusals.people import PersonMention, find_person_mentions

CORPUS_PATH = Path(__file__).resolve().parents[1] / "data" / "people_corpus.json"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def corpus() -> dict:
    return json.loads(CORPUS_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def held_by_label(corpus) -> dict[str, list[tuple[dict, list[PersonMention]]]]:
    by_label: dict[str, list] = defaultdict(list)
    for note in corpus["notes"]:
        by_label[note["label"]].append((note, find_person_mentions(note["value"])))
    return by_label


def held(text: str) -> bool:
    return bool(find_person_mentions(text))


def rate(rows) -> float:
    return sum(bool(m) for _, m in rows) / len(rows)


# --- the measured rates -----------------------------------------------------------------


def test_R_SAVE_3b_corpus_is_big_enough(corpus):
    labels = Counter(n["label"] for n in corpus["notes"])
    assert len(corpus["people"]) >= 300
    assert labels["benign"] >= 300
    assert labels["benign_tech"] >= 300
    assert labels["names_person_other"] >= 300
    for note in corpus["notes"]:
        assert len(note["key"].encode()) + len(note["value"].encode()) <= 1024


def test_R_SAVE_3b_held_rate_on_notes_naming_other_people(held_by_label):
    rows = held_by_label["names_person_other"]
    r = rate(rows)
    by_form: dict[str, list] = defaultdict(list)
    for note, mentions in rows:
        by_form[note["form"]].append((note, mentions))
    detail = ", ".join(f"{form} {rate(v):.0%} of {len(v)}" for form, v in sorted(by_form.items()))
    print(f"\nR-SAVE-3b held rate, names_person_other: {r:.3f} ({len(rows)} notes; {detail})")
    missed = [note["value"] for note, m in rows if not m]
    print("  missed (first 10):", missed[:10])
    assert r >= 0.90


def test_R_SAVE_3b_held_rate_on_benign_table_notes(held_by_label):
    rows = held_by_label["benign"]
    r = rate(rows)
    print(f"\nR-SAVE-3b held rate, benign table notes: {r:.3f} ({len(rows)} notes)")
    print("  held:", [(n["value"], [m.text for m in ms]) for n, ms in rows if ms][:10])
    assert r <= 0.03


def test_R_SAVE_3b_held_rate_on_benign_technical_notes(held_by_label):
    rows = held_by_label["benign_tech"]
    r = rate(rows)
    print(f"\nR-SAVE-3b held rate, benign technical notes: {r:.3f} ({len(rows)} notes)")
    print("  held:", [(n["value"], [m.text for m in ms]) for n, ms in rows if ms][:10])
    assert r <= 0.03
    both = held_by_label["benign"] + rows
    print(f"R-SAVE-3b held rate, all benign notes: {rate(both):.3f} ({len(both)} notes)")
    assert rate(both) <= 0.03


def test_R_SAVE_3b_table_record_notes_are_measured(held_by_label):
    """Notes naming a record of the table are refused by the table index (R-SAVE-3); the
    detector is a second line. Printed for information: ids and phone numbers are not
    names, so it cannot see those."""
    rows = held_by_label["names_record"]
    by_form: dict[str, list] = defaultdict(list)
    for note, mentions in rows:
        by_form[note["form"]].append((note, mentions))
    detail = ", ".join(f"{form} {rate(v):.0%}" for form, v in sorted(by_form.items()))
    print(f"\nnames_record notes held by the detector alone: {rate(rows):.3f} ({detail})")
    named = [r for r in rows if r[0]["form"] not in ("employee_id", "phone_other_format")]
    assert rate(named) >= 0.90


# --- what must not be held --------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Apache Kafka consumer lag alert fires above 5000 messages.",
        "Django migrations must run before the workers start.",
        "Use Django's select_related to avoid N+1 queries.",
        "Jackson fails on unknown properties; set FAIL_ON_UNKNOWN_PROPERTIES to false.",
        "Jackson's ObjectMapper is shared across threads.",
        "Ruby on Rails app still writes to the orders table.",
        "Ruby 3.3 is required; Rails console is the quickest fix.",
        "Julia is used for the pricing model; arrays are 1-indexed.",
        "Julia prefers column-major arrays.",
        "Pandas read_csv needs dtype=str for zip codes.",
        "Flask admin panel is only on the VPN.",
        "Spring Boot actuator health endpoint is /actuator/health.",
        "Hadoop jobs were migrated to Spark in 2023.",
        "Jenkins builds the ETL image nightly.",
        "Ansible playbook deploys the exporter to all hosts.",
        "Grafana dashboard 'Orders' shows p95 latency.",
        "Kubernetes cronjob orders-sync runs every 5 minutes.",
        "Cassandra is only used for the clickstream archive.",
        "Hugo builds the docs site.",
        "Claude and Copilot suggestions must be reviewed before merge.",
        "Jasmine tests run in Karma; Mocha and Chai run the node tests.",
        "Travis was replaced by GitHub Actions.",
        "Amazon Aurora and Athena read the same S3 bucket.",
        "Goldman Sachs and Morgan Stanley are two accounts in the CRM table.",
    ],
)
def test_R_SAVE_3b_technical_text_is_not_held(text):
    assert find_person_mentions(text) == [], text


@pytest.mark.parametrize(
    "text",
    [
        "May 2024 revenue excludes refunds.",
        "Will the report run? Check the scheduler first.",
        "Hope this helps: use orders.region for the split.",
        "Paris office headcount lives in the offices table.",
        "China region totals include Hong Kong since 2022.",
        "Jordan region was merged into EMEA.",
        "Grant read access on customers to the analysts role.",
        "Summer promo codes are in campaigns.code.",
        "Bill amounts are in cents, divide by 100.",
        "Mark archived rows with is_archived = true.",
        "Frank feedback comments are in the free-text column.",
        "Lane column stores the shipping lane code.",
        "Young customers means age under 25.",
        "King size products use the sku prefix KS.",
        "Rose Garden store closed in March.",
        "The 'Hope' tier is the lowest tier.",
        "Monday, Tuesday and Friday loads are slow; January and August too.",
        "Releases go out on Wednesday mornings.",
        "Join customer_name to orders.customer_id, never on first_name.",
        "Columns: FirstName, LastName, EmailAddress, PhoneNumber.",
        "The people table has columns full_name, email and phone.",
        "Sydney and Melbourne stores report in AUD.",
        "Victoria station store is store_id 7.",
        "Faith-based charities get the nonprofit tier.",
        "Support, Finance and Legal review refunds over 10k.",
        "Email Templates are in the marketing schema.",
        "Ask Finance before changing the fiscal calendar.",
        "Send alerts to support@example.com and noreply@example.com.",
        "Data team inbox: data-team@example.com",
        "Delete all 2 notes of editor@example.com?",
        "Short replies, no emoji.",
        "Page likes and Release notes are in the events table.",
        "Thanks to Kafka the lag is gone; owned by Jenkins, reviewed by Copilot.",
        "Handler classes must subclass BaseHandler.",
        "The MS C runtime rules apply.",
        "Expand shell variables of the forms $var, ${var} and %var%.",
        "",
        "   ",
        "1234 5678",
    ],
)
def test_R_SAVE_3b_table_words_months_and_places_are_not_held(text):
    assert find_person_mentions(text) == [], text


def test_R_SAVE_3b_name_inside_a_word_is_not_a_name():
    assert not held("Banana bread and bandana sales are in the products table.")
    assert not held("Analytics and Maritime reports are in the reports schema.")
    assert not held("Use the pandas.DataFrame and df.Priya columns")  # glued to code


# --- what must be held ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # title and surname, any case
        "Ms. Lopez wants the totals by region.",
        "Send the summary to Dr Okafor.",
        "ms. lopez signs off the audit",
        "Appointment with Prof. van der Berg on Tuesday.",
        "Mr. de la Cruz approved it.",
        # full names of many cultures, with accents, hyphens and particles
        "Lunch with Chidi Okonkwo on Friday.",
        "Forward the export to Priya Raman every Monday.",
        "The vendor contact is Nguyễn Thị Thu Trang.",
        "Reports go to Søren Bergström.",
        "Reports go to Soren Bergstrom.",
        "Escalate to Katarzyna Wiśniewska before noon.",
        "Meeting with Min-jun Park moved to 3 pm.",
        "Budget sign-off comes from Mohammed Al-Rashid.",
        "Anne-Sophie Dubois asked for dark mode.",
        "Interview panel: Haruto Takahashi and the user.",
        "Liu Yuting owns the revenue report.",
        "Ask Oluwaseun Adeyemi about the Lagos numbers.",
        # names that are also words, with evidence
        "Grant Holloway owns the churn report.",
        "Will Turner said the numbers look off.",
        "Ask Will about the Q3 numbers.",
        "Tell May the refresh moved to 6 am.",
        "Mark said the March numbers look off.",
        "Jordan from sales wants weekly totals.",
        "Summer's birthday is on March 3.",
        "My manager Grant reviews the board deck.",
        "The user's manager is Hope.",
        "Thanks, Frank, for fixing the calendar.",
        "cc: Rose on every export email",
        # a known first name alone
        "Priya prefers CSV exports over Excel.",
        "Ping Ngozi when the backfill finishes.",
        "Tomasz is out sick this week.",
        # unknown names with a cue
        "Ask Oyelaran-Adeyemi about the feed.",
        "Zhyldyz said the totals are wrong.",
        # lower case with a cue
        "ask priya about the q3 numbers",
        "loop in henrik on pricing questions",
        "chidi okonkwo signs off the audit numbers",
        # tech names used as people, plainly
        "Julia's birthday is next week.",
        "Ask Julia about the pricing model.",
        "Ruby Chen approved the new discount rules.",
        # single-name people
        "Budi prefers the weekly summary.",
        # emails of people
        "Send the export to ana.lopez@partnerco.com every Friday.",
        "Contact for the feed: j.okafor@vendor.io",
        "Reply to priya@vendor.io",
    ],
)
def test_R_SAVE_3b_notes_naming_a_person_are_held(text):
    assert held(text), text


@pytest.mark.parametrize(
    "text",
    [
        # Streets, towns and firms named after people (issue 18; memories.refusals.people_addresses).
        "Ship the replacement card to 418 Helena Crossing, Apt. 12, Port Wardton.",
        "Our office moved to 77 Ingrid Street, second floor.",
        "Deliveries go to Via Garibaldi 22 in the old town.",
        "The depot is on Rua Augusta, next to the station.",
        "Pick-up point: Kasimir Lundgren 14 / 2nd entrance",
        "New address:\n12 Harbour Row\nSuite 4\nMarisol\nPortugal 4050",
        "Fenwick, Oduya and Marchetti is a law firm based in Leeds.",
        "She used to work for Bramley-Okafor before the merger.",
        "Meet at the corner of Tobias 9 and Ellery Lane.",
    ],
)
def test_R_SAVE_3b_places_and_firms_named_after_people_are_not_held(text):
    assert not held(text), find_person_mentions(text)


@pytest.mark.parametrize(
    "text",
    [
        # A middle initial, and names no list knows (issue 18).
        "The refund was approved by Dariush K. Vahedipour yesterday.",
        "Account holder Talvikki R Hannunen asked for paper statements.",
        "Maybe it is under Oyuunchimeg Batbayar, check both spellings.",
        "Put Charlotte Wierzbicka down as the second signatory.",
        "My name is Ilkka Vuorelainen and I lost my card.",
        # A list of people is still people, after a word that says so.
        "Our founders: Lindqvist, Obuya and Ferraro.",
        "Ask Lindqvist, Obuya and Ferraro before Friday.",
        # Not an address for all that: a surname that is a street word, a number before a name.
        "Send the deck to Jonas Hill.",
        "In 2019 Priya joined the team.",
        "Room 4: Priya Raman will present.",
        "Sent via Priya Raman yesterday.",
    ],
)
def test_R_SAVE_3b_names_with_initials_or_unknown_words_are_held(text):
    assert held(text)


def test_R_SAVE_3b_mentions_give_the_span_as_written():
    text = "Lunch with Chidi Okonkwo, then ask Ms. Lopez."
    mentions = find_person_mentions(text)
    assert [m.text for m in mentions] == ["Chidi Okonkwo", "Ms. Lopez"]
    for m in mentions:
        assert text[m.start : m.end] == m.text
    assert isinstance(mentions[0], PersonMention)
    with pytest.raises(AttributeError):
        mentions[0].text = "x"  # type: ignore[misc]  # frozen


def test_R_SAVE_3b_mentions_are_sorted_and_do_not_overlap():
    text = "Ask Will about it. Priya and Dr. Okafor agree; email ana.lopez@partnerco.com."
    mentions = find_person_mentions(text)
    assert [m.text for m in mentions] == ["Will", "Priya", "Dr. Okafor", "ana.lopez@partnerco.com"]
    ends = [m.end for m in mentions]
    starts = [m.start for m in mentions]
    assert starts == sorted(starts)
    assert all(e <= s for e, s in zip(ends[:-1], starts[1:], strict=True))


# --- speed, memory, load, threads -------------------------------------------------------


def test_R_SAVE_3b_a_1kb_note_dense_with_names_gives_every_mention():
    # Time per note is measured by benchmarks/bench_people.py (make bench), not asserted here.
    big = ("Ask Priya Raman and Ms. Lopez about the Kafka lag in orders.region. " * 15)[:1000]
    found = [big[m.start:m.end] for m in find_person_mentions(big)]
    assert found and set(found) <= {"Priya Raman", "Ms. Lopez"}
    assert found.count("Priya Raman") >= 14


LOAD_SCRIPT = """
import sys
sys.path.insert(0, {repo!r})

from memories.refusals import people, people_lexicon
assert people_lexicon._lexicon is None, "loaded at import: must be lazy"
found = people.find_person_mentions("Ask Priya about it")
print(len(found), people_lexicon._lexicon is not None)
"""


def test_R_SAVE_3b_detector_loads_lazily():
    out = subprocess.run(
        [sys.executable, "-c", LOAD_SCRIPT.format(repo=str(REPO))],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.split()
    found, loaded = out
    # Nothing loads at import; the first call loads the lists and finds the name. Load time and
    # memory are measured by benchmarks/bench_people.py.
    assert found == "1" and loaded == "True"


def test_R_SAVE_3b_detector_is_thread_safe_and_loads_once(monkeypatch):
    builds = []
    real_build = people_lexicon._build

    def counting_build():
        builds.append(1)
        time.sleep(0.05)  # widen the race window
        return real_build()

    monkeypatch.setattr(people_lexicon, "_lexicon", None)
    monkeypatch.setattr(people_lexicon, "_build", counting_build)
    texts = ["Ask Priya about it", "Kafka lag alert", "Ms. Lopez said so", "May 2024 revenue"] * 4
    results: dict[int, list] = {}
    barrier = threading.Barrier(len(texts))

    def work(i: int, text: str) -> None:
        barrier.wait()
        results[i] = [m.text for m in find_person_mentions(text)]

    threads = [threading.Thread(target=work, args=(i, t)) for i, t in enumerate(texts)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(builds) == 1
    for i in range(len(texts)):
        assert results[i] == results[i % 4]
    assert results[0] == ["Priya"] and results[1] == [] and results[2] == ["Ms. Lopez"]
    assert results[3] == []
