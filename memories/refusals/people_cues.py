"""The person detector's context cues (R-SAVE-3b): the words before and after a name that say it
is a person ("ask Will", "Grant is on leave", "Jordan from sales"), and names in email addresses.
"""

from __future__ import annotations

import re

from memories.refusals.people_lexicon import (
    _key,
    _Lexicon,
)
from memories.refusals.people_tokens import (
    _korean_given,
    _Token,
)
from memories.refusals.people_words import (
    _AUTHORED_WORKS,
    _DEPT_PREPS,
    _EMAIL_ROLES,
    _FUNCTION,
    _GROUPS,
    _PERSON_NOUNS,
    _PLACES,
    _POST_PASSIVE,
    _POST_STATE,
    _POST_VERBS,
    _POST_VERBS_STRICT,
    _PRE_CONTACT,
    _PRE_PEOPLE_ONLY,
    _PRE_PERSONAL,
    _PRE_PERSONAL_PAIRS,
    _PRE_SKIP,
    _PRE_WEAK,
    _ROLES,
    _TECH,
    _TECH_PHRASES,
    _TRAITS,
)

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
                    t.code = True  # a name in a product's or firm's name, even after a title: "Dr Pepper"


_TECH_PHRASES_BY_FIRST: dict[str, list[list[str]]] = {}
for _phrase in _TECH_PHRASES:
    _TECH_PHRASES_BY_FIRST.setdefault(_phrase.split()[0], []).append(_phrase.split())


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
    if key.startswith("ex-") and prev.text[3:4].isupper():
        return "people"  # "ex-Zombie Ryhänen", "ex-Googler Ana": a former member
    if key == "of" and j >= 1 and tokens[j - 1].key in _PERSON_NOUNS:
        return "personal"  # "the true gender of Vehbija", "the birthday of Ana"
    if j >= 1 and (tokens[j - 1].key, key) in _PRE_PERSONAL_PAIRS:
        return "personal"
    if key in _PRE_PERSONAL:
        return "personal"
    if key in _PRE_CONTACT:
        return "contact"
    if key in _PRE_WEAK:
        return "weak"
    return ""


# Adverbs between a name and its verb: "Rathke also asked".
_ADVERBS = frozenset("also later then still never often further first subsequently reportedly previously "
                     "recently soon once already originally finally eventually".split())


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
    if nxt.key in _ADVERBS and gap == " " and i + 2 < len(tokens) and _gap(text, nxt, tokens[i + 2]) == " ":
        if tokens[i + 2].key in (_POST_VERBS_STRICT if strict else _POST_VERBS):
            return True  # "Rathke also asked", "Heald later noted"
    if gap.strip() == ",":
        # apposition: "Ana, our CFO," / "Will, my manager,"
        if nxt.key in {"our", "my", "the", "his", "her", "their", "your"} and i + 2 < len(tokens):
            return tokens[i + 2].key in _PRE_PEOPLE_ONLY
        return False
    if nxt.key in (_POST_VERBS_STRICT if strict else _POST_VERBS):
        return True
    if nxt.key in {"is", "was", "will", "has", "had"} and i + 2 < len(tokens):
        nxt2 = tokens[i + 2]
        if nxt2.key in _POST_STATE or (nxt2.key in _POST_PASSIVE and tok.kind != "W"):
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


# "What's your last name? Nielsen", "my name is Višeslav", "people call me bertram": the word
# after a question or statement of someone's name is that name, whatever its case.
_NAME_GIVEN_BEFORE = re.compile(
    r"(?:\b(?:first|last|full|given|family|middle|maiden|sur|nick)\s*name|\b(?:my|his|her|their|your)\s+name)"
    r"(?:\s+is|\s+was|'s)?\s*[?:=\-–—]?\s*$"
    r"|\b(?:call(?:s|ed)?\s+me|i\s+go\s+by|i\s+am\s+called|i'?m\s+called)\s+$",
    re.IGNORECASE,
)
# "Bryce, can I please speak to your boss?": a name alone before a comma at a sentence's start,
# then a sentence that speaks to "you".
_SPOKEN_TO_AFTER = re.compile(
    r",\s+(?:can|could|would|will|do|did|are|have|please|thanks|thank|let|i|we)\b[^.!?\n]{0,80}?"
    r"\b(?:you|your|yours)\b",
    re.IGNORECASE,
)


def name_given(text: str, tok: _Token) -> bool:
    """``tok`` is the answer to "your name?", or follows "call me" (``_NAME_GIVEN_BEFORE``)."""
    return _NAME_GIVEN_BEFORE.search(text, max(0, tok.start - 40), tok.start) is not None


