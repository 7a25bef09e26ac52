"""The format rules run only on notes holding one of their substrings ("needs"), found in one pass
(memories/refusals/secret_formats.present_needs). It must find exactly what searching for each
need by itself finds, or a rule would silently stop running."""

from __future__ import annotations

import pytest

from memories.refusals.secret_formats import _ALL_NEEDS, present_needs


def one_by_one(lowered: str) -> frozenset[str]:
    return frozenset(need for need in _ALL_NEEDS if need in lowered)


@pytest.mark.parametrize("text", [
    "",
    "nothing to see here",
    "export stripe_key=sk_live_abc and sk-proj-x; glpat-abc xoxb-1 ghp_x akia",
    "overlapping: sk-sk_sk-or-v1-",  # needs inside and across each other
    "password in café: pässwort, パスワード, $2b$12$ and $argon2id$",
    "https://user:pw@host/path?token=1 -----begin private key-----",
])
def test_one_pass_finds_the_needs_one_search_each_finds(text):
    lowered = text.lower()
    assert present_needs(lowered) == one_by_one(lowered)


def test_every_need_is_found_in_a_text_made_of_it():
    for need in _ALL_NEEDS:
        assert need in present_needs(f"x {need} y")
