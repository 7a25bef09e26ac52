"""The word lists kept as data (memories/refusals/data/*.txt, issue 18).

Every data file reads, has entries and no blank, duplicate or space-padded entry. Every list
the detectors used when the lists were still literals in the code has the same entries: the
sizes and digests below were computed from the old literals before they moved, so changing a
data file is a deliberate change that must update them here.
"""

from __future__ import annotations

import hashlib
import importlib
from pathlib import Path

import pytest

from memories.refusals import wordlists

DATA_FILES = sorted(wordlists.DATA_DIR.glob("*.txt"))

# (module, constant, number of entries, sha256 of the entries joined by newlines: sorted for
# sets and dicts ("key<TAB>value"), in order for lists; a pair is its two words and a space).
FROZEN = [
    ("memories.refusals.people_words", "_COMMON_NAMES", 309,
     "55da809e40fe3a5a1e12548460bc0238ffe819d737130367236806d79b5f13e5"),
    ("memories.refusals.people_words", "_AMBIGUOUS_EXTRA", 184,
     "a24b8e7cccf3e01fc2f0dadcec0537b4fa8437ea38337187d51992079deaf44f"),
    # Irish-named firms (mckinsey, mcafee) for issue 18; then brands that are surnames (mclaren,
    # prada, armani, renault, ferrero, nordstrom), found probing a data team's notes; then eight
    # decorators that are no English word ("@dataclass makes it frozen", fourteenth session)
    ("memories.refusals.people_words", "_TECH", 538,
     "fe4a962196500136e0cdb93b1001e5bd0f9651aa025c727ef75528dfaefc06b7"),
    # 100 when moved out of the code; brands named after people added for issue 18 ("dr pepper"),
    # then "monte carlo" (a method named after a place).
    ("memories.refusals.people_words", "_TECH_PHRASES", 111,
     "c44fa666505e5eab795a48ab0f0f808cace06d1740212cd96896e675ad86687c"),
    # 253, then "siena" (a data team's note, issue 18).
    ("memories.refusals.people_words", "_PLACES", 254,
     "a5058aecd5b9ea592863bc92f2618966f58f0eccb2950dba193fb887c6c4938d"),
    # 43, then the North American time zones ("6pm Mountain time", issue 18); 47, then German
    # days and months (twelfth session).
    # then Greek months and days (seventeenth session), all keyed as tokens are ("märz" is "marz")
    ("memories.refusals.people_words", "_CALENDAR", 81,
     "e5b291ea00e432910eeb09b2ac142f119637ffc3f05edb7bed5fc094bf510a6b"),
    ("memories.refusals.people_words", "_GROUPS", 101,
     "b0b59f5e0e3272e22891dadfc6973e2ac5390823f1aaf8a251d9869b41f550a0"),
    # 135, then English contractions ("i'm", "i'd"), read as names in WNUT 2017's casual text.
    ("memories.refusals.people_words", "_FUNCTION", 163,
     "5e91a8e436e799ca144b014d99b8f94ee2cfe563f7f24be17aa61d3b58236620"),
    # titles of office (ambassador, senator, …) for issue 18
    ("memories.refusals.people_words", "_TITLES", 40,
     "fe12984e86b22c55ded8d56feb96dc4fd5bddc4299fd9148f3deb1784c57b95f"),
    ("memories.refusals.people_words", "_PARTICLES", 27,
     "fff641a28e53b64cf796890b65ccfbd15fdbbc739cc14a8b0ded2fa9f474bc78"),
    # issue 18: kid … says, name; then said/added/noted/wrote before a name (GUM); then "frag",
    # "ruf", "chiedi", "chiama", "appelle", "llama", "ligue" (notes in other languages, 14th session)
    ("memories.refusals.people_words", "_PRE_PERSONAL", 116,
     "58b7d3f36489f9d9fccef107c8bc94b1ab2a9443ae013bf9ba5173db18a8f826"),
    # issue 18: "my name" …; then "thank you", "happy birthday" (WNUT 2017's casual text)
    # then "demande à", "pregúntale a", "pergunte a", "ligue para", "chiedi a" … (14th session)
    ("memories.refusals.people_words", "_PRE_PERSONAL_PAIRS", 70,
     "a29735c1d4ae9eb4984064f99585dcceaa881ee5a239865cb13739268bea6d83"),
    ("memories.refusals.people_words", "_PRE_CONTACT", 17,
     "b6f523e9e636297946e145925fa14403f51244885445db9727f4f39ebc985f00"),
    ("memories.refusals.people_words", "_PRE_WEAK", 11,
     "d6ce233ed6de0f2ebb716f1d23a56ead8d8c42c5980a29779cf7232c16ea4100"),
    ("memories.refusals.people_words", "_PRE_SKIP", 5,
     "35f40d0eddaf5da2be84f0ddc338b1d49fee795efd9587c1d3ef9728b4e9e77f"),
    ("memories.refusals.people_words", "_PRE_PEOPLE_ONLY", 100,
     "656f15fa5cc167d84169f1a2962f88bacc4b0c04907034158467f33be6d76f6b"),
    # issue 18: lives, lived, began; then reporting verbs (argues, discusses, …)
    # then "sagte", "dijo", "disse", "dit", "detto", "gesagt" … (notes in other languages, 14th session)
    # then 54 verbs of what a person does ("spoke", "vowed", "sang", "tweeted"; 15th session)
    # then 56 verbs of a data team's work after a known name ("fixed", "owns"; 17th session)
    ("memories.refusals.people_words", "_POST_VERBS", 214,
     "75855fd2943089205d8224e74df3d8d69b90ba885cfdc8480f9fb9c7a6a9efe2"),
    # follows _POST_VERBS (issue 18); 122 until the past tenses of the plural nouns ("noted") stayed
    # (eighteenth session)
    ("memories.refusals.people_words", "_POST_VERBS_STRICT", 133,
     "71599d8f51fc8484faad6ef7ad0f2e14e816f959f5792187c509bbbf645c37d2"),
    # issue 18 (people_addresses.py); 37 until the ships of military mail addresses (USNS, USS, USCGC)
    # places named after people (fort, lake, mount, …) for issue 18; 49 until the street prefixes
    # of Faker's es, it, pt, ro and id address providers (twelfth session)
    ("memories.refusals.people_words", "_STREET_PREFIXES", 122,
     "de5424acccecee77a016dad29a87d5dcf07a4bbac867991d24b4f6440da4354d"),
    # 29 until "ville" (Faker's en_IE towns, twelfth session)
    ("memories.refusals.people_words", "_STREET_WORDS_EXTRA", 30,
     "ec6a8af06fbee9329348687f83bcda65a70d605172e60ba70f47d070c339b11a"),
    ("memories.refusals.people_words", "_POST_STATE", 15,
     "4b4d61fdac7df3b0f8bafe2a9820348536c353024f710871f9cab52da228b55c"),
    # 55 when moved out of the code; "gender" and "pronouns" added for "the gender of X" (issue 18);
    # 57 until a face, a voice, hair … ("Ollie's nose", eighteenth session).
    ("memories.refusals.people_words", "_PERSON_NOUNS", 73,
     "3a62d34becaf77581e61c20ff33e6c4800074472c432c7c143f9af0cdcb5e2d8"),
    ("memories.refusals.people_words", "_DEPT_PREPS", 2,
     "d6006c239752e70c3b6624273103a00bd882b939581574c433b8142d87327dca"),
    ("memories.refusals.people_words", "_KOREAN_SYLLABLES", 77,
     "8a9c133acbc1727cb7754740c7cf46654554478096a3eb878c2193ca0b7b951b"),
    ("memories.refusals.people_words", "_EXTRA_FIRST", 369,
     "b2b10e64a7e03ef424e47c7bf2548f5d020fc6f6b4bb1d0a5f0a5f745d65e8eb"),
    ("memories.refusals.people_words", "_EXTRA_LAST", 339,
     "a71bc05a99195f7b8e1ae296ed039a9fccf64013e501388cb634e206a527dca0"),
    ("memories.refusals.people_words", "_EMAIL_ROLES", 61,
     "14309c24a987fc6c3aba41491cfe46362df5784cba9f7e62890ca62865b32f91"),
    ("memories.refusals.people_words", "_CYRILLIC", 37,
     "71cff249537d14138435d557d0cc42f1757bcaf1ad83f37e0f06ecf98072ce4b"),
    ("memories.refusals.people_words", "_NON_LATIN_FAKER_LANGUAGES", 16,
     "04f83034638b237b0ad0669f82d9b7c71f27df2f47bc785734f2315cfc770ff5"),
    # The English words of talk about a password, then (fifteenth session) the same in eight more
    # languages (secrets_common_words_other_languages.txt): 375 -> 722; then nsswitch.conf's
    # sources ("passwd: compat systemd"): 733; "and/or": 734.
    ("memories.refusals.secret_stand_ins", "_COMMON_WORDS", 734,
     "f350589fe34ea312bbca8ad9dc2d3ed41bc978c0aa11e0fad3a6225d99e2549e"),
    ("tables.identifying", "COMMON_WORDS", 199,
     "2cd68fdef2229df138bdc34cdea93fcc33b94a6cdf7a5c33eccb740eb4e5c62f"),
]


