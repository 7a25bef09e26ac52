"""The person detector's lexicon (R-SAVE-3b): first names and surnames from Faker's locales and
the romanised lists, English word frequencies from wordfreq; built once, lazily, thread-safe.
memories.refusals.people's docstring says where each list comes from and why.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import threading
import unicodedata
from dataclasses import dataclass

from memories.refusals.people_words import (
    _AMBIGUOUS_EXTRA,
    _CALENDAR,
    _COMMON_NAMES,
    _CYRILLIC,
    _EXTRA_FIRST,
    _EXTRA_LAST,
    _JOB_HEADS_NOT_PEOPLE,
    _NAMES_FREQUENT_AS_NAMES,
    _NON_LATIN_FAKER_LANGUAGES,
    _PARTICLES,
    _PLACES,
    _ROLES,
    _TITLES,
    name_key,
)

# ---------------------------------------------------------------------------------------
# Lexicon: loaded once.


@dataclass(frozen=True)
class _Lexicon:
    first: frozenset[str]
    last: frozenset[str]
    english: frozenset[str]  # the 30,000 most frequent English words
    frequent: frozenset[str]  # the 10,000 most frequent
    ambiguous: frozenset[str]  # names that are frequent English words: "Will", "Grant"
    wordlike: frozenset[str]  # names from one language's list that are English words
    roles: frozenset[str]  # what people are: "engineer", "surveyors" (said_to_be_a_person)
    english_surnames: frozenset[str]  # Faker's en_US and en_GB surnames: "smith", "brown", "page"
    lone_needs_cue: frozenset[str] = frozenset()  # names, but alone they also name brands: "Stan", "Carson"


_lexicon: _Lexicon | None = None
_lock = threading.Lock()


_key = name_key  # the person detector's one way to key a word (people_words)


_LATIN_CACHE: dict[str, bool] = {}


def _is_latin(text: str) -> bool:
    if text.isascii():
        return True
    for ch in text:
        ok = _LATIN_CACHE.get(ch)
        if ok is None:
            ok = not ch.isalpha() or unicodedata.name(ch, "").startswith("LATIN")
            _LATIN_CACHE[ch] = ok
        if not ok:
            return False
    return True


def _transliterate(text: str) -> str | None:
    lowered = text.lower()
    if not all(ch in _CYRILLIC or not ch.isalpha() for ch in lowered):
        return None
    return "".join(_CYRILLIC.get(ch, ch) for ch in lowered)


_SPLIT_NAME_RE = re.compile(r"[\s\-]+")


def _name_parts(name: str) -> list[str]:
    parts = []
    for part in _SPLIT_NAME_RE.split(_key(name)):
        part = part.strip(".,")
        if len(part) >= 2 and part not in _PARTICLES:
            parts.append(part)
    return parts


def faker_name_lists():
    """(language, attribute, value) of every attribute of Faker's person providers: the language
    its module is named for ("tr" for tr_TR) and the attribute's name ("first_names_male"). The
    one reading of Faker's lists: this module's, people_scripts' and people_languages' use it."""
    import faker.providers.person as person_providers

    for module_info in pkgutil.iter_modules(person_providers.__path__):
        provider = getattr(importlib.import_module(f"{person_providers.__name__}.{module_info.name}"),
                           "Provider", None)
        for attr, value in vars(provider or object).items():
            yield module_info.name.split("_")[0], attr, value


def _faker_names() -> tuple[set[str], set[str], set[str]]:
    """First names, surnames and the names found in two or more languages, from Faker."""
    raw: dict[str, tuple[set[str], set[str]]] = {}  # language -> (first, last)
    for language, attr, value in faker_name_lists():
        if language in _NON_LATIN_FAKER_LANGUAGES:
            continue
        raw_first, raw_last = raw.setdefault(language, (set(), set()))
        lowered = attr.lower()
        if "first_name" in lowered or "first_romanized" in lowered:
            target = raw_first
        elif "last_name" in lowered or "last_romanized" in lowered:
            target = raw_last
        else:
            continue
        if isinstance(value, (tuple, list, dict, set, frozenset)):
            target.update(name for name in value if isinstance(name, str))

    def keys(names: set[str]) -> set[str]:
        out: set[str] = set()
        for name in names:
            if name.isascii() and name.isalpha():
                if len(name) >= 2:
                    out.add(name.lower())
                continue
            if not _is_latin(name):
                transliterated = _transliterate(name)
                if transliterated is None:
                    continue
                name = transliterated
                if name.endswith("iy"):  # Dmitriy -> also Dmitri, Dmitry
                    out.update(_name_parts(name[:-1]))
                    out.update(_name_parts(name[:-2] + "y"))
            out.update(_name_parts(name))
        return out - _PARTICLES

    first: set[str] = set()
    last: set[str] = set()
    seen_once: set[str] = set()
    multi: set[str] = set()
    for raw_first, raw_last in raw.values():
        language_keys = keys(raw_first)
        first |= language_keys
        last_keys = keys(raw_last)
        last |= last_keys
        language_keys |= last_keys
        multi |= language_keys & seen_once
        seen_once |= language_keys
    return first, last, multi


def _job_roles() -> frozenset[str]:
    """What people are, singular and plural: the hand-kept data/people_roles.txt and the head
    nouns of Faker's English job titles ("Editor, magazine features" -> editor; "Chartered loss
    adjuster" -> adjuster), less the heads that also name programs ("agent", "manager")."""
    from faker.providers.job.en_US import Provider

    heads: set[str] = set()
    for title in Provider.jobs:
        words = title.split(",")[0].split("(")[0].split()
        if words:
            heads.add(words[-1].lower())
    heads -= _JOB_HEADS_NOT_PEOPLE
    heads = {h for h in heads if h.isalpha()}
    plurals = {h[:-1] + "ies" if h.endswith("y") else h + ("es" if h.endswith(("s", "sh", "ch")) else "s")
               for h in heads}
    return frozenset(_ROLES | heads | plurals)


