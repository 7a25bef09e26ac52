"""Issue 18, secrets half: each class of note an attacker (or a careless person) writes so that
the detector missed it, and each class of ordinary note it refused (SPEC R-SAVE-2).

Plain tests: no database, no Django (run with ``-p no:django``). Each class has its own named
test; every one of them fails against the detector of commit 092e57c (before this work). Fake
credentials are assembled from pieces so this file does not itself look like a leaked secret.
"""

from __future__ import annotations

import base64
import json
import sys
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memories.refusals.across_notes import find_split_secrets  # noqa: E402
from memories.refusals.secret_numbers import luhn_valid  # noqa: E402
from memories.refusals.secrets import find_secrets  # noqa: E402

GITHUB = "gh" + "p_" + "aB3dEf9hIjKl0mNoP1qRsTuVwXyZ2abCdEf9hIj"
AWS_ID = "AK" + "IA" + "QYLPMN5HHHFPZAM2"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l".upper()
AGE_KEY = "AGE-" + "SECRET-KEY-1" + (BECH32 * 2)[:58]


def flagged(text: str) -> bool:
    return bool(find_secrets(text))


def covering(text: str, secret: str) -> list[str]:
    """Kinds of the findings that cover ``secret``'s characters in ``text``."""
    start = text.index(secret)
    end = start + len(secret)
    return [f.kind for f in find_secrets(text) if f.start <= start and f.end >= end]


# --------------------------------------------------------------------------------------------
# Missed formats
# --------------------------------------------------------------------------------------------

AGE_CASES = [
    f"age identity for the backups: {AGE_KEY}",
    f"# created: 2024-03-01\n# public key: age1{BECH32.lower()}\n{AGE_KEY}",
    f"{AGE_KEY.lower()} (lower-cased by the chat client)",
]


@pytest.mark.parametrize("text", AGE_CASES)
def test_age_secret_key_identities_are_found(text):
    secret = AGE_KEY if AGE_KEY in text else AGE_KEY.lower()
    assert covering(text, secret) == ["age_secret_key"]


def test_an_age_public_key_alone_is_not_a_secret():
    assert not flagged(f"encrypt the exports to age1{BECH32.lower()}")


BASIC_AUTH_UNUSUAL = [
    ("https://ci:" + "p@ss&w$rd9" + "@git.example.com/org/repo.git", "p@ss&w$rd9"),
    ("ftp://backup:" + "Tr1cky@Pass" + "@files.example.org/", "Tr1cky@Pass"),
    ("clone from https://deploy:" + "a$b&c@d!42" + "@gitlab.internal/x.git", "a$b&c@d!42"),
]


@pytest.mark.parametrize("text, password", BASIC_AUTH_UNUSUAL)
def test_basic_auth_urls_whose_password_has_unusual_characters_are_found(text, password):
    [finding] = find_secrets(text)
    assert finding.kind in ("basic_auth_url", "connection_string")
    assert text[finding.start:finding.end].endswith(password + text[text.index(password) + len(password):
                                                                     finding.end])
    assert finding.start <= text.index(password) and finding.end >= text.index(password) + len(password)


BARE_PASSWORDS = [
    ("reset the shared mailbox password to {s}", "Xk92!mmQw"),
    ("I reset the support inbox password to {s} this morning", "Lisbon#2031"),
    ("use {s} for the admin login", "Tr0ub4dor&3"),
    ("use {s} to log in to the router", "Rout3r!Home"),
    ("the login for the VPN is {s}", "Haus#Maus77"),
    ("set the guest wifi password to {s} for the event", "K4ffee-Bar-19"),
]


@pytest.mark.parametrize("template, password", BARE_PASSWORDS)
def test_bare_passwords_in_prose_without_a_label_word_are_found(template, password):
    text = template.format(s=password)
    assert covering(text, password) == ["password_in_prose"]


BARE_PASSWORD_LOOKALIKES = [
    "reset the shared mailbox password to default",
    "reset the password to the one in 1Password",
    "use SSO for the admin login",
    "use okta-prod for the admin login",
    "the login for the VPN is ana.souza@example.com",
    "the login for the VPN is jonas.meyer",
    "changed the password policy to 90 days",
    "use v2.14.3 for the admin console",
    "use Python3.11 for the admin console",
    "use Node-18 to sign in to the build box",
]


@pytest.mark.parametrize("text", BARE_PASSWORD_LOOKALIKES)
def test_prose_about_logins_without_a_password_shaped_value_passes(text):
    assert not flagged(text), find_secrets(text)


CARDS = [
    "card 4111 1111 1111 1111 exp 12/27",
    "Visa: 4012-8888-8888-1881",
    "the company Amex is 3782 822463 10005",
    "charge it to 5555555555554444 (the team mastercard)",
]


@pytest.mark.parametrize("text", CARDS)
def test_card_numbers_with_a_valid_check_digit_are_found(text):
    assert [f.kind for f in find_secrets(text)] == ["card_number"]


