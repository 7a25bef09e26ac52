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
  as such, part of a URL, a certificate, or a known public object id.

Every plugin object and regex is built once at import and only read afterwards, so
``find_secrets`` is re-entrant. Each rule names substrings it cannot match without, so most
rules are skipped for most notes. Offsets are ``str`` indices into the scanned text; a finding
always covers the secret value (for credential URLs, the whole ``scheme://user:pass@host``).
"""
from __future__ import annotations

import base64
import binascii
import math
import re
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from detect_secrets.plugins.artifactory import ArtifactoryDetector
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.cloudant import CloudantDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.high_entropy_strings import (
    Base64HighEntropyString,
    HexHighEntropyString,
)
from detect_secrets.plugins.ibm_cloud_iam import IbmCloudIamDetector
from detect_secrets.plugins.ibm_cos_hmac import IbmCosHmacDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.keyword import DENYLIST as KEYWORD_DENYLIST
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.softlayer import SoftlayerDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

from memories.refusals.wordlists import words

__all__ = ["SecretFinding", "find_secrets"]


@dataclass(frozen=True)
class SecretFinding:
    """One credential found in a text; ``text[start:end]`` covers the secret."""

    kind: str
    start: int
    end: int


def _compile(pattern: str, flags: int = 0) -> re.Pattern:
    return re.compile(pattern, flags)


# ============================================================================================
# Is this value key material? (entropy, word-likeness, shapes that are never secrets)
# ============================================================================================

# detect-secrets' scorers, default limits (base64 4.5, hex 3.0). Their limits are tuned for
# 40+ character strings; a shorter random key cannot reach 4.5 (log2(length) caps it), so below
# that the limit follows the length (see _looks_random).
_BASE64_ENTROPY = Base64HighEntropyString()
_HEX_ENTROPY = HexHighEntropyString()
_FREE_ENTROPY_LIMIT = _BASE64_ENTROPY.entropy_limit - 0.2
_KEYWORD_ENTROPY_LIMIT = _BASE64_ENTROPY.entropy_limit - 0.5
_BASE64_CHARSET = frozenset(_BASE64_ENTROPY.charset)


def _base64_entropy(value: str) -> float:
    """``Base64HighEntropyString.calculate_shannon_entropy``, same formula and alphabet.

    The plugin walks its 66-character alphabet calling ``str.count`` for each; counting the
    value's own characters once is ~10x faster on the hot path. A test pins the two together.
    """
    length = len(value)
    counts: dict[str, int] = {}
    for char in value:
        if char in _BASE64_CHARSET:
            counts[char] = counts.get(char, 0) + 1
    return -sum(n / length * math.log2(n / length) for n in counts.values())


_UUID_RE = _compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_HEX_RE = _compile(r"[0-9a-fA-F]+")
_DATE_LIKE_RE = _compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
)
_VERSION_RE = _compile(r"v?\d+(?:\.\d+){1,3}(?:[-+][0-9A-Za-z.\-]+)?")
_LETTER_RUN_RE = _compile(r"[A-Z]?[a-z]{2,}|[A-Z]{2,}(?![a-z])")
_CLASS_RUN_RE = _compile(r"[a-z]+|[A-Z]+|[0-9]+|[^a-zA-Z0-9]+")
_TRAILING_DIGITS_RE = _compile(r"\d{1,4}$")
_IDENTIFIER_SPLIT_RE = _compile(r"[_\-.]")

# The ~200 most frequent English letter pairs. A run of letters made mostly of them reads as a
# word ("Customer", "orders"); in random strings only about 30% of pairs are among them.
_COMMON_BIGRAMS = frozenset(
    """
    th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as ou io le ve
    co me de hi ri ro ic ne ea ra ce li ch ll be ma si om ur ca el ta la ns di fo ho pe ec pr no
    ct us ac ot il tr ly nc et ut ss so rs un lo wa ge ie wh ee wi em ad ol rt po we na ul ni ts
    mo ow pa im mi ai sh ir su id os iv ia am fi ci vi pl ig tu ev ld ry mp fe bl ab gh ty op wo
    sa ay ex ke fr oo av ag if ap gr od bo sp rd do uc bu ei ov by rm ep tt oc fa ef cu rn sc gi
    da yo cr cl du ga qu ue ff ba ey ls va um pp ua up lu go ht ru ug ds lt pi rc rr eg au ck ew
    mu br bi pt ak pu ui rg ib tl ny ki rk ys ob mm fu ph og ms ye ud mb ip ub oi rl gu dr hr cc
    tw ft wn nu sk ks gt xt nk lp mn
    """.split()
)

# Public object ids (not secrets) that look random: Stripe objects, AWS resources.
_PUBLIC_ID_PREFIX_RE = _compile(
    r"(?:cus|ch|pi|pm|py|in|ii|sub|si|prod|price|acct|evt|req|txn|po|re|src|seti|cs|card|ba|"
    r"btok|tok|pk_live|pk_test|plan|coupon|tr|file|link|inv|il|ord|sku|ipi|mbur|pl)_"
    r"|(?:i|vol|snap|ami|sg|subnet|vpc|eni|rtb|igw|nat|acl|lt)-[0-9a-f]{8,17}$"
)


def _char_classes(value: str) -> int:
    has_lower = any(c.islower() for c in value)
    has_upper = any(c.isupper() for c in value)
    has_digit = any(c.isdigit() for c in value)
    has_symbol = any(not c.isalnum() for c in value)
    return has_lower + has_upper + has_digit + has_symbol


def _wordiness(value: str) -> float:
    """Share of the string made of word-like runs ("Customer", "orders"): 0.6-0.9 for
    identifiers, below 0.5 for 99% of random strings of 20+ characters."""
    if not value:
        return 0.0
    covered = 0
    for match in _LETTER_RUN_RE.finditer(value):
        run = match.group().lower()
        pairs = len(run) - 1
        common = sum(run[i:i + 2] in _COMMON_BIGRAMS for i in range(pairs))
        if common >= 0.75 * pairs:
            covered += len(run)
    return covered / len(value)


def _class_transitions(value: str) -> float:
    """How often adjacent characters change class (lower/upper/digit/other): ~0.6 if random."""
    if len(value) < 2:
        return 0.0
    return (len(_CLASS_RUN_RE.findall(value)) - 1) / (len(value) - 1)


def _is_identifier_of_words(value: str) -> bool:
    """"created_at_2024", "orders-v2-hotfix", "release.2024.03": words and small numbers."""
    parts = [p for p in _IDENTIFIER_SPLIT_RE.split(value) if p]
    if len(parts) < 2:
        return False
    for part in parts:
        if part.isdigit():
            continue
        letters = _TRAILING_DIGITS_RE.sub("", part)
        if not letters.isalpha():
            return False
        if len(letters) > 3 and _wordiness(letters) < 0.5:
            return False
    return True


def _looks_like_path(value: str) -> bool:
    """"var/lib/postgresql/16/main": every segment is a word, a number or a file name."""
    segments = [s for s in value.split("/") if s]
    if len(segments) < 2:
        return False
    for segment in segments:
        stem = segment.rsplit(".", 1)[0] if "." in segment else segment
        if not (stem.isdigit() or len(stem) <= 3 or _wordiness(stem) >= 0.5
                or _is_identifier_of_words(stem)):
            return False
    return True


def _looks_random(value: str, *, with_keyword: bool) -> bool:
    """True when ``value`` reads as generated key material rather than a word or an id.

    ``with_keyword``: a credential word sits right before the value ("api_key=", "token:"), so
    shorter values and lower entropy are enough. Cheap checks run first.
    """
    value = value.strip("\"'`")
    length = len(value)
    if length < (12 if with_keyword else 20) or value.isdigit():
        return False
    is_hex = _HEX_RE.fullmatch(value) is not None
    has_digit = any(c.isdigit() for c in value)
    mixed_case = any(c.islower() for c in value) and any(c.isupper() for c in value)
    if is_hex:
        if length < (16 if with_keyword else 32) or not has_digit or value.isdigit():
            return False
        if not any(c.isalpha() for c in value):
            return False
    elif with_keyword:
        if not (has_digit or mixed_case):
            return False
    elif not mixed_case or (not has_digit and length < 32):
        return False
    if _UUID_RE.fullmatch(value) or _DATE_LIKE_RE.fullmatch(value) or _VERSION_RE.fullmatch(value):
        return False
    if _PUBLIC_ID_PREFIX_RE.match(value) or _is_identifier_of_words(value):
        return False
    if "/" in value and _looks_like_path(value):
        return False
    if is_hex:
        limit = _HEX_ENTROPY.entropy_limit - (0.4 if with_keyword else 0.0)
        return _HEX_ENTROPY.calculate_shannon_entropy(value) > limit
    ceiling = math.log2(min(length, 64))  # the most a string of this length can score
    if with_keyword:
        if _wordiness(value) > 0.6:
            return False
        limit = min(_KEYWORD_ENTROPY_LIMIT, ceiling - 1.0)
    else:
        if _wordiness(value) > 0.5 or _class_transitions(value) < 0.3:
            return False
        limit = min(_FREE_ENTROPY_LIMIT, ceiling - 0.85)
    return _base64_entropy(value) >= limit


def _looks_random_symbols(value: str) -> bool:
    """A quoted value with punctuation (Django's get_random_secret_key alphabet and the like).

    detect-secrets' scorers count only their own alphabet, so score all characters here, with
    the same "near random for its length" rule as the base64 scorer.
    """
    if len(value) < 16 or " " in value or _is_non_secret_value(value):
        return False
    if _wordiness(value) > 0.5 or _char_classes(value) < 3:
        return False
    counts = {c: value.count(c) for c in set(value)}
    entropy = -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())
    return entropy >= min(_KEYWORD_ENTROPY_LIMIT, math.log2(len(value)) - 1.0)


# ============================================================================================
# Values that are never credentials (placeholders, references, words, identifiers, paths)
# ============================================================================================

# Words that follow "password:" / "token is" in talk *about* credentials, not in credentials.
_COMMON_WORDS = words("secrets_common_words")  # data/secrets_common_words.txt
_PLACEHOLDER_RE = _compile(
    r"""^(?:
        <[^<>]*> | \[[^\[\]]*\] | \{\{?[^{}]*\}?\} | \$\{[^{}]*\}? | \$[A-Za-z_][A-Za-z0-9_]* |
        %\(?[A-Za-z_]*\)?s | %[A-Za-z_][A-Za-z0-9_]*% | \*+ | [xX]{3,} | \.{2,} | …+ | -+ | _+ |
        \#+ | •+ |
        your[_\-]?[A-Za-z_\-]* |
        (?:my|the|some|example|sample|dummy|fake|test|placeholder)[_\-]?
            (?:password|passwd|pass|pwd|secret|token|key|api[_\-]?key|value|here|user) |
        example | sample | dummy | fake | placeholder |
        redacted | hidden | masked | removed | secret | secrets | password | passwords | passwd |
        pass | pwd | pw | token | tokens | apikey | api[_-]?key | key |
        n/?a | tbd | todo | unknown | empty | none | null | nil | undefined | value | string | str
    )$""",
    re.IGNORECASE | re.VERBOSE,
)
_ENV_VAR_NAME_RE = _compile(r"^\$?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
_SECRET_REFERENCE_RE = _compile(
    r"^(?:vault|ssm|secretsmanager|secretmanager|op|env|keychain|kv|sm|gcp|aws|azure|doppler|"
    r"k8s|secret|secrets|file)(?::|://)|^arn:|^projects/[^/]+/secrets/",
    re.IGNORECASE,
)
_WINDOWS_PATH_RE = _compile(r"^[A-Za-z]:\\")
_DOTTED_IDENTIFIER_RE = _compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?:\(\))?$")
_CALL_RE = _compile(r"^[A-Za-z_][A-Za-z0-9_.]*[(\[](?:.*[)\]])?$")
_SNAKE_WORDS_RE = _compile(r"^[a-z]+(?:_[a-z]+)+$")
_TITLE_WORD_RE = _compile(r"^(?:[A-Z][a-z]+)+$")
_WORDS_WITH_HYPHENS_RE = _compile(r"^[A-Za-z]+(?:-[A-Za-z]+)+$")
_NUMBER_WITH_UNIT_RE = _compile(r"^\d+(?:[.,]\d+)?(?:%|[a-z]{1,5})?$")
_PORT_OR_PATH_RE = _compile(r"^\d{2,5}(?:/|$)")
_TRAILING_PUNCTUATION = ".,;:)]}>"


def _trim_value(value: str) -> str:
    return value.rstrip(_TRAILING_PUNCTUATION)


def _is_placeholder(value: str) -> bool:
    return bool(_PLACEHOLDER_RE.match(value) or _ENV_VAR_NAME_RE.match(value))


def _is_non_secret_value(value: str) -> bool:
    """Placeholders, references, words, identifiers and paths: never a credential."""
    if not value:
        return True
    core = value.strip("()[]{}<>")
    if not core or core.lower() in _COMMON_WORDS or _PLACEHOLDER_RE.match(core):
        return True
    if _is_placeholder(value) or _SECRET_REFERENCE_RE.match(value):
        return True
    if "://" in value:
        return True  # a URL given as "where the password lives"; credential URLs have own rule
    if _WINDOWS_PATH_RE.match(value):
        return True
    if value[0] in "/~" or value.startswith("./"):
        if _looks_like_path(value.lstrip("~./")) or not any(c.isdigit() for c in value):
            return True
    if _DOTTED_IDENTIFIER_RE.match(value) and not any(c.isdigit() for c in value):
        return True
    if _CALL_RE.match(value) or _SNAKE_WORDS_RE.match(value):
        return True
    if _WORDS_WITH_HYPHENS_RE.match(value) and any(
        part.lower() in _COMMON_WORDS for part in value.split("-")
    ):
        return True
    if _DATE_LIKE_RE.fullmatch(value) or _UUID_RE.fullmatch(value):
        return True
    if _NUMBER_WITH_UNIT_RE.match(value) and not value.isdigit():
        return True  # "90d", "12chars", "30%"
    return False


def _acceptable_password(value: str, *, strength: str, quoted: bool = False) -> bool:
    """Decide whether a value written after a password word is a real password.

    ``weak``: after ``:`` / ``=`` with an unambiguous password word - anything that is not a
    word, placeholder, reference or path. ``strong``: after "is", a bare space, or an ambiguous
    word ("pass") - must also mix character classes, look random, or be quoted.
    """
    if len(value) < 4 or _is_non_secret_value(value):
        return False
    if " " in value:
        # A quoted phrase: a passphrase unless it is mostly ordinary words ("the usual one").
        words = value.split()
        return sum(word.lower() in _COMMON_WORDS for word in words) * 2 < len(words)
    if value.isdigit():
        return strength == "weak"
    if strength == "weak" or quoted:
        return True
    if len(value) < 6 or _TITLE_WORD_RE.match(value):
        return False  # short, or a proper noun: "Okta", "Bitwarden"
    if value.isalpha():
        return _looks_random(value, with_keyword=True)  # "KhhhKCoGdEiSAPJ", not "swordfish"
    return _char_classes(value) >= 2


# ============================================================================================
# Regex rules: one pattern, one kind
# ============================================================================================

Accept = Callable[[re.Match, str], bool]


@dataclass(frozen=True)
class _Rule:
    kind: str
    pattern: re.Pattern
    needs: tuple[str, ...]  # the lowercased note must contain one of these, or the rule is skipped
    group: int | str = 0  # the group whose span is the secret
    accept: Accept | None = None
    priority: int = 50  # higher wins when findings overlap
    extend: str | None = None  # characters a token may continue with past the regex
    min_run: int = 0  # needs a run of token characters at least this long
    classify: Callable[[re.Match], str] | None = None  # kind decided per match


_TOKEN_TAIL = "A-Za-z0-9_\\-"


def _bounded(match: re.Match, text: str) -> bool:
    """The token is not glued to other letters or digits (no "XAKIA..." false hits)."""
    start, end = match.span()
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return not before.isalnum() and not after.isalnum()


def _bounded_left(match: re.Match, text: str) -> bool:
    start = match.start()
    return start == 0 or not text[start - 1].isalnum()


def _random_group(group: int | str) -> Accept:
    def accept(match: re.Match, text: str) -> bool:
        return _looks_random(match.group(group), with_keyword=True)

    return accept


def _artifactory_accept(match: re.Match, text: str) -> bool:
    token = match.group().strip(" \t\r\n=:\"")
    return len(token) >= 40 and _looks_random(token, with_keyword=True)


_CREDENTIAL_WORDS = ("key", "pwd", "pass", "token", "secret")


def _library_rules() -> list[_Rule]:
    """detect-secrets' own compiled patterns, mapped to our kinds."""
    rules: list[_Rule] = []

    def add(kind: str, patterns, needs: tuple[str, ...], **options) -> None:
        for pattern in patterns:
            rules.append(_Rule(kind=kind, pattern=pattern, needs=needs, **options))

    aws_access, aws_secret = AWSKeyDetector.denylist
    add("aws_access_key", [aws_access], ("akia", "asia", "abia", "acca", "a3t"),
        accept=_bounded, priority=90)
    add("aws_secret_key", [aws_secret], ("aws",), group=1, priority=80, min_run=40)
    add("artifactory_token", ArtifactoryDetector.denylist, ("akc", "ap"),
        accept=_artifactory_accept, priority=70, min_run=40)
    add("azure_storage_key", AzureStorageKeyDetector.denylist, ("accountkey=",), priority=90)
    add("basic_auth_url", BasicAuthDetector.denylist, ("://",), group=1,
        accept=lambda m, t: not _is_placeholder(m.group(1)), priority=73)
    add("cloudant_credentials", CloudantDetector.denylist, ("cl",), group=1, priority=70,
        min_run=24)
    add("discord_token", DiscordBotTokenDetector.denylist, ("",), accept=_bounded, priority=80,
        min_run=24)
    add("github_token", GitHubTokenDetector.denylist, ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        accept=_bounded_left, priority=90, extend=_TOKEN_TAIL)
    add("gitlab_token", GitLabTokenDetector.denylist,
        ("glpat-", "gldt-", "glft-", "glsoat-", "glrt-", "gr1348941", "glcbt-", "glimt-",
         "glptt-", "glagent-", "gloas-"), accept=_bounded_left, priority=90)
    add("ibm_cloud_key", IbmCloudIamDetector.denylist, _CREDENTIAL_WORDS, group=1,
        accept=_random_group(1), priority=60, min_run=44)
    add("ibm_cos_hmac", IbmCosHmacDetector.denylist, ("secret",), group=1, priority=70,
        min_run=48)
    add("mailchimp_key", MailchimpDetector.denylist, ("-us",), accept=_bounded, priority=80,
        min_run=32)
    add("npm_token", NpmDetector.denylist, ("_authtoken",), group=1, priority=80)
    add("openai_key", OpenAIDetector.denylist, ("t3blbkfj",), accept=_bounded_left, priority=90,
        extend=_TOKEN_TAIL)
    add("pypi_token", PypiTokenDetector.denylist, ("pypi-",), priority=90, extend=_TOKEN_TAIL)
    add("sendgrid_key", SendGridDetector.denylist, ("sg.",), priority=90)
    slack_token, slack_webhook = SlackDetector.denylist
    add("slack_token", [slack_token], ("xox",), accept=_bounded_left, priority=90,
        extend=_TOKEN_TAIL)
    add("slack_webhook", [slack_webhook], ("hooks.slack.com",), priority=90)
    add("softlayer_key", SoftlayerDetector.denylist, ("softlayer", "sl"), group=1, priority=70,
        min_run=64)
    add("square_secret", SquareOAuthDetector.denylist, ("sq0csp-",), priority=90)
    add("stripe_key", StripeDetector.denylist, ("k_live_",), accept=_bounded_left, priority=90,
        extend="A-Za-z0-9")
    add("telegram_token", TelegramBotTokenDetector.denylist, (":",), accept=_bounded,
        priority=80, min_run=35)
    add("twilio_key", TwilioKeyDetector.denylist, ("ac", "sk"), accept=_bounded, priority=80,
        min_run=34)
    return rules


def _vendor(kind: str, pattern: str, needs: tuple[str, ...], **options) -> _Rule:
    options.setdefault("priority", 90)
    return _Rule(kind=kind, pattern=_compile(pattern), needs=needs, **options)


# Vendor formats detect-secrets does not ship, from the vendors' published token formats.
_VENDOR_RULES: list[_Rule] = [
    _vendor("anthropic_key", r"sk-ant-(?:api|admin|sid|oat)\d{2}-[A-Za-z0-9_\-]{32,}", ("sk-ant-",),
            accept=_bounded_left, priority=95),
    _vendor("anthropic_key", r"sk-ant-[A-Za-z0-9_\-]{32,}", ("sk-ant-",), accept=_bounded_left,
            priority=94),
    _vendor("openai_key", r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{20,}",
            ("sk-proj-", "sk-svcacct-", "sk-admin-", "sk-none-"), accept=_bounded_left,
            priority=93),
    _vendor("openai_key", r"sk-(?!ant-)[A-Za-z0-9]{32,}(?![A-Za-z0-9_\-])", ("sk-",),
            accept=lambda m, t: _bounded_left(m, t) and _looks_random(m.group(), with_keyword=True),
            priority=85),
    _vendor("github_token", r"github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}", ("github_pat_",),
            accept=_bounded_left, priority=95),
    _vendor("github_token", r"gh[pousr]_[A-Za-z0-9]{36,251}(?![A-Za-z0-9])",
            ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), accept=_bounded_left, priority=92),
    _vendor("gitlab_token", r"gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|oas)-[A-Za-z0-9_\-]{20,}", ("gl",),
            accept=_bounded_left, priority=89),
    # Hugging Face: "hf_" + 34 letters. Letters only, so ask for both cases, not for digits.
    _vendor("huggingface_token", r"hf_[A-Za-z0-9]{30,40}(?![A-Za-z0-9])", ("hf_",),
            accept=lambda m, t: _bounded_left(m, t) and _char_classes(m.group()[3:]) >= 2
            and _wordiness(m.group()[3:]) <= 0.6),
    _vendor("npm_token", r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])", ("npm_",), accept=_bounded_left),
    _vendor("pypi_token", r"pypi-AgE[A-Za-z0-9_\-]{50,}", ("pypi-",), accept=_bounded_left),
    _vendor("digitalocean_token", r"do[opr]_v1_[a-f0-9]{64}", ("_v1_",), accept=_bounded_left),
    _vendor("google_api_key", r"AIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])", ("aiza",),
            accept=_bounded_left),
    _vendor("tailscale_key", r"tskey-(?:auth|api|client|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}",
            ("tskey-",)),
    _vendor("google_oauth_secret", r"GOCSPX-[0-9A-Za-z_\-]{28}", ("gocspx-",)),
    _vendor("slack_token", r"xox[abposre]-[A-Za-z0-9\-]{10,}", ("xox",),
            accept=lambda m, t: _bounded_left(m, t) and any(c.isdigit() for c in m.group()),
            priority=88),
    _vendor("slack_token", r"xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]{32,}", ("xapp-",)),
    _vendor("stripe_key", r"(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{24,}", ("k_live_", "k_test_"),
            accept=_bounded_left, priority=91),
    _vendor("stripe_webhook_secret", r"whsec_[A-Za-z0-9+/=]{24,}", ("whsec_",),
            accept=_bounded_left),
    _vendor("sendgrid_key", r"SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{30,50}", ("sg.",),
            priority=89),
    _vendor("twilio_key", r"(?:AC|SK)[0-9a-fA-F]{32}", ("ac", "sk"), accept=_bounded,
            priority=79, min_run=34),
    _vendor("mailgun_key", r"key-[0-9a-zA-Z]{32}(?![0-9a-zA-Z])", ("key-",), accept=_bounded_left,
            priority=85),
    _vendor("mailgun_key", r"(?<![0-9a-f])[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}(?![0-9a-f])", ("-",),
            priority=85, min_run=50),
    _vendor("azure_storage_key", r"AccountKey=([A-Za-z0-9+/]{40,}={0,2})", ("accountkey=",),
            group=1, priority=92),
    _vendor("azure_shared_access_key", r"SharedAccessKey=([A-Za-z0-9+/]{30,}={0,2})",
            ("sharedaccesskey=",), group=1, priority=92),
    _vendor("azure_sas_token", r"[?&;]sig=([A-Za-z0-9%+/]{30,}(?:%3D|=){0,2})", ("sig=",),
            group=1),
    _vendor("vault_token", r"hv[sbr]\.[A-Za-z0-9_\-]{24,}", ("hvs.", "hvb.", "hvr."),
            accept=_bounded_left),
    _vendor("shopify_token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", ("shp",)),
    _vendor("databricks_token", r"dapi[a-f0-9]{32}(?:-\d)?", ("dapi",), accept=_bounded,
            priority=85),
    _vendor("linear_key", r"lin_(?:api|oauth)_[A-Za-z0-9]{40}", ("lin_",)),
    _vendor("notion_token", r"(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,50})",
            ("secret_", "ntn_"),
            accept=lambda m, t: _bounded_left(m, t) and any(c.isdigit() for c in m.group()),
            priority=88),
    _vendor("atlassian_token", r"ATATT3[A-Za-z0-9_\-=]{100,}", ("atatt3",)),
    _vendor("postman_key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", ("pmak-",)),
    _vendor("doppler_token", r"dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}", ("dp.",)),
    _vendor("grafana_token", r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}", ("glsa_",)),
    _vendor("sentry_token", r"sntry[su]_[A-Za-z0-9+/=_\-]{40,}", ("sntry",)),
    _vendor("square_token", r"EAAA[A-Za-z0-9_\-]{60}", ("eaaa",), accept=_bounded, priority=85),
    _vendor("discord_webhook",
            r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{40,}",
            ("discord",)),
    _vendor("teams_webhook",
            r"https://[a-z0-9\-]+\.webhook\.office\.com/webhookb2/[A-Za-z0-9@\-/]{60,}",
            ("webhook.office.com",), priority=85),
    # detect-secrets' AWS secret pattern needs quotes; env files and prose do not quote.
    _vendor("aws_secret_key",
            r"(?i)aws.{0,30}?secret.{0,30}?[=:\s][\"']?(?P<value>[A-Za-z0-9/+]{40})"
            r"(?![A-Za-z0-9/+=])",
            ("aws",), group="value", min_run=40, priority=82,
            accept=lambda m, t: _char_classes(m.group("value")) >= 3
            and _wordiness(m.group("value")) < 0.5),
    # mysql / mysqldump take the password glued to -p: "mysql -u root -pS3cret db".
    _vendor("cli_password",
            r"(?<![\w\-])(?:mysql|mysqldump|mysqladmin|mysqlimport|mariadb)\b[^\n]{0,200}?"
            r"\s-p(?P<value>[^\s'\"]{3,128})",
            ("mysql", "mariadb"), group="value", priority=78,
            accept=lambda m, t: not _is_placeholder(m.group("value"))),
]

