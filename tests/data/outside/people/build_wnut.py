"""Build tests/data/outside/people/wnut.jsonl (and its tuning half) from the WNUT 2017 corpus.

WNUT 2017 "Emerging and rare entities" (https://github.com/leondz/emerging_entities_17, CC BY 4.0;
Derczynski, Nichols, van Erp, Limsopatham 2017) is casual text people wrote: tweets, Reddit and
YouTube comments, Stack Overflow answers, with every person, location, group, creative work,
corporation and product tagged by its annotators (CoNLL files, one token a line, BIO tags). A
sentence is labelled from their tags, never by hand here:

* ``names_person_other``: at least one token tagged ``B-person``;
* ``benign``: no person tag, and no ``@handle`` (WNUT leaves user names untagged, so a sentence
  with one may name someone: it is left out). It may name places, firms, works and products.

Sentences of 4+ tokens and at most 1 KB, written back as text (tokens joined by spaces; no space
before punctuation and English clitics, nor after "@", "#" or an opening bracket; "do n ' t",
"ballhard _ korin" and "/ r / politics" joined again; HTML entities decoded), each kept once.

The split, drawn before any sentence was read: every sentence is a document of its own (a tweet,
a comment); the distinct sentences of the three files are shuffled with a seed and half go to the
tuning file. The first build wrote the texts more simply (no clitics or "@ name" joined) and
dropped a sentence with a handle only when a token started with "@"; its split is kept as it was
drawn (``_first_split``), so the sentences read for tuning stay in the tuning file: a sentence
keeps the half its first text went to, and one the first build did not have draws its half from
a coin seeded with its text.

Not run by the tests. Run it by hand:

    python tests/data/outside/people/build_wnut.py --wnut /path/to/emerging_entities_17
"""

from __future__ import annotations

import argparse
import html
import json
import random
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "wnut.jsonl"
TUNING = HERE.parents[1] / "people_tuning_from_wnut.jsonl"
FILES = ("wnut17train.conll", "emerging.dev.conll", "emerging.test.annotated")
SEED = 2032
NOTE_BYTES = 1024
_NO_SPACE_BEFORE = re.compile(r" (?=[.,!?;:%)\]}]|'s\b|'m\b|'re\b|'ve\b|'ll\b|'d\b|n't\b)", re.IGNORECASE)
_NO_SPACE_AFTER = re.compile(r"(?<=[(\[{$#@]) ")
# The Reddit, YouTube and Stack Overflow files split more: "That ' s", "do n ' t", "@ name",
# "ballhard _ korin", "/ r / politics".
_SPLIT_CLITIC = re.compile(r"(\w) ' (s|t|m|re|ve|ll|d)\b", re.IGNORECASE)
_SPLIT_NOT = re.compile(r"(\w)n ' t\b", re.IGNORECASE)
_SPLIT_UNDERSCORE = re.compile(r"(?<=\w) _ (?=\w)")
_SPLIT_SUBREDDIT = re.compile(r"/ (r|u) / (?=\w)")
_SPLIT_ENTITY = re.compile(r"& (gt|lt|amp|quot) ;")
_HANDLE = re.compile(r"(?<![\w.])@\w")  # a user name, not an e-mail address


def read(path: Path) -> list[list[tuple[str, str]]]:
    """The sentences of a CoNLL file: (token, tag) pairs, a blank line between sentences."""
    sentences, current = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            if current:
                sentences.append(current)
            current = []
            continue
        token, _, tag = line.rpartition("\t") if "\t" in line else line.rpartition(" ")
        current.append((token, tag.strip()))
    if current:
        sentences.append(current)
    return sentences


def text_of(tokens: list[str]) -> str:
    text = " ".join(tokens)
    text = _SPLIT_ENTITY.sub(r"&\1;", text)
    text = _SPLIT_NOT.sub(r"\1n't", text)
    text = _SPLIT_CLITIC.sub(r"\1'\2", text)
    text = _SPLIT_UNDERSCORE.sub("_", text)
    text = _SPLIT_SUBREDDIT.sub(r"/\1/", text)
    text = _NO_SPACE_AFTER.sub("", _NO_SPACE_BEFORE.sub("", text))
    return html.unescape(text)


def _first_text(tokens: list[str]) -> str:
    """The text as the first build wrote it (its split is kept)."""
    text = _SPLIT_ENTITY.sub(r"&\1;", " ".join(tokens))
    return html.unescape(re.sub(r"(?<=[(\[{$#]) ", "", _NO_SPACE_BEFORE.sub("", text)))


def _first_split(folder: Path) -> tuple[set[str], set[str]]:
    """The first build's texts, and those of them it drew for tuning."""
    texts = set()
    for name in FILES:
        for sentence in read(folder / name):
            tokens = [token for token, _ in sentence]
            text = _first_text(tokens)
            person = any(tag == "B-person" for _, tag in sentence)
            if not person and any(re.match(r"^@\w", token) for token in tokens):
                continue
            if len(sentence) >= 4 and len(text.encode("utf-8")) <= NOTE_BYTES:
                texts.add(text)
    order = sorted(texts)
    random.Random(SEED).shuffle(order)
    return texts, set(order[: len(order) // 2])


def _for_tuning(first: str, first_texts: set[str], first_tuning: set[str]) -> bool:
    if first in first_texts:
        return first in first_tuning
    return random.Random(f"{SEED}:{first}").random() < 0.5


def label(sentence: list[tuple[str, str]], text: str) -> str | None:
    if any(tag == "B-person" for _, tag in sentence):
        return "names_person_other"
    return None if _HANDLE.search(text) else "benign"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wnut", type=Path, required=True, help="a checkout of leondz/emerging_entities_17")
    args = parser.parse_args(argv)
    first_texts, first_tuning = _first_split(args.wnut)
    found: dict[str, tuple[str, str]] = {}
    tuning: set[str] = set()
    for name in FILES:
        for sentence in read(args.wnut / name):
            tokens = [token for token, _ in sentence]
            text = text_of(tokens)
            got = label(sentence, text)
            if got is None or len(sentence) < 4 or len(text.encode("utf-8")) > NOTE_BYTES or text in found:
                continue
            found[text] = (got, name)
            if _for_tuning(_first_text(tokens), first_texts, first_tuning):
                tuning.add(text)
    written = {OUT: 0, TUNING: 0}
    with OUT.open("w", encoding="utf-8") as held, TUNING.open("w", encoding="utf-8") as tuned:
        for text in sorted(found):
            got, name = found[text]
            record = {"label": got, "key": "note", "value": text, "source": f"wnut17 {name}"}
            if text in tuning:
                record["tuned_for"] = f"WNUT 2017 sentences drawn for tuning (seed {SEED})"
            (tuned if text in tuning else held).write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
            written[TUNING if text in tuning else OUT] += 1
    print(f"{len(found)} sentences; {written[OUT]} measured ({OUT.name}), {written[TUNING]} for tuning ({TUNING.name})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
