"""What a text says of a name that makes it a person's (R-SAVE-3b, issue 18): listed as people
("X and Y were engineers", "founders: X, Y and Z"), called one ("X is an engineer", "X, a chartered
surveyor,", "Why is X so impulsive?"), referred to as one ("X notes he …", "X, who …"), giving or given a thing of "his" or "her", cited as an author ("Sapir (1971)"),
written surname first on a line ("Twain, Mark."), a lower-case name with a middle initial
alone on its line ("emidio p lombardo"), or a family by its surname ("the Nguyens"). The word lists are data files (people_roles.txt,
people_traits.txt, people_authored_works.txt).
"""

from __future__ import annotations

import re

from memories.refusals.people_lexicon import _key, _Lexicon
from memories.refusals.people_tokens import _Token
from memories.refusals.people_words import _AUTHORED_WORKS, _CALENDAR, _PLACES, _TECH, _TRAITS

# "Usamov and Bowers were precision engineers", "our 3 founders: Gerste, Johnson and Johnson":
# capitalised words listed together and said to be people (data/people_roles.txt).
# The role is the phrase's last word: punctuation or a preposition follows ("engineers at Acme").
_ROLE_ENDS = (r"(?=[ \t]*(?:[.,;:!?)\n]|$)|[ \t]+(?:at|from|of|who|in|with|and|for|since|until|"
              r"before|on|to)\b)")
_LISTED_NAME = r"[A-Z][\w'’\-]+"
_NAME_LIST = rf"{_LISTED_NAME}(?:(?:[ \t]*,[ \t]*(?:and[ \t]+)?|[ \t]+(?:and|&)[ \t]+){_LISTED_NAME})+"
_LISTED_AS_PEOPLE_RE = re.compile(
    rf"(?<![\w\-])(?P<named>{_NAME_LIST})[ \t]+(?:were|are|became|have[ \t]+been)[ \t]+"
    rf"(?:[a-z\-]+[ \t]+){{0,2}}(?P<role>[a-z\-]+){_ROLE_ENDS}"
    rf"|\b(?P<role_first>[A-Za-z\-]+)[ \t]*:[ \t]*(?P<listed>{_NAME_LIST})"
)
# "Tomasz was a precision engineer"; "Why is Glyceria so impulsive?", "Ines is very shy".
_CALLED_AFTER_RE = re.compile(
    r"[ \t]+(?:is|was)[ \t]+(?:a|an)[ \t]+(?:[a-z\-]+[ \t]+){0,2}(?P<role>[A-Za-z][a-z\-]+)" + _ROLE_ENDS +
    r"|[ \t]+(?:is|was|seems|seemed|can[ \t]+be|gets|got)[ \t]+"
    r"(?:(?:so|very|really|too|always|quite|a[ \t]+bit)[ \t]+)?(?P<trait>[a-z\-]+)\b"
    r"|[ \t]+(?:so|very|really|too|always)[ \t]+(?P<asked_trait>[a-z\-]+)\b"
)
# "McKenzie, a silver and bronze Paralympic medalist, …", "Rob Siegel, former editor-in-chief, …":
# a role in apposition, after a comma, with at most four words before it.
_APPOSITION_RE = re.compile(r",[ \t]+(?:(?:a|an|the|former|then|later|now|our|their|his|her|its)[ \t]+)?")
_APPOSED_WORD_RE = re.compile(r"([\w\-]+)(?:[ \t]+|(?=[^\w\-]))")
_ROLE_ENDS_RE = re.compile(_ROLE_ENDS)


def _apposed_role(text: str, pos: int, lex: _Lexicon) -> bool:
    """A role among the five words after ", a" at ``pos``, where its phrase ends."""
    apposed = _APPOSITION_RE.match(text, pos)
    if apposed is None:
        return False
    pos = apposed.end()
    for _ in range(5):
        word = _APPOSED_WORD_RE.match(text, pos)
        if word is None:
            return False
        if word.group(1).islower() and _is_role(word.group(1), lex) and _ROLE_ENDS_RE.match(text, word.end(1)):
            return True
        pos = word.end()
    return False
