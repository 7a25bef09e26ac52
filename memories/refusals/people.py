"""Does a note look like it names a specific person? (R-SAVE-3b: such a note is held.)

``find_person_mentions(text)`` returns the spans that look like a person's name. It is a
gazetteer with context rules, not a statistical model: it works offline, answers in about
0.1 ms for a typical note (about 1 ms for a 1 KB note dense with names), and every
decision can be traced to a rule below. Measured on tests/data/people_corpus.json by
tests/memories/test_people_detector.py (held rates are printed there).

Why not a model: spaCy's English pipelines are not on PyPI (only an unofficial mirror,
which held 51 % of the notes naming people and ~20 % of benign notes, 150 MB, 12 s to
load), and the ``names-dataset`` package needs 1.9 GB and 24 s to load and knows "Django"
and "The" as names.

Where the words come from (loaded once, lazily, on the first call; thread-safe; ~35 MB):

* **First names and surnames**: the person-name lists that ship inside the ``Faker``
  package (MIT): all its locales written in Latin script (about 20,000 first names and
  25,000 surnames: Spanish, Portuguese, Nordic, Slavic, Turkish, Yoruba, Igbo, Hausa, Twi,
  Swahili, Zulu, Indonesian, Indian English ...), plus its Cyrillic lists transliterated,
  plus short lists (``data/people_extra_*.txt``) of romanised Chinese, Japanese, Korean,
  Vietnamese, Arabic, Persian, Indian and West African names that Faker only has in their
  own scripts or not at all. Korean given names written as two syllables ("Min-jun",
  "Seoyeon") are recognised from a list of syllables.
* **What is an English word**: the ~28,000 most frequent English words of the ``wordfreq``
  package (its small list, read from its data file). A name that is also one of the
  10,000 most frequent words ("Will", "May", "Grant", "Summer", "King", "Long") is
  *ambiguous*: it needs more evidence than a capital letter. Names frequent only *because*
  they are names ("John", "David", "Maria") are listed in ``data/people_common_names.txt``
  and stay plain names. A name that only one language's list has and that is also a less
  frequent English word ("Handler", "Decimal") is *word-like*: it too needs more evidence.
* **Technology, companies and places** that are also names or surnames (Kafka, Jackson,
  Julia, Ruby, Jenkins, Django, Hugo, Cassandra, Claude, Paris, Sydney, Morgan Stanley
  ...): listed in ``data/people_tech*.txt`` and ``data/people_places.txt``. They are never
  taken for a person unless the text says so plainly ("ask Julia about", "Ms. Ruby",
  "Julia's birthday", "Julia Roberts").

The hand-kept word lists are data files in ``memories/refusals/data/`` (read through
``memories.refusals.wordlists``); the rules that use them stay here.

The rules, on words written as names (capitalised, or lower case where a cue says so):

1. A title and a name: "Ms. Lopez", "dr. okafor", "Prof. van der Berg".
2. Two or more capitalised name words in a row, one of them a known first name or
   surname: "Chidi Okonkwo", "Grant Holloway", "Liu Yuting"; or an ambiguous first name
   and a word no list or dictionary knows ("Mark Whitfield").
3. A known first name or surname, capitalised, that is not ambiguous, word-like, tech or
   a place: "Priya prefers CSV", "send it to Nguyen".
4. Any name word (ambiguous, or one no list knows) with a cue that it is a person: before
   it "ask", "tell", "ping", "cc", "thanks", "email", "meeting with", "my manager", "our
   CFO", "according to"; after it "said", "prefers", "wants", "is on leave", "from sales",
   or a possessive with "birthday", "wife", "phone" ... Lower-case names need such a cue,
   or to come as a first name and surname together ("chidi okonkwo").
5. An email address whose local part holds a name ("ana.lopez@", "j.okafor@", "priya@"),
   but not role addresses ("support@", "noreply@", "data-team@", "editor@").

Words glued to code (``pandas.DataFrame``, ``user_name``, ``'Hope'`` in quotes), all-caps
words and CamelCase words (other than Mc/Mac/O'/De... names) are never names.

Known limits: a first name that no list knows, with no cue ("Lunch with Dariush"), is
missed; so are phone numbers and ids (the table index of R-SAVE-3 sees those). German
text, where every noun is capitalised, can be taken for names.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import threading
import unicodedata
from dataclasses import dataclass

from memories.refusals.phrases import EMAIL_RE, strip_accents
from memories.refusals.wordlists import entries, pairs, table, words

__all__ = ["PersonMention", "find_person_mentions", "load"]


@dataclass(frozen=True)
class PersonMention:
    text: str  # the span as written
    start: int
    end: int


# ---------------------------------------------------------------------------------------
# Word lists, kept as data in memories/refusals/data/people_*.txt (each file says where
# its words come from). Keys are lower case, accents stripped. Read once, when this module
# is imported (about 25 small files); the large Faker and wordfreq lists load on the first
# call (see _get_lexicon).

# Names that are among the most frequent English words only because they are names: they
# stay plain names (rule 3). Less those that are frequent words first ("Will", "Grant").
_COMMON_NAMES = words("people_common_names") - words("people_common_names_ambiguous")

# Common words that are names too: ambiguous even when wordfreq does not rank them high
# (the frequent ones are found through wordfreq).
_AMBIGUOUS_EXTRA = words("people_ambiguous_extra")

# Software, services, companies and products that are also first names, surnames or
# words of a name. Never a person on their own (see the module docstring).
_TECH = words("people_tech")

# Multi-word tech, company and place names (checked as whole phrases before the rules).
_TECH_PHRASES = list(entries("people_tech_phrases"))

_PLACES = words("people_places")
_CALENDAR = words("people_calendar")

# Teams, departments and groups: "ask Finance", "email Support" do not name a person.
_GROUPS = words("people_groups")

# Function words: never a name, whatever a name list says ("The", "Can", "An").
_FUNCTION = words("people_function_words")

_TITLES = words("people_titles")
_PARTICLES = words("people_particles")

# Before a name: words that say a person follows ("ask Will", "my manager Grant").
_PRE_PERSONAL = words("people_pre_personal")
# Two-word cues ("meeting with", "talk to" ...): the last word before the name is the key.
_PRE_PERSONAL_PAIRS = pairs("people_pre_personal_pairs")
# Contact verbs: a person or a system may follow ("email Yusuf", "call Okta").
_PRE_CONTACT = words("people_pre_contact")
# Weaker: they say a person may follow, enough only for a lower-case known name.
_PRE_WEAK = words("people_pre_weak")
_PRE_SKIP = words("people_pre_skip")  # "my manager is Will"
# Before a tech name that is also a name, only words said to people count ("ask Julia",
# "my manager Ruby"), not "thanks to Kafka" or "owned by Jenkins".
_PRE_PEOPLE_ONLY = _PRE_PERSONAL - words("people_pre_not_people_only")

# After a name: "Will said", "May prefers", "Grant is on leave", "Jordan from sales".
_POST_VERBS = words("people_post_verbs")
# The same without the words that are also plural nouns ("Short replies", "Page likes",
# "Release notes"): for ambiguous and unknown words.
_POST_VERBS_STRICT = _POST_VERBS - words("people_post_verbs_plural_nouns")
_POST_STATE = words("people_post_state")
_PERSON_NOUNS = words("people_person_nouns")
_DEPT_PREPS = words("people_dept_preps")
_KOREAN_SYLLABLES = words("people_korean_syllables")

# Romanised names that Faker has only in their own scripts, or not at all.
_EXTRA_FIRST = words("people_extra_first_names")
_EXTRA_LAST = words("people_extra_surnames")

# Role and system local parts of email addresses.
_EMAIL_ROLES = words("people_email_roles")

_CYRILLIC = table("people_cyrillic")

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


_lexicon: _Lexicon | None = None
_lock = threading.Lock()


def _key(word: str) -> str:
    if word.isascii():
        return word.lower()
    return strip_accents(word).casefold().replace("’", "'")


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


# Faker locales whose names are only in a script that is neither Latin nor Cyrillic (and
# that have no romanised list): not loaded, to save time.
_NON_LATIN_FAKER_LANGUAGES = words("people_faker_non_latin_languages")


def _faker_names() -> tuple[set[str], set[str], set[str]]:
    """First names, surnames and the names found in two or more languages, from Faker."""
    import faker.providers.person as person_providers

    raw: dict[str, tuple[set[str], set[str]]] = {}  # language -> (first, last)
    for module_info in pkgutil.iter_modules(person_providers.__path__):
        if module_info.name.split("_")[0] in _NON_LATIN_FAKER_LANGUAGES:
            continue
        module = importlib.import_module(f"{person_providers.__name__}.{module_info.name}")
        provider = getattr(module, "Provider", None)
        if provider is None:
            continue
        language = module_info.name.split("_")[0]
        raw_first, raw_last = raw.setdefault(language, (set(), set()))
        for attr, value in vars(provider).items():
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
    plain_names = multi | _EXTRA_FIRST | _EXTRA_LAST | _COMMON_NAMES
    wordlike = ((first | last) & english) - plain_names
    # Ranked high in English because they are words, not because they are names.
    ambiguous = ((first | last) & frequent) - _COMMON_NAMES
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
    )


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
        tok.kind = "X" if code else _classify(tok, lex)
        tokens.append(tok)
    return tokens


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
    if "-" in key:
        return _classify_compound(key, lex)
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


# ---------------------------------------------------------------------------------------
# Rules.


def _gap(text: str, a: _Token, b: _Token) -> str:
    return text[a.raw_end : b.start]


def _joined(text: str, a: _Token, b: _Token) -> bool:
    """Two tokens written next to each other as parts of one name (one space)."""
    return not a.possessive and _gap(text, a, b) == " "


def _mark_tech_phrases(tokens: list[_Token]) -> None:
    keys = [t.key.replace("'", "") for t in tokens]
    for i, key in enumerate(keys):
        for phrase in _TECH_PHRASES_BY_FIRST.get(key, ()):
            k = len(phrase)
            if keys[i : i + k] == phrase:
                for t in tokens[i : i + k]:
                    t.kind = "X"


_TECH_PHRASES_BY_FIRST: dict[str, list[list[str]]] = {}
for _phrase in _TECH_PHRASES:
    _TECH_PHRASES_BY_FIRST.setdefault(_phrase.split()[0], []).append(_phrase.split())


def _pre_cue(text: str, tokens: list[_Token], i: int) -> str:
    """What the words just before token i say: 'people' (only said of people: "ask",
    "my manager"), 'personal' (also "thanks to", "owned by"), 'contact' ("email", "call"),
    'weak' ("with", "to", "for") or ''."""
    j = i - 1
    # "my manager is Will", "thanks, Mark", "cc: Ana"
    while j >= 0 and tokens[j].key in _PRE_SKIP:
        j -= 1
    if j < 0:
        return ""
    gap = text[tokens[j].raw_end : tokens[j + 1].start]
    if len(gap) > 3 or any(ch in gap for ch in ".!?;\n()[]"):
        return ""
    prev = tokens[j]
    if prev.code:
        return ""
    key = prev.key
    if key in _PRE_PEOPLE_ONLY:
        return "people"
    if j >= 1 and (tokens[j - 1].key, key) in _PRE_PERSONAL_PAIRS:
        return "personal"
    if key in _PRE_PERSONAL:
        return "personal"
    if key in _PRE_CONTACT:
        return "contact"
    if key in _PRE_WEAK:
        return "weak"
    return ""


def _post_cue(text: str, tokens: list[_Token], i: int, strict: bool = False) -> bool:
    """Words just after token i that say it is a person (strict: fewer verbs)."""
    tok = tokens[i]
    if tok.possessive:
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if nxt is not None and nxt.key in _PERSON_NOUNS and _gap(text, tok, nxt).strip() == "":
            return True
        # "Will's new phone", "Priya's home address"
        nxt2 = tokens[i + 2] if i + 2 < len(tokens) else None
        between = text[tok.raw_end : nxt2.start] if nxt2 is not None else ""
        return bool(
            nxt2 is not None
            and nxt2.key in _PERSON_NOUNS
            and between.count(" ") <= 2
            and not any(c in between for c in ".,;:\n")
        )
    if i + 1 >= len(tokens):
        return False
    nxt = tokens[i + 1]
    gap = _gap(text, tok, nxt)
    if gap.strip(" ,") != "" or "\n" in gap:
        return False
    if gap.strip() == ",":
        # apposition: "Ana, our CFO," / "Will, my manager,"
        if nxt.key in {"our", "my", "the", "his", "her", "their", "your"} and i + 2 < len(tokens):
            return tokens[i + 2].key in _PRE_PEOPLE_ONLY
        return False
    if nxt.key in (_POST_VERBS_STRICT if strict else _POST_VERBS):
        return True
    if nxt.key in {"is", "was", "will", "has", "had"} and i + 2 < len(tokens):
        nxt2 = tokens[i + 2]
        if nxt2.key in _POST_STATE:
            return True
        if (
            nxt2.key == "on"
            and i + 3 < len(tokens)
            and tokens[i + 3].key
            in {"leave", "vacation", "holiday", "pto", "maternity", "paternity", "parental", "sick"}
        ):
            return True
    if nxt.key in _DEPT_PREPS and i + 2 < len(tokens):
        nxt2 = tokens[i + 2]
        if nxt2.key in _GROUPS:
            return True
        if nxt2.key == "the" and i + 3 < len(tokens) and tokens[i + 3].key in _GROUPS:
            return True
    return False


def _email_names_person(local: str, lex: _Lexicon) -> bool:
    """Does the local part of an email address hold a person's name?"""
    key = _key(local)
    if key in _EMAIL_ROLES:
        return False
    parts = [re.sub(r"\d+$", "", p) for p in re.split(r"[._+\-]+", key)]
    parts = [p for p in parts if p and p.isalpha()]
    if not parts or all(p in _EMAIL_ROLES or p in _GROUPS or p in _TECH for p in parts):
        return False

    def named(p: str) -> bool:
        if p in _TECH or p in _EMAIL_ROLES or p in _GROUPS or p in _FUNCTION:
            return False
        return p in lex.first or p in lex.last or (p not in lex.english and _korean_given(p))

    def strong(p: str) -> bool:
        return named(p) and p not in lex.ambiguous

    def surname_like(p: str) -> bool:
        return len(p) >= 3 and (strong(p) or p not in lex.english) and p not in _TECH

    if len(parts) >= 2:
        long_parts = [p for p in parts if len(p) > 1]
        if any(strong(p) for p in long_parts):
            return True  # "ana.lopez", "priya.ops"
        if len(long_parts) < len(parts):
            # "j.okafor", "d.tehrani": an initial and a surname
            return any(surname_like(p) for p in long_parts)
        if sum(named(p) for p in long_parts) >= 2:
            return True  # "will.young"
        # "mark_whitfield": a first name and a word that is no English word
        return any(p in lex.first for p in long_parts) and any(
            surname_like(p) for p in long_parts if p not in lex.first
        )
    word = parts[0]
    if word in lex.english:
        return strong(word) and word not in lex.wordlike and word not in lex.frequent
    if strong(word):
        return True  # "priya@"
    # "jokafor", "sdahl", "hlim": an initial and a surname
    rest = word[1:]
    if len(rest) >= 3 and rest in lex.last and rest not in lex.ambiguous:
        return True
    for particle in ("von", "van", "de", "del", "della", "le", "la", "al", "el", "di", "da"):
        if rest.startswith(particle) and rest[len(particle) :] in lex.last:
            return True  # "fvonbulow"
    # "anamartinez", "taeyangsong"
    return any(
        named(word[:k]) and word[:k] not in lex.ambiguous and named(word[k:])
        for k in range(3, len(word) - 2)
    )