# JWT: detect-secrets' pattern stops short of the signature (lazy tail), so match the three
# segments ourselves and let its validator decode the header and payload JSON.
_JWT_RULE = _vendor(
    "jwt",
    # Possessive runs (Python 3.11+): the segment alphabet excludes "=" and ".", so giving
    # characters back can never help, and "eyJeyJeyJ..." stays linear.
    r"eyJ[A-Za-z0-9_\-]{8,}+={0,2}\.eyJ[A-Za-z0-9_\-]{8,}+={0,2}\.[A-Za-z0-9_\-+/]*+={0,2}",
    ("eyj",),
    accept=lambda m, t: JwtTokenDetector.is_formally_valid(m.group()),
    priority=85,
)

# Private keys: detect-secrets knows the headers; the span runs to the END line (or to the end
# of the note, which may be cut at 1 KB). A header without dashes and without a base64 body is
# talk about keys ("never paste BEGIN RSA PRIVATE KEY blocks"), not a key.
_PRIVATE_KEY_RULE = _vendor(
    "private_key",
    r"(?:-----\s*)?(?:" + "|".join(p.pattern for p in PrivateKeyDetector.denylist) + r")(?:-----)?"
    r"[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
    ("private key", "putty-user-key"),
    accept=lambda m, t: m.group().startswith("-----") or "PuTTY" in m.group()
    or bool(re.search(r"[A-Za-z0-9+/]{40,}", m.group())),
    priority=99,
)

