"""Issue 18, secrets (SPEC R-SAVE-2), fifteenth session: a password with no word around it to say
what it is ("Vx7!pq2Lm9" as the whole note, "jenkins Vx7!pq2Lm9", "prod db: etl_admin
Vx7!pq2Lm9"). Found probing how a note hands a password over (no outside case read); each refused
case fails against eee87b7.

Only a word drawn the way a password policy asks is refused: capitals, small letters, digits and
a mark inside, switching between them again and again, not made of English words, read in the text
as written (a piece of a longer run, or a run a reading of the note makes, is not a word anybody
wrote). The look-alikes below pass on both versions.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets

PASSWORD = "Vx7!pq2Lm9"


@pytest.mark.parametrize("text", [
    PASSWORD,
    f"remember: {PASSWORD}",
    f"jenkins {PASSWORD}",
    f"etl_admin {PASSWORD}",
    f"prod db: etl_admin {PASSWORD}",
    f"snowflake: etl_admin / {PASSWORD}",
    f"**{PASSWORD}**",
    "the usual one, Tr0ub4dor&3x",
], ids=["alone", "remember", "tool-then-value", "user-then-value", "label-user-value",
        "label-user-slash-value", "bold", "after-a-comma"])
def test_a_policy_shaped_password_with_no_words_around_it_is_refused(text):
    assert [text[f.start:f.end] for f in find_secrets(text)] in ([PASSWORD], ["Tr0ub4dor&3x"])


@pytest.mark.parametrize("text", [
    "run Job#42Retry later",
    "Error#500Retry in the logs",
    "M&A-Q3Plan2 deck is final",
    "H&M2024Spring campaign",
    "AT&T2024Q1 invoice",
    "see PR#1234Fix",
    "password manager entry is called Snowflake&Prod-2024",
    "copy Sheet2!C3 to Tab1!R1C1",
    "**Q3Rev2Up** in the board deck",
    "the link is https://example.com/a?b=Vx7!pq2Lm9x&c=1",
    "p95<2ms, p99~4ms",
    "#Q4Goals2024 is the channel",
    "x86_64-Linux!gnu2",
], ids=["job-ref", "error-ref", "abbreviation-ampersand", "brand-ampersand", "att", "pr-ref",
        "entry-name", "spreadsheet-refs", "bold-words", "inside-a-url", "latency", "hashtag", "triplet"])
def test_words_with_marks_that_are_no_password_pass(text):
    assert find_secrets(text) == []
