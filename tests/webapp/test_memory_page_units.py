"""The Memory page's plain helpers, without a database: word matching, refusals beside their
field with the words marked, and a held note's time left."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from appenda.errors import DomainError
from memories.word_match import note_matches, query_words
from webapp.form_errors import field_error
from webapp.templatetags.memory_tags import expires_in, kib


def test_a_note_matches_when_it_holds_every_content_word_of_the_query():
    note = ("orders.amountCents", "Amounts are stored in cents; divide by 100.")
    assert note_matches(query_words("amount in cents"), *note)  # "in" is a stop word; keys split
    assert note_matches(query_words("ORDER amounts"), *note)  # case and plurals
    assert note_matches(query_words("divid"), *note)  # a word begun
    assert not note_matches(query_words("amount in euros"), *note)  # every word, not one of them
    assert not note_matches(query_words("zzzz"), *note)
    assert not note_matches(query_words("di"), *note)  # too short to stand for a word begun


def test_accents_and_look_alike_forms_fold_to_plain_words():
    assert note_matches(query_words("cafe"), "place.lunch", "Café Olé at noon")
    assert note_matches(query_words("ｃａｆé"), "place.lunch", "Cafe at noon")  # full-width letters


def test_a_query_of_stop_words_only_still_means_something():
    assert query_words("what is it") == ("what", "is", "it")


def test_a_secret_in_the_value_is_marked_in_the_value():
    error = DomainError("… at characters 8–28 …", code="secret_detected",
                        secrets=[{"field": "value", "kind": "aws_access_key", "start": 8, "end": 28}])
    shown = field_error(error, key="aws.s3", value="use key AKIAIOSFODNN7EXAMPLE for S3")
    assert shown.field == "value"
    assert shown.marked == [("use key ", False), ("AKIAIOSFODNN7EXAMPLE", True), (" for S3", False)]
    assert "characters" not in shown.message and "aws access key" in shown.message


def test_a_secret_across_key_and_value_is_marked_in_both_halves_and_shown_in_the_value():
    key, value = "wifi.password", "hunter2 for the office"
    start = 0
    end = len(key) + 2 + len("hunter2")
    error = DomainError("…", code="secret_detected",
                        secrets=[{"field": "key_and_value", "kind": "password", "start": start, "end": end}])
    shown = field_error(error, key=key, value=value)
    assert shown.field == "value" and shown.marked[0] == ("hunter2", True)


def test_a_refusal_without_places_stands_beside_the_value_with_its_own_sentence():
    error = DomainError("This note names a person of table Customers.", code="names_person", column="name")
    shown = field_error(error, key="k", value="Ana Lopez likes tea")
    assert shown.field == "value" and shown.marked == [] and shown.message.startswith("This note names")
    assert field_error(DomainError("Bad key.", code="invalid_key"), key="a b", value="v").field == "key"


def test_time_left_is_said_in_one_unit():
    now = timezone.now()
    assert expires_in(now + timedelta(hours=3, minutes=20)) == "expires in 3 h"
    assert expires_in(now + timedelta(minutes=25, seconds=30)) == "expires in 25 min"
    assert expires_in(now + timedelta(seconds=20)) == "expires in under a minute"
    assert expires_in(now - timedelta(seconds=5)) == "expires any moment now"
    assert expires_in(now + timedelta(days=3, hours=1)) == "expires in 3 days"
    assert kib(900) == "900 bytes" and kib(6144) == "6.0 KB"


def test_the_python_client_reads_what_the_cutoff_left_out():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))
    from appenda_client.results import SearchResult

    found = SearchResult.from_json({"notes": [], "text": "…", "ranking": "hybrid", "min_score": 0.15,
                                    "left_out_below_cutoff": 4})
    assert found.left_out_below_cutoff == 4 and found.min_score == 0.15