def _english_surnames() -> frozenset[str]:
    """The surnames of Faker's en_US and en_GB lists (about 1,100): common enough that an
    initial before one ("jsmith@", "kbrown@") is a person's mailbox even when the surname is an
    English word, which a mailbox's own words ("sales", "post", "link") are not in these lists."""
    from faker.providers.person.en_GB import Provider as British
    from faker.providers.person.en_US import Provider as American

    return frozenset(_key(name) for name in (*American.last_names, *British.last_names))


def _english_words() -> tuple[frozenset[str], frozenset[str]]:
    """The 30,000 and the 10,000 most frequent English words (wordfreq's small list)."""
    ranked = [_key(w) for w in _wordfreq_small_english() if w.isalpha()]
    return frozenset(ranked), frozenset(ranked[:10000])


def _wordfreq_small_english() -> list[str]:
    """wordfreq's small English list, most frequent first.

    Read straight from the package's data file (a gzipped msgpack list of frequency
    bins), which skips importing wordfreq itself (0.7 s of its own imports); falls back to
    ``wordfreq.top_n_list`` when the file is not where it was.
    """
    try:
        import gzip
        import importlib.util
        import os

        import msgpack

        spec = importlib.util.find_spec("wordfreq")
        assert spec is not None and spec.submodule_search_locations
        path = os.path.join(spec.submodule_search_locations[0], "data", "small_en.msgpack.gz")
        with gzip.open(path, "rb") as handle:
            data = msgpack.load(handle, raw=False)
        assert isinstance(data[0], dict) and data[0].get("format") == "cB"
        words = [w for bin_ in data[1:] for w in bin_]
        assert len(words) > 20000
        return words
    except Exception:  # noqa: BLE001 - any change in the data layout: use the API
        from wordfreq import top_n_list

        return top_n_list("en", 30000, wordlist="small")


def _build() -> _Lexicon:
    first, last, multi = _faker_names()
    first |= _EXTRA_FIRST
    last |= _EXTRA_LAST
    english, frequent = _english_words()
    # Names that are also less frequent English words ("Handler", "Decimal") and that only
    # one language's list has: taken for names only with more evidence.
    plain_names = multi | _EXTRA_FIRST | _EXTRA_LAST | _COMMON_NAMES | _NAMES_FREQUENT_AS_NAMES
    wordlike = ((first | last) & english) - plain_names
    # Ranked high in English because they are words, not because they are names.
    ambiguous = ((first | last) & frequent) - _COMMON_NAMES - _NAMES_FREQUENT_AS_NAMES
    ambiguous |= _AMBIGUOUS_EXTRA
    ambiguous |= (first | last) & (_PLACES | _CALENDAR)
    first -= _TITLES
    last -= _TITLES
    return _Lexicon(
        first=frozenset(first),
        last=frozenset(last),
        english=english,
        frequent=frequent,
        ambiguous=frozenset(ambiguous),
        wordlike=frozenset(wordlike),
        roles=_job_roles(),
        english_surnames=_english_surnames(),
        lone_needs_cue=frozenset(_NAMES_FREQUENT_AS_NAMES & (first | last)),
    )


def english_words() -> frozenset[str]:
    """wordfreq's 30,000 most frequent English words, lower-cased (the secret detector's test of
    a product's name, ``memories.refusals.secret_products``, reads them too)."""
    return _get_lexicon().english


def load() -> None:
    """Load the word lists now (they load by themselves on the first call otherwise)."""
    _get_lexicon()


def _get_lexicon() -> _Lexicon:
    global _lexicon
    lexicon = _lexicon
    if lexicon is None:
        with _lock:
            if _lexicon is None:
                _lexicon = _build()
            lexicon = _lexicon
    return lexicon
