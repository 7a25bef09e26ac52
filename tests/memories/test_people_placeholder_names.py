"""Issue 18, people (SPEC R-SAVE-3b), seventeenth session: a placeholder name written in full
("John Doe", "Max Mustermann", "Taro Yamada", data/people_placeholder_names.txt) stands for
nobody, so a note that uses one as a fixture's or a form's example is not held; each such note
here but the Korean one was held at e99780c. The same first name with a real surname, a real person beside the
placeholder, and a table's record of that name (R-SAVE-3, the table index) still count.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions
from tests.factories import ALL_DATABASES, make_table, token_client
from tests.memories.helpers import person_save

_PLACEHOLDERS = {
    "english-fixture": "use John Doe as the test customer",
    "english-jane": "the fixture user is Jane Doe",
    "german": "Max Mustermann is the sample customer in the German docs",
    "japanese": "山田太郎さんが担当です",
    "korean": "홍길동 님이 담당합니다",
    "chinese-romanised": "Zhang San and Li Si are the example accounts in the onboarding deck",
}

_PEOPLE = {
    "same-first-name": ("John Okafor owns the forecast", "John Okafor"),
    "a-person-beside-a-placeholder": ("Jane Doe and Priya Raman are in the fixture", "Priya Raman"),
    "first-name-alone": ("John asked for the Doe export", "John"),
    "common-real-name": ("Mario Rossi asked for the churn export", "Mario Rossi"),
}


@pytest.mark.parametrize("text", list(_PLACEHOLDERS.values()), ids=list(_PLACEHOLDERS))
def test_a_placeholder_name_is_nobody(text):
    assert find_person_mentions(text) == []


@pytest.mark.parametrize(("text", "name"), list(_PEOPLE.values()), ids=list(_PEOPLE))
def test_real_names_beside_or_like_a_placeholder_are_still_held(text, name):
    assert name in [m.text for m in find_person_mentions(text)]


@pytest.mark.django_db(databases=ALL_DATABASES)
def test_a_tables_record_of_a_placeholder_name_is_still_refused(owner, eu_ws):
    table = make_table(eu_ws, owner, name="Customers", columns=[{"name": "name", "kind": "person"}],
                       rows=[{"name": "Jane Doe"}, {"name": "Ana López"}])
    response = person_save(token_client(owner), eu_ws, key="customers.note", value="Jane Doe asked for a refund.",
                           subject={"kind": "table", "id": str(table.id)})
    assert response.status_code == 400 and response.json()["code"] == "names_person", response.json()
