"""Secrets found by their context (R-SAVE-2): ``curl -u`` and ``Authorization:`` headers,
"api_key = ...". Random-looking strings with no keyword at all are secret_random.py's.
"""
from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from detect_secrets.plugins.keyword import DENYLIST as KEYWORD_DENYLIST

from memories.refusals.normalise_decode import decode_base64_text
from memories.refusals.secret_assignments import NOT_CREDENTIAL_QUALIFIERS, directive, name_parts
from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_products import product_word
from memories.refusals.secret_prose import DECLARATOR, _keyword_identifier, separator
from memories.refusals.secret_random import _context_names_an_id
from memories.refusals.secret_stand_ins import (
    _is_non_secret_value,
    _is_placeholder,
    _looks_random_symbols,
    _trim_value,
)
from memories.refusals.secret_values import (
    _HEX_RE,
    _UUID_RE,
    _VERSION_RE,
    _char_classes,
    _compile,
    _is_identifier_of_words,
    _looks_random,
    _random_part,
    _wordiness,
    grouped_alternation,
    up_to_a_note,
)
from memories.refusals.wordlists import words

# --- curl -u user:password; "Authorization: Bearer/Basic/Token ..." -------------------------

_CURL_USER_RE = _compile(
    # The user may be empty ("-u :password") or quoted apart ('--user "{id}":"{secret}"').
    r"(?:^|\s)(?:-u|(?:--user|--proxy-user)(?![\w\-]))\s*[\"']?(?P<user>[^\s:\"']{0,64})[\"']?:[\"']?"
    r"(?P<val>[^\s\"']" + up_to_a_note(1) + r")"
)
_SOCAT_OPTIONS_RE = _compile(r"\d{1,5}(?:,[\w\-=.]+)+")
_AUTH_WORD_RE = _compile(
    r"authorization|x-api-key|api-key|x-auth-token|auth-token|access-token|api-token|bearer|basic"
)
_AUTH_TAIL_RE = _compile(
    r"(?i)(?:(?P<header>(?<=authorization)|(?<=api-key)|(?<=auth-token)|(?<=access-token)"
    r"|(?<=api-token))\s*[:=]\s*[\"']?\s*"
    # The schemes of IANA's HTTP Authentication Scheme Registry, Microsoft's and the vendors'.
    r"(?:(?P<scheme>bearer|token|basic|apikey|api-token|api-key|sso-key|digest|ssws|splunk|ntlm|negotiate"
    r"|kerberos|oauth|dpop|gnap|hoba|mutual|privatetoken|concealed|scram-sha-1|scram-sha-256|vapid|hawk"
    r"|aws4-hmac-sha256|key)\s+)?"
    r"|(?<=bearer)\s+|(?<=basic)\s+)"
    r"(?P<val>[A-Za-z0-9\-._~+/]{8,}={0,2})"
)


def basic_credentials(value: str) -> bool:
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
            pair = match.group("user") + ":" + value
            if _SOCAT_OPTIONS_RE.fullmatch(value):
                continue  # "socat -u TCP4-LISTEN:3334,reuseaddr,fork": a port and its options
            if len(value) >= 3 and not _is_placeholder(value) and not _is_placeholder(pair):
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
        if len(value.rstrip("=")) < 12:
            # A short value in a credential header ("Api-Token: Sk94HG7f6KB"): the header says
            # what it is, so 8 characters of three kinds (lower and upper case, digits) that read
            # as no words are enough.
            if (header and scheme != "basic" and _char_classes(value) >= 3 and _wordiness(value) < 0.5
                    and not _is_non_secret_value(value)):
                yield "bearer_token", start, start + len(value), 73
            continue
        if scheme == "basic":
            if basic_credentials(value) or _looks_random(value, with_keyword=True):
                yield "basic_auth", start, start + len(value), 73
            continue
        if _looks_random(value, with_keyword=True) or (header and _UUID_RE.fullmatch(value)) or (
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
        r"pat", r"x-api-key", r"seed", r"s3cr3t", r"s3cret", r"secr3t", r"t[o0]k3n", r"t0ken", r"k3y",  # "2FA seed: JBSWY3DP…" (a random seed of digits is no key)
        # Fifteenth session: names a probe of forty configuration names found read as nobody's
        # ("REDIS_AUTH", "basic_auth", "X-Auth", "bearer", "sas", "hmac", "pepper", "recovery_code").
        r"auth", r"bearer", r"sas", r"hmac", r"pepper", r"recovery[_\- ]?codes?", r"otp[_\- ]?(?:seed|secret|key)",
        # A session cookie is a bearer credential: the frameworks' own cookie names (PHP, Java
        # servlets, ASP.NET, Laravel, Express, Django).
        r"phpsessid", r"jsessionid", r"asp\.net_sessionid", r"laravel_session", r"connect\.sid", r"sessionid",
    },
    key=len,
    reverse=True,
)