def spoken_to(text: str, tok: _Token) -> bool:
    """``tok`` opens a sentence, alone before a comma, and the sentence speaks to "you"."""
    before = text[: tok.start].rstrip(" >\"'“")
    if before and before[-1] not in ".!?\n:":
        return False
    return _SPOKEN_TO_AFTER.match(text, tok.raw_end) is not None


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
    r"[ \t]+(?:is|was)[ \t]+(?:a|an)[ \t]+(?:[a-z\-]+[ \t]+){0,2}(?P<role>[a-z\-]+)" + _ROLE_ENDS +
    r"|[ \t]+(?:is|was|seems|seemed|can[ \t]+be|gets|got)[ \t]+"
    r"(?:(?:so|very|really|too|always|quite|a[ \t]+bit)[ \t]+)?(?P<trait>[a-z\-]+)\b"
    r"|[ \t]+(?:so|very|really|too|always)[ \t]+(?P<asked_trait>[a-z\-]+)\b"
)
_LIST_VERBS = (" were ", " are ", " became ", " been ")
_WORD_AFTER_RE = re.compile(r" ([a-z]+)\b")
# "cormac had given cormac his address": who gives, and to whom, a thing of "his" or "her".
_GIVING = r"(?:gave|given|give|gives|sent|told|showed|shown|handed|emailed|texted|offered)"
_GIVES_AFTER_RE = re.compile(r"[ \t]+(?:had[ \t]+|has[ \t]+)?" + _GIVING + r"[ \t]+[\w'’\-]+[ \t]+(?:his|her|their)\b",
                             re.IGNORECASE)
_GIVEN_TO_BEFORE_RE = re.compile(r"\b" + _GIVING + r"[ \t]+$", re.IGNORECASE)
_THEIR_AFTER_RE = re.compile(r"[ \t]+(?:his|her|their)\b", re.IGNORECASE)


def gives_or_is_given(text: str, tok: _Token) -> bool:
    """``tok`` gives someone, or is given, a thing that is "his" or "her" ("cormac had given
    cormac his address", "we sent Okafor her badge"): only people give and get so."""
    if _GIVES_AFTER_RE.match(text, tok.raw_end):
        return True
    return (_THEIR_AFTER_RE.match(text, tok.raw_end) is not None
            and _GIVEN_TO_BEFORE_RE.search(text, max(0, tok.start - 12), tok.start) is not None)
_ASKED_BEFORE_RE = re.compile(r"\b(?:is|was|are|isn't|wasn't)[ \t]+$", re.IGNORECASE)


def people_lists(text: str, tokens: list[_Token], lex: _Lexicon) -> list[tuple[int, int]]:
    """Spans of lists of capitalised words that the text says are people (``_ROLES``), unless
    an item is a tool or a place that is nobody's name ("Editors: Vim, Emacs and Nano";
    "Johnson" is a surname too)."""
    if ":" not in text and not any(verb in text for verb in _LIST_VERBS):
        return []
    if not any(t.key in _ROLES for t in tokens):
        return []
    spans = []
    for match in _LISTED_AS_PEOPLE_RE.finditer(text):
        if match.group("named") is not None and match.group("role") in _ROLES:
            spans.append(match.span("named"))
        elif match.group("listed") is not None and match.group("role_first").lower() in _ROLES:
            spans.append(match.span("listed"))
    return [(start, end) for start, end in spans
            if not any(start <= t.start < end and t.kind in "TP" and t.key not in lex.first
                       and t.key not in lex.last for t in tokens)]


def said_to_be_a_person(text: str, tok: _Token) -> bool:
    """The words after ``tok`` say it is a person: a role ("is an engineer", "is a very
    sympathetic person"), a trait of character ("is so impulsive"; "so impulsive" only when
    asked, "Why is Glyceria so …"), or a work only a person writes ("the Ruoho novel")."""
    work = _WORD_AFTER_RE.match(text, tok.raw_end)
    if work is not None and not tok.possessive and work.group(1) in _AUTHORED_WORKS:
        return True
    match = _CALLED_AFTER_RE.match(text, tok.raw_end)
    if match is None:
        return False
    if match.group("role") is not None:
        return match.group("role") in _ROLES
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


def cited_authors(text: str, tokens: list[_Token], lex: _Lexicon) -> list[tuple[int, int]]:
    """Spans of the authors a text cites (``_CITED_RE``), unless a tool or a place is among them."""
    if "(" not in text and "[" not in text and "et al" not in text and ", 19" not in text and ", 20" not in text:
        return []
    spans = [match.span("authors") for match in _CITED_RE.finditer(text)]
    return [(start, end) for start, end in spans
            if not any(start <= t.start < end and t.kind in "TP" and t.key not in lex.first
                       and t.key not in lex.last for t in tokens)]


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