# Credential URLs: scheme://user:password@host. detect-secrets' BasicAuthDetector excludes RFC
# 3986 sub-delimiters from the password; people paste unencoded passwords ("S3cr3t!"), so this
# accepts them and filters placeholders instead. The user may be empty ("redis://:pw@host").
_DB_SCHEMES = frozenset((
    "postgres", "postgresql", "mysql", "mariadb", "mongodb", "redis", "rediss", "amqp", "amqps",
    "mssql", "sqlserver", "oracle", "jdbc", "clickhouse", "cockroachdb", "snowflake", "neo4j",
    "bolt", "cassandra", "couchdb", "elasticsearch", "memcached", "kafka", "nats", "ldap", "ldaps",
    "ftp", "ftps", "sftp", "smtp", "smtps", "imap", "imaps", "ssh", "rabbitmq", "db2",
))


def _credential_url_accept(match: re.Match, text: str) -> bool:
    password = match.group("password")
    if _is_placeholder(password):
        return False
    if password.isdigit() and len(password) <= 5 and "." in match.group("user"):
        return False  # "host.example:8080@..." is a host and a port, not a user and a password
    return True


def _credential_url_kind(match: re.Match) -> str:
    scheme = match.group("scheme").lower().split("+")[0]
    return "connection_string" if scheme in _DB_SCHEMES else "basic_auth_url"