# Names whose value may be base64 of text: the decoded reading judges it (Docker's "auth").
_ENCODED_TEXT_NAMES = frozenset({"auth", "bearer"})

# Grouped by first letter (grouped_alternation): the same matches, fewer tries per position
# (benchmarks/bench_secrets.py measures the scan).
_GENERIC_KEYWORD_RE = _compile(grouped_alternation(_GENERIC_KEYWORDS))
_GENERIC_TAIL_RE = _compile(
    DECLARATOR +
    r"(?P<about>\s+(?:for|of|on|to|at|in)(?:\s+[\w.@'\-]{1,40}){1,4}?)?"
    # After a quoted name a comma separates it from its value: 'setProperty("API_TOKEN", "…")'.
    r"(?P<sep>\s*:[ \t]*[>|][-+]?[ \t]*\r?\n[ \t]+"  # a YAML block scalar: "api_key: |\n  …"
    r"|\s*(?:===|!==|==|!=|:{1,3}=|\?\??=|\.=|\+=|=>|->|<-|[:=]|(?<=[\"'])\s*,)\s*"
    r"|\s+(?:is|was|is\s+now|=|to)\s+"
    # A list's "name - 'value'": the dash separates a quoted value only.
    r"|\s+[\-–—]\s+(?=[\"'`])"
    r"|(?(about)(?!)|\s+))"
    # Quoted values may hold any printable character (Django keys: "k3#x!(-_=+)..."); bare
    # values stop at the first character outside the base64 / URL-safe alphabets.
    # A space pasted inside the quotes with the value ("' T5LJ…= '") is not part of it.
    r"(?:@?\" ?(?P<dq>[^\"\s]" + up_to_a_note(8) + r") ?\"|' ?(?P<sq>[^'\s]" + up_to_a_note(8) + r") ?'|` ?(?P<bq>[^`\s]" + up_to_a_note(8) + r") ?`"
    r"|(?P<val>[A-Za-z0-9+/=_.~\-]" + up_to_a_note(12) + r")"
    # A bare value with symbols ("m{{h}o)p$…"): only right after an assignment to a strong word.
    r"|(?P<sym>[^\s\"'`]" + up_to_a_note(8) + r"))",
    re.IGNORECASE,
)
# A compound name may follow a vendor's letters with no break ("hapikey", HubSpot's; "myapikey",
# "stripesecretkey"); a bare "key" or "token" may not ("monkey", "turkey").
_GLUABLE_KEYWORD_RE = _compile(r"(?:api|access|secret|auth|client|private)[_\-]?(?:key|token|secret)")
_STRONG_KEYWORD_RE = _compile(r"(?i)api|s[e3]cr[e3]t|t[o0]k[e3]n|auth|credential|access|private|signing")
_NOT_A_SECRET_KEYWORD_SUFFIX_RE = _compile(
    r"(?i)[_\-.](?:id|ids|name|names|type|count|length|len|url|uri|path|file|hash|prefix|"
    r"column|field|header|ttl|expiry|expires|version|format|env|var)$"
)
# The keyword as one of an Amazon Resource Name's fields (its service, its resource type).
_ARN_BEFORE_RE = _compile(r"(?<![\w:/])arn:[\w\-]+:(?:[\w\-]+:[\w\-]*:\d*:(?:[\w\-/]+[:/])*)?$")
# Vault's AppRole "secret_id" is the secret itself (a UUID), unlike "client_secret_id" or AWS's
# "--secret-id prod/db", which name one; a name or path is no random value either way.
_SECRET_ID_RE = _compile(r"(?i)(?:(?:vault|approle|role)[_\-.]?)?secret[_\-.]?id")
_WORD_BEFORE_RE = _compile(r"([a-z]+)[ \t]+$")
_DATA_KEY_WORDS = words("secrets_data_key_words")  # data/secrets_data_key_words.txt
_B64_ALPHABET_RE = _compile(r"[A-Za-z0-9+/=_.~\-]+")
_SET_BEFORE_RE = _compile(r"(?i)\b(?:set|setting|change|changed|update|updated|rotate|rotated|reset)"
                          r"\s+(?:the\s+|our\s+)?(?:[\w\-]+\s+)?$")


