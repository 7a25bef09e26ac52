"""Issue 18, sixth round: key material that says what it is by where it stands or how it is laid
out, found missing in TruffleHog's detector folders drawn for tuning
(tests/data/secret_tuning_from_trufflehog.jsonl), each as a class, beside the ordinary notes each
rule must let through (SPEC R-SAVE-2).

Plain tests: no database, no Django (run with ``-p no:django``). Every class has cases that fail
against the detector of commit af51777 (before this round). The values are made up here and
assembled from pieces, so this file does not itself look like a leaked secret.
"""

from __future__ import annotations

import base64
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memories.refusals.secrets import find_secrets  # noqa: E402

LOWER_KEY = "uddf59xc" + "v1i6x556" + "6mu1u81q" + "cgv616bk"
MIXED_KEY = "Tq4Zm9Lx" + "B2vN8kRw" + "5HcJ1pYd" + "7FsG3tEa" + "6Uo0"
# A registry login as Docker keeps it: base64 of "user:password".
DOCKER_AUTH = base64.b64encode(b"ci-deployer:" + b"Wq7#pLx2" + b"!mZ9").decode()
# 32 characters of one case laid out as a UUID, over letters a UUID never holds.
UUID_SHAPED = "-".join(("5gkyl1bw", "rq41", "lcz6", "q1h7", "zn5fdlcybw2x"))
HEX_UUID = "-".join(("1a2b3c4d", "0e9f", "4a1b", "8c2d", "3e4f5a6b7c8d"))


def kinds(text: str) -> set[str]:
    return {finding.kind for finding in find_secrets(text)}


def flagged(text: str) -> bool:
    return bool(find_secrets(text))


@pytest.mark.parametrize("text", [
    # JSON kept in a CI variable: its quotes escaped once, and twice.
    'environment = ["DOCKER_AUTH_CONFIG={\\"auths\\":{\\"registry.example.com:8083\\":'
    '{\\"auth\\":\\"' + DOCKER_AUTH + '\\"}}}"]',
    'environment = ["DOCKER_AUTH_CONFIG={\\\\\\"auths\\\\\\":{\\\\\\"registry.example.com\\\\\\":'
    '{\\\\\\"auth\\\\\\":\\\\\\"' + DOCKER_AUTH + '\\\\\\"}}}"]',
    # A JSON file kept as a YAML string, with "\n" and "\t" written out.
    'config.json: "{\\n\\t\\"auths\\": {\\n\\t\\t\\"https://index.docker.io/v1/\\": {\\n\\t\\t\\t'
    '\\"auth\\":\\"' + DOCKER_AUTH + '\\"\\n\\t\\t}\\n\\t}\\n}"',
    'settings = "{\\"api_key\\": \\"' + MIXED_KEY + '\\"}"',
])
def test_a_credential_inside_escaped_json_is_refused(text):
    assert flagged(text)


@pytest.mark.parametrize("text", [
    'log line: {\\"event\\":\\"login\\",\\"user\\":\\"ops\\",\\"ok\\":true}',
    'the regex is "\\\\d+\\\\.\\\\d+" and the path C:\\\\new\\\\tools',
    'payload = "{\\"table\\": \\"orders\\", \\"rows\\": 1200}"',
])
def test_escaped_json_without_a_credential_passes(text):
    assert not flagged(text)


@pytest.mark.parametrize("text", [
    f"alerts post to https://acme.tines.com/webhook/{LOWER_KEY}/{LOWER_KEY[::-1]}",
    f"hook = 'https://hooks.example-crm.com/hooks/catch/{MIXED_KEY}'",
    f"the n8n webhook is https://n8n.internal:5678/webhook/{UUID_SHAPED[:8]}{LOWER_KEY}",
])
def test_a_webhook_address_with_a_random_path_is_refused(text):
    assert "webhook_url" in kinds(text)


@pytest.mark.parametrize("text", [
    "docs at https://example.com/webhooks/configuring-outgoing-notifications",
    "see https://github.com/acme/app/settings/hooks/412345678 for the deliveries",
    "https://hooks.example.com/hooks/catch/123456/abcdef1/",
    "the git hooks live in https://gitlab.example.com/tools/hooks/pre-commit-checks",
])
def test_a_webhook_address_without_key_material_passes(text):
    assert not flagged(text)


@pytest.mark.parametrize("text", [
    f"the key is {UUID_SHAPED}",
    f"onboarding uses {UUID_SHAPED.upper()} for the sandbox",
    f"the request id is {UUID_SHAPED}",
])
def test_a_uuid_layout_of_letters_no_uuid_holds_is_key_material(text):
    assert kinds(text) & {"uuid_shaped_key", "generic_secret"}


