"""Secret detection for memory notes (SPEC R-SAVE-2).

A note that holds a key, token, password, private key or credential URL is refused before it is
stored. This module owns the question "does this text hold a credential, and where": a pure
function, no Django, no I/O, safe to call from any thread.

How it is built
---------------
* **detect-secrets** (Yelp) supplies the vendor formats it knows (AWS, GitHub, GitLab, Slack,
  Stripe, Twilio, SendGrid, Discord, Telegram, Mailchimp, Square, Artifactory, IBM, Cloudant,
  SoftLayer, PyPI, npm, Azure storage, OpenAI legacy keys, private-key headers, basic-auth
  URLs), the JWT validator, its keyword list and its Shannon-entropy scorers with their default
  limits. We call the plugins' compiled ``denylist`` patterns, ``is_formally_valid`` and
  ``calculate_shannon_entropy`` directly instead of ``scan_line``: the ad-hoc scanner switches
  the entropy limits off (every English sentence would be "high entropy") and swaps a plugin's
  regex in place while it scans, which is not thread-safe.
* Formats detect-secrets lacks are written here from the vendors' public token formats
  (OpenAI project keys, Anthropic, fine-grained GitHub PATs, Hugging Face, npm, DigitalOcean,
  Google API keys, Mailgun, Azure SAS / Service Bus, Vault, Shopify, ...).
* Prose is where memory notes differ from source code: "the password is hunter2",
  "login admin / hunter2", "pwd: ...", ADO/ODBC ``Password=...;``, ``curl -u`` and
  ``Authorization:`` lines. Those rules carry filters so that talk *about* passwords
  ("password resets go through Okta", "the password field must be hashed"), placeholders
  (``<password>``, ``${DB_PASSWORD}``), secret-manager references and identifiers pass.
* A random-looking string with no keyword is flagged only when it is long, mixes character
  classes, does not read as words, and is not a UUID, a git SHA / checksum / document id named
  as such, part of a URL, a certificate, or a known public object id. A 40-hex string (a git
  object name) counts only when the words around it say key / token / secret / password; base64
  of readable text with no credential field is judged by what it decodes to.

Normalisation adds readings, never removes one: after the note as written, each ``View`` of
``normalise`` (look-alike letters to Latin, separators taken out of spaced-out tokens,
URL-encoding undone, base64 / base32 runs decoded) is scanned too, and what is found there is
reported at the original characters.

The rules live in modules by meaning: ``secret_values`` (is this value key material?),
``secret_stand_ins`` (placeholders, references, words: values that are never a credential),
``secret_formats`` (one regex, one kind; the rule type in ``secret_rules``, vendors' formats in
``secret_vendors`` and ``data/secret_prefixed_formats.txt``), ``secret_prose`` (passwords in
sentences), ``secret_bare`` (passwords with no label word next to them, passphrases),
``secret_unjoined`` (a credential a few words after its noun, or a password no word names),
``secret_seeds`` (wallet recovery phrases), ``secret_cli`` (command-line password flags),
``secret_context`` (headers and assignments), ``secret_random`` (random strings and the words
around them),
``secret_assignments`` (a quoted phrase assigned to a credential name), ``secret_urls``
(credential URLs and connection strings, and which URL passwords are placeholders),
``secret_code`` (a literal compared with or passed to a credential name), ``secret_manifests``
(Kubernetes Secrets, NuGet, Docker ``config.json``, ``.pgpass``) and ``secret_numbers`` (card
numbers and PINs). A secret split over several saves is ``across_notes``' question.

Every plugin object and regex is built once at import and only read afterwards, so
``find_secrets`` is re-entrant. Each rule names substrings it cannot match without, so most
rules are skipped for most notes. Offsets are ``str`` indices into the scanned text; a finding
always covers the secret value (for credential URLs, the whole ``scheme://user:pass@host``).
"""

from __future__ import annotations

from dataclasses import dataclass

from memories.refusals.normalise import views
from memories.refusals.secret_assignments import find_quoted_phrase_assignments
from memories.refusals.secret_bare import _find_bare_passwords, _find_value_first_passwords
from memories.refusals.secret_cli import find_cli_passwords
from memories.refusals.secret_code import find_code_literals
from memories.refusals.secret_context import _find_auth_headers, _find_generic_assignments
from memories.refusals.secret_formats import FORMAT_KINDS, Candidate, _regex_candidates
from memories.refusals.secret_glued import find_glued_credentials
from memories.refusals.secret_logins import find_login_values
from memories.refusals.secret_manifests import find_manifest_secrets
from memories.refusals.secret_numbers import find_cards_and_pins
from memories.refusals.secret_pairs import find_user_password_pairs
from memories.refusals.secret_products import find_product_named_keys
from memories.refusals.secret_prose import _find_prose_passwords
from memories.refusals.secret_random import _TOKEN_RUN_RE, _find_high_entropy
from memories.refusals.secret_seeds import find_seed_phrases
from memories.refusals.secret_tables import find_table_passwords
from memories.refusals.secret_unjoined import (
    find_keys_near_nouns,
    find_marked_near_nouns,
    find_policy_shaped_passwords,
)
from memories.refusals.secret_values import (  # noqa: F401 - tests pin these to detect-secrets
    _BASE64_ENTROPY,
    _HEX_ENTROPY,
    _base64_entropy,
)

