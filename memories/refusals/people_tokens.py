"""The person detector's words (R-SAVE-3b): each word of a note with its shape (written as a
name, lower case, glued to code) and its kind (first name, surname, ambiguous, tech, place …).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wordfreq import zipf_frequency

from memories.refusals.people_cyrillic import cyrillic_name_kind, greek_name_kind
from memories.refusals.people_languages import common_word, native_names, text_language
from memories.refusals.people_lexicon import (
    _key,
    _Lexicon,
)
from memories.refusals.people_words import (
    _CALENDAR,
    _FUNCTION,
    _GROUPS,
    _KOREAN_SYLLABLES,
    _PARTICLES,
    _PLACES,
    _TECH,
    _TITLES,
)

# ---------------------------------------------------------------------------------------
# Tokens.

_TOKEN_RE = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*(?:['’]s\b|['’](?=\s|$))?")
_NAME_SHAPE_RE = re.compile(
    r"^(?:(?:Mc|Mac|O'|D'|Di|De|Da|La|Le|Van|Von|Fitz|Al-|El-)?[^\W\d_][^\W\d_A-Z]*)"
    r"(?:[-'][^\W\d_][^\W\d_A-Z]*)*$"
)
_CODE_BEFORE = set("._/\\=`#@$<>[{|~*%")
_CODE_AFTER = set("_/\\=`(<>[{$@|~*%")


@dataclass(slots=True)
class _Token:
    text: str  # without a possessive 's
    start: int
    end: int  # end of the word, without the possessive
    raw_end: int  # end with the possessive
    key: str
    cap: bool  # written as a name: first letter upper case, not all caps, not CamelCase
    lower: bool
    possessive: bool
    code: bool
    kind: str = ""  # see _classify


_CONTRACTION_RE = re.compile(r"['’](?:t|ll|re|ve|d|m)$", re.IGNORECASE)


def _tokenize(text: str, lex: _Lexicon) -> list[_Token]:
    """Words of the text, each with its kind (see _classify)."""
    tokens: list[_Token] = []
    n = len(text)
    code_before = _CODE_BEFORE
    code_after = _CODE_AFTER
    first_names, last_names, english = lex.first, lex.last, lex.english
    titles, particles, token_cls = _TITLES, _PARTICLES, _Token
    for match in _TOKEN_RE.finditer(text):
        word = match.group()
        start, raw_end = match.span()
        possessive = False
        last = word[-1]
        if last in "'’":
            word, possessive = word[:-1], True
        elif last == "s" and len(word) > 2 and word[-2] in "'’":
            word, possessive = word[:-2], True
        end = start + len(word)
        key = word.lower() if word.isascii() else _key(word)
        upper = word[0].isupper()
        if (
            not upper
            and key in english
            and key not in first_names
            and key not in last_names
            and key not in titles
            and key not in particles
        ):
            # A lower-case English word that no name list knows: only ever a cue word.
            tokens.append(
                token_cls(word, start, end, raw_end, key, False, True, possessive, False, "X")
            )
            continue
        before = text[start - 1] if start else " "
        if before == ">" and not text[text.rfind("\n", 0, start) + 1 : start].strip("> \t"):
            before = " "  # "> Ana wrote": a quoted email's marker at the line's start, not code
        after = text[end] if end < n and not possessive else " "
        code = (
            before in code_before
            or after in code_after
            or before.isdigit()
            or after.isdigit()
            or (after in ".:" and _glued(text, end + 1))
            or (before in "'\"" and after == before)
        )
        if upper:
            # Written as a name: not ALL CAPS, not CamelCase (but McAllister, O'Brien).
            cap = not (len(word) > 1 and word.isupper()) and _NAME_SHAPE_RE.match(word) is not None
            lower = False
        else:
            cap = False
            lower = word.islower()
        tok = _Token(word, start, end, raw_end, key, cap, lower, possessive, code)
        # A contraction ("Haven't", "Won't", "They'll") is no name, whatever its first part is.
        tok.kind = "X" if code or _CONTRACTION_RE.search(word) else _classify(tok, lex)
        tokens.append(tok)
    language = text_language(tokens)
    if language == "de":
        for tok in tokens:
            if tok.kind == "U" and tok.cap and zipf_frequency(tok.key, "de") >= _GERMAN_WORD_ZIPF:
                tok.kind = "X"  # "Die Spalte Kundennummer": German capitalises its nouns
    if language is not None:
        names = native_names(language)
        for tok in tokens:
            if tok.cap and tok.kind in "SLWU" and tok.key not in names and common_word(
                    tok.text, language, a_name=tok.key in lex.first or tok.key in lex.last):
                tok.kind = "X"  # "Bir değer girin", "Musi być liczbą": the language's words
    return tokens


# German capitalises every noun, so a capitalised word no name list knows is no evidence of a
# name in German text ("Die Tabelle Bestellungen hat doppelte Zeilen"): a word of wordfreq's
# German list (Zipf 2.0: once in ten million words) is then a word.
_GERMAN_WORD_ZIPF = 2.0


def _glued(text: str, pos: int) -> bool:
    """Is the character at pos part of an identifier ("df.merge", "orders.region")?"""
    return pos < len(text) and (text[pos].isalnum() or text[pos] in "_/")


def _korean_given(key: str) -> bool:
    """'min-jun', 'seo-yeon', 'minjun', 'jiwoo': two Korean syllables."""
    parts = key.split("-")
    if len(parts) == 2:
        return all(p in _KOREAN_SYLLABLES for p in parts)
    if "-" in key or not 4 <= len(key) <= 8:
        return False
    syllables = _KOREAN_SYLLABLES
    return any(key[:i] in syllables and key[i:] in syllables for i in range(2, len(key) - 1))


_MC_NAME_RE = re.compile(r"(?:Mc|O['’])[A-Z][a-z]{2,}$")


def _classify(token: _Token, lex: _Lexicon) -> str:
    """S first name, L surname, W ambiguous name, T tech, P place, U unknown word,
    E less frequent English word, X frequent word."""
    key = token.key
    if key in _FUNCTION:
        return "X"
    if key in _TECH:
        return "T"
    if key in _CALENDAR and key not in lex.first:
        return "X"
    if key in _PLACES and key not in lex.first and key not in lex.last:
        return "P"
    if key in _PARTICLES:
        return "W" if token.cap else "X"
    if key in _TITLES or key in _GROUPS:
        return "X"
    if token.cap and _MC_NAME_RE.match(token.text):
        return "L"  # "McDonnell", "McKenzie", "O'Reilly": Irish and Scottish surnames
    if "-" in key:
        return _classify_compound(key, lex)
    if token.cap and not token.text.isascii() and (
            (kind := cyrillic_name_kind(token.text, lex)) is not None or (kind := greek_name_kind(token.text)) is not None):
        return kind  # "Иван", "Наташу", "Γιώργος": no English word's ambiguity reaches them
    if token.cap and (kind := _declined_name_kind(token.text, lex)) is not None:
        return kind  # "Ayşe'ye", "Mehmet'in", "Agnieszkę"
    if key in lex.ambiguous:
        return "W"
    if key in lex.first:
        return "S"
    if key in lex.last:
        return "L"
    if key not in lex.english and _korean_given(key):
        return "S"
    if key in lex.frequent:
        return "X"
    if key in lex.english:
        return "E"  # a less frequent English word: "Handler", "Procurement"
    return "U"


# A name with a case's suffix after an apostrophe, as Turkish writes a proper noun's ("Ayşe'ye",
# "Mehmet'in", "Ali'den"); English's "'s", "'ll", "'d" are the possessive and contractions.
_SUFFIX_AFTER_APOSTROPHE_RE = re.compile(r"^(?P<name>[^\W\d_]{2,})['’](?P<suffix>[^\W\d_]{1,4})$")
_NOT_A_CASE_SUFFIX = frozenset({"s", "ll", "d", "re", "ve", "m", "t"})


def _declined_name_kind(word: str, lex: _Lexicon) -> str | None:
    """A name in a case: a Turkish suffix after an apostrophe, or Polish's accusative and
    instrumental of a name in "-a" ("Agnieszkę", "Agnieszką": letters no other language ends
    a word with), as "S" or "L"; None otherwise."""
    suffixed = _SUFFIX_AFTER_APOSTROPHE_RE.match(word)
    if suffixed is not None and suffixed.group("suffix").islower() \
            and suffixed.group("suffix").lower() not in _NOT_A_CASE_SUFFIX:
        base = _key(suffixed.group("name"))
    elif len(word) > 3 and word[-1] in "ęą":
        base = _key(word[:-1] + "a")
    else:
        return None
    if base in _TECH or base in _PLACES or base in _FUNCTION or base in _CALENDAR or base in lex.ambiguous:
        return None  # "Vim'i", "Ankara'da", "Mart'ta": a tool's, a place's, a month's case
    return "S" if base in lex.first else "L" if base in lex.last else None


def _classify_compound(key: str, lex: _Lexicon) -> str:
    """'Anne-Sophie', 'Mensah-Ellis', 'Al-Rashid', 'Ha-eun' are names; 'Faith-based' is not."""
    parts = [p for p in key.split("-") if p]
    if not parts:
        return "X"
    if _korean_given(key):
        return "S"
    if any(p in _TECH for p in parts):
        return "X"  # "Pascal-case", "Jenkins-based"
    known = [p in lex.first or p in lex.last or p in _PARTICLES for p in parts]
    if all(known):
        if parts[0] in lex.first and parts[0] not in lex.ambiguous:
            return "S"
        if any(
            (p in lex.first or p in lex.last) and p not in lex.ambiguous and p not in _PARTICLES
            for p in parts
        ):
            return "L"
        return "W"
    if any(p in lex.english and not k for p, k in zip(parts, known, strict=True)):
        return "X"  # "Faith-based", "Pascal-case", "follow-up"
    if any(k and p not in _PARTICLES for p, k in zip(parts, known, strict=True)):
        return "L"  # "Okonkwo-Eze": one part known
    return "U"