# Makefile's "::=" / ":::=", PHP's ".=" and "??=", "+=" assign too.
_ASSIGNMENTS = frozenset({":", "=", ":=", "::=", ":::=", "?=", "??=", ".=", "+=", "<-", "=>", "==", "===",
                          "!=", "!==", ","})


def _is_assignment(match: re.Match, text: str, name_start: int) -> bool:
    """An assignment operator, or a configuration directive without one (name, space, quoted
    literal, on a line of its own: BIND's 'secret "…";', nginx, Apache)."""
    if separator(match) in _ASSIGNMENTS:
        return True
    quoted = match.group("dq") is not None or match.group("sq") is not None
    return (quoted and not match.group("about") and not separator(match)
            and directive(text, name_start, match.end()))


_DASHED_HEX_RE = _compile(r"[0-9a-fA-F]{4,}(?:-[0-9a-fA-F]{4,}){2,}")


# A UUID "token" named for a request makes the request idempotent; it grants nothing
# ("aws ec2 run-instances --client-token <uuid>", the SDKs' ClientToken / RequestToken).
_IDEMPOTENCY_QUALIFIERS = frozenset("client request idempotency retry dedup dedupe".split())


def _long_option(text: str, start: int) -> bool:
    """The name at ``start`` is part of a command line's long option ("--secret-token <value>"):
    the space after it assigns, as "=" does."""
    token_start = start
    while token_start > 0 and not text[token_start - 1].isspace():
        token_start -= 1
    return text.startswith("--", token_start) and token_start < start


def _is_dashed_hex(value: str) -> bool:
    """24+ hex digits in groups of four or more joined by dashes: a UUID's cousin."""
    return _DASHED_HEX_RE.fullmatch(value) is not None and len(value) - value.count("-") >= 24


def _assigned_key_material(value: str, match: re.Match, text: str, name_start: int) -> bool:
    """A value assigned to a credential word in code ("api_key = 'm{{h}o)p$…'"): any string of
    8+ characters mixing three classes (or letters with a fifth or more symbols) that is not a
    placeholder, reference or identifier."""
    if not _is_assignment(match, text, name_start):
        return False
    symbols = sum(not c.isalnum() for c in value)
    mixed = _char_classes(value) >= 3 or (any(c.isalpha() for c in value) and symbols >= 0.2 * len(value))
    return mixed and not _is_non_secret_value(value)


def _short_key(value: str, group: str, match: re.Match, keyword: str) -> bool:
    """A short key assigned to a strong credential word ("token = '3ff77bb6fe6885'", "secret:
    'mlm9iqkm'", "api_token=k3x9q7w2v5m"): 8 to 15 letters and digits, a digit at least, that
    read as no words, version or date. Shorter than the 12 ``_looks_random`` asks of a value
    found in prose: the operator says it is the word's value (quotes or not, as .env files and
    YAML write it)."""
    if group not in ("dq", "sq", "bq", "sym") or separator(match) not in _ASSIGNMENTS or match.group("about"):
        return False
    if not (8 <= len(value) <= 15 and value.isascii() and value.isalnum()):
        return False
    digits = sum(c.isdigit() for c in value)
    if not digits or len(value) - digits < 2 or _wordiness(value) > (0.3 if group == "sym" else 0.5):
        return False  # a number, or a word and a number ("release1"; unquoted, "v2Beta01")
    return bool(_STRONG_KEYWORD_RE.search(keyword)) and not _is_non_secret_value(value) \
        and not _is_identifier_of_words(value) and not _VERSION_RE.fullmatch(value)


