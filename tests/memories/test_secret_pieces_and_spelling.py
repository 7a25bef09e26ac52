"""Issue 18, secrets (SPEC R-SAVE-2), fourteenth session: a token cut into pieces that something
else keeps apart, or read out, found by trying the detector as an attacker would (five vendors'
tokens under fifty more transforms; no outside case read). Each class is a sibling of one closed
before (a token written apart, in codes, in an encoding), so the class is now whole:

* markup inside the token: an HTML tag, Markdown emphasis or code marks between its characters;
* its pieces in a list: quoted strings with commas, inline code spans, quoted characters with
  spaces, the cells of a table row;
* its pieces in one note with words between ("first half …, second half …");
* a key dictated in the spelling alphabet ("golf hotel papa underscore capital romeo eight …");
* an invisible character written as an HTML reference between its characters ("&#8203;");
* one underscore between every character of a token that holds a dash ("x_o_x_b_-_2_0_…");
* base85 of the token, and gzip or zlib data under base64 ("H4sI…", "eJ…", as Helm and
  Kubernetes keep blobs) that holds it.

Ordinary notes of the same shapes pass: emphasis and code in prose, lists of regions and ids,
tables of short cells, run ids and commit hashes side by side, call signs, code with braces.
Every refused case fails against the detector of commit 8269590 but the gzip one, which it
refused as a random string, as it refused compressed text with no secret in it (base64 of
compressed bytes is random whatever they hold): both are judged by what they hold now, and the
ordinary compressed notes below fail against 8269590.
"""

from __future__ import annotations

import base64
import gzip
import json
import zlib

import pytest

from memories.refusals.secrets import find_secrets

GITHUB = "ghp_" + "R8x2Kq9LmZ4vT7wN3pY6sB1cF5hJ0dG2aE8u"  # built from parts, as scanners read files
AWS = "AKIA" + "Q7XR2MZ5K3LP9WTN"
GITLAB = "glpat-" + "Kq9LmZ4vT7wN3pY6sB1c"
SLACK = "xoxb-" + "2048736150-8827361529384-Kq9LmZ4vT7wN3pY6sB1cF5hJ"

_NATO = dict(zip("abcdefghijklmnopqrstuvwxyz", (
    "alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa "
    "quebec romeo sierra tango uniform victor whiskey x-ray yankee zulu").split()))
_DIGITS = "zero one two three four five six seven eight nine".split()


def _dictated(token: str) -> str:
    words = []
    for char in token:
        if char.isdigit():
            words.append(_DIGITS[int(char)])
        elif char.isalpha():
            words.append(("capital " if char.isupper() else "") + _NATO[char.lower()])
        else:
            words.append({"_": "underscore", "-": "dash"}[char])
    return " ".join(words)


def _chunks(token: str, size: int) -> list[str]:
    return [token[i:i + size] for i in range(0, len(token), size)]