# Referred to as only a person is: "Sarvis notes he favors …", "Paris claims that she was …"
# (a verb of saying or thinking, then "he" or "she"), "Goode, who …" (not "Retool, who owns it?").
_REFERRED_TO_AFTER_RE = re.compile(
    r"[ \t]+(?:also[ \t]+|later[ \t]+|then[ \t]+)?[a-z]+(?:s|ed)[ \t]+(?:that[ \t]+)?(?:he|she)\b"
    r"|,[ \t]+who[ \t]+[a-z][^.?!\n]*(?![^.?!\n])(?!\?)"
)
# "Pyrion continues his streak", "Kwiruka left her group", "Womble knew … because his crosshair …":
# a sentence's subject, its verb and later "his", "him" or "her", no other name between. Not "he"
# or "she", often a clause's own subject ("Snowpipe loaded the files she sent"). A tool no list
# knows is taken for a person so ("Snowpipe loaded her files"): rare in notes, and held, not lost.
# The subject opens its sentence, after a short phrase and a comma ("In 2007, Paris left …") or
# after "that" ("claims that Paris …").
_SENTENCE_START_BEFORE_RE = re.compile(
    r"(?:(?:^|[.!?\n][\s\"'“]*)(?:[^.!?\n,]{1,30},[ \t]+)?|\bthat[ \t]+)$")
_VERB_THEN_PERSONAL_PRONOUN_RE = re.compile(
    r"[ \t]+(?!(?:of|and|or|to|in|on|at|for|is|was|the|a|an)\b)[a-z]+\b"
    r"(?P<rest>[^.!?\n]{0,80}?)\b(?:his|him|himself|her|herself)\b")
_NAME_IN_BETWEEN_RE = re.compile(r"\b[A-Z][a-z]+")


# "Hats off to Nick for his love …", "kudos to Ana for her fix": credited for what is his or hers.
_FOR_HIS_OR_HER_AFTER_RE = re.compile(r"[ \t]+for[ \t]+(?:his|her)\b")


def _subject_referred_to_as_a_person(text: str, tok: _Token) -> bool:
    if not tok.possessive and _FOR_HIS_OR_HER_AFTER_RE.match(text, tok.raw_end):
        return True
    if tok.possessive or _SENTENCE_START_BEFORE_RE.search(text, max(0, tok.start - 40), tok.start) is None:
        return False
    match = _VERB_THEN_PERSONAL_PRONOUN_RE.match(text, tok.raw_end)
    return match is not None and _NAME_IN_BETWEEN_RE.search(match.group("rest")) is None


_LIST_VERBS = (" were ", " are ", " became ", " been ")
_WORD_AFTER_RE = re.compile(r" ([a-z]+)\b")
# "cormac had given cormac his address": who gives, and to whom, a thing of "his" or "her".
_GIVING = r"(?:gave|given|give|gives|sent|told|showed|shown|handed|emailed|texted|offered)"
_GIVES_AFTER_RE = re.compile(r"[ \t]+(?:had[ \t]+|has[ \t]+)?" + _GIVING + r"[ \t]+[\w'’\-]+[ \t]+(?:his|her|their)\b",
                             re.IGNORECASE)
_GIVEN_TO_BEFORE_RE = re.compile(r"\b" + _GIVING + r"[ \t]+$", re.IGNORECASE)
_THEIR_AFTER_RE = re.compile(r"[ \t]+(?:his|her|their)\b", re.IGNORECASE)


# "We bought Riley a onesie", "got Rob a coffee": a name between such a verb and a thing is who
# gets it; what a tool or a job gets is a try, a restart or a look, said of no one in particular.
_BOUGHT_FOR = (r"(?:bought|buy|buys|got|get|gets|gave|give|gives|sent|send|sends|made|make|makes|showed|show|"
               r"handed|offered|brought|bring|brings|wished|wish|owe|owes|lent|lend|told|tell|taught|teach|"
               r"promised|cooked|baked|knitted|sang|read)")
_BOUGHT_FOR_BEFORE_RE = re.compile(r"\b" + _BOUGHT_FOR + r"[ \t]+$", re.IGNORECASE)
_A_THING_AFTER_RE = re.compile(r"[ \t]+(?:a|an|the|some|this|that)[ \t]+(?P<thing>[a-z]+)\b")
_NOTHING_GIVEN = frozenset("try go shot look spin whirl chance restart reboot kick nudge boost bump refresh rest "
                           "break run pass test second hand heads ping once".split())


def gives_or_is_given(text: str, tok: _Token) -> bool:
    """``tok`` gives someone, or is given, a thing that is "his" or "her" ("cormac had given
    cormac his address", "we sent Okafor her badge"), or a name is given a thing ("We bought
    Riley a onesie"; a known name only): only people give and get so."""
    if _GIVES_AFTER_RE.match(text, tok.raw_end):
        return True
    if tok.kind in "SLW" and (thing := _A_THING_AFTER_RE.match(text, tok.raw_end)) is not None \
            and thing.group("thing") not in _NOTHING_GIVEN \
            and _BOUGHT_FOR_BEFORE_RE.search(text, max(0, tok.start - 12), tok.start) is not None:
        return True
    return (_THEIR_AFTER_RE.match(text, tok.raw_end) is not None
            and _GIVEN_TO_BEFORE_RE.search(text, max(0, tok.start - 12), tok.start) is not None)
