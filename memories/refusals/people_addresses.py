"""Names that are places or companies, not people (R-SAVE-3b, issue 18).

Streets, towns and firms are named after people: "103 Cassidy Street", "Via Roma 131",
"Dolores" on its own line under "Suite 100", "Lopez, Santos and Coleman is a design agency".
The person detector (memories.refusals.people) finds a name-shaped span first; this module
says, from the words and characters around it, when that span is part of an address or a
company name, so that the note is not held for it.

The rules (a span found after a title is never dropped, except a street abbreviation that is
also a title — "1737 Cheriton Dr Reuquén"):

* a street word right after the span, or as one of its words after the first: "Dora Creek",
  "John Street", "Martinez Mall St". The street words are Faker's English street suffixes
  (read from the Faker package) and ``data/people_street_words_extra.txt``. One that is also a
  surname (Park, Hill, Wells…) counts only with an address around it (a house number before the
  span, or a number, a line break, "/", "Apt" or "Suite" after the street word);
* a street prefix right before the span or as its first word: "Via Roma", "Rua Diadema",
  "St. John" (``data/people_street_prefixes.txt``);
* a house number right before the span, itself at a line's start or after a separator, an
  address word ("at", "to", "Box"…) or another number ("P.O. Box 149 Monika Union"; not a year
  after "in", "since"…),
  or right after it and then the end of the line, a separator or a street word ("Peter
  Zuidhove 188", "Señores Curas 88 street", "Kuusiku 7 and …"); a corner ("the corner of …") ("Maarit and Hersnapvej 75"); "C/";
* the span is a whole line of an address: alone on its line (or between " / "), after a line
  with a house number, "Apt", "Suite" or "P.O. Box"; or it follows a comma on a line that starts
  with a house number and a street ("213 Pilekrogen 53 Apt. 263, Grand-Leez");
* a company: followed by a firm's word ("Rand Corporation", "Wolfram Research",
  ``data/people_firm_words.txt``); after "work for", "works at", "employed by"… ; or one of
  three single surnames written "A, B and C" (the shape of firm names: "Davis, Reynolds and
  Williamson"), with no word before it that says they are people; or said to be one ("Weeks-Rivas
  is a 501(c)3", ``data/people_org_nouns.txt``);
* a method named after people: a lower-case method's word after the span ("the Wilson score
  interval", "a Holt-Winters model", ``data/people_eponym_nouns.txt``);
* a journey's end or start: after "returned to", "flew back to", "moved from"… ("we returned to
  Feliciano by helicopter"), unless possessive ("flew to Okafor's wedding").
"""

from __future__ import annotations

import functools
import re

from memories.refusals.people_firms import named_firm
from memories.refusals.people_lexicon import _key, _Lexicon
from memories.refusals.people_words import (
    _ARTIFACT_NOUNS,
    _EPONYM_NOUNS,
    _FIRM_WORDS,
    _ORG_NOUNS,
    _STREET_WORDS_EXTRA,
)
from memories.refusals.people_words import _STREET_PREFIXES as _PREFIXES

# Street words that are surnames too, but far more often the street: no address needed (nor
# for the abbreviations and other languages' words of data/people_street_words_extra.txt).
_ALWAYS_STREET = frozenset("street streets road avenue drive boulevard highway parkway plaza square".split())
# A house number: at the start of a line or after a separator, an address word or another number.
_HOUSE_NUMBER_BEFORE = re.compile(
    r"(?:^|[\n,/:(]\s*|\b(?:at|to|on|is|of|in|from|box|no|apt|suite|unit)\.?\s+|\d\s+)(\d{1,6}[A-Za-z]?)\s+$",
    re.I)
_CORNER_BEFORE = re.compile(r"\bcorner\s+of\s+(?:[^\n]{0,40}\s+and\s+)?$", re.I)
_YEAR_WORDS = re.compile(r"(?:in|since|from|by|until|till|of|year|before|after|during|circa|c\.)\s+$", re.I)
_NUMBER_AFTER = re.compile(  # on the span's line: a number on the next line is the next line's
    r"[ \t]+\d{1,6}[A-Za-z]?(?:\s*$|\s*[/,;\n.?!]|\s+(?:apt|suite|unit)\b|\s+and\s+(?-i:[^\W\d_a-z]))", re.I)