_CREDENTIAL_URL_RULE = _vendor(
    "connection_string",
    r"(?<![A-Za-z0-9+.\-])(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]{1,30})://"
    r"(?P<user>[^\s:/@\"'<>]{0,128}):(?P<password>[^\s@/\"'<>]{1,256})@"
    r"(?P<host>[A-Za-z0-9\-._~%\[\]:]+)",
    ("://",),
    accept=_credential_url_accept,
    classify=_credential_url_kind,
    priority=75,
)

# ADO.NET / ODBC / JDBC key-value connection strings: "Server=...;User Id=...;Password=...;".
_ADO_CONTEXT_RE = _compile(
    r"(?:server|data source|host|user id|uid|username|initial catalog|database|driver|"
    r"dsn|port|addr|address)\s*="
)


def _ado_accept(match: re.Match, text: str) -> bool:
    window = text[max(0, match.start() - 300): match.end() + 200].lower()
    value = match.group("value")
    return bool(_ADO_CONTEXT_RE.search(window)) and not _is_placeholder(value) and len(value) >= 3


_ADO_RULE = _vendor(
    "connection_string",
    r"(?i)(?<![A-Za-z])(?:password|pwd|passwd)\s*=\s*[\"'{]?"
    r"(?P<value>[^;\"'}\s]{1,128})(?=[\"'}]?\s*(?:;|$|\s))",
    ("pwd", "passw"),
    group="value",
    accept=_ado_accept,
    priority=76,
)

