"""A firm named after people (R-SAVE-3b, issue 18): a name right before a legal form ("Prévost
Lemaître S.A.S.", "Koch Zorbach KG", "Łyskawa Sp. z o.o.") or right after a firm's word
("Grupo Castillo-Zúñiga", "Fundacja Szlufik") names the firm, not a person. The forms and words
are Faker's company suffixes and prefixes (data/people_legal_forms.txt, people_firm_prefixes.txt);
the English ones ("Inc", "Ltd", "GmbH") are the firm words of people_addresses.
"""

from __future__ import annotations

import re

from memories.refusals.wordlists import entries

__all__ = ["named_firm"]


def _alternation(forms: tuple[str, ...]) -> str:
    return "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))


# Matched as written: "AS" is a Norwegian firm's form, "as" a word.
_LEGAL_FORM_AFTER = re.compile(r",?[ \t]+(?:" + _alternation(entries("people_legal_forms")) + r")(?![\w&])")
_FIRM_PREFIX_BEFORE = re.compile(r"(?:^|(?<=[\s(\"']))(?:" + _alternation(entries("people_firm_prefixes"))
                                 + r")[ \t]+$")


# One-word forms without their dots, as the detector's words end: "Auvinen Oy", "Nagy Zrt".
_ONE_WORD_FORMS = frozenset(form.rstrip(".") for form in entries("people_legal_forms") if " " not in form)
_FIRM_PREFIXES = frozenset(entries("people_firm_prefixes"))


def named_firm(text: str, start: int, end: int) -> bool:
    """Whether the name at ``text[start:end]`` is written as a firm's name (its last word may be
    the form itself, its first the firm's word: the detector reads "Oy" or "Grupo" as name words)."""
    words = text[start:end].split()
    if len(words) > 1 and (words[-1] in _ONE_WORD_FORMS or words[0] in _FIRM_PREFIXES):
        return True  # the form or the firm's word read as a name word: "Auvinen Oy", "Grupo Castillo"
    return (_LEGAL_FORM_AFTER.match(text, end) is not None
            or _FIRM_PREFIX_BEFORE.search(text, max(0, start - 24), start) is not None)