# "Maarit and Hersnapvej 75", "the corner of Kuusiku 7 and …", "at Růžena and Király u. 15": a
# corner of two streets.
_CORNER_AFTER = re.compile(r"\s+and\s+[^\W\d_][\w'’\-]*\s+(?:[^\W\d_]{1,5}\.\s+)?\d{1,6}[A-Za-z]?\b")
_NUMBER_THEN_WORD = re.compile(r"[ \t]+\d{1,6}[A-Za-z]?\s+([^\W\d_]+)")
_ADDRESS_LINE = re.compile(r"\d+\s*[^\W\d_]|\b(?:apt|suite|p\.?\s?o\.?\s?box)\b", re.I)
# The first lines of a postal address: a house number and a street, or "Apt", "Suite", a box.
_ADDRESS_START = re.compile(r"[\s>]*(?:\d{1,6}[A-Za-z]?,?\s+[^\W\d_]|(?:apt|suite|unit|p\.?\s?o\.?\s?box)\b)", re.I)
# What may come before a name on its line: quote markers, a label ("Ship to:", "Billing address:").
_LINE_LABEL = re.compile(r"[\s>]*(?:[^\W\d_][\w ]{0,30}:\s*)?")
_ADDRESS_AFTER_STREET = re.compile(r"^[\s.,]*(?:[/\n]|\d|(?:apt|suite|unit)\b)", re.I)
_WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")
_ORG_BEFORE = re.compile(
    r"\b(?:work|works|worked|working)\s+(?:for|at)\s+(?:the\s+)?$|\bemployed\s+by\s+$|"
    r"\b(?:address|offices?)\s+of\s+$", re.I)
_TRIPLE = re.compile(r"([^\W\d_][\w'’\-]*),\s+([^\W\d_][\w'’\-]*),?\s+and\s+([^\W\d_][\w'’\-]*)")
_PEOPLE_BEFORE_TRIPLE = re.compile(
    r"(?:\b(?:ask|tell|thank|thanks|cc|ping|email|call|invite|with|by|to|from|and|meet|met|remind)\s+|:\s*)$", re.I)


@functools.cache
def _street_words() -> frozenset[str]:
    from faker.providers.address.en_GB import Provider as GreatBritain
    from faker.providers.address.en_US import Provider as UnitedStates

    faker = {s.lower() for s in (*UnitedStates.street_suffixes, *GreatBritain.street_suffixes)}
    return frozenset(faker | _STREET_WORDS_EXTRA)


# Street names written as one word in Danish, Norwegian, Swedish, German, Dutch and Finnish:
# "Brovej", "Storgatan", "Müllerstraße", "Kerkstraat", "Mannerheimintie"; a street only with a
# house number after it.
_COMPOUND_STREET_RE = re.compile(
    r"[^\W\d_]{3,}(?:vej|veien|gade|gata|gatan|vägen|vagen|straße|strasse|straat|weg|laan|gasse|"
    r"platz|plein|gracht|katu|tie)$")


def _street_word(word: str, lex: _Lexicon, *, addressed: bool) -> bool:
    key = word.lower().rstrip(".")
    if key not in _street_words():
        return addressed and _COMPOUND_STREET_RE.match(key) is not None and key not in lex.english
    surname = key in lex.last or key in lex.first
    return addressed or not surname or key in _ALWAYS_STREET or key in _STREET_WORDS_EXTRA


def _house_number_before(text: str, start: int) -> bool:
    before = text[max(0, start - 40) : start]
    match = _HOUSE_NUMBER_BEFORE.search(before)
    if match is None:
        return False
    number = match.group(1)
    year = len(number) == 4 and number[:2] in ("19", "20")
    return not (year and _YEAR_WORDS.search(before[: match.start(1)]))


def _whole_address_line(text: str, start: int, end: int) -> bool:
    line_start = max(text.rfind("\n", 0, start), text.rfind(" / ", 0, start) + 2)
    line_end_candidates = [i for i in (text.find("\n", end), text.find(" / ", end)) if i != -1]
    line_end = min(line_end_candidates) if line_end_candidates else len(text)
    line = text[line_start + 1 : line_end].strip(" ,.;>")
    if line != text[start:end].strip(" ,.;"):
        return False
    return _ADDRESS_LINE.search(text, max(0, line_start - 200), line_start + 1) is not None


# "I'm in Den Haag", "moved to a flat near Rosa Parks": after these a run is a place.
_PLACE_ONLY_BEFORE = frozenset("in near into inside outside across".split())


