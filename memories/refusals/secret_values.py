"""Is this value key material? Entropy and word-likeness; the values that are never secrets
(placeholders, references, words, identifiers, paths) are secret_stand_ins.py's. Part of the
secret detector (R-SAVE-2); pure functions, no Django, no I/O.

detect-secrets' Shannon-entropy scorers supply the limits (base64 4.5, hex 3.0); the word and
shape tests around them are ours, because memory notes are prose, not source code.
"""
from __future__ import annotations

import math
import re

from detect_secrets.plugins.high_entropy_strings import (
    Base64HighEntropyString,
    HexHighEntropyString,
)

from memories.sizes import NOTE_MAX_BYTES


def up_to_a_note(fewest: int) -> str:
    """A regex count from ``fewest`` to a whole note's length: no value a rule reads is cut
    short by the rule (an Azure refresh token or a JWT with many claims runs past 512
    characters), and none can be longer than the note holding it."""
    return f"{{{fewest},{NOTE_MAX_BYTES}}}"


def _compile(pattern: str, flags: int = 0) -> re.Pattern:
    return re.compile(pattern, flags)


def grouped_alternation(alternatives: list[str]) -> str:
    """The alternation of ``alternatives`` grouped by their first (literal) character, each group
    in the list's order. It matches what the flat alternation matches, where it does (only one
    group can start at a position, and within it the first alternative that matches wins, as
    before), but Python's re tries a position against a handful of alternatives instead of all of
    them (benchmarks/bench_secrets.py; tests/memories/test_secret_rule_needs.py holds each use to its
    flat alternation)."""
    groups: dict[str, list[str]] = {}
    for alternative in alternatives:
        if not alternative[:1].isalnum() or alternative[1:2] in ("?", "*", "+", "{"):
            raise ValueError(f"{alternative!r} does not start with a literal character")
        groups.setdefault(alternative[0], []).append(alternative[1:])
    return "|".join(f"{first}(?:{'|'.join(rests)})" for first, rests in groups.items())


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


# A password drawn as a policy asks switches between capitals, small letters, digits and marks
# again and again: "Error#500" switches 3 times, "Tr0ub4dor&3x" 8, "Vx7!pq2Lm9" 9.
POLICY_SWITCHES = 6


def class_switches(value: str) -> int:
    """How often adjacent characters change kind (capital, small letter, digit, anything else)."""
    kinds = [0 if c.isupper() else 1 if c.islower() else 2 if c.isdigit() else 3 for c in value]
    return sum(a != b for a, b in zip(kinds, kinds[1:]))


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


_HIVE_PARTITION_RE = _compile(r"^[A-Za-z_][A-Za-z0-9_]{0,30}=")
_FILE_NAME_RE = _compile(r"[^/]+?(?:\.[A-Za-z][A-Za-z0-9]{1,7}){1,3}")


def _looks_like_path(value: str) -> bool:
    """"var/lib/postgresql/16/main": every segment is a word, a number or a file name. The last
    segment may be any file's name ("raw/2024/11/part-00017-5c2b1f7e.snappy.parquet": Spark
    names its files with ids) when the folders above it are words or numbers."""
    segments = [s for s in value.split("/") if s]
    if len(segments) < 2:
        return False
    if _FILE_NAME_RE.fullmatch(segments[-1]) and not value.endswith("/"):
        segments = segments[:-1]
    for segment in segments:
        segment = _HIVE_PARTITION_RE.sub("", segment)  # "dt=2024-11-03": a partition's folder
        if _DATE_LIKE_RE.fullmatch(segment):
            continue
        stem = segment.rsplit(".", 1)[0] if "." in segment else segment
        if not (stem.isdigit() or len(stem) <= 3 or _wordiness(stem) >= 0.5
                or _is_identifier_of_words(stem)):
            return False
    return True


# The 8-4-4-4-12 layout of a UUID, over any letters.
UUID_LAYOUT_RE = _compile(r"(?<![A-Za-z0-9])[A-Za-z0-9]{8}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{12}(?![A-Za-z0-9])")


