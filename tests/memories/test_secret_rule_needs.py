"""Two speed-ups of the secret detector that must not change what it finds (issue 18's 2 ms per
1 KB note):

* the format rules run only on notes holding one of their substrings ("needs"), found in one pass
  (memories/refusals/secret_formats.present_needs): it must find exactly what searching for each
  need by itself finds, or a rule would silently stop running;
* the credential words', the tools' and the user words' patterns are grouped by first letter
  (secret_values.grouped_alternation): they must match exactly where and what the flat
  alternations match."""

from __future__ import annotations

import random
import re

import pytest

from memories.refusals.secret_cli import _COMMAND_RE, _FLAGS
from memories.refusals.secret_context import _GENERIC_KEYWORD_RE, _GENERIC_KEYWORDS
from memories.refusals.secret_formats import _ALL_NEEDS, present_needs
from memories.refusals.secret_pairs import _USER_WORD_RE
from memories.refusals.secret_values import grouped_alternation


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


def test_the_grouped_credential_words_match_as_the_flat_alternation():
    flat = re.compile("|".join(_GENERIC_KEYWORDS))
    rng = random.Random(18)
    pieces = ["secret", "access", "key", "token", "api", "app", "auth", "private", "id", "seed", "pat",
              "s3cr3t", "t0k3n", "x-api-key", "_", "-", " ", "s", "e", "3", "0", "k"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 12))) for _ in range(20000)]
    texts += ["the api_key and the access-token-id, a secret_access_key, s3cr3t, t0k3n, seed, pat"]
    for text in texts:
        assert ([(m.span(), m.group()) for m in _GENERIC_KEYWORD_RE.finditer(text)]
                == [(m.span(), m.group()) for m in flat.finditer(text)]), text


def test_the_grouped_tool_names_match_as_the_flat_alternation():
    names = [re.escape(c).replace(r"\ ", r"\s+") for c in sorted(_FLAGS, key=len, reverse=True)]
    grouped = grouped_alternation(names)
    assert grouped in _COMMAND_RE.pattern
    flat = re.compile(_COMMAND_RE.pattern.replace(grouped, "|".join(names)), _COMMAND_RE.flags)
    rng = random.Random(19)
    pieces = [*sorted(_FLAGS), "PsExec.exe", "MySQL", " ", "\n", "/", "(", "x", "-p", "az login"]
    for _ in range(5000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 10)))
        assert ([(m.span(), m.group("command")) for m in _COMMAND_RE.finditer(text)]
                == [(m.span(), m.group("command")) for m in flat.finditer(text)]), text


def test_an_alternative_without_a_literal_first_character_is_refused():
    with pytest.raises(ValueError):
        grouped_alternation(["key", "[a-z]ey"])


def test_the_grouped_user_words_match_as_the_flat_alternation():
    flat = re.compile(r"log\s*in|sign\s*in|credentials|creds?|username|user|account|acct|benutzer|"
                      r"utilisateur|usuario|wi-?fi|wlan|ssid|(?<![\w.])u(?=\s*[:=])")
    rng = random.Random(20)
    pieces = ["u", "user", "username", "usuario", " ", ".", ":", "=", "_", "x", "log in", "login",
              "wi-fi", "creds", "u:", "au", "\n", "account"]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert ([(m.span(), m.group()) for m in _USER_WORD_RE.finditer(text)]
                == [(m.span(), m.group()) for m in flat.finditer(text)]), text


def test_the_grouped_credential_calls_match_as_the_flat_alternation():
    from memories.refusals.secret_code import _CREDENTIAL_CALL_RE, _CREDENTIAL_CALLS

    names = list(map(re.escape, _CREDENTIAL_CALLS))
    flat = re.compile(_CREDENTIAL_CALL_RE.pattern.replace(grouped_alternation(names), "|".join(names)))
    assert flat.pattern != _CREDENTIAL_CALL_RE.pattern
    rng = random.Random(23)
    pieces = [*_CREDENTIAL_CALLS, "new ", ".", "(", " ", "x", "Basic", "logins", "_login"]
    for _ in range(5000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        assert ([(m.span(), m.group("name")) for m in _CREDENTIAL_CALL_RE.finditer(text)]
                == [(m.span(), m.group("name")) for m in flat.finditer(text)]), text


@pytest.mark.parametrize("text", [
    'if ("Wq7zR2pLm4x" == password) { return; }',
    'if ("Wq7zR2pLm4x" !== PASSWORD) {}',
    'std::string secret("Wq7zR2pLm4x");',
    'PASSWORD.ASSIGN("Wq7zR2pLm4x", 11);',
    "requests.get(url, auth=('admin', 'Wq7zR2pLm4x'))",
    "CREDENTIALS = ['ops', 'Wq7zR2pLm4x']",
    "api_key('Wq7zR2pLm4x')",
])
def test_what_the_code_patterns_find_they_find_behind_their_needs(text):
    """find_code_literals runs a pattern only when the note holds what it cannot match without
    (secret_code._PAIR_NEEDS, _CALL_NEEDS, "==" / "!="): each of these is found by its pattern."""
    from memories.refusals.secret_code import find_code_literals

    found = [text[start:end] for _, start, end, _ in find_code_literals(text, text.lower(), [])]
    assert found == ["Wq7zR2pLm4x"], found