# Method words that are verbs too: only after "the", "a"… ("ask Ana test the export").
_EPONYM_VERBS = frozenset("bound correct curve filter model plot process regress score smoothing test transform".split())
# Method words a person can own as well ("Ana's test results", "Priya's model"): after a
# possessive they name the person's thing, not a method.
_OWNED_TOO = frozenset("number numbers measure function functions problem space spaces tree index series "
                       "ratings rating front noise".split())
_DETERMINER_BEFORE = re.compile(r"(?i)\b(?:the|a|an|this|that|our|their|its)\s+$")
# After a method's word that is a verb too: a preposition, a verb or the end, not an object
# ("Kalman filter for the traces", "Tukey test is fine"; not "Ana test the export").
_NO_OBJECT_AFTER = re.compile(r"(?:\s*[.,;:)\n]|\s*$|\s+(?:for|of|on|in|with|is|was|are|were|gives|"
                              r"works|fits|and|or|to|at|from|by|over|beats)\b)")
# "we returned to Feliciano by helicopter", "flew in from Tromsø": a journey's end is a place.
_JOURNEY_BEFORE = re.compile(
    r"\b(?:went|goes|going|flew|flies|flying|drove|driving|moved|moving|returned|returning|"
    r"travell?ed|travell?ing|headed|heading|relocated|sailed|commuted?|commutes|emigrated|"
    r"back|in)\s+(?:back\s+)?(?:to|from)\s+$", re.I)
# "the refund went to Maria Garcia", "this ticket goes to …": a thing sent to someone, no journey.
_THING_BEFORE = re.compile(r"\b(?:the|a|an|this|that|these|those|its|our|your|my|their|every|each)\s+"
                           r"(?!team|family|crew|group|band|class|people)[a-z][\w\-]*\s+$", re.I)
# "Weeks-Rivas is a 501(c)3 that …", "Lindqvist is a small design agency".
_CALLED_AN_ORGANISATION = re.compile(
    r"\s+(?:is|was)\s+(?:a|an|the)\s+(?:[\w\-]+\s+){0,2}(?P<noun>[\w()\-]+)"
    r"(?=\s*(?:[.,;:!?)\n]|$)|\s+(?:that|which|in|from|based|founded|with|for|since|of|on|at)\b)", re.I)


def _journey_or_organisation(text: str, start: int, end: int, span_words: list[str], lex: _Lexicon) -> bool:
    """The span is where a journey ends or starts ("returned to Feliciano"), or the text says
    it is an organisation ("X is a nonprofit"); a possessive stays a person ("went to Ana's"),
    and so does a first name and a surname a thing went to ("the refund went to Maria Garcia";
    "the parcel went to Zaragoza" is a place)."""
    if text[end: end + 1] in ("'", "’") or text[end - 2: end] in ("'s", "’s"):
        return False
    journey = _JOURNEY_BEFORE.search(text, max(0, start - 30), start)
    if journey is not None and not (
            len(span_words) > 1 and span_words[0].lower() in lex.first
            and journey.group().split()[0].lower() in ("went", "goes", "going")
            and _THING_BEFORE.search(text, max(0, journey.start() - 40), journey.start())):
        return True
    match = _CALLED_AN_ORGANISATION.match(text, end)
    return match is not None and match.group("noun").lower() in _ORG_NOUNS


_ADDRESS_AFTER_AT = re.compile(r"\b(?:is at|are at|located at|address is|lives at|live at)\s+\d{1,6}[A-Za-z]?\s+[^\W\d_]", re.I)
# Street abbreviations that are no English word: a street even in lower case ("bd Georges Mandel").
_STREET_ABBREVIATIONS = frozenset("bd blvd bvd".split())
# Street words written in lower case before the street's name, none an English preposition
# ("rue de Prévost", "boulevard Jacques Blanchard"; "via" is also English and needs a capital).
_LOWER_CASE_STREET_WORDS = frozenset(
    "rue chemin boulevard avenue allée allee impasse calle rua travessa strada viale vicolo piazza ulica ul "
    "aleja plac".split())
# A German street written as one hyphenated word: "Friedhelm-Eberth-Weg", "Gotthard-Klingelhöfer-Allee".
_GERMAN_STREET_END = re.compile(
    r"-(?:Weg|Allee|Ring|Straße|Strasse|Str\.?|Platz|Gasse|Damm|Ufer|Chaussee|Pfad|Steig|Markt|Hof|Park)(?![\w-])")