__all__ = ["SecretFinding", "find_secret_formats", "find_secrets"]


@dataclass(frozen=True)
class SecretFinding:
    """One credential found in a text; ``text[start:end]`` covers the secret."""

    kind: str
    start: int
    end: int


_PROSE_FINDERS = (
    _find_prose_passwords,
    find_user_password_pairs,
    _find_bare_passwords,
    find_marked_near_nouns,
    _find_value_first_passwords,
    find_login_values,
    find_table_passwords,
    find_seed_phrases,
    find_cards_and_pins,
    _find_auth_headers,
    _find_generic_assignments,
    find_glued_credentials,
    find_quoted_phrase_assignments,
    find_manifest_secrets,
    find_code_literals,
    find_cli_passwords,
    find_product_named_keys,
    _find_high_entropy,
    find_keys_near_nouns,
    find_policy_shaped_passwords,
)


_RANDOM_RUN_KINDS = frozenset({"base64_high_entropy", "product_named_key"})  # hex decodes to no text
# Found by the shape of a word alone, with no word around it to say what it is: only in the text
# as written, where spaces set the word apart; a reading (joined literals, unescaped text) makes
# runs nobody wrote as one.
_AS_WRITTEN_KINDS = frozenset({"password_shaped"})


def _lowercase_same_length(text: str) -> str:
    """``text.lower()`` with offsets kept: a few characters ("İ") lower to two."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _candidates(text: str, *, formats_only: bool = False) -> list[Candidate]:
    """Every rule's finds in ``text`` as written, overlaps not yet resolved; with
    ``formats_only``, the finds of formats with a shape of their own only."""
    lowered = _lowercase_same_length(text)
    runs = [match.span() for match in _TOKEN_RUN_RE.finditer(text)]
    longest_run = max((end - start for start, end in runs), default=0)
    candidates: list[Candidate] = list(_regex_candidates(text, lowered, runs))
    if formats_only:
        return candidates + list(find_cards_and_pins(text, lowered, []))
    for finder in _PROSE_FINDERS:
        if (finder is _find_high_entropy and longest_run < 20) or (
                finder is find_product_named_keys and longest_run < 20):
            continue
        # Later (weaker) finders skip what earlier, more specific rules already found.
        taken = [(c[1], c[2]) for c in candidates]
        candidates.extend(finder(text, lowered, taken))
    return candidates


def _resolve(candidates: list[Candidate]) -> list[SecretFinding]:
    """The most specific candidate wins where candidates overlap; ordered by position."""
    candidates.sort(key=lambda c: (-c[3], -(c[2] - c[1]), c[1]))
    accepted: list[Candidate] = []
    for candidate in candidates:
        _, start, end, _ = candidate
        if any(start < a_end and a_start < end for _, a_start, a_end, _ in accepted):
            continue
        accepted.append(candidate)
    accepted.sort(key=lambda c: (c[1], c[2]))
    return [SecretFinding(kind=kind, start=start, end=end) for kind, start, end, _ in accepted]


def find_secret_formats(text: str) -> list[SecretFinding]:
    """Only the secrets of a format with a shape of its own (a vendor token, a private key, a
    credential URL, a card number), in ``text`` as written; for texts made by joining parts."""
    return _resolve(_candidates(text, formats_only=True)) if text else []


def find_secrets(text: str) -> list[SecretFinding]:
    """Return the credentials in ``text``, ordered by position; empty when there are none.

    Overlapping candidates are resolved in favour of the most specific rule (a vendor format
    beats "password is ...", which beats a generic random string); on a tie, what the text
    says as written beats what one of its other readings says.
    """
    if not text or text.isspace():
        return []
    candidates = _candidates(text)
    # A run found only as "a random string" is still decoded: what it encodes may be a format.
    known = [(c[1], c[2]) for c in candidates if c[0] not in _RANDOM_RUN_KINDS]
    for view in views(text, known):
        for kind, start, end, priority in _candidates(view.text, formats_only=view.formats_only):
            if (view.formats_only and kind not in FORMAT_KINDS) or kind in _AS_WRITTEN_KINDS:
                continue
            start, end = view.original(start, end)
            candidates.append((kind, start, end, priority - 1))
    return _resolve(candidates) if candidates else []
