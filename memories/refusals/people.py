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
``memories.refusals.wordlists``). The detector is eight modules: ``people_words`` (the lists),
``people_lexicon`` (Faker and wordfreq, loaded once), ``people_tokens`` (a note's words and
their kinds), ``people_cues`` (the words around a name, names in emails and handles),
``people_statements`` (what a text says of a name: listed, called, cited as people),
``people_titles`` (rule 1), ``people_addresses`` (streets, firms, places and methods named after
people) and this one (the rules below).

The rules, on words written as names (capitalised, or lower case where a cue says so):

1. A title and a name: "Ms. Lopez", "dr. okafor", "Prof. van der Berg".
2. Two or more capitalised name words in a row, one of them a known first name or
   surname: "Chidi Okonkwo", "Grant Holloway", "Liu Yuting"; or an ambiguous first name
   and a word no list or dictionary knows ("Mark Whitfield").
   (2b) A first name and a surname in capitals, each no frequent English word ("PRIYA RAMAN");
   other capitals are acronyms.
3. A known first name or surname, capitalised, that is not ambiguous, word-like, tech or
   a place: "Priya prefers CSV", "send it to Nguyen".
4. Any name word (ambiguous, or one no list knows) with a cue that it is a person: before
   it "ask", "tell", "ping", "cc", "thanks", "email", "meeting with", "my manager", "our
   CFO", "according to"; after it "said", "prefers", "wants", "is on leave", "from sales",
   or a possessive with "birthday", "wife", "phone" ... Lower-case names need such a cue,
   or to come as a first name and surname together ("chidi okonkwo").
5. An email address whose local part holds a name ("ana.lopez@", "j.okafor@", "priya@"),
   but not role addresses ("support@", "noreply@", "data-team@", "editor@"); (5b) a first
   name and a surname joined as one identifier ("chidi.okonkwo", "priya_raman.csv"), not in a
   path, a URL or a call.