_COMPASS = frozenset("north south east west northern southern eastern western".split())
# The word before a name, past a particle ("rue de Prévost", "Cuesta de Julián Villa", "Trevo da
# Cunha"): a street's word with the name it is given.
_PREFIX_BEFORE_RE = re.compile(r"([^\W\d_]+)\.?\s+(?:(?:de|da|do|dos|das|del|della|di|du|des|la|le|l')\s+)*$")
# A town's name written before a state's code and a postcode: "North Larry, HI 03815",
# "South David, SK J3M8E4", "North Patrick, NSW, 2320"; in Brazil before "/ UF": "Melo / PA".
_STATE_AND_POSTCODE_AFTER = re.compile(
    r",\s*[A-Z]{2,3},?\s+(?:\d{4,5}(?:-\d{4})?|[A-Z]\d[A-Z]\s?\d[A-Z]\d)\b|\s/\s[A-Z]{2}\b")
# ... or, inside an address line (a house number earlier on it, then a comma), before a postcode
# of five or six digits or an Italian province: "Camino … 19, Segovia, 49808", "…, Sala (AV)".
# An addressee is written first, with no number before it: "Maria Garcia, 28013 Madrid".
_POSTCODE_AFTER = re.compile(r",\s*\d{5,6}\b|\s\([A-Z]{2}\)")
_NUMBER_EARLIER_ON_LINE = re.compile(r"\d[^\n]*,\s*$")
# ... or before a country and a postcode there: "…, Mora de Rubielos, Spain 16200", "…, Brú, Iceland 82407".
_COUNTRY_AND_POSTCODE_AFTER = re.compile(r",\s*[A-Z][\w'’\-]+(?:\s[A-Z][\w'’\-]+){0,2}\s+\d{3,6}\b")
# A town written after its postcode, where an address line starts or after a comma:
# "…, 47911 Gaillard-les-Bains", "9076-339 Amadora".
_POSTCODE_BEFORE = re.compile(r"(?:^|[,\n])\s*(?:\d{5}|\d{4}-\d{3})\s+$")
# A compass word or "New" before a name, in a place's name: "West Victor", "New Aleksandra".
_TOWN_WORDS = frozenset("North South East West New".split())
_TOWN_WORD_BEFORE = re.compile(r"(?:" + "|".join(sorted(_TOWN_WORDS)) + r")\s+$")
_REST_OF_WORD = re.compile(r"\S*")
# "Thomas and Sons is a bank": a family firm's name.
_FAMILY_FIRM_AFTER = re.compile(r"\s+(?:and|&)\s+(?:Sons|Son|Daughters|Brothers|Partners|Associates|Co\.?)\b")
# "Ostrov nad Ohří", "Newcastle upon Tyne": words that join a town to its river or hill.
_TOWN_JOINERS = re.compile(r"(?<![^\W\d_])(?:nad|pod|upon)\s+$")


def after_place_word(text: str, start: int) -> bool:
    """A word right before ``start`` that puts a place after it ("in", "near")."""
    before = re.search(r"([^\W\d_]+)\s+$", text[max(0, start - 12) : start])
    return before is not None and before.group(1) in _PLACE_ONLY_BEFORE


def _after_comma_in_address_line(text: str, start: int) -> bool:
    """"213 Pilekrogen 53 Apt. 263, Grand-Leez, Belgium": after a comma, on a line that starts
    with a house number and a street (or has one after "at"), a name-shaped span is the town or
    the region."""
    if not re.search(r",\s*$", text[max(0, start - 3) : start]):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    street = _ADDRESS_START.match(text, line_start)
    if street is not None and street.end() < start:
        return True
    # … or where the line says the address starts: "The office is at 9243 Avenue d'Ouchy 109, …"
    return _ADDRESS_AFTER_AT.search(text, line_start, start) is not None


def _company_triple(text: str, start: int, end: int) -> bool:
    if not (text.startswith(",", end) or text.startswith(" and ", end) or text[max(0, start - 5) : start].endswith(
            (", ", " and "))):
        return False
    window = max(0, start - 120)
    for match in _TRIPLE.finditer(text, window, min(len(text), end + 120)):
        if match.start() <= start and end <= match.end():
            # A firm's three names are written alike: "brothers, Niklaus and Johann" is no firm.
            written_as_names = {match.group(k)[0].isupper() for k in (1, 2, 3)}
            return len(written_as_names) == 1 and not _PEOPLE_BEFORE_TRIPLE.search(text[: match.start()])
    return False