def _title_at(text: str, tokens: list[_Token], i: int, lex: _Lexicon) -> int | None:
    """Rule 1: if token i is a title followed by a name, the index of the name's last token."""
    tok = tokens[i]
    if tok.key not in _TITLES or tok.code or tok.possessive or i + 1 >= len(tokens):
        return None
    if not tok.cap and tok.key in {"miss", "lady", "lord", "doctor", "sir", "dame", "madam"}:
        return None
    j = i + 1
    if text[tok.end : tokens[j].start] not in (" ", ". ", "."):
        return None
    # "Ms. van der Berg", "Mr. de la Cruz": particles, then the name.
    k = j
    while (
        k + 1 < len(tokens)
        and tokens[k].key in _PARTICLES
        and _joined(text, tokens[k], tokens[k + 1])
        and tokens[k + 1].key not in _FUNCTION
    ):
        k += 1
    if k > j and tokens[k].kind == "X" and tokens[k].key not in lex.last:
        k = j  # "Dr. Le is out": the particle was the surname
    cand = tokens[k]
    if cand.code or cand.key in _FUNCTION or cand.key in _GROUPS or cand.key in _TITLES:
        return None
    if len(cand.key) < 2:
        return None  # "the MS C runtime"
    in_lists = cand.key in lex.first or cand.key in lex.last
    if cand.cap:
        ok = True  # after a title, a capitalised word is a name: "Dr. Strange", "Mr. Long"
    else:
        ok = cand.lower and (in_lists or cand.kind in "SLU")
    if not ok:
        return None
    return _extend_name(text, tokens, k)


