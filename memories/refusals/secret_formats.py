"""Secret formats with a shape of their own: one regex, one kind (R-SAVE-2).

detect-secrets' compiled vendor patterns, the vendor formats it lacks (from the vendors' public
token formats), JWTs, private-key blocks, credential URLs and ADO/ODBC connection strings. Each
rule names substrings the lowercased note must contain, so most rules are skipped for most notes.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

import ahocorasick
from detect_secrets.plugins.artifactory import ArtifactoryDetector
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.cloudant import CloudantDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.ibm_cloud_iam import IbmCloudIamDetector
from detect_secrets.plugins.ibm_cos_hmac import IbmCosHmacDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
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

from memories.refusals.secret_rules import (  # noqa: F401 (Candidate, Spans: re-exported)
    _TOKEN_TAIL,
    Candidate,
    Spans,
    _bounded,
    _bounded_left,
    _random_group,
    _Rule,
    _vendor,
)
from memories.refusals.secret_urls import (
    ADO_PATTERN,
    CREDENTIAL_URL_PATTERN,
    ado_accept,
    basic_auth_url_accept,
    credential_url_accept,
    credential_url_kind,
)
from memories.refusals.secret_values import (
    _compile,
    _looks_random,
)
from memories.refusals.secret_vendors import VENDOR_RULES


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
    # Needs as narrow as each pattern allows: "ap" or "cl" alone are in most notes, and a rule
    # that runs is searched near every long run (benchmarks/bench_secrets.py).
    akc, ap = ArtifactoryDetector.denylist  # "AKC…", and "AP" with a hex digit (upper case)
    add("artifactory_token", [akc], ("akc",), accept=_artifactory_accept, priority=70, min_run=40)
    add("artifactory_token", [ap], tuple(f"ap{c}" for c in "0123456789abcdef"),
        accept=_artifactory_accept, priority=70, min_run=40)
    add("azure_storage_key", AzureStorageKeyDetector.denylist, ("accountkey=",), priority=90)
    add("basic_auth_url", BasicAuthDetector.denylist, ("://",), group=1,
        accept=basic_auth_url_accept,
        priority=73)
    # "cl" / "clou" / "cloudant", a separator, maybe "api", then a credential word; or a URL
    # on cloudant.com.
    cloudant_needs = tuple(f"{name}{separator}{api}{word}" for name in ("cl", "clou", "cloudant")
                           for separator in ("", "_", "-") for api in ("", "api")
                           for word in ("key", "pw", "pass", "token")) + (".cloudant.com",)
    add("cloudant_credentials", CloudantDetector.denylist, cloudant_needs, group=1, priority=70,
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


# JWT: detect-secrets' pattern stops short of the signature (lazy tail), so match the three
# segments ourselves and let its validator decode the header and payload JSON.
_JWT_RULE = _vendor(
    "jwt",
    # Possessive runs (Python 3.11+): the segment alphabet excludes "=" and ".", so giving
    # characters back can never help, and "eyJeyJeyJ..." stays linear.
    # The signature may be missing: an unsigned token ("alg": "none") is still a bearer token.
    r"eyJ[A-Za-z0-9_\-]{8,}+={0,2}\.eyJ[A-Za-z0-9_\-]{8,}+={0,2}(?:\.[A-Za-z0-9_\-+/]*+={0,2})?",
    ("eyj",),
    accept=lambda m, t: JwtTokenDetector.is_formally_valid(m.group()),
    priority=85,
)

# Private keys: detect-secrets knows the common headers; RFC 7468 and the tools name more
# ("ENCRYPTED PRIVATE KEY", OpenSSL's "ANY PRIVATE KEY", PuTTY's version 3 files), so any label
# ending in PRIVATE KEY counts: a key encrypted with a passphrase is still the key. The span runs
# to the END line (or to the end of the note, which may be cut at 1 KB). A header without dashes
# and without a base64 body is talk about keys ("never paste BEGIN RSA PRIVATE KEY blocks").
_PRIVATE_KEY_HEADERS = [p.pattern for p in PrivateKeyDetector.denylist] + [
    r"BEGIN (?:[A-Z0-9]+ ){1,4}PRIVATE KEY(?: BLOCK)?", r"PuTTY-User-Key-File-\d"]
_PRIVATE_KEY_RULE = _vendor(
    "private_key",
    r"(?:-----\s*)?(?:" + "|".join(_PRIVATE_KEY_HEADERS) + r")(?:-----)?"
    r"[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
    ("private key", "putty-user-key"),
    accept=lambda m, t: m.group().startswith("-----") or "PuTTY" in m.group()
    or bool(re.search(r"[A-Za-z0-9+/]{40,}", m.group())),
    priority=99,
)

# Credential URLs (scheme://user:password@host) and which passwords are placeholders: see
# memories.refusals.secret_urls.
_CREDENTIAL_URL_RULE = _vendor(
    "connection_string",
    CREDENTIAL_URL_PATTERN,
    ("://",),
    accept=credential_url_accept,
    classify=credential_url_kind,
    priority=75,
)

# ADO.NET / ODBC / JDBC key-value connection strings: "Server=...;User Id=...;Password=...;".
_ADO_RULE = _vendor(
    "connection_string",
    ADO_PATTERN,
    ("pwd", "passw"),
    group="value",
    accept=ado_accept,
    priority=76,
)

_REGEX_RULES: tuple[_Rule, ...] = tuple(
    _library_rules()
    + VENDOR_RULES
    + [_JWT_RULE, _PRIVATE_KEY_RULE, _CREDENTIAL_URL_RULE, _ADO_RULE]
)
# Kinds with a shape of their own: found in a re-joined or decoded reading of a note, they count
# (a random-looking string or a prose rule does not; see view.View.formats_only).
FORMAT_KINDS = frozenset(
    {rule.kind for rule in _REGEX_RULES} | {"basic_auth_url", "connection_string", "card_number"}
)
# Every "needs" substring, found once per note in one pass (an Aho-Corasick automaton, about a
# fifth of searching for each of them in turn: benchmarks/bench_secrets.py); a rule runs if one of
# its own is present. The empty need is always present.
_ALL_NEEDS = tuple(sorted({need for rule in _REGEX_RULES for need in rule.needs}))
_RULE_NEEDS = tuple(frozenset(rule.needs) for rule in _REGEX_RULES)
_NEEDS_AUTOMATON = ahocorasick.Automaton()
for _need in _ALL_NEEDS:
    if _need:
        _NEEDS_AUTOMATON.add_word(_need, _need)
_NEEDS_AUTOMATON.make_automaton()
# The same for needs that start a token ("akia", "ghp_", "xox"): three characters or more ("s",
# "-", "sk" start too much), and not the words of the rules that read a credential's name
# ("password", "aws … key") or a place in a URL ("://", "sig=").
_NAMING_NEEDS = frozenset({"key", "pass", "passw", "pwd", "secret", "token", "aws", "hook", "private key",
                           "://", "sig=", "signature=", "-us"})
_PREFIX_AUTOMATON = ahocorasick.Automaton()
for _need in _ALL_NEEDS:
    if len(_need) >= 3 and _need not in _NAMING_NEEDS:
        _PREFIX_AUTOMATON.add_word(_need, _need)
_PREFIX_AUTOMATON.make_automaton()


def present_needs(lowered: str) -> frozenset[str]:
    """The needs (of every rule) that ``lowered`` holds."""
    return frozenset(["", *(need for _, need in _NEEDS_AUTOMATON.iter(lowered))])


def prefix_starts(lowered: str) -> set[int]:
    """Where in ``lowered`` a vendor's prefix ("akia", "ghp_") may begin a token."""
    return {end - len(need) + 1 for end, need in _PREFIX_AUTOMATON.iter(lowered)}
