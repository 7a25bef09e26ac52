"""Credentials that no "is" or ":" joins to their name, or that no word names (R-SAVE-2, issue
18, fifteenth session; found probing how a data team hands a credential over, no outside case
read):

* a password a few words after its noun ("the password for the wifi X", "creds: etl_admin X",
  "login details - etl / X"), in eleven languages: the value must hold letters, digits and a mark
  identifiers do not, and the noun must name the credential (the word after it joins);
* a key or a token a few words after its noun ("new token for the CI bot X", "clé API : X"): the
  value must read as generated key material, and no word between may name it an id;
* a password no word names ("Vx7!pq2Lm9" alone): a word drawn as a password policy asks.

Split from secret_bare.py, which reads passwords in prose joined to their words.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import ahocorasick

from memories.refusals.people_lexicon import english_words
from memories.refusals.phrases import written_without_spaces
from memories.refusals.secret_assignments import NOT_CREDENTIAL_QUALIFIERS
from memories.refusals.secret_bare import _EMAIL_RE
from memories.refusals.secret_context import _DATA_KEY_WORDS
from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_products import product_word
from memories.refusals.secret_random import _context_names_an_id, _encodes_plain_text
from memories.refusals.secret_stand_ins import (
    _is_non_secret_value,
)
from memories.refusals.secret_values import (
    _HEX_RE,
    POLICY_SWITCHES,
    _char_classes,
    _compile,
    _looks_random,
    class_switches,
    up_to_a_note,
)
from memories.refusals.wordlists import entries, words

__all__ = ["find_keys_near_nouns", "find_marked_near_nouns", "find_policy_shaped_passwords"]


# --- A value only a password looks like, a few words after a credential's noun --------------

# "the password for the wifi Kaffee#2024x", "creds: etl_admin Vx7!pq2Lm9", "login details - etl /
# Tr0ub4dor&3", "use this to log in: X": no "is" or ":" joins the noun to the value, so the value
# must carry the proof itself: letters, digits and a mark that identifiers, versions and file
# names do not hold ("#", "!", "$", "%", "&", "*", "?", "~", "^") inside it. The noun must name
# the credential: the word after it joins (data/secrets_credential_noun_joiners.txt) or is
# punctuation; "the login page shows Error#500" names a page.
_NEAR_NOUN_RE = _compile(
    r"(?<![\w])(?:password|passwort|passphrase|passcode|pw|pwd|pass|creds|credentials"
    r"|log\s*-?\s*in|sign\s*-?\s*in|logon"
    # The same nouns in the languages "password is" is read in (secret_prose._PASSWORD_WORDS).
    r"|kennwort|contrase(?:ñ|n)a|senha|mot\s+de\s+passe|wachtwoord|has(?:ł|l)o|parola|l(?:ö|o)senord"
    r"|adgangskode|salasana|heslo|jelsz(?:ó|o)|пароль|zugangsdaten|anmeldedaten|identifiants"
    r"|credenciales|credenciais|credenziali)(?![\w])"
)
_NOUN_JOINERS = words("secrets_credential_noun_joiners")
_REFERENCE_NOUNS = words("secrets_reference_nouns")  # "template TPL-2024#03": a thing's name
_NEAR_WORDS = 7  # words looked at after the noun, within its sentence
_NEAR_CHARS = 120
_SENTENCE_END_RE = _compile(r"\n|[.;!?](?:\s|$)")
_WORD_RE = _compile(r"\S+")
_MARKS = "!#$%&*?~^"
_PASSWORD_MARKS = frozenset(_MARKS)
_MARK_CLASS = "[" + re.escape(_MARKS) + "]"
_MARK_RE = _compile(_MARK_CLASS)
_ANY_MARK_RE = _compile(r"[!#$%&*?~^@.+\-_;,|:()\[\]{}<>]")
_EDGE_PUNCTUATION = "\"'`()[]{}<>,:;.：，、；（）「」"
# "issue#1234", "INC#20231", "data_*2024.csv", "DATA-1234#section2", "setup.sh#L376-L382":
# references, globs, anchors (an anchor's name is written in small letters, or a line's "L12";
# "Kq7#mPx2" mixes cases as no anchor does), a class's method ("Attribute#hashCode").
_REFERENCE_RE = _compile(r"(?:[a-z]+|[A-Z]+)#\d+|[\w.\-]*\*[\w.\-*]*"
                         r"|[^#]+#(?:[a-z][a-z0-9]*(?:[\-_][a-z0-9]+)*|L\d+(?:-L\d+)?)"
                         r"|[\w.\-]*[a-z]{2}[\w.\-]*#[a-z]{2,}\w*")  # "PKCS12Attribute#hashCode": a method


def _marked_password(value: str) -> bool:
    if not 8 <= len(value) <= 64 or "/" in value or "\\" in value or "=" in value:
        return False
    if not any(c.isalpha() for c in value) or not any(c.isdigit() for c in value):
        return False
    if not any(c in _PASSWORD_MARKS for c in value[1:-1]) or _REFERENCE_RE.fullmatch(value):
        return False
    return not _EMAIL_RE.match(value) and not _is_non_secret_value(value)


# Or another mark a password policy takes ("@", ".", "+", "-", "_", ";", …) inside a word drawn as
# the policy asks (capitals, small letters, digits, switching often; no word of English in it):
# "the password for the wifi Kq7@mPx2w9". Names joined by such marks ("etl_admin", "v2.3.1-rc1",
# "Data.Frame2") are no such draw.
_OTHER_MARKS = frozenset("@.+-_;,|:()[]{}<>")


def _punctuated_password(value: str) -> bool:
    if not 8 <= len(value) <= 64 or "/" in value or "\\" in value or "=" in value or _EMAIL_RE.match(value):
        return False
    return _drawn_as_policy_asks(value, _OTHER_MARKS)


def _marked_or_punctuated_password(value: str) -> bool:
    return _marked_password(value) or _punctuated_password(value)


def _noun_names_credential(tail: str) -> bool:
    first = _WORD_RE.search(tail)
    if first is None or not first.group()[0].isalnum():
        return True  # ": X", "- etl / X", "→ X", "'s X"
    return first.group().lower().rstrip(",:") in _NOUN_JOINERS


def _sentence_after(text: str, position: int) -> str:
    """What follows ``position`` in its sentence, up to _NEAR_CHARS characters."""
    limit = position + _NEAR_CHARS
    stop = _SENTENCE_END_RE.search(text, position, limit)
    return text[position:stop.start() if stop else limit]


def _value_after(tail: str, accept: Callable[[str], bool]) -> tuple[str, int] | None:
    """The first of the words after a noun that ``accept`` takes, and where it starts in ``tail``;
    None when none of the first _NEAR_WORDS is, or a word naming a thing comes right before it
    ("template TPL-2024#03")."""
    previous = ""
    for count, word in enumerate(_WORD_RE.finditer(tail)):
        if count >= _NEAR_WORDS:
            return None
        value = word.group().strip(_EDGE_PUNCTUATION)
        if not value or not accept(value):
            previous = value.lower()
            continue
        if previous in _REFERENCE_NOUNS:
            return None
        return value, word.start() + word.group().find(value)
    return None


def find_marked_near_nouns(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    for noun in _NEAR_NOUN_RE.finditer(lowered):
        if _ANY_MARK_RE.search(text, noun.end(), noun.end() + _NEAR_CHARS) is None:
            continue  # no mark after the noun: most nouns
        tail = _sentence_after(text, noun.end())
        if (not _noun_names_credential(tail)
                or (found := _value_after(tail, _marked_or_punctuated_password)) is None):
            continue
        value, offset = found
        start = noun.end() + offset
        if not _overlaps(taken, start, start + len(value)):
            yield "password_in_prose", start, start + len(value), 66


# --- A password with no words around it at all ----------------------------------------------

# "Vx7!pq2Lm9" alone, "jenkins Vx7!pq2Lm9", "prod db: etl_admin Vx7!pq2Lm9": a run drawn the way a
# password policy asks (capitals, small letters, digits and a mark inside), switching between
# them again and again, and not made of words ("Snowflake&Prod-2024", "Job#42Retry") or of an
# abbreviation's "&" ("M&A-Q3Plan2", "H&M2024Spring"). Nothing else writes such a run.
# A word as spaces set it apart (a piece of a longer one is no password) that holds a mark.
_MARKED_WORD_RE = _compile(r"(?<!\S)\S*" + _MARK_CLASS + r"\S*")
_EDGES = _EDGE_PUNCTUATION + "!?*_~"  # and a sentence's end, and Markdown's marks around a word
_NOT_IN_STRONG = frozenset("/\\=:@.,;+|\"'`()[]{}<>")
_ABBREVIATION_AMPERSAND_RE = _compile(r"[A-Z]&[A-Z]")
_LETTER_RUN_RE = _compile(r"[A-Za-z]{3,}")
def _drawn_as_policy_asks(value: str, marks: frozenset[str]) -> bool:
    """Capitals, small letters, digits and one of ``marks`` inside, switching between them
    often, and not made of English words ("Snowflake&Prod-2024", "Job#42Retry")."""
    if not any(c in marks for c in value[1:-1]) or _char_classes(value) < 4:
        return False
    if class_switches(value) < POLICY_SWITCHES:
        return False
    letters = sum(c.isalpha() for c in value)
    worded = sum(len(run) for run in _LETTER_RUN_RE.findall(value) if run.lower() in english_words())
    return worded * 2 < letters and not _is_non_secret_value(value)


def _policy_shaped(value: str) -> bool:
    if not value.isascii() or any(c in _NOT_IN_STRONG for c in value):
        return False
    if _ABBREVIATION_AMPERSAND_RE.search(value) or _REFERENCE_RE.fullmatch(value):
        return False
    return _drawn_as_policy_asks(value, _PASSWORD_MARKS)


def find_policy_shaped_passwords(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    if not any(mark in text for mark in _PASSWORD_MARKS):
        return
    for word in _MARKED_WORD_RE.finditer(text):
        value = word.group().strip(_EDGES)
        if not 8 <= len(value) <= 40 or not _policy_shaped(value):
            continue
        start = word.start() + word.group().find(value)
        if not _overlaps(taken, start, start + len(value)):
            yield "password_shaped", start, start + len(value), 40


# --- A key a few words after its noun ------------------------------------------------------

# "new token for the CI bot X", "the stripe key for staging X", "mailgun api key (prod) X", "token
# rotated, new value X": as for a password above, nothing joins noun and value, so the value must
# read as generated key material (the bar "api_key=" sets) and not be named an id by the words
# between ("the token for run 7c2f…"). A bare "key" counts after a product's name only ("stripe
# key"; "the sort key for events_2024" is a key of data).
_KEY_NOUN_RE = _compile(r"key|token|secret")
_QUALIFIER_BEFORE_RE = _compile(r"(?:api|access|secret|app|private|signing|auth|bearer)[ \-_]?$")
_PRODUCT_BEFORE_RE = _compile(r"(?<![\w\-])([a-z][a-z0-9]{3,23})[ \-_]$")
# The same nouns in the languages passwords are read in ("API-Schlüssel", "clé API", "clave de
# acceso", "токен", "APIキー"; data/secrets_key_nouns_other_languages.txt); no assignment rule
# knows them, so a value right after their sign counts too ("clé API : X"). A space in a noun
# also matches a hyphen or nothing ("API-nyckel", "APIキー").
_OTHER_KEY_NOUNS = entries("secrets_key_nouns_other_languages")
_OTHER_KEY_NOUN_RE = _compile("|".join(
    r"[ \-]?".join(map(re.escape, noun.split())) for noun in sorted(_OTHER_KEY_NOUNS, key=len, reverse=True)))
_KEY_VALUE_RE = _compile(r"[A-Za-z0-9_\-+/=]" + up_to_a_note(16) + r"")
_JOINED_RE = _compile(r"\s*(?:[:=]|(?:is|was)(?!\w))")
_WORD_BEFORE_NOUN_RE = _compile(r"([a-z]+)[ \t_\-]+$")
_DATA_KEYS = _DATA_KEY_WORDS | NOT_CREDENTIAL_QUALIFIERS
# The nouns themselves (a space also as a hyphen or nothing), found in one pass: most notes hold
# none, and the expression is not searched ("api" or "token" alone would open it for most notes).
_OTHER_KEY_NOUN_HINTS = ahocorasick.Automaton()
for _noun in _OTHER_KEY_NOUNS:
    for _written in {_noun, _noun.replace(" ", "-"), _noun.replace(" ", "")}:
        _OTHER_KEY_NOUN_HINTS.add_word(_written, _written)
_OTHER_KEY_NOUN_HINTS.make_automaton()


def find_keys_near_nouns(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    if "key" in lowered or "token" in lowered or "secret" in lowered:
        yield from _keys_after(text, lowered, taken, _KEY_NOUN_RE.finditer(lowered), joined_ok=False)
    if next(_OTHER_KEY_NOUN_HINTS.iter(lowered), None) is not None:
        yield from _keys_after(text, lowered, taken, _OTHER_KEY_NOUN_RE.finditer(lowered), joined_ok=True)


def _keys_after(text: str, lowered: str, taken: Spans, nouns: Iterator[re.Match], *,
                joined_ok: bool) -> Iterator[Candidate]:
    for noun in nouns:
        begin = noun.start()
        after = lowered[noun.end():noun.end() + 1]
        if after and (after.isalnum() or after in "_-") and not written_without_spaces(after):
            continue  # inside a word or a name ("tokenizer", "secret_santa"); CJK writes no spaces
        qualifier = None if joined_ok else _QUALIFIER_BEFORE_RE.search(lowered, max(0, begin - 9), begin)
        if qualifier is not None:
            begin = qualifier.start()  # "api key", "access_token", "apikey"
        before = lowered[begin - 1:begin]
        if before and (before.isalnum() or before in "_-") and not written_without_spaces(before):
            continue  # inside a word or a name ("monkey", "db_token")
        if noun.group() == "key" and qualifier is None and not joined_ok:
            product = _PRODUCT_BEFORE_RE.search(lowered, max(0, begin - 25), begin)
            if product is None or not product_word(product.group(1)):
                continue
        if _KEY_VALUE_RE.search(text, noun.end(), noun.end() + _NEAR_CHARS) is None:
            continue  # no run long enough for a key: most nouns
        tail = _sentence_after(text, noun.end())
        if not joined_ok and _JOINED_RE.match(tail):
            continue  # "secret: …", "token is …": the assignment rules' (secret_context)
        word_before = _WORD_BEFORE_NOUN_RE.search(lowered, max(0, begin - 30), begin)
        if word_before is not None and word_before.group(1) in _DATA_KEYS:
            continue  # "next page token …", "sort key …", "cache key …": a key of data
        first = _WORD_RE.search(tail)
        if first is None or not (_noun_names_credential(tail) or _KEY_VALUE_RE.fullmatch(first.group())):
            continue  # the noun names something else, unless the key itself follows ("APIキー X")
        if (found := _value_after(tail, _key_material)) is None:
            continue
        value, offset = found
        start = noun.end() + offset
        line_start = lowered.rfind("\n", 0, noun.start()) + 1
        if _context_names_an_id(lowered, start, hex_value=_HEX_RE.fullmatch(value) is not None,
                                since=line_start, named=True):
            continue  # "the idempotency token for run 7c2f…"
        if not _overlaps(taken, start, start + len(value)):
            yield "generic_secret", start, start + len(value), 64


def _key_material(value: str) -> bool:
    return (len(value) >= 16 and _KEY_VALUE_RE.fullmatch(value) is not None
            and _looks_random(value, with_keyword=True) and not _is_non_secret_value(value)
            and not _encodes_plain_text(value))