def _find_generic_assignments(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    position = 0
    while True:
        core = _GENERIC_KEYWORD_RE.search(lowered, position)
        if core is None:
            return
        position = core.start() + 1
        span = _keyword_identifier(text, core.start(), core.end(),
                                   glue_ok=bool(_GLUABLE_KEYWORD_RE.fullmatch(core.group())))
        if span is None:
            continue
        keyword = text[span[0]: span[1]]
        if _NOT_A_SECRET_KEYWORD_SUFFIX_RE.search(keyword) and not _SECRET_ID_RE.fullmatch(keyword):
            continue
        if _ARN_BEFORE_RE.search(text, max(0, span[0] - 120), span[0]):
            continue  # "arn:aws:secretsmanager:…:secret:prod/db-x7Kp2Q" names a secret, holds none
        before = name_parts(text[span[0]: core.start()])
        if before and before[-1] in NOT_CREDENTIAL_QUALIFIERS:
            continue  # "sort_key", "nextPageToken", "max_tokens": a map key, a position, a count
        if not before and span == core.span():
            word = _WORD_BEFORE_RE.search(lowered, max(0, span[0] - 40), span[0])
            if word is not None and word.group(1) in _DATA_KEY_WORDS:
                continue  # the same written as words: "cache key …", "next page token …"
        match = _GENERIC_TAIL_RE.match(text, span[1])
        if match is None:
            continue
        if separator(match).lower() == "to" and not _SET_BEFORE_RE.search(text, 0, span[0]):
            continue  # "set API_KEY to …" assigns; "send the token to ops" does not
        group = next(g for g in ("dq", "sq", "bq", "val", "sym") if match.group(g) is not None)
        if group == "sym" and not (
            _STRONG_KEYWORD_RE.search(keyword) and separator(match) in _ASSIGNMENTS
        ):
            continue
        value = match.group(group)
        if group == "val":
            value = _trim_value(value)
        if group in ("val", "sym") and value.startswith("--") and not separator(match).strip():
            continue  # "cookie-set remember_me token123 --expires=…": the command's next flag
        if _overlaps(taken, match.start(group), match.start(group) + len(value)):
            continue  # a more specific rule already holds this value
        if core.group().lower() in _ENCODED_TEXT_NAMES and decode_base64_text(value) is not None:
            # npm's "_auth=" and Docker's "auth": base64 of "user:password" is a login, of words no key.
            if basic_credentials(value):
                yield "basic_auth", match.start(group), match.start(group) + len(value), 60
            continue
        if _UUID_RE.fullmatch(value) or _is_dashed_hex(value):
            # Heroku-style UUID API keys only count right after an explicit credential word, or a
            # product's name and "key" ("HEROKU_KEY", "hubspotKey": the key of a product, where
            # "kafka_key" or "dedup_key" name data, NOT_CREDENTIAL_QUALIFIERS); so do other hex
            # keys written in dashed groups ("e99848c6-aeb1-…-4160").
            strong = bool(_STRONG_KEYWORD_RE.search(keyword)) or bool(before and product_word(before[-1]))
            if not (strong and (separator(match) or _long_option(text, span[0])) and not match.group("about")):
                continue
            if before and before[-1] in _IDEMPOTENCY_QUALIFIERS and core.group().lower() == "token":
                continue  # AWS's "--client-token <uuid>", "ClientToken=…": a request's idempotency key
        elif value.isdigit():
            # A long number assigned to a strong word is a numeric secret (Discord client
            # secrets are 32 digits); ids and amounts are shorter or named for what they are.
            if not (len(value) >= 24 and _STRONG_KEYWORD_RE.search(keyword)
                    and separator(match) in _ASSIGNMENTS):
                continue
        elif _is_non_secret_value(value):
            continue
        elif group != "val" and not _B64_ALPHABET_RE.fullmatch(value):
            if not (_looks_random_symbols(value) or _assigned_key_material(value, match, text, span[0])):
                continue
        elif not (_looks_random(value, with_keyword=True) or _random_part(value)
                  or _short_key(value, group, match, keyword)):
            continue
        start = match.start(group)
        # "commit secret: 9fceb02…" names an id; a comment line above the assignment does not.
        line_start = lowered.rfind("\n", 0, span[0]) + 1
        if _HEX_RE.fullmatch(value) and _context_names_an_id(lowered, start, hex_value=True, since=line_start,
                                                             named=True):
            continue
        position = max(position, start + len(value))
        yield "generic_secret", start, start + len(value), 60