_REGEX_RULES: tuple[_Rule, ...] = tuple(
    _library_rules()
    + _VENDOR_RULES
    + [_JWT_RULE, _PRIVATE_KEY_RULE, _CREDENTIAL_URL_RULE, _ADO_RULE]
)
# Every "needs" substring, checked once per note; a rule runs if one of its own is present.
_ALL_NEEDS = tuple(sorted({need for rule in _REGEX_RULES for need in rule.needs}))
_RULE_NEEDS = tuple(frozenset(rule.needs) for rule in _REGEX_RULES)
_EXTEND_RES = {
    chars: _compile("[" + chars + "]*") for chars in {r.extend for r in _REGEX_RULES if r.extend}
}
_WHITESPACE_RE = _compile(r"\s")


Candidate = tuple[str, int, int, int]  # kind, start, end, priority
Spans = list[tuple[int, int]]


def _overlaps(taken: Spans, start: int, end: int) -> bool:
    return any(start < t_end and t_start < end for t_start, t_end in taken)


# A rule that needs a long token run only looks near such runs: from a little before (room for
# "aws_secret_access_key = ") to a little after (Discord's ".xxxxxx.yyyy..." segments), ending
# on whitespace so no token is cut short.
_WINDOW_BEFORE = 100  # every min_run is at least 20 (see long_runs)
_WINDOW_AFTER = 40
_NON_SPACE_RE = _compile(r"\S*")


def _rule_matches(rule: _Rule, text: str, runs: Spans) -> Iterator[re.Match]:
    if not rule.min_run:
        yield from rule.pattern.finditer(text)
        return
    seen: set[tuple[int, int]] = set()
    for run_start, run_end in runs:
        if run_end - run_start < rule.min_run:
            continue
        window_end = _NON_SPACE_RE.match(text, min(len(text), run_end + _WINDOW_AFTER)).end()
        for match in rule.pattern.finditer(text, max(0, run_start - _WINDOW_BEFORE), window_end):
            if match.span() not in seen:
                seen.add(match.span())
                yield match


def _regex_candidates(text: str, lowered: str, runs: Spans) -> Iterator[Candidate]:
    longest_run = max((end - start for start, end in runs), default=0)
    long_runs = [(start, end) for start, end in runs if end - start >= 20]
    present = frozenset(need for need in _ALL_NEEDS if need in lowered)
    for rule, needs in zip(_REGEX_RULES, _RULE_NEEDS):
        if rule.min_run > longest_run or present.isdisjoint(needs):
            continue
        for match in _rule_matches(rule, text, long_runs):
            if rule.accept is not None and not rule.accept(match, text):
                continue
            start, end = match.span(rule.group)
            if start < 0:
                continue
            if rule.extend:
                end = _EXTEND_RES[rule.extend].match(text, end).end()
            if rule.kind == "artifactory_token":
                # Artifactory's patterns include their delimiters; keep only the token.
                while start < end and text[start] in " \t\r\n=:\"'":
                    start += 1
            if rule.kind != "private_key":
                # Some library patterns run to the end of the line (npm's ".*"): keep the token.
                space = _WHITESPACE_RE.search(text, start, end)
                if space:
                    end = space.start()
            while end > start and text[end - 1] in "\"'":
                end -= 1
            if end > start:
                kind = rule.classify(match) if rule.classify else rule.kind
                yield kind, start, end, rule.priority


# ============================================================================================
# Prose rules: a keyword, then what follows it
# ============================================================================================
#
# Each runs in two steps for speed: find the keyword in the lowercased note (a plain
# alternation; case-insensitive alternations are several times slower in `re`), widen it to the
# identifier around it ("DB_PASSWORD_PROD"), then match what follows with an anchored pattern.

_IDENTIFIER_SUFFIX_RE = _compile(r"(?:[_\-.][A-Za-z0-9]+)*")
_IDENTIFIER_CHARS = frozenset(string.ascii_letters + string.digits + "_-.")


def _keyword_identifier(
    text: str, start: int, end: int, *, glue_ok: bool
) -> tuple[int, int] | None:
    """Widen a keyword hit to the identifier it belongs to, or None if it is inside a word.

    "DB_PASSWORD_PROD" and "db.password" widen to the whole name; "passwords", "bypass",
    "1Password" and "passport" are other words and give None. ``glue_ok``: letters may run
    straight into the keyword ("PGPASSWORD").
    """
    if not text[start].isascii():
        return start, end  # non-Latin scripts have no identifier syntax around the word
    if end < len(text) and text[end].isalnum():
        return None
    end = _IDENTIFIER_SUFFIX_RE.match(text, end).end()
    if end < len(text) and text[end].isalnum():
        return None
    left = start
    if start and text[start - 1].isalnum():
        if not glue_ok:
            return None
        while left and text[left - 1].isalpha() and start - left < 12:
            left -= 1
        if left and text[left - 1].isalnum():
            return None
    while left and text[left - 1] in _IDENTIFIER_CHARS:
        left -= 1
    while left < start and text[left] in "_-.":
        left += 1
    return left, end


# --- "password: hunter2", "the password for prod is hunter2", "Passwort lautet ..." ---------

_PASSWORD_WORDS = (
    r"password|passwd|pwd|passphrase|passcode|passwort|kennwort|contrase(?:ñ|n)a|senha|"
    r"mot\s+de\s+passe|wachtwoord|has(?:ł|l)o|parola|l(?:ö|o)senord|adgangskode|salasana|"
    r"heslo|jelsz(?:ó|o)|pass|pw|"
    r"пароль|パスワード|密码|密碼|口令|كلمة\s+(?:ال)?(?:مرور|سر)|비밀번호|סיסמה|şifre|"
    # detect-secrets' KeywordDetector password words (db_?pass, key_?pass, ...)
    + "|".join(k for k in KEYWORD_DENYLIST if "pass" in k or "pwd" in k)
)
_PASSWORD_CORE_RE = _compile(_PASSWORD_WORDS)
_GLUABLE_PASSWORD_WORDS = frozenset({"password", "passwd", "passphrase"})
_AMBIGUOUS_PASSWORD_WORDS = frozenset({"pass", "pw"})