_EXTEND_RES = {
    chars: _compile("[" + chars + "]*") for chars in {r.extend for r in _REGEX_RULES if r.extend}
}
_WHITESPACE_RE = _compile(r"\s")




def _overlaps(taken: Spans, start: int, end: int) -> bool:
    return any(start < t_end and t_start < end for t_start, t_end in taken)


# A rule that needs a long token run only looks near such runs: from a little before (room for
# "aws_secret_access_key = ") to a little after (Discord's ".xxxxxx.yyyy..." segments), ending
# on whitespace so no token is cut short.
_WINDOW_BEFORE = 100  # every min_run is at least 20 (see long_runs)
_WINDOW_AFTER = 40
_NON_SPACE_RE = _compile(r"\S*")


def _windows(text: str, runs: Spans, min_run: int) -> Spans:
    """Where rules needing runs of ``min_run`` look: around each such run, overlapping windows
    merged, so each part of the note is searched once per rule (a 1 KB note of many runs asked
    each rule once per run before: benchmarks/bench_secrets.py)."""
    windows: list[tuple[int, int]] = []
    for run_start, run_end in runs:
        if run_end - run_start < min_run:
            continue
        start = max(0, run_start - _WINDOW_BEFORE)
        end = _NON_SPACE_RE.match(text, min(len(text), run_end + _WINDOW_AFTER)).end()
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(windows[-1][1], end))
        else:
            windows.append((start, end))
    return windows


# Which rules each need opens, in the rules' order (the order decides between two kinds found at
# the same characters with one priority): a note runs the rules its needs open, not a test of
# every rule's needs (benchmarks/bench_secrets.py).
_RULES_BY_NEED: dict[str, frozenset[int]] = {}
for _index, _needs in enumerate(_RULE_NEEDS):
    for _need in _needs:
        _RULES_BY_NEED[_need] = _RULES_BY_NEED.get(_need, frozenset()) | {_index}


def _rules_to_run(present: frozenset[str], longest_run: int) -> list[_Rule]:
    indexes: set[int] = set()
    for need in present:
        indexes.update(_RULES_BY_NEED.get(need, ()))
    return [rule for rule in map(_REGEX_RULES.__getitem__, sorted(indexes)) if rule.min_run <= longest_run]


def _regex_candidates(text: str, lowered: str, runs: Spans) -> Iterator[Candidate]:
    longest_run = max((end - start for start, end in runs), default=0)
    long_runs = sorted((start, end) for start, end in runs if end - start >= 20)
    run_lengths = sorted(end - start for start, end in long_runs)
    # A rule needing runs of ``min_run`` looks near the runs at least that long; rules whose
    # ``min_run`` admits the same runs share their windows.
    windows_by_count: dict[int, Spans] = {}
    for rule in _rules_to_run(present_needs(lowered), longest_run):
        if rule.min_run:
            count = len(run_lengths) - bisect.bisect_left(run_lengths, rule.min_run)
            windows = windows_by_count.get(count)
            if windows is None:
                windows = windows_by_count[count] = _windows(text, long_runs, rule.min_run)
            matches = (match for start, end in windows for match in rule.pattern.finditer(text, start, end))
        else:
            matches = rule.pattern.finditer(text)
        for match in matches:
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
