"""Issue 18, secrets (SPEC R-SAVE-2), fourteenth session: a password after its name in Markdown
or HTML ("**password:** …", "<b>Password:</b> …"), and a password given as the answer to a
question about it ("wifi password?\\nTom: …", "Q: admin password? A: …"). Found probing thirty
ways a chat or a note hands a password over (no outside case read); the markup reading is
memories.refusals.disguise.markup_taken_off, the one the person detector reads.

Markdown labels were read as values too: "**Password reset:** via Okta", "**Pass rate:** 97%",
"**Password length:** 16" and "Token: <i>rotated monthly</i>" were refused at 8269590 and pass
now. Every refused case fails against 8269590.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets

PASSWORD = "Vq7#mZ2!pL9x"


@pytest.mark.parametrize("text", [
    f"**password:** {PASSWORD}",
    f"<b>Password:</b> {PASSWORD}",
    f"__password__: {PASSWORD}",
    f"*pw:* {PASSWORD}",
], ids=["bold", "html-bold", "underscores", "italic-short-name"])
def test_a_password_after_its_name_in_markup_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    f"Ana: what's the wifi password?\nTom: {PASSWORD}",
    f"Q: admin password? A: {PASSWORD}",
    f"the password? it's {PASSWORD}",
], ids=["chat-lines", "question-and-answer", "its"])
def test_a_password_given_as_an_answer_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "**Password reset:** via Okta",
    "**Pass rate:** 97%",
    "**Password length:** 16",
    "<p>Token: <i>rotated monthly</i></p>",
    "**Password:** see the vault",
    "**Token:** ${GITHUB_TOKEN}",
    "Q: forgot your password? A: use the reset link",
    "what is the password?\nSam: ask IT",
    "Password? Nope, SSO only.",
], ids=["reset", "pass-rate", "length", "html-word", "vault", "variable", "faq", "chat-answer-word", "no"])
def test_labels_references_and_answers_in_words_pass(text):
    assert find_secrets(text) == []
