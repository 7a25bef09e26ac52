"""Normalisation, tokens, phrases and keyed digests: the pure half of R-SAVE-3.

Plain pytest, no database:
    .venv/bin/python -m pytest tests/memories/test_phrases.py -p no:django -q
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memories.refusals.phrases import (
    DIGEST_SIZE,
    normalize,
    normalize_email,
    normalize_phone,
    phrase_digest,
    phrases,
    strip_accents,
    word_tokens,
)

KEY = b"k" * 32


def digests(text: str, key: bytes = KEY) -> set[bytes]:
    return {phrase_digest(p, key) for p in phrases(word_tokens(text))}


# --- normalize: case, accents, Unicode forms, punctuation -------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Ana López", "ana lopez"),
        ("ANA LOPEZ!", "ana lopez"),
        ("  ana\t\nlopez  ", "ana lopez"),
        ("José María García", "jose maria garcia"),
        ("Søren Bjørn", "soren bjorn"),
        ("Łukasz Wiśniewski", "lukasz wisniewski"),
        ("Đặng Thị Ngọc", "dang thi ngoc"),
        ("Straße", "strasse"),
        ("Œuvre Ærø", "oeuvre aero"),
        ("Þórsson Gunnarsdóttir", "thorsson gunnarsdottir"),
        ("Zoë naïve café", "zoe naive cafe"),
        ("Çelik Yılmaz Şahin", "celik yilmaz sahin"),
    ],
)
def test_R_SAVE_3_normalize_folds_case_and_accents(raw, expected):
    assert normalize(raw) == expected


def test_R_SAVE_3_normalize_applies_nfkc():
    assert normalize("ＡＮＡ　ＬＯＰＥＺ") == "ana lopez"  # full-width letters and space
    assert normalize("ﬁle") == "file"  # ligature
    assert normalize("ana\u00a0lopez") == "ana lopez"  # no-break space
    assert normalize("Ana Lo\u0301pez") == normalize("Ana L\u00f3pez")  # combining vs precomposed


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("O'Brien", "o brien"),
        ("O’Brien’s table", "o brien s table"),
        ("Jean-Luc Picard", "jean luc picard"),
        ("customer_name", "customer name"),
        ("orders.amount_cents", "orders amount cents"),
        ("Hello, world... (really?)", "hello world really"),
        ("EMP-00421", "emp 00421"),
        ("a/b\\c|d", "a b c d"),
        ("#tag @mention", "tag mention"),
        ("", ""),
        ("!!! ...", ""),
    ],
)
def test_R_SAVE_3_normalize_turns_punctuation_into_single_spaces(raw, expected):
    assert normalize(raw) == expected


def test_R_SAVE_3_normalize_keeps_non_latin_letters():
    assert normalize("Иван Петров") == "иван петров"
    assert normalize("Γιώργος") == "γιωργοσ"


def test_issue_18_han_kana_and_hangul_letters_are_one_word_each():
    """These scripts write no space between words: a name is found inside a sentence and
    whether or not it is written with spaces between its letters."""
    assert normalize("王伟 と 김민준") == "王 伟 と 김 민 준"
    assert normalize("王 小 明") == normalize("王小明") == "王 小 明"
    assert "王 小 明" in set(phrases(word_tokens("请联系王小明关于报告")))


def test_R_SAVE_3_strip_accents_keeps_case():
    assert strip_accents("Søren Łukasz Müller") == "Soren Lukasz Muller"


# --- emails -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        "ana.lopez@example.com",
        "Ana.Lopez@Example.COM",
        "mail ana.lopez@example.com.",
        "<ana.lopez@example.com>",
        "(ana.lopez@example.com)",
        "contact: ana.lopez@example.com, thanks",
    ],
)
def test_R_SAVE_3_email_is_one_token(raw):
    assert "ana.lopez@example.com" in word_tokens(raw)
    assert "lopez" not in word_tokens(raw)


def test_R_SAVE_3_email_matches_as_one_phrase_and_not_as_its_words():
    record = digests("ana.lopez@example.com")
    assert digests("Please write to Ana.Lopez@Example.com today") & record
    # The words of the address alone do not match the address.
    assert not digests("ana lopez example com") & record
    assert not digests("ana.lopez@example.org") & record


def test_R_SAVE_3_email_with_plus_digits_and_accents():
    assert word_tokens("J.Okafor+reports@Partner-Co.io") == ["j.okafor@partner-co.io"]
    assert normalize_email(" José.García@Empresa.MX ") == "jose.garcia@empresa.mx"
    assert word_tokens("ana_lopez1@example.co.uk") == ["ana_lopez1@example.co.uk"]


def test_issue_18_an_email_with_a_plus_tag_is_the_same_address():
    """RFC 5233 sub-addressing: the tag reaches the same mailbox, so it names the same person."""
    assert digests("ana.lopez+crm@example.com") == digests("Ana.Lopez@Example.com")
    assert normalize_email("Ana.Lopez+Reports+2024@Example.com") == "ana.lopez@example.com"
    # A local part that is only a tag has nothing left to drop it from: kept as written.
    assert word_tokens("send to +crm@example.com") == ["send", "to", "+crm@example.com"]


def test_R_SAVE_3_not_an_email():
    assert word_tokens("@ana and ana@ and a@b") == ["ana", "and", "ana", "and", "a", "b"]


# --- phone numbers ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        "+1 (415) 555-0134",
        "415-555-0134",
        "(415) 555-0134",
        "415.555.0134",
        "1-415-555-0134",
        "+1-415-555-0134",
        "+14155550134",
        "4155550134",
        "415 555 0134",
        "tel:+14155550134",
        "+1 415 555 0134 ext. 22",
        "+1-415-555-0134x22",
    ],
)
def test_R_SAVE_3_phone_formats_of_one_number_match(raw):
    assert normalize_phone("+1 (415) 555-0134") == "155550134"
    assert "155550134" in word_tokens(f"call {raw} today")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("+44 20 7946 0958", "020 7946 0958"),  # UK: trunk 0 instead of +44
        ("+33 6 12 34 56 78", "06 12 34 56 78"),  # FR: 9-digit national number
        ("+33 6 12 34 56 78", "06.12.34.56.78"),
        ("+49 30 1234567", "030 1234567"),  # DE
        ("+81 90-1234-5678", "090-1234-5678"),  # JP
        ("+82 10-1234-5678", "010-1234-5678"),  # KR
        ("+86 138 0013 8000", "138 0013 8000"),  # CN
        ("+234 803 555 0199", "0803 555 0199"),  # NG
        ("0044 20 7946 0958", "+44 20 7946 0958"),
    ],
)
def test_R_SAVE_3_phone_with_and_without_country_code_match(a, b):
    assert digests(a) & digests(b)
    assert normalize(a) == normalize(b)


def test_R_SAVE_3_phone_keeps_last_9_digits_documented_choice():
    assert normalize_phone("+1 (415) 555-0134") == "155550134"
    assert normalize_phone("+44 20 7946 0958") == "079460958"
    # A number of 7 to 9 digits keeps all its digits.
    assert normalize_phone("(030) 1234") == "0301234"
    # The limit of the choice: an 8-digit national number (Norway) with its country code
    # keeps 9 digits, without it is two words, so the two forms do not match.
    assert normalize_phone("+47 2212 3456") == "722123456"
    assert normalize("2212 3456") == "2212 3456"
    assert normalize("call (030) 1234") == "call 0301234"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("on 2024-05-01 at 10:30", "on 2024 05 01 at 10 30"),
        ("at 2024-05-01T10:30:00Z ok", "at 2024 05 01 10 30 00 ok"),
        ("due 05/01/2024", "due 05 01 2024"),
        ("ip 192.168.100.200", "ip 192 168 100 200"),
        ("pi is 3.14159265", "pi is 3 14159265"),
        ("version 10.2.33", "version 10 2 33"),
        ("rows 2023 2024 2025", "rows 2023 2024 2025"),
        ("range 2023-2024", "range 2023 2024"),
        ("counts 100 200 300 400", "counts 100 200 300 400"),
        ("order 1234567", "order 1234567"),
        ("ext 555-0134", "ext 555 0134"),
        ("card 4111 1111 1111 1111", "card 4111 1111 1111 1111"),
        ("$1,234,567.89", "1 234 567 89"),
    ],
)
def test_R_SAVE_3_dates_versions_ips_and_amounts_are_not_phones(raw, expected):
    assert normalize(raw) == expected


def test_R_SAVE_3_normalize_phone_refuses_non_phone():
    with pytest.raises(ValueError):
        normalize_phone("2024-05-01")
    with pytest.raises(ValueError):
        normalize_phone("12345")


# --- tokens, word boundaries, phrases ---------------------------------------------------


def test_R_SAVE_3_word_tokens():
    assert word_tokens("Ms. Ana López, EMP-00421") == ["ms", "ana", "lopez", "emp", "00421"]
    assert word_tokens("") == []
    assert word_tokens("   ") == []


def test_R_SAVE_3_ana_does_not_match_inside_banana():
    record = digests("Ana")
    assert not digests("Banana bread is on the menu") & record
    assert not digests("Anastasia and Ananya") & record
    assert not digests("analytics") & record
    assert digests("lunch with ana") & record
    assert digests("Lunch with Ana.") & record


def test_R_SAVE_3_full_name_matches_in_any_case_and_accent_form():
    record = digests("Ana María López")
    for note in ("ana maria lopez said hi", "ANA MARÍA LÓPEZ", "per Ana María López,"):
        assert phrase_digest("ana maria lopez", KEY) in digests(note)
    assert phrase_digest("ana maria lopez", KEY) in record


def test_R_SAVE_3_phrases_are_runs_of_one_to_four_words():
    assert list(phrases(["a", "b", "c"])) == ["a", "a b", "a b c", "b", "b c", "c"]
    five = list(phrases(["a", "b", "c", "d", "e"]))
    assert "a b c d" in five
    assert "a b c d e" not in five
    assert max(len(p.split(" ")) for p in five) == 4
    assert len(five) == 5 + 4 + 3 + 2
    assert list(phrases(["a", "b", "c"], max_words=1)) == ["a", "b", "c"]
    assert list(phrases([])) == []
    assert list(phrases(["a", "", "b"])) == ["a", "a b", "b"]
    with pytest.raises(ValueError):
        list(phrases(["a"], max_words=0))


def test_R_SAVE_3_phrases_is_lazy():
    gen = phrases(iter(["a", "b"]))
    assert next(gen) == "a"


def test_R_SAVE_3_phrases_joined_by_single_space():
    for p in phrases(word_tokens("Ana   María\tLópez")):
        assert "  " not in p and p == p.strip()


# --- digests ----------------------------------------------------------------------------


def test_R_SAVE_3_phrase_digest_is_keyed_blake2b_16_bytes():
    digest = phrase_digest("ana lopez", KEY)
    assert isinstance(digest, bytes) and len(digest) == DIGEST_SIZE == 16
    expected = hashlib.blake2b(b"ana lopez", digest_size=16, key=KEY).digest()
    assert digest == expected
    assert phrase_digest("ana lopez", KEY) == digest  # deterministic
    assert phrase_digest("ana lopez", b"other key") != digest  # keyed
    assert phrase_digest("ana lopes", KEY) != digest
    assert (
        phrase_digest("josé", KEY)
        == hashlib.blake2b("josé".encode(), digest_size=16, key=KEY).digest()
    )  # UTF-8, hashed as given


def test_R_SAVE_3_phrase_digest_rejects_bad_keys():
    with pytest.raises(ValueError):
        phrase_digest("x", b"")
    with pytest.raises(ValueError):
        phrase_digest("x", b"k" * 65)
    with pytest.raises(TypeError):
        phrase_digest("x", "not bytes")  # type: ignore[arg-type]
    assert len(phrase_digest("x", bytearray(b"k" * 64))) == 16


# --- properties -------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_R_SAVE_3_normalize_is_idempotent_and_clean(text):
    once = normalize(text)
    assert normalize(once) == once
    assert once == once.strip()
    assert "  " not in once
    assert once == once.casefold() or not once.isascii()
    assert word_tokens(text) == (once.split(" ") if once else [])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abcdefghij", min_size=1, max_size=5), max_size=12))
def test_R_SAVE_3_phrases_count(tokens):
    n = len(tokens)
    expected = sum(min(4, n - i) for i in range(n))
    assert len(list(phrases(tokens))) == expected


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(categories=["L", "Nd", "Zs", "P"]), max_size=120))
def test_R_SAVE_3_case_and_accents_do_not_change_tokens(text):
    assert word_tokens(text.upper()) == word_tokens(text.lower()) or not text.isascii()
    assert word_tokens(strip_accents(text)) == word_tokens(text)
