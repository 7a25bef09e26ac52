"""Rule 1 of the person detector (R-SAVE-3b): a title and the name after it ("Ms. Lopez",
"dr. okafor", "Prof. van der Berg"), and where that name ends.
"""

from __future__ import annotations

from memories.refusals.people_cues import _joined
from memories.refusals.people_lexicon import _Lexicon
from memories.refusals.people_tokens import _Token
from memories.refusals.people_words import _FUNCTION, _GROUPS, _PARTICLES, _TITLES


def title_at(text: str, tokens: list[_Token], i: int, lex: _Lexicon) -> int | None:
    """Rule 1: if token i is a title followed by a name, the index of the name's last token."""
    tok = tokens[i]
    if tok.key not in _TITLES or tok.code or tok.possessive or i + 1 >= len(tokens):
        return None
    if tok.start and text[tok.start - 1] in ";/|\\":
        return None  # "TL;DR line", "w/Dr": glued to the word before, no title
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
        # "dr. okafor"; but "Sir bot": after a capitalised title, a lower-case English word is
        # that word (whoever writes "Sir" writes the name with a capital too).
        ok = cand.lower and (in_lists or cand.kind in "SLU") and not (
            tok.cap and cand.key in lex.english)
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