_ASKED_BEFORE_RE = re.compile(r"\b(?:is|was|are|isn't|wasn't)[ \t]+$", re.IGNORECASE)


def _without_tools_or_places(spans: list[tuple[int, int]], tokens: list[_Token], lex: _Lexicon
                             ) -> list[tuple[int, int]]:
    """The spans that hold no tool or place that is nobody's name ("Editors: Vim, Emacs and
    Nano"; "Johnson" is a surname too)."""
    return [(start, end) for start, end in spans
            if not any(start <= t.start < end and t.kind in "TP" and t.key not in lex.first
                       and t.key not in lex.last for t in tokens)]


def people_lists(text: str, tokens: list[_Token], lex: _Lexicon) -> list[tuple[int, int]]:
    """Spans of lists of capitalised words that the text says are people (``lex.roles``), unless
    an item is a tool or a place that is nobody's name ("Editors: Vim, Emacs and Nano";
    "Johnson" is a surname too)."""
    if ":" not in text and not any(verb in text for verb in _LIST_VERBS):
        return []
    if not any(t.key in lex.roles for t in tokens):
        return []
    spans = []
    for match in _LISTED_AS_PEOPLE_RE.finditer(text):
        if match.group("named") is not None and match.group("role") in lex.roles:
            spans.append(match.span("named"))
        elif match.group("listed") is not None and match.group("role_first").lower() in lex.roles:
            spans.append(match.span("listed"))
    return _without_tools_or_places(spans, tokens, lex)


def _is_role(word: str, lex: _Lexicon) -> bool:
    """"engineer", "Professor", "editor-in-chief" (a role and what it is of)."""
    word = word.lower()
    return word in lex.roles or (word.count("-") == 2 and word.split("-")[0] in lex.roles)


def said_to_be_a_person(text: str, tok: _Token, lex: _Lexicon) -> bool:
    """The words after ``tok`` say it is a person: a role ("is an engineer", "is a very
    sympathetic person"), a trait of character ("is so impulsive"; "so impulsive" only when
    asked, "Why is Glyceria so …"), or a work only a person writes ("the Ruoho novel")."""
    work = _WORD_AFTER_RE.match(text, tok.raw_end)
    if work is not None and not tok.possessive and work.group(1) in _AUTHORED_WORKS:
        return True
    if _apposed_role(text, tok.raw_end, lex):
        return True
    if _REFERRED_TO_AFTER_RE.match(text, tok.raw_end) or _subject_referred_to_as_a_person(text, tok):
        return True
    match = _CALLED_AFTER_RE.match(text, tok.raw_end)
    if match is None:
        return False
    if match.group("role") is not None:
        return _is_role(match.group("role"), lex)
    if match.group("trait") is not None:
        return match.group("trait") in _TRAITS
    return (match.group("asked_trait") in _TRAITS
            and _ASKED_BEFORE_RE.search(text, max(0, tok.start - 12), tok.start) is not None)


# A form's field at a line's start, not indented (YAML's "  name: mysecret" is a key's value).
_NAME_FIELD_RE = re.compile(r"(?i)name[ \t]*:[ \t]*")


def lower_name_line(text: str, run: list[_Token], lex: _Lexicon) -> bool:
    """A line that is only a name with a middle initial, in lower case ("emidio p lombardo" at
    the top of an address, "name:    hyuuma t. maida" in a form): two name words around one
    letter, one of them a first name or a surname and one no dictionary knows."""
    first, initial, last = run
    if not (first.lower and last.lower and len(initial.text) == 1 and initial.text.isalpha()):
        return False
    line_start = text.rfind("\n", 0, first.start) + 1
    line_end = text.find("\n", last.end)
    line_end = len(text) if line_end == -1 else line_end
    before = text[line_start:first.start]
    if (before.strip() and not _NAME_FIELD_RE.fullmatch(before)) or text[last.end:line_end].strip():
        return False
    if text[first.raw_end:initial.start] != " " or text[initial.end:last.start].strip(".") != " ":
        return False
    words = (first, last)
    return (all(t.kind in "SLU" for t in words) and any(t.key not in lex.english for t in words)
            and any(t.key in lex.first or t.key in lex.last for t in words))