_METHOD_WORD_AFTER = re.compile(r" ([a-z][a-z\-]*)\b")
_DOUBLE_SURNAME = re.compile(r"[A-Z][\w’']+-[A-Z][\w’']+")


def _names_a_method(text: str, start: int, end: int, lex: _Lexicon) -> bool:
    """The span names a method after its author: a method's word follows it, or its possessive
    with at most one word between ("the Wilson score interval", "Dijkstra's algorithm", "Occam's
    razor", "Mann-Whitney test", "Holt's linear trend"). A word that is a verb too ("test",
    "filter") counts after a determiner or a double surname, or when no object follows it
    ("Kalman filter for the traces"; not "ask Ana test the export"); one a person can own
    ("number") never after "'s", nor anything after the "'s" of a name that is only a first name
    ("use Priya's formula" is a colleague's; "Murphy's law", "Lloyd's algorithm" are surnames'
    too)."""
    possessive = text[end:end + 2] in ("'s", "’s")
    match = _METHOD_WORD_AFTER.match(text, end + 2 if possessive else end)
    if possessive and match is not None and match.group(1) not in _EPONYM_NOUNS:
        match = _METHOD_WORD_AFTER.match(text, match.end())  # "Holt's linear trend"
    if match is None or match.group(1) not in _EPONYM_NOUNS:
        return False
    word = match.group(1)
    if possessive:
        last = text[start:end].split()[-1].lower()
        return (word not in _EPONYM_VERBS and word not in _OWNED_TOO
                and (last not in lex.first or last in lex.last))
    return (word not in _EPONYM_VERBS or _DETERMINER_BEFORE.search(text, max(0, start - 8), start) is not None
            or _DOUBLE_SURNAME.fullmatch(text, start, end) is not None
            or _NO_OBJECT_AFTER.match(text, match.end()) is not None)


def _names_an_artifact(text: str, start: int, end: int, lex: _Lexicon) -> bool:
    """"the Marquez lineage check", "the Cooper-Hewitt dataset": after a determiner, a name right
    before what a team builds is the thing's name; a first name alone may be a colleague's ("the
    Marcus dashboard" is Marcus's)."""
    if _DETERMINER_BEFORE.search(text, max(0, start - 8), start) is None:
        return False
    match = _METHOD_WORD_AFTER.match(text, end)
    if match is None or match.group(1) not in _ARTIFACT_NOUNS:
        return False
    words_ = text[start:end].split()
    return not (len(words_) == 1 and _key(words_[0]) in lex.first and _key(words_[0]) not in lex.last)