# Printable ASCII (no quotes or backtick) plus Latin letters with accents ("Frühling2024!");
# not CJK, so "パスワードはabc123です" stops before "です".
_VALUE = r"[\x21\x23-\x26\x28-\x5f\x61-\x7e\u00c0-\u024f]{1,128}"
_QUOTED_VALUE = (
    r"\"(?P<dq>[^\"\n]{1,128})\"|'(?P<sq>[^'\n]{1,128})'|`(?P<bq>[^`\n]{1,128})`"
    r"|“(?P<cq>[^”\n]{1,128})”"
)
_PASSWORD_TAIL_RE = _compile(
    # "the password for the staging box is ..." / "Passwort für den Router: ..."
    r"(?P<about>\s+(?:for|of|on|to|at|in|für|fur|pour|para|de|del|du|do|da|dos|das|von|van|"
    r"voor|di|della|dla|для|от|на)(?:\s+[\w.@'\-]{1,80}){1,4}?"
    # "mot de passe wifi est ...", "contraseña wifi: ...": the qualifier follows the word
    r"|(?:(?<=passe)|(?<=aña)|(?<=ana)|(?<=nha)|(?<=wort))\s+[\w\-]{2,20})?"
    r"(?P<sep>\s*(?::=|=>|->|[:=：])\s*"
    r"|\s+(?:is\s+set\s+to|was\s+set\s+to|was\s+changed\s+to|is\s+now|is\s+still|set\s+to|"
    r"changed\s+to|became|is|was|ist|lautet|est|es|é|è|são|som|er|jest)\s+"
    r"|\s*(?:は|是|为|為|это|—|–|هي|هو|는|은)\s*"
    # "use password hunter2": a bare space only right after the keyword, never after "for ..."
    r"|(?(about)(?!)|\s+))"
    r"(?:(?:" + _QUOTED_VALUE + r")|(?P<val>" + _VALUE + r"))",
    re.IGNORECASE,
)
# Suffixes and prefixes that make "password_*" a column, setting or rule, not the password.
_NOT_A_PASSWORD_SUFFIX_RE = _compile(
    r"(?i)[_\-.](?:hash|hashed|digest|salt|policy|policies|reset|resets|length|len|min|max|"
    r"field|column|col|expiry|expires|expiration|age|rules?|strength|changed|updated|required|"
    r"confirmation|confirm|regex|pattern|hint|manager|file|path|env|var|ref|id|auth|login|"
    r"enabled|disabled|less|protected|grant|flow|type|mode|store|vault|history|attempts|"
    r"complexity|prompt|label|placeholder|input|widget|validator|validation|encoder|hasher)"
    r"(?:[_\-.]|$)"
)
_NOT_A_PASSWORD_PREFIX_RE = _compile(
    r"(?i)(?:^|[_\-.])(?:reset|change|forgot|forgotten|new_user|require|requires|min|max|"
    r"hashed|hash|check|verify|validate|old|confirm|show|hide|toggle|one[_\-]?time|"
    r"app|no|has|is|use|allow|enforce|disable|enable)[_\-.]"
)
_ASSIGNMENT_SEPARATORS = frozenset({":", "=", ":=", "=>", "->", "：", "—", "–"})


def _tail_value(match: re.Match) -> tuple[str, int, int, bool]:
    for name in ("dq", "sq", "bq", "cq"):
        if match.group(name) is not None:
            return match.group(name), match.start(name), match.end(name), True
    value = _trim_value(match.group("val"))
    start = match.start("val")
    return value, start, start + len(value), False