def _digest(value) -> tuple[int, str]:
    if isinstance(value, dict):
        entries = sorted(f"{key}\t{val}" for key, val in value.items())
    else:
        entries = [" ".join(e) if isinstance(e, tuple) else e for e in value]
        if isinstance(value, (set, frozenset)):
            entries = sorted(entries)
    return len(entries), hashlib.sha256("\n".join(entries).encode()).hexdigest()


def test_there_are_data_files():
    # 30, the three romanisation tables of issue 18 (romanise.py), and the look-alike table
    # (secrets_confusables, normalise.py), and the keyword look-alikes (secret_prose.py), and
    # the street words of people_addresses.py (two), the vendors' prefixed token formats
    # (secret_vendors.py), and the words that make "key" / "token" no credential
    # (secret_assignments.py), and the calls that take a password (secret_code.py), and the
    # words that end a firm's name (people_addresses.py), and the command-line tools' password
    # flags (secret_cli.py), and what people are and are like (people_cues.py: roles, traits),
    # and what a name is when it is an organisation (people_addresses.py), and the works one
    # person writes (people_cues.py), and the methods named after people (people_addresses.py),
    # and what is done to a person ("was born", people_cues.py), and the heads of Faker's job
    # titles that also name programs (people_lexicon.py: "agent", "manager"), and the bots and
    # services addressed by handle (people_cues.py: "@dependabot"), and what a team builds and
    # names after a codename (people_addresses.py: "the Marquez lineage check"), and the words
    # that make a separate "key" / "token" a key of data (secret_context.py: "cache key …"), and
    # the legal forms and firm's words of Faker's company providers (people_firms.py), and the
    # names frequent in English only as names (people_lexicon.py, thirteenth session), and the
    # digits read out in seven languages (normalise_spelt.py, fourteenth session), and the words
    # after a credential's noun that keep it the credential (secret_unjoined.py, fifteenth session), and
    # the words of talk about a password in eight more languages (secret_stand_ins.py, the same), and
    # the syllables and surnames of Hong Kong and Taiwan names (people_hyphenated.py, the same), and
    # the dotted capitals that are no one's initials (people_initials.py, the same), and the nouns
    # a thing's name follows (secret_unjoined.py, the same), and the verbs of a data team's work
    # after a known name (people_words.py, seventeenth session), and the names that stand for
    # nobody (people_placeholders.py, the same), and a key's nouns in other languages
    # (secret_unjoined.py, the same: they were a regular expression there), and the commonest
    # words of seventeen languages (people_languages.py, the same), and the words that say a name
    # in a script without case is a person's (people_scripts.py, the same), and Russian short
    # names (people_cyrillic.py, the same), and the parts that keep joined words in quotes a name
    # (secret_stand_ins.py, eighteenth session), and what is said only of a person's life and
    # the epithets said of people (people_cues.py, the same)
    assert len(DATA_FILES) == 71


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: p.name)
def test_data_file_is_clean(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines and lines[0].startswith("# "), "the file starts with a comment naming its source"
    header = 0
    while header < len(lines) and lines[header].startswith("#"):
        header += 1
    body = lines[header:]
    assert body, "no entries"
    assert all(line != "" for line in body), "blank line among the entries"
    assert not any(line.startswith("#") for line in body), "comments only at the top"
    assert all(line == line.strip() for line in body), "spaces around an entry"
    assert len(body) == len(set(body)), "duplicate entries"
    name = path.stem
    assert wordlists.entries(name) == tuple(body)
    assert wordlists.words(name) == frozenset(body)


def test_every_data_file_is_used():
    used = set()
    # The romanisation tables are read by romanise.py (scheme tables, not word lists: not frozen),
    # the token formats by secret_vendors.py, the credential calls by secret_code.py, the
    # command-line password flags by secret_cli.py, the words of data keys by secret_context.py, the
    # legal forms and firm prefixes by people_firms.py, the spoken digits by normalise_spelt.py, the
    # words after a credential's noun by secret_unjoined.py (and, like the English words of talk about
    # a password, the other languages' ones by secret_stand_ins.py, a FROZEN module), the syllables
    # and surnames of Hong Kong and Taiwan names by people_hyphenated.py, the dotted abbreviations by
    # people_initials.py, the placeholder names by people_placeholders.py, the languages' commonest
    # words by people_languages.py.
    for module in {m for m, _, _, _ in FROZEN} | {
        "memories.refusals.romanise", "memories.refusals.normalise", "memories.refusals.secret_prose",
        "memories.refusals.secret_vendors", "memories.refusals.secret_assignments",
        "memories.refusals.secret_code", "memories.refusals.secret_cli", "memories.refusals.secret_context",
        "memories.refusals.people_firms", "memories.refusals.normalise_spelt",
        "memories.refusals.secret_unjoined", "memories.refusals.people_hyphenated",
        "memories.refusals.people_initials", "memories.refusals.people_placeholders",
        "memories.refusals.people_languages", "memories.refusals.people_scripts",
        "memories.refusals.people_cyrillic",
    }:
        source = importlib.import_module(module).__file__
        assert source is not None
        text = Path(source).read_text(encoding="utf-8")
        used |= {p.stem for p in DATA_FILES if f'"{p.stem}"' in text}
    assert used == {p.stem for p in DATA_FILES}


@pytest.mark.parametrize(("module", "name", "size", "sha256"), FROZEN, ids=lambda v: str(v))
def test_list_is_unchanged(module, name, size, sha256):
    value = getattr(importlib.import_module(module), name)
    assert _digest(value) == (size, sha256)


def test_types_the_code_expects():
    from memories.refusals import people_words as people

    assert isinstance(people._TECH, frozenset)
    assert isinstance(people._TECH_PHRASES, list)
    assert all(len(pair) == 2 for pair in people._PRE_PERSONAL_PAIRS)
    assert isinstance(people._CYRILLIC, dict)
    assert people._CYRILLIC["ъ"] == "" and people._CYRILLIC["щ"] == "shch"
    assert people._TECH_PHRASES[:2] == ["spring boot", "spring security"]


def test_loaded_once():
    assert wordlists.words("people_tech") is wordlists.words("people_tech")
