"""Issue 18, people (SPEC R-SAVE-3b), fourteenth session: a given name that is also a word, or
that the lists know only in part, is held after the words that say a person follows; those words
were English only ("ask Will", "Will said"). Found by probing Faker's given names of six locales
in short notes of their languages (no held note read): French, German, Spanish, Italian and
Portuguese now say it too ("demande à", "frag", "llama a", "ligue para", "X a dit", "X hat
gesagt", "X sagte", "X disse"). A capitalised word after such a word reads as a person as it does
in English ("Ask Berlin" is held in both); technical notes without them pass.
Every held case fails against 8269590.
"""

from __future__ import annotations

import pytest

from memories.refusals.people import find_person_mentions


@pytest.mark.parametrize("text", [
    "Demande à Charlotte le fichier.",
    "Demande à Jean le fichier.",
    "André a dit que c'est bon.",
    "Frag Gilbert nach der Datei.",
    "Ruf Francisco morgen an.",
    "Elizabeth sagte, es passt.",
    "Llama a Eva mañana.",
    "Victoria ha detto che va bene.",
    "Ligue para Marina amanhã.",
    "Pergunte a Isis sobre o arquivo.",
], ids=["fr-demande", "fr-demande-2", "fr-a-dit", "de-frag", "de-ruf", "de-sagte", "es-llama", "it-ha-detto",
        "pt-ligue", "pt-pergunte"])
def test_a_given_name_after_a_cue_in_another_language_is_held(text):
    assert find_person_mentions(text)


@pytest.mark.parametrize("text", [
    "Le rapport a dit le contraire.",
    "Il modello ha detto di no.",
    "Google dijo que el dominio expiró.",
    "Excel a dit que le fichier est corrompu.",
    "Slack disse que a mensagem falhou.",
    "Kafka hat gesagt: Timeout beim Consumer.",
    "Die Pipeline hat gesagt, dass der Export fehlt.",
], ids=["fr-report", "it-model", "es-google", "fr-excel", "pt-slack", "de-kafka", "de-pipeline"])
def test_technical_notes_in_other_languages_pass(text):
    assert find_person_mentions(text) == []