def _find_prose_passwords(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    position = 0
    while True:
        core = _PASSWORD_CORE_RE.search(lowered, position)
        if core is None:
            return
        position = core.start() + 1  # on a miss, a shorter word may still start further on
        span = _keyword_identifier(
            text, core.start(), core.end(), glue_ok=core.group() in _GLUABLE_PASSWORD_WORDS
        )
        if span is None:
            continue
        keyword = text[span[0]: span[1]]
        if _NOT_A_PASSWORD_SUFFIX_RE.search(keyword) or _NOT_A_PASSWORD_PREFIX_RE.search(keyword):
            continue
        if span[0] and text[span[0] - 1] in "${%":
            continue  # "${DB_PASSWORD:-x}", "$DB_PASSWORD", "%DB_PASSWORD%": a variable
        match = _PASSWORD_TAIL_RE.match(text, span[1])
        if match is None:
            continue
        value, start, end, quoted = _tail_value(match)
        assignment = match.group("sep").strip() in _ASSIGNMENT_SEPARATORS
        # A bare "pass" / "pw" is often not about passwords ("tests pass: 42"); "db_pass" is.
        ambiguous = keyword.lower() in _AMBIGUOUS_PASSWORD_WORDS
        strength = "weak" if assignment and not ambiguous else "strong"
        if _acceptable_password(value, strength=strength, quoted=quoted):
            position = max(position, end)
            yield "password_in_prose", start, end, 70


# --- "login admin / hunter2", "creds: deploy/Xk9#mP2q", "user admin pass hunter2" ----------

_USER_WORD_RE = _compile(
    r"log\s*in|sign\s*in|credentials|creds?|username|user|account|acct|benutzer|utilisateur|"
    r"usuario"
)
_USER_PASSWORD_TAIL_RE = _compile(
    r"(?:\s+(?:is|are|with|as|using|(?:for|on|to)(?:\s+[\w.@'\-]{1,40}){1,4}?))?"
    r"\s*[:=—–-]?\s*(?P<user>[A-Za-z0-9_.@+\-]{2,64})"
    r"(?:\s*/\s*|\s*:\s*(?=\S*[0-9!@#$%^&*])"
    r"|\s*,?\s+(?:and\s+|with\s+)?(?P<pw>password|passwort|pass|pwd|pw|mot\s+de\s+passe|"
    r"contrase(?:ñ|n)a)(?![A-Za-z])\s*[:=]?\s*)"
    r"(?:(?:" + _QUOTED_VALUE + r")|(?P<val>" + _VALUE + r"))",
    re.IGNORECASE,
)


_DEFAULT_ACCOUNT_RE = _compile(  # searched in the lowercased note
    r"(?<![\w/.\-@:])(?:admin|administrator|root|sa|postgres|guest|ubuntu|pi|test|demo|"
    r"superuser|operator)\s*(?:/|:(?!//))\s*"
)
_VALUE_RE = _compile(r"(?:" + _QUOTED_VALUE + r")|(?P<val>" + _VALUE + r")")
_QUOTED_BEFORE_PASSWORD_RE = _compile(
    r"(?:" + _QUOTED_VALUE + r")\s+(?:is|was|as|=)\s+(?:the|our|my|your|a|an)?\s*"
    r"(?:[\w\-]+\s+){0,2}?(?:password|passwort|passphrase|pwd|pw|passcode)(?![A-Za-z])",
    re.IGNORECASE,
)


def _find_user_password_pairs(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    for core in _USER_WORD_RE.finditer(lowered):
        start, end = core.span()
        if (start and lowered[start - 1].isalnum()) or (end < len(text) and text[end].isalnum()):
            continue
        if lowered[max(0, start - 3): start].endswith(("://", "/")):
            continue  # "postgres://USER:PASSWORD@HOST": a URL template, handled as a URL
        match = _USER_PASSWORD_TAIL_RE.match(text, end)
        if match is None:
            continue
        value, v_start, v_end, quoted = _tail_value(match)
        user = match.group("user")
        if user.lower() in _COMMON_WORDS and user.lower() not in {"admin", "root"}:
            continue
        if _PLACEHOLDER_RE.match(user.split("@")[0]) or _PORT_OR_PATH_RE.match(value):
            continue
        if not match.group("pw") and not quoted and ("/" in value or ":" in value):
            continue  # "user: app:x:1001:1001::/srv/app" is a passwd line, not a password
        strength = "weak" if match.group("pw") else "strong"
        if _acceptable_password(value, strength=strength, quoted=quoted):
            yield "password_in_prose", v_start, v_end, 68
    # "Router: admin/Adm1n2024", "root:Toor2024!": a well-known account name, then a password.
    for account in _DEFAULT_ACCOUNT_RE.finditer(lowered):
        match = _VALUE_RE.match(text, account.end())
        if match is None:
            continue
        value, v_start, v_end, quoted = _tail_value(match)
        if not quoted and ("/" in value or ":" in value):
            continue
        if _acceptable_password(value, strength="strong", quoted=quoted):
            yield "password_in_prose", v_start, v_end, 67
    # "Use 'R2d2C3po!' as the password": the quoted value comes first.
    has_quote = "'" in text or '"' in text or "`" in text or "“" in text
    if has_quote and any(word in lowered for word in ("pass", "pw")):
        for match in _QUOTED_BEFORE_PASSWORD_RE.finditer(text):
            value, v_start, v_end, _ = _tail_value(match)
            if _acceptable_password(value, strength="strong", quoted=True) and " " not in value:
                yield "password_in_prose", v_start, v_end, 67


# --- curl -u user:password; "Authorization: Bearer/Basic/Token ..." -------------------------

_CURL_USER_RE = _compile(
    r"(?:^|\s)(?:-u|--user|--proxy-user)\s*[\"']?(?P<user>[^\s:\"']{1,64}):(?P<val>[^\s\"']{1,128})"
)
_AUTH_WORD_RE = _compile(
    r"authorization|x-api-key|api-key|x-auth-token|auth-token|access-token|api-token|bearer|basic"
)
_AUTH_TAIL_RE = _compile(
    r"(?i)(?:(?P<header>(?<=authorization)|(?<=api-key)|(?<=auth-token)|(?<=access-token)"
    r"|(?<=api-token))\s*[:=]\s*[\"']?\s*"
    r"(?:(?P<scheme>bearer|token|basic|apikey|sso-key|digest)\s+)?"
    r"|(?<=bearer)\s+|(?<=basic)\s+)"
    r"(?P<val>[A-Za-z0-9\-._~+/]{12,}={0,2})"
)


def _basic_credentials(value: str) -> bool:
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    user, sep, password = decoded.partition(":")
    return bool(sep and user and password) and decoded.isprintable()


def _find_auth_headers(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    if "-u" in text or "--user" in text or "--proxy-user" in text:
        for match in _CURL_USER_RE.finditer(text):
            value = match.group("val")  # a shell argument: a trailing "." belongs to it
            if len(value) >= 3 and not _is_placeholder(value):
                yield "basic_auth", match.start("val"), match.end("val"), 72
    for core in _AUTH_WORD_RE.finditer(lowered):
        if core.start() and lowered[core.start() - 1].isalnum():
            continue
        match = _AUTH_TAIL_RE.match(text, core.end())
        if match is None:
            continue
        value = match.group("val")
        if match.end("val") == len(text) or text[match.end("val")].isspace():
            value = _trim_value(value)  # "... Bearer abc123." ends a sentence; "abc123.'" does not
        start = match.start("val")
        header = match.group("header") is not None
        scheme = (match.group("scheme") or core.group()).lower()
        if scheme == "basic":
            if _basic_credentials(value) or _looks_random(value, with_keyword=True):
                yield "basic_auth", start, start + len(value), 73
            continue
        if _looks_random(value, with_keyword=True) or (
            header and len(value) >= 16 and not _is_non_secret_value(value)
            and _char_classes(value) >= 2
        ):
            yield "bearer_token", start, start + len(value), 73


# --- "api_key = ...", "token: ...", "the Datadog API key is ..." with a random value --------

# The keyword list starts from detect-secrets' KeywordDetector denylist.
_GENERIC_KEYWORDS = sorted(
    {k for k in KEYWORD_DENYLIST if "pass" not in k and "pwd" not in k and k.isascii()}
    | {
        r"api[_\- ]?key", r"api[_\- ]?secret", r"api[_\- ]?token", r"app[_\- ]?secret",
        r"app[_\- ]?key", r"access[_\- ]?key(?:[_\- ]?id)?", r"access[_\- ]?token",
        r"refresh[_\- ]?token", r"auth[_\- ]?token", r"bearer[_\- ]?token", r"client[_\- ]?secret",
        r"client[_\- ]?key", r"consumer[_\- ]?(?:key|secret)",
        r"secret[_\- ]?(?:access[_\- ]?)?key",
        r"signing[_\- ]?(?:key|secret)", r"encryption[_\- ]?key", r"master[_\- ]?key",
        r"session[_\- ]?(?:key|secret)", r"webhook[_\- ]?secret", r"shared[_\- ]?secret",
        r"license[_\- ]?key", r"private[_\- ]?token", r"personal[_\- ]?access[_\- ]?token",
        r"deploy[_\- ]?(?:key|token)", r"auth[_\- ]?key", r"token", r"secret", r"key", r"apikey",
        r"credentials?", r"jwt[_\- ]?secret", r"hmac[_\- ]?(?:key|secret)", r"sas[_\- ]?token",
        r"pat", r"x-api-key",
    },
    key=len,
    reverse=True,
)
_GENERIC_KEYWORD_RE = _compile("|".join(_GENERIC_KEYWORDS))
_GENERIC_TAIL_RE = _compile(
    r"(?P<about>\s+(?:for|of|on|to|at|in)(?:\s+[\w.@'\-]{1,40}){1,4}?)?"
    r"(?P<sep>\s*(?::=|=>|->|[:=])\s*|\s+(?:is|was|is\s+now|=)\s+|(?(about)(?!)|\s+))"
    # Quoted values may hold any printable character (Django keys: "k3#x!(-_=+)..."); bare
    # values stop at the first character outside the base64 / URL-safe alphabets.
    r"(?:\"(?P<dq>[^\"\s]{12,512})\"|'(?P<sq>[^'\s]{12,512})'|`(?P<bq>[^`\s]{12,512})`"
    r"|(?P<val>[A-Za-z0-9+/=_.~\-]{12,256}))",
    re.IGNORECASE,
)
_STRONG_KEYWORD_RE = _compile(r"(?i)api|secret|token|auth|credential|access|private|signing")
_NOT_A_SECRET_KEYWORD_SUFFIX_RE = _compile(
    r"(?i)[_\-.](?:id|ids|name|names|type|count|length|len|url|uri|path|file|hash|prefix|"
    r"column|field|header|ttl|expiry|expires|version|format|env|var)$"
)
_B64_ALPHABET_RE = _compile(r"[A-Za-z0-9+/=_.~\-]+")


def _find_generic_assignments(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    position = 0
    while True:
        core = _GENERIC_KEYWORD_RE.search(lowered, position)
        if core is None:
            return
        position = core.start() + 1
        span = _keyword_identifier(text, core.start(), core.end(), glue_ok=False)
        if span is None:
            continue
        keyword = text[span[0]: span[1]]
        if _NOT_A_SECRET_KEYWORD_SUFFIX_RE.search(keyword):
            continue
        match = _GENERIC_TAIL_RE.match(text, span[1])
        if match is None:
            continue
        group = next(g for g in ("dq", "sq", "bq", "val") if match.group(g) is not None)
        value = match.group(group)
        if group == "val":
            value = _trim_value(value)
        if _overlaps(taken, match.start(group), match.start(group) + len(value)):
            continue  # a more specific rule already holds this value
        if _UUID_RE.fullmatch(value):
            # Heroku-style UUID API keys only count right after an explicit credential word.
            strong = bool(_STRONG_KEYWORD_RE.search(keyword))
            if not (strong and match.group("sep").strip() and not match.group("about")):
                continue
        elif _is_non_secret_value(value):
            continue
        elif group != "val" and not _B64_ALPHABET_RE.fullmatch(value):
            if not _looks_random_symbols(value):
                continue
        elif not _looks_random(value, with_keyword=True):
            continue
        start = match.start(group)
        if _HEX_RE.fullmatch(value) and _context_names_an_id(lowered, start, hex_value=True):
            continue
        position = max(position, start + len(value))
        yield "generic_secret", start, start + len(value), 60


# ============================================================================================
# Free-standing random strings
# ============================================================================================

_TOKEN_RUN_RE = _compile(r"[A-Za-z0-9+/=_\-]{12,}")
_CANDIDATE_TOKEN_RE = _compile(
    r"(?<![A-Za-z0-9+/=_\-.])[A-Za-z0-9+/_\-]{20,}={0,2}(?![A-Za-z0-9+/=_\-])"
)
# Words that say "the next string is an id or a digest", not a credential.
_ID_CONTEXT_WORDS = frozenset(
    """
    commit commits committed sha sha1 sha256 sha512 sha-1 sha-256 hash hashes revision rev
    checksum digest md5 etag fingerprint trace span request correlation oid build blob tree
    merge cherry-pick cherry-picked cherrypick revert reverted git head tag image layer ref diff
    patch changeset integrity crc version id uuid guid ids sheet spreadsheet doc docs document
    file folder drive video playlist gist notebook ksuid ulid nanoid cuid objectid
    """.split()
)
# Dash-less hex ids are everywhere (Notion pages, trace ids, Mongo); for hex, more words count.
_HEX_ID_CONTEXT_WORDS = _ID_CONTEXT_WORDS | frozenset(
    """
    page record row block item issue ticket order invoice database workspace project table
    column object node entity expected got mismatch matches sum sums
    """.split()
)
_CONTEXT_WORD_RE = _compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_DIGEST_PREFIX_RE = _compile(r"(?i)^(?:sha(?:1|224|256|384|512)|md5)[-:]")
# Certificates and public keys are meant to be shared; their base64 bodies are not secrets.
_PUBLIC_BLOCK_RE = _compile(
    r"-----BEGIN (?:CERTIFICATE|PUBLIC KEY|RSA PUBLIC KEY|X509 CRL|CERTIFICATE REQUEST|"
    r"NEW CERTIFICATE REQUEST|PGP PUBLIC KEY BLOCK|PGP SIGNATURE|PKCS7)-----[\s\S]*?"
    r"(?:-----END [A-Z0-9 ]+-----|\Z)"
)


def _context_names_an_id(lowered: str, position: int, *, hex_value: bool) -> bool:
    window = lowered[max(0, position - (100 if hex_value else 60)): position]
    words = _HEX_ID_CONTEXT_WORDS if hex_value else _ID_CONTEXT_WORDS
    return any(word in words for word in _CONTEXT_WORD_RE.findall(window))


def _is_dashless_uuid(token: str) -> bool:
    """32 hex digits laid out as an RFC 4122 UUID (version nibble 1-5, variant 8-b)."""
    return len(token) == 32 and token[12] in "12345" and token[16].lower() in "89ab"


def _is_der_certificate(token: str) -> bool:
    """The first base64 line of an X.509 certificate: SEQUENCE { SEQUENCE (tbsCertificate) ...
    A private key starts SEQUENCE { INTEGER 0 ... } instead, and stays flagged."""
    try:
        head = base64.b64decode(token[:16] + "=" * (-len(token[:16]) % 4))
    except (binascii.Error, ValueError):
        return False
    return len(head) >= 6 and head[0] == 0x30 and head[1] == 0x82 and head[4] == 0x30


def _is_ssh_public_key(token: str) -> bool:
    """"AAAAC3NzaC1lZDI1NTE5...": SSH wire format, a length then "ssh-ed25519" / "ecdsa-..."."""
    try:
        head = base64.b64decode(token[:32])
    except (binascii.Error, ValueError):
        return False
    return head[:3] == b"\x00\x00\x00" and head[4:].startswith((b"ssh-", b"ecdsa-", b"sk-"))


def _find_high_entropy(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    public_blocks = (
        [m.span() for m in _PUBLIC_BLOCK_RE.finditer(text)] if "-----BEGIN" in text else []
    )
    for match in _CANDIDATE_TOKEN_RE.finditer(text):
        token = match.group()
        start, end = match.span()
        if _overlaps(taken, start, end):
            continue  # a more specific rule already holds this token
        is_hex = _HEX_RE.fullmatch(token) is not None
        chunk = text[text.rfind(" ", 0, start) + 1: end]
        if "://" in chunk or "@" in chunk or "\\" in chunk or "base64," in chunk:
            continue  # inside a URL / path / e-mail: document ids, not credentials
        if _DIGEST_PREFIX_RE.match(token) or _context_names_an_id(lowered, start, hex_value=is_hex):
            continue  # "sha384-...", "commit 9fceb02...", "request id ..."
        if not _looks_random(token, with_keyword=False):
            continue
        if is_hex and _is_dashless_uuid(token):
            continue
        if token.startswith("MII") and _is_der_certificate(token):
            continue
        if token.startswith("AAAA") and _is_ssh_public_key(token):
            continue  # public keys are meant to be shared
        if any(b_start <= start and end <= b_end for b_start, b_end in public_blocks):
            continue
        yield ("hex_high_entropy" if is_hex else "base64_high_entropy"), start, end, 30


# ============================================================================================
# Driver
# ============================================================================================

_PROSE_FINDERS = (
    _find_prose_passwords,
    _find_user_password_pairs,
    _find_auth_headers,
    _find_generic_assignments,
    _find_high_entropy,
)


def _lowercase_same_length(text: str) -> str:
    """``text.lower()`` with offsets kept: a few characters ("İ") lower to two."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def find_secrets(text: str) -> list[SecretFinding]:
    """Return the credentials in ``text``, ordered by position; empty when there are none.

    Overlapping candidates are resolved in favour of the most specific rule (a vendor format
    beats "password is ...", which beats a generic random string).
    """
    if not text:
        return []
    lowered = _lowercase_same_length(text)
    runs = [match.span() for match in _TOKEN_RUN_RE.finditer(text)]
    longest_run = max((end - start for start, end in runs), default=0)
    candidates: list[Candidate] = list(_regex_candidates(text, lowered, runs))
    for finder in _PROSE_FINDERS:
        if finder is _find_high_entropy and longest_run < 20:
            continue
        # Later (weaker) finders skip what earlier, more specific rules already found.
        taken = [(c[1], c[2]) for c in candidates]
        candidates.extend(finder(text, lowered, taken))
    if not candidates:
        return []
    candidates.sort(key=lambda c: (-c[3], -(c[2] - c[1]), c[1]))
    accepted: list[Candidate] = []
    for candidate in candidates:
        _, start, end, _ = candidate
        if any(start < a_end and a_start < end for _, a_start, a_end, _ in accepted):
            continue
        accepted.append(candidate)
    accepted.sort(key=lambda c: (c[1], c[2]))
    return [SecretFinding(kind=kind, start=start, end=end) for kind, start, end, _ in accepted]