def _extend_name(text: str, tokens: list[_Token], j: int) -> int:
    """Index of the last token of the name that starts at token j."""
    end = j
    while end + 1 < len(tokens) and _joined(text, tokens[end], tokens[end + 1]):
        nxt = tokens[end + 1]
        if nxt.cap and nxt.kind in "SLU":
            end += 1
        elif (
            nxt.key in _PARTICLES
            and end + 2 < len(tokens)
            and tokens[end + 2].cap
            and _joined(text, nxt, tokens[end + 2])
        ):
            end += 2
        else:
            break
    return end


def _run_is_name(run: list[_Token], lex: _Lexicon) -> bool:
    """Rule 2: two or more capitalised name words in a row."""
    kinds = [t.kind for t in run]
    if any(k not in "SLWTUE" for k in kinds):
        return False
    strong = [t for t in run if t.kind in "SL"]
    if strong and (
        any(t.key not in lex.wordlike for t in strong) or all(k in "SLW" for k in kinds)
    ):
        # "Chidi Okonkwo", "Grant Holloway", "Ruby Chen", "Priya Raman", "Handler Pearson"
        # but not "General Decimal Arithmetic" (words a dictionary knows around a name).
        return True
    # "Mark Whitfield": an ambiguous first name, then a word no list or dictionary knows.
    head = run[0]
    return (
        head.kind == "W"
        and head.key in lex.first
        and head.key not in _PLACES
        and head.key not in _CALENDAR
        and all(k == "U" for k in kinds[1:])
    )


