"""Passwords in prose with no label word right before the value (R-SAVE-2): the words around it
say it is a password, so the value itself must look like one: long enough, mixing letters with
digits or symbols, not a word, an identifier of words, a version, an e-mail or a path.

* "reset the shared mailbox password to X", "use X for the admin login", "the login for the VPN
  is X" (issue 18), "wifi key: X", "log in as admin with X", "sign in with ana@… and X";
* the value first: "X is the root password", "Tr0ub4dor&3 was our admin pw";
* "the new one": "my password expired, the new one is X";
* a passphrase of words: "keystore passphrase: correct horse battery staple" (four to eight
  words, none of them a word of talk about passwords), an unlock or secret phrase too;
* nothing joining noun and value ("the password for the wifi X", "creds: etl_admin X"): a value
  only a password looks like, a few words after a noun that names the credential; the same for a
  key or a token ("new token for the CI bot X") whose value reads as generated key material;
* no word at all: a word drawn as a password policy asks ("Vx7!pq2Lm9").
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from memories.refusals.people_lexicon import english_words
from memories.refusals.secret_assignments import NOT_CREDENTIAL_QUALIFIERS
from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_products import product_word
from memories.refusals.secret_prose import _QUOTED_VALUE, _tail_value
from memories.refusals.secret_random import _context_names_an_id, _encodes_plain_text
from memories.refusals.secret_values import (
    _COMMON_WORDS,
    _DATE_LIKE_RE,
    _HEX_RE,
    _VERSION_RE,
    _char_classes,
    _compile,
    _is_identifier_of_words,
    _is_non_secret_value,
    _looks_random,
)
from memories.refusals.wordlists import words

_BARE_VALUE = r"(?:" + _QUOTED_VALUE + r"|(?P<val>[^\s\"'`]{6,64}))"
# The last word after "use X for/to/as ...": what one does with a password, not where.
_LOGIN_NOUNS = (
    r"log\s*-?\s*in|logon|sign\s*-?\s*in|password|passwort|passphrase|passcode|pw|pwd|credentials?"
)
_SET_TO_RE = _compile(  # "reset/set/change the shared mailbox password to X"
    r"(?:re)?set|chang(?:e|ed|ing)|updat(?:e|ed|ing)|rotat(?:e|ed|ing)"
)
_SET_TO_TAIL_RE = _compile(
    r"(?:\s+(?:the|our|my|your|its|their|a|an))?(?:\s+[\w.@'\-]{1,30}){0,3}?"
    r"\s+(?:password|passwort|passphrase|passcode|pw|pwd|pin|login|credentials?)"
    r"(?:\s+(?:for|of|on)(?:\s+[\w.@'\-]{1,30}){1,3}?)?"
    r"\s+(?:to|as|into)\s+(?:be\s+)?" + _BARE_VALUE,
    re.IGNORECASE,
)
_USE_RE = _compile(r"(?:use|try|enter|type)\s+")  # "use X for the admin login"
_USE_TAIL_RE = _compile(
    _BARE_VALUE + r"\s+(?:for|to|as|on|at|when)\s+(?:the|our|my|your|a|an)?\s*"
    r"(?:[\w.@'\-]{1,30}\s+){0,3}?(?:" + _LOGIN_NOUNS + r")(?![A-Za-z])",
    re.IGNORECASE,
)
_LOGIN_IS_RE = _compile(  # "the login for the VPN is X", "VPN login is X"
    r"(?:login|log-in|sign-in|logon|access code|door code|gate code|unlock code|wifi key|wi-fi key"
    r"|network key|secret word|safe word|safeword)"
)
_LOGIN_IS_TAIL_RE = _compile(
    r"(?:\s+(?:for|of|on|to)(?:\s+[\w.@'\-]{1,30}){1,4}?)?"
    r"\s+(?:is|was|is\s+now|=)\s+" + _BARE_VALUE,
    re.IGNORECASE,
)
# A key that is a password by its name, after ":" too ("wifi key: Kaffee2024"); a login's ":" is
# often followed by the user name ("login: jsmith01"), so it is not here.
_KEY_LABEL_RE = _compile(r"(?:access code|door code|wifi key|wi-fi key|wlan key|wpa2? key|network key)")
_KEY_LABEL_TAIL_RE = _compile(r"\s*[:=]\s*" + _BARE_VALUE)
# "log in with X", "sign in as admin with X", "sign in with ana@example.com and X".
_LOG_IN_WITH_RE = _compile(r"(?:log\s*-?\s*in|sign\s*-?\s*in|logon|authenticate)")
_LOG_IN_WITH_TAIL_RE = _compile(
    r"(?:\s+(?:as|to)(?:\s+[\w.@'\-]{1,40}){1,3}?)?\s+(?:with|using)\s+"
    r"(?:[\w.+\-]+@[\w.\-]+\s+(?:and|\+|/)\s+|(?:the\s+)?password\s+)?" + _BARE_VALUE,
    re.IGNORECASE,
)
_EMAIL_RE = _compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
_PASSWORD_WORD_RE = _compile(r"(?<![\w])(?:password|passwort|passphrase|passcode)(?![\w\-])")


def _password_shaped(value: str, *, quoted: bool) -> bool:
    """A password with no label next to it: mixed classes, not a word, id, version or path."""
    value = value.rstrip(".,;:!?)") if not quoted else value
    if len(value) < 6 or " " in value or _is_non_secret_value(value):
        return False
    if _EMAIL_RE.match(value) or _VERSION_RE.fullmatch(value) or _DATE_LIKE_RE.fullmatch(value):
        return False
    if value.isdigit() or (value.isalpha() and not quoted):
        return False
    if len(value) < 8 and not quoted:
        return False  # "Node-18", "Java21": a product and its version
    if _char_classes(value) < 2:
        return False
    if not any(c.isupper() for c in value) and _is_identifier_of_words(value):
        return False  # "orders-v2-hotfix", "release_2024"
    if "/" in value or "\\" in value:
        return False
    return True


def _bare_value(match: re.Match, taken: Spans, *, classes: int = 2) -> Iterator[Candidate]:
    """The value a tail pattern matched, when it is shaped like a password (an unquoted one
    without the sentence's closing punctuation) of at least ``classes`` kinds of characters."""
    value, start, end, quoted = _tail_value(match)
    if not quoted:
        value = value.rstrip(".,;:!?)")
        end = start + len(value)
    if (not _overlaps(taken, start, end) and _password_shaped(value, quoted=quoted)
            and _char_classes(value) >= classes):
        yield "password_in_prose", start, end, 66


# (words one of which the note must hold, where the words are, what follows them, how many kinds
# of characters the value mixes): a product after "sign in with" ("ORCID-ID", "Azure-AD") mixes two.
_LOGIN_HINTS = ("pass", "pw", "pin", "log", "sign", "credential")
_BARE_FINDERS = (
    (_LOGIN_HINTS, _SET_TO_RE, _SET_TO_TAIL_RE, 2),
    (_LOGIN_HINTS, _USE_RE, _USE_TAIL_RE, 2),
    (("log", "sign", "code", "key", "word"), _LOGIN_IS_RE, _LOGIN_IS_TAIL_RE, 2),
    (("key", "code"), _KEY_LABEL_RE, _KEY_LABEL_TAIL_RE, 3),
    (("log", "sign", "authenticate"), _LOG_IN_WITH_RE, _LOG_IN_WITH_TAIL_RE, 3),
)


def _find_bare_passwords(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    for hints, finder, tail, classes in _BARE_FINDERS:
        if not any(hint in lowered for hint in hints):
            continue  # none of the words the tail needs: most notes, at the cost of a few "in"s
        for core in finder.finditer(lowered):
            if core.start() and (lowered[core.start() - 1].isalnum() or lowered[core.start() - 1] == "_"):
                continue  # inside a word; tested here, not by a lookbehind, which slows re's scan
            match = tail.match(text, core.end())
            if match is not None:
                yield from _bare_value(match, taken, classes=classes)
    yield from _later_colon_values(text, lowered, taken)
    yield from _find_marked_near_nouns(text, lowered, taken)


# "The password for the staging db is the same as prod: Xk9#mP2q": a ":" later in the sentence
# that names the password; the value must mix three kinds of characters ("policy: 12 chars" is no
# password).
_LATER_COLON_RE = _compile(r"[^.!?\n]{0,60}?:\s+(?P<val>[^\s\"'`]{8,64})")


def _later_colon_values(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    for core in _PASSWORD_WORD_RE.finditer(lowered):
        match = _LATER_COLON_RE.match(text, core.end())
        if match is None:
            continue
        value = match.group("val").rstrip(".,;!?)")
        start, end = match.start("val"), match.start("val") + len(value)
        if _char_classes(value) >= 3 and not _overlaps(taken, start, end) and _password_shaped(value, quoted=False):
            yield "password_in_prose", start, end, 66


# --- The value first, "the new one", a passphrase of words --------------------------------

_PASSWORD_NOUNS = r"(?:password|passwort|passphrase|passcode|pw|pwd)"
# "Tr0ub4dor&3 is the root password", "X was our admin pw": found from "is the … password" back.
_NAMED_AFTER_RE = _compile(
    r"\s(?:is|was|=)\s+(?:the|our|my|your|their|its)(?:\s+[\w.@'\-]{1,30}){0,3}?\s+" + _PASSWORD_NOUNS
    + r"(?![\w\-])"
)
_VALUE_BEFORE_RE = _compile(r"(?:(?<![^\s(\[{])(?P<val>[^\s\"'`]{6,64})|" + _QUOTED_VALUE + r")\s*$")
_NEW_ONE_RE = _compile(r"(?<![\w])(?:the\s+)?new\s+one")  # "…password expired, the new one is X"
_NEW_ONE_TAIL_RE = _compile(r"\s*(?::|=|\s+is(?:\s+now)?\s+|\s+will\s+be\s+)\s*" + _BARE_VALUE)
_PASSWORD_BEFORE_RE = _compile(r"(?<![\w])" + _PASSWORD_NOUNS + r"(?![\w\-])")
_PASSPHRASE_RE = _compile(  # "keystore passphrase: correct horse battery staple"
    r"(?<![\w])(?:passphrase|pass\s+phrase|unlock\s+phrase|secret\s+phrase)\s*(?::|=|\s+is)\s*"
    r"(?P<val>[a-z]{3,12}(?:[ \-][a-z]{3,12}){3,7})(?=\s*(?:[.;,!\n]|$))"
)
# Words of talk about a passphrase, not of one: "see the vault entry", "same as last year". A
# passphrase may hold one word of talk ("correct horse battery staple"), not a function word.
_FUNCTION_WORDS = words("people_function_words")


def _find_value_first_passwords(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    if "phrase" in lowered:
        yield from _passphrases(lowered, taken)
    if _PASSWORD_BEFORE_RE.search(lowered) is None:
        return
    for core in _NAMED_AFTER_RE.finditer(lowered):
        match = _VALUE_BEFORE_RE.search(text, max(0, core.start() - 140), core.start())
        if match is None:
            continue
        value, start, end, quoted = _tail_value(match)
        if not _overlaps(taken, start, end) and _password_shaped(value, quoted=quoted):
            yield "password_in_prose", start, end, 66
    for core in _NEW_ONE_RE.finditer(lowered):
        if _PASSWORD_BEFORE_RE.search(lowered, max(0, core.start() - 80), core.start()) is None:
            continue
        match = _NEW_ONE_TAIL_RE.match(text, core.end())
        if match is not None:
            yield from _bare_value(match, taken)


def _passphrases(lowered: str, taken: Spans) -> Iterator[Candidate]:
    for match in _PASSPHRASE_RE.finditer(lowered):
        start, end = match.span("val")
        phrase = re.split(r"[ \-]", match.group("val"))
        if any(word in _FUNCTION_WORDS for word in phrase) or sum(word in _COMMON_WORDS for word in phrase) > 1:
            continue
        if not _overlaps(taken, start, end):
            yield "password_in_prose", start, end, 66


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
_PASSWORD_MARKS = frozenset("!#$%&*?~^")
_MARK_RE = _compile(r"[!#$%&*?~^]")
_EDGE_PUNCTUATION = "\"'`()[]{}<>,:;."
# "issue#1234", "INC#20231", "data_*2024.csv", "DATA-1234#section2": references, globs, anchors.
_REFERENCE_RE = _compile(r"(?:[a-z]+|[A-Z]+)#\d+|[\w.\-]*\*[\w.\-*]*|[^#]+#[A-Za-z][\w\-]*")


def _marked_password(value: str) -> bool:
    if not 8 <= len(value) <= 64 or "/" in value or "\\" in value or "=" in value:
        return False
    if not any(c.isalpha() for c in value) or not any(c.isdigit() for c in value):
        return False
    if not any(c in _PASSWORD_MARKS for c in value[1:-1]) or _REFERENCE_RE.fullmatch(value):
        return False
    return not _EMAIL_RE.match(value) and not _is_non_secret_value(value)


def _noun_names_credential(tail: str) -> bool:
    first = _WORD_RE.search(tail)
    if first is None or not first.group()[0].isalnum():
        return True  # ": X", "- etl / X", "→ X", "'s X"
    return first.group().lower().rstrip(",:") in _NOUN_JOINERS


def _find_marked_near_nouns(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    if not any(mark in text for mark in _PASSWORD_MARKS):
        return
    for noun in _NEAR_NOUN_RE.finditer(lowered):
        limit = noun.end() + _NEAR_CHARS
        if _MARK_RE.search(text, noun.end(), limit) is None:
            continue  # no mark after the noun: most nouns
        stop = _SENTENCE_END_RE.search(text, noun.end(), limit)
        tail = text[noun.end():stop.start() if stop else limit]
        if not _noun_names_credential(tail):
            continue
        previous = ""
        for count, word in enumerate(_WORD_RE.finditer(tail)):
            if count >= _NEAR_WORDS:
                break
            value = word.group().strip(_EDGE_PUNCTUATION)
            if not value or not _marked_password(value):
                previous = value.lower()
                continue
            if previous in _REFERENCE_NOUNS:
                break
            start = noun.end() + word.start() + word.group().find(value)
            if not _overlaps(taken, start, start + len(value)):
                yield "password_in_prose", start, start + len(value), 66
            break


# --- A password with no words around it at all ----------------------------------------------

# "Vx7!pq2Lm9" alone, "jenkins Vx7!pq2Lm9", "prod db: etl_admin Vx7!pq2Lm9": a run drawn the way a
# password policy asks (capitals, small letters, digits and a mark inside), switching between
# them again and again, and not made of words ("Snowflake&Prod-2024", "Job#42Retry") or of an
# abbreviation's "&" ("M&A-Q3Plan2", "H&M2024Spring"). Nothing else writes such a run.
# A word as spaces set it apart (a piece of a longer one is no password) that holds a mark.
_MARKED_WORD_RE = _compile(r"(?<!\S)\S*[!#$%&*?~^]\S*")
_EDGES = "\"'`()[]{}<>,;:.!?*_~"  # and Markdown's marks around a word
_NOT_IN_STRONG = frozenset("/\\=:@.,;+|\"'`()[]{}<>")
_ABBREVIATION_AMPERSAND_RE = _compile(r"[A-Z]&[A-Z]")
_LETTER_RUN_RE = _compile(r"[A-Za-z]{3,}")
_MIN_SWITCHES = 6  # "Error#500" switches 3 times, "Tr0ub4dor&3x" 8, "Vx7!pq2Lm9" 9


def _kind_of(char: str) -> int:
    return 0 if char.isupper() else 1 if char.islower() else 2 if char.isdigit() else 3


def _policy_shaped(value: str) -> bool:
    if not value.isascii() or any(c in _NOT_IN_STRONG for c in value):
        return False
    if not any(c in _PASSWORD_MARKS for c in value[1:-1]) or _char_classes(value) < 4:
        return False
    if sum(_kind_of(a) != _kind_of(b) for a, b in zip(value, value[1:])) < _MIN_SWITCHES:
        return False
    if _ABBREVIATION_AMPERSAND_RE.search(value) or _REFERENCE_RE.fullmatch(value):
        return False
    letters = sum(c.isalpha() for c in value)
    worded = sum(len(run) for run in _LETTER_RUN_RE.findall(value) if run.lower() in english_words())
    return worded * 2 < letters and not _is_non_secret_value(value)


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
_KEY_NOUN_RE = _compile(
    r"(?:(?P<qualifier>api|access|secret|app|private|signing|auth|bearer)[ \-_]?)?(?:key|token)|secret"
)
_PRODUCT_BEFORE_RE = _compile(r"(?<![\w\-])([a-z][a-z0-9]{3,23})[ \-_]$")
# The same nouns in the languages passwords are read in ("API-Schlüssel", "clé API", "clave de
# acceso", "токен", "APIキー"); no assignment rule knows them, so a value right after their sign
# counts too ("clé API : X").
_OTHER_KEY_NOUN_RE = _compile(
    r"api[ \-]?schlüssel|zugangs(?:schlüssel|token)|cl[ée] (?:d'|de l'|de )?(?:api|acc[eè]s)|jeton(?: d'(?:acc[eè]s|api))?"
    r"|clave (?:de )?(?:api|acceso)|chave (?:da |de )?(?:api|acesso)|chiave (?:di )?(?:api|accesso)|api[ \-]?sleutel"
    r"|toegangs(?:sleutel|token)|api[ \-]?nyckel|åtkomst(?:nyckel|token)|klucz (?:api|dostępu)|ключ (?:api|доступа)"
    r"|токен(?: доступа)?|api ?キー|アクセストークン|api ?密[钥鑰]|访问令牌|令牌|api ?키|액세스 ?토큰"
)
_KEY_VALUE_RE = _compile(r"[A-Za-z0-9_\-+/=]{16,256}")
_JOINED_RE = _compile(r"\s*(?:[:=]|(?:is|was)(?!\w))")
_WORD_BEFORE_NOUN_RE = _compile(r"([a-z]+)[ \t_\-]+$")
_DATA_KEY_WORDS = words("secrets_data_key_words")


def find_keys_near_nouns(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    if "key" in lowered or "token" in lowered or "secret" in lowered:
        yield from _keys_after(text, lowered, taken, _KEY_NOUN_RE.finditer(lowered), joined_ok=False)
    if not lowered.isascii() or "api" in lowered or "cl" in lowered or "jeton" in lowered:
        yield from _keys_after(text, lowered, taken, _OTHER_KEY_NOUN_RE.finditer(lowered), joined_ok=True)


def _keys_after(text: str, lowered: str, taken: Spans, nouns: Iterator[re.Match], *,
                joined_ok: bool) -> Iterator[Candidate]:
    for noun in nouns:
        before, after = lowered[noun.start() - 1:noun.start()], lowered[noun.end():noun.end() + 1]
        if (before and (before.isalnum() or before in "_-")) or (after and (after.isalnum() or after in "_-")):
            continue  # inside a word or a name ("monkey", "tokenizer", "secret_santa")
        if noun.group() == "key" and not joined_ok:
            product = _PRODUCT_BEFORE_RE.search(lowered, max(0, noun.start() - 25), noun.start())
            if product is None or not product_word(product.group(1)):
                continue
        limit = noun.end() + _NEAR_CHARS
        if _KEY_VALUE_RE.search(text, noun.end(), limit) is None:
            continue  # no run long enough for a key: most nouns
        stop = _SENTENCE_END_RE.search(text, noun.end(), limit)
        tail = text[noun.end():stop.start() if stop else limit]
        if not joined_ok and _JOINED_RE.match(tail):
            continue  # "secret: …", "token is …": the assignment rules' (secret_context)
        word_before = _WORD_BEFORE_NOUN_RE.search(lowered, max(0, noun.start() - 30), noun.start())
        if word_before is not None and word_before.group(1) in _DATA_KEY_WORDS | NOT_CREDENTIAL_QUALIFIERS:
            continue  # "next page token …", "sort key …", "cache key …": a key of data
        first = _WORD_RE.search(tail)
        if first is None or not (_noun_names_credential(tail) or _KEY_VALUE_RE.fullmatch(first.group())):
            continue  # the noun names something else, unless the key itself follows ("APIキー X")
        line_start = lowered.rfind("\n", 0, noun.start()) + 1
        previous = ""
        for count, word in enumerate(_WORD_RE.finditer(tail)):
            if count >= _NEAR_WORDS:
                break
            value = word.group().strip(_EDGE_PUNCTUATION)
            run = _KEY_VALUE_RE.fullmatch(value) if len(value) >= 16 else None
            if (run is None or not _looks_random(value, with_keyword=True) or _is_non_secret_value(value)
                    or _encodes_plain_text(value)):
                previous = value.lower()
                continue
            start = noun.end() + word.start() + word.group().find(value)
            if previous in _REFERENCE_NOUNS or _context_names_an_id(
                    lowered, start, hex_value=_HEX_RE.fullmatch(value) is not None, since=line_start, named=True):
                break
            if not _overlaps(taken, start, start + len(value)):
                yield "generic_secret", start, start + len(value), 64
            break
