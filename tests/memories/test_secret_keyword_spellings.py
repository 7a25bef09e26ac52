"""Issue 18, secrets (SPEC R-SAVE-2), found by trying the detector as an attacker would (no outside
case read): the word that says "password" or "secret" spelt to slip past a word list: digits and
symbols for letters ("p@ssw0rd", "passw0rd", "s3cr3t", "tok3n", "k3y"), a space between its
letters or its parts ("p a s s w o r d", "pass word"), short forms ("pword", "pswd", "psw",
"p/w"), "code word". The same words in talk, with no value after them, pass.

Every positive case fails against the detector of commit 2056c2c.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets

VALUE = "Zq8!rT2wLm4"
HEX = "9f3b1c7e5a2d4f6a8b0c1e3a5d7f9b2c"


@pytest.mark.parametrize("text, secret", [
    (f"p@ssw0rd: {VALUE}", VALUE),
    (f"passw0rd={VALUE}", VALUE),
    (f"p a s s w o r d: {VALUE}", VALUE),
    (f"pass word: {VALUE}", VALUE),
    (f"pword: {VALUE}", VALUE),
    (f"p/w: {VALUE}", VALUE),
    (f"pswd: {VALUE}", VALUE),
    (f"code word: {VALUE}", VALUE),
    (f"s3cr3t: {VALUE}", VALUE),
    (f"tok3n: {HEX}", HEX),
    (f"the k3y is {HEX}", HEX),
], ids=["at-zero", "zero", "spaced", "two-words", "pword", "p-slash-w", "pswd", "code-word", "s3cr3t",
        "tok3n", "k3y"])
def test_a_credential_word_spelt_otherwise_still_says_password(text, secret):
    assert [text[f.start:f.end] for f in find_secrets(text)] == [secret]


@pytest.mark.parametrize("text", [
    "the pass word was shouted across the field",
    "pass word ideas for the quiz",
    "p/w ratio is 3.2 this quarter",
    "the code word is ready",
    "pswd reset link expired",
], ids=lambda text: text[:30])
def test_the_same_words_in_talk_are_not_refused(text):
    assert find_secrets(text) == []