# Authors cited as the sciences cite them: "Sapir (1971)", "Coase [13,14]", "Munafò et al.",
# "(Nedwick, 2014)", "(Jasny, Chin, Chong, & Vignieri, 2011)", "Carrano & Biewener [7]".
_AUTHOR = r"[A-Z][\w'’\-]+"
_AUTHORS = rf"{_AUTHOR}(?:(?:,\s+|\s+(?:&|and)\s+|,\s+(?:&|and)\s+){_AUTHOR})*"
_YEAR = r"(?:19|20)\d\d[a-z]?"
_CITED_RE = re.compile(
    rf"(?P<authors>{_AUTHORS})(?:['’]s)?"
    rf"(?:\s+et\s+al\.?|\s*\({_YEAR}(?:[,;][^)]{{0,20}})?\)|\s*\[\d{{1,3}}(?:[,–\-]\s*\d{{1,3}})*\]|,\s+{_YEAR}\b)"
)


# A list of works with their years: a title starting with an article, among three years or more.
_TITLED_YEAR_RE = re.compile(rf"\b(?:The|A|An)\s+[A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)*\s*\({_YEAR}\)")
_YEAR_IN_PARENS_RE = re.compile(rf"\({_YEAR}\)")


def cited_authors(text: str, tokens: list[_Token], lex: _Lexicon) -> list[tuple[int, int]]:
    """Spans of the authors a text cites (``_CITED_RE``), unless a tool or a place is among them."""
    if "(" not in text and "[" not in text and "et al" not in text and ", 19" not in text and ", 20" not in text:
        return []
    if _TITLED_YEAR_RE.search(text) and len(_YEAR_IN_PARENS_RE.findall(text)) >= 3:
        return []  # "The Lookout (2007), A Single Man (2009), Stoker (2013)": works, not authors
    spans = [match.span("authors") for match in _CITED_RE.finditer(text)]
    return _without_tools_or_places(spans, tokens, lex)


# "Twain, Mark." on a line of its own: a surname, a comma, a first name (a bibliography, a list).
_INVERTED_NAME_LINE_RE = re.compile(r"(?m)^[ \t>*\-]*(?P<last>[A-Z][\w'’\-]+),[ \t]+(?P<first>[A-Z][\w'’\-]+)\.?[ \t]*$")


def inverted_names(text: str, lex: _Lexicon) -> list[tuple[int, int]]:
    """Spans of lines that are a name written surname first ("London, Jack."): the second word a
    first name no other list calls a place or a tool."""
    if "," not in text:
        return []
    return [match.span("last")[:1] + match.span("first")[1:]
            for match in _INVERTED_NAME_LINE_RE.finditer(text)
            if _key(match.group("first")) in lex.first
            and not {_key(match.group("first")), _key(match.group("last"))} & (_TECH | _PLACES)]


def families(text: str, tokens: list[_Token], lex: _Lexicon) -> list[tuple[int, int]]:
    """Spans of a family named by its surname: "the Smiths", "the Nguyens" (a surname's plural
    after "the" that is no English word, tool or place: not "the Rogers", "the Browns")."""
    found = []
    for before, tok in zip(tokens, tokens[1:]):
        if before.key != "the" or not tok.cap or tok.possessive or not tok.key.endswith("s"):
            continue
        if tok.key in lex.english or tok.key in _TECH or tok.key in _PLACES:
            continue
        singular = tok.key[:-2] if tok.key.endswith("es") and tok.key[:-2] in lex.last else tok.key[:-1]
        if (singular in lex.last and singular not in lex.first and singular not in lex.wordlike
                and singular not in lex.ambiguous and text[before.raw_end:tok.start] == " "):
            found.append((tok.start, tok.end))
    return found


# Lower-case words in a list: "silvana, adam, christopher, kristina, chad and caleb".
_LOWER_LIST_RE = re.compile(r"(?<![\w,])[a-z]{3,}(?:,\s[a-z]{3,}){1,}(?:,?\s(?:and|&)\s[a-z]{3,})(?![\w])")


def lower_case_name_lists(text: str, lex: _Lexicon) -> list[tuple[int, int]]:
    """Spans of lists in lower case whose words are all first names, three of them or more plain
    names (no word of English: lex.ambiguous, lex.wordlike), none a tool or a month ("they had 6: silvana, adam, christopher, kristina, chad and caleb"); "june,
    july and august" or "python, ruby and julia" are not."""
    if "," not in text:
        return []
    spans = []
    for match in _LOWER_LIST_RE.finditer(text):
        items = re.split(r",?\s(?:and|&)\s|,\s", match.group())
        if not all(w in lex.first and w not in _TECH and w not in _CALENDAR for w in items):
            continue
        if sum(w not in lex.ambiguous and w not in lex.wordlike for w in items) >= 3:
            spans.append(match.span())
    return spans

