"""A key written after the name of the product it opens, with no credential word (R-SAVE-2):
"mattermost 'e2rgfqdg7xpzbq0nmj8l68gmuz'", "redhat nvropikx1e0vzxpad8upkf8696icmidx",
"kucoin: c19c2539c53367c726a5c04c".

Scanners know such keys by a vendor's name followed by a run of its format (TruffleHog has a
detector per vendor); a note does not say "key" when the product's name says what it is for. No
list of vendors is kept here: a word that is no English word (not among wordfreq's 30,000 most
frequent) right before a value is taken for a product's name, and the value is judged as after a
credential word (``_looks_random(..., with_keyword=True)``), the bar "api_key=" sets. What a
product's name comes before in a data team's notes is an id ("airbyte connection 7c2f…",
"sentry event 3f2c…"): ids laid out as UUIDs, values the words before name as ids, and base64
of readable text are left alone, as for any random run (``secret_random``).
"""
from __future__ import annotations

from collections.abc import Iterator

from memories.refusals.people_lexicon import english_words
from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_random import (
    _DIGEST_PREFIX_RE,
    _GIT_SHA_LENGTH,
    _context_names_an_id,
    _encodes_plain_text,
    _is_code_name,
    is_public_address,
    named_as_an_id,
)
from memories.refusals.secret_stand_ins import (
    _is_non_secret_value,
)
from memories.refusals.secret_values import (
    _HEX_RE,
    _UUID_RE,
    _compile,
    _looks_like_path,
    _looks_random,
    up_to_a_note,
)

# A run in the base64 / URL-safe alphabets, then what must come right before it: a word of
# letters (digits after the first), a separator (":", "=", spaces, or a comma between quoted
# strings: '"artifactory", "…"') and maybe a quote. The word
# starts after a space, a quote or a bracket, never inside a path, an address, a variable or a
# longer name ("a_b", "a.b", "a-b"). Runs are found first: a note has few, and words many.
_VALUE_RUN_RE = _compile(r"[A-Za-z0-9+/_\-~.]" + up_to_a_note(20) + r"={0,2}")
_NAME_BEFORE_RE = _compile(
    r"(?<![\w\-./@$&%#:=+~\\])(?P<name>[A-Za-z][A-Za-z0-9]{3,23})"
    r"(?:[\"'`]?\s*(?::=|=>|[:=])\s*|[ \t]+|[\"'`]\s*,\s*(?=[\"'`]))(?P<q>[\"'`]?)$"
)

# AWS's resource ids: the kind, "-" and 8 or 17 hex ("vpce-0a1b2c3d4e5f6a7b8", "i-…", "sg-…").
_RESOURCE_ID_RE = _compile(r"[a-z]{1,12}-(?:[0-9a-f]{8}|[0-9a-f]{17})")
_CREDENTIAL_PART_RE = _compile(r"(?i)t[o0]k[e3]n|k[e3]y|s[e3]cr[e3]t|pass|pwd|auth|cred")


def product_word(word: str) -> bool:
    """A word that can be a product's name: four or more characters, none of the frequent English
    words ("heroku", "snyk", "hubspot"; not "cache", "sort", "primary")."""
    return len(word) >= 4 and word.lower() not in english_words()


def _mixed_case(value: str) -> bool:
    return any(c.islower() for c in value) and any(c.isupper() for c in value)


# "scrapeowl ACCESS l4k5…", "acme private: …": what the key gives, between the product's name and
# the key (a credential's own nouns, "token", "key", are the assignment rules', secret_context).
_WHAT_A_KEY_GIVES = frozenset({"access", "private", "auth", "creds", "credentials", "login"})
_PRODUCT_BEFORE_RE = _compile(r"(?<![\w\-./@$&%#:=+~\\])(?P<product>[A-Za-z][A-Za-z0-9]{3,23})[ \t_\-]$")


def _product_name(text: str, name: str, name_start: int) -> str:
    """The product's name a key follows: the word itself, or the one before "access" / "private"."""
    if name.lower() not in _WHAT_A_KEY_GIVES:
        return name
    before = _PRODUCT_BEFORE_RE.search(text, max(0, name_start - 25), name_start)
    return before.group("product") if before is not None else name


def _named_values(text: str) -> Iterator[tuple[str, str, int, int]]:
    """(name, value, start, end) of each run written right after a word and a separator; a bare
    value ends before a full stop and holds none, a quoted one ends at its quote. The name is the
    product's (``_product_name``)."""
    for run in _VALUE_RUN_RE.finditer(text):
        start, end = run.span()
        before = _NAME_BEFORE_RE.search(text, max(0, start - 40), start)
        if before is None:
            continue
        value = run.group()
        if before.group("q"):
            if text[end:end + 1] != before.group("q"):
                continue
        else:
            value = value.rstrip(".")
            if "." in value or len(value) < 20:
                continue
        yield _product_name(text, before.group("name"), before.start("name")), value, start, start + len(value)


def find_product_named_keys(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    for name, value, start, end in _named_values(text):
        if not product_word(name) or name.isupper() or _CREDENTIAL_PART_RE.search(name):
            continue  # a word, not a product's name ("the run 3f2c…" is the run's id); an acronym
            # names what an identifier is ("IBAN GB49…", "VIN 1HGCM…"); a credential word in
            # the name is the assignment rules' ("syncToken" is a position, secret_context)
        if _overlaps(taken, start, end) or not _looks_random(value, with_keyword=True) or _is_code_name(value):
            continue  # "accessor EVP_PKEY_get0_engine": a function's name
        if _UUID_RE.fullmatch(value) or _is_non_secret_value(value) or is_public_address(value):
            continue
        if _RESOURCE_ID_RE.fullmatch(value) or _DIGEST_PREFIX_RE.match(value):
            continue  # "endpoint vpce-0a1b…": a cloud resource's id; "narHash sha256-…", a digest
        if "/" in value and _looks_like_path(value):
            continue  # "runwayml/stable-diffusion-v1-5": a model's or a repository's name
        is_hex = _HEX_RE.fullmatch(value) is not None
        if is_hex and len(value) == _GIT_SHA_LENGTH and not _mixed_case(value):
            continue  # a commit's name, as for any 40-hex run (secret_random); git writes those
            # in one case, a key drawn from both cases ("6d2FabeB6ADd…") is no commit
        if _context_names_an_id(lowered, start, hex_value=is_hex) or named_as_an_id(text, start):
            continue  # "the run 3f2c…"; '"ConnectionGroupId": "cg_2wjD…"', a field named for an id
        if not is_hex and _encodes_plain_text(value):
            continue
        yield "product_named_key", start, end, 55