def random_in_uuid_layout(value: str) -> bool:
    """The layout of a UUID over letters a UUID never holds (g-z): not an id but 32 random
    characters of one letter case laid out as one ("5gykyl1b-wgrq-41lc-…")."""
    if not (value.islower() or value.isupper()):
        return False
    lowered = value.lower()
    past_hex = sum(c in "ghijklmnopqrstuvwxyz" for c in lowered)
    groups_with_digits = sum(any(c.isdigit() for c in group) for group in lowered.split("-"))
    return past_hex >= 4 and groups_with_digits >= 3 and _looks_random(lowered.replace("-", ""), with_keyword=True)


_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
# Lower-case words and a short suffix a controller drew ("app-token-7f9c8b6d5e", Kubernetes'
# "web-7f9c8b6d5e-x2k4p"): a generated resource's name; ten random characters are no key.
_GENERATED_NAME_RE = _compile(r"[a-z]{2,}(?:-[a-z]{2,})*-[a-z0-9]{4,10}(?:-[a-z0-9]{5})?")


_BASE32_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz234567")
_BECH32_RE = re.compile(r"[a-z]{1,83}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}")


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
    if not is_hex and with_keyword and length >= 24 and value.isalnum() and value.isascii():
        # Hex with a letter or two from outside it ("2c69j0dc…") is no word and no id: it is
        # judged as the hex it nearly is, not by an entropy its 17 symbols cannot reach.
        is_hex = sum(c not in _HEX_DIGITS for c in value) <= 2
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
    elif not mixed_case:
        # One case and digits, long (TOTP seeds, many vendors' keys): judged against what random
        # text of 36 symbols scores at its length, below.
        if not (has_digit and length >= 32 and value.isalnum() and value.isascii()):
            return False
        if set(value.lower()) <= _BASE32_LOWER or _BECH32_RE.fullmatch(value.lower()):
            return False  # base32 and Bech32 name public things: an onion address, an IPFS CID,
            # an age or Nostr public key, a wallet (their secret forms have rules of their own)
    elif not has_digit and length < 32:
        return False
    if _UUID_RE.fullmatch(value) or _DATE_LIKE_RE.fullmatch(value) or _VERSION_RE.fullmatch(value):
        return False
    if _PUBLIC_ID_PREFIX_RE.match(value) or _is_identifier_of_words(value):
        return False
    if _GENERATED_NAME_RE.fullmatch(value):
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
        # One letter case draws from 36 characters, not 62: a random one scores ~0.3 lower.
        limit = min(_KEYWORD_ENTROPY_LIMIT, ceiling - (1.0 if mixed_case else 1.3))
        if mixed_case and has_digit and length >= 20:
            limit -= 0.4
    elif not mixed_case:
        if _wordiness(value) > 0.5 or _class_transitions(value) < 0.25:
            return False
        # ~ the 5th percentile of random strings of 36 symbols: 4.0 at 32 characters, 4.6 at 80.
        limit = math.log2(36) - 31 / length - 0.2
    else:
        if _wordiness(value) > 0.5 or _class_transitions(value) < 0.3:
            return False
        limit = min(_FREE_ENTROPY_LIMIT, ceiling - 0.85)
    return _base64_entropy(value) >= limit


_PART_SPLIT_RE = _compile(r"[_\-.]")


def _random_part(value: str) -> bool:
    """A value named as a credential whose longest ``-``/``_``/``.`` part (16+ characters) is
    key material: a vendor's prefix or suffix around a random key ("thog-secret-8fbfc1…",
    "1000.1fa6966e….e57d1552…"), which the whole value's entropy hides."""
    parts = _PART_SPLIT_RE.split(value)
    if len(parts) < 2:
        return False
    longest = max(parts, key=len)
    return len(longest) >= 16 and _looks_random(longest, with_keyword=True)