def test_numbers_that_fail_the_check_digit_or_are_named_as_ids_pass():
    assert not luhn_valid("4111111111111112")
    assert not flagged("card 4111 1111 1111 1112 exp 12/27")
    assert not flagged("order 4111111111111111 shipped on Monday")
    assert not flagged("tracking number 4111 1111 1111 1111 at DHL")
    assert not flagged("timestamp 1716200000000 is in milliseconds")


PINS = ["PIN 4821", "the pin code is 4821", "PIN for the door: 4821", "Bank card PIN: 0917",
        "pin number 553201"]


@pytest.mark.parametrize("text", PINS)
def test_pins_in_context_are_found(text):
    assert [f.kind for f in find_secrets(text)] == ["pin"]


@pytest.mark.parametrize("text", ["pin the note about 2024 planning", "pinned 4 notes",
                                  "pin 2024 to the top", "spin up 4 workers"])
def test_the_verb_pin_and_other_words_pass(text):
    assert not flagged(text)


CODE_LITERALS = [
    'if ("Zq8#mW2!pL" == db_password) { login(); }',
    'std::string secret("Zq8#mW2!pL");',
    'password = @"Zq8#mW2!pL";',
]


@pytest.mark.parametrize("text", CODE_LITERALS)
def test_a_credential_written_as_code_with_the_literal_first_is_found(text):
    assert covering(text, "Zq8#mW2!pL")


@pytest.mark.parametrize("text", ['secret = get_secret("payments/eu-prod")',
                                  'if (status == "password_reset") { notify(); }'])
def test_code_that_fetches_or_names_a_credential_passes(text):
    assert not flagged(text), find_secrets(text)


# --------------------------------------------------------------------------------------------
# Evasions: the same token written otherwise
# --------------------------------------------------------------------------------------------

def spaced(token: str, separator: str = " ") -> str:
    return separator.join(token)


SPACED = spaced(GITHUB)
FULLWIDTH = "".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c for c in GITHUB)
BOLD = "".join(chr(0x1D41A + ord(c) - ord("a")) for c in "ghp") + GITHUB[3:]
CYRILLIC = GITHUB.replace("p", "\u0440", 1)
GREEK = AWS_ID.replace("A", "\u0391", 1).replace("K", "\u039a", 1)
BLOCKS = " ".join(AWS_ID[i:i + 4] for i in range(0, 20, 4))
URL_CREDENTIALS = urllib.parse.quote("https://ci:Hx7_pass99@git.example.com", safe="")
# (what is done to the token, the note, the token as written in it, the kind it must be found as)
EVASIONS = [
    ("spaces between characters", f"deploy token: {SPACED}", SPACED, "github_token"),
    ("dashes between characters", f"token {spaced(GITHUB, '-')}", spaced(GITHUB, "-"), "github_token"),
    ("dots between characters", f"token {spaced(GITHUB, '.')}", spaced(GITHUB, "."), "github_token"),
    ("zero-width characters between characters", f"token {spaced(GITHUB, chr(0x200B))}",
     spaced(GITHUB, chr(0x200B)), "github_token"),
    # Twelfth session: the same with underscores (the token's own "_" between two of them);
    # fails on 16de792.
    ("underscores between characters", f"token {spaced(GITHUB, '_')}", spaced(GITHUB, "_"), "github_token"),
    ("blocks of four", f"aws id {BLOCKS}", BLOCKS, "aws_access_key"),
    ("URL-encoded", f"token {GITHUB.replace('_', '%5F')}", GITHUB.replace("_", "%5F"), "github_token"),
    ("URL-encoded credential URL", f"creds {URL_CREDENTIALS}", URL_CREDENTIALS, "basic_auth_url"),
    ("base64", "the token, base64: " + base64.b64encode(GITHUB.encode()).decode(),
     base64.b64encode(GITHUB.encode()).decode(), "github_token"),
    ("base32", "the token, base32: " + base64.b32encode(GITHUB.encode()).decode(),
     base64.b32encode(GITHUB.encode()).decode(), "github_token"),
    ("Cyrillic look-alike in the prefix", f"{CYRILLIC} is the CI token", CYRILLIC, "github_token"),
    ("Greek look-alikes in an AWS id", GREEK, GREEK, "aws_access_key"),
    ("mathematical bold prefix", f"{BOLD} for CI", BOLD, "github_token"),
    ("fullwidth characters", FULLWIDTH, FULLWIDTH, "github_token"),
    # Twelfth session: accents put on the keyword's letters (fails on 74b2342).
    ("accents on the keyword", "pässwört: Kx9#mQ2vL7", "Kx9#mQ2vL7", "password_in_prose"),
]


@pytest.mark.parametrize("name, text, written, kind", EVASIONS, ids=[e[0] for e in EVASIONS])
def test_a_token_written_otherwise_is_found_as_its_format(name, text, written, kind):
    """Found as the format it is (not as "some random string"), over all of it as written."""
    assert kind in covering(text, written), (name, [(f.kind, text[f.start:f.end]) for f in find_secrets(text)])