@pytest.mark.parametrize("text", [
    f"request {HEX_UUID} failed with a 502",
    f"row {HEX_UUID.upper()} was merged",
    "the slug is release-note-back-fill-for-q4",
    "dates 20240101-0930-1015-1100-120000000000 were imported",
])
def test_real_uuids_and_dashed_words_are_not_keys(text):
    assert not flagged(text)


@pytest.mark.parametrize("text, kind", [
    (f"sdk-{HEX_UUID}", "launchdarkly_key"),
    (f"mobile key mob-{HEX_UUID}", "launchdarkly_key"),
    ("BBDC-" + (MIXED_KEY + "/+" + LOWER_KEY)[:44], "bitbucket_token"),
])
def test_published_prefixed_formats_are_refused(text, kind):
    assert kind in kinds(text)


# Hex in dashed groups that is no UUID, of the low entropy hex of this length often has.
DASHED_HEX = "-".join(("c7a7c3e1", "a5b9", "e531", "973c", "db7e3c9", "5291"))


@pytest.mark.parametrize("text", [
    f"wise token = '{DASHED_HEX}'",
    "API_TOKEN: " + "-".join(("3e1a5b9e5319", "73cdb7e3c952", "91c7a7c3")),
    "API_TOKEN: " + "-".join(("3e1a", "5b9e", "5319", "73cd", "b7e3", "c952", "91c7")),
])
def test_hex_in_dashed_groups_after_a_credential_word_is_refused_as_a_uuid_is(text):
    assert flagged(text)


@pytest.mark.parametrize("text", [
    f"request_id = '{DASHED_HEX}'",
    f"the token {HEX_UUID} expired yesterday",
])
def test_dashed_hex_not_assigned_to_a_credential_word_passes(text):
    assert not flagged(text)


@pytest.mark.parametrize("text", [
    f"rev token - ' {MIXED_KEY[:24]}= '",
    f'api_key = "{MIXED_KEY} "',
])
def test_a_space_pasted_inside_the_quotes_does_not_hide_the_value(text):
    assert flagged(text)


def test_a_quoted_sentence_after_a_credential_word_is_still_words():
    assert not flagged("token - ' see the vault entry '")


def test_a_word_inside_a_url_above_does_not_make_a_random_run_an_id():
    # "git" in the host name is part of an address, not "git" naming the run as a commit.
    text = f"bitbucket running at https://git.example.com:7990/projects/P/repos/app\n{MIXED_KEY}+/x9"
    assert flagged(text)
    assert not flagged(f"git commit {HEX_UUID.replace('-', '')}{'ab12cd34'}")


GITHUB_BODY = "R8x2Lq9Zt4Vw7Ny1" + "Kp3Hd6Fs0Bm5Jc8Ga2Ex"  # 36 characters after "ghp_"


@pytest.mark.parametrize("text", [
    'token "\\u0067\\u0068\\u0070_' + GITHUB_BODY + '"',
    "\\x67\\x68\\x70\\x5f" + GITHUB_BODY,
    "&#103;&#104;&#112;&#95;" + GITHUB_BODY,
    "&#x67;hp&lowbar;" + GITHUB_BODY,
])
def test_a_token_spelt_with_escapes_is_refused(text):
    # Found by trying the detector as an attacker would, after this file's round: JSON and
    # JavaScript, Python and C, and HTML escapes. Each case fails on 89deaf4.
    assert "github_token" in kinds(text)


@pytest.mark.parametrize("text", [
    "Q&amp;A notes &nbsp; for Tom &amp; Jerry",
    "C:\\new\\temp\\x41.txt is the scratch file",
    'print("\\u00e9t\\u00e9") prints été',
])
def test_escapes_in_ordinary_notes_pass(text):
    assert not flagged(text)


@pytest.mark.parametrize("text", [
    "\n".join(("ghp_" + GITHUB_BODY)[i:i + 12] for i in range(0, 40, 12)),
    "\n".join("ghp_" + GITHUB_BODY),  # one character a line
])
def test_a_token_wrapped_over_lines_is_refused(text):
    # Found by trying the detector as an attacker would; both cases fail on 72f03d6.
    assert "github_token" in kinds(text)


@pytest.mark.parametrize("text", [
    "\n".join("abcdefghijklm"),
    "orders_2024_q1\norders_2024_q2\norders_2024_q3",
    "step one\nstep two\nstep three",
])
def test_lines_of_words_and_letters_are_not_a_wrapped_token(text):
    assert not flagged(text)
