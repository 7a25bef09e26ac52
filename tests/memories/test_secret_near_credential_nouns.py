"""Issue 18, secrets (SPEC R-SAVE-2), fifteenth session: a password a few words after its noun
with no "is" or ":" joining them ("the password for the wifi X", "creds: etl_admin X", "login
details - etl / X", "use this to log in: X"), a secret or code word, and an unlock phrase. Found
probing thirty ways a data team hands a password over in prose (no outside case read); every
refused case here fails against eee87b7.

With nothing joining the noun and the value, the value carries the proof: letters, digits and a
mark identifiers do not hold ("#", "!", "&", …) inside it; and the noun names the credential, not
a page or a manager ("the login page shows Error#500"). The look-alikes pass on both versions.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets

PASSWORD = "Vx7!pq2Lm9"


def _found(text: str) -> list[str]:
    return [text[f.start:f.end] for f in find_secrets(text)]


@pytest.mark.parametrize("text", [
    "the password for the wifi Kaffee&2024x",
    "wifi password for guests Kaffee&2024x",
    f"use this to log in: {PASSWORD}",
    f"login details - etl / {PASSWORD}",
    f"log in with etl_user and {PASSWORD}",
    f"creds: etl_admin {PASSWORD}",
    f"password's {PASSWORD}",
    f"db password rotated, new one {PASSWORD}",
    f"staging creds (etl_admin, {PASSWORD}) until Friday",
], ids=["for-the-wifi", "wifi-for-guests", "to-log-in", "login-details", "log-in-with-and",
        "creds-user-then-value", "contraction", "rotated-new-one", "in-brackets"])
def test_a_marked_password_after_its_noun_is_refused(text):
    assert any(PASSWORD in found or "Kaffee&2024x" in found for found in _found(text))


@pytest.mark.parametrize("text", [
    "Passwort für das WLAN Kaffee&2024x",
    "mot de passe du wifi Kaffee&2024x",
    "contraseña del wifi Kaffee&2024x",
    "senha do wifi Kaffee&2024x",
    "wachtwoord voor de wifi Kaffee&2024x",
    "lösenord till wifi Kaffee&2024x",
    "hasło do wifi Kaffee&2024x",
    "пароль от wifi Kaffee&2024x",
    "Zugangsdaten: etl_admin / Kaffee&2024x",
    "credenciales: etl_admin Kaffee&2024x",
], ids=["de", "fr", "es", "pt", "nl", "sv", "pl", "ru", "de-credentials", "es-credentials"])
def test_the_same_in_other_languages_is_refused(text):
    assert "Kaffee&2024x" in _found(text)


@pytest.mark.parametrize("text, value", [
    ("the secret word for the door is tangerine77!", "tangerine77"),
    ("our safe word is Pineapple92", "Pineapple92"),
    ("the vault unlock phrase: amber lantern quietly folds", "amber lantern quietly folds"),
    ("the secret phrase is copper kettle morning tide", "copper kettle morning tide"),
], ids=["secret-word", "safe-word", "unlock-phrase", "secret-phrase"])
def test_a_secret_word_or_unlock_phrase_is_refused(text, value):
    assert value in _found(text)


@pytest.mark.parametrize("text", [
    "password reset bug, see issue#1234 for details",
    "pw reset ticket INC#20231 is closed",
    "login: see Confluence page DATA-1234#section2",
    "pass rate for run#1234abc was 97%",
    "the login page shows Error#500 when the IdP is down",
    "password manager entry is called Snowflake&Prod-2024",
    "the login banner says Welcome!2024 edition",
    "login uses utm_source=abc&utm_medium=2",
    "password field must match ^[A-Za-z0-9]{8,}$",
    "credentials live in Vault at kv/data/etl#v3",
    "password rotation is every 90 days, owner: #data-platform",
    "login files land in s3 as data_*2024.csv",
    "the code word for the launch is \"go\"",
    "the code word is in the runbook",
    "the secret phrase is in the vault",
    "unlock phrase: see the vault entry for it",
    "Passwort für das Portal: siehe Tresor, Eintrag #secu-2024",
    "mot de passe oublié ? voir la page FAQ#section3",
    "pw reset emails use template TPL-2024#03",
    "the pass rate for dbt tests is 97% (3 flaky: test_orders#12, test_users#7)",
    "password spray attempts: 14k blocked by the WAF rule AWS#CommonRuleSet",
], ids=["issue-ref", "ticket-ref", "page-anchor", "run-ref", "error-code", "manager-entry",
        "banner-text", "query-string", "regex", "vault-path", "channel", "glob", "quoted-word",
        "code-word-where", "phrase-where", "phrase-see", "de-vault-entry", "fr-faq-anchor", "template-name",
        "test-names", "waf-rule"])
def test_talk_about_a_credential_with_marked_words_passes(text):
    assert find_secrets(text) == []


# Talk about a password in the languages its word is read in: "Passwort: siehe Tresor" was refused
# ("siehe" read as the password) where "password: see the vault" passes; each fails on eee87b7.
@pytest.mark.parametrize("text", [
    "Passwort für das Portal: siehe Tresor",
    "Passwort: bitte bei IT anfragen",
    "Passwort: steht im Tresor",
    "Passwort: geändert am Montag",
    "mot de passe : voir le coffre",
    "mot de passe : demander à l'équipe IT",
    "mot de passe : expiré",
    "contraseña: pedir a soporte",
    "contraseña: caducada",
    "senha: pedir ao suporte",
    "password: vedi il vault",
    "hasło: zobacz sejf",
    "Passwort: Standard",
    "Passwort = noch offen",
    "mot de passe : habituel",
    "senha: trocar amanhã",
], ids=["de-see", "de-ask", "de-stored", "de-changed", "fr-see", "fr-ask", "fr-expired", "es-ask",
        "es-expired", "pt-ask", "it-see", "pl-see", "de-default", "de-still-open", "fr-usual",
        "pt-change-tomorrow"])
def test_talk_about_a_password_in_other_languages_passes(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize("text, value", [
    ("Passwort: Sonnenblume", "Sonnenblume"),
    ("mot de passe : tournesol", "tournesol"),
    ("contraseña: girasol", "girasol"),
], ids=["de", "fr", "es"])
def test_a_word_that_is_no_talk_is_still_a_password(text, value):
    assert value in _found(text)


# A password written a character at a time after its name: a token's run needs twelve characters
# of its alphabet; a password is shorter and holds any mark. Fails on eee87b7.
@pytest.mark.parametrize("text", [
    "password: V x 7 ! p q 2 L m 9",
    "the password is: V x 7 ! p q 2 L m 9",
    "pwd = V x 7 ! p q 2 L m 9",
], ids=["colon", "is-colon", "equals"])
def test_a_password_a_character_at_a_time_after_its_name_is_refused(text):
    assert _found(text) == ["V x 7 ! p q 2 L m 9"]


@pytest.mark.parametrize("text", [
    "Password policy: A B C D E F grades",
    "token: g h p _ R 8 x 2",
    "grades A B C D E F, no password needed",
], ids=["policy-grades", "short-token", "grades-then-word"])
def test_single_characters_that_are_no_password_pass(text):
    assert find_secrets(text) == []


# A key or token a few words after its noun, nothing joining them (secret_unjoined.find_keys_near_nouns):
# the value must read as generated key material, and no word between may name it an id. Each
# fails on eee87b7.
KEY = "Qm7vX2" + "pLk9Zt4WbR"


@pytest.mark.parametrize("text", [
    f"new token for the CI bot {KEY}",
    f"mailgun api key (prod) {KEY}",
    f"token rotated, new value {KEY}",
    f"the access token for the nightly export {KEY}",
], ids=["token-for-bot", "product-api-key", "rotated-new-value", "access-token-for"])
def test_a_key_a_few_words_after_its_noun_is_refused(text):
    assert KEY in _found(text)


@pytest.mark.parametrize("text", [
    "the sort key for the events table is events_2024_q3_partitioned",
    "token usage for the CI bot 1234567890123456",
    "the idempotency token for run 7c2f9a1b3d4e5f60",
    "the secret santa list is in Drive",
    "the partition key for orders is customer_id_hash_v2",
    "the commit for the token fix is 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "token counts per document: doc_42 1823, doc_43 2211",
    "the token budget per request is 4096, see ticket DATAENG4412PLAT",
], ids=["sort-key", "token-usage-number", "run-id", "secret-santa", "partition-key", "commit", "counts",
        "ticket-ref"])
def test_keys_of_data_ids_and_counts_after_those_nouns_pass(text):
    assert find_secrets(text) == []


# The key nouns of the languages passwords are read in, joined to the value or not ("clé API :
# X", "der API-Schlüssel für Staging X", "APIキー X"); no rule knew them. Each fails on eee87b7.
@pytest.mark.parametrize("text", [
    f"der API-Schlüssel für Staging {KEY}",
    f"API-Schlüssel: {KEY}",
    f"clé API : {KEY}",
    f"jeton d'accès pour l'export {KEY}",
    f"clave API: {KEY}",
    f"a chave da API do bot {KEY}",
    f"la chiave API per lo staging {KEY}",
    f"de API-sleutel voor de bot {KEY}",
    f"новый токен для бота {KEY}",
    f"APIキー {KEY}",
    f"API密钥 {KEY}",
], ids=["de", "de-colon", "fr-colon", "fr-token", "es-colon", "pt", "it", "nl", "ru", "ja", "zh"])
def test_a_key_after_its_noun_in_other_languages_is_refused(text):
    assert KEY in _found(text)


@pytest.mark.parametrize("text", [
    "der Schlüssel liegt beim Empfang, Raum 4B",
    "clé API : voir le coffre-fort",
    "la clave API está en el gestor de secretos",
    "токен доступа истёк, нужен новый",
    "API-Schlüssel rotiert am 2024-05-01",
    "jeton d'accès expiré pour l'utilisateur etl_reader_prod",
    "le jeton CSRF est régénéré à chaque requête",
    "APIキーは金庫にあります",
], ids=["de-room-key", "fr-vault", "es-manager", "ru-expired", "de-rotated", "fr-user", "fr-csrf", "ja-vault"])
def test_talk_about_keys_in_other_languages_passes(text):
    assert find_secrets(text) == []
