"""A secret split over several saves is refused (issue 18; SPEC R-SAVE-2).

Half a token in one save, the other half in the next: each alone holds nothing the detector
knows; together they form a known format. The second save is refused with
``secret_across_notes`` and a sentence a person reads, whether the halves come in one turn or
as versions of the same key, and nothing of it is stored.
"""

from __future__ import annotations

import pytest

from memories.models import Note
from memories.reasons import REASONS
from tests.factories import ALL_DATABASES, token_client, url
from tests.memories.helpers import person_save, start_turn, tool_save

pytestmark = pytest.mark.django_db(databases=ALL_DATABASES)

# Lower-case letters and digits: neither half looks random alone (see test_secret_evasions).
TOKEN = "gh" + "p_" + "a3df9hjk2l0mnp1qrstv7wxyz2abc4def9hijkm"
FIRST, SECOND = TOKEN[:20], TOKEN[20:]


def notes(workspace):
    return Note.objects.for_workspace(workspace)


def test_the_reason_is_registered_with_a_sentence_a_person_reads():
    reason = REASONS["secret_across_notes"]
    assert reason.outcome == "refuse" and reason.status == 400
    assert "secret" in reason.sentence and reason.sentence.endswith(".")


def test_half_a_token_in_each_of_two_saves_of_one_turn_is_refused(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    first = tool_save(client, eu_ws, turn["id"], key="ci.bot.part1", value=f"first half for the CI bot: {FIRST}")
    assert first.status_code == 201, first.json()
    second = tool_save(client, eu_ws, turn["id"], key="ci.bot.part2", value=f"second half: {SECOND}")
    body = second.json()
    assert second.status_code == 400 and body["code"] == "secret_across_notes", body
    assert SECOND not in body["detail"] and FIRST not in body["detail"]  # never echoed
    assert "earlier" in body["detail"] and "Nothing was stored" in body["detail"]
    assert body["secrets"] == [{"field": "value", "kind": "github_token", "start": 13, "end": 13 + len(SECOND)}]
    assert not notes(eu_ws).filter(key="ci.bot.part2").exists()


def test_a_token_in_three_saves_of_one_turn_is_refused(owner, eu_ws):
    """Thirteenth session: a third of a token in each save (each pair of thirds is no format);
    the third save is refused, and fails on 2f75704."""
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    thirds = (TOKEN[:14], TOKEN[14:28], TOKEN[28:])
    for index, part in enumerate(thirds[:2]):
        response = tool_save(client, eu_ws, turn["id"], key=f"ci.bot.part{index}", value=f"part {index}: {part}")
        assert response.status_code == 201, response.json()
    last = tool_save(client, eu_ws, turn["id"], key="ci.bot.part2", value=f"last part: {thirds[2]}")
    assert last.status_code == 400 and last.json()["code"] == "secret_across_notes", last.json()
    assert not notes(eu_ws).filter(key="ci.bot.part2").exists()


def test_a_half_written_apart_completes_a_secret_too(owner, eu_ws):
    """Thirteenth session: the halves are read as the detector reads a note (a half with a space
    between its characters is a run once joined); fails on 2f75704."""
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    first = tool_save(client, eu_ws, turn["id"], key="ci.bot.part1", value="first half: " + " ".join(FIRST))
    assert first.status_code == 201, first.json()
    second = tool_save(client, eu_ws, turn["id"], key="ci.bot.part2", value=f"second half: {SECOND}")
    assert second.status_code == 400 and second.json()["code"] == "secret_across_notes", second.json()


def test_a_new_version_of_a_key_that_completes_a_secret_is_refused(owner, eu_ws):
    client = token_client(owner)
    saved = person_save(client, eu_ws, key="deploy.hint", value=f"starts {FIRST}")
    assert saved.status_code == 201, saved.json()
    again = person_save(client, eu_ws, key="deploy.hint", value=f"ends {SECOND}")
    assert again.status_code == 400 and again.json()["code"] == "secret_across_notes", again.json()
    assert notes(eu_ws).get(key="deploy.hint").value == f"starts {FIRST}"


def test_an_edit_that_completes_a_secret_with_the_notes_earlier_value_is_refused(owner, eu_ws):
    client = token_client(owner)
    saved = person_save(client, eu_ws, key="deploy.hint", value=f"starts {FIRST}")
    note_id = saved.json()["note"]["id"]
    edited = client.patch(url(eu_ws, f"memories/{note_id}/"), {"value": f"ends {SECOND}"}, format="json")
    assert edited.status_code == 400 and edited.json()["code"] == "secret_across_notes", edited.json()
    assert notes(eu_ws).get(id=note_id).value == f"starts {FIRST}"


def test_ordinary_saves_in_one_turn_and_new_versions_are_not_refused(owner, eu_ws):
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    values = ["orders_2024_q3 has 1,204,331 rows", "dashboard v2.14 shows EU and US apart",
              "the churn model is retrained on Mondays at 06:00 UTC"]
    for index, value in enumerate(values):
        response = tool_save(client, eu_ws, turn["id"], key=f"data.fact{index}", value=value)
        assert response.status_code == 201, response.json()
    for value in ("release v7.7 is tagged at 9fceb02d0ae598e95dc970b74767f19372d61af8", "release v7.8 is out"):
        response = person_save(client, eu_ws, key="release.latest", value=value)
        assert response.status_code in (200, 201), response.json()


def test_another_turns_half_does_not_count(owner, eu_ws):
    """The check joins a turn's own saves and one key's versions, not every note of the workspace."""
    client = token_client(owner)
    one = start_turn(client, eu_ws)
    assert tool_save(client, eu_ws, one["id"], key="a.part", value=f"first {FIRST}").status_code == 201
    two = start_turn(client, eu_ws)
    response = tool_save(client, eu_ws, two["id"], key="b.part", value=f"second {SECOND}")
    assert response.status_code == 201, response.json()


def test_a_recovery_phrase_split_over_two_saves_of_one_turn_is_refused(owner, eu_ws):
    words = "army van defense carry jealous true garbage claim echo media make crunch".split()
    client = token_client(owner)
    turn = start_turn(client, eu_ws)
    first = tool_save(client, eu_ws, turn["id"], key="wallet.part1", value="wallet words, part one: " + " ".join(words[:6]))
    assert first.status_code == 201, first.json()
    second = tool_save(client, eu_ws, turn["id"], key="wallet.part2", value=" ".join(words[6:]))
    body = second.json()
    assert second.status_code == 400 and body["code"] == "secret_across_notes", body
    assert body["secrets"][0]["kind"] == "seed_phrase"
    assert not notes(eu_ws).filter(key="wallet.part2").exists()
