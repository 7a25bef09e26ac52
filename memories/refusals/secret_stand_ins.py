"""The values that are never credentials, whatever name comes before them (R-SAVE-2):
placeholders ("<password>", "your-key-here", "changeme"), references ("see vault", "$DB_PASSWORD",
"${SECRET}"), words of talk about passwords in ten languages (data files), identifiers, paths,
file names, numbers with units; and, from those, whether a value after a password's name is one
(``_acceptable_password``). Split from secret_values.py, which says whether a value is key
material. Pure functions, no Django, no I/O.
"""
from __future__ import annotations

import math
import re

from memories.refusals.secret_values import (
    _DATE_LIKE_RE,
    _KEYWORD_ENTROPY_LIMIT,
    _UUID_RE,
    _char_classes,
    _compile,
    _looks_like_path,
    _looks_random,
    _wordiness,
)
from memories.refusals.wordlists import words


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
_COMMON_WORDS = words("secrets_common_words") | words("secrets_common_words_other_languages")  # data/…txt
_PLACEHOLDER_RE = _compile(
    r"""^(?:
        <[^<>]*> | \[[^\[\]]*\] | \{\{?[^{}]*\}?\} | \$\{[^{}]*\}? | \#\{[^{}]*\}? | \$[A-Za-z_][A-Za-z0-9_]* |
        \$\([^()]*\)? |
        \$env:[A-Za-z_][A-Za-z0-9_]* | --?[A-Za-z]+(?:-[A-Za-z]+)* |
        %\(?[A-Za-z_]*\)?s | %[A-Za-z_][A-Za-z0-9_]*% | \*+ | [xX]{3,} | \.{2,} | …+ | -+ | _+ |
        \#+ | •+ |
        your[_\-]?[A-Za-z_\-]* |
        (?:my|the|some|example|sample|dummy|fake|test|placeholder|new|old|current)[_\-]?
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
_SENTENCE_END = ".,;:!?"


def _trim_value(value: str) -> str:
    return value.rstrip(_TRAILING_PUNCTUATION)


def _is_placeholder(value: str) -> bool:
    if _ENV_VAR_NAME_RE.match(value):
        return True
    return bool(_PLACEHOLDER_RE.match(value)) and not _wrapped_key(value)


# Brackets around a value: "<password>" names what goes there, "{ZqL5kVrX1n8tA2}" is the value
# itself in a template's clothes (a curl line quoting its user and key in braces).
_WRAPPED_RE = re.compile(r"^[\[{<]+\s*([A-Za-z0-9+/=_\-.~]{8,})\s*[\]}>]+$")


def _wrapped_key(value: str) -> bool:
    wrapped = _WRAPPED_RE.match(value)
    return wrapped is not None and _looks_random(wrapped.group(1), with_keyword=True) \
        and not _FAKE_RE.search(wrapped.group(1))


_LEADING_TAG_RE = re.compile(r"(?:</?[A-Za-z][A-Za-z0-9]*>)+")


def _is_non_secret_value(value: str) -> bool:
    """Placeholders, references, words, identifiers and paths: never a credential."""
    if not value:
        return True
    core = value.strip("()[]{}<>")
    if not core or core.lower() in _COMMON_WORDS or _PLACEHOLDER_RE.match(core):
        return True
    label = value.rstrip("*_")
    if label != value and label.endswith(":") and label[:-1].isalpha():
        return True  # "**Password policy:** 12 characters": the next label, in Markdown's bold
    tagged = _LEADING_TAG_RE.match(value)
    if tagged is not None and value[tagged.end():].rstrip("<>/").isalpha():
        return True  # "Token: <i>rotated monthly</i>": a word in HTML
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
    if _SOURCE_FILE_RE.match(value) or _TITLE_IN_BRACKETS_RE.match(value):
        return True  # "test/dbus-daemon.c", "tap-test.sh.in"; "(Richard Hughes)" after "a password"
    if _CODE_AFTER_NAME_RE.match(value):
        return True  # "passphrase: Union[str, None]", "password (bool, optional)", "</label>", "date(2022,"
    if _FLAG_OR_NAME_RE.match(core) or _IPV6_RE.fullmatch(core):
        return True  # "--kms-keyring=…", "AUTH_MODE", "projects/my-project/locations/…", "::1a:2b:3c:4d"
    if _REFERENCE_TO_A_THING_RE.fullmatch(value.rstrip(".,;:)]}>'\"")):
        return True  # "Bug#51286", "Git#4f5afaf1fd", "gtk+3.0", "jpeg_input_complete(&cinfo", "DB2(PrintError=1"
    return False


_SOURCE_FILE_RE = _compile(
    r"^[\w.\-/]*\w\.(?:c|h|cc|cpp|hpp|py|sh|in|am|ac|txt|md|rst|js|ts|go|rs|java|rb|pl|conf|cfg|ini|json"
    r"|ya?ml|toml|xml|html?|css|sql|log|csv|tsv|parquet)$")
# Code after a credential's name that is no value: a type hint, a docstring's argument type, a
# closing tag, a call (fifteenth session, the docstrings of the installed packages).
_CODE_AFTER_NAME_RE = _compile(
    r"^(?:(?:typing\.)?(?:Union|Optional|Annotated|Secret\w*|List|Dict|Literal|Type|Sequence|Mapping|Callable)\["
    r"|\((?:bool|str|int|float|bytes|list|dict|tuple|set|object|callable|any|optional|size_t|ssize_t|char"
    r"|void|unsigned|const|long|short|u?int\d+_t)\b"
    r"|</[A-Za-z]"
    r"|[a-z_][a-z0-9_.]{2,}\((?:\d[\d, ]*)?$)"
)
# What a changelog or code names where a value could stand (the Debian and package documentation
# scans of the sixteenth session): a bug or a commit by its number ("Bug#51286", "Git#4f5afaf1fd";
# a place and a number, "Lisbon#2031", is a password's shape), a package and its version
# ("gtk+3.0"), a function called on an argument ("PNG_COL_IN_INTERLACE_PASS(output_x",
# "SecretBytes(b'…"), a call's named arguments ("DB2(PrintError=1,TraceLevel=2", "Proxy(proxy_foo=>1").
_CODE_NAME = r"(?:[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+|[a-z]{4,}|(?:[A-Z][a-z]+){2,})"
_REFERENCE_TO_A_THING_RE = _compile(
    r"(?i:bugs?|issues?|prs?|mr|tickets?|git|commits?|tasks?|story|case|changes?|patch|review|lp|gh|rt|cl)"
    r"#(?:\d{1,8}|[0-9a-f]{7,40})"
    r"|[a-z][a-z0-9]*\++\d+(?:\.\d+)+"
    r"|" + _CODE_NAME + r"\([&*]?[A-Za-z_]\w*"
    r"|[A-Za-z]\w*\([A-Za-z]\w*=>?.*"
)
# Where a value could stand, what a command line or a manual writes (the man pages of the sixteenth
# session): the next flag, a metavariable in capitals ("AUTH_MODE", "CLIENT_SECRET_VALUE"), a
# cloud resource's name ("projects/p/locations/l/keyRings/r/…"), an IPv6 interface token
# ("::1a:2b:3c:4d", "static:::1a:2b"). A command's output ("$(cat …)") is _PLACEHOLDER_RE's.
_FLAG_OR_NAME_RE = _compile(
    r"--[a-z][a-z0-9\-]*(?:[=\u2010]|$)|[A-Z]{2,}(?:_[A-Z]{2,})+$"
    r"|(?:projects|organizations|folders|billingAccounts)/[\w.\-]+/")
_IPV6_RE = _compile(r"(?:[a-z]+:)?(?:[0-9a-fA-F]{0,4}:){2,7}[0-9a-fA-F]{1,4}")
_TITLE_IN_BRACKETS_RE = _compile(r"^\((?:[A-Z][A-Za-z]+|\d+(?:\.\d+)+(?:-\w+)?)\)?$")  # "(Richard", "(POSIX", "(3.5.35)"


# "changeit": the Java keystore's documented default, written in examples as "changeme" is.
_FAKE_RE = _compile(r"(?i)fake|dummy|placeholder|redacted|changeme|change_me|changeit|xxxx")
# Phrases standing in for a value (memories.refusals.secret_assignments says which).
_TEMPLATE_RE = _compile(r"<[^<>]*>|[$#]\{[^{}]*\}|\{\{[^{}]*\}\}|%\([^()]*\)s")
_STAND_IN_RE = _compile(
    r"(?i)^(?:your\b|enter\b|insert\b|put\b|type\b|replace\b|add\b|paste\b|fill\b)"
    r"|\bhere\b|\bgoes\b|\bplaceholder\b|\bexample\b|\bsample\b|\bredacted\b|\bchange\s?me\b"
)
_REFERENCE_RE = _compile(
    r"(?i)^(?:see|from|in|stored|kept|ask|same\s+as|set\s+in|set\s+by|read\s+from|"
    r"loaded\s+from|lives\s+in|via|managed\s+by|rotated|provided\s+by|not\s+set|none|n/a)\b"
)


def placeholder_phrase(value: str) -> bool:
    """A phrase that stands in for a value: a template, "your password here", "see vault"
    (secret_assignments says which)."""
    stripped = value.strip()
    if not any(c.isalnum() for c in stripped):
        return True
    if set(stripped.lower()) <= set("x* ."):
        return True
    return bool(
        _TEMPLATE_RE.search(stripped) or _STAND_IN_RE.search(stripped)
        or _REFERENCE_RE.match(stripped) or _FAKE_RE.search(stripped)
    )


def _acceptable_password(value: str, *, strength: str, quoted: bool = False) -> bool:
    """Decide whether a value written after a password word is a real password.

    ``weak``: after ``:`` / ``=`` with an unambiguous password word - anything that is not a
    word, placeholder, reference or path. ``strong``: after "is", a bare space, or an ambiguous
    word ("pass") - must also mix character classes, look random, or be quoted.
    """
    if quoted and strength == "weak" and _quoted_words_password(value):
        return True  # 'password = "open_sesame"': a literal, not the name of a variable
    if len(value) < 4 or _is_non_secret_value(value) or not any(c.isalnum() for c in value):
        return False  # "password = ,.:-¨@*¿?!" has no letter or digit: not a password
    if _FAKE_RE.search(value):
        return False  # "somefakekey", "dummy-pass": a stand-in, said so
    if " " in value:
        if placeholder_phrase(value):
            return False  # "enter your password", "<db password>", "see vault"
        # A quoted phrase: a passphrase unless it is mostly ordinary words ("the usual one").
        words = value.split()
        return sum(word.lower() in _COMMON_WORDS for word in words) * 2 < len(words)
    if value.isdigit():
        return strength == "weak"
    if strength == "weak" or quoted:
        return True
    if len(value) < 6 or _TITLE_WORD_RE.match(value):
        return False  # short, or a proper noun: "Okta", "Bitwarden"
    value = value.rstrip(_SENTENCE_END)  # "a password manager!": a word that ends a sentence
    if value.isalpha():
        return _looks_random(value, with_keyword=True)  # "KhhhKCoGdEiSAPJ", not "swordfish"
    return _char_classes(value) >= 2


# Words joined by "_" or "-" read as a variable's or a setting's name ("password = db_password"),
# but inside quotes after an assignment they are the literal value itself ('"password":
# "open_sesame"', "-Password 'dev-admin'"), unless a part names what the value is or stands in
# for one ("db_password", "your-secret-here", "test_value").
_JOINED_WORDS_RE = _compile(r"^[A-Za-z]+(?:[_\-][A-Za-z0-9]+)+$")
_STAND_IN_PARTS = words("secrets_stand_in_parts")  # data/secrets_stand_in_parts.txt


def _quoted_words_password(value: str) -> bool:
    if not _JOINED_WORDS_RE.match(value) or len(value) < 6 or _FAKE_RE.search(value):
        return False
    parts = [part.lower() for part in re.split(r"[_\-]", value)]
    if any(part in _STAND_IN_PARTS or part.rstrip("s") in _STAND_IN_PARTS for part in parts):
        return False
    return not all(part in _COMMON_WORDS for part in parts)  # "not_set", "on-request"
