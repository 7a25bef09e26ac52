"""Issue 18, secrets (SPEC R-SAVE-2), thirteenth session: passwords and door codes written in
other languages that passed (found probing thirty such notes; no outside case read): a definite
form of the word ("lösenordet är …", "adgangskoden er …"), "is" as Finnish, Czech and Swedish
write it ("salasana on …", "heslo je …"), French "mdp", a password in Cyrillic letters, and
door codes and PINs in French and Portuguese ("le code de la porte est 4821", "o código PIN é
4821"). Talk about passwords in those languages passes, and a Cyrillic word after "пароль:" is
read as a word. Refused cases fail on 2f75704.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets


@pytest.mark.parametrize("text", [
    "lösenordet är Sommar2024!",
    "adgangskoden er Sommer2024!",
    "salasana on Kesä2024!x",
    "heslo je Leto2024!ab",
    "mdp: Soleil2024!",
    "пароль: Лето2024!abc",
    "le code de la porte est 4821",
    "o código PIN é 4821",
])
def test_a_password_or_code_in_another_language_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "lösenordet är i valvet",
    "salasana on vaihdettu",
    "heslo je v trezoru",
    "пароль: сменить завтра",
    "mdp: voir le coffre",
    "code de la porte : demander à l'accueil",
    "o código PIN é obrigatório",
    "password on the staging box rotates weekly",
])
def test_talk_about_passwords_in_those_languages_passes(text):
    assert find_secrets(text) == []