def _is_name_word(tok: _Token) -> bool:
    return tok.cap and tok.kind in "SLWTUE" and not tok.code


def find_person_mentions(text: str) -> list[PersonMention]:
    """Spans of ``text`` that look like a specific person's name (R-SAVE-3b).

    An empty list means no person was found. See the module docstring for the rules.
    Thread-safe; the word lists load on the first call.
    """
    if not text:
        return []
    lex = _get_lexicon()
    spans: list[tuple[int, int]] = []

    # Rule 5: emails. Their words are not looked at again.
    email_spans = []
    for match in EMAIL_RE.finditer(text):
        email_spans.append((match.start(), match.end()))
        if _email_names_person(match.group(0).split("@", 1)[0], lex):
            spans.append((match.start(), match.end()))
    tokens = _tokenize(text, lex)
    if email_spans:
        tokens = [t for t in tokens if not any(s <= t.start < e for s, e in email_spans)]
    if not tokens:
        return _to_mentions(text, spans)
    _mark_tech_phrases(tokens)

    n = len(tokens)
    used = [False] * n

    # Rule 1: a title and a name.
    for i in range(n):
        if used[i] or tokens[i].key not in _TITLES:
            continue
        end = _title_at(text, tokens, i, lex)
        if end is not None:
            spans.append((tokens[i].start, tokens[end].end))
            for k in range(i, end + 1):
                used[k] = True

    # Rule 2: runs of capitalised name words.
    i = 0
    while i < n:
        if used[i] or not _is_name_word(tokens[i]):
            i += 1
            continue
        j = i
        while j + 1 < n and not used[j + 1] and _joined(text, tokens[j], tokens[j + 1]):
            nxt = tokens[j + 1]
            if _is_name_word(nxt):
                j += 1
            elif (
                nxt.key in _PARTICLES
                and nxt.lower
                and j + 2 < n
                and _joined(text, nxt, tokens[j + 2])
                and _is_name_word(tokens[j + 2])
            ):
                j += 2
            else:
                break
        run = [t for t in tokens[i : j + 1] if not (t.key in _PARTICLES and t.lower)]
        if len(run) >= 2 and _run_is_name(run, lex):
            spans.append((tokens[i].start, tokens[j].end))
            for k in range(i, j + 1):
                used[k] = True
        i = j + 1

    # Rules 3 and 4: single words.
    for i, tok in enumerate(tokens):
        if used[i] or tok.kind in "XP" or tok.code:
            continue
        if tok.cap:
            if tok.kind in "SL" and tok.key not in lex.wordlike:
                held = True  # "Priya prefers CSV", "send it to Okafor"
            elif tok.kind == "E":
                held = False
            elif (pre := _pre_cue(text, tokens, i)) == "people" or (
                pre in ("personal", "contact") and tok.kind != "T"
            ):
                held = True  # "ask Will", "my manager Julia", "ping Oyelaran", "email Yusuf"
            elif tok.kind in "SLWU":
                # "Will said", "Jordan from sales", "Zhyldyz said"
                held = _post_cue(text, tokens, i, strict=tok.kind in "WU")
            else:  # tech: only "Julia's birthday"
                held = tok.possessive and _post_cue(text, tokens, i)
            if held:
                spans.append((tok.start, tok.end))
                used[i] = True
            continue
        if not tok.lower:
            continue
        nxt = tokens[i + 1] if i + 1 < n else None
        if nxt is not None and not used[i + 1] and _lower_pair(text, tok, nxt, lex):
            spans.append((tok.start, nxt.end))  # "chidi okonkwo", "wang zihan"
            used[i] = used[i + 1] = True
            continue
        if tok.kind in "SL":
            pre = _pre_cue(text, tokens, i)
            if pre in ("people", "personal", "contact") or (
                tok.key not in lex.wordlike
                and ((pre == "weak" and tok.kind == "S") or _post_cue(text, tokens, i))
            ):
                spans.append((tok.start, tok.end))
                used[i] = True
        elif tok.kind == "W" and tok.possessive and _post_cue(text, tokens, i):
            spans.append((tok.start, tok.end))  # "will's birthday"
            used[i] = True

    return _to_mentions(text, spans)


def _lower_pair(text: str, a: _Token, b: _Token, lex: _Lexicon) -> bool:
    """Two lower-case words that are a first name and a surname (either order)."""
    if not (a.lower and b.lower and _joined(text, a, b)) or a.code or b.code:
        return False
    kinds = a.kind + b.kind
    if any(k not in "SLWU" for k in kinds) or not ("S" in kinds or "L" in kinds):
        return False
    if all(t.key in lex.wordlike for t in (a, b) if t.kind in "SL"):
        return False  # "handler subclasses"
    for tok in (a, b):
        if tok.kind == "U" and (tok.key in lex.english or len(tok.key) < 3):
            return False
        if (
            tok.kind == "W"
            and tok.key in lex.frequent
            and tok.key not in lex.first
            and tok.key not in lex.last
        ):
            return False
    return True


def _to_mentions(text: str, spans: list[tuple[int, int]]) -> list[PersonMention]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return [PersonMention(text=text[s:e], start=s, end=e) for s, e in merged]
