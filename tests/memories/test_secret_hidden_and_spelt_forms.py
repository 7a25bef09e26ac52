"""Issue 18, secrets (SPEC R-SAVE-2), thirteenth session: forms found by trying the detector as an
attacker would, transform by transform over nine vendors' tokens (no outside case read). Each
class is a sibling of one closed before, so the class is now whole:

* characters a screen does not show: any invisible format character (zero-width joiner, word
  joiner, tag characters) or combining mark put inside a token, and a token stored backwards
  after a right-to-left override (the screen shows it forwards);
* separators: spaces of any width (no-break, thin), "/", ":", ";" between every character;
  blocks of four after prose words ("uses ghp_ R8x2 …"), blocks that hold the token's own dash
  ("glpa t-Ab …"), three blocks of eight; a token broken at a line's end after other words;
* encodings: hex of the token as one run, quoted-printable, binary bytes, a list of
  one-character strings, base32 in lower case without padding, base64 of base64;
* accents put on a token's letters ("ÀKÍÀQ3ÉGRT…");
* numbers: a card number in dotted groups next to a card word, and digits read out as words
  ("the pin is four eight two one").

Benign notes of the same shapes pass: hashes, version numbers, run ids, ratios, counts in words.
Every refused case fails against the detector of commit 2f75704.
"""

from __future__ import annotations

import base64

import pytest

from memories.refusals.secrets import find_secrets

GITHUB = "ghp_R8x2Lq9Zt4VwYb7Nc3Mk5Pd6Fh1Jg0Ks2Qa8"
GITLAB = "glpat-Xk3mP9qR2sT7vW4yZ8bC"
AWS = "AKIAQ3EGRT7XMPLV2WDA"


def _hex(token: str) -> str:
    return token.encode().hex()


@pytest.mark.parametrize("text", [
    AWS[:4] + "\u200d" + AWS[4:],                                     # zero-width joiner
    "key " + AWS[:6] + "\U000E0078" + AWS[6:],                        # a tag character
    "".join(c + "\u0301" for c in GITHUB),                            # a combining accent on each
    "key: \u202e" + AWS[::-1] + "\u202c ok",                          # shown forwards, stored backwards
], ids=["zero-width-joiner", "tag-character", "combining-marks", "right-to-left-override"])
def test_a_token_with_characters_no_screen_shows_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "\u00a0".join(GITHUB),
    "\u2009".join(GITHUB),
    "/".join(GITHUB),
    ":".join(GITLAB),
    "the deploy uses " + " ".join(GITHUB[i:i + 4] for i in range(0, len(GITHUB), 4)),
    "remember " + " ".join(GITLAB[i:i + 4] for i in range(0, len(GITLAB), 4)),
    "-".join(AWS[i:i + 8] for i in range(0, len(AWS), 8)),
    "the key is " + AWS[:10] + "\n" + AWS[10:] + " for staging",
    "the key is " + AWS[:8] + "\n" + AWS[8:16] + "\n" + AWS[16:] + "\nthanks",
], ids=["no-break-spaces", "thin-spaces", "slashes", "colons", "blocks-after-prose", "blocks-with-dash",
        "three-blocks-of-eight", "broken-after-words", "broken-over-three-lines"])
def test_a_token_written_apart_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "the deploy uses " + _hex(AWS),
    "".join(f"={ord(c):02X}" for c in GITHUB),
    " ".join(f"{ord(c):08b}" for c in AWS),
    "k = " + str(list(GITHUB)),
    "remember " + base64.b32encode(AWS.encode()).decode().lower().rstrip("="),
    "remember " + base64.b64encode(base64.b64encode(AWS.encode())).decode(),
    "the id is ÀKÍÀQ3ÉGRT7XMPLV2WDÀ",
], ids=["hex-run", "quoted-printable", "binary", "list-of-characters", "base32-lower-case",
        "base64-twice", "accents-on-a-token"])
def test_a_token_encoded_or_spelt_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "card 4539.1488.0343.6467 exp 12/27",
    "the pin is four eight two one",
    "PIN: 4 eight 2 one",
    "my card number is four five three nine one four eight eight zero three four three six four six seven",
], ids=["card-in-dotted-groups", "pin-in-words", "pin-in-words-and-digits", "card-in-words"])
def test_a_card_or_pin_written_another_way_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "release v7.7 is tagged at 3f786850e387550fdab836ed7e6dc881de23001b",
    "hex of hello world is 68656c6c6f20776f726c6421212121",
    "the TOTP label is jbswy3dpehpk3pxp in the docs",
    "run ids: AB12 CD34 EF56 GH78 IJ90 for the batch",
    "the dashboard ids are 1a2b3c4d 5e6f7a8b 9c0d1e2f 3a4b5c6d",
    "version 4539.1488.0343.6467 of the app",
    "we sold one, two, three, four, five units",
    "rows one, two, three and four are headers",
    "Q1/Q2/Q3/Q4 targets: 1/2/3/4/5/6/7/8/9/0/1/2 done",
    "ratio = 3:1:4:1:5:9:2:6:5:3:5:8:9",
    "letters = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l']",
    "the quarterly report is at\nreports/2024/Q3_final_v2.pdf",
    "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUGx\n-----END CERTIFICATE-----",
    "Ein Café am Straßenrand, wo wir uns 2024 trafen.",
], ids=["commit-sha", "hex-of-words", "lower-case-label", "run-ids", "hash-prefixes", "version",
        "count-in-words", "rows-in-words", "quarters", "ratio", "list-of-letters", "path-on-next-line",
        "certificate", "german-with-accents"])
def test_benign_notes_of_the_same_shapes_pass(text):
    assert find_secrets(text) == []
