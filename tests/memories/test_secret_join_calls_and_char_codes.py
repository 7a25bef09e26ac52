"""Issue 18, secrets (SPEC R-SAVE-2), found by trying the detector as an attacker would (no outside
case read): a token cut into string literals that a join call puts back together
("['ghp_…', '…'].join('')", "''.join([...])", "CONCAT('ghp_…', '…')"), and a token spelt as
character codes ("String.fromCharCode(103, 104, …)", "bytes([103, …]).decode()",
"chr(103)+chr(104)+…"; hex bytes "0x67, 0x68, …", "67 68 70 …", "67:68:…" and octal escapes
"\\147\\150…" since the twelfth session). Literals joined by a call count only when they make a
format of its own; numbers that spell no secret, and joins of words, pass.

Every positive case fails against the detector of commit 8c01040.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets

TOKEN = "ghp_R7mK2xQ9vL4pW8zT1nB6cY3hJ5dF0sA2gE9u"
CODES = [str(ord(c)) for c in TOKEN]


@pytest.mark.parametrize("text", [
    '["ghp_R7mK2x","Q9vL4pW8zT1nB6","cY3hJ5dF0sA2gE9u"].join("")',
    'token = "".join(["ghp_R7mK2x", "Q9vL4pW8zT1nB6", "cY3hJ5dF0sA2gE9u"])',
    "SELECT CONCAT('ghp_R7mK2x', 'Q9vL4pW8zT1nB6', 'cY3hJ5dF0sA2gE9u') AS t;",
    '$t = implode("", ["ghp_R7mK2x", "Q9vL4pW8zT1nB6", "cY3hJ5dF0sA2gE9u"]);',
], ids=["js-join", "python-join", "sql-concat", "php-implode"])
def test_a_token_cut_into_literals_a_join_call_puts_together_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "const t = String.fromCharCode(" + ",".join(CODES) + ");",
    "t = bytes([" + ", ".join(CODES) + "]).decode()",
    "t = " + "+".join(f"chr({code})" for code in CODES),
    # Twelfth session: the same in hex bytes and octal escapes (each fails on f08a31e).
    "key = bytes([" + ", ".join(f"0x{ord(c):02x}" for c in TOKEN) + "])",
    "xxd says: " + " ".join(f"{ord(c):02x}" for c in TOKEN),
    ":".join(f"{ord(c):02x}" for c in TOKEN),
    'printf "' + "".join(f"\\{ord(c):03o}" for c in TOKEN) + '"',
], ids=["js-fromcharcode", "python-bytes", "python-chr", "hex-bytes-0x", "hex-dump", "hex-colons", "octal"])
def test_a_token_spelt_as_character_codes_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "the ids are 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113",
    "ages: 34, 45, 56, 67, 78, 89, 90, 91, 92, 93, 94, 95, 96",
    '", ".join(["alpha", "beta", "gamma"])',
    "SELECT CONCAT(first_name, ' ', last_name) FROM people_staging;",
    "SELECT CONCAT_WS('-', 'eu', 'west', 'orders', '2024', '11') AS bucket_prefix;",
    "SHA1 Fingerprint=5B:9E:34:8C:7A:21:6D:4F:1E:0A:93:C2:77:B8:45:E6:19:3D:AA:02",
    "48 65 6c 6c 6f 2c 20 77 6f 72 6c 64 21 20 74 68 69 73 20 69 73 20 66 69 6e 65",
], ids=["ids", "ages", "join-words", "concat-columns", "concat-words", "fingerprint", "hex-dump-of-words"])
def test_numbers_and_joined_words_are_not_refused(text):
    assert find_secrets(text) == []
