"""Which language a note is written in, for the person detector (R-SAVE-3b).

The name lists hold the names of many countries, and a name of one is often a common word of
another ("Bir" is a surname and Turkish for "one", "Musi" a surname and Polish for "must", "Tam"
a name and "there"). Written with a capital at a sentence's start or in a title, such a word read
as a name held notes in those languages (Django's and the man pages' Turkish translations: one
in six). So: the note's language is told by its commonest short words (two of them, more than
English's own); a word written with a capital that is a common word there and no name of that
country's is then a word; and lower-case words are read as names only in English text. German also capitalises its nouns (people_tokens).
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from wordfreq import zipf_frequency

from memories.refusals.people_lexicon import _key, faker_name_lists
from memories.refusals.wordlists import table

__all__ = ["ENGLISH_FUNCTION_WORDS", "common_word", "native_names", "text_language"]

ENGLISH_FUNCTION_WORDS = frozenset("the and is not with for on of to in a an it are we i be".split())
_GERMAN_FUNCTION_WORDS = (
    "der die das und ist nicht mit für auf den dem des ein eine einen zu von im sich bitte hat wird "
    "sind wir ich es auch noch nach bei aus sein darf kann soll muss wurde werden um ob")
_LANGUAGES_OF: dict[str, tuple[str, ...]] = {}
for _language, _words in {"de": _GERMAN_FUNCTION_WORDS, **table("people_function_words_other_languages")}.items():
    for _word in {_key(w) for w in _words.split()}:
        _LANGUAGES_OF[_word] = (*_LANGUAGES_OF.get(_word, ()), _language)
# Faker's providers by language, where its module names differ from wordfreq's codes.
_FAKER_LANGUAGE = {"nb": "no"}
# Common: thirty times in a million words of the language (Zipf 4.5), and ten times as often as
# in English, so an English name in a Turkish note stays a name. A word some list calls a name
# must be commoner still (Zipf 5.6: "bir" 7.3, "yeni" 6.3, "tam" 6.1): the commonest given names
# run up to 5.5 in their language ("Ali", "Mehmet", "Jean", "Александр"), and Faker's lists of a
# country miss some of them (tr_TR has no "Mehmet").
_COMMON_ZIPF = 4.5
_COMMON_NAME_ZIPF = 5.6
_OVER_ENGLISH = 1.0


def text_language(tokens) -> str | None:
    """The language whose commonest words the note uses, when it is not English; else None.
    Two of them in lower case and more than English's, or one where English has none ("Geçerli
    bir tarih girin.")."""
    counts: Counter[str] = Counter()
    english = 0
    for token in tokens:
        # Written with a capital, a function word may be a name ("Dan", "Yang", "Das"); glued to
        # code, part of an address ("gmx.es").
        if not token.lower or token.code:
            continue
        english += token.key in ENGLISH_FUNCTION_WORDS
        for language in _LANGUAGES_OF.get(token.key, ()):
            counts[language] += 1
    if not counts:
        return None
    language, hits = counts.most_common(1)[0]
    return language if (hits >= 2 and hits > english) or not english else None


@cache
def native_names(language: str) -> frozenset[str]:
    """The given names and surnames Faker lists for ``language``'s countries, as name keys."""
    prefix = _FAKER_LANGUAGE.get(language, language)
    names: set[str] = set()
    for faker_language, attr, value in faker_name_lists():
        if faker_language == prefix and ("first_name" in attr or "last_name" in attr) \
                and isinstance(value, (tuple, list, dict, set, frozenset)):
            names.update(_key(part) for name in value if isinstance(name, str)
                         for part in name.replace("-", " ").split())
    return frozenset(names)


def common_word(word: str, language: str, *, a_name: bool) -> bool:
    """``word`` is one of ``language``'s common words, far more than an English one; ``a_name``:
    a name list holds it, so only the language's commonest words count."""
    lowered = word.lower()
    frequency = zipf_frequency(lowered, language)
    return (frequency >= (_COMMON_NAME_ZIPF if a_name else _COMMON_ZIPF)
            and frequency >= zipf_frequency(lowered, "en") + _OVER_ENGLISH)
