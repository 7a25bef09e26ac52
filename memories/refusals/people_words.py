"""The person detector's word lists (R-SAVE-3b), read once from memories/refusals/data/people_*.txt.

Each file says where its words come from; memories.refusals.people says how the rules use them.
Keys are lower case, accents stripped.
"""

from __future__ import annotations

from memories.refusals.phrases import strip_accents
from memories.refusals.wordlists import entries, pairs, table, words

# ---------------------------------------------------------------------------------------
# Word lists, kept as data in memories/refusals/data/people_*.txt (each file says where
# its words come from). Keys are lower case, accents stripped. Read once, when this module
# is imported (about 25 small files); the large Faker and wordfreq lists load on the first
# call (see _get_lexicon).

# Names that are among the most frequent English words only because they are names: they
# stay plain names (rule 3). Less those that are frequent words first ("Will", "Grant").
_COMMON_NAMES = words("people_common_names") - words("people_common_names_ambiguous")
# Names frequent only as names ("Stephanie", "Cohen"): names in a run, alone only with a cue.
_NAMES_FREQUENT_AS_NAMES = words("people_names_frequent_as_names")

# Common words that are names too: ambiguous even when wordfreq does not rank them high
# (the frequent ones are found through wordfreq).
_AMBIGUOUS_EXTRA = words("people_ambiguous_extra")

# Software, services, companies and products that are also first names, surnames or
# words of a name. Never a person on their own (see the module docstring).
_TECH = words("people_tech")

# Multi-word tech, company and place names (checked as whole phrases before the rules).
_TECH_PHRASES = list(entries("people_tech_phrases"))


def name_key(word: str) -> str:
    """A word as the person detector compares it: lower case, accents stripped ("Märkte" reads
    "markte", "Παρασκευή" "παρασκευη")."""
    if word.isascii():
        return word.lower()
    return strip_accents(word).casefold().replace("’", "'")


_PLACES = words("people_places")
_CALENDAR = frozenset(map(name_key, words("people_calendar")))  # tokens are keyed: "März" is "marz"

# Teams, departments and groups: "ask Finance", "email Support" do not name a person.
_GROUPS = words("people_groups")

# Words that end a firm's name: a name-shaped span right before one is the firm's ("Rand
# Corporation"), not a person.
_FIRM_WORDS = words("people_firm_words")

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
# After a word the name lists call a name, also what a person does at work ("Diego fixed the
# join", "Sofia owns the pipeline").
_POST_VERBS = words("people_post_verbs") | words("people_post_work_verbs")
# Without those, and without the words that are also plural nouns ("Short replies", "Page
# likes", "Release notes"): for ambiguous and unknown words. Their past tenses are no nouns
# ("Heald noted", "Rathke explained"), so they stay.
_POST_VERBS_STRICT = words("people_post_verbs") - {
    word for word in words("people_post_verbs_plural_nouns") if not word.endswith("ed")}
_POST_STATE = words("people_post_state")
# "Goode was born in Exeter": for names no list calls ambiguous.
_POST_PASSIVE = words("people_post_passive")
# Of those, what is said only of a person's life ("Paris was born in …"): after ambiguous names too.
_POST_PASSIVE_LIVES = words("people_post_passive_lives")
# "Constantine the Great", "Pliny the Elder": an epithet says the name before it is a person's.
_EPITHETS = words("people_epithets")
# Addresses (people_addresses.py): words before a street name ("Via", "Rua", "St."), and street
# words after one besides Faker's English street suffixes ("u.", "utca", "straat").
_STREET_PREFIXES = words("people_street_prefixes")
_STREET_WORDS_EXTRA = words("people_street_words_extra")
_PERSON_NOUNS = words("people_person_nouns")
# What people are ("X and Y were engineers") and what only people are like ("X is so shy").
_ROLES = words("people_roles")
# Faker's job titles' head nouns that are not read as roles (people_lexicon adds the rest).
_JOB_HEADS_NOT_PEOPLE = words("people_job_heads_not_people")
_TRAITS = words("people_traits")
# What a name is when "X is a …" says it is no person ("Weeks-Rivas is a 501(c)3").
_ORG_NOUNS = words("people_org_nouns")
# What one person writes: "the Ruoho novel".
_AUTHORED_WORKS = words("people_authored_works")
# What is named after a person without being one: "the Wilson score interval".
_EPONYM_NOUNS = words("people_eponym_nouns")
# What a team names after a codename or a brand: "the Marquez lineage check".
_ARTIFACT_NOUNS = words("people_artifact_nouns")
_DEPT_PREPS = words("people_dept_preps")
_KOREAN_SYLLABLES = words("people_korean_syllables")

# Romanised names that Faker has only in their own scripts, or not at all.
_EXTRA_FIRST = words("people_extra_first_names")
_EXTRA_LAST = words("people_extra_surnames")

# Bots and services addressed by handle ("@dependabot rebase").
_HANDLE_SERVICES = words("people_handle_services")

# Role and system local parts of email addresses.
_EMAIL_ROLES = words("people_email_roles")

_CYRILLIC = table("people_cyrillic")


# Faker locales whose names are only in a script that is neither Latin nor Cyrillic (and
# that have no romanised list): not loaded, to save time.
_NON_LATIN_FAKER_LANGUAGES = words("people_faker_non_latin_languages")
