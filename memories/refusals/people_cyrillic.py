"""A name written in Cyrillic, alone and in its cases (R-SAVE-3b): "Иван сказал …", "спроси
Наташу", "напиши Петрову". The name lists hold Russian, Ukrainian and Bulgarian names
transliterated (Faker's, people_lexicon), so a Cyrillic word is read through its transliteration;
a name declines, so a word is also read without the ending of its case (accusative "Наташу",
genitive "Ивана", dative "Ивану", instrumental "Иваном", "Петровой"), when the form it gives is
one of Faker's Cyrillic names. A common word of Russian or Ukrainian ("Данные", "Строки", "Дата")
is no name unless Faker lists it as one. Greek, the other cased script the name lists hold no
transliteration of, is read the same way through Faker's Greek names ("Γιώργος είπε …").
"""

from __future__ import annotations

import re
from functools import cache

from wordfreq import zipf_frequency

from memories.refusals.people_languages import native_names
from memories.refusals.people_lexicon import _key, _Lexicon, _transliterate
from memories.refusals.wordlists import entries

__all__ = ["cyrillic_name_kind", "greek_name_kind"]

_CYRILLIC_WORD_RE = re.compile(r"[А-ЯЁЄІЇҐ][а-яёєіїґ'’\-]{2,}$")
# Short forms ("Саша", "Коля") Faker's lists of full names leave out (data file).
_SHORT_NAMES = frozenset(_key(name.lower()) for name in entries("people_russian_short_names"))
# An ending of a case and what the name's dictionary form ends with instead: feminine "-а/-я"
# names and surnames ("Наташу", "Наташи", "Наташе", "Наташей", "Петровой"), masculine ones
# ("Ивана", "Ивану", "Иваном", "Иване", "Петровым").
_CASE_ENDINGS = (
    ("ой", "а"), ("ей", "я"), ("ей", "а"), ("ом", ""), ("ем", ""), ("ым", ""), ("им", "ий"),
    ("у", "а"), ("ю", "я"), ("ы", "а"), ("и", "я"), ("и", "а"), ("е", "а"), ("е", "я"),
    ("а", ""), ("я", "й"), ("у", ""), ("ю", "й"), ("е", ""),
)
_LANGUAGES = ("ru", "uk", "bg")
_COMMON_ZIPF = 4.5  # as people_languages: thirty times in a million words


@cache
def _native() -> frozenset[str]:
    return frozenset().union(*(native_names(language) for language in _LANGUAGES))


def _common(word: str) -> bool:
    return any(zipf_frequency(word, language) >= _COMMON_ZIPF for language in _LANGUAGES)


def _kind(latin: str, lex: _Lexicon) -> str | None:
    if latin in lex.ambiguous:
        return "W"  # a name that is also an English word as transliterated ("Сервер", "Марк")
    if latin in lex.first:
        return "S"
    if latin in lex.last:
        return "L"
    return None


def cyrillic_name_kind(word: str, lex: _Lexicon) -> str | None:
    """"S" for a given name, "L" for a surname, "W" for a name that transliterates to a common
    English word, in the word's own form or a case of it; None when the word is no Cyrillic name."""
    if _CYRILLIC_WORD_RE.match(word) is None:
        return None
    lowered = word.lower()
    latin = _transliterate(lowered)
    if latin is None:
        return None
    native = _native()
    if _key(lowered) in native:
        return _kind(latin, lex) or "S"
    readings = [lowered[: len(lowered) - len(ending)] + base for ending, base in _CASE_ENDINGS
                if lowered.endswith(ending) and len(lowered) - len(ending) >= 2]
    for reading in readings:
        if _key(reading) in native and len(reading) >= 4:
            return _kind(_transliterate(reading) or "", lex) or "S"
    for reading in (lowered, *readings):
        if _key(reading) in _SHORT_NAMES:
            return None if _common(reading) else "S"  # "Сашу", "Коле"; not "Поля" (fields)
    if len(lowered) < 4:
        return None  # "Вы", "Оно", "Оба": too short to read through another list
    kind = _kind(latin, lex)
    if kind is None or kind == "L" or _common(lowered):
        return None  # a surname of another country's list ("Строка" reads "Stroka") or a word
    return kind


_GREEK_WORD_RE = re.compile(r"[Α-ΩΆ-Ώ][α-ωά-ώϊϋΐΰς]{2,}$")


def greek_name_kind(word: str) -> str | None:
    """A Greek given name or surname Faker lists for Greece ("Γιώργος είπε …"), as "S"; the name
    lists hold no transliteration of Greek, so it is read only through Faker's own."""
    if _GREEK_WORD_RE.match(word) is None:
        return None
    return "S" if _key(word.lower()) in native_names("el") else None
