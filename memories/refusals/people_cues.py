"""The person detector's context cues (R-SAVE-3b): the words before and after a name that say it
is a person ("ask Will", "Grant is on leave", "Jordan from sales", "J. Smith"), and names written
in capitals ("PRIYA RAMAN"). Names in e-mail addresses, handles and logins are people_handles.py's.
"""

from __future__ import annotations

import re

from memories.refusals.people_lexicon import (
    _Lexicon,
)
from memories.refusals.people_tokens import (
    _Token,
)
from memories.refusals.people_words import (
    _DEPT_PREPS,
    _EPITHETS,
    _GROUPS,
    _PERSON_NOUNS,
    _POST_PASSIVE,
    _POST_PASSIVE_LIVES,
    _POST_STATE,
    _POST_VERBS,
    _POST_VERBS_STRICT,
    _PRE_CONTACT,
    _PRE_PEOPLE_ONLY,
    _PRE_PERSONAL,
    _PRE_PERSONAL_PAIRS,
    _PRE_SKIP,
    _PRE_WEAK,
    _TECH_PHRASES,
    _TITLES,
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


# Named beside "I" or "me": "Abbey and I posted", "Sandra & I work at 2", "me and Jay".
_WITH_ME_BEFORE_RE = re.compile(r"(?:^|(?<=[\s(]))(?:me|I)[ \t]+(?:and|&)[ \t]+$")
_WITH_ME_AFTER_RE = re.compile(r"[ \t]+(?:and|&)[ \t]+(?:I|me)\b(?![''’])")


def _pre_cue(text: str, tokens: list[_Token], i: int) -> str:
    """What the words just before token i say: 'people' (only said of people: "ask",
    "my manager"), 'personal' (also "thanks to", "owned by"), 'contact' ("email", "call"),
    'weak' ("with", "to", "for") or ''."""
    if _WITH_ME_BEFORE_RE.search(text, max(0, tokens[i].start - 12), tokens[i].start):
        return "people"  # "me and Abbey", "I & Trish"
    j = i - 1
    # "my manager is Will", "thanks, Mark", "cc: Ana"
    while j >= 0 and tokens[j].key in _PRE_SKIP:
        j -= 1
    if j < 0:
        return ""
    gap = text[tokens[j].raw_end : tokens[j + 1].start]
    if tokens[j].key in _FEATURING and gap.strip() in ("", ".") and "\n" not in gap:
        return "people"  # "Makonnen feat. Drake", "ft. Rihanna": a song's other singer
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


_FEATURING = frozenset({"feat", "ft", "featuring"})


# "has said" in English, French ("a dit"), Italian ("ha detto") and German ("hat gesagt").
_PERFECT_AUXILIARIES = frozenset({"has", "had", "will", "a", "ha", "hat"})
_AUXILIARIES = frozenset({"is", "was"}) | _PERFECT_AUXILIARIES
# Adverbs between a name and its verb: "Rathke also asked".
_ADVERBS = frozenset("also later then still never often further first subsequently reportedly previously "
                     "recently soon once already originally finally eventually".split())


def _post_cue(text: str, tokens: list[_Token], i: int, strict: bool = False) -> bool:
    """Words just after token i that say it is a person (strict: fewer verbs)."""
    tok = tokens[i]
    if not tok.possessive and _WITH_ME_AFTER_RE.match(text, tok.raw_end):
        return True
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
    if (nxt.key == "the" and gap == " " and i + 2 < len(tokens) and tokens[i + 2].cap
            and tokens[i + 2].key in _EPITHETS and _gap(text, nxt, tokens[i + 2]) == " "):
        return True  # "Constantine the Great", "Pliny the Elder"
    if nxt.key in _AUXILIARIES and i + 2 < len(tokens) and _gap(text, nxt, tokens[i + 2]) == " ":
        nxt2 = tokens[i + 2]  # "Grant is off", not "January is 25% off"
        if nxt2.key in _POST_STATE or (nxt2.key in _POST_PASSIVE and tok.kind != "W") or nxt2.key in _POST_PASSIVE_LIVES:
            return True
        if nxt.key in _PERFECT_AUXILIARIES and nxt2.key in (_POST_VERBS_STRICT if strict else _POST_VERBS):
            return True  # "Goode has appeared", "Ana had said", "Ana will decide", "André a dit"
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
    r"[,:]\s+(?:can|could|would|will|do|did|are|have|please|thanks|thank|let|i|we)\b[^.!?\n]{0,80}?"
    r"\b(?:you|your|yours)\b",
    re.IGNORECASE,
)