@pytest.mark.parametrize("text", [
    f"token {AWS[:6]}<b>{AWS[6:14]}</b>{AWS[14:]}",
    f"token {AWS[:6]}**{AWS[6:14]}**{AWS[14:]}",
    f"deploy key {GITLAB[:8]}`{GITLAB[8:15]}`{GITLAB[15:]}",
    f"<span>{GITLAB[:9]}</span><span>{GITLAB[9:]}</span>",
], ids=["html-tag", "markdown-bold", "code-marks", "spans-side-by-side"])
def test_markup_inside_a_token_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "parts = " + json.dumps(_chunks(GITHUB, 6)),
    "token: " + " ".join(f"`{piece}`" for piece in _chunks(SLACK, 5)),
    "token " + " ".join(f"'{char}'" for char in AWS),
    "| " + " | ".join(GITLAB) + " |",
    "pieces: " + json.dumps(["token", *_chunks(AWS, 5)]),
], ids=["quoted-chunks", "code-spans", "quoted-characters", "table-cells", "label-then-chunks"])
def test_a_token_in_a_list_of_pieces_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    f"first half {AWS[:10]} and second half {AWS[10:]}",
    f"part A: {GITLAB[:12]}\npart B: {GITLAB[12:]}",
    f"start with {GITLAB[:9]}, then {GITLAB[9:16]}, then {GITLAB[16:]}",
], ids=["two-halves", "two-lines", "three-parts"])
def test_a_token_in_parts_of_one_note_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "spelled out: " + _dictated(GITHUB),
    "read it back to me: " + _dictated(AWS).replace("capital ", "").upper(),
    "key, " + ", ".join(_dictated(GITLAB).split(" ")),
], ids=["nato-with-case", "nato-capitals", "nato-commas"])
def test_a_key_read_out_in_the_spelling_alphabet_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "token " + "&#8203;".join(GITHUB),
    "token " + "_".join(SLACK),
    "blob " + base64.b85encode(GITHUB.encode()).decode(),
    "values.gz: " + base64.b64encode(gzip.compress(f"export GITHUB_TOKEN={GITHUB}\n".encode(), mtime=0)).decode(),
    "blob " + base64.b64encode(zlib.compress(f"aws_access_key_id = {AWS}\nregion = eu-west-1\n".encode())).decode(),
], ids=["invisible-html-reference", "underscores-and-a-dash", "base85", "gzip", "zlib"])
def test_encodings_of_a_token_are_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "Use **pandas** for the join and `numpy` for the array maths; see <b>README</b>.",
    "Rename df_2024**_final** to df_2024_v2 before the <i>Monday</i> run.",
    'regions = ["us-east-1", "eu-west-2", "ap-south-1", "ca-central-1"]',
    "columns: `customer_id` `order_id` `created_at` `updated_at`",
    "| id | name | 2024 | 2025 |\n|---|---|---|---|\n| 7 | churn | 0.12 | 0.09 |",
    "commits 2f75704 and 8269590 and d47286e landed on main",
    "runs r8x2Kq9L, mZ4vT7wN3 and pY6sB1cF5 failed on the Q3_backfill job",
    "Call signs for the drill: alpha, bravo, charlie, delta, echo and foxtrot.",
    "if (a && b) { total += x; } else { total -= y; } // ~$100 @ 3% ^ 2",
    "The NATO alphabet starts alfa bravo charlie; our teams are named after it.",
], ids=["markdown-prose", "markup-in-a-name", "quoted-regions", "code-span-columns", "short-table",
        "commit-hashes", "run-ids", "call-signs", "code-with-braces", "alphabet-words"])
def test_ordinary_notes_of_the_same_shapes_pass(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize("text", [
    "release: " + base64.b64encode(gzip.compress(
        b'{"name": "churn", "chart": "analytics-1.4.2", "replicas": 3}', mtime=0)).decode(),
    "note.gz: " + base64.b64encode(gzip.compress(b"hello world, nothing to see here", mtime=0)).decode(),
    "config: " + base64.b64encode(zlib.compress(b"region = eu-west-1\nreplicas = 3\n")).decode(),
], ids=["helm-release", "compressed-sentence", "compressed-config"])
def test_compressed_data_with_no_secret_in_it_passes(text):
    assert find_secrets(text) == []


# Fifteenth session: one filler between every character (an emoji, an emoji with its variation
# selector, a star), and a token wrapped at fewer than eight characters a line. Each fails on
# eee87b7. (A letter as the filler is not read: normalise_runs says why.)
@pytest.mark.parametrize("text", [
    "🔸".join(GITHUB),
    "deploy with " + "❤️".join(AWS) + " today",
    "★".join(SLACK),
    "\n".join(_chunks(GITHUB, 5)),
    "\n".join(_chunks(GITLAB, 4)),
], ids=["emoji", "emoji-with-selector", "star", "lines-of-five", "lines-of-four"])
def test_a_token_with_a_filler_or_in_short_lines_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "🔸".join("the weekly churn report"),
    "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
    "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q",
    "todo\nship\nthis\nweek\nnow",
    "2021\n2022\n2023\n2024\n2025",
], ids=["emoji-between-words", "numbers", "dotted-letters", "short-lines", "years"])
def test_fillers_and_short_lines_of_ordinary_text_pass(text):
    assert find_secrets(text) == []
