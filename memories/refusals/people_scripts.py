"""Names written in scripts without capital letters (R-SAVE-3b, issue 18): Arabic, Persian,
Hebrew, Devanagari, Bengali, Thai... Rule 2 reads a run of capitalised words; these scripts have
none, so a given name and a surname side by side, both in Faker's lists of that script, are read
as a name: "محمد العلي", "אברהם כהן", "अर्जुन शर्मा". Faker's providers of those locales give the
lists (the romanised ones of people_lexicon do not cover them; data/people_faker_non_latin_languages.txt).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from memories.refusals.people_lexicon import faker_name_lists
from memories.refusals.people_words import _NON_LATIN_FAKER_LANGUAGES
from memories.refusals.wordlists import entries

__all__ = ["native_name_spans"]

# A word: letters with their combining vowel signs (Devanagari, Thai, Bengali write vowels as
# marks that regular expressions' \w does not take), up to a space or punctuation.
# Chinese and Japanese have romanised lists too (people_lexicon reads those); their own scripts'
# lists are read here.
_HAN_AND_HANGUL_LANGUAGES = frozenset({"zh", "ja", "ko"})
_WORD_RE = re.compile(r"[^\s\d.,;:!?()\[\]{}\"'«»“”،؛/\\|<>@#$%^&*+=~`_-]+")


def _latin_or_cased(word: str) -> bool:
    return any(c.isascii() or c.isupper() or c.islower() or unicodedata.name(c, "").startswith("LATIN")
               for c in word)


@functools.cache
def _native_names() -> tuple[frozenset[str], frozenset[str]]:
    """(given names, surnames) of one word, in scripts without case, from Faker's providers."""
    first: set[str] = set()
    last: set[str] = set()
    for language, attr, value in faker_name_lists():
        if language not in _NON_LATIN_FAKER_LANGUAGES | _HAN_AND_HANGUL_LANGUAGES:
            continue
        target = first if "first_name" in attr else last if "last_name" in attr else None
        if target is None or not isinstance(value, (tuple, list, dict, set, frozenset)):
            continue
        target.update(name for name in value if isinstance(name, str) and _WORD_RE.fullmatch(name)
                      and (len(name) >= 2 or _HAN_OR_HANGUL_RUN_RE.fullmatch(name))
                      and not _latin_or_cased(name))
    return frozenset(first), frozenset(last)


_CUES_BEFORE = frozenset(word for where, word in (e.split("\t") for e in entries("people_native_cues")) if where == "before")
_CUES_AFTER = frozenset(word for where, word in (e.split("\t") for e in entries("people_native_cues")) if where == "after")


# Han and Hangul names are written as one word, surname first ("김민준", "王秀英"); a word (or a
# run between punctuation) that is a listed surname and a listed two-letter given name is one,
# with a Korean particle or an honorific after it ("김민준님께", "王秀英女士").
_HAN_OR_HANGUL_RUN_RE = re.compile(r"[\u4e00-\u9fff\uac00-\ud7a3]+")
_AFTER_NAME = ("님", "씨", "께", "에게", "한테", "이", "가", "은", "는", "을", "를", "의", "과", "와",
               "先生", "女士", "老师", "经理", "总", "同学", "小姐", "さん", "様", "氏", "君")
_BEFORE_NAME = ("给", "和", "跟", "找", "问", "请", "叫", "联系", "告诉", "通知", "同事", "经理", "客户")
# Titles said only to or of a person: after a surname alone they make it a name ("田中さん",
# "王先生", "김 씨"), where a surname alone is often a word ("高", "田中" in a place's name).
_HONORIFICS = ("さん", "様", "さま", "氏", "君", "くん", "ちゃん", "先生", "女士", "小姐", "老师", "님", "씨")


def native_name_spans(text: str) -> list[tuple[int, int]]:
    """Spans of a given name and a surname side by side (either order; or two given names, as
    Arabic names run), both words of a script without case that Faker lists as names; and of a
    Han or Hangul word that is a surname and a given name written together."""
    if text.isascii():
        return []
    first, last = _native_names()
    words = [w for w in _WORD_RE.finditer(text) if not _latin_or_cased(w.group())]
    spans = []
    for one, two in zip(words, words[1:]):
        if text[one.end():two.start()].strip():
            continue
        # A given name alone, said to be a person's by the word after or before it.
        if (one.group() in first and two.group() in _CUES_AFTER) or (two.group() in first and one.group() in _CUES_BEFORE):
            name = one if one.group() in first and two.group() in _CUES_AFTER else two
            spans.append(name.span())
        a, b = one.group(), two.group()
        han = _HAN_OR_HANGUL_RUN_RE.match(b)  # "陽一さんに…": the name, then what is said of it
        if han is not None and han.group() in first and a in last:
            spans.append((one.start(), two.start() + han.end()))
        elif (a in first and (b in last or b in first)) or (a in last and b in first):
            spans.append((one.start(), two.end()))
    for run in _HAN_OR_HANGUL_RUN_RE.finditer(text):
        word = run.group()
        spans += _surname_and_honorific(text, run, last)
        for i in range(len(word) - 1):
            for size, length in ((1, 2), (2, 2), (1, 1), (2, 1)):
                given = word[i + size: i + size + length]
                if word[i: i + size] not in last or len(given) != length or given not in first:
                    continue
                tail, head = word[i + size + length:], word[:i]
                # Alone in its word, or between a word that addresses someone and an honorific:
                # "…发给王秀英女士", "김민준님께"; not "王国的历史" inside running text. A given name of
                # one letter ("梁鑫", "李伟经理") needs both sides to say so.
                named_after = not tail or tail.startswith(_AFTER_NAME)
                named_before = not head or head.endswith(_BEFORE_NAME)
                if named_after and named_before and (length == 2 or not (tail and not head)):
                    spans.append((run.start() + i, run.start() + i + size + length))
                    break
    return spans


def _surname_and_honorific(text: str, run: re.Match, last: frozenset[str]) -> list[tuple[int, int]]:
    """A surname alone with an honorific after it, in its word or right after it: "田中さんに聞いて",
    "佐藤様", "王先生说", "김 씨". A surname of one letter only starts its word or follows a word
    that addresses someone ("请联系张女士"): inside a word it is often a word's letter ("中文老师")."""
    word = run.group()
    for i in range(len(word)):
        for size in (2, 1):
            surname = word[i: i + size]
            if len(surname) != size or surname not in last:
                continue
            if size == 1 and i and not word[:i].endswith(_BEFORE_NAME):
                continue
            after = word[i + size:] or text[run.end():].lstrip(" ")
            if after.startswith(_HONORIFICS):
                return [(run.start() + i, run.start() + i + size)]
    return []