def not_a_person(text: str, start: int, end: int, lex: _Lexicon, *, after_title: bool = False) -> bool:
    """Is the name-shaped span ``text[start:end]`` part of an address or a company name?"""
    span_words = [m.group() for m in _WORD.finditer(text, start, end)]
    if not span_words:
        return False
    house_before = _house_number_before(text, start)
    if after_title:
        first = span_words[0].lower()
        return first in ("dr", "st") and bool(re.search(r"\d+\s+[^\W\d_]+\s+$", text[max(0, start - 40) : start]))
    if (_names_a_method(text, start, end, lex) or _names_an_artifact(text, start, end, lex)
            or named_firm(text, start, end)):
        return True
    following = _WORD.match(text, end + 1) if text[end : end + 1] in (" ", ".") else None
    if following is not None and text[end : following.start()].strip(" .") == "":
        after = text[following.end() : following.end() + 12]
        addressed = house_before or _ADDRESS_AFTER_STREET.match(after) is not None
        word = following.group()
        # "Stephan Fenstermacher points out": a lower-case street word ("points", "crossing")
        # names a street only with an address around it, or if it is always one ("street").
        written_as_street = word[0].isupper() or addressed or word.lower() in _ALWAYS_STREET
        if written_as_street and _street_word(word, lex, addressed=addressed):
            return True
        if (word[0].isupper() or text[start:end].islower()) and word.lower().rstrip(".") in _FIRM_WORDS:
            return True  # "Rand Corporation", "Wolfram Research"
        second = _WORD.match(text, following.end() + 1) if text[following.end(): following.end() + 1] == " " else None
        if (second is not None and second.group().lower() in _FIRM_WORDS
                and (text[start:end].islower() and word.islower() or word[0].isupper() and second.group()[0].isupper())):
            return True  # "cite ben hjel country club", "Kennedy Space Center": a word, then a firm's
    if len(span_words) > 1 and span_words[-1][0].isupper() and span_words[-1].lower() in _FIRM_WORDS:
        return True  # "Adler Planetarium", "Carnegie Hall": the firm's word inside the run
    for i, word in enumerate(span_words[1:], start=1):
        addressed = house_before or (i == len(span_words) - 1 and _ADDRESS_AFTER_STREET.match(text[end : end + 12]))
        if _street_word(word, lex, addressed=bool(addressed)):
            return True
    if span_words[0].lower() in _PREFIXES and len(span_words) > 1:
        return True
    previous = _PREFIX_BEFORE_RE.search(text[max(0, start - 30) : start])
    if previous is not None and previous.group(1).lower() in _PREFIXES and (
            previous.group(1)[0].isupper() or previous.group(1) in _STREET_ABBREVIATIONS
            or previous.group(1) in _LOWER_CASE_STREET_WORDS
            or re.search(r"\d,?\s+$", text[max(0, start - len(previous.group(0)) - 8): start - len(previous.group(0))])):
        return True  # "Via Roma", "12 via roma"; but not "sent via Priya"
    if house_before or _NUMBER_AFTER.match(text, end) or _CORNER_AFTER.match(text, end):
        return True
    if _GERMAN_STREET_END.search(text, start, _REST_OF_WORD.match(text, end).end()):
        return True  # "Friedhelm-Eberth-Weg"
    if (len(span_words) == 1 and _key(span_words[0]) in lex.last and _key(span_words[0]) not in lex.first
            and after_place_word(text, start) and text[end:end + 2] not in ("'s", "’s")):
        return True  # "an office in Zamora": a surname alone after "in" is a town
    line_start = text.rfind("\n", 0, start) + 1
    if (_STATE_AND_POSTCODE_AFTER.match(text, end) or _TOWN_WORD_BEFORE.search(text, max(0, start - 8), start)
            or _POSTCODE_BEFORE.search(text, max(0, start - 14), start)
            or ((_POSTCODE_AFTER.match(text, end) or _COUNTRY_AND_POSTCODE_AFTER.match(text, end))
                and _NUMBER_EARLIER_ON_LINE.search(text, line_start, start))):
        return True  # "North Larry, HI 03815", "…, 47911 Gaillard-les-Bains"
    if len(span_words) > 1 and span_words[0] in _TOWN_WORDS:
        return True  # "West Victor", "New Aleksandra": a town's name
    street_after = _NUMBER_THEN_WORD.match(text, end)
    if street_after is not None and _street_word(street_after.group(1), lex, addressed=True):
        return True  # "Señores Curas 88 street"
    if re.search(r"\bC/\s*$", text[max(0, start - 4) : start]):
        return True  # "C/ Señores Curas": calle
    if _whole_address_line(text, start, end) or _after_comma_in_address_line(text, start):
        return True
    if _CORNER_BEFORE.search(text[max(0, start - 60) : start]):
        return True  # "the corner of Kuusiku 7 and Alexander Flat"
    if _ORG_BEFORE.search(text[max(0, start - 30) : start]) or _journey_or_organisation(text, start, end, span_words, lex):
        return True
    if _TOWN_JOINERS.search(text, max(0, start - 6), start) or _FAMILY_FIRM_AFTER.match(text, end):
        return True
    if text[start:end].lower() in _COMPASS and re.match(r" [A-Z]", text[end:end + 2]):
        return True  # "North Korea", "South Sudan": a compass word of a place's name
    return _company_triple(text, start, end)


def addressee(text: str, run: list, lex: _Lexicon) -> bool:
    """"Sophie Lang" on the line above "3482 Via Franscini 71": two or three name words, one a
    first name, alone on their line (after quote markers or a label), with an address line in the
    next two lines. The name an address is written to is a person's, even when its words are
    also English words (rule 2 wants more evidence for those)."""
    if not 2 <= len(run) <= 3 or any(t.kind not in "SLWUE" for t in run) or not any(t.key in lex.first for t in run):
        return False
    start, end = run[0].start, run[-1].end
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    if line_end == -1 or _LINE_LABEL.fullmatch(text, line_start, start) is None or text[end:line_end].strip(" ,."):
        return False
    return any(_ADDRESS_START.match(line) for line in text[line_end + 1:].split("\n", 2)[:2])
