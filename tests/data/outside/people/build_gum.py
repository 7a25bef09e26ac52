"""Build tests/data/outside/people/gum.jsonl (and its tuning half) from the GUM corpus.

GUM (Georgetown University Multilayer corpus, https://github.com/amir-zeldes/gum) annotates every
mention of an entity with its type (``person``, ``place``, ``organization``…) in the ``Entity``
field of its dependency files (``dep/*.conllu``). Its annotators are not this project: a sentence
is labelled from their annotation, never by hand here.

* ``names_person_other``: the sentence has a person mention whose syntactic head is a singular
  proper noun (UPOS ``PROPN``, XPOS ``NNP``): "Byron received his early formal education …",
  "Dr. William Glennie". Person mentions headed by a common noun, a pronoun, a plural proper noun
  ("Republicans") or a role's word GUM writes as a proper noun ("the Petitioner", "my Lords",
  ``ROLE_WORDS``) are not names; a sentence whose only proper nouns in person mentions are such
  is left out, and so is one whose only person mentions are inside the name of a place or a
  thing ("Webber Douglas Academy", "the George Washington Bus Station").
* ``benign``: the sentence has no person mention holding a proper noun at all (it may name
  places, firms, works and dates).

Only the genres whose texts may be copied for any use are read (LICENSE.txt of GUM): academic
(CC BY 4.0), biographies and travel guides (Wikipedia, Wikivoyage: CC BY-SA 3.0), court (CC BY
4.0), interviews and news (Wikinews: CC BY 2.5); the annotations are CC BY 4.0.

The split, drawn before any sentence was read: the documents are shuffled with a seed and half of
them go to the tuning file; at most ``PER_DOCUMENT`` sentences of each label are kept per document
(drawn with the same seed), so that no biography outweighs the rest.

Not run by the tests. Run it by hand:

    python tests/data/outside/people/build_gum.py --gum /path/to/gum
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "gum.jsonl"
TUNING = HERE.parents[1] / "people_tuning_from_gum.jsonl"
GENRES = ("academic", "bio", "court", "interview", "news", "voyage")
SEED = 2031
PER_DOCUMENT = 8
NOTE_BYTES = 1024
_OPEN_OR_CLOSE = re.compile(r"\((?P<open>[^()]+)(?P<closed>\))?|(?P<close>\d+)\)")


def _mentions(tokens: list[list[str]]) -> list[tuple[str, int, int]]:
    """(entity type, first token, last token) of each mention, from the MISC Entity field."""
    found, open_ = [], {}
    for position, columns in enumerate(tokens):
        misc = dict(part.split("=", 1) for part in columns[9].split("|") if "=" in part)
        for match in _OPEN_OR_CLOSE.finditer(misc.get("Entity", "")):
            if match.group("open"):
                fields = match.group("open").split("-")
                entity, etype = fields[0], fields[1]
                if match.group("closed"):
                    found.append((etype, position, position))
                else:
                    open_.setdefault(entity, []).append((etype, position))
            elif match.group("close"):
                stack = open_.get(match.group("close"))
                if stack:
                    etype, start = stack.pop()
                    found.append((etype, start, position))
    return found


def _head(tokens: list[list[str]], start: int, end: int) -> int:
    """The mention's syntactic head: its token whose head lies outside it."""
    ids = {tokens[i][0] for i in range(start, end + 1)}
    for i in range(start, end + 1):
        if tokens[i][6] not in ids:
            return i
    return end


# Heads of person mentions that GUM tags as proper nouns but that name a role, not a person
# ("the Petitioner", "my Lords", "Governor of Virginia", "Agassiz Professor"): decided from the
# words of English legal and political address, before any sentence was measured.
ROLE_WORDS = frozenset("""
    petitioner respondent appellant appellee plaintiff defendant claimant counsel court governor
    president senator congressman congresswoman representative judge justice magistrate lord lords
    lady ladies sir madam king queen prince princess pope emperor chairman chairwoman chair
    minister secretary mayor professor doctor dean god
""".split())


def _named_head(tokens: list[list[str]], start: int, end: int) -> bool:
    """The mention's head is one person's proper name: a singular proper noun (NNP, not the
    plural NNPS of "Republicans") that is not a role's word."""
    head = tokens[_head(tokens, start, end)]
    return head[3] == "PROPN" and head[4] == "NNP" and head[2].lower() not in ROLE_WORDS


def label(tokens: list[list[str]]) -> str | None:
    mentions = _mentions(tokens)

    def inside_a_name(start: int, end: int) -> bool:
        """Inside another entity's mention, and not its owner ("Daniel's attempts" is
        Daniel's): a person's name in the name of a place or a thing ("Webber Douglas Academy",
        "the George Washington Bus Station") names that place."""
        possessive = end + 1 < len(tokens) and tokens[end + 1][1] in ("'s", "’s", "'", "’")
        return not possessive and any(other != "person" and s <= start and end <= e and (s, e) != (start, end)
                                      for other, s, e in mentions)

    persons = [(start, end) for etype, start, end in mentions if etype == "person" and not inside_a_name(start, end)]
    nested = [(start, end) for etype, start, end in mentions if etype == "person" and inside_a_name(start, end)]
    if any(tokens[i][3] == "PROPN" for start, end in nested for i in range(start, end + 1)):
        if not any(_named_head(tokens, start, end) for start, end in persons):
            return None  # only a place's or a thing's name holds a person's: neither label
    if any(_named_head(tokens, start, end) for start, end in persons):
        return "names_person_other"
    if any(tokens[i][3] == "PROPN" for start, end in persons for i in range(start, end + 1)):
        return None  # a person's mention with a name inside it, not at its head: left out
    return "benign"


def sentences(path: Path) -> list[tuple[str, str]]:
    """(label, text) of each sentence of one .conllu file that can be labelled."""
    out, text, tokens = [], None, []
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("# text = "):
            text = line[len("# text = "):]
        elif line and not line.startswith("#"):
            columns = line.split("\t")
            if columns[0].isdigit():
                tokens.append(columns)
        elif not line and tokens:
            found = label(tokens)
            if found and text and len(tokens) >= 4 and len(text.encode("utf-8")) <= NOTE_BYTES:
                out.append((found, text))
            text, tokens = None, []
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gum", type=Path, required=True, help="a checkout of amir-zeldes/gum (or its dep/)")
    args = parser.parse_args(argv)
    folder = args.gum / "dep" if (args.gum / "dep").is_dir() else args.gum
    documents = sorted(p for p in folder.glob("GUM_*.conllu") if p.name.split("_")[1] in GENRES)
    rng = random.Random(SEED)
    order = documents[:]
    rng.shuffle(order)
    tuning_documents = set(order[: len(order) // 2])
    written = {OUT: 0, TUNING: 0}
    with OUT.open("w", encoding="utf-8") as held, TUNING.open("w", encoding="utf-8") as tuning:
        for document in documents:
            found = sentences(document)
            source = f"gum {document.stem}"
            for wanted in ("names_person_other", "benign"):
                texts = sorted({text for got, text in found if got == wanted})
                for text in rng.sample(texts, min(PER_DOCUMENT, len(texts))):
                    record = {"label": wanted, "key": "note", "value": text, "source": source}
                    into = TUNING if document in tuning_documents else OUT
                    if into is TUNING:
                        record["tuned_for"] = f"GUM documents drawn for tuning (seed {SEED})"
                    (tuning if into is TUNING else held).write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
                    written[into] += 1
    print(f"{len(documents)} documents; {written[OUT]} sentences measured ({OUT.name}), "
          f"{written[TUNING]} for tuning ({TUNING.name})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