def test_an_evasion_is_reported_at_the_original_characters():
    text = f"deploy token: {SPACED} (rotate monthly)"
    [finding] = find_secrets(text)
    assert text[finding.start:finding.end] == SPACED
    homoglyph = "key " + GITHUB.replace("p", "\u0440", 1)
    [finding] = find_secrets(homoglyph)
    assert homoglyph[finding.start:finding.end] == GITHUB.replace("p", "\u0440", 1)


NOT_EVASIONS = [
    "Клиент просит присылать счета до 5 числа каждого месяца в формате PDF.",
    "Сброс пароля выполняется через портал самообслуживания.",
    "the new plan will roll out over four weeks with weekly check ins",
    "a b c d e f g h i j k l m n o p q r s t u v w x y z is the alphabet",
    "U.S.A. and E.U. customers get the same invoice layout",
    "discount code SAVE-2024-SPRING-SALE is public on the website",
    "the search link is https://example.com/?q=orders%20by%20region%20and%20month",
    "Ｔｈｅ ｑｕａｒｔｅｒｌｙ ｒｅｐｏｒｔ is written in fullwidth letters",
    "a_b_c_d_e_f_g_h_i_j_k_l_m_n are the test tables",
    "x_1_y_2_z_3_w_4_v_5_u_6_t_7 is the grid's cell naming",
    "La contraseña se cambia cada 90 días; le café est prêt à 9h.",
]


@pytest.mark.parametrize("text", NOT_EVASIONS)
def test_ordinary_text_read_otherwise_stays_ordinary(text):
    assert not flagged(text), find_secrets(text)


# --------------------------------------------------------------------------------------------
# False refusals that stop
# --------------------------------------------------------------------------------------------

SHA = "9fceb02d0ae598e95dc970b74767f19372d61af8"
GIT_SHA_NOTES = [
    f"release v7.7 is tagged at {SHA}",
    f"the dashboard broke after {SHA}, roll back to the one before",
    f"rebased onto {SHA} and re-ran the dbt models",
    f"v2.3.0 ({SHA}) is the last version with the old schema",
    f"pinned the upstream fork to {SHA}",
]


@pytest.mark.parametrize("text", GIT_SHA_NOTES)
def test_git_shas_in_ordinary_notes_are_not_refused(text):
    assert not flagged(text), find_secrets(text)


@pytest.mark.parametrize("text", [f"the deploy key is {SHA}", f"API token: {SHA}",
                                  f"secret for the webhook {SHA}"])
def test_forty_hex_digits_named_as_a_key_or_token_are_still_refused(text):
    assert flagged(text)


def b64(value) -> str:
    return base64.b64encode(json.dumps(value).encode()).decode()


HARMLESS_JSON = [
    {"user": "ana", "roles": ["admin", "editor"], "team": "data"},
    {"report": "weekly_revenue", "filters": {"region": "EU", "from": "2024-01-01"}, "limit": 500},
    [{"id": 1, "name": "orders"}, {"id": 2, "name": "customers"}],
]


@pytest.mark.parametrize("value", HARMLESS_JSON)
def test_base64_of_harmless_json_is_not_refused(value):
    text = f"the fixture payload base64 is {b64(value)}"
    assert not flagged(text), find_secrets(text)


def test_base64_of_json_holding_a_credential_is_refused():
    assert flagged(f"payload {b64({'user': 'ci', 'token': GITHUB})}")
    assert flagged(f"payload {b64({'user': 'ci', 'password': 'Xk92!mmQw'})}")


# --------------------------------------------------------------------------------------------
# Across notes: half a token per note
# --------------------------------------------------------------------------------------------

# Lower-case letters and digits: neither half looks random on its own, so only the two
# together (a GitHub token's format) give the secret away.
SPLIT = "gh" + "p_" + "a3df9hjk2l0mnp1qrstv7wxyz2abc4def9hijkm"
HALF = len(SPLIT) // 2


def test_half_a_token_per_note_is_found_across_notes():
    earlier = ["weekly revenue is in the finance sheet", f"first half for the CI bot: {SPLIT[:HALF]}"]
    value = f"second half: {SPLIT[HALF:]}"
    assert flagged(SPLIT) and not flagged(earlier[1]) and not flagged(value)
    [found] = find_split_secrets(earlier, value)
    assert found.kind == "github_token"
    assert value[found.start:found.end] == SPLIT[HALF:]


def test_the_second_half_saved_first_is_found_too():
    [found] = find_split_secrets([f"part two {SPLIT[HALF:]}"], f"part one {SPLIT[:HALF]}")
    assert found.kind == "github_token"


def test_unrelated_notes_side_by_side_form_no_secret():
    earlier = ["orders_2024_q3 has 1,204,331 rows", "dashboard v2.14 shows EU and US apart",
               "Workspace 3f2b9c1e-8d4a-4b6f-9e2a-1c3d5e7f9a0b is the demo tenant"]
    assert find_split_secrets(earlier, "the churn model is retrained on Mondays at 06:00 UTC") == []
    assert find_split_secrets(earlier, earlier[0]) == []  # a note saved again is no second part