6. (issue 18) Runs rule 2 does not take: name words around a middle initial ("Shane M
   Culp", "Mohmad R. Vizirov"), or two or three name words one of which no list and no
   dictionary knows ("Chihiro Fukunaga", "Charlotte Mathiassen"; not after "in", "at"…).
7. (issue 18) Not a person after all: a span that is part of an address or a firm's name
   ("103 Cassidy Street", "Via Roma", "Lopez, Santos and Coleman is an agency", "Rand
   Corporation"), by the rules of ``people_addresses`` (a title's span only when the title is a
   street's "Dr"); a run after "in" or "near" ("I'm in Den Haag").
8. (issue 18, second draw) A name given or spoken to, in any case: the answer to "your last
   name?" or the word after "call me" (``people_cues.name_given``), a name opening a sentence
   spoken to "you" ("Bryce, can you …", ``spoken_to``); and the name an address is written to,
   on the line above it (``people_addresses.addressee``).
9. (issue 18, second draw) Said to be people: a list "X and Y were engineers", "founders: X, Y
   and Z" (``people_cues.people_lists``), "X is an engineer", "Why is X so impulsive?"
   (``said_to_be_a_person``; data/people_roles.txt, people_traits.txt), "the gender of X";
   (third draw) "ex-Zombie X", "the X novel", "X had given Y his address" (``gives_or_is_given``);
   (GUM) a role in apposition, "X, a chartered surveyor," (roles: data/people_roles.txt and the
   head nouns of Faker's job titles), "X notes he …", "X, who …".

Measured on the tuning corpus (benchmarks/people_corpora.py: tests/data/people_corpus.json and
the cases moved from the outside set) and, blind, on tests/data/outside/people/ (its README
says what was looked at).

Words glued to code (``pandas.DataFrame``, ``user_name``, ``'Hope'`` in quotes), all-caps
words and CamelCase words (other than Mc/Mac/O'/De... names) are never names.

Known limits: a first name that no list knows, with no cue ("Lunch with Dariush"), is
missed; so are phone numbers and ids (the table index of R-SAVE-3 sees those). German
text, where every noun is capitalised, can be taken for names.
"""

from __future__ import annotations

from dataclasses import dataclass

from memories.refusals.disguise import markup_taken_off, spelt_apart, undigited, visible
from memories.refusals.people_addresses import addressee, after_place_word, not_a_person
from memories.refusals.people_cues import (
    _capitals_runs,
    _joined,
    _lower_pair,
    _mark_tech_phrases,
    _post_cue,
    _pre_cue,
    initialled,
    name_given,
    spoken_to,
)
from memories.refusals.people_handles import (
    _dotted_names,
    _email_names_person,
    handles,
    names_apart_by_a_slash,
)
from memories.refusals.people_hyphenated import hyphenated_chinese_names
from memories.refusals.people_initials import dotted_initials
from memories.refusals.people_languages import text_language
from memories.refusals.people_lexicon import (
    _get_lexicon,
    load,
)
from memories.refusals.people_placeholders import inside_a_placeholder
from memories.refusals.people_readings import joined_name_spans
from memories.refusals.people_rendered import (
    name_fields,
    url_decoded,
)
from memories.refusals.people_runs import (
    first_and_rare_surname,
    germanic_particle_name,
    initial,
    is_name_word,
    run_is_name,
    unknown_run,
)
from memories.refusals.people_scripts import native_name_spans
from memories.refusals.people_statements import (
    cited_authors,
    families,
    gives_or_is_given,
    inverted_names,
    lower_case_name_lists,
    lower_name_line,
    people_lists,
    said_to_be_a_person,
)
from memories.refusals.people_titles import title_at
from memories.refusals.people_tokens import (
    _tokenize,
)
from memories.refusals.people_words import (
    _PARTICLES,
    _TITLES,
)
from memories.refusals.phrases import EMAIL_RE

__all__ = ["PersonMention", "find_person_mentions", "load"]


@dataclass(frozen=True)
class PersonMention:
    text: str  # the span as written
    start: int
    end: int


def find_person_mentions(text: str) -> list[PersonMention]:
    """Spans of ``text`` that look like a specific person's name (R-SAVE-3b).

    An empty list means no person was found. See the module docstring for the rules.
    Thread-safe; the word lists load on the first call. A name found only once a disguise is
    taken off (memories.refusals.disguise: invisible characters, a right-to-left override,
    digits for letters, letters spelt apart) is reported as the whole text: its places are the reading's.
    """
    found = _mentions_as_written(text)
    if found or not text:
        return found
    shown = markup_taken_off(text)
    for reading in (visible(text), undigited(text), spelt_apart(text), shown.text if shown else None,
                    url_decoded(text), name_fields(text)):
        if reading is not None and _mentions_as_written(reading):
            return [PersonMention(text=text, start=0, end=len(text))]
    return []


def _mentions_as_written(text: str) -> list[PersonMention]:
    if not text:
        return []
    lex = _get_lexicon()
    spans: list[tuple[int, int]] = []

    # Rule 5: emails, and handles ("@priya", "@j.doe") read as an email's local part. Their words
    # are not looked at again.
    email_spans = []
    for match in EMAIL_RE.finditer(text):
        email_spans.append((match.start(), match.end()))
        if _email_names_person(match.group(0).split("@", 1)[0], lex):
            spans.append((match.start(), match.end()))
    for start, end, names in handles(text, email_spans, lex):
        email_spans.append((start, end))
        if names:
            spans.append((start, end))
    spans += _dotted_names(text, email_spans, lex)  # "chidi.okonkwo", "Priya_Raman"
    spans += hyphenated_chinese_names(text)  # "Wong Yeung-tat", "Chi-wai Leung"
    spans += dotted_initials(text)  # "J.O. asked for a refund", "thanks J.O."
    spans += names_apart_by_a_slash(text, lex)  # "Kwame/Priya to pair on the migration"
    tokens = _tokenize(text, lex)
    if email_spans:
        tokens = [t for t in tokens if not any(s <= t.start < e for s, e in email_spans)]
    if not tokens:
        return _to_mentions(text, spans)
    _mark_tech_phrases(tokens)

    n = len(tokens)
    used = [False] * n

    # Rule 1: a title and a name.
    titled: set[tuple[int, int]] = set()
    for i in range(n):
        if used[i] or tokens[i].key not in _TITLES:
            continue
        end = title_at(text, tokens, i, lex)
        if end is not None:
            spans.append((tokens[i].start, tokens[end].end))
            titled.add(spans[-1])
            for k in range(i, end + 1):
                used[k] = True

    # Rule 2: runs of capitalised name words.
    i = 0
    while i < n:
        if used[i] or not is_name_word(tokens[i]):
            i += 1
            continue
        j = i
        while j + 1 < n and not used[j + 1] and _joined(text, tokens[j], tokens[j + 1]):
            nxt = tokens[j + 1]
            if is_name_word(nxt):
                j += 1
            elif (
                nxt.key in _PARTICLES
                and nxt.lower
                and j + 2 < n
                and _joined(text, nxt, tokens[j + 2])
                and is_name_word(tokens[j + 2])
            ):
                j += 2
            elif (
                nxt.key in _PARTICLES
                and nxt.lower
                and j + 3 < n
                and tokens[j + 2].key in _PARTICLES
                and tokens[j + 2].lower
                and _joined(text, nxt, tokens[j + 2])
                and _joined(text, tokens[j + 2], tokens[j + 3])
                and is_name_word(tokens[j + 3])
            ):
                j += 3  # "Jaap van der Poel", "María de los Ángeles"
            elif (
                initial(nxt)
                and j + 2 < n
                and not used[j + 2]
                and text[nxt.raw_end : tokens[j + 2].start] in (" ", ". ")
                and is_name_word(tokens[j + 2])
                and len(tokens[j].text) > 1
            ):
                j += 2  # "Shane M Culp", "Mohmad R. Vizirov": a middle initial
            else:
                break
        run = [t for t in tokens[i : j + 1] if not (t.key in _PARTICLES and t.lower) and not initial(t)]
        initials = any(initial(t) for t in tokens[i : j + 1])
        if len(run) >= 2 and (run_is_name(run, lex) or unknown_run(text, run, lex, initials)
                              or germanic_particle_name(text, tokens[i : j + 1], run)
                              or first_and_rare_surname(text, tokens, i, j, lex)
                              or addressee(text, run, lex) or said_to_be_a_person(text, tokens[j], lex)):
            if not (after_place_word(text, tokens[i].start) and not tokens[j].possessive):
                spans.append((tokens[i].start, tokens[j].end))
            for k in range(i, j + 1):
                used[k] = True  # a place's words ("in Den Haag") are not names one by one either
        i = j + 1

    # Rule 2b: a first name and a surname written in capitals ("CALL PRIYA RAMAN", people_cues).
    for start, end in _capitals_runs(text, tokens, used, lex):
        spans.append((tokens[start].start, tokens[end].end))
        for k in range(start, end + 1):
            used[k] = True

    # Lower-case words are read as names only in English text: in Tagalog or Indonesian the
    # common words are names in some list ("siya sayo", "na kami").
    lowered = [t for t in tokens if t.lower]
    english_text = (len(lowered) < 5 or sum(t.kind == "X" for t in lowered) >= 0.4 * len(lowered)) \
        and text_language(tokens) is None

    # Rules 3 and 4: single words.
    listed = people_lists(text, tokens, lex)  # "X and Y were engineers"
    for start, end in lower_case_name_lists(text, lex):  # "silvana, adam, kristina and caleb"
        spans.append((start, end))
        for k, token in enumerate(tokens):
            used[k] = used[k] or start <= token.start < end
    cited = cited_authors(text, tokens, lex)  # "Sapir (1971)": not "Belle (2013)", a film
    for i, tok in enumerate(tokens):
        if used[i] or tok.kind in "XP" or tok.code:
            continue
        if tok.cap:
            if tok.kind in "SL" and tok.key not in lex.wordlike and tok.key not in lex.lone_needs_cue:
                held = True  # "Priya prefers CSV", "send it to Okafor" (not "the Stan model")
            elif tok.kind == "E":
                held = False
            elif (pre := _pre_cue(text, tokens, i)) == "people" or (
                pre in ("personal", "contact") and tok.kind != "T"
            ):
                held = True  # "ask Will", "my manager Julia", "ping Oyelaran", "email Yusuf"
            elif tok.kind in "SLWU":
                # "Will said", "Jordan from sales", "Zhyldyz said"; "Bryce, can you …"
                held = (_post_cue(text, tokens, i, strict=tok.kind in "WU") or spoken_to(text, tok)
                        or initialled(text, tok, lex)
                        or said_to_be_a_person(text, tok, lex) or gives_or_is_given(text, tok)
                        or any(s <= tok.start < e for s, e in listed)
                        or (tok.kind != "W" and any(s <= tok.start < e for s, e in cited)))
            else:  # tech: only "Julia's birthday"
                held = tok.possessive and _post_cue(text, tokens, i)
            # "What's your last name? Nielsen", "my name is Will"
            held = held or (tok.kind in "SLWUT" and name_given(text, tok))
            if held:
                spans.append((tok.start, tok.end))
                used[i] = True
            continue
        if not tok.lower:
            continue
        if tok.kind in "SLWU" and tok.key not in lex.english and name_given(text, tok):
            spans.append((tok.start, tok.end))  # "people call me višeslav"
            used[i] = True
            continue
        if i + 2 < n and not used[i + 2] and lower_name_line(text, tokens[i:i + 3], lex):
            spans.append((tok.start, tokens[i + 2].end))  # "emidio p lombardo" on its own line
            used[i] = used[i + 1] = used[i + 2] = True
            continue
        nxt = tokens[i + 1] if i + 1 < n else None
        if nxt is not None and not used[i + 1] and english_text and _lower_pair(text, tok, nxt, lex):
            spans.append((tok.start, nxt.end))  # "chidi okonkwo", "wang zihan"
            used[i] = used[i + 1] = True
            continue
        if tok.kind in "SL":
            pre = _pre_cue(text, tokens, i)
            if pre in ("people", "personal", "contact") or (
                tok.key not in lex.wordlike
                and ((pre == "weak" and tok.kind == "S") or _post_cue(text, tokens, i)
                     or gives_or_is_given(text, tok))
            ):
                spans.append((tok.start, tok.end))
                used[i] = True
        elif tok.kind == "W" and tok.possessive and _post_cue(text, tokens, i):
            spans.append((tok.start, tok.end))  # "will's birthday"
            used[i] = True

    spans += inverted_names(text, lex) + families(text, tokens, lex)  # "Twain, Mark.", "the Nguyens"
    # Places and companies named after people (people_addresses): "103 Cassidy Street".
    # A list the text says are people is no firm ("Lopez, Santos and Coleman is an agency").
    kept = set(email_spans) | {span for span in spans if any(s <= span[0] < e for s, e in listed)}
    spans = [span for span in spans if span in kept
             or not not_a_person(text, *span, lex, after_title=span in titled)]
    spans += [span for span in joined_name_spans(text, _names_someone) + native_name_spans(text)
              if not any(s < span[1] and span[0] < e for s, e in spans)]  # "MariaGarcia", "אברהם כהן"
    return _to_mentions(text, spans)


def _names_someone(words: str) -> bool:
    """A run read back as words (people_readings) that the rules hold alone, each word a name the
    lists know and no English word: "Maria Garcia", "Chidi Okonkwo"; not "Indy Car", nor a brand
    joined from a word no list knows."""
    lex = _get_lexicon()
    for word in words.split():
        key = word.lower()
        if not (key in lex.first or key in lex.last) or key in lex.ambiguous or key in lex.wordlike:
            return False
    return any(m.start == 0 and m.end == len(words) for m in _mentions_as_written(words))


def _to_mentions(text: str, spans: list[tuple[int, int]]) -> list[PersonMention]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(inside_a_placeholder(text, spans)):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return [PersonMention(text=text[s:e], start=s, end=e) for s, e in merged]