# "J. Smith", "J. R. R. Tolkien": initials right before; "Smith, J." : an initial right after.
_INITIALS_BEFORE_RE = re.compile(r"(?:^|(?<=[\s(\[\"'>]))(?P<initials>(?:[A-Z]\.\s?){1,3})\s*$")
_INITIAL_AFTER_RE = re.compile(r",\s[A-Z]\.(?:\s?[A-Z]\.)?(?=\s|$|[,;)])")
_WORD_BEFORE_RE = re.compile(r"([A-Za-z]+)[ \t]*$")


def initialled(text: str, tok: _Token, lex: _Lexicon) -> bool:
    """A surname with initials before it ("J. Smith", "J. R. R. Tolkien": two or more make any
    capitalised word a surname) or one after it and a comma ("Smith, J."). Not after a
    capitalised word, which makes the letter part of a name of its own ("Plan B. Smith")."""
    if _INITIAL_AFTER_RE.match(text, tok.raw_end) and tok.key in lex.last:
        return True
    initials = _INITIALS_BEFORE_RE.search(text, max(0, tok.start - 12), tok.start)
    if initials is None or initials.group("initials").strip() in ("Q.", "A."):
        return False  # "Q. Will the export run?": a question and its answer
    word = _WORD_BEFORE_RE.search(text, max(0, initials.start() - 30), initials.start())
    if word is not None and word.group(1)[0].isupper() and word.group(1).lower() not in _TITLES:
        return False
    return tok.key in lex.last or initials.group("initials").count(".") >= 2


def name_given(text: str, tok: _Token) -> bool:
    """``tok`` is the answer to "your name?", or follows "call me" (``_NAME_GIVEN_BEFORE``)."""
    return _NAME_GIVEN_BEFORE.search(text, max(0, tok.start - 40), tok.start) is not None


# "Where are my testicles, Summer?", "Well done, Nick!": a name after a comma that ends a question or
# an exclamation is the one spoken to.
_CALLED_AT_THE_END_BEFORE_RE = re.compile(r"\w[ \t]*,[ \t]*$")
_CALLED_AT_THE_END_AFTER_RE = re.compile(r"[ \t]*[?!]+(?:\s|$)")


# "Where's Grant?", "where is Riley now?": asked where someone is.
_WHERE_IS_BEFORE_RE = re.compile(r"(?i)\bwhere(?:['’]s|[ \t]+(?:is|was|are|has))[ \t]+$")
_WHERE_IS_AFTER_RE = re.compile(r"(?:[ \t]+(?:now|today|tonight|at|these[ \t]+days))?[ \t]*\?")


def spoken_to(text: str, tok: _Token) -> bool:
    """``tok`` opens a sentence, alone before a comma, and the sentence speaks to "you"; or it
    ends a question or an exclamation after a comma; or the question asks where it is."""
    if (not tok.possessive and _CALLED_AT_THE_END_AFTER_RE.match(text, tok.raw_end)
            and _CALLED_AT_THE_END_BEFORE_RE.search(text, max(0, tok.start - 8), tok.start)):
        return True
    if (not tok.possessive and _WHERE_IS_AFTER_RE.match(text, tok.raw_end)
            and _WHERE_IS_BEFORE_RE.search(text, max(0, tok.start - 12), tok.start)):
        return True
    before = text[: tok.start].rstrip(" >\"'“")
    if before and before[-1] not in ".!?\n:":
        return False
    return _SPOKEN_TO_AFTER.match(text, tok.raw_end) is not None


_CAPITALS_HINT_RE = re.compile(r"[A-Z]{2}[^\W\d_]*[ ]+[A-Z]{2}")  # two words in capitals in a row


def _plain_name_in_capitals(tok: _Token, lex: _Lexicon) -> bool:
    return (len(tok.text) > 1 and tok.text.isupper() and not tok.code and tok.kind in "SL"
            and tok.key not in lex.ambiguous)


def _capitals_runs(text: str, tokens: list[_Token], used: list[bool], lex: _Lexicon) -> list[tuple[int, int]]:
    """Rule 2b: two or three words in capitals, each a first name or surname that is no frequent
    English word, one of them a first name that is no English word at all ("PRIYA RAMAN", "MARIA
    LOPEZ"); capitals alone are acronyms ("API", "SQL SERVER") and never names otherwise."""
    if _CAPITALS_HINT_RE.search(text) is None:
        return []
    runs = []
    i, n = 0, len(tokens)
    while i < n:
        j = i
        while (j < n and not used[j] and _plain_name_in_capitals(tokens[j], lex)
               and (j == i or _joined(text, tokens[j - 1], tokens[j]))):
            j += 1
        if 2 <= j - i <= 3 and any(tokens[k].kind == "S" and tokens[k].key not in lex.wordlike for k in range(i, j)):
            runs.append((i, j - 1))
        i = max(j, i + 1)
    return runs
