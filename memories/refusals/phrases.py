"""Normalisation, tokenisation and keyed phrase hashing (the pure half of R-SAVE-3).

A note is refused when it names a single record of the table it is tied to. To check that
in time that does not grow with the table, the identifying values of every record are cut
into short phrases (1 to 4 words), each phrase is hashed with a secret key, and the hashes
are kept in an index. A note is cut the same way and its phrase hashes are looked up.

Both sides MUST go through the same functions of this module, so that "Ana López",
"ana lopez" and "ANA LOPEZ!" give the same phrase, and the digests match.

Rules (``normalize``):

* Unicode NFKC (full-width letters, ligatures, non-breaking spaces ...), then ``casefold``
  (after accents are stripped, see below).
* Accents are stripped (NFKD, combining marks dropped), and the letters that carry no
  combining mark are folded by hand: ``ø→o``, ``ł→l``, ``đ→d``, ``æ→ae``, ``œ→oe``,
  ``þ→th``, ``ð→d``, ``ı→i`` (``ß`` already becomes ``ss`` through ``casefold``).
* An **email address** is kept whole, as one token: ``Ana.Lopez@Example.COM`` becomes
  ``ana.lopez@example.com``. Its ``@`` and ``.`` are not punctuation, so the address is
  matched as one phrase and never as the loose words "ana", "lopez", "example", "com"
  (a note saying "example com" does not name Ana). A sub-address tag is dropped from the
  local part (``ana.lopez+crm@example.com`` is ``ana.lopez@example.com``): mail servers
  deliver both to one mailbox (RFC 5233), so both name the same person.
* **Han, kana and Hangul** letters are one token each: these scripts write no space
  between words, so "王小明", "王 小明" and "请联系王小明" all hold the phrase "王 小 明"
  (a name of 2 to 4 characters is one phrase of as many words).
* A **phone number** becomes one token of digits only. A phone number is 7 to 15 digits
  that start with ``+`` or ``00`` or hold a parenthesised group, or else 10 or more digits
  (in a row or in groups), or three or more groups separated by dots or dashes, or groups
  separated by spaces only when they make 10+ digits and end in a group of 4+ digits,
  or five or more pairs starting with a trunk zero (``06 12 34 56 78``)
  ("555 0134", "2023-2024" and "100 200 300 400" stay words). Dates (``2024-05-01``,
  ``01/05/2024``), IPv4 addresses and dotted numbers like ``3.14159`` are not phone numbers.

  **Choice: only the last 9 digits are kept** (a shorter number keeps all its digits).
  The same number is written with a country code (``+1``, ``+44``, ``0049``) or with a
  national trunk prefix (``0``, ``1``) or with neither; what stays the same is its
  national significant number, which has at least 9 digits in most numbering plans
  (US/CA/IN/NG/CN/JP/KR/DE/UK 10-11, FR/ES/IT/NL/PL/CH/AU 9). So ``+1 (415) 555-0134``,
  ``1-415-555-0134`` and ``415.555.0134`` all become ``155550134``; ``+44 20 7946 0958``
  matches ``020 7946 0958``; and ``+33 6 12 34 56 78`` matches ``06 12 34 56 78``, which
  keeping the last 10 digits would miss. The cost: two numbers that differ only before
  their last 9 digits (``212-555-0134`` and ``312-555-0134``) give the same token. For
  R-SAVE-3 that errs on the side of refusing a note that holds a phone number anyway.
  Plans with 8-digit numbers (NO, DK, SG, HK) match only when written the same way.
* Every other character that is not a letter or a digit (punctuation, symbols, ``_``,
  apostrophes, hyphens) becomes a space, and runs of white space collapse to one space.
  So ``O'Brien`` is ``o brien`` and ``Jean-Luc`` is ``jean luc`` on both sides.

``normalize`` is idempotent: ``normalize(normalize(t)) == normalize(t)``.

Word boundaries come from the tokens: phrases are whole tokens joined by one space, so
"ana" never matches inside "banana".
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Iterator

__all__ = [
    "DIGEST_SIZE",
    "EMAIL_RE",
    "MAX_PHRASE_WORDS",
    "normalize",
    "normalize_email",
    "normalize_phone",
    "phrase_digest",
    "phrases",
    "strip_accents",
    "word_tokens",
    "written_without_spaces",
]

DIGEST_SIZE = 16
MAX_PHRASE_WORDS = 4
PHONE_KEEP_DIGITS = 9
PHONE_UNMARKED_MIN_DIGITS = 10
PHONE_MIN_DIGITS = 7
PHONE_MAX_DIGITS = 15

# Letters that NFKD does not split into a base letter and a combining mark.
_FOLD = str.maketrans(
    {
        "ø": "o",
        "Ø": "O",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "þ": "th",
        "Þ": "Th",
        "æ": "ae",
        "Æ": "Ae",
        "œ": "oe",
        "Œ": "Oe",
        "ı": "i",
        "ħ": "h",
        "Ħ": "H",
        "ŧ": "t",
        "Ŧ": "T",
        "ß": "ss",
        "ẞ": "Ss",
    }
)

# An email address: a local part of letters, digits and . _ % + - (not starting or ending
# with a dot), "@", and a domain of at least two labels.
EMAIL_RE = re.compile(
    r"(?<![\w.%+-])"
    r"[\w%+-]+(?:\.[\w%+-]+)*"
    r"@"
    r"[^\W_](?:[\w-]*[^\W_])?(?:\.[^\W_](?:[\w-]*[^\W_])?)+",
)

# A phone number candidate: an optional "+" or "00", then digit groups separated by one
# space, dot, dash or a parenthesised group, then an optional extension ("x22", "ext. 22"),
# which is dropped. Possessive, so that "+1-415-555-0134x22" is not cut short to a prefix.
# Checked further in _phone_digits.
_PHONE_RE = re.compile(
    r"(?<![\w.+])"
    r"(?P<number>"
    r"(?:\+\s?)?"
    r"(?:\(\d{1,5}\)|\d{1,14})"
    r"(?:(?:[ .\-]|\s?\(\d{1,5}\)\s?|[ .\-]?\(\d{1,5}\)[ .\-]?)?\d{1,14})*+"
    r")"
    r"(?:\s?(?:x|ext\.?)\s?\d{1,6})?+"
    r"(?!\w)"
)
_DATE_PATTERN = r"(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})"
_DATE_RE = re.compile(rf"^\s*{_DATE_PATTERN}\s*$")
# Dates (and what follows them directly, like "T10:30") are never read as phone numbers.
_DATE_IN_TEXT_RE = re.compile(rf"(?<![\d\-/.]){_DATE_PATTERN}(?:t[\d:.]+z?)?(?![\d]|[-/.]\d)")
_IPV4_RE = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}$")

_NOT_WORD_RE = re.compile(r"[\W_]+")
# Letters of scripts written without spaces between words (Han, Hiragana, Katakana, Hangul):
# each is a token of its own.
_CJK_RE = re.compile(
    "([\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
    "\uf900-\ufaff\U00020000-\U0003134f])"
)
_EMAIL_TAG_RE = re.compile(r"\+[^@]*(?=@)")


def written_without_spaces(char: str) -> bool:
    """A letter of Han, kana or Hangul, scripts that write no space between words: what comes
    right before or after one may be the next word (the detectors read names and nouns so)."""
    return _CJK_RE.fullmatch(char) is not None
_SPACE_RE = re.compile(r"\s+")


def strip_accents(text: str) -> str:
    """Drop accents and fold the few letters that have no combining form (``ø``, ``ł`` ...).

    Case is kept. ``"Søren Łukasz Müller"`` becomes ``"Soren Lukasz Muller"``.
    """
    text = text.translate(_FOLD)
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", stripped)


def _fold(text: str) -> str:
    """NFKC, strip accents, casefold: letters only changed, no punctuation touched.

    Accents go before casefold (and once more after it), so that the text and its
    accent-free form fold alike: casefold turns Greek "ᾳ" into "αι", while its accent-free
    form is "α".
    """
    return strip_accents(strip_accents(unicodedata.normalize("NFKC", text)).casefold())


def _untagged(email: str) -> str:
    """The address without its sub-address tag: "ana+crm@x.org" is "ana@x.org" (RFC 5233)."""
    local, at, domain = email.partition("@")
    if "+" not in local:
        return email
    untagged = _EMAIL_TAG_RE.sub("", email, count=1)
    return untagged if not untagged.startswith("@") else email


def normalize_email(email: str) -> str:
    """The one-token form of an email address (NFKC, casefold, accents stripped, no +tag)."""
    return _untagged(_fold(email.strip()))


def _phone_digits(candidate: str) -> str | None:
    """The digits of a phone-number candidate, or None when it is not a phone number."""
    stripped = candidate.strip()
    digits = "".join(ch for ch in stripped if ch.isdigit())
    if not PHONE_MIN_DIGITS <= len(digits) <= PHONE_MAX_DIGITS:
        return None
    if _DATE_RE.match(stripped) or _IPV4_RE.match(stripped):
        return None
    groups = [g for g in re.split(r"\D+", stripped) if g]
    marked = stripped.startswith(("+", "00")) or "(" in stripped
    if marked:
        return digits
    # French-style pairs with a trunk zero: "06 12 34 56 78", "06.12.34.56.78".
    if len(groups) >= 5 and groups[0].startswith("0") and all(len(g) == 2 for g in groups):
        return digits
    if len(groups) <= 2 and len(digits) < PHONE_UNMARKED_MIN_DIGITS:
        # A bare run of 7-9 digits is more likely an id or an amount, and "555-0134"
        # or "2023-2024" (a range) stay two words.
        return None
    if all(len(g) == 4 and 1900 <= int(g) <= 2099 for g in groups):
        return None  # a list of years
    if not any(ch in stripped for ch in ".-"):
        # Spaces alone: "415 555 0134" is a phone number, "100 200 300 400" is not.
        if len(digits) < PHONE_UNMARKED_MIN_DIGITS or len(groups[-1]) < 4:
            return None
    elif "." in stripped and "-" not in stripped and " " not in stripped:
        # Dots alone: "415.555.0134" is a phone number; "3.14159" and "1.2.3" are not.
        if len(groups) < 3 or any(len(g) < 2 for g in groups) or len(groups[-1]) < 3:
            return None
    return digits


def normalize_phone(phone: str) -> str:
    """The one-token form of a phone number: its digits, the last 9 when it has more.

    ``"+1 (415) 555-0134"`` and ``"415-555-0134"`` both give ``"155550134"``.
    Raises ValueError when the text is not a phone number (see the module docstring).
    """
    digits = _phone_digits(unicodedata.normalize("NFKC", phone))
    if digits is None:
        raise ValueError(f"not a phone number: {phone!r}")
    return digits[-PHONE_KEEP_DIGITS:]


def _normalize_numbers(text: str) -> str:
    """Fold a stretch holding no email and no date: phones to digits, punctuation to space."""
    out: list[str] = []
    pos = 0
    for match in _PHONE_RE.finditer(text):
        digits = _phone_digits(match.group("number"))
        if digits is None:
            continue
        out.append(_NOT_WORD_RE.sub(" ", text[pos : match.start()]))
        out.append(f" {digits[-PHONE_KEEP_DIGITS:]} ")
        pos = match.end()
    out.append(_NOT_WORD_RE.sub(" ", text[pos:]))
    return "".join(out)


def _normalize_plain(text: str) -> str:
    """Fold a stretch holding no email: dates to words, then phones and punctuation."""
    out: list[str] = []
    pos = 0
    for match in _DATE_IN_TEXT_RE.finditer(text):
        out.append(_normalize_numbers(text[pos : match.start()]))
        date = re.sub(r"(?<=\d)[tz]", " ", match.group(0))  # "2024-05-01t10:30z"
        out.append(f" {_NOT_WORD_RE.sub(' ', date)} ")
        pos = match.end()
    out.append(_normalize_numbers(text[pos:]))
    return _CJK_RE.sub(r" \1 ", "".join(out))


def normalize(text: str) -> str:
    """NFKC, casefold, strip accents, emails kept whole, phones to digits, rest to words.

    Returns lower-case words separated by single spaces, with no space at either end.
    See the module docstring for the exact rules.
    """
    if not text:
        return ""
    folded = _fold(text)
    parts: list[str] = []
    pos = 0
    for match in EMAIL_RE.finditer(folded):
        parts.append(_normalize_plain(folded[pos : match.start()]))
        parts.append(f" {_untagged(match.group(0))} ")
        pos = match.end()
    parts.append(_normalize_plain(folded[pos:]))
    return _SPACE_RE.sub(" ", "".join(parts)).strip()


def word_tokens(text: str) -> list[str]:
    """The normalised words of ``text`` (an email or a phone number is one token)."""
    normalized = normalize(text)
    return normalized.split(" ") if normalized else []


def phrases(tokens: Iterable[str], max_words: int = MAX_PHRASE_WORDS) -> Iterator[str]:
    """Every run of 1 to ``max_words`` consecutive tokens, joined by one space.

    Yields in order of start position, shortest first: for ``["ana", "maria", "lopez"]``:
    ``"ana"``, ``"ana maria"``, ``"ana maria lopez"``, ``"maria"``, ``"maria lopez"``,
    ``"lopez"``. Duplicates are not removed (callers usually build a set).
    """
    if max_words < 1:
        raise ValueError("max_words must be at least 1")
    toks = [t for t in tokens if t]
    n = len(toks)
    for i in range(n):
        for j in range(i + 1, min(i + max_words, n) + 1):
            yield " ".join(toks[i:j])


def phrase_digest(phrase: str, key: bytes) -> bytes:
    """Keyed BLAKE2b of a phrase, 16 bytes: what the index stores instead of the phrase.

    The phrase is hashed exactly as given (UTF-8); pass phrases made by :func:`phrases`
    from :func:`word_tokens`. ``key`` is a secret of 1 to 64 bytes, the same for the
    index and for the look-up.
    """
    if not isinstance(key, (bytes, bytearray)):
        raise TypeError("key must be bytes")
    if not 1 <= len(key) <= hashlib.blake2b.MAX_KEY_SIZE:
        raise ValueError("key must be 1 to 64 bytes")
    return hashlib.blake2b(phrase.encode("utf-8"), digest_size=DIGEST_SIZE, key=bytes(key)).digest()
